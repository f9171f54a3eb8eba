//! C API of [`crate::freshness::scheduler`]: the freshness scheduler, a
//! streaming crawl order for a changing set of pages.

#![allow(non_camel_case_types)]

use super::common::*;
use super::dist::crawlsched_dist_t;
use crate::freshness::scheduler::{Pick, Scheduler, SchedulerMode};
use std::sync::Mutex;

/// Scheduler mode: each page's crawls evenly spaced in virtual time.
pub const CRAWLSCHED_SCHEDULER_STRIDE: i32 = 0;
/// Scheduler mode: golden-ratio cycles rebuilt at cycle boundaries (§5-6).
pub const CRAWLSCHED_SCHEDULER_GOLDEN_RATIO: i32 = 1;

/// A streaming crawl scheduler for a changing set of pages identified by
/// 64-bit ids: next() says which page to crawl now, at the optimal
/// frequencies for the current change-rate estimates. Mutable; calls are
/// serialised internally, so crawler threads may share one handle. Free
/// with crawlsched_scheduler_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_scheduler_t {
    magic: u64,
    pub(super) inner: Mutex<Scheduler>,
}
impl_handle!(
    crawlsched_scheduler_t,
    Mutex<Scheduler>,
    "scheduler",
    0x6372_6177_6c73_6368
);

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
        publish(Ok(s), out)
    })
}

/// Releases a scheduler. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_free(s: *mut crawlsched_scheduler_t) {
    guard_value((), || unsafe { free_handle(s) })
}

/// Adds page `id` with an initial change-rate guess > 0; its cost weight is
/// its change rate. A duplicate id is CRAWLSCHED_INVALID_ARGUMENT; a page
/// beyond the memory cap (768 bytes per page, so that the recomputations
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

/// Adds the n pages ids[i], with initial change-rate guesses
/// change_rates[i] > 0 and cost weights weights[i] > 0 or, when weights
/// is NULL, weights equal to the change rates (as
/// crawlsched_scheduler_add_page). Same result and schedule as n calls of
/// crawlsched_scheduler_add_page / _add_weighted_page in order, but one
/// call, one memory check and no per-page work beyond the page records
/// (10^6 pages in about half a second, half the time of n single calls).
/// All or nothing: on any error no page is added. n = 0 adds nothing and
/// succeeds (any pointers). ids and change_rates (and weights unless NULL)
/// hold n elements; they are read during the call, not kept. Errors:
/// CRAWLSCHED_NULL_ARGUMENT for a NULL ids or change_rates with n > 0;
/// CRAWLSCHED_TOO_LARGE when the scheduler would exceed 2^22 pages or the
/// memory cap (768 bytes per page), checked before any element is read;
/// CRAWLSCHED_INVALID_ARGUMENT for an id already scheduled, a bad rate or
/// weight (the message names the first, e.g. "change_rates[17]"), or an id
/// repeated within the batch. Thread-safe: serialised with the handle's
/// other calls.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_add_pages(
    s: *const crawlsched_scheduler_t,
    ids: *const u64,
    change_rates: *const f64,
    weights: *const f64,
    n: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let ids = unsafe { slice_in(ids, n, "ids")? };
        let rates = unsafe { slice_in(change_rates, n, "change_rates")? };
        let weights = if weights.is_null() {
            None
        } else {
            Some(unsafe { slice_in(weights, n, "weights")? })
        };
        let page = |k: usize| (ids[k], rates[k], weights.map(|w| w[k]));
        Ok(unsafe { scheduler(s)? }.add_pages_with(n, page)?)
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

/// The page to crawl now. With hosts, picks are on a clock of crawl slots,
/// one per mean crawl time E[X]: a host of delay d is picked at most once
/// in k slots, k the least whole number with k * E[X] >= d, and the plan
/// caps it at 1/k of the picks (slots where no host is ready are skipped).
/// CRAWLSCHED_NOT_FOUND when no page is scheduled or no host with pages
/// will ever be ready; CRAWLSCHED_INVALID_ARGUMENT with hosts after
/// crawlsched_scheduler_next_at (a scheduler with hosts keeps the clock of
/// its first pick).
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
        let out = unsafe { PairsOut::new(out_ids, out_freqs, "out_freqs", out_cap, out_len)? };
        out.write(&unsafe { scheduler(s)? }.frequencies()?, "frequency")
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
        // pages must leave out_ids untouched.
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
        write_value(out, "change rate", || {
            Ok(unsafe { scheduler(s)? }.change_rate(id)?)
        })
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
        write_value(out, "frequency", || {
            Ok(unsafe { scheduler(s)? }.frequency(id)?)
        })
    })
}

/// Puts page `id` on host `host` (any uint32_t; a host is a politeness
/// group, e.g. an index into the caller's table of host names), effective
/// from the next pick. A page has at most one host; this replaces its
/// previous one. CRAWLSCHED_NOT_FOUND for an unknown id;
/// CRAWLSCHED_TOO_LARGE when a new host record (1024 bytes) would pass the
/// memory cap. Thread-safe: serialised with the handle's other calls.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_set_host(
    s: *const crawlsched_scheduler_t,
    id: u64,
    host: u32,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || Ok(unsafe { scheduler(s)? }.set_host(id, host)?))
}

/// Takes page `id` off its host (a no-op when it has none).
/// CRAWLSCHED_NOT_FOUND for an unknown id.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_clear_host(
    s: *const crawlsched_scheduler_t,
    id: u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || Ok(unsafe { scheduler(s)? }.clear_host(id)?))
}

/// Page `id`'s host: *out_has_host = 1 and *out_host = its host, or
/// *out_has_host = 0 and *out_host = 0 when it has none (not an error).
/// CRAWLSCHED_NOT_FOUND only for an unknown page id.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_host(
    s: *const crawlsched_scheduler_t,
    id: u64,
    out_host: *mut u32,
    out_has_host: *mut i32,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out_host = Out::new(out_host, "out_host")?;
        let out_has = Out::new(out_has_host, "out_has_host")?;
        let host = unsafe { scheduler(s)? }.host(id)?;
        write_flagged(host, out_host, out_has, 0);
        Ok(())
    })
}

/// Sets host `host`'s minimum delay >= 0 (finite) between two picks of its
/// pages, in the time unit of crawlsched_scheduler_next_at's `now` and of
/// the crawl times (crawlsched_scheduler_next rounds it up to whole slots
/// of the mean crawl time). Hosts never set have 0. A host
/// keeps its delay and last pick time while it has no pages. Takes effect
/// at the next pick. CRAWLSCHED_INVALID_ARGUMENT for a NaN, negative or
/// infinite delay; CRAWLSCHED_TOO_LARGE when a new host record would pass
/// the memory cap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_set_host_delay(
    s: *const crawlsched_scheduler_t,
    host: u32,
    delay: f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        Ok(unsafe { scheduler(s)? }.set_host_delay(host, delay)?)
    })
}

/// Host `host`'s minimum delay (0 when none was set).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_host_delay(
    s: *const crawlsched_scheduler_t,
    host: u32,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        write_value(out, "delay", || {
            Ok(unsafe { scheduler(s)? }.host_delay(host))
        })
    })
}

/// The page to crawl at time `now` on the caller's clock, or how long to
/// wait. `now` is any finite reading of the caller's clock (the unit of the
/// host delays), non-decreasing from call to call. On CRAWLSCHED_OK either
/// *out_ready = 1, *out_id = the page to crawl now and *out_wait = 0, or
/// *out_ready = 0, *out_id = 0 and *out_wait > 0: every host with pages to
/// crawl is in its delay, and calling again at now + *out_wait returns a
/// page. A page of host h is returned only if the last pick of a page of h
/// was at a time t with
/// now - t >= delay of h, as computed in double precision; pages without a
/// host are always ready. While a host with pages has a delay, the
/// frequencies are the polite plan's (crawlsched_freshness_polite_frequencies,
/// evenly spaced objective): the optimum with host h capped at 1/delay
/// picks per unit time for a caller that picks once per mean crawl time
/// E[X] (pages without a host, or on hosts without a delay, uncapped);
/// each page's long-run share of the picks is then its frequency, a capped
/// host's total E[X]/delay, when the caller's clock can pick the host
/// every delay. Caps that cannot absorb 1/E[X] leave slack
/// (frequencies summing below 1): the answer is then a wait for the rest
/// of the time. Without any host this is crawlsched_scheduler_next (same
/// schedule). Errors:
/// CRAWLSCHED_INVALID_ARGUMENT for `now` NaN, infinite or before the
/// previous call's, or after crawlsched_scheduler_next picked with hosts
/// (one clock per scheduler); CRAWLSCHED_NOT_FOUND when no page is scheduled (or none
/// has a positive frequency). Thread-safe: serialised with the handle's
/// other calls (a shared clock must then be read inside the caller's own
/// lock to stay non-decreasing).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_next_at(
    s: *const crawlsched_scheduler_t,
    now: f64,
    out_id: *mut u64,
    out_wait: *mut f64,
    out_ready: *mut i32,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out_id = Out::new(out_id, "out_id")?;
        let out_wait = Out::new(out_wait, "out_wait")?;
        let out_ready = Out::new(out_ready, "out_ready")?;
        let (id, wait, ready) = match unsafe { scheduler(s)? }.next_at(now)? {
            Pick::Page(id) => (id, 0.0, 1),
            Pick::Wait(w) => (0, finite("wait", w)?, 0),
        };
        out_id.write(id);
        out_wait.write(wait);
        out_ready.write(ready);
        Ok(())
    })
}

/// Page `id`'s change-rate estimator state (its visits so far and its
/// prior; the format of crawlsched_estimator_export_state, at most
/// CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES bytes), for a crawler to keep in
/// the page's metadata and give back to crawlsched_scheduler_set_page_state
/// in a later run. Variable size: *out_len receives the number of bytes
/// written, or on CRAWLSCHED_BUFFER_TOO_SMALL the number needed.
/// CRAWLSCHED_NOT_FOUND for an unknown id.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_page_state(
    s: *const crawlsched_scheduler_t,
    id: u64,
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = unsafe { OutBuffer::new(out, out_cap, out_len, "out")? };
        out.write(&unsafe { scheduler(s)? }.page_state(id)?)
    })
}

/// Replaces page `id`'s estimator with the `len` bytes of a state from
/// crawlsched_scheduler_page_state or crawlsched_estimator_export_state and
/// adopts its estimate as the page's change rate (as
/// crawlsched_scheduler_observe adopts each new estimate). After
/// crawlsched_scheduler_add_page in a new run, importing the state saved in
/// the previous one continues the page exactly as if the run had not
/// stopped. Errors: CRAWLSCHED_NOT_FOUND for an unknown id;
/// CRAWLSCHED_INVALID_ARGUMENT for bytes that are not a state (as
/// crawlsched_estimator_new_from_state; the page is then unchanged);
/// CRAWLSCHED_NULL_ARGUMENT for NULL bytes with len > 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_set_page_state(
    s: *const crawlsched_scheduler_t,
    id: u64,
    bytes: *const u8,
    len: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let bytes = unsafe { slice_in(bytes, len, "bytes")? };
        Ok(unsafe { scheduler(s)? }.set_page_state(id, bytes)?)
    })
}

/// Page `id`'s revisit interval under the plan: E[X] / f_i time units, with
/// E[X] the mean crawl time (the plan makes 1/E[X] crawls per unit time)
/// and f_i the page's frequency (crawlsched_scheduler_frequency), or 0 when
/// the plan never crawls the page (f_i = 0). For a budget of B crawls per
/// unit time, build the scheduler with crawl times of mean 1/B. O(1)
/// amortised: after visits reported by crawlsched_scheduler_observe, f_i
/// may be that of a plan up to N calls old (the plan is recomputed once
/// per N calls, at once after pages, rates, hosts or delays change).
/// CRAWLSCHED_NOT_FOUND for an unknown id.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_revisit_interval(
    s: *const crawlsched_scheduler_t,
    id: u64,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        write_value(out, "revisit interval", || {
            Ok(unsafe { scheduler(s)? }
                .revisit_interval(id)?
                .unwrap_or(0.0))
        })
    })
}

/// When page `id`, last crawled at `last_visit` (finite, on the clock of
/// the rates and crawl times), is next due under the plan: *out_has_due = 1
/// and *out_due = last_visit + its revisit interval, or *out_has_due = 0
/// and *out_due = 0 when the plan never crawls it. Errors:
/// CRAWLSCHED_NOT_FOUND for an unknown id; CRAWLSCHED_INVALID_ARGUMENT for
/// a NaN or infinite last_visit; CRAWLSCHED_TOO_LARGE when the sum
/// overflows.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_next_due(
    s: *const crawlsched_scheduler_t,
    id: u64,
    last_visit: f64,
    out_due: *mut f64,
    out_has_due: *mut i32,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out_due = Out::new(out_due, "out_due")?;
        let out_has = Out::new(out_has_due, "out_has_due")?;
        let due = unsafe { scheduler(s)? }.next_due(id, last_visit)?;
        write_flagged(due, out_due, out_has, 0.0);
        Ok(())
    })
}

/// Every page's revisit interval (as crawlsched_scheduler_revisit_interval
/// gives one page's, 0 for a page never crawled), with the page ids, sorted
/// by id: out_ids[i] has interval out_intervals[i]. Both arrays hold
/// out_cap elements; *out_len receives the number of pages (variable size).
/// One O(N) computation for all pages. CRAWLSCHED_NOT_FOUND when no page
/// is scheduled.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_scheduler_revisit_intervals(
    s: *const crawlsched_scheduler_t,
    out_ids: *mut u64,
    out_intervals: *mut f64,
    out_cap: usize,
    out_len: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out =
            unsafe { PairsOut::new(out_ids, out_intervals, "out_intervals", out_cap, out_len)? };
        let all = unsafe { scheduler(s)? }.revisit_intervals()?;
        let all: Vec<(u64, f64)> = all
            .into_iter()
            .map(|(id, i)| (id, i.unwrap_or(0.0)))
            .collect();
        out.write(&all, "revisit interval")
    })
}

/// A variable-size result of (page id, value) pairs in two arrays of
/// `out_cap` elements each, checked before the work.
struct PairsOut<'a> {
    ids: &'a mut [u64],
    values: &'a mut [f64],
    len: Out<usize>,
}

impl PairsOut<'_> {
    /// # Safety
    /// When non-NULL, `ids` and `values` point to `cap` writable elements.
    unsafe fn new(
        ids: *mut u64,
        values: *mut f64,
        values_name: &str,
        cap: usize,
        len: *mut usize,
    ) -> FfiResult<Self> {
        let len = Out::new(len, "out_len")?;
        Ok(PairsOut {
            ids: unsafe { slice_out(ids, cap, "out_ids")? },
            values: unsafe { slice_out(values, cap, values_name)? },
            len,
        })
    }

    /// Copies `all` out if it fits (BUFFER_TOO_SMALL with the count needed
    /// otherwise) and every value is finite (`what` names them), else
    /// writes nothing.
    fn write(self, all: &[(u64, f64)], what: &str) -> FfiResult<()> {
        let cap = self.ids.len();
        if all.len() > cap {
            return Err(too_small(self.len, "output buffers hold", cap, all.len()));
        }
        for &(_, v) in all {
            finite(what, v)?;
        }
        for (k, &(id, v)) in all.iter().enumerate() {
            self.ids[k] = id;
            self.values[k] = v;
        }
        self.len.write(all.len());
        Ok(())
    }
}

/// An optional result as C's value-and-flag pair: `value` and 1, or `none`
/// and 0.
fn write_flagged<T>(value: Option<T>, out: Out<T>, out_has: Out<i32>, none: T) {
    out_has.write(i32::from(value.is_some()));
    out.write(value.unwrap_or(none));
}
