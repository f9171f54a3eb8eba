//! C API of [`crate::robots`] (Talim, Liu, Nain, Coffman): the optimal
//! dynamic control of N crawler robots feeding a buffer of K pages, its
//! switching curve and measures, exact evaluation of other policies, and
//! the static policy of eq. (9).

#![allow(non_camel_case_types)]

use super::common::*;
use super::control::{control_in, crawlsched_control_t};
use crate::mdp::Options;
use crate::robots::{
    DynamicSolution, Params, Policy, evaluate, optimal_static, solve_unlimited_with, solve_with,
    static_cost,
};

/// The optimal dynamic policy of one model and its measures. Immutable:
/// shareable between threads. Free with crawlsched_robots_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_robots_t {
    magic: u64,
    pub(super) inner: DynamicSolution,
}
impl_handle!(
    crawlsched_robots_t,
    DynamicSolution,
    "robots solution",
    0x6372_6177_726f_626f
);

/// The solver options of a control ctl (NULL: none), the rest default.
///
/// # Safety
/// `ctl` is NULL or a live control handle.
unsafe fn options_in(ctl: *const crawlsched_control_t) -> FfiResult<Options> {
    Ok(Options {
        control: unsafe { control_in(ctl)? },
        ..Options::default()
    })
}

/// Solves the model exactly: n robots (>= 1), buffer k (>= 1), per-robot
/// rate lambda > 0, service rate mu > 0, starvation weight gamma >= 0,
/// under the control ctl (NULL: none). The state space has about
/// 3(k+1)(n+1) states (CRAWLSCHED_TOO_LARGE beyond 2^32, or when model and
/// solver would need more memory than the control's cap, else the
/// process-wide one, checked before anything is built). The control's
/// iteration cap limits the policy-iteration steps
/// (CRAWLSCHED_NOT_CONVERGED when reached), and cancelling it from another
/// thread makes the call return CRAWLSCHED_CANCELLED within one policy
/// evaluation. An interrupted solve returns no solution (*out is left
/// alone).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_solve(
    n: u64,
    k: u64,
    lambda: f64,
    mu: f64,
    gamma: f64,
    ctl: *const crawlsched_control_t,
    out: *mut *mut crawlsched_robots_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let options = unsafe { options_in(ctl)? };
        let p = Params::new(usize_from(n, "n")?, usize_from(k, "k")?, lambda, mu, gamma)?;
        publish(Ok(solve_with(&p, &options)?), out)
    })
}

/// As crawlsched_robots_solve() with as many robots as the optimum wants
/// (the paper's Table 2); crawlsched_robots_size() tells the N used.
/// That N grows like sqrt(gamma/mu) (K = 9: about 300 robots at
/// gamma/mu = 1e5, tens of milliseconds; 9e4 at 2.5e9, 10^6-state models
/// and about 100 s): bound such calls with a control ctl (NULL: none).
/// Every N of the doubling search is solved as by crawlsched_robots_solve(),
/// so the memory cap refuses the first N whose model would not fit
/// (CRAWLSCHED_TOO_LARGE, before it is built), the iteration cap bounds
/// each solve's policy-iteration steps (CRAWLSCHED_NOT_CONVERGED) and
/// cancelling returns CRAWLSCHED_CANCELLED within one policy evaluation.
/// An interrupted search returns no solution (*out is left alone).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_solve_unlimited(
    k: u64,
    lambda: f64,
    mu: f64,
    gamma: f64,
    ctl: *const crawlsched_control_t,
    out: *mut *mut crawlsched_robots_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let options = unsafe { options_in(ctl)? };
        publish(
            Ok(solve_unlimited_with(
                lambda,
                mu,
                gamma,
                usize_from(k, "k")?,
                &options,
            )?),
            out,
        )
    })
}

/// Releases a solution. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_free(r: *mut crawlsched_robots_t) {
    guard_value((), || unsafe { free_handle(r) })
}

/// The model's N (robots) and K (buffer).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_size(
    r: *const crawlsched_robots_t,
    out_n: *mut u64,
    out_k: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(r, "robots")? };
        let (on, ok) = (Out::new(out_n, "out_n")?, Out::new(out_k, "out_k")?);
        on.write(h.inner.params.n as u64);
        ok.write(h.inner.params.k as u64);
        Ok(())
    })
}

/// The optimal cost C_d = gamma * starvation + loss rate (eq. 5), the
/// starvation probability and the loss rate (pages per unit time).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_cost(
    r: *const crawlsched_robots_t,
    out_cost: *mut f64,
    out_starvation: *mut f64,
    out_loss_rate: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(r, "robots")? };
        let (a, b, c) = (
            Out::new(out_cost, "out_cost")?,
            Out::new(out_starvation, "out_starvation")?,
            Out::new(out_loss_rate, "out_loss_rate")?,
        );
        let p = &h.inner.performance;
        let (x, y, z) = (
            finite("cost", p.cost)?,
            finite("starvation", p.starvation)?,
            finite("loss rate", p.loss_rate)?,
        );
        a.write(x);
        b.write(y);
        c.write(z);
        Ok(())
    })
}

/// The solver's certificate: the optimal cost lies in [*out_lo, *out_hi]
/// (width at most 1e-9), and the policy-iteration steps it took.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_certificate(
    r: *const crawlsched_robots_t,
    out_lo: *mut f64,
    out_hi: *mut f64,
    out_iterations: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(r, "robots")? };
        let (a, b, c) = (
            Out::new(out_lo, "out_lo")?,
            Out::new(out_hi, "out_hi")?,
            Out::new(out_iterations, "out_iterations")?,
        );
        let (lo, hi) = (
            finite("lo", h.inner.cost_lo)?,
            finite("hi", h.inner.cost_hi)?,
        );
        a.write(lo);
        b.write(hi);
        c.write(h.inner.iterations as u64);
        Ok(())
    })
}

/// Robots used by the optimal policy: N_min (fewest active in steady
/// state), N-bar (mean) and N_max (largest r < N at which a robot is
/// activated on a departure; -1 if never), as in Tables 1 and 2.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_counts(
    r: *const crawlsched_robots_t,
    out_n_min: *mut u64,
    out_n_mean: *mut f64,
    out_n_max: *mut i64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(r, "robots")? };
        let (a, b, c) = (
            Out::new(out_n_min, "out_n_min")?,
            Out::new(out_n_mean, "out_n_mean")?,
            Out::new(out_n_max, "out_n_max")?,
        );
        let p = &h.inner.performance;
        a.write(p.n_min as u64);
        b.write(finite("mean robots", p.n_mean)?);
        c.write(p.n_max.map_or(-1, |x| x as i64));
        Ok(())
    })
}

/// The switching curve f_s(r), r = 0..N, into out[0..N+1]: at an event of
/// type s (0 departure, 1 arrival) with q pages and r active robots the
/// optimal policy activates a robot iff q <= f_s(r) (-1: never).
/// *out_is_curve is 1 if the optimal policy has exactly this form.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_switching_curve(
    r: *const crawlsched_robots_t,
    s: i32,
    out: *mut i64,
    out_cap: usize,
    out_is_curve: *mut i32,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(r, "robots")? };
        let flag = Out::new(out_is_curve, "out_is_curve")?;
        let f = match s {
            0 => &h.inner.f0,
            1 => &h.inner.f1,
            _ => {
                return Err(FfiError::invalid(format!(
                    "event type s must be 0 or 1, got {s}"
                )));
            }
        };
        let dst = unsafe { out_exact(out, out_cap, f.len(), "out")? };
        dst.copy_from_slice(f);
        flag.write(i32::from(h.inner.is_switching_curve));
        Ok(())
    })
}

/// The optimal action (1 = activate a robot, 0 = not) at each event
/// (q, r, s), s in {0 departure, 1 arrival}, at index (r*(K+1) + q)*2 + s,
/// into out[0..2(K+1)(N+1)] (excluded states get 0). Unlike the switching
/// curve, this is the policy itself even when it is not of curve form.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_actions(
    r: *const crawlsched_robots_t,
    out: *mut u8,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(r, "robots")? };
        let a = &h.inner.actions;
        let dst = unsafe { out_exact(out, out_cap, a.len(), "out")? };
        dst.copy_from_slice(a);
        Ok(())
    })
}

/// Stationary probability of each state (q, r, s) under the optimal
/// policy, at index (r*(K+1) + q)*3 + s, into out[0..3(K+1)(N+1)]
/// (excluded states get 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_stationary(
    r: *const crawlsched_robots_t,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(r, "robots")? };
        let pi = &h.inner.performance.stationary;
        let dst = unsafe { out_exact(out, out_cap, pi.len(), "out")? };
        dst.copy_from_slice(pi);
        Ok(())
    })
}

/// Exact cost of another policy on the same model: a switching curve
/// f0, f1 (len = N+1 each; activate iff q <= f_s(r); f0[0] >= 1 is
/// required, as the paper's policies activate at (1, 0, 0)).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_evaluate_curve(
    r: *const crawlsched_robots_t,
    f0: *const i64,
    f1: *const i64,
    len: usize,
    out_cost: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(r, "robots")? };
        let out = Out::new(out_cost, "out_cost")?;
        let a = unsafe { slice_in(f0, len, "f0")? };
        let b = unsafe { slice_in(f1, len, "f1")? };
        let perf = evaluate(
            &h.inner.params,
            &Policy::SwitchingCurve {
                f0: a.to_vec(),
                f1: b.to_vec(),
            },
        )?;
        out.write(finite("cost", perf.cost)?);
        Ok(())
    })
}

/// Exact cost on the same model of keeping n robots active (1 <= n <= N),
/// which equals C_s(n lambda / mu) of eq. (9).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_evaluate_static(
    r: *const crawlsched_robots_t,
    n: u64,
    out_cost: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(r, "robots")? };
        let out = Out::new(out_cost, "out_cost")?;
        let perf = evaluate(&h.inner.params, &Policy::Static(usize_from(n, "n")?))?;
        out.write(finite("cost", perf.cost)?);
        Ok(())
    })
}

/// C_s(rho, gamma, K) of eq. (9) for load rho > 0, gamma >= 0, k >= 1,
/// service rate mu > 0; (gamma + mu)/(K + 1) at rho = 1.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_static_cost(
    rho: f64,
    gamma: f64,
    k: u64,
    mu: f64,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        write_value(out, "cost", || {
            Ok(static_cost(rho, gamma, usize_from(k, "k")?, mu)?)
        })
    })
}

/// Proposition 3: the best number of robots N_s for the static policy and
/// its cost C_s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_robots_optimal_static(
    lambda: f64,
    mu: f64,
    gamma: f64,
    k: u64,
    out_n: *mut u64,
    out_cost: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let (on, oc) = (Out::new(out_n, "out_n")?, Out::new(out_cost, "out_cost")?);
        let (n, c) = optimal_static(lambda, mu, gamma, usize_from(k, "k")?)?;
        let c = finite("cost", c)?;
        on.write(n as u64);
        oc.write(c);
        Ok(())
    })
}
