//! The infinitesimal generator Q of the chain (paper 002, §3, Lemma; the
//! blocks Q_{i,j} were lost in the text and are rebuilt here from the model
//! description). Q_{i,j} = 0 for j < i − 1 (pages leave one at a time:
//! service completion or obsolescence) while batches jump up by up to k
//! levels: Q is upper block Hessenberg.

use super::model::{Policy, ThresholdModel};
use super::state::State;
use crate::dist::Bmap;
use crate::error::Result;
use sprs::{CsMat, TriMat};

/// Calls `f(probability, phases)` for every vector of `len` independent
/// initial phases drawn from `alpha` (entries with zero probability skipped).
fn for_each_initial(len: usize, alpha: &[f64], f: &mut dyn FnMut(f64, &[usize])) {
    let r = alpha.len();
    let mut combo = vec![0usize; len];
    loop {
        let p: f64 = combo.iter().map(|&k| alpha[k]).product();
        if p > 0.0 {
            f(p, &combo);
        }
        // Odometer increment, last position fastest.
        let mut pos = len;
        loop {
            if pos == 0 {
                return;
            }
            pos -= 1;
            combo[pos] += 1;
            if combo[pos] < r {
                break;
            }
            combo[pos] = 0;
        }
    }
}

/// Off-diagonal transitions out of state `st` under `policy`, as
/// (target index, rate); self-loops (a batch entirely lost with no phase
/// change) are dropped since they do not move the chain.
pub fn transitions(
    model: &ThresholdModel,
    policy: &Policy,
    st: &State,
    out: &mut Vec<(usize, f64)>,
) {
    out.clear();
    let sp = model.space();
    let me = sp.offset(st.level) + sp.local(st.level, st.arrival, st.service, &st.obsolescence);
    let mut row = Row { model, st, me, out };
    row.arrivals(model.arrivals(policy.robots_at(st.level)));
    if st.level == 0 {
        return;
    }
    row.service();
    row.obsolescence();
}

/// The row of Q out of state `st` (index `me`) being built in `out`.
struct Row<'a> {
    model: &'a ThresholdModel,
    st: &'a State,
    me: usize,
    out: &'a mut Vec<(usize, f64)>,
}

impl Row<'_> {
    /// Adds the rate to state (level, arrival phase a, service phase s,
    /// obsolescence phases k), unless it is zero or a self-loop.
    fn push(&mut self, level: usize, a: usize, s: usize, k: &[usize], rate: f64) {
        let sp = self.model.space();
        let target = sp.offset(level) + sp.local(level, a, s, k);
        if rate > 0.0 && target != self.me {
            self.out.push((target, rate));
        }
    }

    /// Arrival phase moves without pages (D₀(r) off-diagonal), and batches
    /// of j pages of which min(j, L − i) are admitted (partial admission).
    fn arrivals(&mut self, arr: &Bmap) {
        let (model, st) = (self.model, self.st);
        let top = model.space().max_level();
        let beta = model.service().alpha();
        let gam = model.obsolescence_alpha();
        let (i, nu, m, obs) = (st.level, st.arrival, st.service, &st.obsolescence);
        for (j, nu2, rate) in arrival_moves(arr, nu) {
            let admitted = j.min(top - i);
            if admitted == 0 {
                self.push(i, nu2, m, obs, rate);
            } else if i == 0 {
                // First page starts service; the others wait, each with a
                // fresh obsolescence phase (order within a batch is random,
                // but the phases are i.i.d. so the order needs no sampling).
                for (m2, &b) in beta.iter().enumerate() {
                    if b > 0.0 {
                        for_each_initial(admitted - 1, gam, &mut |p, k| {
                            self.push(admitted, nu2, m2, k, rate * b * p)
                        });
                    }
                }
            } else {
                let mut k2 = obs.clone();
                for_each_initial(admitted, gam, &mut |p, k| {
                    k2.truncate(obs.len());
                    k2.extend_from_slice(k);
                    self.push(i + admitted, nu2, m, &k2, rate * p);
                });
            }
        }
    }

    /// Service phase moves, and service completion: the head of the queue
    /// (if any) starts service. Level i ≥ 1.
    fn service(&mut self) {
        let (model, st) = (self.model, self.st);
        let (_, mm, _) = model.space().phases();
        let beta = model.service().alpha();
        let (i, nu, m, obs) = (st.level, st.arrival, st.service, &st.obsolescence);
        let s = model.service().sub_generator();
        for m2 in 0..mm {
            if m2 != m {
                self.push(i, nu, m2, obs, s[(m, m2)]);
            }
        }
        let s0 = model.service().exit_rates()[m];
        if s0 > 0.0 {
            if i == 1 {
                self.push(0, nu, 0, &[], s0);
            } else {
                for (m2, &b) in beta.iter().enumerate() {
                    self.push(i - 1, nu, m2, &obs[1..], s0 * b);
                }
            }
        }
    }

    /// Each waiting page ages; at absorption it leaves (obsolescence).
    /// Level i ≥ 1.
    fn obsolescence(&mut self) {
        let (model, st) = (self.model, self.st);
        let (i, nu, m, obs) = (st.level, st.arrival, st.service, &st.obsolescence);
        let g = model.obsolescence_sub_generator();
        let g0 = model.obsolescence_exit_rates();
        let r = g.nrows();
        let mut k2 = obs.clone();
        for p in 0..obs.len() {
            let k = obs[p];
            for l in 0..r {
                if l != k && g[(k, l)] > 0.0 {
                    k2[p] = l;
                    self.push(i, nu, m, &k2, g[(k, l)]);
                }
            }
            k2[p] = k;
            if g0[k] > 0.0 {
                let mut rest = obs.clone();
                rest.remove(p);
                self.push(i - 1, nu, m, &rest, g0[k]);
            }
        }
    }
}

/// The generator as a sparse CSR matrix, rows summing to zero by
/// construction (the diagonal is minus the sum of the row's other rates).
pub fn generator(model: &ThresholdModel, policy: &Policy) -> Result<CsMat<f64>> {
    model.check_policy(policy)?;
    if model.space().phases().2 == 1 {
        return Ok(generator_single_phase(model, policy));
    }
    Ok(generator_general(model, policy))
}

/// [`generator`] from [`transitions`], state by state (any R). Rows come
/// out in order, so the CSR arrays are filled directly (columns sorted,
/// duplicates merged per row): no triplet list, whose sort would take about
/// half of the build and whose 24 bytes per entry would double its peak
/// memory.
pub(crate) fn generator_general(model: &ThresholdModel, policy: &Policy) -> CsMat<f64> {
    let sp = model.space();
    let n = sp.len();
    let mut indptr = Vec::with_capacity(n + 1);
    let mut indices = Vec::with_capacity(n.saturating_mul(8));
    let mut data = Vec::with_capacity(n.saturating_mul(8));
    indptr.push(0);
    let mut buf = Vec::new();
    for idx in 0..n {
        let st = sp.state(idx);
        transitions(model, policy, &st, &mut buf);
        let total: f64 = buf.iter().map(|e| e.1).sum();
        buf.push((idx, -total));
        buf.sort_unstable_by_key(|e| e.0);
        let start = indices.len();
        for &(col, rate) in &buf {
            if indices.len() > start && indices[indices.len() - 1] == col {
                *data.last_mut().expect("an entry of this row") += rate;
            } else {
                indices.push(col);
                data.push(rate);
            }
        }
        indptr.push(indices.len());
    }
    CsMat::new((n, n), indptr, indices, data)
}

/// The arrival moves out of arrival phase `nu` with a positive rate, in
/// this order: (0, ν′, D₀[ν, ν′]) for ν′ ≠ ν (a phase change without
/// pages), then (j, ν′, D_j[ν, ν′]) for every batch size j ≥ 1.
fn arrival_moves(arr: &Bmap, nu: usize) -> impl Iterator<Item = (usize, usize, f64)> + '_ {
    let w = arr.order();
    let d0 = arr.d(0);
    let phase_changes = (0..w)
        .filter(move |&nu2| nu2 != nu)
        .map(move |nu2| (0, nu2, d0[(nu, nu2)]));
    let batches = (1..=arr.max_batch()).flat_map(move |j| {
        let dj = arr.d(j);
        (0..w).map(move |nu2| (j, nu2, dj[(nu, nu2)]))
    });
    phase_changes
        .chain(batches)
        .filter(|&(_, _, rate)| rate > 0.0)
}

/// [`generator`] when the obsolescence has one phase (R = 1: exponential,
/// or never): the waiting pages carry no phase, the state is (i, ν, m) and
/// the i − 1 waiting pages leave at rate (i − 1)γ₀ together. Same
/// transitions as [`transitions`] (tested), but O(1) per state instead of
/// O(i), which matters for long buffers (10⁵ levels).
fn generator_single_phase(model: &ThresholdModel, policy: &Policy) -> CsMat<f64> {
    let sp = model.space();
    let n = sp.len();
    let (w, mm, _) = sp.phases();
    let top = sp.max_level();
    let beta = model.service().alpha();
    let s = model.service().sub_generator();
    let s0 = model.service().exit_rates();
    let g0 = model.obsolescence_exit_rates()[0];
    let to = |level: usize, a: usize, m: usize| {
        sp.offset(level) + if level == 0 { a } else { a * mm + m }
    };
    let mut tri = TriMat::with_capacity((n, n), n.saturating_mul(8));
    for i in 0..=top {
        let arr = model.arrivals(policy.robots_at(i));
        for nu in 0..w {
            for m in 0..if i == 0 { 1 } else { mm } {
                let me = to(i, nu, m);
                let mut total = 0.0;
                let mut push = |target: usize, rate: f64| {
                    if rate > 0.0 && target != me {
                        tri.add_triplet(me, target, rate);
                        total += rate;
                    }
                };
                for (j, nu2, rate) in arrival_moves(arr, nu) {
                    let admitted = j.min(top - i);
                    if admitted == 0 {
                        push(to(i, nu2, m), rate);
                    } else if i == 0 {
                        for (m2, &b) in beta.iter().enumerate() {
                            push(to(admitted, nu2, m2), rate * b);
                        }
                    } else {
                        push(to(i + admitted, nu2, m), rate);
                    }
                }
                if i >= 1 {
                    for m2 in 0..mm {
                        if m2 != m {
                            push(to(i, nu, m2), s[(m, m2)]);
                        }
                    }
                    if i == 1 {
                        push(to(0, nu, 0), s0[m]);
                    } else {
                        for (m2, &b) in beta.iter().enumerate() {
                            push(to(i - 1, nu, m2), s0[m] * b);
                        }
                        push(to(i - 1, nu, m), (i - 1) as f64 * g0);
                    }
                }
                tri.add_triplet(me, me, -total);
            }
        }
    }
    tri.to_csr()
}
