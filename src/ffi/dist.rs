//! C API of [`crate::dist`]: access-time distributions.

#![allow(non_camel_case_types)]

use super::common::*;
use crate::dist::fit;
use crate::dist::{Distribution, PhaseType};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// A probability distribution of a non-negative time (e.g. the time one
/// crawl takes). Immutable after creation: one handle may be used from any
/// number of threads at once. Free with crawlsched_dist_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_dist_t {
    magic: u64,
    pub(super) inner: Distribution,
}
impl_handle!(
    crawlsched_dist_t,
    Distribution,
    "distribution",
    0x6372_6177_6c64_6973
);

/// X = value (>= 0) with probability one. On success `*out` owns a new handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_deterministic_new(
    value: f64,
    out: *mut *mut crawlsched_dist_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        publish(Distribution::deterministic(value), Out::new(out, "out")?)
    })
}

/// Exponential with rate > 0 (mean 1/rate).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_exponential_new(
    rate: f64,
    out: *mut *mut crawlsched_dist_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        publish(Distribution::exponential(rate), Out::new(out, "out")?)
    })
}

/// Erlang: sum of k >= 1 exponentials of rate > 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_erlang_new(
    k: u32,
    rate: f64,
    out: *mut *mut crawlsched_dist_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        publish(Distribution::erlang(k, rate), Out::new(out, "out")?)
    })
}

/// Gamma with shape > 0 and rate > 0 (mean shape/rate).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_gamma_new(
    shape: f64,
    rate: f64,
    out: *mut *mut crawlsched_dist_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        publish(Distribution::gamma(shape, rate), Out::new(out, "out")?)
    })
}

/// Hyperexponential: rate rates[i] with probability probs[i], i < n.
/// probs must sum to 1. The arrays are copied.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_hyperexponential_new(
    probs: *const f64,
    rates: *const f64,
    n: usize,
    out: *mut *mut crawlsched_dist_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        publish_from(out, [(probs, n, "probs"), (rates, n, "rates")], |[p, r]| {
            Distribution::hyperexponential(p, r)
        })
    })
}

/// Phase-type PH(alpha, S) of order n: alpha has n entries (sum <= 1, the
/// rest is an atom at zero), S is the n x n sub-generator in row-major
/// order (s_len = n*n). The arrays are copied. CRAWLSCHED_TOO_LARGE when
/// the dense n x n working matrices (16 n^2 doubles, for the cdf) would
/// exceed the process-wide memory cap (crawlsched_set_default_memory_limit).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_phase_type_new(
    alpha: *const f64,
    n: usize,
    s: *const f64,
    s_len: usize,
    out: *mut *mut crawlsched_dist_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        publish_from(out, [(alpha, n, "alpha"), (s, s_len, "s")], |[a, m]| {
            PhaseType::new(a, m).map(Distribution::PhaseType)
        })
    })
}

/// Coxian of n phases: phase i has rate rates[i] and continues to phase
/// i+1 with probability cont[i] (cont_len = n-1), else ends. Stored as a
/// dense phase-type: CRAWLSCHED_TOO_LARGE as for
/// crawlsched_dist_phase_type_new (16 n^2 doubles against the memory cap).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_coxian_new(
    rates: *const f64,
    n: usize,
    cont: *const f64,
    cont_len: usize,
    out: *mut *mut crawlsched_dist_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        publish_from(
            out,
            [(rates, n, "rates"), (cont, cont_len, "cont")],
            |[r, c]| PhaseType::coxian(r, c).map(Distribution::PhaseType),
        )
    })
}

/// Empirical distribution of n >= 1 observed samples (finite, >= 0),
/// each equally likely. The array is copied.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_empirical_new(
    samples: *const f64,
    n: usize,
    out: *mut *mut crawlsched_dist_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        publish_from(out, [(samples, n, "samples")], |[xs]| {
            Distribution::empirical(xs)
        })
    })
}

/// Releases a distribution. NULL is a no-op. Handles derived from it (e.g.
/// a freshness model) keep their own copy and stay valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_free(dist: *mut crawlsched_dist_t) {
    guard_value((), || unsafe { free_handle(dist) })
}

/// E[X].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_mean(
    dist: *const crawlsched_dist_t,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let d = unsafe { handle(dist, "dist")? };
        write_value(out, "mean", || Ok(d.inner.mean()))
    })
}

/// Var[X].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_variance(
    dist: *const crawlsched_dist_t,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let d = unsafe { handle(dist, "dist")? };
        write_value(out, "variance", || Ok(d.inner.variance()))
    })
}

/// The raw moment E[X^k]; CRAWLSCHED_NUMERICAL if it overflows a double.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_moment(
    dist: *const crawlsched_dist_t,
    k: u32,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let d = unsafe { handle(dist, "dist")? };
        write_value(out, "moment", || Ok(d.inner.moment(k)))
    })
}

/// The Laplace transform E[exp(-s X)] at s >= 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_laplace(
    dist: *const crawlsched_dist_t,
    s: f64,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let d = unsafe { handle(dist, "dist")? };
        write_value(out, "Laplace transform", || Ok(d.inner.laplace(s)?))
    })
}

/// P(X <= x) for finite x.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_cdf(
    dist: *const crawlsched_dist_t,
    x: f64,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let d = unsafe { handle(dist, "dist")? };
        write_value(out, "cdf", || Ok(d.inner.cdf(x)?))
    })
}

/// Fills out[0..n] with independent draws of X from a generator seeded by
/// `seed` (same seed, same draws, on every platform and binding).
/// CRAWLSCHED_NUMERICAL, with out untouched, when a draw is not a finite
/// double (a scale near the largest double, e.g. exponential(5e-324)) or a
/// phase-type draw takes more than 10^8 phase changes; the draws are made
/// twice (checked, then written), so a call costs two passes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_sample(
    dist: *const crawlsched_dist_t,
    seed: u64,
    out: *mut f64,
    n: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let d = unsafe { handle(dist, "dist")? };
        let buf = unsafe { slice_out(out, n, "out")? };
        // Checked before anything is written: out is untouched on error.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for _ in 0..buf.len() {
            d.inner.try_sample(&mut rng)?;
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for x in buf.iter_mut() {
            *x = d.inner.sample(&mut rng);
        }
        Ok(())
    })
}

/// An acyclic phase-type distribution of order 2 with moments E[X] = m1,
/// E[X^2] = m2, E[X^3] = m3 (order 1 for the exponential).
/// CRAWLSCHED_INFEASIBLE outside the ACPH(2) region (e.g. squared
/// coefficient of variation < 1/2). The result is a crawlsched_dist_t.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_fit_aph2_new(
    m1: f64,
    m2: f64,
    m3: f64,
    out: *mut *mut crawlsched_dist_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        publish(
            fit::fit_aph2(m1, m2, m3).map(Distribution::PhaseType),
            Out::new(out, "out")?,
        )
    })
}

/// A two-phase hyperexponential with moments m1, m2, m3 (the paper's fit
/// of page sizes). CRAWLSCHED_INFEASIBLE unless m2/m1^2 > 2 and
/// m1*m3/m2^2 > 3/2.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_dist_fit_h2_new(
    m1: f64,
    m2: f64,
    m3: f64,
    out: *mut *mut crawlsched_dist_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        publish(
            fit::fit_hyperexponential2(m1, m2, m3).map(Distribution::PhaseType),
            Out::new(out, "out")?,
        )
    })
}
