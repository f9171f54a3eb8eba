//! C API of [`crate::freshness`] (Coffman, Liu, Weber): models, optimal
//! frequencies, bounds, cyclic schedules, simulation.
//!
//! Page indices in sequences are `uint32_t` (0-based positions in the
//! model's arrays); counts are `uint64_t`, so the same arrays work from C,
//! Go, Java and Python without `size_t` conversions.

#![allow(non_camel_case_types)]

use super::common::*;
use super::dist::crawlsched_dist_t;
use super::limits::{control_in, crawlsched_control_t};
use crate::freshness::{Model, cyclic, frequencies, randomized, simulate};
use crate::limits::Control;

/// N pages (change rates, cost weights) and the access-time distribution.
/// Immutable: one handle may be used from any number of threads at once.
/// Free with crawlsched_freshness_model_free().
// repr(C) puts the tag first (see impl_handle!); written as cfg_attr so that
// cbindgen, which reads only plain #[repr], keeps the type opaque in C.
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_freshness_model_t {
    magic: u64,
    inner: Model,
}
impl_handle!(
    crawlsched_freshness_model_t,
    "freshness model",
    0x6372_6177_6c66_7265
);

fn usize_from(n: u64, name: &str) -> FfiResult<usize> {
    usize::try_from(n).map_err(|_| {
        FfiError::new(
            CRAWLSCHED_TOO_LARGE,
            format!("{name} = {n} does not fit in size_t"),
        )
    })
}

fn page_indices(seq: &[u32]) -> Vec<usize> {
    seq.iter().map(|&p| p as usize).collect()
}

fn to_u32(seq: &[usize]) -> FfiResult<Vec<u32>> {
    seq.iter()
        .map(|&p| {
            u32::try_from(p)
                .map_err(|_| FfiError::new(CRAWLSCHED_TOO_LARGE, "page index exceeds uint32_t"))
        })
        .collect()
}

/// Builds a model of n pages: page i changes at rate change_rates[i] > 0
/// and weighs weights[i] > 0 in the cost C = sum c_i r_i. weights may be
/// NULL, meaning c_i = change_rates[i] (the cost is then the rate of missed
/// changes, the case of Theorem 3.4). The access distribution is copied:
/// `access` may be freed afterwards. The model holds 40 bytes per page,
/// checked against the process-wide memory cap (CRAWLSCHED_TOO_LARGE).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_model_new(
    access: *const crawlsched_dist_t,
    change_rates: *const f64,
    weights: *const f64,
    n: usize,
    out: *mut *mut crawlsched_freshness_model_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let d = unsafe { handle(access, "access")? };
        let mu = unsafe { slice_in(change_rates, n, "change_rates")? };
        let w = if weights.is_null() {
            None
        } else {
            Some(unsafe { slice_in(weights, n, "weights")? })
        };
        let model = Model::new(d.inner.clone(), mu, w)?;
        new_handle(
            crawlsched_freshness_model_t {
                magic: <crawlsched_freshness_model_t as Handle>::MAGIC,
                inner: model,
            },
            out,
        );
        Ok(())
    })
}

/// Releases a model. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_model_free(model: *mut crawlsched_freshness_model_t) {
    guard_value((), || unsafe { free_handle(model) })
}

/// Number of pages N.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_model_len(
    model: *const crawlsched_freshness_model_t,
    out: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        Out::new(out, "out")?.write(m.inner.len());
        Ok(())
    })
}

/// h_i = E[exp(-mu_i X)] for every page, into out[0..N] (out_cap >= N).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_model_h(
    model: *const crawlsched_freshness_model_t,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let dst = unsafe { out_exact(out, out_cap, m.inner.len(), "out")? };
        write_finite(dst, m.inner.h(), "h")
    })
}

/// Optimal access frequencies (they sum to 1) into out[0..N]: Theorem 3.4's
/// closed form f_i ∝ ln(1/h_i) when weights are proportional to change
/// rates, otherwise the Lagrange conditions (8)-(9), solved to about 1e-14
/// relative in the multiplier (O(N) per outer step, a handful of steps;
/// 96 bytes per page checked against the process-wide memory cap). A page
/// may get 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_optimal_frequencies(
    model: *const crawlsched_freshness_model_t,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let dst = unsafe { out_exact(out, out_cap, m.inner.len(), "out")? };
        let f = frequencies::optimal_frequencies(&m.inner)?;
        write_finite(dst, &f, "frequency")
    })
}

/// The lower bound on the cost C of every policy (Theorem 3.4, eq. 6, for
/// proportional weights; the minimum of Theorem 3.3's bound otherwise).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_lower_bound(
    model: *const crawlsched_freshness_model_t,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let out = Out::new(out, "out")?;
        out.write(finite("lower bound", frequencies::lower_bound(&m.inner)?)?);
        Ok(())
    })
}

/// Cost sum c_i r_i of access frequencies `freq` (n = N, summing to 1) with
/// perfectly even spacing: Theorem 3.3's bound, the best any schedule with
/// these frequencies can do.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_cost(
    model: *const crawlsched_freshness_model_t,
    freq: *const f64,
    n: usize,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let out = Out::new(out, "out")?;
        let f = unsafe { slice_in(freq, n, "freq")? };
        out.write(finite("cost", frequencies::cost(&m.inner, f)?)?);
        Ok(())
    })
}

/// Per-page obsolescence bound r_i of Theorem 3.3 for frequencies `freq`,
/// into out[0..N].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_obsolescence_bound(
    model: *const crawlsched_freshness_model_t,
    freq: *const f64,
    n: usize,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let f = unsafe { slice_in(freq, n, "freq")? };
        let dst = unsafe { out_exact(out, out_cap, m.inner.len(), "out")? };
        write_finite(
            dst,
            &frequencies::obsolescence_lower_bound(&m.inner, f)?,
            "obsolescence",
        )
    })
}

/// Cost of the randomized policy that picks page i with probability
/// freq[i] at every access (Lemma 4.1).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_randomized_cost(
    model: *const crawlsched_freshness_model_t,
    freq: *const f64,
    n: usize,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let out = Out::new(out, "out")?;
        let f = unsafe { slice_in(freq, n, "freq")? };
        out.write(finite("cost", randomized::cost(&m.inner, f)?)?);
        Ok(())
    })
}

/// Optimal frequencies of the randomized policy into out[0..N]
/// (Theorem 4.1: f_i ∝ 1/h_i - 1 for proportional weights; eq. 15 else).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_randomized_optimal_frequencies(
    model: *const crawlsched_freshness_model_t,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let dst = unsafe { out_exact(out, out_cap, m.inner.len(), "out")? };
        write_finite(
            dst,
            &randomized::optimal_frequencies(&m.inner)?,
            "frequency",
        )
    })
}

/// Cost of the randomized policy at its optimal frequencies (eq. 11).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_randomized_optimal_cost(
    model: *const crawlsched_freshness_model_t,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let out = Out::new(out, "out")?;
        out.write(finite("cost", randomized::optimal_cost(&m.inner)?)?);
        Ok(())
    })
}

/// Integer access counts per cycle of length `total` for frequencies
/// `freq` (largest remainder: floor(f_i total) <= count_i <= ceil(f_i total)).
/// With at_least_one != 0 every page with f_i > 0 gets at least one access
/// (needs total >= number of such pages). Writes out[0..n].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_integer_counts(
    freq: *const f64,
    n: usize,
    total: u64,
    at_least_one: i32,
    out: *mut u64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let f = unsafe { slice_in(freq, n, "freq")? };
        let dst = unsafe { out_exact(out, out_cap, n, "out")? };
        let total = usize_from(total, "total")?;
        let counts = if at_least_one != 0 {
            cyclic::integer_counts_at_least_one(f, total)?
        } else {
            cyclic::integer_counts(f, total)?
        };
        for (d, c) in dst.iter_mut().zip(counts) {
            *d = c as u64;
        }
        Ok(())
    })
}

/// The smallest Fibonacci number >= n (golden-ratio cycles are best with a
/// Fibonacci length, paper §5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_fibonacci_at_least(
    n: u64,
    out: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let n = usize_from(n, "n")?;
        // F_92 is the largest Fibonacci number below 2^63.
        if n > 7_540_113_804_746_346_429 {
            return Err(FfiError::new(
                CRAWLSCHED_TOO_LARGE,
                format!("no Fibonacci number >= {n} fits in 64 bits"),
            ));
        }
        out.write(cyclic::fibonacci_at_least(n) as u64);
        Ok(())
    })
}

/// # Safety
/// `counts` points to `n` values and `out` to `out_cap` (or NULL with 0).
unsafe fn sequence_export(
    counts: *const u64,
    n: usize,
    out: *mut u32,
    out_cap: usize,
    out_len: *mut usize,
    build: fn(&[usize]) -> crate::Result<Vec<usize>>,
) -> FfiResult<()> {
    let buf = unsafe { OutBuffer::new(out, out_cap, out_len, "out")? };
    let c = unsafe { slice_in(counts, n, "counts")? };
    let c: Vec<usize> = c
        .iter()
        .map(|&x| usize_from(x, "count"))
        .collect::<FfiResult<_>>()?;
    // The length is Σ counts: a buffer too small for it (the size query
    // with out_cap 0 included) is answered without building a sequence of
    // up to 2^27 entries (seconds and a gigabyte; found by fuzzing).
    let buf = buf.reserve(cyclic::checked_total(&c)?)?;
    let seq = build(&c)?;
    buf.write(&to_u32(&seq)?)
}

/// The golden-ratio cyclic sequence (paper §5) for integer access counts:
/// page i appears counts[i] times in a cycle of sum(counts) accesses.
/// Writes page indices to out (variable size: see docs/c-api.md).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_golden_ratio_sequence(
    counts: *const u64,
    n: usize,
    out: *mut u32,
    out_cap: usize,
    out_len: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        sequence_export(
            counts,
            n,
            out,
            out_cap,
            out_len,
            cyclic::golden_ratio_sequence,
        )
    })
}

/// A generic round robin proportional to the counts: each page's accesses
/// spread evenly over the cycle. Same conventions as the golden-ratio one.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_round_robin_sequence(
    counts: *const u64,
    n: usize,
    out: *mut u32,
    out_cap: usize,
    out_len: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        sequence_export(
            counts,
            n,
            out,
            out_cap,
            out_len,
            cyclic::round_robin_sequence,
        )
    })
}

/// Exact long-run cost sum c_i r_i of repeating the cyclic sequence `seq`
/// (page indices < N) forever (eq. 3 with Lemma 3.1). A page absent from
/// the sequence is always out of date (r_i = 1).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_cyclic_cost(
    model: *const crawlsched_freshness_model_t,
    seq: *const u32,
    len: usize,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let out = Out::new(out, "out")?;
        let s = unsafe { slice_in(seq, len, "seq")? };
        out.write(finite("cost", cyclic::cost(&m.inner, &page_indices(s))?)?);
        Ok(())
    })
}

/// Exact per-page fraction of time out of date r_i of the cyclic sequence,
/// into out[0..N].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_cyclic_obsolescence(
    model: *const crawlsched_freshness_model_t,
    seq: *const u32,
    len: usize,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let s = unsafe { slice_in(seq, len, "seq")? };
        let dst = unsafe { out_exact(out, out_cap, m.inner.len(), "out")? };
        write_finite(
            dst,
            &cyclic::obsolescence(&m.inner, &page_indices(s))?,
            "obsolescence",
        )
    })
}

/// Right side of eq. (18): the large-N limit of the golden-ratio policy's
/// cost for this model's total change rate and E[X] (proportional weights).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_golden_ratio_bound(
    model: *const crawlsched_freshness_model_t,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let out = Out::new(out, "out")?;
        out.write(finite(
            "bound",
            cyclic::golden_ratio_asymptotic_bound(&m.inner)?,
        )?);
        Ok(())
    })
}

/// H(q) of Corollary 5.1: the asymptotic ratio of the golden-ratio cost to
/// the lower bound, q = mu E[X] >= 0; at most 2 phi^2 / 5 < 1.05.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_bound_ratio(
    q: f64,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        crate::validate::non_negative("q", q)?;
        out.write(finite("H(q)", cyclic::bound_ratio(q))?);
        Ok(())
    })
}

/// Monte Carlo of `cycles` repetitions of the cyclic sequence with random
/// access times and Poisson page changes (seeded): the estimated cost and
/// its standard error (batch means), to validate the exact cost.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_simulate_cyclic(
    model: *const crawlsched_freshness_model_t,
    seq: *const u32,
    len: usize,
    cycles: u64,
    seed: u64,
    out_cost: *mut f64,
    out_std_error: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        simulate_cyclic_impl(
            model,
            seq,
            len,
            cycles,
            seed,
            &Control::default(),
            out_cost,
            out_std_error,
        )
    })
}

/// As crawlsched_freshness_simulate_cyclic() under a control (NULL: none):
/// cancelling it from another thread returns CRAWLSCHED_CANCELLED within
/// 65,536 accesses, with no output written. Its iteration cap does not
/// apply (cycles already bounds the run).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_simulate_cyclic_with_control(
    model: *const crawlsched_freshness_model_t,
    seq: *const u32,
    len: usize,
    cycles: u64,
    seed: u64,
    ctl: *const crawlsched_control_t,
    out_cost: *mut f64,
    out_std_error: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        let c = control_in(ctl)?;
        simulate_cyclic_impl(model, seq, len, cycles, seed, &c, out_cost, out_std_error)
    })
}

/// # Safety
/// Pointers as documented on the exports.
#[allow(clippy::too_many_arguments)]
unsafe fn simulate_cyclic_impl(
    model: *const crawlsched_freshness_model_t,
    seq: *const u32,
    len: usize,
    cycles: u64,
    seed: u64,
    control: &Control,
    out_cost: *mut f64,
    out_std_error: *mut f64,
) -> FfiResult<()> {
    let m = unsafe { handle(model, "model")? };
    let out_cost = Out::new(out_cost, "out_cost")?;
    let out_se = Out::new(out_std_error, "out_std_error")?;
    let s = unsafe { slice_in(seq, len, "seq")? };
    let r = simulate::simulate_cyclic_with(&m.inner, &page_indices(s), cycles, seed, control)?;
    let (c, se) = (finite("cost", r.cost)?, finite("std_error", r.std_error)?);
    out_cost.write(c);
    out_se.write(se);
    Ok(())
}

// ---------------------------------------------------------------------------
// Change-rate estimator
// ---------------------------------------------------------------------------

use crate::freshness::estimator::ChangeRateEstimator;
use crate::freshness::scheduler::{Scheduler, SchedulerMode};
use std::sync::Mutex;

/// Estimates one page's change rate from visits that only tell whether the
/// page changed since the previous visit (maximum likelihood for censored
/// Poisson observations; consistent for irregular intervals, unlike the
/// naive ratio changes/time). Mutable; calls are serialised internally, so
/// a handle may be shared between threads. Free with
/// crawlsched_estimator_free().
// repr(C) puts the tag first (see impl_handle!); written as cfg_attr so that
// cbindgen, which reads only plain #[repr], keeps the type opaque in C.
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_estimator_t {
    magic: u64,
    inner: Mutex<ChangeRateEstimator>,
}
impl_handle!(crawlsched_estimator_t, "estimator", 0x6372_6177_6c65_7374);

fn publish_estimator(e: ChangeRateEstimator, out: Out<*mut crawlsched_estimator_t>) {
    let magic = <crawlsched_estimator_t as Handle>::MAGIC;
    new_handle(
        crawlsched_estimator_t {
            magic,
            inner: Mutex::new(e),
        },
        out,
    );
}

/// A new estimator without prior knowledge.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_estimator_new(
    out: *mut *mut crawlsched_estimator_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        publish_estimator(ChangeRateEstimator::new(), Out::new(out, "out")?);
        Ok(())
    })
}

/// A new estimator with a prior guess `rate_guess` > 0 worth `weight_time`
/// > 0 time units of observation (a Gamma prior with that mode).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_estimator_new_with_prior(
    rate_guess: f64,
    weight_time: f64,
    out: *mut *mut crawlsched_estimator_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        publish_estimator(
            ChangeRateEstimator::with_prior(rate_guess, weight_time)?,
            out,
        );
        Ok(())
    })
}

/// Releases an estimator. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_estimator_free(est: *mut crawlsched_estimator_t) {
    guard_value((), || unsafe { free_handle(est) })
}

/// Records one visit: `interval` > 0 time units since the previous visit,
/// `changed` != 0 if the page had changed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_estimator_observe(
    est: *const crawlsched_estimator_t,
    interval: f64,
    changed: i32,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let e = unsafe { handle(est, "est")? };
        lock(&e.inner, "estimator")?.observe(interval, changed != 0)?;
        Ok(())
    })
}

/// The current estimate of the change rate. CRAWLSCHED_NOT_FOUND while
/// there is no information (no prior and no visit).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_estimator_estimate(
    est: *const crawlsched_estimator_t,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let e = unsafe { handle(est, "est")? };
        let out = Out::new(out, "out")?;
        let rate = lock(&e.inner, "estimator")?.estimate().ok_or_else(|| {
            FfiError::new(
                CRAWLSCHED_NOT_FOUND,
                "no estimate yet: no prior and no visit recorded",
            )
        })?;
        out.write(finite("estimate", rate)?);
        Ok(())
    })
}

/// Number of visits recorded.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_estimator_observations(
    est: *const crawlsched_estimator_t,
    out: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let e = unsafe { handle(est, "est")? };
        let out = Out::new(out, "out")?;
        out.write(lock(&e.inner, "estimator")?.observations());
        Ok(())
    })
}

// ---------------------------------------------------------------------------
// Streaming scheduler
// ---------------------------------------------------------------------------

/// Scheduler mode: each page's crawls evenly spaced in virtual time.
pub const CRAWLSCHED_SCHEDULER_STRIDE: i32 = 0;
/// Scheduler mode: golden-ratio cycles rebuilt at cycle boundaries (§5-6).
pub const CRAWLSCHED_SCHEDULER_GOLDEN_RATIO: i32 = 1;

/// A streaming crawl scheduler for a changing set of pages identified by
/// 64-bit ids: next() says which page to crawl now, at the optimal
/// frequencies for the current change-rate estimates. Mutable; calls are
/// serialised internally, so crawler threads may share one handle. Free
/// with crawlsched_scheduler_free().
// repr(C) puts the tag first (see impl_handle!); written as cfg_attr so that
// cbindgen, which reads only plain #[repr], keeps the type opaque in C.
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_scheduler_t {
    magic: u64,
    inner: Mutex<Scheduler>,
}
impl_handle!(crawlsched_scheduler_t, "scheduler", 0x6372_6177_6c73_6368);

/// # Safety
/// `s` is NULL or a live scheduler handle.
unsafe fn scheduler<'a>(
    s: *const crawlsched_scheduler_t,
) -> FfiResult<std::sync::MutexGuard<'a, Scheduler>> {
    let h: &'a crawlsched_scheduler_t = unsafe { handle(s, "scheduler")? };
    lock(&h.inner, "scheduler")
}

/// A new, empty scheduler for crawls whose duration follows `access`
/// (copied), in `mode` CRAWLSCHED_SCHEDULER_STRIDE or _GOLDEN_RATIO.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_new(
    access: *const crawlsched_dist_t,
    mode: i32,
    out: *mut *mut crawlsched_scheduler_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let d = unsafe { handle(access, "access")? };
        let mode = match mode {
            CRAWLSCHED_SCHEDULER_STRIDE => SchedulerMode::Stride,
            CRAWLSCHED_SCHEDULER_GOLDEN_RATIO => SchedulerMode::GoldenRatio,
            m => return Err(FfiError::invalid(format!("unknown scheduler mode {m}"))),
        };
        let s = Scheduler::new(d.inner.clone(), mode)?;
        let magic = <crawlsched_scheduler_t as Handle>::MAGIC;
        new_handle(
            crawlsched_scheduler_t {
                magic,
                inner: Mutex::new(s),
            },
            out,
        );
        Ok(())
    })
}

/// Releases a scheduler. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_free(s: *mut crawlsched_scheduler_t) {
    guard_value((), || unsafe { free_handle(s) })
}

/// Adds page `id` with an initial change-rate guess > 0; its cost weight is
/// its change rate. A duplicate id is CRAWLSCHED_INVALID_ARGUMENT; a page
/// beyond the memory cap (400 bytes per page, so that the recomputations
/// of the frequencies fit) or beyond 2^22 pages is CRAWLSCHED_TOO_LARGE.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_add_page(
    s: *const crawlsched_scheduler_t,
    id: u64,
    change_rate: f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        Ok(unsafe { scheduler(s)? }.add_page(id, change_rate, None)?)
    })
}

/// Adds page `id` with an initial change-rate guess and an explicit cost
/// weight > 0 (e.g. how often users read it).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_add_weighted_page(
    s: *const crawlsched_scheduler_t,
    id: u64,
    change_rate: f64,
    weight: f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        Ok(unsafe { scheduler(s)? }.add_page(id, change_rate, Some(weight))?)
    })
}

/// Removes page `id` (CRAWLSCHED_NOT_FOUND if absent); it is never returned
/// by next() again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_remove_page(
    s: *const crawlsched_scheduler_t,
    id: u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || Ok(unsafe { scheduler(s)? }.remove_page(id)?))
}

/// Replaces page `id`'s change rate (and restarts its estimator from it).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_set_change_rate(
    s: *const crawlsched_scheduler_t,
    id: u64,
    change_rate: f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        Ok(unsafe { scheduler(s)? }.set_change_rate(id, change_rate)?)
    })
}

/// Reports a crawl of page `id`: `interval` > 0 time units since its
/// previous crawl, `changed` != 0 if its content had changed. The page's
/// change-rate estimate (and so its frequency) follows.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_observe(
    s: *const crawlsched_scheduler_t,
    id: u64,
    interval: f64,
    changed: i32,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        Ok(unsafe { scheduler(s)? }.observe(id, interval, changed != 0)?)
    })
}

/// The page to crawl now. CRAWLSCHED_NOT_FOUND when no page is scheduled.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_next(
    s: *const crawlsched_scheduler_t,
    out_id: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out_id, "out_id")?;
        out.write(unsafe { scheduler(s)? }.next()?);
        Ok(())
    })
}

/// Every page's target share of all crawls (as crawlsched_scheduler_frequency
/// gives one page's), with the page ids, sorted by id: out_ids[i] has
/// share out_freqs[i]. Both arrays hold out_cap elements; *out_len receives
/// the number of pages (variable size: see docs/c-api.md). One O(N)
/// computation for all pages, where N calls of crawlsched_scheduler_frequency
/// after rates changed cost O(N) each. CRAWLSCHED_NOT_FOUND when no page is
/// scheduled.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_frequencies(
    s: *const crawlsched_scheduler_t,
    out_ids: *mut u64,
    out_freqs: *mut f64,
    out_cap: usize,
    out_len: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let len = Out::new(out_len, "out_len")?;
        let ids = unsafe { slice_out(out_ids, out_cap, "out_ids")? };
        let freqs = unsafe { slice_out(out_freqs, out_cap, "out_freqs")? };
        let all = unsafe { scheduler(s)? }.frequencies()?;
        if all.len() > out_cap {
            len.write(all.len());
            return Err(FfiError::new(
                CRAWLSCHED_BUFFER_TOO_SMALL,
                format!(
                    "output buffers hold {out_cap} elements, {} needed",
                    all.len()
                ),
            ));
        }
        for &(_, f) in &all {
            finite("frequency", f)?; // checked before writing anything
        }
        for (k, &(id, f)) in all.iter().enumerate() {
            ids[k] = id;
            freqs[k] = f;
        }
        len.write(all.len());
        Ok(())
    })
}

/// The next n pages to crawl, in order, into out_ids[0..n] (one call instead
/// of n, for bindings where each call is costly). All or nothing: the ids
/// are collected first (8 bytes each, checked against the memory cap:
/// CRAWLSCHED_TOO_LARGE beyond it). CRAWLSCHED_NOT_FOUND when n > 0 and no
/// page is scheduled.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_next_batch(
    s: *const crawlsched_scheduler_t,
    out_ids: *mut u64,
    n: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let dst = unsafe { slice_out(out_ids, n, "out_ids")? };
        // Out-parameters are written only on success: a failure after some
        // pages (found by fuzzing) must leave out_ids untouched.
        let ids = unsafe { scheduler(s)? }.next_batch(n)?;
        dst.copy_from_slice(&ids);
        Ok(())
    })
}

/// Number of pages scheduled.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_len(
    s: *const crawlsched_scheduler_t,
    out: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        out.write(unsafe { scheduler(s)? }.len());
        Ok(())
    })
}

/// Page `id`'s current change-rate estimate.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_change_rate(
    s: *const crawlsched_scheduler_t,
    id: u64,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        out.write(finite(
            "change rate",
            unsafe { scheduler(s)? }.change_rate(id)?,
        )?);
        Ok(())
    })
}

/// Page `id`'s current target share of all crawls (frequencies sum to 1).
/// Stride mode realises it exactly in the long run; golden-ratio mode gives
/// each page with share * F >= 1 a whole number of crawls per cycle of
/// F >= 8N slots and lets the pages below one crawl per cycle take turns at
/// pooled slots (one crawl about every 1 / (share * F) cycles), so long-run
/// shares differ from it by less than 2/F.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_frequency(
    s: *const crawlsched_scheduler_t,
    id: u64,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        out.write(finite(
            "frequency",
            unsafe { scheduler(s)? }.frequency(id)?,
        )?);
        Ok(())
    })
}
