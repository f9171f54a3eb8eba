//! Stationary distribution by a preconditioned Krylov method, for chains
//! whose level blocks are too large for the dense level reduction (R ≥ 2
//! obsolescence phases: the top level has W·M·R^{L−1} states and both the
//! block reduction and sparse LU are cubic in it).
//!
//! With π_ref = 1 for the reference state 0, πQ = 0 minus the equation of
//! state 0 is B y = b with B = Q̂ᵀ, Q̂ = Q without row and column 0 (the
//! same formulation as [`super::solve::sparse_solve`]; B is nonsingular for
//! an irreducible chain, −B a column diagonally dominant M-matrix). It is
//! solved by BiCGSTAB right-preconditioned
//! by ILU(0) of Q̂ ≈ LU, i.e. B ≈ UᵀLᵀ. ILU(0) of an M-matrix exists and
//! needs no pivoting (Meijerink–van der Vorst), so the factors have exactly
//! Q's sparsity: memory and work per iteration are O(nnz).
//!
//! The answer carries its own certificate: the caller checks the residual
//! max|(πQ)_j| / max|q_ii| ([`super::solve::residual`]) and Σπ = 1.

use crate::error::{Error, Result};
use crate::limits::Control;
use sprs::CsMat;

/// Q̂ (Q without row and column 0) in CSR with sorted columns; the ILU(0)
/// factors are a second value array on the same pattern.
#[derive(Debug)]
struct Reduced {
    ptr: Vec<usize>,
    idx: Vec<usize>,
    val: Vec<f64>,
    /// Position of the diagonal entry of each row.
    diag: Vec<usize>,
}

impl Reduced {
    fn new(q: &CsMat<f64>) -> Result<Self> {
        let n = q.rows() - 1;
        let mut ptr = Vec::with_capacity(n + 1);
        let mut idx = Vec::with_capacity(q.nnz());
        let mut val = Vec::with_capacity(q.nnz());
        let mut diag = Vec::with_capacity(n);
        ptr.push(0);
        for (row, vec) in q.outer_iterator().enumerate().skip(1) {
            let mut entries: Vec<(usize, f64)> = vec
                .iter()
                .filter(|&(c, _)| c != 0)
                .map(|(c, &v)| (c - 1, v))
                .collect();
            entries.sort_unstable_by_key(|e| e.0);
            let start = idx.len();
            for (c, v) in entries {
                idx.push(c);
                val.push(v);
            }
            let d = idx[start..]
                .iter()
                .position(|&c| c == row - 1)
                .ok_or_else(|| {
                    Error::Numerical(format!(
                        "generator row {row} has no diagonal entry (absorbing state?)"
                    ))
                })?;
            diag.push(start + d);
            ptr.push(idx.len());
        }
        Ok(Reduced {
            ptr,
            idx,
            val,
            diag,
        })
    }

    fn n(&self) -> usize {
        self.diag.len()
    }

    /// ILU(0) (IKJ order) values on Q̂'s pattern: L unit lower below the
    /// diagonal, U on and above it.
    fn factor_ilu0(&self) -> Result<Vec<f64>> {
        let n = self.n();
        let mut val = self.val.clone();
        let mut pos = vec![usize::MAX; n];
        for i in 0..n {
            let (s, e) = (self.ptr[i], self.ptr[i + 1]);
            for p in s..e {
                pos[self.idx[p]] = p;
            }
            for p in s..self.diag[i] {
                let k = self.idx[p];
                let lik = val[p] / val[self.diag[k]];
                val[p] = lik;
                for t in self.diag[k] + 1..self.ptr[k + 1] {
                    let j = self.idx[t];
                    if pos[j] != usize::MAX {
                        val[pos[j]] -= lik * val[t];
                    }
                }
            }
            let d = val[self.diag[i]];
            if !(d.is_finite() && d != 0.0) {
                return Err(Error::Numerical(format!(
                    "ILU(0) pivot {i} is {}",
                    crate::error::Num(d)
                )));
            }
            for p in s..e {
                pos[self.idx[p]] = usize::MAX;
            }
        }
        Ok(val)
    }
}

/// B = Q̂ᵀ applied to a vector (scatter along the rows of Q̂).
fn apply_transpose(a: &Reduced, x: &[f64], out: &mut [f64]) {
    out.iter_mut().for_each(|v| *v = 0.0);
    for (i, &xi) in x.iter().enumerate() {
        if xi != 0.0 {
            for p in a.ptr[i]..a.ptr[i + 1] {
                out[a.idx[p]] += a.val[p] * xi;
            }
        }
    }
}

/// r ← (UᵀLᵀ)⁻¹ r from the ILU(0) factors of Q̂: solve Uᵀw = r (forward,
/// by the rows of U), then Lᵀz = w (backward, by the rows of L).
fn precondition(a: &Reduced, lu: &[f64], r: &mut [f64]) {
    let n = a.n();
    for i in 0..n {
        let wi = r[i] / lu[a.diag[i]];
        r[i] = wi;
        if wi != 0.0 {
            for p in a.diag[i] + 1..a.ptr[i + 1] {
                r[a.idx[p]] -= lu[p] * wi;
            }
        }
    }
    for i in (0..n).rev() {
        let zi = r[i];
        if zi != 0.0 {
            for p in a.ptr[i]..a.diag[i] {
                r[a.idx[p]] -= lu[p] * zi;
            }
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// A BiCGSTAB denominator that is zero (breakdown) or not a number.
fn vanishes(x: f64) -> bool {
    x.is_nan() || x.abs() <= f64::MIN_POSITIVE
}

fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// What [`iterative_solve`] did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IterativeInfo {
    /// BiCGSTAB iterations, all restarts included.
    pub iterations: usize,
    /// Final ‖b − By‖₂ / ‖b‖₂ of the reduced system (true residual).
    pub relative_residual: f64,
}

/// Largest number of BiCGSTAB iterations before `NotConverged`.
pub const MAX_ITERATIONS: usize = 20_000;
/// A run that has not halved its smallest residual within this many
/// iterations has stalled and stops (a run reaching 1e-14 within
/// [`MAX_ITERATIONS`] gains a factor 5 per 1,000 iterations on average).
pub const STALL_WINDOW: usize = 1_000;

/// Unnormalised stationary vector (π₀ = 1) by right-ILU(0)-preconditioned
/// BiCGSTAB (van der Vorst 1992) to relative residual `tol` on the reduced
/// system, or as close as rounding allows (`relative_residual` then says
/// how close; `NotConverged` if still above `tol` after [`MAX_ITERATIONS`]
/// or if the iterate is not finite). A run whose residual stops falling (no
/// halving in [`STALL_WINDOW`] iterations, or three restarts) ends as at
/// rounding level: the caller's certificate decides.
/// `control` is checked before every iteration: cancelling it stops the
/// solve with `Cancelled`. A breakdown (ρ or ω vanishing, which happens when the residual
/// reaches rounding level) or a drift of the recurrence away from the true
/// residual restarts it from the current iterate with the true residual.
/// The caller normalises and certifies.
///
/// Written here rather than with faer's `matrix_free::bicgstab`, which
/// turns such a breakdown into NaN instead of stopping or restarting.
pub fn iterative_solve(
    q: &CsMat<f64>,
    tol: f64,
    control: &Control,
) -> Result<(Vec<f64>, IterativeInfo)> {
    let n = q.rows();
    if n != q.cols() || !q.is_csr() {
        return Err(Error::invalid("the generator must be a square CSR matrix"));
    }
    if n == 1 {
        return Ok((
            vec![1.0],
            IterativeInfo {
                iterations: 0,
                relative_residual: 0.0,
            },
        ));
    }
    let a = Reduced::new(q)?;
    let ilu = a.factor_ilu0()?;
    let mut k = Krylov::new(reduced_rhs(q));
    let mut progress = Progress::new(control);
    let at_rounding_level = k.restarts(&a, &ilu, tol, &mut progress)?;
    let rel = k.true_residual(&a);
    let iterations = progress.done;
    if !rel.is_finite() || (rel > tol && !at_rounding_level) {
        return Err(Error::NotConverged(format!(
            "BiCGSTAB reached relative residual {rel:.3e} (target {tol:.1e}) after {iterations} iterations"
        )));
    }
    let mut pi = Vec::with_capacity(n);
    pi.push(1.0);
    pi.extend_from_slice(&k.x);
    Ok((
        pi,
        IterativeInfo {
            iterations,
            relative_residual: rel,
        },
    ))
}

/// b = −(row 0 of Q without column 0)ᵀ, the right side of B y = b.
fn reduced_rhs(q: &CsMat<f64>) -> Vec<f64> {
    let mut b = vec![0.0; q.rows() - 1];
    if let Some(row) = q.outer_view(0) {
        for (c, &v) in row.iter() {
            if c != 0 {
                b[c - 1] -= v;
            }
        }
    }
    b
}

/// BiCGSTAB's iterate x, residual r and work vectors, all of length m =
/// n − 1.
struct Krylov {
    b: Vec<f64>,
    bnorm: f64,
    x: Vec<f64>,
    r: Vec<f64>,
    rhat: Vec<f64>,
    p: Vec<f64>,
    v: Vec<f64>,
    y: Vec<f64>,
    s: Vec<f64>,
    z: Vec<f64>,
    t: Vec<f64>,
}

impl Krylov {
    /// x = 0, so r = b.
    fn new(b: Vec<f64>) -> Self {
        let m = b.len();
        Krylov {
            bnorm: norm(&b),
            r: b.clone(),
            b,
            x: vec![0.0; m],
            rhat: vec![0.0; m],
            p: vec![0.0; m],
            v: vec![0.0; m],
            y: vec![0.0; m],
            s: vec![0.0; m],
            z: vec![0.0; m],
            t: vec![0.0; m],
        }
    }

    /// r = b − B x; returns ‖r‖₂ / ‖b‖₂.
    fn true_residual(&mut self, a: &Reduced) -> f64 {
        apply_transpose(a, &self.x, &mut self.t);
        self.r
            .iter_mut()
            .zip(&self.b)
            .zip(&self.t)
            .for_each(|((r, b), t)| *r = b - t);
        norm(&self.r) / self.bnorm
    }

    /// Main loop: BiCGSTAB cycles, each (re)started from x with the true
    /// residual, until that residual is within `tol`, the iterations run
    /// out, or it stops falling (three restarts in a row gain less than a
    /// factor 2, or a cycle stalls): rounding level reached (then true).
    fn restarts(
        &mut self,
        a: &Reduced,
        ilu: &[f64],
        tol: f64,
        progress: &mut Progress,
    ) -> Result<bool> {
        let mut rel = norm(&self.r) / self.bnorm;
        let mut best = f64::INFINITY;
        let mut stalled = 0;
        while rel > tol && progress.done < MAX_ITERATIONS {
            rel = self.true_residual(a);
            progress.start(rel);
            if rel <= tol {
                break;
            }
            stalled = if rel < 0.5 * best { 0 } else { stalled + 1 };
            best = best.min(rel);
            if stalled >= 3 || self.cycle(a, ilu, tol, progress)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// One BiCGSTAB cycle from the current x and r, until a breakdown (ρ,
    /// ω or a denominator vanishing), the iteration cap, a stall (then
    /// true), or a recurrence residual within `tol`, which the caller
    /// confirms against the true residual. `NotConverged` if the iterate
    /// stops being finite; `Cancelled` if the control is.
    fn cycle(
        &mut self,
        a: &Reduced,
        ilu: &[f64],
        tol: f64,
        progress: &mut Progress,
    ) -> Result<bool> {
        let m = self.x.len();
        self.rhat.copy_from_slice(&self.r);
        self.p.iter_mut().for_each(|x| *x = 0.0);
        self.v.iter_mut().for_each(|x| *x = 0.0);
        let (mut rho, mut alpha, mut omega) = (1.0_f64, 1.0_f64, 1.0_f64);
        while progress.done < MAX_ITERATIONS {
            progress.step(m)?;
            let rho_new = dot(&self.rhat, &self.r);
            if vanishes(rho_new) || vanishes(omega) {
                return Ok(false);
            }
            let beta = (rho_new / rho) * (alpha / omega);
            rho = rho_new;
            for i in 0..m {
                self.p[i] = self.r[i] + beta * (self.p[i] - omega * self.v[i]);
            }
            self.y.copy_from_slice(&self.p);
            precondition(a, ilu, &mut self.y);
            apply_transpose(a, &self.y, &mut self.v);
            let rv = dot(&self.rhat, &self.v);
            if vanishes(rv) {
                return Ok(false);
            }
            alpha = rho / rv;
            for i in 0..m {
                self.s[i] = self.r[i] - alpha * self.v[i];
            }
            if norm(&self.s) / self.bnorm <= tol {
                let y = &self.y;
                self.x.iter_mut().zip(y).for_each(|(x, y)| *x += alpha * y);
                return Ok(false);
            }
            self.z.copy_from_slice(&self.s);
            precondition(a, ilu, &mut self.z);
            apply_transpose(a, &self.z, &mut self.t);
            let tt = dot(&self.t, &self.t);
            if vanishes(tt) {
                return Ok(false);
            }
            omega = dot(&self.t, &self.s) / tt;
            for i in 0..m {
                self.x[i] += alpha * self.y[i] + omega * self.z[i];
                self.r[i] = self.s[i] - omega * self.t[i];
            }
            if !self.x.iter().all(|v| v.is_finite()) {
                return Err(Error::NotConverged(
                    "BiCGSTAB diverged (non-finite iterate)".into(),
                ));
            }
            let rel = norm(&self.r) / self.bnorm;
            if rel <= tol {
                return Ok(false);
            }
            if progress.stalled(rel) {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// Iterations done, the control checked before each, and the stall test.
struct Progress<'c> {
    control: &'c Control,
    done: usize,
    /// Smallest recurrence residual so far, and its value at the start of
    /// the current window of [`STALL_WINDOW`] iterations.
    best: f64,
    mark: f64,
    window_start: usize,
}

impl<'c> Progress<'c> {
    fn new(control: &'c Control) -> Self {
        Progress {
            control,
            done: 0,
            best: f64::INFINITY,
            mark: f64::INFINITY,
            window_start: 0,
        }
    }

    /// The residual before the first iteration opens the first window.
    fn start(&mut self, rel: f64) {
        if self.done == 0 {
            self.mark = rel;
        }
    }

    /// Before an iteration on a system of `m` unknowns: `Cancelled` if the
    /// control is.
    fn step(&mut self, m: usize) -> Result<()> {
        if self.control.is_cancelled() {
            self.control
                .check(&format!("BiCGSTAB on {} unknowns", m), self.done as u64)?;
        }
        self.done += 1;
        Ok(())
    }

    /// Records residual `rel`; true when a whole window has passed without
    /// halving the smallest residual.
    fn stalled(&mut self, rel: f64) -> bool {
        self.best = self.best.min(rel);
        if self.done - self.window_start < STALL_WINDOW {
            return false;
        }
        let stalled = self.best > 0.5 * self.mark;
        self.mark = self.best;
        self.window_start = self.done;
        stalled
    }
}
