//! C API of [`crate::dist::Bmap`]: batch Markovian arrival processes
//! (the arrival input of the threshold model), their fits and compositions.

#![allow(non_camel_case_types)]

use super::common::*;
use crate::dist::{Bmap, compose, fit};

/// A batch Markovian arrival process (D0, D1, ..., Dk). Immutable: one
/// handle may be used from any number of threads at once. Free with
/// crawlsched_bmap_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_bmap_t {
    magic: u64,
    /// Shared with the models built from it (never copied).
    pub(super) inner: std::sync::Arc<Bmap>,
}
impl_handle!(
    crawlsched_bmap_t,
    std::sync::Arc<Bmap>,
    "BMAP",
    0x6372_6177_6c62_6d61
);

/// crawlsched_bmap_compose_new: robots are independent copies of the given
/// process (Kronecker sum; inactive robots keep moving, deliver nothing).
pub const CRAWLSCHED_BMAP_COMPOSE_INDEPENDENT: i32 = 1;
/// crawlsched_bmap_compose_new: the given process is common to all robots
/// and each batch is kept with probability `prob`.
pub const CRAWLSCHED_BMAP_COMPOSE_THINNING: i32 = 2;
/// crawlsched_bmap_compose_new: r active robots run the given process r
/// times faster (D_k(r) = r D_k).
pub const CRAWLSCHED_BMAP_COMPOSE_SCALED: i32 = 3;

/// A BMAP of order n from `n_matrices` = len / (n*n) >= 2 matrices D0, D1,
/// ..., Dk stored one after another, each row-major n x n. D0 must have a
/// negative diagonal and non-negative off-diagonal, D1..Dk non-negative
/// entries, the rows of D0+...+Dk must sum to zero and the phase process
/// must be irreducible (else CRAWLSCHED_INVALID_ARGUMENT).
/// CRAWLSCHED_TOO_LARGE when the copy and working matrices ((k + 1 + 6)
/// n x n doubles beyond the input) exceed the process-wide memory cap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_bmap_new(
    n: usize,
    matrices: *const f64,
    len: usize,
    out: *mut *mut crawlsched_bmap_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let m = unsafe { slice_in(matrices, len, "matrices")? };
        let nn = n
            .checked_mul(n)
            .ok_or_else(|| FfiError::new(CRAWLSCHED_TOO_LARGE, format!("order {n} overflows")))?;
        if nn == 0 || !len.is_multiple_of(nn) || len / nn < 2 {
            return Err(FfiError::invalid(format!(
                "matrices must hold at least 2 matrices of n*n = {nn} entries, got {len} entries"
            )));
        }
        let parts: Vec<&[f64]> = m.chunks(nn).collect();
        publish(Bmap::new(n, &parts), out)
    })
}

/// Poisson process of rate > 0 as a BMAP of order 1.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_bmap_poisson_new(
    rate: f64,
    out: *mut *mut crawlsched_bmap_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || publish(Bmap::poisson(rate), Out::new(out, "out")?))
}

/// A BMAP fitted to the time between batches (mean, variance, lag-1
/// correlation) and the mean batch size on sizes 1..max_batch: two regimes
/// of Erlang times with persistent switching, maximum-entropy batch sizes
/// (see the Rust docs of crawlsched::dist::fit). CRAWLSCHED_INFEASIBLE when
/// the family cannot reach the figures. The result holds max_batch + 1
/// matrices of order up to 128: CRAWLSCHED_TOO_LARGE, before they are
/// built, when three copies exceed the process-wide memory cap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_bmap_fit_new(
    mean: f64,
    variance: f64,
    lag1: f64,
    batch_mean: f64,
    max_batch: u32,
    out: *mut *mut crawlsched_bmap_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        publish(
            fit::fit_bmap(mean, variance, lag1, None, batch_mean, max_batch as usize),
            out,
        )
    })
}

/// The arrival process with `active` of `total` robots active, built from
/// `robot` by interpretation `how` (CRAWLSCHED_BMAP_COMPOSE_*): INDEPENDENT
/// (total copies of robot, 1 <= active <= total), THINNING (robot is the
/// common process, batches kept with probability prob in (0, 1]; active and
/// total are not used) or SCALED (active times faster). All results for one
/// `total` share a phase space, as the threshold model requires.
/// INDEPENDENT has order^total phases (at most 4096) and as many batch
/// matrices as robot: CRAWLSCHED_TOO_LARGE, before anything is built, when
/// three copies of the result exceed the process-wide memory cap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_bmap_compose_new(
    robot: *const crawlsched_bmap_t,
    how: i32,
    active: u32,
    total: u32,
    prob: f64,
    out: *mut *mut crawlsched_bmap_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let b = unsafe { handle(robot, "robot")? };
        let (active, total) = (active as usize, total as usize);
        let pick = |v: crate::Result<Vec<Bmap>>, i: usize| v.map(|mut v| v.swap_remove(i));
        let result = match how {
            // Only the BMAP asked for is built.
            CRAWLSCHED_BMAP_COMPOSE_INDEPENDENT => {
                compose::independent_copies_active(&b.inner, active, total)
            }
            CRAWLSCHED_BMAP_COMPOSE_SCALED => compose::scaled_active(&b.inner, active, total),
            CRAWLSCHED_BMAP_COMPOSE_THINNING => pick(compose::thinning(&b.inner, &[prob]), 0),
            _ => return Err(FfiError::invalid(format!("unknown composition {how}"))),
        };
        publish(result, out)
    })
}

/// Releases a BMAP. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_bmap_free(bmap: *mut crawlsched_bmap_t) {
    guard_value((), || unsafe { free_handle(bmap) })
}

/// Number of phases of the BMAP.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_bmap_order(
    bmap: *const crawlsched_bmap_t,
    out: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        out.write(unsafe { handle(bmap, "bmap")? }.inner.order());
        Ok(())
    })
}

/// Fundamental rate: mean pages per unit time (theta sum_j j D_j 1).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_bmap_fundamental_rate(
    bmap: *const crawlsched_bmap_t,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        write_value(out, "rate", || {
            Ok(unsafe { handle(bmap, "bmap")? }.inner.fundamental_rate())
        })
    })
}

/// E[T^k] (k >= 1) of the stationary time T between batches.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_bmap_interarrival_moment(
    bmap: *const crawlsched_bmap_t,
    k: u32,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        write_value(out, "moment", || {
            let b = unsafe { handle(bmap, "bmap")? };
            Ok(b.inner.interarrival_moment(k)?)
        })
    })
}

/// Lag-k (k >= 1) correlation of successive times between batches.
/// CRAWLSCHED_TOO_LARGE when the k products with the batch-to-batch phase
/// matrix (4 n^2 multiply-adds each; they stop early once its powers have
/// converged) would pass 2e10 multiply-adds.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_bmap_lag_correlation(
    bmap: *const crawlsched_bmap_t,
    k: u32,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        write_value(out, "correlation", || {
            let b = unsafe { handle(bmap, "bmap")? };
            Ok(b.inner.lag_correlation(k)?)
        })
    })
}
