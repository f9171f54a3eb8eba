//! C API of [`crate::freshness::estimator`]: the freshness estimator of one
//! page's change rate (the μ_i of the freshness model) from censored visits.

#![allow(non_camel_case_types)]

use super::common::*;
use crate::freshness::estimator::{ChangeRateEstimator, MAX_STATE_BYTES};
use std::sync::Mutex;

/// Estimates one page's change rate from visits that only tell whether the
/// page changed since the previous visit (maximum likelihood for censored
/// Poisson observations; consistent for irregular intervals, unlike the
/// naive ratio changes/time). Mutable; calls are serialised internally, so
/// a handle may be shared between threads. Free with
/// crawlsched_estimator_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_estimator_t {
    magic: u64,
    pub(super) inner: Mutex<ChangeRateEstimator>,
}
impl_handle!(
    crawlsched_estimator_t,
    Mutex<ChangeRateEstimator>,
    "estimator",
    0x6372_6177_6c65_7374
);

/// A new estimator without prior knowledge.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_estimator_new(
    out: *mut *mut crawlsched_estimator_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        publish(Ok(ChangeRateEstimator::new()), Out::new(out, "out")?)
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
        publish(
            Ok(ChangeRateEstimator::with_prior(rate_guess, weight_time)?),
            out,
        )
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

/// Most bytes an estimator state takes (crawlsched_estimator_export_state,
/// crawlsched_scheduler_page_state): a buffer of this size never gives
/// CRAWLSCHED_BUFFER_TOO_SMALL. A page with fewer than 2^35 visits takes at
/// most 878.
pub const CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES: usize = 1135;
// A literal for cbindgen, kept equal to the model's bound.
const _: () = assert!(CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES == MAX_STATE_BYTES);

/// The estimator's state: its visits so far, bucketed, and its prior, in
/// the versioned little-endian format of docs/c-api.md ("Estimator
/// state"), at most CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES bytes, for a
/// crawler to keep in the page's own metadata instead of its visit
/// history. Variable size: *out_len receives the number of bytes written,
/// or on CRAWLSCHED_BUFFER_TOO_SMALL the number needed (out = NULL,
/// out_cap = 0 asks for it). crawlsched_estimator_new_from_state restores
/// the estimator exactly.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_estimator_export_state(
    est: *const crawlsched_estimator_t,
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let e = unsafe { handle(est, "est")? };
        let out = unsafe { OutBuffer::new(out, out_cap, out_len, "out")? };
        out.write(&lock(&e.inner, "estimator")?.to_bytes())
    })
}

/// A new estimator restored from the `len` bytes of a state written by
/// crawlsched_estimator_export_state or crawlsched_scheduler_page_state
/// (of any run or process): the same estimate, bit for bit, and the same
/// results for every later visit. CRAWLSCHED_INVALID_ARGUMENT for bytes
/// that are not such a state (wrong magic byte or version, truncated or
/// trailing bytes, NaN, infinite or negative times, unsorted buckets,
/// counts inconsistent with the visits; the message names the field);
/// CRAWLSCHED_NULL_ARGUMENT for NULL bytes with len > 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_estimator_new_from_state(
    bytes: *const u8,
    len: usize,
    out: *mut *mut crawlsched_estimator_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let bytes = unsafe { slice_in(bytes, len, "bytes")? };
        publish(ChangeRateEstimator::from_bytes(bytes), out)
    })
}
