//! C API of [`crate::mdp`]: build a sparse MDP row by row, solve it with a
//! chosen method and limits, read gain, certificate, bias/values, policy.
//!
//! A solver that reaches its iteration limit returns
//! CRAWLSCHED_NOT_CONVERGED from crawlsched_mdp_solver_run(), but keeps the
//! best answer so far: the read functions (gain, values, policy, stats)
//! then return it with CRAWLSCHED_OK, and stats report converged = 0.
//! The same holds for a run cancelled through its control
//! (crawlsched_mdp_solver_set_control()): CRAWLSCHED_CANCELLED, the best
//! answer so far kept, converged = 0.

#![allow(non_camel_case_types)]

use super::common::*;
use super::control::{control_in, crawlsched_control_t};
use super::mdp::crawlsched_mdp_t;
use crate::error::Num;
use crate::mdp::{Criterion, Method, Options, Solution, Stopping, solve};
use std::sync::Mutex;

/// Method: relative value iteration (Talim et al., Proposition 2).
pub const CRAWLSCHED_MDP_RELATIVE_VALUE_ITERATION: i32 = 0;
/// Method: value iteration with span-seminorm stopping.
pub const CRAWLSCHED_MDP_VALUE_ITERATION: i32 = 1;
/// Method: Gauss-Seidel sweeps.
pub const CRAWLSCHED_MDP_GAUSS_SEIDEL: i32 = 2;
/// Method: policy iteration with exact (sparse LU) evaluation.
pub const CRAWLSCHED_MDP_POLICY_ITERATION: i32 = 3;
/// Criterion: long-run average cost per step.
pub const CRAWLSCHED_MDP_AVERAGE: i32 = 0;
/// Criterion: expected total discounted cost.
pub const CRAWLSCHED_MDP_DISCOUNTED: i32 = 1;
/// Stopping: certificate span <= tolerance.
pub const CRAWLSCHED_MDP_STOP_SPAN: i32 = 0;
/// Stopping: the paper's relative change of h < tolerance.
pub const CRAWLSCHED_MDP_STOP_RELATIVE_CHANGE: i32 = 1;

pub(crate) struct SolverState {
    options: Options,
    last: Option<Solution>,
}

/// Solver settings and the result of its last run. Mutable: calls are
/// serialised by an internal mutex. Free with crawlsched_mdp_solver_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_mdp_solver_t {
    magic: u64,
    pub(super) inner: Mutex<SolverState>,
}
impl_handle!(
    crawlsched_mdp_solver_t,
    Mutex<SolverState>,
    "MDP solver",
    0x6372_6177_6d64_736f
);

/// A solver using `method` (CRAWLSCHED_MDP_*: RELATIVE_VALUE_ITERATION,
/// VALUE_ITERATION, GAUSS_SEIDEL, POLICY_ITERATION) with the defaults:
/// average cost, tolerance 1e-9, 100000 iterations, automatic aperiodicity,
/// span stopping, reference state 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_solver_new(
    method: i32,
    out: *mut *mut crawlsched_mdp_solver_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let method = match method {
            CRAWLSCHED_MDP_RELATIVE_VALUE_ITERATION => Method::RelativeValueIteration,
            CRAWLSCHED_MDP_VALUE_ITERATION => Method::ValueIteration,
            CRAWLSCHED_MDP_GAUSS_SEIDEL => Method::GaussSeidel,
            CRAWLSCHED_MDP_POLICY_ITERATION => Method::PolicyIteration,
            _ => return Err(FfiError::invalid(format!("unknown MDP method {method}"))),
        };
        let state = SolverState {
            options: Options {
                method,
                ..Options::default()
            },
            last: None,
        };
        publish(Ok(state), out)
    })
}

/// Releases a solver. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_solver_free(s: *mut crawlsched_mdp_solver_t) {
    guard_value((), || unsafe { free_handle(s) })
}

/// Sets the tolerance (> 0: certificate span, or the paper's relative
/// change), the iteration limit (>= 1) and the stopping rule
/// (CRAWLSCHED_MDP_STOP_SPAN or CRAWLSCHED_MDP_STOP_RELATIVE_CHANGE).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_solver_set_limits(
    s: *const crawlsched_mdp_solver_t,
    tolerance: f64,
    max_iterations: u64,
    stopping: i32,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(s, "solver")? };
        let stopping = match stopping {
            CRAWLSCHED_MDP_STOP_SPAN => Stopping::Span,
            CRAWLSCHED_MDP_STOP_RELATIVE_CHANGE => Stopping::RelativeChange,
            _ => {
                return Err(FfiError::invalid(format!(
                    "unknown stopping rule {stopping}"
                )));
            }
        };
        let max_iterations = usize::try_from(max_iterations).unwrap_or(usize::MAX);
        lock(&h.inner, "MDP solver")?
            .options
            .set_limits(tolerance, max_iterations, stopping)?;
        Ok(())
    })
}

/// Sets the criterion: CRAWLSCHED_MDP_AVERAGE (discount ignored) or
/// CRAWLSCHED_MDP_DISCOUNTED with discount in [0, 1); and the aperiodicity
/// transform tau in (0, 1], or 0 for automatic (1 when every row has a
/// self-loop, else 0.9).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_solver_set_criterion(
    s: *const crawlsched_mdp_solver_t,
    criterion: i32,
    discount: f64,
    tau: f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(s, "solver")? };
        let c = match criterion {
            CRAWLSCHED_MDP_AVERAGE => Criterion::Average,
            CRAWLSCHED_MDP_DISCOUNTED => Criterion::Discounted(discount),
            _ => return Err(FfiError::invalid(format!("unknown criterion {criterion}"))),
        };
        // 0 selects the automatic tau; anything else is checked by the model.
        let tau = if tau == 0.0 { None } else { Some(tau) };
        lock(&h.inner, "MDP solver")?
            .options
            .set_criterion(c, tau)?;
        Ok(())
    })
}

/// Attaches a control (NULL: detach) to the solver's later runs: its
/// memory cap replaces the process-wide default, its iteration cap lowers
/// the solver's (crawlsched_mdp_solver_set_limits()), and cancelling it
/// from another thread stops a running crawlsched_mdp_solver_run() within
/// one iteration (one sweep, or one policy evaluation). The solver keeps
/// its own reference: the control may be freed at any time.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_solver_set_control(
    s: *const crawlsched_mdp_solver_t,
    ctl: *const crawlsched_control_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(s, "solver")? };
        let control = unsafe { control_in(ctl)? };
        lock(&h.inner, "MDP solver")?.options.control = control;
        Ok(())
    })
}

/// Solves `mdp` and keeps the result in the solver. Returns
/// CRAWLSCHED_NOT_CONVERGED if the iteration limit was reached, and
/// CRAWLSCHED_CANCELLED if its control was cancelled (see
/// crawlsched_mdp_solver_set_control()); in both cases the best answer so
/// far is readable with the crawlsched_mdp_solver_* read functions, and
/// crawlsched_mdp_solver_stats() reports converged = 0. A run whose
/// memory estimate exceeds the cap gives CRAWLSCHED_TOO_LARGE before
/// allocating. Policy iteration bounds each policy's LU factors before
/// computing them: when they would not fit the cap (or, under a control,
/// would take more than about 1e10 flops, which could not be cancelled)
/// the run continues with relative value iteration. Average-cost
/// Gauss-Seidel continues with relative value iteration (same tau) when
/// its certificate stops narrowing. If the arguments are refused (NULL or wrong handle) the
/// previous result is kept; any other failure (e.g. CRAWLSCHED_INFEASIBLE
/// when policy iteration meets a multichain policy) discards it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_solver_run(
    s: *const crawlsched_mdp_solver_t,
    mdp: *const crawlsched_mdp_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(s, "solver")? };
        let m = unsafe { handle(mdp, "mdp")? };
        let mut g = lock(&h.inner, "MDP solver")?;
        g.last = None;
        let sol = solve(&m.inner, &g.options)?;
        let (converged, it, lo, hi) = (sol.converged, sol.iterations, sol.bound_lo, sol.bound_hi);
        let cancelled = sol.cancelled;
        g.last = Some(sol);
        if cancelled {
            return Err(FfiError::new(
                CRAWLSCHED_CANCELLED,
                format!(
                    "cancelled after {it} iterations; certificate [{}, {}]; best answer kept (not converged)",
                    Num(lo),
                    Num(hi)
                ),
            ));
        }
        if !converged {
            return Err(FfiError::new(
                CRAWLSCHED_NOT_CONVERGED,
                format!(
                    "iteration limit reached after {it} iterations; certificate [{}, {}]; best answer kept",
                    Num(lo),
                    Num(hi)
                ),
            ));
        }
        Ok(())
    })
}

fn last(g: &SolverState) -> FfiResult<&Solution> {
    g.last.as_ref().ok_or_else(|| {
        FfiError::new(
            CRAWLSCHED_NOT_FOUND,
            "the solver has no result: run it first",
        )
    })
}

/// The last run's gain and certificate. Average cost: the optimal gain lies
/// in [*out_lo, *out_hi]. Discounted: *out_gain is 0 and v*(s) - values[s]
/// lies in [*out_lo, *out_hi] for every s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_solver_gain(
    s: *const crawlsched_mdp_solver_t,
    out_gain: *mut f64,
    out_lo: *mut f64,
    out_hi: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(s, "solver")? };
        let (og, ol, oh) = (
            Out::new(out_gain, "out_gain")?,
            Out::new(out_lo, "out_lo")?,
            Out::new(out_hi, "out_hi")?,
        );
        let g = lock(&h.inner, "MDP solver")?;
        let sol = last(&g)?;
        let (a, b, c) = (
            finite("gain", sol.gain)?,
            finite("lo", sol.bound_lo)?,
            finite("hi", sol.bound_hi)?,
        );
        og.write(a);
        ol.write(b);
        oh.write(c);
        Ok(())
    })
}

/// Number of states of the MDP of the last run: the length of the arrays
/// crawlsched_mdp_solver_policy() and crawlsched_mdp_solver_values() fill.
/// CRAWLSCHED_NOT_FOUND if the solver has no result.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_solver_size(
    s: *const crawlsched_mdp_solver_t,
    out_states: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(s, "solver")? };
        let out = Out::new(out_states, "out_states")?;
        let g = lock(&h.inner, "MDP solver")?;
        out.write(last(&g)?.policy.len() as u64);
        Ok(())
    })
}

/// The aperiodicity transform tau the last run used (see
/// crawlsched_mdp_solver_set_criterion(): the one set, or the automatic
/// choice); 1 for methods and criteria that use none (policy iteration's
/// exact evaluation, the discounted criterion). A Gauss-Seidel or policy
/// iteration run that handed over to relative value iteration reports the
/// tau of that phase.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_solver_tau(
    s: *const crawlsched_mdp_solver_t,
    out_tau: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(s, "solver")? };
        let out = Out::new(out_tau, "out_tau")?;
        let g = lock(&h.inner, "MDP solver")?;
        out.write(last(&g)?.aperiodicity);
        Ok(())
    })
}

/// The last run's iterations, whether it converged (1/0) and the number of
/// recurrent classes of its policy's chain (1 = unichain).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_solver_stats(
    s: *const crawlsched_mdp_solver_t,
    out_iterations: *mut u64,
    out_converged: *mut i32,
    out_recurrent_classes: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(s, "solver")? };
        let (oi, oc, orc) = (
            Out::new(out_iterations, "out_iterations")?,
            Out::new(out_converged, "out_converged")?,
            Out::new(out_recurrent_classes, "out_recurrent_classes")?,
        );
        let g = lock(&h.inner, "MDP solver")?;
        let sol = last(&g)?;
        oi.write(sol.iterations as u64);
        oc.write(i32::from(sol.converged));
        orc.write(sol.recurrent_classes as u64);
        Ok(())
    })
}

/// The last run's policy (action index per state) into out[0..n_states].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_solver_policy(
    s: *const crawlsched_mdp_solver_t,
    out: *mut u32,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(s, "solver")? };
        let g = lock(&h.inner, "MDP solver")?;
        let sol = last(&g)?;
        let dst = unsafe { out_exact(out, out_cap, sol.policy.len(), "out")? };
        dst.copy_from_slice(&sol.policy);
        Ok(())
    })
}

/// The last run's bias (average cost, 0 at the reference state) or values
/// (discounted) into out[0..n_states].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_solver_values(
    s: *const crawlsched_mdp_solver_t,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(s, "solver")? };
        let g = lock(&h.inner, "MDP solver")?;
        let sol = last(&g)?;
        let dst = unsafe { out_exact(out, out_cap, sol.values.len(), "out")? };
        write_finite(dst, &sol.values, "value")
    })
}
