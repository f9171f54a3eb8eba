//! C API of [`crate::routing`]'s arrival processes (Poisson, MMPP, MAP)
//! that feed a server set.

#![allow(non_camel_case_types)]

use super::common::*;
use crate::routing::ArrivalProcess;

/// A stationary arrival process with single arrivals: Poisson, MMPP or MAP
/// (paper §5). Immutable: one handle may be used from any number of threads
/// at once. Free with crawlsched_routing_arrivals_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_routing_arrivals_t {
    magic: u64,
    pub(super) inner: ArrivalProcess,
}
impl_handle!(
    crawlsched_routing_arrivals_t,
    ArrivalProcess,
    "routing arrivals",
    0x6372_6177_6c72_6172
);

/// Poisson arrivals of rate > 0. On success `*out` owns a new handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_arrivals_poisson_new(
    rate: f64,
    out: *mut *mut crawlsched_routing_arrivals_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        publish(ArrivalProcess::poisson(rate), Out::new(out, "out")?)
    })
}

/// MMPP (paper §5.1): phase generator q (n x n, row-major, q_len = n*n,
/// rows summing to 0, irreducible) and arrival rates[i] >= 0 in phase i,
/// not all 0. The arrays are copied.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_arrivals_mmpp_new(
    q: *const f64,
    q_len: usize,
    rates: *const f64,
    n: usize,
    out: *mut *mut crawlsched_routing_arrivals_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        publish_from(out, [(q, q_len, "q"), (rates, n, "rates")], |[q, r]| {
            ArrivalProcess::mmpp(q, r)
        })
    })
}

/// MAP (paper §5.2) of order n: C = d0 (no arrival) and D = d1 (one
/// arrival), each n x n row-major with d0_len = d1_len = n*n; C + D must be
/// an irreducible generator. The arrays are copied.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_arrivals_map_new(
    n: usize,
    d0: *const f64,
    d0_len: usize,
    d1: *const f64,
    d1_len: usize,
    out: *mut *mut crawlsched_routing_arrivals_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        publish_from(out, [(d0, d0_len, "d0"), (d1, d1_len, "d1")], |[c, d]| {
            ArrivalProcess::map(n, c, d)
        })
    })
}

/// Releases an arrival process. NULL is a no-op. Server sets built from it
/// keep their own copy.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_arrivals_free(a: *mut crawlsched_routing_arrivals_t) {
    guard_value((), || unsafe { free_handle(a) })
}

/// Mean arrival rate lambda (packets per unit time; E tau = 1/lambda).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_arrivals_rate(
    a: *const crawlsched_routing_arrivals_t,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let a = unsafe { handle(a, "arrivals")? };
        write_value(out, "rate", || Ok(a.inner.rate()))
    })
}

/// E exp(-mu (tau_1 + ... + tau_k)) = q f*(mu)^k e (Lemma 5.2): the
/// probability that a packet on an exponential server of rate mu > 0 is
/// still in service k >= 1 arrivals later. Cost O(k d^2) for arrivals of
/// order d: CRAWLSCHED_TOO_LARGE, before any work, when k * 2d^2 > 2^31.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_arrivals_transform(
    a: *const crawlsched_routing_arrivals_t,
    mu: f64,
    k: u32,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let a = unsafe { handle(a, "arrivals")? };
        write_value(out, "transform", || {
            Ok(a.inner.transform(mu, k as usize)?)
        })
    })
}
