//! Optimal dynamic control (§3), evaluation of any policy, and the measures
//! of Tables 1 and 2.

use super::model::{ARRIVAL, DEPARTURE, Params, RobotsMdp};
use super::static_policy::optimal_static;
use crate::error::{Error, Result};
use crate::limits::Control;
use crate::mdp::{self, Options};

/// A policy given by the caller, to evaluate exactly.
#[derive(Debug, Clone, PartialEq)]
pub enum Policy {
    /// Keep n robots active (1 ≤ n ≤ N): activate on a departure while
    /// r < n, re-activate the arriving robot while r ≤ n. With n = N this
    /// is the paper's static policy π_N.
    Static(usize),
    /// A switching curve: a = 1(q ≤ f_s(r)) at event s ∈ {0, 1}; `f0` and
    /// `f1` have N + 1 entries (−1 = never activate at that r).
    SwitchingCurve {
        /// f_0(r), departures.
        f0: Vec<i64>,
        /// f_1(r), arrivals.
        f1: Vec<i64>,
    },
    /// One action per (q, r, s) with s ∈ {0, 1}, at index
    /// `(r·(K+1) + q)·2 + s`; entries of excluded states are ignored.
    Table(Vec<u8>),
}

/// Long-run measures of a policy (per uniformised event, which by PASTA are
/// also time averages).
#[derive(Debug, Clone, PartialEq)]
pub struct Performance {
    /// W = γ·S + L (eq. 5, §3): the average cost.
    pub cost: f64,
    /// S: stationary probability that the buffer is empty (starvation).
    pub starvation: f64,
    /// L: pages lost per unit time (arrivals finding K pages).
    pub loss_rate: f64,
    /// N_min: fewest active robots in a recurrent state.
    pub n_min: usize,
    /// N̄: mean number of active robots.
    pub n_mean: f64,
    /// Most active robots in a recurrent state.
    pub n_peak: usize,
    /// N_max (Table 2): the largest r < N at which the policy activates a
    /// robot on a departure, over all states of X (the switching curve's
    /// f_0(r) ≥ 1, recurrent or not); `None` if it never does.
    pub n_max: Option<usize>,
    /// Stationary probability of each (q, r, s), index `(r·(K+1) + q)·3 + s`.
    pub stationary: Vec<f64>,
}

/// The optimal dynamic policy and its measures.
#[derive(Debug, Clone, PartialEq)]
pub struct DynamicSolution {
    /// Parameters solved.
    pub params: Params,
    /// C_d and the other measures of the optimal policy.
    pub performance: Performance,
    /// Certificate: the optimal cost lies in [cost_lo, cost_hi].
    pub cost_lo: f64,
    /// See `cost_lo`.
    pub cost_hi: f64,
    /// Optimal action per (q, r, s), s ∈ {0, 1}, index `(r·(K+1) + q)·2 + s`
    /// (0 for excluded states). Among equally good actions, 0 (do not
    /// activate) is chosen.
    pub actions: Vec<u8>,
    /// f_0(r): the policy activates at a departure iff q ≤ f_0(r) (−1: never).
    pub f0: Vec<i64>,
    /// f_1(r): the policy re-activates at an arrival iff q ≤ f_1(r).
    pub f1: Vec<i64>,
    /// Whether the optimal policy is exactly of the switching-curve form
    /// a = 1(q ≤ f_s(r)) (the paper's conjecture, §3).
    pub is_switching_curve: bool,
    /// Solver iterations.
    pub iterations: usize,
}

/// Exact measures of the chain of an MDP policy (local action indices).
fn performance(m: &RobotsMdp, policy: &[u32], control: &Control) -> Result<Performance> {
    let e = mdp::evaluate_average_in(&m.mdp, policy, mdp::Reduction::Auto, control, false)?;
    let (_, class) = mdp::recurrent_classes(&m.mdp, policy)?;
    let p = &m.params;
    let mut stationary = vec![0.0; p.slots()?];
    let (mut starvation, mut full_arrival, mut n_mean) = (0.0, 0.0, 0.0);
    let (mut n_min, mut n_peak, mut n_max) = (usize::MAX, 0usize, None::<usize>);
    for id in 0..m.n_states() {
        let (q, r, s) = m.state(id);
        let pi = e.stationary[id];
        stationary[p.slot(q, r, s)] = pi;
        if q == 0 {
            starvation += pi;
        }
        if q == p.k && s == ARRIVAL {
            full_arrival += pi;
        }
        n_mean += pi * r as f64;
        if class[id] != u32::MAX {
            n_min = n_min.min(r);
            n_peak = n_peak.max(r);
        }
        if s == DEPARTURE && r < p.n && m.action_of(id, policy[id]) == 1 {
            n_max = Some(n_max.map_or(r, |x| x.max(r)));
        }
    }
    Ok(Performance {
        cost: e.gain,
        starvation,
        loss_rate: p.nu() * full_arrival,
        n_min,
        n_mean,
        n_peak,
        n_max,
        stationary,
    })
}

/// Exact measures of a caller's policy for the model `params`.
pub fn evaluate(params: &Params, policy: &Policy) -> Result<Performance> {
    evaluate_with(params, policy, &Control::default())
}

/// [`evaluate`] under a control: its memory cap is checked against the
/// model and one sparse LU evaluation before anything is built, and a
/// cancelled control gives `Cancelled` before the model is built and
/// before it is evaluated (the LU solve itself has no cancel point).
pub fn evaluate_with(params: &Params, policy: &Policy, control: &Control) -> Result<Performance> {
    control.check("robots policy evaluation", 0)?;
    let slots = params.slots()?;
    control.check_memory(
        super::model::model_bytes(slots)
            .and_then(|b| b.checked_add(crate::limits::bytes(slots, 300)?)),
        &format!(
            "the robots MDP of {slots} state slots (N = {}, K = {})",
            params.n, params.k
        ),
    )?;
    let m = RobotsMdp::new(*params)?;
    let p = m.params;
    let pol = match policy {
        Policy::Static(n) => {
            let n = *n;
            if n < 1 || n > p.n {
                return Err(Error::invalid(format!(
                    "static policy needs 1 <= n <= N = {}, got {}",
                    p.n,
                    crate::error::Num(n as f64)
                )));
            }
            m.policy_from(|_, r, s| if s == DEPARTURE { r < n } else { r <= n })?
        }
        Policy::SwitchingCurve { f0, f1 } => {
            if f0.len() != p.n + 1 || f1.len() != p.n + 1 {
                return Err(Error::invalid(format!(
                    "switching curves need N + 1 = {} entries, got {} and {}",
                    p.n + 1,
                    f0.len(),
                    f1.len()
                )));
            }
            m.policy_from(|q, r, s| q as i64 <= if s == DEPARTURE { f0[r] } else { f1[r] })?
        }
        Policy::Table(t) => {
            let need = (p.k + 1) * (p.n + 1) * 2;
            if t.len() != need {
                return Err(Error::invalid(format!(
                    "action table needs (K+1)(N+1)2 = {need} entries, got {}",
                    t.len()
                )));
            }
            if let Some(i) = t.iter().position(|&a| a > 1) {
                return Err(Error::invalid(format!(
                    "action table entry {i} is {}, not 0 or 1",
                    t[i]
                )));
            }
            m.policy_from(|q, r, s| t[(r * (p.k + 1) + q) * 2 + s] == 1)?
        }
    };
    control.check("robots policy evaluation", 0)?;
    performance(&m, &pol, control)
}

/// Solves the MDP exactly (policy iteration with sparse LU evaluation) and
/// returns the optimal dynamic policy with the measures of Table 1.
pub fn solve(params: &Params) -> Result<DynamicSolution> {
    solve_with(params, &Options::default())
}

/// As [`solve`] with chosen solver options (e.g. the paper's relative value
/// iteration with τ = 0.99999 and relative-change stopping). A solver that
/// stops at its iteration limit gives `NotConverged`.
///
/// `options.control` applies to the whole solve: its memory cap is checked
/// against the model and solver memory before anything is built, and a
/// cancelled control gives `Cancelled` (no partial solution).
pub fn solve_with(params: &Params, options: &Options) -> Result<DynamicSolution> {
    let slots = params.slots()?;
    // Model plus the solver's working memory (policy iteration: ~300 bytes
    // per state; value iteration: 44).
    let per_slot = if options.method == mdp::Method::PolicyIteration {
        300
    } else {
        44
    };
    options.control.check_memory(
        super::model::model_bytes(slots)
            .and_then(|b| b.checked_add(crate::limits::bytes(slots, per_slot)?)),
        &format!(
            "the robots MDP of {slots} state slots (N = {}, K = {})",
            params.n, params.k
        ),
    )?;
    let m = RobotsMdp::new(*params)?;
    let p = m.params;
    let sol = solve_mdp(&m, options)?.into_result()?;
    // Canonical policy: activate only where it is strictly better, so that
    // ties (e.g. "activate" at r = N, a no-op) read as "do not activate".
    let h = &sol.values;
    let mut canon = sol.policy.clone();
    for (id, a) in canon.iter_mut().enumerate() {
        let acts = m.mdp.n_actions(id);
        if acts == 2 {
            let (q0, q1) = (q_value(&m, id, 0, h), q_value(&m, id, 1, h));
            *a = u32::from(q1 < q0 - 1e-10 * (1.0 + q0.abs()));
        }
    }
    let (canon, perf) = match performance(&m, &canon, &options.control) {
        Ok(perf) => (canon, perf),
        Err(_) => {
            let perf = performance(&m, &sol.policy, &options.control)?;
            (sol.policy.clone(), perf)
        }
    };
    let mut actions = vec![0u8; (p.k + 1) * (p.n + 1) * 2];
    for (id, &a) in canon.iter().enumerate() {
        let (q, r, s) = m.state(id);
        if s != 2 {
            actions[(r * (p.k + 1) + q) * 2 + s] = m.action_of(id, a);
        }
    }
    let (f0, f1, is_curve) = switching_curve(&p, &actions);
    Ok(DynamicSolution {
        params: p,
        cost_lo: sol.bound_lo.min(perf.cost),
        cost_hi: sol.bound_hi.max(perf.cost),
        performance: perf,
        actions,
        f0,
        f1,
        is_switching_curve: is_curve,
        iterations: sol.iterations,
    })
}

/// Policy iteration's default warm start (greedy after a few sweeps) can
/// be a multichain policy, which it cannot evaluate (`Infeasible`, e.g.
/// with λ/μ = 4e-15). "Always
/// activate" is unichain (r climbs to N and stays), so start there instead;
/// if a greedy step still lands on a multichain policy (λ/μ = 3e-16,
/// N = 3, K = 30), relative value iteration, which evaluates no policy.
fn solve_mdp(m: &RobotsMdp, options: &Options) -> Result<mdp::Solution> {
    let pi = options.method == mdp::Method::PolicyIteration;
    match mdp::solve(&m.mdp, options) {
        Err(Error::Infeasible(_)) if pi && options.initial_policy.is_none() => {
            let start = m.policy_from(|_, _, _| true)?;
            match mdp::solve(
                &m.mdp,
                &Options {
                    initial_policy: Some(start),
                    ..options.clone()
                },
            ) {
                Err(Error::Infeasible(_)) => mdp::solve(
                    &m.mdp,
                    &Options {
                        method: mdp::Method::RelativeValueIteration,
                        ..options.clone()
                    },
                ),
                r => r,
            }
        }
        r => r,
    }
}

fn q_value(m: &RobotsMdp, id: usize, a: usize, h: &[f64]) -> f64 {
    let (nx, pr) = m.mdp.transitions(id, a).unwrap_or((&[], &[]));
    m.mdp.cost(id, a).unwrap_or(f64::INFINITY)
        + nx.iter()
            .zip(pr)
            .map(|(&j, &p)| p * h[j as usize])
            .sum::<f64>()
}

/// f_s(r) = the largest q with a = 1 (−1 if none) and whether the actions
/// are exactly 1(q ≤ f_s(r)) over the states of X.
fn switching_curve(p: &Params, actions: &[u8]) -> (Vec<i64>, Vec<i64>, bool) {
    let mut f = [vec![-1i64; p.n + 1], vec![-1i64; p.n + 1]];
    let mut ok = true;
    for (s, fs) in f.iter_mut().enumerate() {
        for r in 0..=p.n {
            let qs: Vec<usize> = (0..=p.k).filter(|&q| p.in_state_space(q, r, s)).collect();
            let a = |q: usize| actions[(r * (p.k + 1) + q) * 2 + s];
            fs[r] = qs
                .iter()
                .rev()
                .find(|&&q| a(q) == 1)
                .map_or(-1, |&q| q as i64);
            ok &= qs.iter().all(|&q| (a(q) == 1) == (q as i64 <= fs[r]));
        }
    }
    let [f0, f1] = f;
    (f0, f1, ok)
}

/// Table 2: the optimal dynamic policy when the number of robots is not
/// limited. N is doubled from 2·N_s until the optimal policy never brings
/// N robots into use (its recurrent states have r < N − 1), so that more
/// robots could not help, and the switching curve stops activating below
/// N − 1; the solution is that of the last N.
pub fn solve_unlimited(lambda: f64, mu: f64, gamma: f64, k: usize) -> Result<DynamicSolution> {
    solve_unlimited_with(lambda, mu, gamma, k, &Options::default())
}

/// [`solve_unlimited`] with solver options: each N is solved by
/// [`solve_with`], so `options.control` checks every model's memory
/// before it is built (`TooLarge` as N doubles past the cap), caps each
/// solve's iterations and cancels within one policy evaluation; the
/// cancel flag is also read between two values of N.
pub fn solve_unlimited_with(
    lambda: f64,
    mu: f64,
    gamma: f64,
    k: usize,
    options: &Options,
) -> Result<DynamicSolution> {
    let (n_s, _) = optimal_static(lambda, mu, gamma, k)?;
    let mut n = (2 * n_s).max(4);
    loop {
        options
            .control
            .check(&format!("the unlimited robots search (N = {n})"), 0)?;
        let sol = solve_with(&Params::new(n, k, lambda, mu, gamma)?, options)?;
        let curve_top = sol.performance.n_max.unwrap_or(0);
        if sol.performance.n_peak + 1 < n && curve_top + 1 < n {
            return Ok(sol);
        }
        n = n
            .checked_mul(2)
            .ok_or_else(|| Error::TooLarge("number of robots overflows".into()))?;
    }
}
