//! The Markov chain of a fixed policy: its recurrent classes (to check the
//! unichain assumption) and its exact evaluation by a sparse LU solve.

use super::model::Mdp;
use crate::error::{Error, Result};
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
    /// The state with h = 0 (the first state of the recurrent class).
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

fn factorize(n: usize, mut row: impl FnMut(usize, &mut Vec<(usize, f64)>)) -> Result<Factor> {
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
    let b = SparseColMatRef::new(sym, &vals);
    let lu = b
        .sp_lu()
        .map_err(|e| Error::Numerical(format!("sparse LU of the policy's evaluation equations failed: {e:?}")))?;
    Ok(Factor { lu })
}

impl Factor {
    /// Solves A x = rhs in place.
    fn solve_a(&self, rhs: &mut [f64]) {
        let n = rhs.len();
        self.lu.solve_transpose_in_place(faer::MatMut::from_column_major_slice_mut(rhs, n, 1));
    }
    /// Solves Aᵀ y = rhs in place.
    fn solve_at(&self, rhs: &mut [f64]) {
        let n = rhs.len();
        self.lu.solve_in_place(faer::MatMut::from_column_major_slice_mut(rhs, n, 1));
    }
}

/// Evaluates `policy` exactly (average cost): the gain g, the bias h with
/// h(ref) = 0 and the stationary distribution π, from one sparse LU of
/// M = I − P_π with the row and column of a recurrent state `ref` removed
/// (nonsingular for a unichain policy, and as sparse as P_π; bordering
/// with a column of ones instead would add a dense column and ruin the
/// fill-in). With M u = c and M w = 1 on the other states (w is the mean
/// time to reach ref), h = u − g·w and the equation at ref gives
/// g = (c_ref + P_ref·u) / (1 + P_ref·w), the renewal-reward ratio; π on
/// the other states solves Mᵀ y = P_ref,·ᵀ and π ∝ (1 at ref, y).
/// A policy with several recurrent classes has no single gain: refused
/// with `Infeasible`.
pub fn evaluate_average(mdp: &Mdp, policy: &[u32]) -> Result<PolicyEvaluation> {
    let (count, class) = recurrent_classes(mdp, policy)?;
    if count != 1 {
        return Err(Error::Infeasible(format!(
            "the policy's chain has {count} recurrent classes (multichain): its average cost depends on the start state"
        )));
    }
    let n = mdp.n_states;
    let reference = choose_reference(mdp, policy, &class);
    let cost = |s: usize| mdp.cost[mdp.chosen(policy, s)];
    // Index of state j in the reduced system (j != ref).
    let red = |j: usize| if j < reference { j } else { j - 1 };
    let (ref_next, ref_prob) = mdp.row(mdp.chosen(policy, reference));
    let (g, bias, y) = if n == 1 {
        (cost(0), vec![0.0], vec![])
    } else {
        let m = n - 1;
        let f = factorize(m, |i, out| reduced_row(mdp, policy, reference, i, out))?;
        let mut u: Vec<f64> = (0..n).filter(|&s| s != reference).map(cost).collect();
        let mut w = vec![1.0; m];
        f.solve_a(&mut u);
        f.solve_a(&mut w);
        let (mut pu, mut pw) = (0.0, 0.0);
        let mut rhs = vec![0.0; m];
        for (&j, &pj) in ref_next.iter().zip(ref_prob) {
            if j as usize != reference {
                pu += pj * u[red(j as usize)];
                pw += pj * w[red(j as usize)];
                rhs[red(j as usize)] += pj;
            }
        }
        let g = (cost(reference) + pu) / (1.0 + pw);
        let mut bias = vec![0.0; n];
        for s in (0..n).filter(|&s| s != reference) {
            bias[s] = u[red(s)] - g * w[red(s)];
        }
        f.solve_at(&mut rhs);
        (g, bias, rhs)
    };
    let mut stationary = vec![0.0; n];
    stationary[reference] = 1.0;
    for s in (0..n).filter(|&s| s != reference) {
        // Round-off leaves tiny negatives on transient states.
        stationary[s] = y[red(s)].max(0.0);
    }
    let total: f64 = stationary.iter().sum();
    if !total.is_finite() || total <= 0.0 || !g.is_finite() || bias.iter().any(|v| !v.is_finite()) {
        return Err(Error::Numerical("the policy's evaluation equations are singular".into()));
    }
    for v in stationary.iter_mut() {
        *v /= total;
    }
    let residual = (0..n)
        .map(|s| (g + bias[s] - mdp.q_value(mdp.chosen(policy, s), &bias, 1.0)).abs())
        .fold(0.0, f64::max);
    let scale = 1.0 + bias.iter().fold(g.abs(), |m, v| m.max(v.abs()));
    // NaN residuals fail this test too.
    if residual.is_nan() || residual > 1e-6 * scale {
        return Err(Error::Numerical(format!("policy evaluation residual {residual:e} is too large")));
    }
    Ok(PolicyEvaluation { gain: g, bias, stationary, reference, residual })
}

/// Reference of the reduced system: a frequently visited recurrent state
/// (mass after a few steps of the chain from uniform), so that the hitting
/// times w stay moderate and h = u − g·w does not cancel badly.
fn choose_reference(mdp: &Mdp, policy: &[u32], class: &[u32]) -> usize {
    let n = mdp.n_states;
    let mut mass = vec![1.0 / n as f64; n];
    let mut next_mass = vec![0.0; n];
    for _ in 0..64 {
        next_mass.iter_mut().for_each(|x| *x = 0.0);
        for (s, &ms) in mass.iter().enumerate() {
            let (nx, p) = mdp.row(mdp.chosen(policy, s));
            for (&j, &pj) in nx.iter().zip(p) {
                next_mass[j as usize] += ms * pj;
            }
        }
        std::mem::swap(&mut mass, &mut next_mass);
    }
    (0..n).filter(|&s| class[s] == 0).max_by(|&a, &b| mass[a].total_cmp(&mass[b])).unwrap_or(0)
}

/// Row i of M = I − P_π with the row and column of `reference` removed,
/// as (column, value) pairs in reduced indices.
fn reduced_row(mdp: &Mdp, policy: &[u32], reference: usize, i: usize, out: &mut Vec<(usize, f64)>) {
    let s = if i < reference { i } else { i + 1 };
    out.push((i, 1.0));
    let (nx, p) = mdp.row(mdp.chosen(policy, s));
    for (&j, &pj) in nx.iter().zip(p) {
        let j = j as usize;
        if j != reference {
            out.push((if j < reference { j } else { j - 1 }, -pj));
        }
    }
}

/// y = M x for the reduced system of `policy` (see [`reduced_row`]).
fn reduced_matvec(mdp: &Mdp, policy: &[u32], reference: usize, x: &[f64], y: &mut [f64]) {
    for (i, yi) in y.iter_mut().enumerate() {
        let s = if i < reference { i } else { i + 1 };
        let (nx, p) = mdp.row(mdp.chosen(policy, s));
        let mut acc = x[i];
        for (&j, &pj) in nx.iter().zip(p) {
            let j = j as usize;
            if j != reference {
                acc -= pj * x[if j < reference { j } else { j - 1 }];
            }
        }
        *yi = acc;
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Restarted GMRES(m) with left preconditioner `prec` (in place), for
/// A x = b from the initial guess in `x`. Stops when the preconditioned
/// residual is below `tol` times the preconditioned right-hand side, or
/// after `max_it` Arnoldi steps (returns whether it converged). With the
/// LU of a nearby policy as preconditioner, M_old⁻¹ M_new = I + (rank of
/// the rows that changed), so a handful of steps suffice.
fn gmres(
    apply: impl Fn(&[f64], &mut [f64]),
    prec: impl Fn(&mut [f64]),
    b: &[f64],
    x: &mut [f64],
    tol: f64,
    restart: usize,
    max_it: usize,
) -> bool {
    let n = b.len();
    let mut pb = b.to_vec();
    prec(&mut pb);
    let bnorm = dot(&pb, &pb).sqrt();
    if bnorm == 0.0 {
        x.iter_mut().for_each(|v| *v = 0.0);
        return true;
    }
    let mut tmp = vec![0.0; n];
    let mut done = 0;
    while done < max_it {
        // r = M⁻¹ (b − A x)
        apply(x, &mut tmp);
        let mut r: Vec<f64> = b.iter().zip(&tmp).map(|(bi, ai)| bi - ai).collect();
        prec(&mut r);
        let beta = dot(&r, &r).sqrt();
        if !beta.is_finite() {
            return false;
        }
        if beta <= tol * bnorm {
            return true;
        }
        r.iter_mut().for_each(|v| *v /= beta);
        let mut v: Vec<Vec<f64>> = vec![r];
        let mut hess: Vec<Vec<f64>> = Vec::new(); // column j has j + 2 entries
        let (mut cs, mut sn) = (Vec::<f64>::new(), Vec::<f64>::new());
        let mut g = vec![beta];
        let mut k = 0;
        let mut conv = false;
        while k < restart && done < max_it {
            apply(&v[k], &mut tmp);
            let mut z = tmp.clone();
            prec(&mut z);
            let mut hcol = vec![0.0; k + 2];
            // Modified Gram–Schmidt.
            for (i, vi) in v.iter().enumerate() {
                let hij = dot(&z, vi);
                hcol[i] = hij;
                z.iter_mut().zip(vi).for_each(|(zz, vv)| *zz -= hij * vv);
            }
            let hn = dot(&z, &z).sqrt();
            hcol[k + 1] = hn;
            for i in 0..k {
                let t = cs[i] * hcol[i] + sn[i] * hcol[i + 1];
                hcol[i + 1] = -sn[i] * hcol[i] + cs[i] * hcol[i + 1];
                hcol[i] = t;
            }
            let rho = hcol[k].hypot(hcol[k + 1]);
            let (c, s) = if rho == 0.0 { (1.0, 0.0) } else { (hcol[k] / rho, hcol[k + 1] / rho) };
            hcol[k] = rho;
            hcol[k + 1] = 0.0;
            cs.push(c);
            sn.push(s);
            let gk = g[k];
            g[k] = c * gk;
            g.push(-s * gk);
            hess.push(hcol);
            k += 1;
            done += 1;
            if g[k].abs() <= tol * bnorm || hn == 0.0 {
                conv = true;
                break;
            }
            z.iter_mut().for_each(|zz| *zz /= hn);
            v.push(z);
        }
        // x += V y with H y = g (upper triangular).
        let mut y = vec![0.0; k];
        for i in (0..k).rev() {
            let mut acc = g[i];
            for (j, yj) in y.iter().enumerate().skip(i + 1) {
                acc -= hess[j][i] * yj;
            }
            y[i] = if hess[i][i] != 0.0 { acc / hess[i][i] } else { 0.0 };
        }
        for (yi, vi) in y.iter().zip(&v) {
            x.iter_mut().zip(vi).for_each(|(xx, vv)| *xx += yi * vv);
        }
        if conv {
            return x.iter().all(|v| v.is_finite());
        }
    }
    false
}

/// State kept across the evaluations of policy iteration: the reference
/// state, the LU of the reduced system of the last factorised policy and
/// the last solutions u, w (warm starts).
pub(crate) struct WarmEvaluator {
    reference: usize,
    factor: Factor,
    policy: Vec<u32>,
    u: Vec<f64>,
    w: Vec<f64>,
    /// Sparse LU factorisations performed.
    pub(crate) factorizations: usize,
}

/// Gain and bias of a unichain `policy` for policy iteration. When the
/// policy differs from the last factorised one in few states and the
/// reference state is still recurrent, the reduced systems are solved by
/// GMRES preconditioned with the old LU and warm-started from the last
/// u, w; otherwise (or if GMRES stalls) by a fresh LU. The caller checks
/// the answer with the Bellman certificate.
pub(crate) fn evaluate_warm(mdp: &Mdp, policy: &[u32], state: &mut Option<WarmEvaluator>) -> Result<(f64, Vec<f64>)> {
    let (count, class) = recurrent_classes(mdp, policy)?;
    if count != 1 {
        return Err(Error::Infeasible(format!(
            "the policy's chain has {count} recurrent classes (multichain): its average cost depends on the start state"
        )));
    }
    let n = mdp.n_states;
    if n == 1 {
        return Ok((mdp.cost[mdp.chosen(policy, 0)], vec![0.0]));
    }
    if let Some(st) = state.as_mut()
        && class[st.reference] != u32::MAX
    {
        let changed = policy.iter().zip(&st.policy).filter(|(a, b)| a != b).count();
        if changed <= n / 64 + 1 {
            let reference = st.reference;
            let c: Vec<f64> = (0..n).filter(|&s| s != reference).map(|s| mdp.cost[mdp.chosen(policy, s)]).collect();
            let ones = vec![1.0; n - 1];
            let apply = |x: &[f64], y: &mut [f64]| reduced_matvec(mdp, policy, reference, x, y);
            let f = &st.factor;
            let prec = |r: &mut [f64]| f.solve_a(r);
            let (mut u, mut w) = (st.u.clone(), st.w.clone());
            let ok = gmres(apply, prec, &c, &mut u, 1e-14, 12, 48) && gmres(apply, prec, &ones, &mut w, 1e-14, 12, 48);
            if ok && let Some((g, bias)) = gain_bias(mdp, policy, reference, &u, &w) {
                st.u = u;
                st.w = w;
                return Ok((g, bias));
            }
        }
    }
    let reference = match state.as_ref() {
        Some(st) if class[st.reference] != u32::MAX => st.reference,
        _ => choose_reference(mdp, policy, &class),
    };
    let factor = factorize(n - 1, |i, out| reduced_row(mdp, policy, reference, i, out))?;
    let mut u: Vec<f64> = (0..n).filter(|&s| s != reference).map(|s| mdp.cost[mdp.chosen(policy, s)]).collect();
    let mut w = vec![1.0; n - 1];
    factor.solve_a(&mut u);
    factor.solve_a(&mut w);
    let (g, bias) = gain_bias(mdp, policy, reference, &u, &w)
        .ok_or_else(|| Error::Numerical("the policy's evaluation equations are singular".into()))?;
    let factorizations = state.as_ref().map_or(0, |s| s.factorizations) + 1;
    *state = Some(WarmEvaluator { reference, factor, policy: policy.to_vec(), u, w, factorizations });
    Ok((g, bias))
}

/// g = (c_ref + P_ref·u) / (1 + P_ref·w) and h = u − g·w (h(ref) = 0),
/// or `None` when not finite.
fn gain_bias(mdp: &Mdp, policy: &[u32], reference: usize, u: &[f64], w: &[f64]) -> Option<(f64, Vec<f64>)> {
    let n = mdp.n_states;
    let red = |j: usize| if j < reference { j } else { j - 1 };
    let k = mdp.chosen(policy, reference);
    let (nx, p) = mdp.row(k);
    let (mut pu, mut pw) = (0.0, 0.0);
    for (&j, &pj) in nx.iter().zip(p) {
        if j as usize != reference {
            pu += pj * u[red(j as usize)];
            pw += pj * w[red(j as usize)];
        }
    }
    let g = (mdp.cost[k] + pu) / (1.0 + pw);
    let mut bias = vec![0.0; n];
    for s in (0..n).filter(|&s| s != reference) {
        bias[s] = u[red(s)] - g * w[red(s)];
    }
    (g.is_finite() && bias.iter().all(|v| v.is_finite())).then_some((g, bias))
}

/// Evaluates `policy` exactly under discount factor β ∈ [0, 1):
/// solves (I − β P_π) v = c_π by sparse LU.
pub fn evaluate_discounted(mdp: &Mdp, policy: &[u32], beta: f64) -> Result<Vec<f64>> {
    mdp.check_policy(policy)?;
    if !(beta.is_finite() && (0.0..1.0).contains(&beta)) {
        return Err(Error::invalid(format!("discount factor must be in [0, 1), got {beta}")));
    }
    let n = mdp.n_states;
    let f = factorize(n, |i, out| {
        out.push((i, 1.0));
        let (nx, p) = mdp.row(mdp.chosen(policy, i));
        for (&j, &pj) in nx.iter().zip(p) {
            out.push((j as usize, -beta * pj));
        }
    })?;
    let mut v: Vec<f64> = (0..n).map(|s| mdp.cost[mdp.chosen(policy, s)]).collect();
    f.solve_a(&mut v);
    if v.iter().any(|x| !x.is_finite()) {
        return Err(Error::Numerical("discounted evaluation produced a non-finite value".into()));
    }
    Ok(v)
}
