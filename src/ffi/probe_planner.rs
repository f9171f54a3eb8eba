//! C API of [`crate::probe::planner`]: optimal probe schedules of one
//! profile under politeness constraints, by a chosen method.

#![allow(non_camel_case_types)]

use super::common::*;
use super::control::{control_in, crawlsched_control_t};
use super::probe_profile::crawlsched_probe_profile_t;
use crate::probe::Method;
use crate::probe::planner::Planner;
use std::sync::Mutex;

/// The paper's O(nN^2) dynamic program (Algorithm 1), the reference.
pub const CRAWLSCHED_PROBE_METHOD_REFERENCE: i32 = 0;
/// Monge divide and conquer per layer, O(nN log N).
pub const CRAWLSCHED_PROBE_METHOD_DIVIDE_CONQUER: i32 = 1;
/// Convex hull trick per layer, O(nN).
pub const CRAWLSCHED_PROBE_METHOD_HULL: i32 = 2;
/// Lagrangian relaxation over n, O(N) per multiplier (the default choice).
pub const CRAWLSCHED_PROBE_METHOD_LAGRANGIAN: i32 = 3;

/// Plans optimal probe schedules on N candidate times for one profile,
/// spacing and allowed windows; re-plans after crawlsched_probe_planner_set_*.
/// Mutable; calls are serialised internally, so threads may share one
/// handle. Free with crawlsched_probe_planner_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_probe_planner_t {
    magic: u64,
    pub(super) inner: Mutex<Planner>,
}
impl_handle!(
    crawlsched_probe_planner_t,
    Mutex<Planner>,
    "probe planner",
    0x6372_6177_706c_616e
);

/// # Safety
/// `p` is NULL or a live planner handle.
unsafe fn planner<'a>(
    p: *const crawlsched_probe_planner_t,
) -> FfiResult<std::sync::MutexGuard<'a, Planner>> {
    let h: &'a crawlsched_probe_planner_t = unsafe { handle(p, "planner")? };
    lock(&h.inner, "probe planner")
}

/// A planner on `grid` = N evenly spaced candidate times over [0, T] of
/// `profile` (copied), with minimum spacing delta >= 0 and no windows.
/// CRAWLSCHED_TOO_LARGE when the grid would exceed the memory cap (41
/// bytes per point), checked before allocating.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_planner_new(
    profile: *const crawlsched_probe_profile_t,
    grid: u64,
    delta: f64,
    out: *mut *mut crawlsched_probe_planner_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let p = unsafe { handle(profile, "profile")? };
        let grid = usize_from(grid, "grid")?;
        let pl = Planner::new(p.inner.clone(), grid, delta, None)?;
        publish(Ok(pl), out)
    })
}

/// Releases a planner. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_planner_free(planner: *mut crawlsched_probe_planner_t) {
    guard_value((), || unsafe { free_handle(planner) })
}

/// Replaces the planner's profile (copied; e.g. re-estimated) so the next
/// plan uses it. Grid, spacing and windows are kept. On error the planner
/// is unchanged.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_planner_set_profile(
    planner: *const crawlsched_probe_planner_t,
    profile: *const crawlsched_probe_profile_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let mut pl = unsafe { self::planner(planner)? };
        let p = unsafe { handle(profile, "profile")? };
        pl.set_profile(p.inner.clone())?;
        Ok(())
    })
}

/// Sets the minimum spacing delta >= 0 and the allowed windows
/// [starts[k], ends[k]] (k < len; len = 0 allows every time). Probes other
/// than the final one at T must fall in a window.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_planner_set_constraints(
    planner: *const crawlsched_probe_planner_t,
    delta: f64,
    starts: *const f64,
    ends: *const f64,
    len: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let mut pl = unsafe { self::planner(planner)? };
        let s = unsafe { slice_in(starts, len, "starts")? };
        let e = unsafe { slice_in(ends, len, "ends")? };
        let w = if len == 0 {
            None
        } else {
            Some(s.iter().copied().zip(e.iter().copied()).collect())
        };
        pl.set_constraints(delta, w)?;
        Ok(())
    })
}

/// Attaches a control (NULL detaches it) to every later
/// crawlsched_probe_planner_plan() and _all_costs() call of this planner,
/// kept across _set_profile() and _set_constraints(). Its memory cap
/// (else the process-wide default) is checked against the DP tables, and
/// the grid those two rebuild, before allocating (CRAWLSCHED_TOO_LARGE);
/// its iteration cap
/// bounds the passes over the grid, one per DP layer or Lagrangian
/// multiplier (CRAWLSCHED_NOT_CONVERGED when reached); cancelling it from
/// another thread makes a running plan return CRAWLSCHED_CANCELLED within
/// one DP row or 65,536 grid points. An interrupted plan writes no output.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_planner_set_control(
    planner: *const crawlsched_probe_planner_t,
    ctl: *const crawlsched_control_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let mut pl = unsafe { self::planner(planner)? };
        let control = unsafe { control_in(ctl)? };
        pl.set_control(control);
        Ok(())
    })
}

/// An optimal schedule of exactly n probes (1 <= n <= N) by `method`
/// (CRAWLSCHED_PROBE_METHOD_*; all give the same optimal cost): times to
/// out[0..n], expected cost to *out_cost. INFEASIBLE when spacing and
/// windows leave no room for n probes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_planner_plan(
    planner: *const crawlsched_probe_planner_t,
    n: u64,
    method: i32,
    out: *mut f64,
    out_cap: usize,
    out_cost: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let pl = unsafe { self::planner(planner)? };
        let cost_out = Out::new(out_cost, "out_cost")?;
        let n = usize_from(n, "n")?;
        let dst = unsafe { out_exact(out, out_cap, n, "out")? };
        let m = match method {
            CRAWLSCHED_PROBE_METHOD_REFERENCE => Method::Reference,
            CRAWLSCHED_PROBE_METHOD_DIVIDE_CONQUER => Method::DivideConquer,
            CRAWLSCHED_PROBE_METHOD_HULL => Method::Hull,
            CRAWLSCHED_PROBE_METHOD_LAGRANGIAN => Method::Lagrangian,
            _ => return Err(FfiError::invalid(format!("unknown method {method}"))),
        };
        let s = pl.problem().solve(n, m)?;
        let c = finite("cost", s.cost)?;
        write_finite(dst, &s.times, "probe time")?;
        cost_out.write(c);
        Ok(())
    })
}

/// Optimal expected cost for every budget n = 1..max_n at once (Lagrangian
/// relaxation), into out[0..max_n].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_planner_all_costs(
    planner: *const crawlsched_probe_planner_t,
    max_n: u64,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let pl = unsafe { self::planner(planner)? };
        let n = usize_from(max_n, "max_n")?;
        let dst = unsafe { out_exact(out, out_cap, n, "out")? };
        let g = pl.all_costs(n)?;
        write_finite(dst, &g, "cost")
    })
}
