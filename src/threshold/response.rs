//! Response time of a page: its distribution and its mean conditional on
//! being served (paper 002, Corollary 1 gives only the mean, by Little's
//! law), from the absorbing chain of a tagged page.
//!
//! Under FIFO service, pages that arrive after the tagged page never
//! overtake it and the arrival process does not act on it, so from its
//! admission on the tagged page only sees the page in service and the
//! pages ahead of it. Its state is the original chain's without the
//! arrival phase and truncated after the tagged page: level ℓ = position
//! in the system (1 = in service), the service phase, and the obsolescence
//! phases of the ℓ − 2 pages ahead and of the tagged page itself (last).
//! That is [`StateSpace`] with W = 1, levels 1..=L, and a sub-generator T
//! that only keeps or lowers the level, with two exits: served (service
//! completion at level 1) and obsolete (the tagged page's own obsolescence).
//!
//! The initial law α is the state seen by an admitted page: the stationary
//! vector weighted by the batch rates, each admitted page of a batch
//! (partial admission) counting once, batch-mates ahead of it with i.i.d.
//! fresh obsolescence phases. Then, with τ the sojourn:
//! - P(τ > t) = α e^{Tt} 1 (computed by uniformization),
//! - E[τ] = α(−T)⁻¹1 (equals Little's law [`super::Measures::response_time`]),
//! - P(served) = αh with h = (−T)⁻¹t_served, E[τ | served] = α(−T)⁻¹h / αh,
//! - P(τ ≤ t, served) = αh − α e^{Tt} h.

use super::generator::generator;
use super::model::{Policy, ThresholdModel};
use super::solve::stationary_with;
use super::state::StateSpace;
use crate::error::{Error, Result};
use crate::limits::Control;
use faer::linalg::solvers::Solve;
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use sprs::{CsMat, TriMat};

/// Mean response times of admitted pages.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResponseTime {
    /// E[τ]: mean sojourn of an admitted page, served or obsolete (equals
    /// [`super::Measures::response_time`]).
    pub mean: f64,
    /// P(served | admitted).
    pub served_probability: f64,
    /// E[τ | served]: mean time from admission to the end of service.
    pub mean_served: f64,
    /// E[τ | obsolete]: mean time from admission to obsolescence (0 when no
    /// page ever becomes obsolete).
    pub mean_obsolete: f64,
}

/// The sojourn of a tagged admitted page as a phase-type distribution with
/// two exits (served, obsolete). Build with [`sojourn`] or [`sojourn_from`].
#[derive(Debug, Clone)]
pub struct Sojourn {
    /// Sub-generator T (CSR), tagged states = [`Sojourn::space`] minus its
    /// level-0 state.
    t: CsMat<f64>,
    alpha: Vec<f64>,
    served_exit: Vec<f64>,
    space: StateSpace,
    /// h = (−T)⁻¹ t_served: probability of being served from each state.
    h: Vec<f64>,
    means: ResponseTime,
    /// Checked in each uniformization step of [`Sojourn::cdf`].
    control: Control,
}

/// Largest work [`Sojourn::cdf`] takes on, in multiply-adds: about
/// 3·Λ·t_max vector–matrix products (Λ the largest total rate out of a
/// tagged state) of nnz(T) each; 2·10¹⁰ is some seconds.
pub const MAX_UNIFORMIZATION_WORK: f64 = 2e10;

/// Solves the chain of `model` under `policy` ([`super::solve::stationary`]) and builds
/// the tagged page's sojourn: [`sojourn_with`] under the default control.
pub fn sojourn(model: &ThresholdModel, policy: &Policy) -> Result<Sojourn> {
    sojourn_with(model, policy, &Control::default())
}

/// [`sojourn`] under a control: `TooLarge` (before anything is built) when
/// the chain's evaluation and the tagged page's chain with its sparse LU
/// would exceed its memory cap (else the process-wide one); `Cancelled`
/// when it is cancelled, checked before starting, in the loops over the
/// states, and in each uniformization step of [`Sojourn::cdf`] (the
/// sojourn keeps the control).
pub fn sojourn_with(model: &ThresholdModel, policy: &Policy, control: &Control) -> Result<Sojourn> {
    control.check(WHAT, 0)?;
    let sp = model.space();
    let (_, m, r) = sp.phases();
    let bytes = model
        .evaluation_bytes()
        .zip(tagged_bytes(m, r, sp.max_level()))
        .and_then(|(a, b)| a.checked_add(b));
    control.check_memory(
        bytes.filter(|&b| b <= isize::MAX as u128),
        &format!(
            "the sojourn of a page in a threshold chain of {} states",
            sp.len()
        ),
    )?;
    let q = generator(model, policy)?;
    let (pi, _) = stationary_with(model.space(), &q, control)?;
    build(model, policy, &pi, control)
}

/// What a cancelled sojourn reports.
const WHAT: &str = "the sojourn of a page";

/// States between two checks of the control in the loops over the states.
const CHECK_EVERY: usize = 1 << 12;

/// Bytes of the tagged page's chain on levels 1..=`top` (M·R^(ℓ−1)
/// states each) and of its sparse LU: T keeps or lowers the level by one,
/// so the factors fill at most the diagonal level blocks (L and U) and L
/// the blocks one level down: 3 Σ (level size)² entries of 16 bytes (value
/// and index), plus T and ten vectors.
fn tagged_bytes(m: usize, r: usize, top: usize) -> Option<u128> {
    let (m, r) = (m as u128, r as u128);
    let mut total: u128 = 0;
    let mut states: u128 = 0;
    let mut size = m;
    for level in 1..=top {
        if level > 1 {
            size = size.checked_mul(r)?;
        }
        states = states.checked_add(size)?;
        total = total.checked_add(size.checked_mul(size)?.checked_mul(48)?)?;
        if r == 1 && level > 1 {
            // Equal levels: the rest adds the same each time.
            let rest = (top - level) as u128;
            states = states.checked_add(size.checked_mul(rest)?)?;
            total =
                total.checked_add(size.checked_mul(size)?.checked_mul(48)?.checked_mul(rest)?)?;
            break;
        }
    }
    total.checked_add(states.checked_mul(10 * 8 + 4 * 16)?)
}

/// Means of [`sojourn`].
pub fn response_time(model: &ThresholdModel, policy: &Policy) -> Result<ResponseTime> {
    Ok(sojourn(model, policy)?.means())
}

/// γ^{⊗λ}: (code, probability) of λ i.i.d. initial obsolescence phases,
/// first page most significant, zero probabilities dropped.
fn fresh_phases(gamma: &[f64], len: usize) -> Vec<(usize, f64)> {
    let mut out = vec![(0usize, 1.0)];
    for _ in 0..len {
        out = out
            .iter()
            .flat_map(|&(c, p)| {
                gamma
                    .iter()
                    .enumerate()
                    .filter(|x| *x.1 > 0.0)
                    .map(move |(k, &g)| (c * gamma.len() + k, p * g))
            })
            .collect();
    }
    out
}

/// The tagged page's sojourn from a stationary vector `pi` of the chain.
pub fn sojourn_from(model: &ThresholdModel, policy: &Policy, pi: &[f64]) -> Result<Sojourn> {
    build(model, policy, pi, &Control::default())
}

/// [`sojourn_from`] checking `control` in its loops.
fn build(
    model: &ThresholdModel,
    policy: &Policy,
    pi: &[f64],
    control: &Control,
) -> Result<Sojourn> {
    let tsp = tagged_space(model, policy, pi)?;
    let alpha = admission_law(model, policy, pi, &tsp, control)?;
    let (t, served_exit, obsolete_exit) = tagged_generator(model, &tsp, control)?;
    let (h, means) = absorption(&t, &alpha, &served_exit, obsolete_exit)?;
    Ok(Sojourn {
        t,
        alpha,
        served_exit,
        space: tsp,
        h,
        means,
        control: control.clone(),
    })
}

/// Setup: the checks of `policy` and `pi`, and the tagged page's state
/// space (W = 1, levels up to the chain's).
fn tagged_space(model: &ThresholdModel, policy: &Policy, pi: &[f64]) -> Result<StateSpace> {
    model.check_policy(policy)?;
    model.check_stationary(pi)?;
    let sp = model.space();
    let (_, mm, r) = sp.phases();
    let top = sp.max_level();
    if top == 0 {
        return Err(Error::invalid("the model admits no page (buffer overflow)"));
    }
    StateSpace::new(1, mm, r, top)
}

/// α: the tagged state an admitted page starts in, from the stationary
/// vector `pi` weighted by the batch rates (each admitted page of a batch
/// counts once), normalised to 1.
fn admission_law(
    model: &ThresholdModel,
    policy: &Policy,
    pi: &[f64],
    tsp: &StateSpace,
    control: &Control,
) -> Result<Vec<f64>> {
    let sp = model.space();
    let (_, _, r) = sp.phases();
    let top = sp.max_level();
    let n = tsp.len() - 1;
    // Tagged index of (level ℓ ≥ 1, service phase m, obsolescence code).
    let tidx = |level: usize, m: usize, code: usize| {
        tsp.offset(level) - 1 + m * r.pow((level - 1) as u32) + code
    };
    let beta = model.service().alpha();
    let gamma = model.obsolescence_alpha();
    let fresh: Vec<Vec<(usize, f64)>> = (0..=model.max_batch().min(top))
        .map(|len| fresh_phases(gamma, len))
        .collect();

    let mut alpha = vec![0.0; n];
    let mut admitted_rate = 0.0;
    for (idx, &p) in pi.iter().enumerate() {
        if idx % CHECK_EVERY == 0 {
            control.check(WHAT, idx as u64)?;
        }
        if p <= 0.0 {
            continue;
        }
        let (i, nu, m) = sp.head(idx);
        let arr = model.arrivals(policy.robots_at(i));
        // Code of the i − 1 waiting pages' phases: the low digits of the local index.
        let code_k = if i == 0 {
            0
        } else {
            (idx - sp.offset(i)) % r.pow((i - 1) as u32)
        };
        for j in 1..=arr.max_batch() {
            let rate: f64 = arr.d(j).row(nu).sum();
            if rate <= 0.0 {
                continue;
            }
            let w = p * rate;
            let admitted = j.min(top - i);
            admitted_rate += w * admitted as f64;
            for l in 0..admitted {
                if i == 0 {
                    // The first page of the batch starts service; the tagged
                    // page is the l-th, behind l − 1 fresh batch-mates.
                    for (m2, &b) in beta.iter().enumerate().filter(|x| *x.1 > 0.0) {
                        for &(f, pf) in &fresh[l] {
                            alpha[tidx(l + 1, m2, f)] += w * b * pf;
                        }
                    }
                } else {
                    let shift = r.pow((l + 1) as u32);
                    for &(f, pf) in &fresh[l + 1] {
                        alpha[tidx(i + l + 1, m, code_k * shift + f)] += w * pf;
                    }
                }
            }
        }
    }
    if !(admitted_rate > 0.0 && admitted_rate.is_finite()) {
        return Err(Error::Numerical(
            "no page is admitted: the response time is undefined".into(),
        ));
    }
    alpha.iter_mut().for_each(|a| *a /= admitted_rate);
    Ok(alpha)
}

/// Finish: h = (−T)⁻¹ t_served and the mean response times, by solves with
/// −T (sparse LU; T keeps or lowers the level, so the factors only fill
/// within levels).
fn absorption(
    t: &CsMat<f64>,
    alpha: &[f64],
    served_exit: &[f64],
    obsolete_exit: Vec<f64>,
) -> Result<(Vec<f64>, ResponseTime)> {
    let n = alpha.len();
    let neg_csc = (t * -1.0).to_csc();
    let indptr: Vec<usize> = neg_csc.indptr().raw_storage().to_vec();
    let sym = SymbolicSparseColMatRef::new_checked(n, n, &indptr, None, neg_csc.indices());
    let lu = SparseColMatRef::new(sym, neg_csc.data())
        .sp_lu()
        .map_err(|e| {
            Error::Numerical(format!(
                "sparse LU of the tagged page's chain failed: {e:?}"
            ))
        })?;
    let solve = |mut b: Vec<f64>| -> Result<Vec<f64>> {
        lu.solve_in_place(faer::MatMut::from_column_major_slice_mut(&mut b, n, 1));
        if b.iter().all(|x| x.is_finite()) {
            Ok(b)
        } else {
            Err(Error::Numerical(
                "the tagged page's chain is singular".into(),
            ))
        }
    };
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let x1 = solve(vec![1.0; n])?;
    let h = solve(served_exit.to_vec())?;
    let xh = solve(h.clone())?;
    let mean = dot(alpha, &x1);
    let ps = dot(alpha, &h).clamp(0.0, 1.0);
    let mean_served = if ps > 0.0 { dot(alpha, &xh) / ps } else { 0.0 };
    // From the obsolete exits directly: (mean − ps·mean_served)/(1 − ps)
    // cancelled when obsolescence is rare (rate 1e−11 of the service rate:
    // 2e−5 off; found by tests/robustness.rs).
    let h_obs = solve(obsolete_exit)?;
    let p_obs = dot(alpha, &h_obs);
    let mean_obsolete = if p_obs > 0.0 {
        dot(alpha, &solve(h_obs)?) / p_obs
    } else {
        0.0
    };
    if ![mean, ps, mean_served, mean_obsolete]
        .iter()
        .all(|x| x.is_finite())
    {
        return Err(Error::Numerical("a response time is not finite".into()));
    }
    let means = ResponseTime {
        mean,
        served_probability: ps,
        mean_served,
        mean_obsolete,
    };
    Ok((h, means))
}

/// T over the tagged states, the served exit rates and the obsolete exit
/// rates (together −T1); `Cancelled` when `control` is.
fn tagged_generator(
    model: &ThresholdModel,
    tsp: &StateSpace,
    control: &Control,
) -> Result<(CsMat<f64>, Vec<f64>, Vec<f64>)> {
    let n = tsp.len() - 1;
    let (_, mm, r) = tsp.phases();
    let top = tsp.max_level();
    let beta = model.service().alpha();
    let s = model.service().sub_generator();
    let s0 = model.service().exit_rates();
    let g = model.obsolescence_sub_generator();
    let g0 = model.obsolescence_exit_rates();
    let to =
        |level: usize, m: usize, obs: &[usize]| tsp.offset(level) - 1 + tsp.local(level, 0, m, obs);
    let mut tri = TriMat::with_capacity((n, n), n.saturating_mul(4));
    let mut served = Vec::with_capacity(n);
    let mut obsolete = Vec::with_capacity(n);
    let mut row: Vec<(usize, f64)> = Vec::new();
    for idx in 0..n {
        if idx % CHECK_EVERY == 0 {
            control.check(WHAT, idx as u64)?;
        }
        row.clear();
        let mut exit = 0.0;
        // The tagged page's own obsolescence rate (its obsolete exit).
        let mut own_exit = 0.0;
        let (level, m, obs) = if r == 1 {
            let (l, _, m) = tsp.head(idx + 1);
            (l, m, Vec::new())
        } else {
            let st = tsp.state(idx + 1);
            (st.level, st.service, st.obsolescence)
        };
        for m2 in (0..mm).filter(|&m2| m2 != m) {
            row.push((to(level, m2, &obs), s[(m, m2)]));
        }
        served.push(if level == 1 { s0[m] } else { 0.0 });
        if level == 1 {
            exit += s0[m];
        } else if s0[m] > 0.0 {
            // The head of the queue (the tagged page itself at level 2) starts service.
            for (m2, &b) in beta.iter().enumerate() {
                let target = if r == 1 {
                    tsp.offset(level - 1) - 1 + m2
                } else {
                    to(level - 1, m2, &obs[1..])
                };
                row.push((target, s0[m] * b));
            }
        }
        if level >= 2 {
            if r == 1 {
                // level − 2 pages ahead, each obsolete at rate γ₀; the tagged page too.
                row.push((tsp.offset(level - 1) - 1 + m, (level - 2) as f64 * g0[0]));
                exit += g0[0];
                own_exit = g0[0];
            } else {
                let own = level - 2;
                let mut k2 = obs.clone();
                for p in 0..obs.len() {
                    let k = obs[p];
                    for l in (0..r).filter(|&l| l != k) {
                        k2[p] = l;
                        row.push((to(level, m, &k2), g[(k, l)]));
                    }
                    k2[p] = k;
                    if p == own {
                        exit += g0[k];
                        own_exit = g0[k];
                    } else if g0[k] > 0.0 {
                        let mut rest = obs.clone();
                        rest.remove(p);
                        row.push((to(level - 1, m, &rest), g0[k]));
                    }
                }
            }
        }
        let mut total = exit;
        for &(c, v) in &row {
            if v > 0.0 && c != idx {
                tri.add_triplet(idx, c, v);
                total += v;
            }
        }
        tri.add_triplet(idx, idx, -total);
        obsolete.push(own_exit);
        debug_assert!(level <= top);
    }
    Ok((tri.to_csr(), served, obsolete))
}

impl Sojourn {
    /// The means (computed when built).
    pub fn means(&self) -> ResponseTime {
        self.means
    }

    /// (α, T): the sojourn is PH(α, T) over the tagged states (level ℓ =
    /// position, service phase, obsolescence phases of the pages ahead and
    /// the tagged page's last; see [`Sojourn::space`]).
    pub fn phase_type(&self) -> (&[f64], &CsMat<f64>) {
        (&self.alpha, &self.t)
    }

    /// Served exit rates t_served (the rest of −T1 is obsolescence).
    pub fn served_exit_rates(&self) -> &[f64] {
        &self.served_exit
    }

    /// The tagged states: [`StateSpace`] with W = 1; state k of T is index
    /// k + 1 there (its level-0 state is not used).
    pub fn space(&self) -> &StateSpace {
        &self.space
    }

    /// P(τ ≤ t) for each t (any order, ≥ 0, finite).
    pub fn cdf(&self, times: &[f64]) -> Result<Vec<f64>> {
        let ones = vec![1.0; self.alpha.len()];
        Ok(self
            .survival(times, &ones)?
            .into_iter()
            .map(|s| (1.0 - s).clamp(0.0, 1.0))
            .collect())
    }

    /// P(τ ≤ t | served) for each t; `InvalidArgument` if no page is served.
    pub fn cdf_served(&self, times: &[f64]) -> Result<Vec<f64>> {
        let ps = self.means.served_probability;
        if ps <= 0.0 {
            return Err(Error::invalid(
                "no page is served: the conditional distribution is undefined",
            ));
        }
        Ok(self
            .survival(times, &self.h)?
            .into_iter()
            .map(|s| ((ps - s) / ps).clamp(0.0, 1.0))
            .collect())
    }

    /// α e^{Tt} f for each t, by uniformization in steps of Λt ≤ 32 so
    /// that the Poisson weights neither underflow nor lose mass.
    fn survival(&self, times: &[f64], f: &[f64]) -> Result<Vec<f64>> {
        crate::validate::all_non_negative("times", times)?;
        let n = self.alpha.len();
        let lambda = (0..n)
            .map(|i| -self.t.get(i, i).copied().unwrap_or(0.0))
            .fold(0.0_f64, f64::max);
        let t_max = times.iter().cloned().fold(0.0_f64, f64::max);
        let steps = 3.0 * lambda * t_max + 100.0 * times.len() as f64;
        let nnz = self.t.nnz() as f64;
        if steps * nnz > MAX_UNIFORMIZATION_WORK {
            return Err(Error::TooLarge(format!(
                "the distribution at t = {} needs about {steps:.3e} uniformization steps (largest rate {}) \
                 over {nnz} entries, more than {MAX_UNIFORMIZATION_WORK:e} multiply-adds",
                crate::error::Num(t_max),
                crate::error::Num(lambda)
            )));
        }
        let mut order: Vec<usize> = (0..times.len()).collect();
        order.sort_by(|&a, &b| times[a].total_cmp(&times[b]));
        let mut out = vec![0.0; times.len()];
        let mut v = self.alpha.clone();
        let mut now = 0.0;
        let mut w = vec![0.0; n];
        let mut next = vec![0.0; n];
        let mut acc = vec![0.0; n];
        let mut steps_done = 0u64;
        for &k in &order {
            let mut left = (times[k] - now) * lambda;
            while left > 0.0 {
                let a = left.min(32.0);
                left -= a;
                // acc = Σ_j e^{−a} a^j/j! v P^j, P = I + T/Λ.
                w.copy_from_slice(&v);
                let mut weight = (-a).exp();
                let mut mass = weight;
                acc.iter_mut().zip(&w).for_each(|(x, y)| *x = weight * y);
                let mut j = 0.0;
                while (j < a || weight > 1e-18 * mass) && j < a + 200.0 {
                    self.control.check(WHAT, steps_done)?;
                    steps_done += 1;
                    j += 1.0;
                    next.copy_from_slice(&w);
                    for (row, vec) in self.t.outer_iterator().enumerate() {
                        let x = w[row] / lambda;
                        if x != 0.0 {
                            for (col, &val) in vec.iter() {
                                next[col] += x * val;
                            }
                        }
                    }
                    std::mem::swap(&mut w, &mut next);
                    weight *= a / j;
                    mass += weight;
                    acc.iter_mut().zip(&w).for_each(|(x, y)| *x += weight * y);
                }
                std::mem::swap(&mut v, &mut acc);
            }
            now = times[k];
            out[k] = v.iter().zip(f).map(|(x, y)| x * y).sum();
        }
        Ok(out)
    }
}
