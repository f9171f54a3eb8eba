//! Stationary distribution πQ = 0, π1 = 1 of the chain.
//!
//! Block algorithm ([`block_solve`]): linear level reduction (censoring)
//! from the top level down, the scheme of Klimenok et al. that paper 002
//! (§3, steps 1–5) cites, written for an upper block Hessenberg generator:
//! eliminating level n from the chain censored on levels ≤ n gives
//!   G_n = (−Q̃_{n,n})⁻¹ Q_{n,n−1},   Q̃_{i,n−1} += Q̃_{i,n} G_n  (i < n),
//! where Q̃ are the blocks of the censored chain (Q̃_{n,n} includes the
//! returns through higher levels). G_n is the matrix of first-passage
//! probabilities from level n down to level n − 1 and every update adds
//! non-negative terms, so there is no cancellation (as in GTH). Then π₀ is
//! the stationary vector of the censored generator Q̃_{0,0} and
//!   π_n = (Σ_{i<n} π_i Q̃_{i,n}) (−Q̃_{n,n})⁻¹,   n = 1..L.
//! Blocks are dense but only the band j ≤ i + k (k = largest batch) is
//! stored, since the reduction never fills outside it: storage O(L·k·d²),
//! work Σ_n (d_n³ + Σ_{n−k ≤ i<n} d_i d_n d_{n−1}). For R = 1 this solves
//! 10⁶-state chains in seconds.
//!
//! Alternative ([`sparse_solve`]): sparse LU of the whole chain (faer),
//! a cross-check and the formulation the SciPy comparison times. With
//! R ≥ 2 the level blocks are R-ary hypercubes in the obsolescence phases
//! and fill in badly under any ordering, so both direct methods stay cubic
//! in the top level (W·M·R^{L−1} states); [`stationary`] then switches to
//! the iterative method of [`super::iterative`].
//!
//! Cross-check ([`dense_solve`]): the whole generator as a dense matrix, one
//! LU solve with the normalisation replacing an equation (small models).

use super::state::StateSpace;
use crate::error::{Error, Result};
use crate::limits::Control;
use faer::linalg::matmul::matmul;
use faer::linalg::solvers::{PartialPivLu, Solve};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use faer::{Accum, Mat, Par};
use nalgebra::{DMatrix, DVector};
use sprs::CsMat;

/// Largest number of dense block entries the block solver may hold (8 GB
/// of f64). Beyond it [`stationary`] falls back to sparse LU, which needs
/// more memory than the band on the same chain, so a lower limit would
/// not save memory, only switch to the slower method.
pub const MAX_BLOCK_ENTRIES: usize = 1_000_000_000;
/// Largest chain [`dense_solve`] accepts.
pub const MAX_DENSE_STATES: usize = 5000;

/// Bytes per state that an evaluation holds besides the level blocks: the
/// generator's triplets (8 × 24) and CSR form (8 × 16 + 8), the level
/// offsets and the stationary vector with its copies (24).
pub const BYTES_PER_STATE: u128 = 352;

/// Bytes one evaluation (generator, stationary solve, measures) of a chain
/// with W, M, R phases, levels 0..=`max_level` and largest batch `k` needs,
/// for the method [`stationary`] picks: [`block_bytes`] when every level
/// has at most [`MAX_BLOCK_LEVEL`] states, else [`iterative_bytes`] (whose
/// entry bound uses `pattern`). `None` on overflow. No allocation, so it
/// runs before anything is built.
pub fn evaluation_bytes(
    w: usize,
    m: usize,
    r: usize,
    max_level: usize,
    k: usize,
    pattern: &RowPattern,
) -> Option<u128> {
    let largest = level_states(w as u128, m as u128, r as u128, max_level as u128)?;
    if largest <= MAX_BLOCK_LEVEL as u128 {
        block_bytes(w, m, r, max_level, k)
    } else {
        iterative_bytes(w, m, r, max_level, k, pattern)
    }
}

/// States of level i: W arrival phases at level 0, W·M·R^(i−1) above
/// (service phase, and the obsolescence phase of each of the i − 1
/// waiting pages). `None` on overflow.
fn level_states(w: u128, m: u128, r: u128, i: u128) -> Option<u128> {
    if i == 0 {
        Some(w)
    } else {
        w.checked_mul(m)?
            .checked_mul(r.checked_pow(u32::try_from(i - 1).ok()?)?)
    }
}

/// How many entries the service and obsolescence distributions put in a
/// generator row, for [`generator_size`]: `starts` service phases a page
/// can start in (β's support), `fresh` obsolescence phases a waiting page
/// can start in (γ's support), `page_moves` the most transitions out of
/// one obsolescence phase (moves plus exit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowPattern {
    /// Service phases with β_m > 0.
    pub starts: usize,
    /// Obsolescence phases with γ_r > 0.
    pub fresh: usize,
    /// Largest count, over obsolescence phases, of positive moves and exit.
    pub page_moves: usize,
}

impl RowPattern {
    /// No zero to exploit: every phase reachable (an upper bound for any
    /// distributions with these orders).
    pub fn dense(m: usize, r: usize) -> Self {
        RowPattern {
            starts: m,
            fresh: r,
            page_moves: r,
        }
    }

    /// The pattern of a service distribution and an optional obsolescence.
    pub fn of(
        service: &crate::dist::PhaseType,
        obsolescence: Option<&crate::dist::PhaseType>,
    ) -> Self {
        let support = |v: &[f64]| v.iter().filter(|&&x| x > 0.0).count().max(1);
        let (fresh, page_moves) = match obsolescence {
            None => (1, 1),
            Some(ph) => {
                let g = ph.sub_generator();
                let moves = (0..g.nrows())
                    .map(|a| {
                        (0..g.ncols())
                            .filter(|&b| b != a && g[(a, b)] > 0.0)
                            .count()
                            + usize::from(ph.exit_rates()[a] > 0.0)
                    })
                    .max()
                    .unwrap_or(1);
                (support(ph.alpha()), moves.max(1))
            }
        };
        RowPattern {
            starts: support(service.alpha()),
            fresh,
            page_moves,
        }
    }
}

/// Bytes per generator entry held by an iterative solve: the generator's
/// CSR (16, doubled for the growth of its arrays while it is built), Q̂'s
/// copy (16) and the ILU(0) values (8).
pub const ITERATIVE_BYTES_PER_ENTRY: u128 = 56;
/// Bytes per state held by an iterative solve besides the entries: row
/// pointers and diagonal positions (32), ten BiCGSTAB vectors (80), the
/// stationary vector and its copies (24), rounded up.
pub const ITERATIVE_BYTES_PER_STATE: u128 = 160;

/// Upper bound on the generator's entries in one row at level `i` (with
/// the diagonal): D₀ moves (W − 1), batches of 1..=k pages to W phases
/// with a fresh obsolescence phase per admitted waiting page, service
/// moves and completions (2M), obsolescence moves and exits of the i − 1
/// waiting pages (`page_moves` each; one in all when R = 1, where they
/// leave together).
fn row_entries(
    w: u128,
    m: u128,
    r: u128,
    l: u128,
    k: u128,
    i: u128,
    p: &RowPattern,
) -> Option<u128> {
    let (starts, fresh, page_moves) = (p.starts as u128, p.fresh as u128, p.page_moves as u128);
    // A batch of j pages admits a = min(j, L − i) pages: every j ≥ L − i
    // reaches the targets of a = L − i, and a = 0 (a full buffer) only the
    // phase moves D₀ already reaches.
    let top = l - i;
    let mut batches: u128 = 0;
    for a in 1..=k.min(top) {
        let waiting = if i == 0 { a - 1 } else { a };
        let fan = if i == 0 { starts } else { 1 };
        batches = batches.checked_add(
            w.checked_mul(fan)?
                .checked_mul(fresh.checked_pow(u32::try_from(waiting).ok()?)?)?,
        )?;
    }
    let pages = if i == 0 {
        0
    } else if r == 1 {
        1
    } else {
        (i - 1).checked_mul(page_moves)?
    };
    let service = if i == 0 { 0 } else { 2 * m };
    w.checked_add(batches)?
        .checked_add(service)?
        .checked_add(pages)?
        .checked_add(1)
}

/// Bytes of [`iterative`](super::iterative) evaluation:
/// [`ITERATIVE_BYTES_PER_STATE`] per state plus
/// [`ITERATIVE_BYTES_PER_ENTRY`] per generator entry of [`generator_size`].
/// `None` on overflow.
pub fn iterative_bytes(
    w: usize,
    m: usize,
    r: usize,
    max_level: usize,
    k: usize,
    pattern: &RowPattern,
) -> Option<u128> {
    let (states, entries) = generator_size(w, m, r, max_level, k, pattern)?;
    states
        .checked_mul(ITERATIVE_BYTES_PER_STATE)?
        .checked_add(entries.checked_mul(ITERATIVE_BYTES_PER_ENTRY)?)
}

/// The chain's dimensions (W, M, R, L, K) as `u128`, in which the size
/// sums below are checked.
fn wide(w: usize, m: usize, r: usize, l: usize, k: usize) -> (u128, u128, u128, u128, u128) {
    (w as u128, m as u128, r as u128, l as u128, k as u128)
}

/// States and an upper bound on the generator's entries (diagonal
/// included), by [`row_entries`] level by level. O(L·k) time with L ≤ 64
/// when R ≥ 2, O(k²) when R = 1. `None` on overflow.
pub fn generator_size(
    w: usize,
    m: usize,
    r: usize,
    max_level: usize,
    k: usize,
    pattern: &RowPattern,
) -> Option<(u128, u128)> {
    let (w, m, r, l, k) = wide(w, m, r, max_level, k);
    let d = |i: u128| level_states(w, m, r, i);
    let level = |i: u128| -> Option<(u128, u128)> {
        Some((
            d(i)?,
            d(i)?.checked_mul(row_entries(w, m, r, l, k, i, pattern)?)?,
        ))
    };
    let (mut states, mut entries): (u128, u128) = (0, 0);
    // With R = 1 every level in 2..L−k has the same size and rows.
    let (lo, hi) = if r == 1 && l > k + 3 {
        (2, l - k)
    } else {
        (1, 0)
    };
    if lo <= hi {
        let (s, e) = level(2)?;
        states = s.checked_mul(hi - lo)?;
        entries = e.checked_mul(hi - lo)?;
    }
    let mut i: u128 = 0;
    while i <= l {
        if i == lo && lo <= hi {
            i = hi;
        }
        let (s, e) = level(i)?;
        states = states.checked_add(s)?;
        entries = entries.checked_add(e)?;
        i += 1;
    }
    Some((states, entries))
}

/// Bytes of a banded block solve: [`BYTES_PER_STATE`] per state plus the
/// dense band of [`block_entries`] (8 bytes each). `None` on overflow. No
/// allocation and O(k + L) time with L ≤ 64 when R ≥ 2, O(k) when R = 1.
pub fn block_bytes(w: usize, m: usize, r: usize, max_level: usize, k: usize) -> Option<u128> {
    let (w, m, r, l, k) = wide(w, m, r, max_level, k);
    let d = |i: u128| level_states(w, m, r, i);
    // Σ_{i<j} d_i in closed form, so the band sum costs O(1) per level.
    let prefix = |j: u128| -> Option<u128> {
        if j == 0 {
            return Some(0);
        }
        let geometric = if r == 1 {
            j - 1
        } else {
            (r.checked_pow(u32::try_from(j - 1).ok()?)? - 1) / (r - 1)
        };
        w.checked_add(w.checked_mul(m)?.checked_mul(geometric)?)
    };
    // Band entries of level i: d_i (d_{i−1} + Σ_{j=i}^{min(i+k, L)} d_j).
    let entries = |i: u128| -> Option<u128> {
        let below = if i == 0 { 0 } else { d(i - 1)? };
        let right = prefix((i + k).min(l) + 1)?.checked_sub(prefix(i)?)?;
        d(i)?.checked_mul(below.checked_add(right)?)
    };
    let states = prefix(l + 1)?;
    let mut band: u128 = 0;
    // With R = 1 (10^7 levels and more) levels 2..L−k all hold the same
    // band: count them once, so the estimate stays O(k) instead of O(L).
    let (lo, hi) = if r == 1 && l > k + 3 {
        (2, l - k)
    } else {
        (1, 0)
    };
    if lo <= hi {
        band = entries(2)?.checked_mul(hi - lo)?;
    }
    let mut i: u128 = 0;
    while i <= l {
        if i == lo && lo <= hi {
            i = hi;
        }
        band = band.checked_add(entries(i)?)?;
        i += 1;
    }
    states
        .checked_mul(BYTES_PER_STATE)?
        .checked_add(band.checked_mul(8)?)
}

/// Largest upward level jump of the generator (the maximum admitted batch);
/// `Numerical` if an entry goes down more than one level.
pub fn bandwidth(space: &StateSpace, q: &CsMat<f64>) -> Result<usize> {
    let mut k = 0;
    for (row, vec) in q.outer_iterator().enumerate() {
        let i = space.level_of(row);
        for (col, _) in vec.iter() {
            let j = space.level_of(col);
            if j + 1 < i {
                return Err(Error::Numerical(format!(
                    "generator entry from level {i} to level {j}: not upper block Hessenberg"
                )));
            }
            k = k.max(j.saturating_sub(i));
        }
    }
    Ok(k)
}

/// Dense entries the banded block solver stores: Σ_i d_i (d_{i−1} + Σ_{j=i}^{i+k} d_j).
/// The band does not widen during the reduction: eliminating level n only
/// updates Q̃_{i,n−1} for the k levels i ∈ [n−k, n) that reach n, and those
/// blocks are already inside the band.
pub fn block_entries(space: &StateSpace, k: usize) -> Option<usize> {
    let l = space.max_level();
    let mut total: usize = 0;
    for i in 0..=l {
        for j in i.saturating_sub(1)..=(i + k).min(l) {
            total = total.checked_add(space.level_size(i).checked_mul(space.level_size(j))?)?;
        }
    }
    Some(total)
}

/// Stationary distribution by level reduction (see the module docs), with
/// the blocks stored in a band of width `k` = the largest batch: storage
/// Σ_i d_i (d_{i−1} + Σ_{j ≤ i+k} d_j) = O(L·k·d²), work O(L·(d³ + k·d³)).
/// `TooLarge` when the band would exceed [`MAX_BLOCK_ENTRIES`] (then use
/// [`sparse_solve`] or [`stationary`]).
pub fn block_solve(space: &StateSpace, q: &CsMat<f64>) -> Result<Vec<f64>> {
    block_solve_with(space, q, &Control::default())
}

/// [`block_solve`], checking `control` before each level's elimination
/// (`Cancelled` then).
pub fn block_solve_with(space: &StateSpace, q: &CsMat<f64>, control: &Control) -> Result<Vec<f64>> {
    let l = space.max_level();
    let k = bandwidth(space, q)?;
    block_entries(space, k).filter(|&e| e <= MAX_BLOCK_ENTRIES).ok_or_else(|| {
        Error::TooLarge(format!(
            "the chain has {} states; its dense level blocks would exceed {MAX_BLOCK_ENTRIES} entries \
             (largest level has {} states, band width {k})",
            space.len(),
            space.level_size(l)
        ))
    })?;
    let d = |i: usize| space.level_size(i);
    // up[i][j − i] = Q̃_{i,j} for i ≤ j ≤ min(i + k, L); down[i] = Q_{i,i−1}.
    let mut up: Vec<Vec<Mat<f64>>> = (0..=l)
        .map(|i| {
            (i..=(i + k).min(l))
                .map(|j| Mat::zeros(d(i), d(j)))
                .collect()
        })
        .collect();
    let mut down: Vec<Mat<f64>> = (0..=l)
        .map(|i| Mat::zeros(d(i), if i == 0 { 0 } else { d(i - 1) }))
        .collect();
    for (row, vec) in q.outer_iterator().enumerate() {
        let i = space.level_of(row);
        let r = row - space.offset(i);
        for (col, &v) in vec.iter() {
            let j = space.level_of(col);
            let c = col - space.offset(j);
            if j + 1 == i {
                down[i][(r, c)] += v;
            } else {
                // bandwidth() checked j ∈ [i − 1, i + k].
                up[i][j - i][(r, c)] += v;
            }
        }
    }
    // Backward elimination; the LU of −Q̃_{n,n} is kept for the forward pass.
    let mut lus: Vec<Option<BlockLu>> = (0..=l).map(|_| None).collect();
    for n in (1..=l).rev() {
        control.check("the block method", (l - n) as u64)?;
        let lu = BlockLu::new(&up[n][0], &down[n])?;
        // Q̃_{n,n} is only needed through its LU from here on.
        up[n][0] = Mat::zeros(0, 0);
        let mut g = std::mem::replace(&mut down[n], Mat::zeros(0, 0));
        lu.solve_in_place(&mut g);
        check_finite(&g, n)?;
        for i in n.saturating_sub(k)..n {
            let (lo, hi) = up[i].split_at_mut(n - i);
            matmul(
                lo[n - 1 - i].as_mut(),
                Accum::Add,
                hi[0].as_ref(),
                g.as_ref(),
                1.0,
                Par::Seq,
            );
        }
        lus[n] = Some(lu);
    }
    // π₀ from the censored chain on level 0, then forward.
    let q00 = DMatrix::from_fn(d(0), d(0), |r, c| up[0][0][(r, c)]);
    let pi0 = crate::numeric::markov::stationary_gth(&q00)
        .map_err(|e| Error::Numerical(format!("level 0: {e}")))?;
    let mut pi: Vec<Mat<f64>> = Vec::with_capacity(l + 1);
    pi.push(Mat::from_fn(d(0), 1, |r, _| pi0[r]));
    for n in 1..=l {
        let mut b = Mat::zeros(d(n), 1);
        for i in n.saturating_sub(k)..n {
            matmul(
                b.as_mut(),
                Accum::Add,
                up[i][n - i].transpose(),
                pi[i].as_ref(),
                1.0,
                Par::Seq,
            );
        }
        if let Some(lu) = &lus[n] {
            lu.solve_transpose_in_place(&mut b);
        }
        check_finite(&b, n)?;
        pi.push(b);
    }
    let flat: Vec<f64> = pi
        .iter()
        .flat_map(|v| (0..v.nrows()).map(move |r| v[(r, 0)]))
        .collect();
    normalise(flat)
}

/// Levels up to this size factor −Q̃_{n,n} by GTH elimination; larger ones
/// (R ≥ 2 hypercubes) use faer's blocked LU, with only the diagonal made
/// GTH-consistent, for speed.
const GTH_BLOCK_MAX: usize = 128;

/// The factorisation of −Q̃_{n,n}, an M-matrix whose row sums are the rates
/// down to level n − 1.
///
/// Why GTH (Grassmann, Taksar, Heyman): Q̃_{n,n}'s diagonal sums −(rates
/// out) and +(returns through the higher levels), and the Schur
/// complements of a plain LU subtract again; both cancel when nearly every
/// excursion returns. Found by tests/robustness.rs against a GTH solve:
/// M/H2/1/101 with rates 1.3e−8 .. 0.089 had P(empty) 175 times too large,
/// M/H2/1/3 with 1.8e−9 .. 2.1e7 P(busy) 5% off. GTH computes every pivot
/// as a sum of rates (to the states not yet eliminated, and down), so
/// factors and solves add non-negative terms only.
enum BlockLu {
    /// Row-major d × d: above the diagonal the rates q_kj, on it the
    /// pivots (outflow of k), below it the multipliers q_ik / out_k.
    Gth {
        d: usize,
        f: Vec<f64>,
    },
    Faer(PartialPivLu<f64>),
}

impl BlockLu {
    fn new(q: &Mat<f64>, down: &Mat<f64>) -> Result<Self> {
        let d = q.nrows();
        let exit = |r: usize| (0..down.ncols()).map(|c| down[(r, c)]).sum::<f64>();
        if d > GTH_BLOCK_MAX {
            let mut a = -q;
            for r in 0..d {
                a[(r, r)] = exit(r) + (0..d).filter(|&c| c != r).map(|c| q[(r, c)]).sum::<f64>();
            }
            return Ok(BlockLu::Faer(a.partial_piv_lu()));
        }
        let mut f = vec![0.0; d * d];
        for r in 0..d {
            for c in (0..d).filter(|&c| c != r) {
                f[r * d + c] = q[(r, c)];
            }
        }
        let mut e: Vec<f64> = (0..d).map(exit).collect();
        for k in 0..d {
            let out = e[k] + f[k * d + k + 1..(k + 1) * d].iter().sum::<f64>();
            if !(out > 0.0 && out.is_finite()) {
                return Err(Error::Numerical(format!(
                    "a censored level block is singular (state {k})"
                )));
            }
            f[k * d + k] = out;
            for i in k + 1..d {
                let m = f[i * d + k] / out;
                f[i * d + k] = m;
                if m != 0.0 {
                    for j in (k + 1..d).filter(|&j| j != i) {
                        f[i * d + j] += m * f[k * d + j];
                    }
                    e[i] += m * e[k];
                }
            }
        }
        Ok(BlockLu::Gth { d, f })
    }

    /// b ← (−Q̃_{n,n})⁻¹ b.
    fn solve_in_place(&self, b: &mut Mat<f64>) {
        match self {
            BlockLu::Faer(lu) => lu.solve_in_place(b.as_mut()),
            BlockLu::Gth { d, f } => {
                let d = *d;
                for c in 0..b.ncols() {
                    for i in 1..d {
                        let s: f64 = (0..i).map(|k| f[i * d + k] * b[(k, c)]).sum();
                        b[(i, c)] += s;
                    }
                    for k in (0..d).rev() {
                        let s: f64 = (k + 1..d).map(|j| f[k * d + j] * b[(j, c)]).sum();
                        b[(k, c)] = (b[(k, c)] + s) / f[k * d + k];
                    }
                }
            }
        }
    }

    /// b ← (−Q̃_{n,n})⁻ᵀ b.
    fn solve_transpose_in_place(&self, b: &mut Mat<f64>) {
        match self {
            BlockLu::Faer(lu) => lu.solve_transpose_in_place(b.as_mut()),
            BlockLu::Gth { d, f } => {
                let d = *d;
                for c in 0..b.ncols() {
                    for k in 0..d {
                        let s: f64 = (0..k).map(|j| f[j * d + k] * b[(j, c)]).sum();
                        b[(k, c)] = (b[(k, c)] + s) / f[k * d + k];
                    }
                    for k in (0..d.saturating_sub(1)).rev() {
                        let s: f64 = (k + 1..d).map(|i| f[i * d + k] * b[(i, c)]).sum();
                        b[(k, c)] += s;
                    }
                }
            }
        }
    }
}

/// A singular censored block shows up as non-finite entries after the solve.
fn check_finite(m: &Mat<f64>, level: usize) -> Result<()> {
    for c in 0..m.ncols() {
        for r in 0..m.nrows() {
            if !m[(r, c)].is_finite() {
                return Err(Error::Numerical(format!(
                    "level {level}: the censored diagonal block is singular"
                )));
            }
        }
    }
    Ok(())
}

/// Stationary distribution by sparse LU (faer, with its fill-reducing
/// ordering) of the whole chain: with π_ref = 1 for a reference state,
/// πQ = 0 minus the equation of ref is B y = b with B = (Q without row and
/// column ref)ᵀ — nonsingular for an irreducible chain and as sparse as Q
/// (bordering by a row of ones would add a dense row and ruin the fill-in)
/// — and b = −(row ref of Q without ref)ᵀ. Two steps of iterative
/// refinement against Q itself bring the residual to rounding level.
pub fn sparse_solve(q: &CsMat<f64>) -> Result<Vec<f64>> {
    let n = q.rows();
    if n != q.cols() || !q.is_csr() {
        return Err(Error::invalid("the generator must be a square CSR matrix"));
    }
    if n == 1 {
        return Ok(vec![1.0]);
    }
    // Reference: the state with the largest outflow rate is as good as any
    // for nonsingularity; state 0 (empty buffer) keeps the choice simple.
    let reference = 0usize;
    let shift = |j: usize| if j > reference { j - 1 } else { j };
    // Column c of B (CSC) = row c of Q (CSR) with ref removed.
    let mut col_ptr = Vec::with_capacity(n);
    let mut row_idx = Vec::with_capacity(q.nnz());
    let mut vals = Vec::with_capacity(q.nnz());
    let mut b = vec![0.0; n - 1];
    col_ptr.push(0usize);
    for (row, vec) in q.outer_iterator().enumerate() {
        if row == reference {
            for (col, &v) in vec.iter() {
                if col != reference {
                    b[shift(col)] -= v;
                }
            }
            continue;
        }
        for (col, &v) in vec.iter() {
            if col != reference {
                row_idx.push(shift(col));
                vals.push(v);
            }
        }
        col_ptr.push(row_idx.len());
    }
    let sym = SymbolicSparseColMatRef::new_checked(n - 1, n - 1, &col_ptr, None, &row_idx);
    let bm = SparseColMatRef::new(sym, &vals);
    let lu = bm
        .sp_lu()
        .map_err(|e| Error::Numerical(format!("sparse LU of the generator failed: {e:?}")))?;
    let mut y = b.clone();
    lu.solve_in_place(faer::MatMut::from_column_major_slice_mut(&mut y, n - 1, 1));
    for _ in 0..2 {
        // r = b − B y, B y computed column by column (= rows of Q).
        let mut r = b.clone();
        for (c, w) in col_ptr.windows(2).enumerate() {
            for t in w[0]..w[1] {
                r[row_idx[t]] -= vals[t] * y[c];
            }
        }
        lu.solve_in_place(faer::MatMut::from_column_major_slice_mut(&mut r, n - 1, 1));
        y.iter_mut().zip(&r).for_each(|(a, d)| *a += d);
    }
    let mut pi = Vec::with_capacity(n);
    pi.extend_from_slice(&y[..reference]);
    pi.push(1.0);
    pi.extend_from_slice(&y[reference..]);
    normalise(pi)
}

/// Which algorithm [`stationary`] used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Banded level reduction ([`block_solve`]).
    Block,
    /// Sparse LU of the whole chain ([`sparse_solve`]; never chosen by
    /// [`stationary`], kept so that callers can label either result).
    SparseLu,
    /// ILU(0)-preconditioned BiCGSTAB ([`super::iterative::iterative_solve`]).
    Iterative,
}

/// [`stationary`] uses the block reduction while every level has at most
/// this many states: its dense LUs are then cheap (a 512-state level
/// factors in about 30 ms) and exact; above it, the iterative method.
pub const MAX_BLOCK_LEVEL: usize = 512;
/// Relative residual the iterative method aims at on the reduced system.
pub const ITERATIVE_TOLERANCE: f64 = 1e-14;
/// Largest residual certificate max|πQ|/max|q_ii| [`stationary`] accepts
/// from the iterative method (the block method's is at rounding level).
pub const MAX_ITERATIVE_RESIDUAL: f64 = 1e-12;

/// Stationary distribution, choosing the method by the shape of the chain:
/// - every level ≤ [`MAX_BLOCK_LEVEL`] states (always the case for R = 1
///   unless W·M > 512): banded level reduction ([`block_solve`]), exact;
/// - otherwise (R ≥ 2 obsolescence phases, long buffers): ILU(0)-
///   preconditioned BiCGSTAB ([`super::iterative::iterative_solve`]),
///   O(nnz) memory and work per iteration, accepted only when its residual
///   certificate max|πQ|/max|q_ii| is below [`MAX_ITERATIVE_RESIDUAL`];
///   if it does not converge, the block reduction is tried when its band
///   fits the memory cap (the process-wide one; see [`stationary_with`]).
///
/// Sparse LU ([`sparse_solve`]) is never chosen: it is slower and needs
/// more memory than the band (R = 1) and fills in cubically like the band
/// (R ≥ 2), without a size bound before allocating.
pub fn stationary(space: &StateSpace, q: &CsMat<f64>) -> Result<(Vec<f64>, Method)> {
    stationary_with(space, q, &Control::default())
}

/// [`stationary`] with the memory cap of `control` for the block fallback.
pub fn stationary_with(
    space: &StateSpace,
    q: &CsMat<f64>,
    control: &Control,
) -> Result<(Vec<f64>, Method)> {
    let largest = (0..=space.max_level())
        .map(|i| space.level_size(i))
        .max()
        .unwrap_or(0);
    if largest <= MAX_BLOCK_LEVEL {
        return Ok((block_solve_with(space, q, control)?, Method::Block));
    }
    let iterative = super::iterative::iterative_solve(q, ITERATIVE_TOLERANCE, control).and_then(
        |(pi, info)| {
            let pi = normalise(pi)?;
            let r = residual(q, &pi);
            if r <= MAX_ITERATIVE_RESIDUAL {
                Ok(pi)
            } else {
                Err(Error::NotConverged(format!(
                    "iterative solution has residual {r:.3e} after {} iterations",
                    info.iterations
                )))
            }
        },
    );
    match iterative {
        Ok(pi) => Ok((pi, Method::Iterative)),
        Err(e @ Error::Cancelled(_)) => Err(e),
        Err(e) => match fallback_fits(space, q, control)
            .and_then(|()| block_solve_with(space, q, control))
        {
            Ok(pi) => Ok((pi, Method::Block)),
            Err(Error::TooLarge(m)) => Err(Error::NotConverged(format!(
                "{}; {}",
                message(&e),
                m.replace(" needs ", " would need ")
            ))),
            Err(other) => Err(other),
        },
    }
}

/// The text of an error without its kind ("not converged: ").
fn message(e: &Error) -> String {
    let s = e.to_string();
    match s.split_once(": ") {
        Some((_, rest)) => rest.to_string(),
        None => s,
    }
}

/// `TooLarge` when the band of the block fallback would exceed the cap.
fn fallback_fits(space: &StateSpace, q: &CsMat<f64>, control: &Control) -> Result<()> {
    let k = bandwidth(space, q)?;
    let band = block_entries(space, k).and_then(|e| (e as u128).checked_mul(8));
    let bytes =
        band.and_then(|b| b.checked_add((space.len() as u128).checked_mul(BYTES_PER_STATE)?));
    control.check_memory(
        bytes,
        &format!("the block method on {} states", space.len()),
    )
}

/// Stationary distribution from one dense LU of the whole generator
/// (cross-check for small chains; `TooLarge` above [`MAX_DENSE_STATES`]).
pub fn dense_solve(q: &CsMat<f64>) -> Result<Vec<f64>> {
    let n = q.rows();
    if n > MAX_DENSE_STATES {
        return Err(Error::TooLarge(format!(
            "dense solve of {n} states (limit {MAX_DENSE_STATES})"
        )));
    }
    let mut a = DMatrix::zeros(n, n);
    for (row, vec) in q.outer_iterator().enumerate() {
        for (col, &v) in vec.iter() {
            a[(col, row)] += v; // Qᵀ
        }
    }
    for c in 0..n {
        a[(n - 1, c)] = 1.0;
    }
    let mut b = DVector::zeros(n);
    b[n - 1] = 1.0;
    let x = a
        .lu()
        .solve(&b)
        .ok_or_else(|| Error::Numerical("the generator is singular beyond rank n − 1".into()))?;
    normalise(x.iter().copied().collect())
}

/// Clears rounding-level negatives and rescales to sum one; a clearly
/// negative or non-finite entry is a failure.
pub(crate) fn normalise(mut pi: Vec<f64>) -> Result<Vec<f64>> {
    let max = pi.iter().cloned().fold(0.0_f64, f64::max);
    if !(max > 0.0 && max.is_finite()) {
        return Err(Error::Numerical(
            "stationary vector is zero or not finite".into(),
        ));
    }
    for (k, v) in pi.iter_mut().enumerate() {
        if !v.is_finite() || *v < -1e-10 * max {
            return Err(Error::Numerical(format!(
                "stationary probability {k} is {}",
                crate::error::Num(*v)
            )));
        }
        *v = v.max(0.0);
    }
    let s: f64 = pi.iter().sum();
    pi.iter_mut().for_each(|v| *v /= s);
    Ok(pi)
}

/// Residual certificate max_j |(πQ)_j| / max_i |q_ii|: how far π is from
/// stationary, relative to the fastest rate of the chain.
pub fn residual(q: &CsMat<f64>, pi: &[f64]) -> f64 {
    let mut r = vec![0.0; q.cols()];
    let mut scale: f64 = 0.0;
    for (row, vec) in q.outer_iterator().enumerate() {
        for (col, &v) in vec.iter() {
            r[col] += pi[row] * v;
            if col == row {
                scale = scale.max(v.abs());
            }
        }
    }
    r.iter().fold(0.0_f64, |m, x| m.max(x.abs())) / scale.max(f64::MIN_POSITIVE)
}
