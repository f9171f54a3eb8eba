//! C API of [`crate::freshness::shard::MultiplierSearch`]: the driver of a
//! distributed freshness solve, which finds the multiplier from the
//! shards' sums alone.

#![allow(non_camel_case_types)]

use super::common::*;
use crate::freshness::shard::{GridSum, MultiplierSearch, MultiplierStep, ShardSummary, ShardSums};
use std::sync::Mutex;

/// The search for the multiplier ln_lambda at which the frequencies of all
/// shards sum to 1. Loop: crawlsched_freshness_multiplier_search_next();
/// if not done, every shard evaluates crawlsched_freshness_shard_sum_at()
/// at the proposed ln_lambda and the totals go to
/// crawlsched_freshness_multiplier_search_update(). Mutable; calls are
/// serialised internally, so a handle may be shared between threads. Free
/// with crawlsched_freshness_multiplier_search_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_freshness_multiplier_search_t {
    magic: u64,
    pub(super) inner: Mutex<MultiplierSearch>,
}
impl_handle!(
    crawlsched_freshness_multiplier_search_t,
    Mutex<MultiplierSearch>,
    "multiplier search",
    0x6372_6177_6c6d_7573
);

/// A search over all shards, from their combined summaries (see
/// crawlsched_freshness_shard_summary()): sum_a > 0 and
/// ln_w_min <= ln_w_max, all finite.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_multiplier_search_new(
    sum_a: f64,
    ln_w_min: f64,
    ln_w_max: f64,
    out: *mut *mut crawlsched_freshness_multiplier_search_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let total = ShardSummary {
            sum_a,
            ln_w_min,
            ln_w_max,
        };
        publish(MultiplierSearch::new(total).map(Mutex::new), out)
    })
}

/// Releases a search. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_multiplier_search_free(
    search: *mut crawlsched_freshness_multiplier_search_t,
) {
    guard_value((), || unsafe { free_handle(search) })
}

/// What to do next: *done = 0 and *ln_lambda the multiplier at which to
/// evaluate the shards' sums, or *done = 1 and *ln_lambda the final
/// multiplier for crawlsched_freshness_shard_frequencies_at().
/// CRAWLSCHED_NOT_CONVERGED after 500 evaluations.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_multiplier_search_next(
    search: *const crawlsched_freshness_multiplier_search_t,
    done: *mut i32,
    ln_lambda: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let s = unsafe { handle(search, "search")? };
        let (out_done, out_x) = (Out::new(done, "done")?, Out::new(ln_lambda, "ln_lambda")?);
        let (d, x) = match lock(&s.inner, "multiplier search")?.next()? {
            MultiplierStep::Evaluate(x) => (0, x),
            MultiplierStep::Done(x) => (1, x),
        };
        out_done.write(d);
        out_x.write(x);
        Ok(())
    })
}

/// The totals over all shards of crawlsched_freshness_shard_sum_at() at
/// the ln_lambda last proposed: sum >= 0 and dsum <= 0, both finite, and
/// the exact sum's words (the shards' exact sums added as saturating
/// unsigned 128-bit integers). The float sums steer the search; once the
/// sum is within about 1e-9 of 1 the exact ones decide, and the search
/// ends at the smallest double ln_lambda at which the exact sum is at
/// most 1, the same however the pages are split. Ignored once the search
/// is done. CRAWLSCHED_NOT_CONVERGED if the exact sums rise with
/// ln_lambda.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_multiplier_search_update(
    search: *const crawlsched_freshness_multiplier_search_t,
    sum: f64,
    dsum: f64,
    exact_hi: u64,
    exact_lo: u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let s = unsafe { handle(search, "search")? };
        let total = ShardSums {
            sum,
            dsum,
            exact: GridSum::from_words(exact_hi, exact_lo),
        };
        lock(&s.inner, "multiplier search")?.update(total)?;
        Ok(())
    })
}
