//! The Markov chain of a fixed policy: its recurrent classes (to check the
//! unichain assumption) and its exact evaluation by a sparse LU solve.

use super::model::Mdp;
use crate::error::{Error, Num, Result};
use crate::limits::Control;
use faer::linalg::solvers::Solve;
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};

/// Recurrent classes of the chain of `policy`: the closed strongly connected
/// components of its transition graph (edges with p > 0). Returns the number
/// of classes and, per state, its class (or `u32::MAX` if transient).
pub fn recurrent_classes(mdp: &Mdp, policy: &[u32]) -> Result<(usize, Vec<u32>)> {
    mdp.check_policy(policy)?;
    let n = mdp.n_states;
    const NONE: u32 = u32::MAX;
    // Iterative Tarjan: the graph may have millions of states.
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut comp = vec![NONE; n];
    let mut n_comp: u32 = 0;
    let mut counter: u32 = 0;
    let mut call: Vec<(u32, usize)> = Vec::new();
    let edges = |v: usize| {
        let (nx, p) = mdp.row(mdp.chosen(policy, v));
        nx.iter().zip(p).filter(|(_, p)| **p > 0.0).map(|(j, _)| *j)
    };
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        call.push((root as u32, 0));
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = call.last_mut() {
            let v = v as usize;
            let next = edges(v).nth(*pos);
            if let Some(w) = next {
                *pos += 1;
                let w = w as usize;
                if index[w] == NONE {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w as u32);
                    on_stack[w] = true;
                    call.push((w as u32, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u as usize] = low[u as usize].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        comp[w as usize] = n_comp;
                        if w as usize == v {
                            break;
                        }
                    }
                    n_comp += 1;
                }
            }
        }
    }
    // A component is closed (recurrent) when no edge leaves it.
    let mut closed = vec![true; n_comp as usize];
    for v in 0..n {
        for w in edges(v) {
            if comp[w as usize] != comp[v] {
                closed[comp[v] as usize] = false;
            }
        }
    }
    let mut relabel = vec![NONE; n_comp as usize];
    let mut count = 0u32;
    for &c in &comp {
        let c = c as usize;
        if closed[c] && relabel[c] == NONE {
            relabel[c] = count;
            count += 1;
        }
    }
    let class = comp.iter().map(|&c| relabel[c as usize]).collect();
    Ok((count as usize, class))
}

/// Exact evaluation of a unichain policy under the average-cost criterion.
#[derive(Debug, Clone, PartialEq)]
pub struct PolicyEvaluation {
    /// The gain g (average cost per step).
    pub gain: f64,
    /// The bias h, normalised by h(reference) = 0.
    pub bias: Vec<f64>,
    /// The stationary distribution (zero on transient states).
    pub stationary: Vec<f64>,
    /// The state with h = 0 (a recurrent state).
    pub reference: usize,
    /// Largest residual |g + h − c − P h| of the solve.
    pub residual: f64,
}

/// Builds Bᵀ := A in CSC form column by column, where row i of A is given
/// by `row(i)` as (column, value) pairs, then LU-factorises B = Aᵀ.
/// Returns B's CSC arrays (so that solve_transpose solves A x = b).
struct Factor {
    lu: faer::sparse::linalg::solvers::Lu<usize, f64>,
}

fn factorize(
    n: usize,
    control: &Control,
    bound_work: bool,
    mut row: impl FnMut(usize, &mut Vec<(usize, f64)>),
) -> Result<Factor> {
    let mut col_ptr = Vec::with_capacity(n + 1);
    let mut row_idx = Vec::new();
    let mut vals = Vec::new();
    let mut scratch: Vec<(usize, f64)> = Vec::new();
    col_ptr.push(0usize);
    for i in 0..n {
        scratch.clear();
        row(i, &mut scratch);
        scratch.sort_unstable_by_key(|e| e.0);
        let mut last = usize::MAX;
        for &(j, v) in scratch.iter() {
            if j == last {
                if let Some(x) = vals.last_mut() {
                    *x += v;
                }
            } else {
                row_idx.push(j);
                vals.push(v);
                last = j;
            }
        }
        col_ptr.push(row_idx.len());
    }
    let sym = SymbolicSparseColMatRef::new_checked(n, n, &col_ptr, None, &row_idx);
    let what = format!("the sparse LU of a policy's evaluation equations ({n} unknowns)");
    let cost = lu_cost(sym);
    control.check_memory(cost.map(|c| c.0), &what)?;
    if let Some((_, flops)) = cost
        && flops > CANCELLABLE_LU_FLOPS
        && bound_work
    {
        return Err(Error::TooLarge(format!(
            "{what} needs about {} flops, more than can run between two cancel checks",
            Num(flops)
        )));
    }
    control.check("policy evaluation", 0)?;
    let b = SparseColMatRef::new(sym, &vals);
    let lu = b.sp_lu().map_err(|e| {
        Error::Numerical(format!(
            "sparse LU of the policy's evaluation equations failed: {e:?}"
        ))
    })?;
    Ok(Factor { lu })
}

/// Size and work of faer's LU with partial pivoting of a matrix of
/// structure `b`, upper bounds known before the numeric phase: with the
/// column order faer's own symbolic phase chooses (COLAMD, default
/// settings), the factors fit in the structure of the QR factorisation of
/// B whatever the row pivots (George & Ng 1987: U in R, L in the
/// Householder vectors H), whose column counts r_j, h_j follow from the
/// column elimination tree in O(nnz) time and memory (as faer computes
/// them). Returns (bytes, flops): 24 bytes per entry of R and H (value and
/// index, with room for the numeric phase's growing buffers and supernodal
/// padding; measured peaks stay below 9) plus 96 per unknown, and
/// Σ h_j (1 + r_j) as faer counts the work. `None` when a count overflows.
fn lu_cost(b: SymbolicSparseColMatRef<'_, usize>) -> Option<(u128, f64)> {
    use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
    use faer::sparse::linalg::{colamd, qr};
    let n = b.ncols();
    let nnz = b.compute_nnz();
    let req = StackReq::any_of(&[
        colamd::order_scratch::<usize>(n, n, nnz),
        qr::col_etree_scratch::<usize>(n, n),
        qr::postorder_scratch::<usize>(n),
        qr::column_counts_aat_scratch::<usize>(n, n),
    ]);
    let mut mem = MemBuffer::try_new(req).ok()?;
    let stack = MemStack::new(&mut mem);
    let (mut fwd, mut inv) = (vec![0usize; n], vec![0usize; n]);
    colamd::order(&mut fwd, &mut inv, b, colamd::Control::default(), stack).ok()?;
    let perm = faer::perm::PermRef::new_checked(&fwd, &inv, n);
    // Bᵀ, which the column counts take.
    let (mut t_ptr, mut t_idx) = (vec![0usize; n + 1], vec![0usize; nnz]);
    for j in 0..n {
        for &i in b.row_idx_of_col_raw(j) {
            t_ptr[i + 1] += 1;
        }
    }
    for i in 0..n {
        t_ptr[i + 1] += t_ptr[i];
    }
    let mut fill = t_ptr.clone();
    for j in 0..n {
        for &i in b.row_idx_of_col_raw(j) {
            t_idx[fill[i]] = j;
            fill[i] += 1;
        }
    }
    drop(fill);
    let bt = SymbolicSparseColMatRef::new_checked(n, n, &t_ptr, None, &t_idx);
    let mut etree = vec![0usize; n];
    let et = qr::col_etree(b, Some(perm), &mut etree, stack);
    let mut post = vec![0usize; n];
    qr::postorder(&mut post, et, stack);
    let (mut r, mut min_col) = (vec![0usize; n], vec![0usize; n]);
    qr::column_counts_ata(&mut r, &mut min_col, bt, Some(perm), et, &post, stack);
    let parent = et.into_inner();
    let mut h = vec![0usize; n];
    for &c in &min_col {
        if (c as isize) >= 0 {
            h[c] += 1;
        }
    }
    for j in 0..n {
        if parent[j] >= 0 && h[j] > 0 {
            h[parent[j] as usize] += h[j] - 1;
        }
    }
    let entries: u128 = r.iter().chain(&h).map(|&x| x as u128).sum();
    let flops: f64 = h
        .iter()
        .zip(&r)
        .map(|(&hj, &rj)| hj as f64 * (1.0 + rj as f64))
        .sum();
    let bytes = entries
        .checked_mul(24)?
        .checked_add((n as u128).checked_mul(96)?)?;
    Some((bytes, flops))
}

/// Most work (flops, see `lu_cost`) of a factorisation under a control
/// that can be cancelled: the numeric LU has no cancel point, and this
/// much takes about a second on a random model, a few on the robots
/// model (10^6 states: 3.3e9). Policy iteration evaluates larger ones
/// without the LU (see `policy_iteration_average`).
pub(crate) const CANCELLABLE_LU_FLOPS: f64 = 1e10;

impl Factor {
    /// Solves A x = rhs in place.
    fn solve_a(&self, rhs: &mut [f64]) {
        let n = rhs.len();
        self.lu
            .solve_transpose_in_place(faer::MatMut::from_column_major_slice_mut(rhs, n, 1));
    }
    /// Solves Aᵀ y = rhs in place.
    fn solve_at(&self, rhs: &mut [f64]) {
        let n = rhs.len();
        self.lu
            .solve_in_place(faer::MatMut::from_column_major_slice_mut(rhs, n, 1));
    }
}

/// The chain of a fixed policy in CSR form, with its one-step costs.
struct Chain {
    start: Vec<usize>,
    next: Vec<u32>,
    prob: Vec<f64>,
    cost: Vec<f64>,
}

impl Chain {
    fn n(&self) -> usize {
        self.cost.len()
    }
    fn row(&self, i: usize) -> (&[u32], &[f64]) {
        let r = self.start[i]..self.start[i + 1];
        (&self.next[r.clone()], &self.prob[r])
    }
}

/// Hasher for keys that are already well-mixed 64-bit hashes.
#[derive(Default)]
struct PreHashed(u64);

impl std::hash::Hasher for PreHashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(31)
}

/// The row class of every state and a representative state per class.
type RowClasses = (Vec<u32>, Vec<u32>);

/// Groups the states of `policy` by their chosen transition row (equal
/// next states and probabilities, in the same order). Returns the class
/// of every state and one representative state per class.
fn row_classes(mdp: &Mdp, policy: &[u32]) -> RowClasses {
    let n = mdp.n_states;
    let mut seen: std::collections::HashMap<u64, u32, std::hash::BuildHasherDefault<PreHashed>> =
        std::collections::HashMap::with_capacity_and_hasher(n / 2, Default::default());
    let mut class = Vec::with_capacity(n);
    let mut rep: Vec<u32> = Vec::new();
    for s in 0..n {
        let (nx, p) = mdp.row(mdp.chosen(policy, s));
        let key = nx.iter().zip(p).fold(nx.len() as u64, |h, (&j, &pj)| {
            mix(mix(h, u64::from(j)), pj.to_bits())
        });
        let c = match seen.get(&key) {
            Some(&c) if mdp.row(mdp.chosen(policy, rep[c as usize] as usize)) == (nx, p) => c,
            hit => {
                let c = rep.len() as u32;
                rep.push(s as u32);
                // On a hash collision with a different row the new class is
                // simply not looked up again (correct, merely less merged).
                if hit.is_none() {
                    seen.insert(key, c);
                }
                c
            }
        };
        class.push(c);
    }
    (class, rep)
}

#[cfg(test)]
pub(crate) fn row_classes_for_tests(mdp: &Mdp, policy: &[u32]) -> (Vec<u32>, Vec<u32>) {
    row_classes(mdp, policy)
}

/// How the evaluation equations of a policy are set up: on the states, or
/// on the classes of states that choose the same transition row (fewer
/// unknowns, same solution). Both give the same evaluation up to rounding;
/// [`Reduction::Auto`] is what [`evaluate_average`] and
/// [`evaluate_discounted`] use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reduction {
    /// On row classes when they are at most 3/4 of the states.
    Auto,
    /// Always on the states.
    Never,
    /// On row classes even if there are as many as states (tests).
    #[cfg(test)]
    Always,
}

/// The chain of `policy`, and, when several states share their chosen
/// transition row (as all states after the same post-decision state do in
/// the robots model, three to one), the chain on those rows instead: row
/// class c moves to class(j) with probability P(c, j) and costs
/// Σ_j P(c, j) c(j), the expected cost of the next state. With B the rows
/// (classes → states) and A the choice (states → classes), P_π = A B and
/// the reduced chain is B A: same gain, and its equations have as many
/// unknowns as classes, so the LU factorisation is much smaller.
/// Returns the chain and, if reduced, the class of every state and a
/// representative state of every class.
fn policy_chain(mdp: &Mdp, policy: &[u32], reduction: Reduction) -> (Chain, Option<RowClasses>) {
    let n = mdp.n_states;
    let cost = |s: usize| mdp.cost[mdp.chosen(policy, s)];
    let classes = match reduction {
        Reduction::Never => None,
        _ => {
            let (class, rep) = row_classes(mdp, policy);
            #[cfg(test)]
            let always = reduction == Reduction::Always;
            #[cfg(not(test))]
            let always = false;
            (always || 4 * rep.len() <= 3 * n).then_some((class, rep))
        }
    };
    match classes {
        None => {
            let mut c = Chain {
                start: Vec::with_capacity(n + 1),
                next: Vec::new(),
                prob: Vec::new(),
                cost: Vec::with_capacity(n),
            };
            c.start.push(0);
            for s in 0..n {
                let (nx, p) = mdp.row(mdp.chosen(policy, s));
                c.next.extend_from_slice(nx);
                c.prob.extend_from_slice(p);
                c.start.push(c.next.len());
                c.cost.push(cost(s));
            }
            (c, None)
        }
        Some((class, rep)) => {
            let m = rep.len();
            let mut c = Chain {
                start: Vec::with_capacity(m + 1),
                next: Vec::new(),
                prob: Vec::new(),
                cost: Vec::with_capacity(m),
            };
            c.start.push(0);
            for &s in &rep {
                let (nx, p) = mdp.row(mdp.chosen(policy, s as usize));
                let mut expected = 0.0;
                for (&j, &pj) in nx.iter().zip(p) {
                    c.next.push(class[j as usize]);
                    c.prob.push(pj);
                    expected += pj * cost(j as usize);
                }
                c.start.push(c.next.len());
                c.cost.push(expected);
            }
            (c, Some((class, rep)))
        }
    }
}

/// Most refinement steps of an evaluation (each one triangular solve pair).
const MAX_REFINEMENTS: usize = 6;

/// Relative residual (to the largest |value|) at which refinement stops:
/// a few units of round-off.
const REFINED: f64 = 1e-15;

/// Gain, bias (0 at the reference) and stationary distribution of a
/// unichain `chain`, and the reference (see [`reference_state`]).
fn average_of_chain(
    chain: &Chain,
    recurrent: &[bool],
    control: &Control,
    bound_work: bool,
) -> Result<(f64, Vec<f64>, Vec<f64>, usize)> {
    let reference = reference_state(chain, recurrent);
    let (g, bias, mut stationary) = if chain.n() == 1 {
        (chain.cost[0], vec![0.0], vec![1.0])
    } else {
        let system = Reduced::new(chain, reference, control, bound_work)?;
        let (g, bias) = system.gain_and_bias(control)?;
        (g, bias, system.stationary(control)?)
    };
    let total: f64 = stationary.iter().sum();
    if !total.is_finite() || total <= 0.0 || !g.is_finite() || bias.iter().any(|v| !v.is_finite()) {
        return Err(Error::Numerical(
            "the policy's evaluation equations are singular".into(),
        ));
    }
    for v in stationary.iter_mut() {
        *v /= total;
    }
    Ok((g, bias, stationary, reference))
}

/// The recurrent state (per `recurrent`) with most mass after 64 steps
/// from uniform, so that the hitting times w stay moderate and
/// h = u − g·w does not cancel badly.
fn reference_state(chain: &Chain, recurrent: &[bool]) -> usize {
    let n = chain.n();
    let mut mass = vec![1.0 / n as f64; n];
    let mut next_mass = vec![0.0; n];
    for _ in 0..64 {
        next_mass.iter_mut().for_each(|x| *x = 0.0);
        for (s, &ms) in mass.iter().enumerate() {
            let (nx, p) = chain.row(s);
            for (&j, &pj) in nx.iter().zip(p) {
                next_mass[j as usize] += ms * pj;
            }
        }
        std::mem::swap(&mut mass, &mut next_mass);
    }
    (0..n)
        .filter(|&s| recurrent[s])
        .max_by(|&a, &b| mass[a].total_cmp(&mass[b]))
        .unwrap_or(0)
}

/// The evaluation equations of a chain of n ≥ 2 states with the row and
/// column of `reference` removed: the LU of M = I − P on the other
/// states, and w = M⁻¹ 1 (the mean hitting times of the reference).
struct Reduced<'a> {
    chain: &'a Chain,
    reference: usize,
    f: Factor,
    w: Vec<f64>,
    /// Σ_j P(ref, j) w(j).
    pw: f64,
}

impl<'a> Reduced<'a> {
    fn new(
        chain: &'a Chain,
        reference: usize,
        control: &Control,
        bound_work: bool,
    ) -> Result<Self> {
        let m = chain.n() - 1;
        let red = |j: usize| if j < reference { j } else { j - 1 };
        let f = factorize(m, control, bound_work, |i, out| {
            let s = if i < reference { i } else { i + 1 };
            out.push((i, 1.0));
            let (nx, p) = chain.row(s);
            for (&j, &pj) in nx.iter().zip(p) {
                if j as usize != reference {
                    out.push((red(j as usize), -pj));
                }
            }
        })?;
        let mut w = vec![1.0; m];
        f.solve_a(&mut w);
        let mut system = Reduced {
            chain,
            reference,
            f,
            w,
            pw: 0.0,
        };
        system.pw = system.reference_row_dot(&system.w);
        Ok(system)
    }

    /// Index of state j (≠ ref) in the reduced system.
    fn red(&self, j: usize) -> usize {
        if j < self.reference { j } else { j - 1 }
    }

    /// Σ_{j ≠ ref} P(ref, j) x(red(j)).
    fn reference_row_dot(&self, x: &[f64]) -> f64 {
        let (ref_next, ref_prob) = self.chain.row(self.reference);
        ref_next
            .iter()
            .zip(ref_prob)
            .filter(|e| *e.0 as usize != self.reference)
            .map(|(&j, &pj)| pj * x[self.red(j as usize)])
            .sum()
    }

    /// (g, h) with g + h(s) − Σ P(s, j) h(j) = rho(s) for all s and
    /// h(ref) = 0, through the factors: u = M⁻¹ rho, g from the equation
    /// at ref, h = u − g·w.
    fn solve(&self, rho: &[f64]) -> (f64, Vec<f64>) {
        let (n, reference) = (self.chain.n(), self.reference);
        let mut u: Vec<f64> = (0..n).filter(|&s| s != reference).map(|s| rho[s]).collect();
        self.f.solve_a(&mut u);
        let pu = self.reference_row_dot(&u);
        let g = (rho[reference] + pu) / (1.0 + self.pw);
        let mut h = vec![0.0; n];
        for s in (0..n).filter(|&s| s != reference) {
            h[s] = u[self.red(s)] - g * self.w[self.red(s)];
        }
        (g, h)
    }

    /// rho = c − g − h + P h; returns max |rho|.
    fn residual(&self, g: f64, h: &[f64], rho: &mut [f64]) -> f64 {
        let mut worst: f64 = 0.0;
        for (s, r) in rho.iter_mut().enumerate() {
            let (nx, p) = self.chain.row(s);
            let ph: f64 = nx.iter().zip(p).map(|(&j, &pj)| pj * h[j as usize]).sum();
            *r = self.chain.cost[s] - g - h[s] + ph;
            worst = worst.max(r.abs());
        }
        worst
    }

    /// Gain and bias, iteratively refined: h = u − g·w cancels when the
    /// hitting times w are long (slowly mixing chains of 10^5+ states), so
    /// h carries the rounding of u and g·w, which the residual check or the
    /// gain certificate can notice. Solving again for the residual with the
    /// same factors recovers the lost digits (one solve per step).
    fn gain_and_bias(&self, control: &Control) -> Result<(f64, Vec<f64>)> {
        let n = self.chain.n();
        let (mut g, mut bias) = self.solve(&self.chain.cost);
        let mut rho = vec![0.0; n];
        let mut res = self.residual(g, &bias, &mut rho);
        for _ in 0..MAX_REFINEMENTS {
            control.check("policy evaluation", 0)?;
            let scale = bias.iter().fold(g.abs(), |m, v| m.max(v.abs()));
            if res.is_nan() || res <= REFINED * scale {
                break;
            }
            let (dg, dh) = self.solve(&rho);
            let g2 = g + dg;
            let h2: Vec<f64> = bias.iter().zip(&dh).map(|(a, b)| a + b).collect();
            let mut rho2 = vec![0.0; n];
            let res2 = self.residual(g2, &h2, &mut rho2);
            if res2.is_nan() || res2 >= 0.5 * res {
                if res2 < res {
                    (g, bias) = (g2, h2);
                }
                break;
            }
            (g, bias, rho, res) = (g2, h2, rho2, res2);
        }
        Ok((g, bias))
    }

    /// The balance residual r = P(ref, ·) + Σ_{s ≠ ref} y(s) P(s, ·) − y on
    /// the states other than ref; returns max |r|.
    fn balance(&self, y: &[f64], r: &mut [f64]) -> f64 {
        let reference = self.reference;
        r.iter_mut().zip(y).for_each(|(r, y)| *r = -y);
        for s in 0..self.chain.n() {
            let ys = if s == reference { 1.0 } else { y[self.red(s)] };
            let (nx, p) = self.chain.row(s);
            for (&j, &pj) in nx.iter().zip(p) {
                if j as usize != reference {
                    r[self.red(j as usize)] += ys * pj;
                }
            }
        }
        r.iter().fold(0.0, |m: f64, v| m.max(v.abs()))
    }

    /// The stationary distribution scaled to π(ref) = 1: Mᵀ y = P(ref, ·),
    /// refined like the bias on the balance residual.
    fn stationary(&self, control: &Control) -> Result<Vec<f64>> {
        let (n, m) = (self.chain.n(), self.chain.n() - 1);
        let mut y = vec![0.0; m];
        let mut r = vec![0.0; m];
        self.balance(&y, &mut r);
        for step in 0..=MAX_REFINEMENTS {
            control.check("policy evaluation", 0)?;
            self.f.solve_at(&mut r);
            y.iter_mut().zip(&r).for_each(|(y, d)| *y += d);
            let scale = y.iter().fold(1.0, |m: f64, v| m.max(v.abs()));
            let left = self.balance(&y, &mut r);
            if step == MAX_REFINEMENTS || left.is_nan() || left <= REFINED * scale {
                break;
            }
        }
        let mut stationary = vec![0.0; n];
        stationary[self.reference] = 1.0;
        for s in (0..n).filter(|&s| s != self.reference) {
            // Round-off leaves tiny negatives on transient states.
            stationary[s] = y[self.red(s)].max(0.0);
        }
        Ok(stationary)
    }
}

/// Evaluates `policy` exactly (average cost): the gain g, the bias h with
/// h(ref) = 0 and the stationary distribution π, from one sparse LU of
/// M = I − P with the row and column of a recurrent state `ref` removed
/// (nonsingular for a unichain policy, and as sparse as P; bordering
/// with a column of ones instead would add a dense column and ruin the
/// fill-in). With M u = c and M w = 1 on the other states (w is the mean
/// time to reach ref), h = u − g·w and the equation at ref gives
/// g = (c_ref + P_ref·u) / (1 + P_ref·w), the renewal-reward ratio; π on
/// the other states solves Mᵀ y = P_ref,·ᵀ and π ∝ (1 at ref, y).
/// When states share their chosen transition rows, P is that of the chain
/// on the distinct rows (see `policy_chain`), with bias w and stationary
/// π'; then h(s) = c(s) − g + w(class(s)) and π(j) = Σ_c π'(c) P(c, j).
/// A policy with several recurrent classes has no single gain: refused
/// with `Infeasible`.
pub fn evaluate_average(mdp: &Mdp, policy: &[u32]) -> Result<PolicyEvaluation> {
    evaluate_average_with(mdp, policy, Reduction::Auto)
}

/// [`evaluate_average`] with the equations set up as `reduction` says.
pub fn evaluate_average_with(
    mdp: &Mdp,
    policy: &[u32],
    reduction: Reduction,
) -> Result<PolicyEvaluation> {
    evaluate_average_in(mdp, policy, reduction, &Control::default(), false)
}

/// [`evaluate_average`] under `control`: its memory cap bounds the LU
/// (`TooLarge` before the numeric factorisation when its fill-in may not
/// fit), and a cancel is seen before the factorisation and between the
/// refinement solves. With `bound_work`, an LU of more than
/// `CANCELLABLE_LU_FLOPS` is `TooLarge` too (it could not be cancelled).
pub(crate) fn evaluate_average_in(
    mdp: &Mdp,
    policy: &[u32],
    reduction: Reduction,
    control: &Control,
    bound_work: bool,
) -> Result<PolicyEvaluation> {
    let (count, class) = recurrent_classes(mdp, policy)?;
    if count != 1 {
        return Err(Error::Infeasible(format!(
            "the policy's chain has {count} recurrent classes (multichain): its average cost depends on the start state"
        )));
    }
    let n = mdp.n_states;
    let (chain, row_class) = policy_chain(mdp, policy, reduction);
    let (g, bias, stationary, reference) = match row_class {
        None => {
            let recurrent: Vec<bool> = class.iter().map(|&c| c == 0).collect();
            average_of_chain(&chain, &recurrent, control, bound_work)?
        }
        Some((rc, rep)) => {
            // A row class is recurrent when a recurrent state uses it.
            let mut recurrent = vec![false; chain.n()];
            for s in (0..n).filter(|&s| class[s] == 0) {
                recurrent[rc[s] as usize] = true;
            }
            let (g, w, pi_red, _) = average_of_chain(&chain, &recurrent, control, bound_work)?;
            let mut stationary = vec![0.0; n];
            for (&pc, &s) in pi_red.iter().zip(&rep) {
                let (nx, p) = mdp.row(mdp.chosen(policy, s as usize));
                for (&j, &pj) in nx.iter().zip(p) {
                    stationary[j as usize] += pc * pj;
                }
            }
            let mut bias: Vec<f64> = (0..n)
                .map(|s| mdp.cost[mdp.chosen(policy, s)] - g + w[rc[s] as usize])
                .collect();
            let reference = (0..n)
                .filter(|&s| class[s] == 0)
                .max_by(|&a, &b| stationary[a].total_cmp(&stationary[b]))
                .unwrap_or(0);
            let r = bias[reference];
            bias.iter_mut().for_each(|v| *v -= r);
            (g, bias, stationary, reference)
        }
    };
    // g = π·c_π is an average of the policy's costs: outside their range
    // (beyond round-off) the evaluation has lost all precision, e.g. costs
    // of 1e300 next to rates of 1e-9, and must not reach a caller as a gain.
    let (c_min, c_max) = (0..n)
        .map(|s| mdp.cost[mdp.chosen(policy, s)])
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), c| {
            (a.min(c), b.max(c))
        });
    let slack = 1e-9 * c_min.abs().max(c_max.abs());
    if !(g >= c_min - slack && g <= c_max + slack) {
        return Err(Error::Numerical(format!(
            "policy evaluation gave the gain {} outside the range [{}, {}] of the policy's costs (the costs and rates span too many orders of magnitude for double precision)",
            Num(g),
            Num(c_min),
            Num(c_max)
        )));
    }
    let residual = (0..n)
        .map(|s| (g + bias[s] - mdp.q_value(mdp.chosen(policy, s), &bias, 1.0)).abs())
        .fold(0.0, f64::max);
    let scale = 1.0 + bias.iter().fold(g.abs(), |m, v| m.max(v.abs()));
    // NaN residuals fail this test too.
    if residual.is_nan() || residual > 1e-6 * scale {
        return Err(Error::Numerical(format!(
            "policy evaluation residual {} is too large",
            Num(residual)
        )));
    }
    Ok(PolicyEvaluation {
        gain: g,
        bias,
        stationary,
        reference,
        residual,
    })
}

/// Evaluates `policy` exactly under discount factor β ∈ [0, 1): solves
/// (I − β P_π) v = c_π by sparse LU, or, when states share their chosen
/// rows, (I − β B A) u = B c_π on the row classes (u(c) is the expected
/// value of the next state) and v(s) = c(s) + β u(class(s)).
pub fn evaluate_discounted(mdp: &Mdp, policy: &[u32], beta: f64) -> Result<Vec<f64>> {
    evaluate_discounted_with(mdp, policy, beta, Reduction::Auto)
}

/// [`evaluate_discounted`] with the equations set up as `reduction` says.
pub fn evaluate_discounted_with(
    mdp: &Mdp,
    policy: &[u32],
    beta: f64,
    reduction: Reduction,
) -> Result<Vec<f64>> {
    evaluate_discounted_in(mdp, policy, beta, reduction, &Control::default(), false)
}

/// [`evaluate_discounted`] under `control` (see `evaluate_average_in`).
pub(crate) fn evaluate_discounted_in(
    mdp: &Mdp,
    policy: &[u32],
    beta: f64,
    reduction: Reduction,
    control: &Control,
    bound_work: bool,
) -> Result<Vec<f64>> {
    mdp.check_policy(policy)?;
    super::solve::check_discount(beta)?;
    let (chain, row_class) = policy_chain(mdp, policy, reduction);
    let f = factorize(chain.n(), control, bound_work, |i, out| {
        out.push((i, 1.0));
        let (nx, p) = chain.row(i);
        for (&j, &pj) in nx.iter().zip(p) {
            out.push((j as usize, -beta * pj));
        }
    })?;
    let mut v = chain.cost.clone();
    f.solve_a(&mut v);
    if let Some((class, _)) = row_class {
        v = (0..mdp.n_states)
            .map(|s| mdp.cost[mdp.chosen(policy, s)] + beta * v[class[s] as usize])
            .collect();
    }
    if v.iter().any(|x| !x.is_finite()) {
        return Err(Error::Numerical(
            "discounted evaluation produced a non-finite value".into(),
        ));
    }
    Ok(v)
}
