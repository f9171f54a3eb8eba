//! Solvers: relative value iteration (Talim et al., Proposition 2), value
//! iteration with span-seminorm stopping, Gauss–Seidel, and policy
//! iteration with exact (sparse LU) evaluation. Every solver ends with one
//! Jacobi sweep on its final values h, whose min and max of T h − h bound
//! the optimal gain (Odoni's bounds; Puterman §8.5.4), so each answer
//! carries its own certificate whatever the method.

use super::chain::{
    PolicyEvaluation, Reduction, evaluate_average_in, evaluate_discounted_in, recurrent_classes,
};
use super::model::Mdp;
use crate::error::{Error, Num, Result};
use crate::limits::Control;
use crate::numeric::iterate::{Outcome, Step, iterate};

/// What is minimised.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Criterion {
    /// Long-run average cost per step (the paper's eq. 5).
    Average,
    /// Expected total discounted cost with factor β ∈ [0, 1).
    Discounted(f64),
}

/// Which algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// h ← (1 − τ) h + τ (T h − T h(x̂)) (Proposition 2 of the paper).
    RelativeValueIteration,
    /// h ← (1 − τ) h + τ T h without normalisation; stops on the span.
    ValueIteration,
    /// In-place sweeps in state order, with a running gain estimate.
    GaussSeidel,
    /// Howard's policy iteration, each policy evaluated exactly.
    PolicyIteration,
}

/// Stopping rule of the value-iteration methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopping {
    /// Stop when the certificate is tight: max(T h − h) − min(T h − h) ≤
    /// tolerance (average; for policy iteration g_π − min(T h − h)), or the
    /// value error bound ≤ tolerance (discounted).
    Span,
    /// The paper's rule: max over x with h(x) ≠ 0 of
    /// |(h_{k+1}(x) − h_k(x)) / h_k(x)| < tolerance. It can stop early:
    /// the certificate says how far the gain may be off.
    RelativeChange,
}

/// Solver settings. `Options::default()` is policy iteration, average cost,
/// tolerance 1e-9, at most 100 000 iterations.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Algorithm.
    pub method: Method,
    /// Average or discounted cost.
    pub criterion: Criterion,
    /// See [`Stopping`]. Policy iteration (average cost) stops when its
    /// certificate is within the tolerance (`Span`) or, with either rule,
    /// when no action changes.
    pub tolerance: f64,
    /// Sweeps (value iteration, Gauss–Seidel) or improvements (policy iteration).
    pub max_iterations: usize,
    /// Aperiodicity transform τ ∈ (0, 1]: P ← τ P + (1 − τ) I (same gain
    /// and optimal policies, bias scaled by 1/τ; the returned bias is that
    /// of the original chain). `None` chooses τ = 1 when every transition
    /// row has a self-loop (every policy aperiodic) and τ = 0.9 otherwise,
    /// so that value iteration cannot oscillate on a periodic chain.
    /// Ignored by policy iteration and the discounted criterion.
    pub aperiodicity: Option<f64>,
    /// Stopping rule of the value-iteration methods.
    pub stopping: Stopping,
    /// The state x̂ whose relative value is kept at 0.
    pub reference_state: usize,
    /// Starting policy of policy iteration (default: greedy after a short
    /// relative value iteration).
    pub initial_policy: Option<Vec<u32>>,
    /// Memory cap, extra iteration cap and cancel flag. Checked once per
    /// iteration (sweep or policy evaluation); a cancelled solve returns
    /// the best answer so far with `cancelled` set (see [`Solution`]).
    pub control: Control,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            method: Method::PolicyIteration,
            criterion: Criterion::Average,
            tolerance: 1e-9,
            max_iterations: 100_000,
            aperiodicity: None,
            stopping: Stopping::Span,
            reference_state: 0,
            initial_policy: None,
            control: Control::default(),
        }
    }
}

/// A solver's answer, converged or the best so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// Average criterion: the gain estimate (lo + hi) / 2. Discounted: 0.
    pub gain: f64,
    /// Certificate. Average: the optimal gain lies in [bound_lo, bound_hi].
    /// Discounted: v*(s) − values(s) lies in [bound_lo, bound_hi] for all s.
    pub bound_lo: f64,
    /// See `bound_lo`.
    pub bound_hi: f64,
    /// Average: the bias (relative values, 0 at the reference state).
    /// Discounted: the value function.
    pub values: Vec<f64>,
    /// Local action index per state, greedy with respect to `values`.
    pub policy: Vec<u32>,
    /// Iterations performed.
    pub iterations: usize,
    /// Whether the stopping rule was met within the iteration limit
    /// (false when stopped by the iteration limit or cancelled).
    pub converged: bool,
    /// Whether the solve stopped because its control was cancelled (then
    /// `converged` is false and the answer is the best so far).
    pub cancelled: bool,
    /// Recurrent classes of the chain of `policy` (1 = unichain).
    pub recurrent_classes: usize,
    /// The aperiodicity τ actually used (1 when none).
    pub aperiodicity: f64,
}

impl Solution {
    /// The solution if converged, else `NotConverged` (the best answer is
    /// then lost: inspect `converged` instead to keep it).
    pub fn into_result(self) -> Result<Solution> {
        if self.converged {
            Ok(self)
        } else if self.cancelled {
            Err(Error::Cancelled(format!(
                "stopped after {} iterations; gain in [{}, {}]",
                self.iterations,
                Num(self.bound_lo),
                Num(self.bound_hi)
            )))
        } else {
            Err(Error::NotConverged(format!(
                "stopped after {} iterations; gain in [{}, {}]",
                self.iterations,
                Num(self.bound_lo),
                Num(self.bound_hi)
            )))
        }
    }
}

impl Options {
    /// Sets the tolerance (finite, > 0), the iteration limit (≥ 1) and the
    /// stopping rule, checked as [`solve`] checks them; unchanged on error.
    pub fn set_limits(
        &mut self,
        tolerance: f64,
        max_iterations: usize,
        stopping: Stopping,
    ) -> Result<()> {
        check_limits(tolerance, max_iterations)?;
        self.tolerance = tolerance;
        self.max_iterations = max_iterations;
        self.stopping = stopping;
        Ok(())
    }

    /// Sets the criterion (a discount in [0, 1)) and the aperiodicity τ
    /// (in (0, 1], `None` automatic), checked as [`solve`] checks them;
    /// unchanged on error.
    pub fn set_criterion(&mut self, criterion: Criterion, aperiodicity: Option<f64>) -> Result<()> {
        check_criterion(criterion, aperiodicity)?;
        self.criterion = criterion;
        self.aperiodicity = aperiodicity;
        Ok(())
    }
}

/// The tolerance (`tolerance` in C): finite and > 0; and the iteration
/// limit, ≥ 1.
fn check_limits(tolerance: f64, max_iterations: usize) -> Result<()> {
    crate::validate::positive("tolerance", tolerance)?;
    if max_iterations == 0 {
        return Err(Error::invalid("max_iterations must be >= 1"));
    }
    Ok(())
}

/// A discounted criterion's factor and the aperiodicity τ, if given.
fn check_criterion(criterion: Criterion, aperiodicity: Option<f64>) -> Result<()> {
    if let Criterion::Discounted(b) = criterion {
        check_discount(b)?;
    }
    if let Some(t) = aperiodicity {
        check_tau(t)?;
    }
    Ok(())
}

/// The aperiodicity τ (`tau` in C): in (0, 1].
fn check_tau(t: f64) -> Result<f64> {
    if t.is_finite() && t > 0.0 && t <= 1.0 {
        Ok(t)
    } else {
        Err(Error::invalid(format!(
            "tau must be in (0, 1], got {}",
            Num(t)
        )))
    }
}

/// The discount factor β (`discount` in C): in [0, 1).
pub(super) fn check_discount(b: f64) -> Result<f64> {
    if b.is_finite() && (0.0..1.0).contains(&b) {
        Ok(b)
    } else {
        Err(Error::invalid(format!(
            "discount must be in [0, 1), got {}",
            Num(b)
        )))
    }
}

fn check_options(mdp: &Mdp, o: &Options) -> Result<()> {
    check_limits(o.tolerance, o.max_iterations)?;
    check_criterion(o.criterion, o.aperiodicity)?;
    if o.reference_state >= mdp.n_states {
        return Err(Error::invalid(format!(
            "reference state {} out of range (n = {})",
            o.reference_state, mdp.n_states
        )));
    }
    if let Some(p) = &o.initial_policy {
        mdp.check_policy(p)?;
    }
    Ok(())
}

/// τ from the options, or automatic (see [`Options::aperiodicity`]).
fn choose_tau(mdp: &Mdp, o: &Options) -> f64 {
    if let Some(t) = o.aperiodicity {
        return t;
    }
    let all_self_loops = (0..mdp.n_states).all(|s| {
        mdp.actions(s).all(|k| {
            let (nx, p) = mdp.row(k);
            nx.iter()
                .zip(p)
                .any(|(&j, &pj)| j as usize == s && pj > 0.0)
        })
    });
    if all_self_loops { 1.0 } else { 0.9 }
}

/// One Jacobi sweep: th = T h (with discount `factor`), greedy policy, and
/// min / max of T h − h.
fn sweep(mdp: &Mdp, h: &[f64], factor: f64, th: &mut [f64], policy: &mut [u32]) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for s in 0..mdp.n_states {
        let r = mdp.actions(s);
        let first = r.start;
        let (mut best, mut arg) = (f64::INFINITY, 0usize);
        for k in r {
            let q = mdp.q_value(k, h, factor);
            if q < best {
                best = q;
                arg = k - first;
            }
        }
        th[s] = best;
        policy[s] = arg as u32;
        let d = best - h[s];
        lo = lo.min(d);
        hi = hi.max(d);
    }
    (lo, hi)
}

/// Solves the MDP. Returns `Ok` with `converged == false` when the
/// iteration limit is reached (the best answer so far, with its
/// certificate); errors only for invalid options or a failed evaluation.
pub fn solve(mdp: &Mdp, options: &Options) -> Result<Solution> {
    check_options(mdp, options)?;
    options.control.check_memory(
        working_bytes(mdp, options.method),
        &format!("solving an MDP of {} states", mdp.n_states),
    )?;
    match (options.method, options.criterion) {
        (Method::PolicyIteration, Criterion::Average) => policy_iteration_average(mdp, options),
        (Method::PolicyIteration, Criterion::Discounted(b)) => {
            policy_iteration_discounted(mdp, options, b)
        }
        (Method::GaussSeidel, Criterion::Average) => gauss_seidel_average(mdp, options),
        (Method::GaussSeidel, Criterion::Discounted(b)) => gauss_seidel_discounted(mdp, options, b),
        (_, Criterion::Average) => value_iteration_average(mdp, options, None, None, 0),
        (_, Criterion::Discounted(b)) => value_iteration_discounted(mdp, options, b),
    }
}

/// Bytes a solve holds besides the model: value vectors, policies and the
/// recurrent-class search (about 44 bytes per state, 52 for Gauss–Seidel);
/// policy iteration adds one policy's chain, its evaluation matrix and the
/// matrix's symbolic analysis, counted as four copies of the matrix (16
/// bytes per entry), and six vectors of the evaluation's iterative
/// refinement (48 bytes per state). The LU factors' fill-in depends on the
/// policy: it is bounded and checked against the cap before each
/// factorisation (policy iteration then continues without it, see
/// `policy_iteration_average`).
pub fn working_bytes(mdp: &Mdp, method: Method) -> Option<u128> {
    let n = mdp.n_states as u128;
    // Gauss–Seidel keeps one more vector: its best values so far.
    let vectors = n.checked_mul(if method == Method::GaussSeidel {
        52
    } else {
        44
    })?;
    if method != Method::PolicyIteration {
        return Some(vectors);
    }
    // One action per state: about transitions / actions entries per row.
    let per_row = (mdp.n_transitions() as u128).div_ceil((mdp.n_actions_total() as u128).max(1));
    let entries = n.checked_mul(per_row + 1)?;
    vectors
        .checked_add(n.checked_mul(48)?)?
        .checked_add(entries.checked_mul(16 * 4)?)
}

/// Marks a best-so-far answer of a cancelled solve.
fn mark(mut sol: Solution, cancelled: bool) -> Solution {
    if cancelled {
        sol.cancelled = true;
        sol.converged = false;
    }
    sol
}

fn finish_average(
    mdp: &Mdp,
    mut h: Vec<f64>,
    reference: usize,
    iterations: usize,
    converged: bool,
    tau: f64,
) -> Result<Solution> {
    let floor = mdp.min_cost();
    let n = mdp.n_states;
    let r = h[reference];
    h.iter_mut().for_each(|v| *v -= r);
    let mut th = vec![0.0; n];
    let mut policy = vec![0u32; n];
    let (lo, hi) = sweep(mdp, &h, 1.0, &mut th, &mut policy);
    let (classes, _) = recurrent_classes(mdp, &policy)?;
    if !(lo.is_finite() && hi.is_finite()) {
        return Err(Error::Numerical(
            "value iteration diverged (non-finite values)".into(),
        ));
    }
    let lo = floored(floor, lo, hi);
    Ok(Solution {
        gain: 0.5 * (lo + hi),
        bound_lo: lo,
        bound_hi: hi,
        values: h,
        policy,
        iterations,
        converged,
        cancelled: false,
        recurrent_classes: classes,
        aperiodicity: tau,
    })
}

/// Relative value iteration and plain value iteration (average cost).
/// `limit` overrides the iteration limit (warm start of policy iteration);
/// `start` replaces h = 0 and `done` iterations count as already spent
/// (hand-over from Gauss–Seidel).
fn value_iteration_average(
    mdp: &Mdp,
    o: &Options,
    limit: Option<usize>,
    start: Option<Vec<f64>>,
    done: usize,
) -> Result<Solution> {
    let n = mdp.n_states;
    let tau = choose_tau(mdp, o);
    let relative = o.method != Method::ValueIteration;
    let x_hat = o.reference_state;
    let mut h = start.unwrap_or_else(|| vec![0.0; n]);
    let mut th = vec![0.0; n];
    let mut policy = vec![0u32; n];
    let limit = limit.unwrap_or(o.max_iterations);
    let run = iterate(&o.control, limit, done, |it| {
        let (lo, hi) = sweep(mdp, &h, 1.0, &mut th, &mut policy);
        if !(lo.is_finite() && hi.is_finite()) {
            return Err(Error::Numerical(
                "value iteration diverged (non-finite values)".into(),
            ));
        }
        if o.stopping == Stopping::Span && hi - lo <= o.tolerance {
            return Ok(Step::Converged);
        }
        let shift = if relative { th[x_hat] } else { 0.0 };
        let rel_change = relax(&mut h, &th, tau, shift);
        if o.stopping == Stopping::RelativeChange && it > 1 && rel_change < o.tolerance {
            return Ok(Step::Converged);
        }
        Ok(Step::Continue)
    })?;
    finish_average(mdp, h, x_hat, run.iterations, run.converged(), tau)
        .map(|s| mark(s, run.cancelled()))
}

/// h ← (1 − τ) h + τ (T h − shift); returns the largest relative change
/// |Δh(x) / h(x)| over the x with h(x) ≠ 0.
fn relax(h: &mut [f64], th: &[f64], tau: f64, shift: f64) -> f64 {
    let mut rel_change: f64 = 0.0;
    for (hs, &ts) in h.iter_mut().zip(th) {
        let new = (1.0 - tau) * *hs + tau * (ts - shift);
        if *hs != 0.0 {
            rel_change = rel_change.max(((new - *hs) / *hs).abs());
        }
        *hs = new;
    }
    rel_change
}

/// Gauss–Seidel with a running gain estimate g: in state order,
/// h(s) ← (1 − τ) h(s) + τ (min_a c − g + Σ p h) using the values already
/// updated in this sweep; then g absorbs the drift of h(x̂) and h is
/// re-normalised. At a fixed point h is the bias and g the gain; the final
/// Jacobi certificate checks it.
///
/// Unlike the Jacobi sweep of relative value iteration, whose certificate
/// span max(T h − h) − min(T h − h) never grows, these in-place sweeps
/// coupled with the gain update carry no convergence guarantee: on the
/// 3-cycle 0 → 1 → 2 → 0 with costs (0, 0, 1) and τ = 0.9 one sweep has
/// spectral radius 1.2. So the certificate is checked every
/// `GS_CHECK` sweeps, and when its span has not improved over `GS_STALL`
/// checks (or the values stop being finite) the solve continues with
/// relative value iteration, same τ, from the best values seen: the
/// method then converges wherever relative value iteration does.
fn gauss_seidel_average(mdp: &Mdp, o: &Options) -> Result<Solution> {
    let tau = choose_tau(mdp, o);
    let mut gs = GaussSeidelAverage::new(mdp.n_states);
    let run = iterate(&o.control, o.max_iterations, 0, |it| {
        Ok::<_, Error>(gs.step(mdp, o, tau, it))
    })?;
    let GaussSeidelAverage { mut h, best, .. } = gs;
    // Stopped: the sweeps diverged or stalled.
    if run.outcome == Outcome::Stopped {
        if run.iterations < run.limit {
            let rvi = Options {
                method: Method::RelativeValueIteration,
                ..o.clone()
            };
            return value_iteration_average(mdp, &rvi, None, Some(best), run.iterations);
        }
        h = best;
    }
    finish_average(
        mdp,
        h,
        o.reference_state,
        run.iterations,
        run.converged(),
        tau,
    )
    .map(|s| mark(s, run.cancelled()))
}

/// The state of [`gauss_seidel_average`].
struct GaussSeidelAverage {
    /// Relative values, 0 at the reference state after each sweep.
    h: Vec<f64>,
    /// T h and the greedy policy of the last certificate check.
    th: Vec<f64>,
    policy: Vec<u32>,
    /// Running gain estimate.
    g: f64,
    /// The values with the narrowest certificate so far (h = 0 to start)
    /// and that certificate's span.
    best: Vec<f64>,
    best_span: f64,
    /// Certificate checks since the span last narrowed.
    stalled: usize,
}

impl GaussSeidelAverage {
    fn new(n: usize) -> Self {
        GaussSeidelAverage {
            h: vec![0.0; n],
            th: vec![0.0; n],
            policy: vec![0u32; n],
            g: 0.0,
            best: vec![0.0; n],
            best_span: f64::INFINITY,
            stalled: 0,
        }
    }

    /// One in-place sweep, the gain update, and every `GS_CHECK` sweeps
    /// (or once the changes are small) the certificate check. `Stop` hands
    /// over to relative value iteration from `best`.
    fn step(&mut self, mdp: &Mdp, o: &Options, tau: f64, it: usize) -> Step {
        let (lo, hi) = self.sweep(mdp, tau);
        if !(lo.is_finite() && hi.is_finite()) {
            return Step::Stop;
        }
        let drift = self.h[o.reference_state];
        self.g += drift / tau;
        self.h.iter_mut().for_each(|v| *v -= drift);
        if hi - lo <= o.tolerance || it.is_multiple_of(GS_CHECK) {
            self.check(mdp, o, hi - lo)
        } else {
            Step::Continue
        }
    }

    /// h(s) ← (1 − τ) h(s) + τ (min_a c − g + Σ p h) in state order;
    /// returns min and max of the changes.
    fn sweep(&mut self, mdp: &Mdp, tau: f64) -> (f64, f64) {
        let h = &mut self.h;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for s in 0..mdp.n_states {
            let mut best_q = f64::INFINITY;
            for k in mdp.actions(s) {
                best_q = best_q.min(mdp.q_value(k, h, 1.0));
            }
            let new = (1.0 - tau) * h[s] + tau * (best_q - self.g);
            let d = new - h[s];
            lo = lo.min(d);
            hi = hi.max(d);
            h[s] = new;
        }
        (lo, hi)
    }

    /// The certificate of h (one Jacobi sweep) against the stopping rule
    /// (`change`: the span of the last sweep's changes), and the stall count.
    fn check(&mut self, mdp: &Mdp, o: &Options, change: f64) -> Step {
        let (clo, chi) = sweep(mdp, &self.h, 1.0, &mut self.th, &mut self.policy);
        if o.stopping == Stopping::Span && chi - clo <= o.tolerance {
            return Step::Converged;
        }
        if o.stopping == Stopping::RelativeChange && change <= o.tolerance * (1.0 + self.g.abs()) {
            return Step::Converged;
        }
        let span = chi - clo;
        if span < self.best_span {
            self.best_span = span;
            self.best.copy_from_slice(&self.h);
            self.stalled = 0;
        } else {
            self.stalled += 1;
            if self.stalled >= GS_STALL || !span.is_finite() {
                return Step::Stop;
            }
        }
        Step::Continue
    }
}

/// Gauss–Seidel checks its certificate every `GS_CHECK` sweeps ...
const GS_CHECK: usize = 16;
/// ... and hands over to relative value iteration after `GS_STALL` checks
/// without a narrower certificate.
const GS_STALL: usize = 8;

/// Symmetric Gauss–Seidel sweeps of the optimality operator between two
/// exact evaluations of policy iteration (see `policy_iteration_average`).
const LOOKAHEAD_SWEEPS: usize = 50;

/// The greedy policy for `h` (discount `factor`, 1 for the average
/// criterion), keeping `policy`'s action unless another is better by more
/// than round-off (so that policy iteration cannot cycle). Returns whether
/// an action changed and min_s (T h − h)(s).
fn improve(mdp: &Mdp, h: &[f64], factor: f64, policy: &mut [u32]) -> (bool, f64) {
    let mut changed = false;
    let mut lo = f64::INFINITY;
    for s in 0..mdp.n_states {
        let cur = mdp.q_value(mdp.chosen(policy, s), h, factor);
        let eps = 1e-11 * (1.0 + cur.abs());
        let (mut best, mut arg) = (cur - eps, policy[s]);
        let mut min_q = cur;
        let first = mdp.state_start[s];
        for k in mdp.actions(s) {
            let q = mdp.q_value(k, h, factor);
            min_q = min_q.min(q);
            if q < best {
                best = q;
                arg = (k - first) as u32;
            }
        }
        lo = lo.min(min_q - h[s]);
        if arg != policy[s] {
            policy[s] = arg;
            changed = true;
        }
    }
    (changed, lo)
}

fn policy_hash(policy: &[u32]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    policy.hash(&mut h);
    h.finish()
}

/// The lower end of a final average-cost certificate [lo, hi] raised to
/// the smallest action cost, which no gain can be below (see
/// `Mdp::min_cost`); unchanged if that would pass hi (round-off). Only
/// the reported bound: the stopping rules keep the sweep's own bound, so
/// that this floor cannot end a solve whose values have lost precision.
fn floored(floor: f64, lo: f64, hi: f64) -> f64 {
    if floor <= hi { lo.max(floor) } else { lo }
}

/// Howard's policy iteration with exact evaluation (average cost).
///
/// Each policy is evaluated exactly (gain g, bias h), so g bounds g* from
/// above and min(T h − h) from below; the loop stops when that interval is
/// within the tolerance (`Stopping::Span`) or when no action changes.
/// On large slowly mixing models the plain greedy step improves the policy
/// only near where h already tells the truth, so PI needs many steps of
/// ever smaller gain changes (15 on the robots model with 360 000 states).
/// The next policy is therefore chosen greedily after a few Gauss–Seidel
/// sweeps h ← T h − g from the exact h (a lookahead, as in modified policy
/// iteration), which carries the improvement across the state space (6
/// steps there). The lookahead has no improvement guarantee: if its policy
/// is worse (or not unichain), PI returns to the last exact evaluation and
/// continues with plain greedy steps; if it is only as good (near the
/// optimum), its evaluation is kept (any evaluated policy gives a valid
/// certificate) and PI continues from it with plain greedy steps.
fn policy_iteration_average(mdp: &Mdp, o: &Options) -> Result<Solution> {
    let policy = match &o.initial_policy {
        Some(p) => p.clone(),
        None => {
            // Warm start: a greedy policy after a few relative sweeps is
            // usually unichain and close to optimal.
            let warm = Options {
                method: Method::RelativeValueIteration,
                ..o.clone()
            };
            let sol = value_iteration_average(mdp, &warm, Some(50.min(o.max_iterations)), None, 0)?;
            if sol.cancelled {
                return Ok(Solution {
                    iterations: 0,
                    ..sol
                });
            }
            sol.policy
        }
    };
    let mut howard = Howard::new(mdp, o, policy);
    let exit = howard.run()?;
    let it = howard.iterations;
    if exit == Exit::NoRoom {
        // The LU of a policy's equations would not fit the memory cap:
        // relative value iteration (no factorisation) from the last exact
        // bias, with the iterations left.
        let rvi = Options {
            method: Method::RelativeValueIteration,
            ..o.clone()
        };
        let start = howard.accepted.map(|(e, _)| e.bias);
        return value_iteration_average(mdp, &rvi, None, start, it);
    }
    let cancelled = exit == Exit::Cancelled;
    let Some((eval, evaluated)) = howard.accepted else {
        // Cancelled during the first evaluation: the certificate of h = 0.
        return finish_average(
            mdp,
            vec![0.0; mdp.n_states],
            o.reference_state,
            it,
            false,
            1.0,
        )
        .map(|s| mark(s, true));
    };
    let sol = certify_evaluation(mdp, o, eval, evaluated, it, exit == Exit::Converged)?;
    Ok(mark(sol, cancelled))
}

/// How [`Howard::run`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Exit {
    /// No action changed, or the certificate is within the tolerance.
    Converged,
    /// A policy came back, or the iteration limit was reached.
    Stopped,
    Cancelled,
    /// A policy's LU would not fit the memory cap.
    NoRoom,
}

/// The state of policy iteration (average cost).
struct Howard<'a> {
    mdp: &'a Mdp,
    o: &'a Options,
    /// The policy to evaluate next.
    policy: Vec<u32>,
    /// Policies evaluated.
    iterations: usize,
    /// Whether the next policy comes from the lookahead.
    lookahead: bool,
    /// The last exact evaluation and its policy.
    accepted: Option<(PolicyEvaluation, Vec<u32>)>,
    /// The lookahead's values.
    h: Vec<f64>,
    /// Hashes of the policies evaluated since the gain last fell. Plain
    /// policy iteration never returns to a policy in exact arithmetic; when
    /// round-off makes it do so (costs and rates spread over more orders of
    /// magnitude than a double resolves) it would cycle to the iteration
    /// limit, so it stops there, not converged.
    seen: std::collections::HashSet<u64>,
    /// The lowest gain evaluated.
    best_gain: f64,
}

impl<'a> Howard<'a> {
    fn new(mdp: &'a Mdp, o: &'a Options, policy: Vec<u32>) -> Self {
        Howard {
            mdp,
            o,
            policy,
            iterations: 0,
            lookahead: true,
            accepted: None,
            h: vec![0.0; mdp.n_states],
            seen: std::collections::HashSet::new(),
            best_gain: f64::INFINITY,
        }
    }

    /// Evaluates and improves until the stopping rule, a cycle, the
    /// iteration limit or a cancel; `accepted` then holds the last exact
    /// evaluation (none if the first one was cancelled).
    fn run(&mut self) -> Result<Exit> {
        let (mdp, o) = (self.mdp, self.o);
        let max_it = o.control.iteration_limit(o.max_iterations);
        loop {
            let result = evaluate_average_in(mdp, &self.policy, Reduction::Auto, &o.control, true);
            match &result {
                Err(Error::TooLarge(_)) => return Ok(Exit::NoRoom),
                Err(Error::Cancelled(_)) => return Ok(Exit::Cancelled),
                _ => {}
            }
            self.iterations += 1;
            let (eval, evaluated) = self.choose(result)?;
            self.policy.copy_from_slice(&evaluated);
            let cycled = self.revisited(&eval, &evaluated);
            let (changed, lo) = improve(mdp, &eval.bias, 1.0, &mut self.policy);
            // g* lies in [lo, g].
            let done = !changed || (o.stopping == Stopping::Span && eval.gain - lo <= o.tolerance);
            let exit = if done || cycled || self.iterations >= max_it {
                Some(if done { Exit::Converged } else { Exit::Stopped })
            } else if o.control.is_cancelled() {
                Some(Exit::Cancelled)
            } else {
                None
            };
            if exit.is_none() && self.lookahead {
                self.lookahead_policy(&eval, &evaluated);
            }
            self.accepted = Some((eval, evaluated));
            if let Some(exit) = exit {
                return Ok(exit);
            }
        }
    }

    /// The evaluation to improve on, and its policy: the new one, or the
    /// last accepted one when the lookahead's policy is worse or could not
    /// be evaluated (then plain greedy steps from there on).
    fn choose(&mut self, result: Result<PolicyEvaluation>) -> Result<(PolicyEvaluation, Vec<u32>)> {
        let prev_gain_floor = self.accepted.as_ref().map_or(f64::NEG_INFINITY, |(p, _)| {
            p.gain - 1e-13 * (1.0 + p.gain.abs())
        });
        Ok(match (result, self.accepted.take()) {
            (Ok(e), Some((prev, prev_policy)))
                if self.lookahead && e.gain > prev.gain + 1e-13 * (1.0 + prev.gain.abs()) =>
            {
                // The lookahead made things worse: a plain greedy step from
                // the previous evaluation instead.
                let _ = e;
                self.lookahead = false;
                (prev, prev_policy)
            }
            (Ok(e), Some(_)) if self.lookahead && e.gain >= prev_gain_floor => {
                // As good as before (near the optimum): its exact
                // evaluation is as valid a certificate as the previous
                // one, so keep it, and continue with plain (monotone)
                // greedy steps so that PI cannot cycle.
                self.lookahead = false;
                (e, self.policy.clone())
            }
            (Err(_), Some((prev, prev_policy))) if self.lookahead => {
                self.lookahead = false;
                (prev, prev_policy)
            }
            (Ok(e), _) => (e, self.policy.clone()),
            (Err(e), _) => return Err(e),
        })
    }

    /// Whether plain greedy steps came back to `evaluated` since the gain
    /// last fell (round-off cycling).
    fn revisited(&mut self, eval: &PolicyEvaluation, evaluated: &[u32]) -> bool {
        let best = self.best_gain;
        if eval.gain < best - 1e-13 * (1.0 + best.abs()) || !best.is_finite() {
            self.seen.clear();
        }
        self.best_gain = best.min(eval.gain);
        !self.lookahead && !self.seen.insert(policy_hash(evaluated))
    }

    /// The next policy: greedy after `LOOKAHEAD_SWEEPS` symmetric
    /// Gauss–Seidel sweeps h ← T h − g from the exact bias.
    fn lookahead_policy(&mut self, eval: &PolicyEvaluation, evaluated: &[u32]) {
        let (mdp, n, h) = (self.mdp, self.mdp.n_states, &mut self.h);
        h.copy_from_slice(&eval.bias);
        for k in 0..LOOKAHEAD_SWEEPS {
            for i in 0..n {
                let s = if k % 2 == 0 { i } else { n - 1 - i };
                let best = mdp
                    .actions(s)
                    .map(|a| mdp.q_value(a, h, 1.0))
                    .fold(f64::INFINITY, f64::min);
                h[s] = best - eval.gain;
            }
        }
        self.policy.copy_from_slice(evaluated);
        improve(mdp, h, 1.0, &mut self.policy);
    }
}

/// The answer of policy iteration from its last exact evaluation: the
/// evaluated policy is feasible, so its gain bounds g* from above; a
/// Jacobi sweep on its bias bounds it from below.
fn certify_evaluation(
    mdp: &Mdp,
    o: &Options,
    eval: PolicyEvaluation,
    evaluated: Vec<u32>,
    iterations: usize,
    converged: bool,
) -> Result<Solution> {
    let n = mdp.n_states;
    let mut th = vec![0.0; n];
    let mut greedy = vec![0u32; n];
    let (lo, _) = sweep(mdp, &eval.bias, 1.0, &mut th, &mut greedy);
    let lo = floored(mdp.min_cost(), lo, eval.gain);
    let (classes, _) = recurrent_classes(mdp, &evaluated)?;
    // The evaluation's own reference is a recurrent state of its choice;
    // the caller's promise is h = 0 at `reference_state`.
    let mut values = eval.bias;
    let r = values[o.reference_state];
    values.iter_mut().for_each(|v| *v -= r);
    Ok(Solution {
        gain: eval.gain,
        bound_lo: lo.min(eval.gain),
        bound_hi: eval.gain,
        values,
        policy: evaluated,
        iterations,
        converged,
        cancelled: false,
        recurrent_classes: classes,
        aperiodicity: 1.0,
    })
}

fn finish_discounted(
    mdp: &Mdp,
    v: Vec<f64>,
    beta: f64,
    iterations: usize,
    converged: bool,
) -> Result<Solution> {
    let n = mdp.n_states;
    let mut th = vec![0.0; n];
    let mut policy = vec![0u32; n];
    let (lo, hi) = sweep(mdp, &v, beta, &mut th, &mut policy);
    if !(lo.is_finite() && hi.is_finite()) {
        return Err(Error::Numerical(
            "discounted value iteration diverged".into(),
        ));
    }
    // MacQueen's bounds: T v + β/(1−β)·min(Tv − v) ≤ v* ≤ T v + β/(1−β)·max(Tv − v).
    let k = beta / (1.0 - beta);
    let mid = 0.5 * (lo + hi) * k;
    let values: Vec<f64> = th.iter().map(|t| t + mid).collect();
    let half = 0.5 * (hi - lo) * k;
    let (classes, _) = recurrent_classes(mdp, &policy)?;
    Ok(Solution {
        gain: 0.0,
        bound_lo: -half,
        bound_hi: half,
        values,
        policy,
        iterations,
        converged,
        cancelled: false,
        recurrent_classes: classes,
        aperiodicity: 1.0,
    })
}

fn value_iteration_discounted(mdp: &Mdp, o: &Options, beta: f64) -> Result<Solution> {
    let n = mdp.n_states;
    let (mut v, mut th, mut pol) = (vec![0.0; n], vec![0.0; n], vec![0u32; n]);
    let k = beta / (1.0 - beta);
    let run = iterate(&o.control, o.max_iterations, 0, |_| {
        let (lo, hi) = sweep(mdp, &v, beta, &mut th, &mut pol);
        std::mem::swap(&mut v, &mut th);
        Ok::<_, Error>(if !(lo.is_finite() && hi.is_finite()) {
            Step::Stop
        } else if k * (hi - lo) <= o.tolerance {
            Step::Converged
        } else {
            Step::Continue
        })
    })?;
    finish_discounted(mdp, v, beta, run.iterations, run.converged())
        .map(|s| mark(s, run.cancelled()))
}

/// In-place sweeps in state order; the certificate (one Jacobi sweep) is
/// checked once a sweep's largest change says it may hold.
fn gauss_seidel_discounted(mdp: &Mdp, o: &Options, beta: f64) -> Result<Solution> {
    let n = mdp.n_states;
    let (mut v, mut th, mut pol) = (vec![0.0; n], vec![0.0; n], vec![0u32; n]);
    let k = beta / (1.0 - beta);
    let run = iterate(&o.control, o.max_iterations, 0, |_| {
        let mut change: f64 = 0.0;
        for s in 0..n {
            let mut best = f64::INFINITY;
            for a in mdp.actions(s) {
                best = best.min(mdp.q_value(a, &v, beta));
            }
            change = change.max((best - v[s]).abs());
            v[s] = best;
        }
        if !change.is_finite() {
            return Ok::<_, Error>(Step::Stop);
        }
        if 2.0 * k * change <= o.tolerance {
            let (lo, hi) = sweep(mdp, &v, beta, &mut th, &mut pol);
            if k * (hi - lo) <= o.tolerance {
                return Ok(Step::Converged);
            }
        }
        Ok(Step::Continue)
    })?;
    finish_discounted(mdp, v, beta, run.iterations, run.converged())
        .map(|s| mark(s, run.cancelled()))
}

fn policy_iteration_discounted(mdp: &Mdp, o: &Options, beta: f64) -> Result<Solution> {
    let n = mdp.n_states;
    let mut policy = match &o.initial_policy {
        Some(p) => p.clone(),
        None => {
            let (mut th, mut p) = (vec![0.0; n], vec![0u32; n]);
            sweep(mdp, &vec![0.0; n], beta, &mut th, &mut p);
            p
        }
    };
    let max_it = o.control.iteration_limit(o.max_iterations);
    let mut it = 0;
    let mut converged = false;
    let mut cancelled = false;
    let mut v = Vec::new();
    loop {
        v = match evaluate_discounted_in(mdp, &policy, beta, Reduction::Auto, &o.control, true) {
            Ok(v) => v,
            // No room for the LU: Gauss-Seidel sweeps, a contraction for
            // beta < 1, with the iterations left.
            Err(Error::TooLarge(_)) => {
                let gs = Options {
                    max_iterations: o.max_iterations.saturating_sub(it).max(1),
                    ..o.clone()
                };
                return gauss_seidel_discounted(mdp, &gs, beta);
            }
            Err(Error::Cancelled(_)) => {
                // The last values (any values give a certificate).
                if it == 0 {
                    v = vec![0.0; n];
                }
                cancelled = true;
                break;
            }
            Err(e) => return Err(e),
        };
        it += 1;
        let (changed, _) = improve(mdp, &v, beta, &mut policy);
        if !changed {
            converged = true;
            break;
        }
        if it >= max_it {
            break;
        }
        if o.control.is_cancelled() {
            cancelled = true;
            break;
        }
    }
    let mut sol = finish_discounted(mdp, v.clone(), beta, it, converged)?;
    if converged {
        // v is exact for the optimal policy; report it rather than T v.
        sol.values = v;
        sol.policy = policy;
    }
    Ok(mark(sol, cancelled))
}
