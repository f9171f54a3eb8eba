//! C API of [`crate::probe`] (Eckstein, Gal, Reiner): update-intensity
//! profiles, expected and realized costs, optimal probe schedules under a
//! politeness budget, Algorithm 10 and the paper's baselines.
//!
//! Times are in the caller's unit (the paper uses days); intensities are
//! updates per time unit. Probe times are `double`s, the last one is T.

#![allow(non_camel_case_types)]

use super::common::*;
use crate::probe::baselines::{self, Policy};
use crate::probe::cost;
use crate::probe::improve::{ImproverParams, improve};
use crate::probe::profile::{self, PiecewiseConstant, Profile};

/// Threshold policy: probe once the expected cost since the last probe
/// reaches a level (paper §5.2).
pub const CRAWLSCHED_PROBE_POLICY_THRESHOLD: i32 = 0;
/// First-arrival policy: probe once an update since the last probe is
/// likely enough (paper §5.2).
pub const CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL: i32 = 1;

/// Update intensity lambda(t) and importance a(t) over a horizon [0, T],
/// with prefix integrals for O(1)-per-interval costs. Immutable: one handle
/// may be used from any number of threads at once. Free with
/// crawlsched_probe_profile_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_probe_profile_t {
    magic: u64,
    pub(super) inner: Profile,
}
impl_handle!(
    crawlsched_probe_profile_t,
    Profile,
    "probe profile",
    0x6372_6177_7072_6f66
);

/// # Safety
/// `breaks` points to pieces + 1 doubles and `values` to `pieces`.
unsafe fn piecewise(
    breaks: *const f64,
    values: *const f64,
    pieces: usize,
    periodic: i32,
    name: &str,
) -> FfiResult<PiecewiseConstant> {
    let nb = pieces.checked_add(1).ok_or_else(|| {
        FfiError::new(CRAWLSCHED_TOO_LARGE, format!("{name}_pieces + 1 overflows"))
    })?;
    let (bn, vn) = (format!("{name}_breaks"), format!("{name}_values"));
    let b = unsafe { slice_in(breaks, nb, &bn)? };
    let v = unsafe { slice_in(values, pieces, &vn)? };
    if pieces == 0 {
        return Err(FfiError::invalid(format!(
            "{name}_pieces must be >= 1 (one piece at least)"
        )));
    }
    Ok(PiecewiseConstant::named(b, v, periodic != 0, &bn, &vn)?)
}

/// A profile from two piecewise-constant functions: lambda(t) =
/// lambda_values[k] on [lambda_breaks[k], lambda_breaks[k+1]) (pieces
/// lambda_pieces, lambda_breaks has lambda_pieces + 1 entries starting at 0,
/// values >= 0), repeating with period lambda_breaks[lambda_pieces] if
/// lambda_periodic != 0; a(t) likewise. horizon = T > 0.
/// CRAWLSCHED_TOO_LARGE when the merged pieces over the horizon would
/// exceed the memory cap (64 bytes per piece; see
/// crawlsched_set_default_memory_limit()), checked before allocating.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_profile_new(
    lambda_breaks: *const f64,
    lambda_values: *const f64,
    lambda_pieces: usize,
    lambda_periodic: i32,
    a_breaks: *const f64,
    a_values: *const f64,
    a_pieces: usize,
    a_periodic: i32,
    horizon: f64,
    out: *mut *mut crawlsched_probe_profile_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let l = unsafe {
            piecewise(
                lambda_breaks,
                lambda_values,
                lambda_pieces,
                lambda_periodic,
                "lambda",
            )?
        };
        let a = unsafe { piecewise(a_breaks, a_values, a_pieces, a_periodic, "a")? };
        publish(Ok(Profile::new(l, a, horizon)?), out)
    })
}

/// The paper's DBWorld profile (Table 2; days, week from Monday 00:00) with
/// importance `ratio` in weekday work hours [9:00, 18:00) and 1 elsewhere.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_profile_dbworld(
    ratio: f64,
    horizon_days: f64,
    out: *mut *mut crawlsched_probe_profile_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        publish(Ok(Profile::dbworld(ratio, horizon_days)?), out)
    })
}

/// The paper's MicroNet profile (Table 3) with work hours [9:00, 19:00).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_profile_micronet(
    ratio: f64,
    horizon_days: f64,
    out: *mut *mut crawlsched_probe_profile_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        publish(Ok(Profile::micronet(ratio, horizon_days)?), out)
    })
}

/// Releases a profile. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_profile_free(profile: *mut crawlsched_probe_profile_t) {
    guard_value((), || unsafe { free_handle(profile) })
}

/// Expected cost of one interval between probes at s and f,
/// C(s, f) = int_s^f lambda(t) int_t^f a (eq. 5), 0 <= s <= f <= T.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_interval_cost(
    profile: *const crawlsched_probe_profile_t,
    s: f64,
    f: f64,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let p = unsafe { handle(profile, "profile")? };
        write_value(out, "cost", || Ok(p.inner.interval_cost(s, f)?))
    })
}

/// Expected cost (eq. 6) of probing at probes[0..n] (sorted, >= 0, the last
/// equal to T).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_expected_cost(
    profile: *const crawlsched_probe_profile_t,
    probes: *const f64,
    n: usize,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let p = unsafe { handle(profile, "profile")? };
        write_value(out, "cost", || {
            let v = unsafe { slice_in(probes, n, "probes")? };
            Ok(cost::expected_cost(&p.inner, v)?)
        })
    })
}

/// Realized cost (eq. 3, 4) of the schedule probes[0..n] on an observed
/// trace of update times updates[0..m] (sorted, in [0, T]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_realized_cost(
    profile: *const crawlsched_probe_profile_t,
    probes: *const f64,
    n: usize,
    updates: *const f64,
    m: usize,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let p = unsafe { handle(profile, "profile")? };
        write_value(out, "cost", || {
            let v = unsafe { slice_in(probes, n, "probes")? };
            let u = unsafe { slice_in(updates, m, "updates")? };
            Ok(cost::realized_cost(&p.inner, v, u)?)
        })
    })
}

/// Maximum-likelihood intensity per piece from sorted update times
/// times[0..n] observed over [0, window]: pieces given by breaks[0..pieces]
/// (pieces + 1 entries from 0), folded onto one period if periodic != 0.
/// smoothing >= 0 adds that much pseudo-exposure at the overall rate
/// (0 = plain MLE). Writes out[0..pieces].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_estimate_intensity(
    times: *const f64,
    n: usize,
    window: f64,
    breaks: *const f64,
    pieces: usize,
    periodic: i32,
    smoothing: f64,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let t = unsafe { slice_in(times, n, "times")? };
        let nb = pieces
            .checked_add(1)
            .ok_or_else(|| FfiError::new(CRAWLSCHED_TOO_LARGE, "pieces overflows"))?;
        let b = unsafe { slice_in(breaks, nb, "breaks")? };
        let dst = unsafe { out_exact(out, out_cap, pieces, "out")? };
        let est = profile::estimate_intensity(t, window, b, periodic != 0, smoothing)?;
        write_finite(dst, est.values(), "intensity")
    })
}

/// Uniform probing: n probes at iT/n, into out[0..n].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_uniform(
    profile: *const crawlsched_probe_profile_t,
    n: u64,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let p = unsafe { handle(profile, "profile")? };
        let n = usize_from(n, "n")?;
        let dst = unsafe { out_exact(out, out_cap, n, "out")? };
        write_finite(dst, &baselines::uniform(&p.inner, n)?, "probe time")
    })
}

/// The threshold (policy CRAWLSCHED_PROBE_POLICY_THRESHOLD, parameter: the
/// expected-cost level > 0) or first-arrival (CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL,
/// parameter: the probability in (0, 1)) schedule. Variable-size output
/// (see docs/c-api.md); the last probe is T. At most 10,000,000 probes
/// (CRAWLSCHED_TOO_LARGE): a parameter whose schedule is known to be
/// longer (first arrival: Lambda(0, T) / -ln(1 - p); threshold: each piece
/// of constant lambda, a and length h holds floor(h sqrt(lambda a / 2 level))
/// probes) is refused before any probe is placed; otherwise the cost is
/// O(K + probes) for a profile of K pieces, well under a microsecond a probe.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_policy_schedule(
    profile: *const crawlsched_probe_profile_t,
    policy: i32,
    parameter: f64,
    out: *mut f64,
    out_cap: usize,
    out_len: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let p = unsafe { handle(profile, "profile")? };
        let buf = unsafe { OutBuffer::new(out, out_cap, out_len, "out")? };
        let s = match policy {
            CRAWLSCHED_PROBE_POLICY_THRESHOLD => baselines::threshold(&p.inner, parameter)?,
            CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL => baselines::first_arrival(&p.inner, parameter)?,
            _ => return Err(FfiError::invalid(format!("unknown policy {policy}"))),
        };
        buf.write(&s)
    })
}

/// The threshold or first-arrival schedule with exactly n probes: the
/// policy's parameter is tuned by bisection and written to *out_parameter;
/// the probes go to out[0..n]. The parameter written, given to
/// crawlsched_probe_policy_schedule(), yields exactly these n probes.
/// NOT_CONVERGED if no parameter gives n; for first arrival this includes
/// a budget so small that it needs a probability closer to 1 than any
/// double below 1 (1 - 2^-53).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_policy_with_budget(
    profile: *const crawlsched_probe_profile_t,
    policy: i32,
    n: u64,
    out_parameter: *mut f64,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let p = unsafe { handle(profile, "profile")? };
        let param = Out::new(out_parameter, "out_parameter")?;
        let n = usize_from(n, "n")?;
        let dst = unsafe { out_exact(out, out_cap, n, "out")? };
        let pol = match policy {
            CRAWLSCHED_PROBE_POLICY_THRESHOLD => Policy::Threshold,
            CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL => Policy::FirstArrival,
            _ => return Err(FfiError::invalid(format!("unknown policy {policy}"))),
        };
        let (x, s) = baselines::with_budget(&p.inner, pol, n)?;
        let x = finite("parameter", x)?;
        write_finite(dst, &s, "probe time")?;
        param.write(x);
        Ok(())
    })
}

/// Algorithm 10: improves probes[0..n] (spacing >= delta, last = T) by
/// greedy mu-moves with mu0, mu_min, rho, iota (the paper uses 0.5,
/// 1/512, 0.5 and a small iota > 0). Writes the improved times to out[0..n]
/// and the number of moves to *out_moves. The result never costs more.
/// Bounded cost: the L = floor(ln(mu_min/mu0)/ln(rho)) + 1 levels of mu
/// each scan the 2(n - 1) moves, and L * max(2(n - 1), 1) must not exceed
/// 1e7 (CRAWLSCHED_TOO_LARGE, checked before any work: a rho near 1 gives
/// billions of levels); at most 1,000,000 moves are made, after which the
/// times reached so far are written (they never cost more either).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_probe_improve(
    profile: *const crawlsched_probe_profile_t,
    probes: *const f64,
    n: usize,
    delta: f64,
    mu0: f64,
    mu_min: f64,
    rho: f64,
    iota: f64,
    out: *mut f64,
    out_cap: usize,
    out_moves: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let p = unsafe { handle(profile, "profile")? };
        let moves = Out::new(out_moves, "out_moves")?;
        let v = unsafe { slice_in(probes, n, "probes")? };
        let dst = unsafe { out_exact(out, out_cap, n, "out")? };
        let params = ImproverParams {
            mu0,
            mu_min,
            rho,
            iota,
            max_moves: IMPROVE_MAX_MOVES,
        };
        let r = improve(&p.inner, v, delta, &params)?;
        write_finite(dst, &r.times, "probe time")?;
        moves.write(r.moves as u64);
        Ok(())
    })
}

/// Moves crawlsched_probe_improve() makes at most (about a microsecond each).
const IMPROVE_MAX_MOVES: usize = 1_000_000;
