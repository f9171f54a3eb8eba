//! C API of [`crate::freshness::shard`]: the freshness optimum evaluated per
//! shard of pages at a multiplier in absolute units, for solves that a
//! distributed engine drives (each shard on its own machine, the driver in
//! crawlsched_freshness_multiplier_search_t).

#![allow(non_camel_case_types)]

use super::common::*;
use super::freshness_model::crawlsched_freshness_model_t;
use crate::freshness::shard::Shard;

/// Some pages of a general-weights freshness model: answers, at a
/// multiplier ln_lambda (absolute units, the same on every shard), its sum
/// of optimal frequencies and their derivative, and once the multiplier is
/// final the frequencies themselves. Immutable: one handle may be used
/// from any number of threads at once. Free with
/// crawlsched_freshness_shard_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_freshness_shard_t {
    magic: u64,
    pub(super) inner: Shard,
}
impl_handle!(
    crawlsched_freshness_shard_t,
    Shard,
    "freshness shard",
    0x6372_6177_6c73_6864
);

/// The shard of all of `model`'s pages (build one model per shard, all
/// with the same access distribution). The shard copies what it needs:
/// `model` may be freed afterwards. It holds 40 bytes per page, checked
/// against the process-wide memory cap (CRAWLSCHED_TOO_LARGE).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_shard_new(
    model: *const crawlsched_freshness_model_t,
    out: *mut *mut crawlsched_freshness_shard_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let m = unsafe { handle(model, "model")? };
        publish(Shard::new(&m.inner), out)
    })
}

/// Releases a shard. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_shard_free(shard: *mut crawlsched_freshness_shard_t) {
    guard_value((), || unsafe { free_handle(shard) })
}

/// The shard's summary: sum_a = sum of -ln h_i (at most DBL_MAX: a sum
/// that overflows, from pages with ln h_i near -DBL_MAX, is DBL_MAX, as
/// the search takes it), and the range [ln_w_min, ln_w_max] of its pages'
/// ln weights in absolute units.
/// Combine the shards' summaries (add sum_a, min of ln_w_min, max of
/// ln_w_max) for crawlsched_freshness_multiplier_search_new().
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_shard_summary(
    shard: *const crawlsched_freshness_shard_t,
    sum_a: *mut f64,
    ln_w_min: *mut f64,
    ln_w_max: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let s = unsafe { handle(shard, "shard")? };
        let outs = (
            Out::new(sum_a, "sum_a")?,
            Out::new(ln_w_min, "ln_w_min")?,
            Out::new(ln_w_max, "ln_w_max")?,
        );
        let v = s.inner.summary();
        outs.0.write(v.sum_a);
        outs.1.write(v.ln_w_min);
        outs.2.write(v.ln_w_max);
        Ok(())
    })
}

/// The sum of the shard's frequencies x_i at ln_lambda (finite) into
/// *sum, its derivative against ln_lambda (<= 0) into *dsum, and the sum
/// exactly: each x_i truncated to a multiple of 2^-80 and added as an
/// integer, (*exact_hi * 2^64 + *exact_lo) * 2^-80 (an unsigned 128-bit
/// count of 2^-80, saturating at 2^128 - 1). Add the shards' exact sums as
/// saturating unsigned 128-bit integers: they do not depend on how the
/// pages are split, and end the search. O(N), multithreaded.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_shard_sum_at(
    shard: *const crawlsched_freshness_shard_t,
    ln_lambda: f64,
    sum: *mut f64,
    dsum: *mut f64,
    exact_hi: *mut u64,
    exact_lo: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let s = unsafe { handle(shard, "shard")? };
        let (out_sum, out_dsum) = (Out::new(sum, "sum")?, Out::new(dsum, "dsum")?);
        let (out_hi, out_lo) = (
            Out::new(exact_hi, "exact_hi")?,
            Out::new(exact_lo, "exact_lo")?,
        );
        let sums = s.inner.sum_at(ln_lambda)?;
        let (v, d) = (finite("sum", sums.sum)?, finite("dsum", sums.dsum)?);
        let (hi, lo) = sums.exact.words();
        out_sum.write(v);
        out_dsum.write(d);
        out_hi.write(hi);
        out_lo.write(lo);
        Ok(())
    })
}

/// The shard's frequencies x_i at ln_lambda into out[0..N] (out_cap >= N,
/// N the shard's pages, in the model's order). At the final ln_lambda of
/// crawlsched_freshness_multiplier_search_next() the frequencies of all
/// shards sum to 1 and are the same bits as
/// crawlsched_freshness_optimal_frequencies() of all pages, however the
/// pages are split (unless one ulp of ln_lambda moves the sum by more than
/// 1e-14: |ln_lambda| beyond about 50, or a page so near its cutoff that
/// its frequency jumps between adjacent doubles; then the shards'
/// frequencies may sum to less than 1 by that much).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_shard_frequencies_at(
    shard: *const crawlsched_freshness_shard_t,
    ln_lambda: f64,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let s = unsafe { handle(shard, "shard")? };
        let dst = unsafe { out_exact(out, out_cap, s.inner.len(), "out")? };
        write_finite(dst, &s.inner.frequencies_at(ln_lambda)?, "frequency")
    })
}
