//! C API of [`crate::limits`]: the process-wide memory cap and the control
//! handle (memory cap, iteration cap, cancel flag) that long computations
//! accept.
//!
//! Every large computation estimates its memory before allocating and
//! returns CRAWLSCHED_TOO_LARGE (message: what, how many bytes, the limit)
//! when the estimate exceeds the cap in force: the cap of the control
//! attached to it, else the process-wide default. A control attached to a
//! computation is checked once per iteration; after crawlsched_control_cancel()
//! the computation returns CRAWLSCHED_CANCELLED at its next check.

#![allow(non_camel_case_types)]

use super::common::*;
use crate::limits::{self, Control};

/// Limits and a cancel flag for long computations (see
/// crawlsched_control_new()). Thread-safe without locking: every function
/// on it may be called from any thread at any time, also while a
/// computation that uses it runs in another thread (that is how
/// crawlsched_control_cancel() is meant to be used). A computation to which
/// it is attached keeps its own reference, so freeing the control while
/// that computation runs is safe (it can then no longer be cancelled).
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_control_t {
    magic: u64,
    pub(super) inner: Control,
}
impl_handle!(
    crawlsched_control_t,
    Control,
    "control",
    0x6372_6177_6374_726c
);

/// Sets the process-wide default memory cap in bytes (0: unlimited), used
/// by every computation whose control sets no cap of its own. The initial
/// default is the machine's physical memory (unlimited where unknown).
/// Thread-safe; computations already past their size check are not affected.
#[unsafe(no_mangle)]
pub extern "C" fn crawlsched_set_default_memory_limit(bytes: u64) {
    guard_value((), || {
        limits::set_default_memory_limit((bytes != 0).then_some(bytes))
    })
}

/// The process-wide default memory cap in bytes (0: unlimited). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn crawlsched_get_default_memory_limit() -> u64 {
    guard_value(0, || limits::default_memory_limit().unwrap_or(0))
}

/// A new control: not cancelled, no memory cap of its own (the process-wide
/// default applies), no iteration cap. Free with crawlsched_control_free().
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_control_new(
    out: *mut *mut crawlsched_control_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        publish(Ok(Control::new()), out)
    })
}

/// Releases a control. NULL is a no-op. Computations it is attached to
/// keep working (without a way to cancel them).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_control_free(ctl: *mut crawlsched_control_t) {
    guard_value((), || unsafe { free_handle(ctl) })
}

/// Memory cap in bytes for computations using this control; 0 returns to
/// the process-wide default, UINT64_MAX means unlimited.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_control_set_memory_limit(
    ctl: *const crawlsched_control_t,
    bytes: u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let c = unsafe { handle(ctl, "control")? };
        c.inner.set_memory_limit((bytes != 0).then_some(bytes));
        Ok(())
    })
}

/// Iteration cap for computations using this control (0: none); it lowers,
/// never raises, a computation's own limit. An iteration is one sweep of
/// value iteration or Gauss-Seidel, one improvement step of policy
/// iteration. Reaching it gives CRAWLSCHED_NOT_CONVERGED.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_control_set_max_iterations(
    ctl: *const crawlsched_control_t,
    max_iterations: u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let c = unsafe { handle(ctl, "control")? };
        c.inner
            .set_max_iterations((max_iterations != 0).then_some(max_iterations));
        Ok(())
    })
}

/// Raises the cancel flag: every computation using this control returns
/// CRAWLSCHED_CANCELLED at its next check (within one iteration), and
/// computations started later return it at once, until
/// crawlsched_control_reset(). Callable from any thread, in particular
/// while a computation using the control runs in another one.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_control_cancel(
    ctl: *const crawlsched_control_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        unsafe { handle(ctl, "control")? }.inner.cancel();
        Ok(())
    })
}

/// Clears the cancel flag (limits are kept) so the control can be reused.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_control_reset(
    ctl: *const crawlsched_control_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        unsafe { handle(ctl, "control")? }.inner.reset();
        Ok(())
    })
}

/// *out receives 1 if the control was cancelled since its last reset, else 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_control_is_cancelled(
    ctl: *const crawlsched_control_t,
    out: *mut i32,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        out.write(i32::from(
            unsafe { handle(ctl, "control")? }.inner.is_cancelled(),
        ));
        Ok(())
    })
}

/// The control of an optional handle: NULL means "no control".
///
/// # Safety
/// `ctl` must be NULL or a live control handle.
pub(crate) unsafe fn control_in(ctl: *const crawlsched_control_t) -> FfiResult<Control> {
    if ctl.is_null() {
        return Ok(Control::default());
    }
    Ok(unsafe { handle(ctl, "control")? }.inner.clone())
}
