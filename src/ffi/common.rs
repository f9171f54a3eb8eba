//! What every export shares: status codes, the caller-owned error struct,
//! the per-thread last error, version queries, and [`guard`], the one
//! boundary helper that wraps every exported body.
//!
//! Conventions are written down in `docs/c-api.md`.

#![allow(non_camel_case_types)]

use crate::error::Error;
use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, MutexGuard};

/// Status returned by every fallible function: 0 is success. Values are
/// never reused; a later release may add new ones, so treat unknown values
/// as failures.
pub type crawlsched_status_t = i32;

/// Success.
pub const CRAWLSCHED_OK: crawlsched_status_t = 0;
/// A required pointer argument was NULL.
pub const CRAWLSCHED_NULL_ARGUMENT: crawlsched_status_t = 1;
/// An argument is outside its domain (NaN, negative rate, wrong length, ...).
pub const CRAWLSCHED_INVALID_ARGUMENT: crawlsched_status_t = 2;
/// The constraints admit no solution.
pub const CRAWLSCHED_INFEASIBLE: crawlsched_status_t = 3;
/// An iterative method stopped before its tolerance was met.
pub const CRAWLSCHED_NOT_CONVERGED: crawlsched_status_t = 4;
/// The problem exceeds a size or memory limit (nothing was allocated).
pub const CRAWLSCHED_TOO_LARGE: crawlsched_status_t = 5;
/// An output buffer is too small; the needed length was reported.
pub const CRAWLSCHED_BUFFER_TOO_SMALL: crawlsched_status_t = 6;
/// A key (page id, ...) is not present.
pub const CRAWLSCHED_NOT_FOUND: crawlsched_status_t = 7;
/// The caller cancelled the computation.
pub const CRAWLSCHED_CANCELLED: crawlsched_status_t = 8;
/// The result is not representable (overflow, NaN).
pub const CRAWLSCHED_NUMERICAL: crawlsched_status_t = 9;
/// A bug inside crawlsched was caught at the boundary; please report it.
pub const CRAWLSCHED_PANIC: crawlsched_status_t = 10;
/// An internal invariant failed (e.g. a handle poisoned by an earlier panic).
pub const CRAWLSCHED_INTERNAL: crawlsched_status_t = 11;

/// Bytes in `crawlsched_error_t.message`, including the terminating NUL.
pub const CRAWLSCHED_ERROR_MESSAGE_SIZE: usize = 256;

/// Caller-owned error details. Pass a pointer to one as the last argument of
/// any fallible function (or NULL). On failure it receives the status and a
/// NUL-terminated message (truncated to fit); on success its status is set
/// to CRAWLSCHED_OK and its message to "". No allocation is involved, so it
/// works from any thread, goroutine or virtual thread. Zero-initialise it.
#[repr(C)]
pub struct crawlsched_error_t {
    /// Same value as the function's return value.
    pub status: crawlsched_status_t,
    /// Human-readable reason, NUL-terminated.
    pub message: [c_char; CRAWLSCHED_ERROR_MESSAGE_SIZE],
}

/// Library version, major part (semantic versioning of the whole library).
pub const CRAWLSCHED_VERSION_MAJOR: u32 = 0;
/// Library version, minor part.
pub const CRAWLSCHED_VERSION_MINOR: u32 = 2;
/// Library version, patch part.
pub const CRAWLSCHED_VERSION_PATCH: u32 = 0;
/// ABI version: the N of `libcrawlsched.so.N`. It changes only when a
/// symbol is removed or a signature, struct layout or status meaning changes.
pub const CRAWLSCHED_ABI_VERSION: u32 = 2;

/// A failure on its way out through the boundary.
#[derive(Debug)]
pub(crate) struct FfiError {
    pub status: crawlsched_status_t,
    pub message: String,
}

impl FfiError {
    pub fn new(status: crawlsched_status_t, message: impl Into<String>) -> Self {
        FfiError {
            status,
            message: message.into(),
        }
    }
    pub fn null(name: &str) -> Self {
        FfiError::new(CRAWLSCHED_NULL_ARGUMENT, format!("{name} must not be NULL"))
    }
    pub fn invalid(message: impl Into<String>) -> Self {
        FfiError::new(CRAWLSCHED_INVALID_ARGUMENT, message)
    }
}

impl From<Error> for FfiError {
    fn from(e: Error) -> Self {
        let status = match &e {
            Error::InvalidArgument(_) => CRAWLSCHED_INVALID_ARGUMENT,
            Error::Infeasible(_) => CRAWLSCHED_INFEASIBLE,
            Error::NotConverged(_) => CRAWLSCHED_NOT_CONVERGED,
            Error::TooLarge(_) => CRAWLSCHED_TOO_LARGE,
            Error::NotFound(_) => CRAWLSCHED_NOT_FOUND,
            Error::Cancelled(_) => CRAWLSCHED_CANCELLED,
            Error::Numerical(_) => CRAWLSCHED_NUMERICAL,
        };
        FfiError::new(status, e.to_string())
    }
}

pub(crate) type FfiResult<T> = Result<T, FfiError>;

thread_local! {
    static LAST_ERROR: RefCell<(crawlsched_status_t, CString)> =
        RefCell::new((CRAWLSCHED_OK, CString::default()));
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    format!("internal error (please report): {what}")
}

/// Copies `msg` into the fixed buffer, truncated on a UTF-8 boundary.
fn fill_message(buf: &mut [c_char; CRAWLSCHED_ERROR_MESSAGE_SIZE], msg: &str) {
    let mut end = msg.len().min(CRAWLSCHED_ERROR_MESSAGE_SIZE - 1);
    while !msg.is_char_boundary(end) {
        end -= 1;
    }
    for (dst, &b) in buf.iter_mut().zip(&msg.as_bytes()[..end]) {
        // An interior NUL would cut the message short: show it as '?'.
        *dst = if b == 0 { b'?' as c_char } else { b as c_char };
    }
    buf[end] = 0;
}

/// Records the outcome in the caller's error struct and the thread's last error.
fn report(err: *mut crawlsched_error_t, status: crawlsched_status_t, msg: &str) {
    if !err.is_null() && err.is_aligned() {
        // SAFETY: the caller passed a non-NULL, aligned pointer to its own
        // crawlsched_error_t (documented contract of every function).
        let e = unsafe { &mut *err };
        e.status = status;
        fill_message(&mut e.message, msg);
    }
    if status != CRAWLSCHED_OK {
        let c = CString::new(msg.replace('\0', "?")).unwrap_or_default();
        // try_with: during thread teardown the slot may be gone; skip then.
        let _ = LAST_ERROR.try_with(|slot| *slot.borrow_mut() = (status, c));
    }
}

/// The boundary: runs `body`, converts its error or any panic into a status,
/// and reports it. Every exported function that can fail is `guard(err, ||…)`.
pub(crate) fn guard<F>(err: *mut crawlsched_error_t, body: F) -> crawlsched_status_t
where
    F: FnOnce() -> FfiResult<()>,
{
    let outcome = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(r) => r,
        Err(payload) => Err(FfiError::new(CRAWLSCHED_PANIC, panic_message(&*payload))),
    };
    match outcome {
        Ok(()) => {
            report(err, CRAWLSCHED_OK, "");
            CRAWLSCHED_OK
        }
        Err(e) => {
            report(err, e.status, &e.message);
            e.status
        }
    }
}

/// The boundary for the few functions that cannot fail and return a value
/// directly (version queries, `_free`): a panic yields `fallback`.
pub(crate) fn guard_value<T, F>(fallback: T, body: F) -> T
where
    F: FnOnce() -> T,
{
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

// ---------------------------------------------------------------------------
// Pointer and value checks used by every module file.
// ---------------------------------------------------------------------------

/// A caller's read-only array: NULL is accepted only with `len == 0`.
///
/// # Safety
/// When non-NULL, `ptr` must point to `len` readable values.
pub(crate) unsafe fn slice_in<'a, T>(ptr: *const T, len: usize, name: &str) -> FfiResult<&'a [T]> {
    if !check_array(ptr, len, name)? {
        return Ok(&[]);
    }
    // SAFETY: checked by check_array; validity of the memory is the
    // caller's documented contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// A caller's writable array of exactly `len` elements.
///
/// # Safety
/// When non-NULL, `ptr` must point to `len` writable values.
pub(crate) unsafe fn slice_out<'a, T>(
    ptr: *mut T,
    len: usize,
    name: &str,
) -> FfiResult<&'a mut [T]> {
    if !check_array(ptr, len, name)? {
        return Ok(&mut []);
    }
    // SAFETY: as in slice_in, for writable memory.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, len) })
}

/// An optional writable array of `len` elements: NULL means not wanted
/// (an empty slice, whatever `len`).
///
/// # Safety
/// When non-NULL, `ptr` must point to `len` writable values.
pub(crate) unsafe fn slice_out_optional<'a, T>(
    ptr: *mut T,
    len: usize,
    name: &str,
) -> FfiResult<&'a mut [T]> {
    let len = if ptr.is_null() { 0 } else { len };
    // SAFETY: forwarded contract.
    unsafe { slice_out(ptr, len, name) }
}

/// The checks of a caller's array: false when it is empty (any pointer),
/// true when it is non-NULL, aligned and at most isize::MAX bytes.
fn check_array<T>(ptr: *const T, len: usize, name: &str) -> FfiResult<bool> {
    if len == 0 {
        return Ok(false);
    }
    if ptr.is_null() {
        return Err(FfiError::null(name));
    }
    check_len::<T>(len, name)?;
    if !ptr.is_aligned() {
        return Err(FfiError::invalid(format!(
            "{name} is not aligned for its element type"
        )));
    }
    Ok(true)
}

/// A length whose byte size would overflow is refused before any use.
fn check_len<T>(len: usize, name: &str) -> FfiResult<()> {
    let bytes = len.checked_mul(std::mem::size_of::<T>().max(1));
    match bytes {
        Some(b) if b <= isize::MAX as usize => Ok(()),
        _ => Err(FfiError::new(
            CRAWLSCHED_TOO_LARGE,
            format!("{name}: length {len} overflows the address space"),
        )),
    }
}

/// A required out-parameter, checked before the work and written after it,
/// so that outputs are written only on success.
pub(crate) struct Out<T>(*mut T);

impl<T> Out<T> {
    pub fn new(ptr: *mut T, name: &str) -> FfiResult<Self> {
        if ptr.is_null() {
            return Err(FfiError::null(name));
        }
        if !ptr.is_aligned() {
            return Err(FfiError::invalid(format!("{name} is not aligned")));
        }
        Ok(Out(ptr))
    }

    /// An optional out-parameter: NULL means not wanted (`None`).
    pub fn optional(ptr: *mut T, name: &str) -> FfiResult<Option<Self>> {
        if ptr.is_null() {
            Ok(None)
        } else {
            Out::new(ptr, name).map(Some)
        }
    }

    pub fn write(self, value: T) {
        // SAFETY: checked non-NULL and aligned in `new`; writable storage is
        // the caller's documented contract. `write` does not drop the old
        // (possibly uninitialised) contents.
        unsafe { self.0.write(value) }
    }
}

/// A variable-size result: `(out, out_cap, out_len)`. `out_len` (required)
/// receives the number of elements written, or on BUFFER_TOO_SMALL the
/// number needed. `out` may be NULL with `out_cap == 0` to query the size.
pub(crate) struct OutBuffer<'a, T> {
    buf: &'a mut [T],
    len: Out<usize>,
}

impl<'a, T: Copy> OutBuffer<'a, T> {
    /// # Safety
    /// When non-NULL, `ptr` must point to `cap` writable elements.
    pub unsafe fn new(ptr: *mut T, cap: usize, len: *mut usize, name: &str) -> FfiResult<Self> {
        let len = Out::new(len, "out_len")?;
        // SAFETY: forwarded contract.
        let buf = unsafe { slice_out(ptr, cap, name)? };
        Ok(OutBuffer { buf, len })
    }

    /// BUFFER_TOO_SMALL (with `need` in `out_len`) when `need` elements do
    /// not fit: checked before computing a result that could not be written.
    pub fn reserve(self, need: usize) -> FfiResult<Self> {
        let have = self.buf.len();
        if need > have {
            return Err(too_small(self.len, "output buffer holds", have, need));
        }
        Ok(self)
    }

    /// Copies `data` out, or reports how much room it needs.
    pub fn write(self, data: &[T]) -> FfiResult<()> {
        let need = data.len();
        let OutBuffer { buf, len } = self.reserve(need)?;
        buf[..need].copy_from_slice(data);
        len.write(need);
        Ok(())
    }
}

/// CRAWLSCHED_BUFFER_TOO_SMALL after writing `need` to `out_len`; `holds`
/// names the caller's buffer(s) and verb ("output buffer holds").
pub(crate) fn too_small(out_len: Out<usize>, holds: &str, have: usize, need: usize) -> FfiError {
    out_len.write(need);
    FfiError::new(
        CRAWLSCHED_BUFFER_TOO_SMALL,
        format!("{holds} {have} elements, {need} needed"),
    )
}

/// A C `uint64_t` count as a `usize` (CRAWLSCHED_TOO_LARGE on 32-bit
/// targets when it does not fit).
pub(crate) fn usize_from(n: u64, name: &str) -> FfiResult<usize> {
    usize::try_from(n).map_err(|_| {
        FfiError::new(
            CRAWLSCHED_TOO_LARGE,
            format!("{name} = {n} does not fit in size_t"),
        )
    })
}

/// C `uint32_t` indices as `usize` indices.
pub(crate) fn indices(seq: &[u32]) -> Vec<usize> {
    seq.iter().map(|&i| i as usize).collect()
}

/// `usize` indices as C `uint32_t`; `what` names them ("page", "server").
pub(crate) fn to_u32(seq: &[usize], what: &str) -> FfiResult<Vec<u32>> {
    seq.iter()
        .map(|&i| {
            u32::try_from(i).map_err(|_| {
                FfiError::new(
                    CRAWLSCHED_TOO_LARGE,
                    format!("{what} index exceeds uint32_t"),
                )
            })
        })
        .collect()
}

/// An output array whose length the caller already knows (one per input).
///
/// # Safety
/// When non-NULL, `ptr` must point to `cap` writable elements.
pub(crate) unsafe fn out_exact<'a, T>(
    ptr: *mut T,
    cap: usize,
    need: usize,
    name: &str,
) -> FfiResult<&'a mut [T]> {
    if cap < need {
        return Err(FfiError::new(
            CRAWLSCHED_BUFFER_TOO_SMALL,
            format!("{name} holds {cap} elements, {need} needed"),
        ));
    }
    // SAFETY: forwarded contract.
    let buf = unsafe { slice_out(ptr, cap, name)? };
    Ok(&mut buf[..need])
}

/// Copies `src` into `dst` if every value is finite, else writes nothing
/// (outputs are written only on success: a NaN half-way must not leave
/// half a buffer behind).
pub(crate) fn write_finite(dst: &mut [f64], src: &[f64], name: &str) -> FfiResult<()> {
    // One branch-free test of every value (vectorises); the first bad one
    // is looked up only to name it.
    if !src.iter().fold(true, |ok, x| ok & x.is_finite()) {
        let bad = src.iter().find(|x| !x.is_finite()).copied();
        finite(name, bad.unwrap_or(f64::NAN))?;
    }
    let k = dst.len().min(src.len());
    dst[..k].copy_from_slice(&src[..k]);
    Ok(())
}

/// The export shape "-> one double": checks `out`, then writes `value` if
/// finite (`what` names it in the NUMERICAL message). Inputs `value` reads
/// are converted inside it, after `out` is checked.
pub(crate) fn write_value(
    out: *mut f64,
    what: &str,
    value: impl FnOnce() -> FfiResult<f64>,
) -> FfiResult<()> {
    let out = Out::new(out, "out")?;
    out.write(finite(what, value()?)?);
    Ok(())
}

/// A result that must be a finite number before it is handed to C.
pub(crate) fn finite(name: &str, x: f64) -> FfiResult<f64> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(FfiError::new(
            CRAWLSCHED_NUMERICAL,
            format!("{name} is not finite ({x})"),
        ))
    }
}

// ---------------------------------------------------------------------------
// Opaque handles.
// ---------------------------------------------------------------------------

/// Implemented by every opaque handle type (through [`impl_handle!`]): a
/// tag that catches a wrong, freed or foreign pointer in most cases before
/// it is used, and the Rust value the handle wraps.
pub(crate) trait Handle: Sized {
    const KIND: &'static str;
    const MAGIC: u64;
    type Inner;
    /// The handle owning `inner`, tagged live.
    fn wrap(inner: Self::Inner) -> Self;
    fn magic_mut(&mut self) -> &mut u64;
}

/// Moves `value` to the heap and gives its pointer to the caller.
fn new_handle<H: Handle>(value: H, out: Out<*mut H>) {
    out.write(Box::into_raw(Box::new(value)));
}

/// Hands `value` (a model's result, checked here, after `out`) to the
/// caller as a new handle; `Into` adds the handle's wrapper (`Mutex`, `Arc`).
pub(crate) fn publish<H: Handle>(
    value: crate::Result<impl Into<H::Inner>>,
    out: Out<*mut H>,
) -> FfiResult<()> {
    new_handle(H::wrap(value?.into()), out);
    Ok(())
}

/// The export shape "arrays in -> new handle": checks `out`, reads each
/// `(ptr, len, name)` array in order, and publishes what `make` builds of
/// them.
///
/// # Safety
/// When non-NULL, each `ptr` must point to `len` readable values.
pub(crate) unsafe fn publish_from<H: Handle, T, V: Into<H::Inner>, const N: usize>(
    out: *mut *mut H,
    arrays: [(*const T, usize, &str); N],
    make: impl FnOnce([&[T]; N]) -> crate::Result<V>,
) -> FfiResult<()> {
    let out = Out::new(out, "out")?;
    let mut slices: [&[T]; N] = [&[]; N];
    for (slice, (ptr, len, name)) in slices.iter_mut().zip(arrays) {
        // SAFETY: forwarded contract.
        *slice = unsafe { slice_in(ptr, len, name)? };
    }
    publish(make(slices), out)
}

/// Borrows the object behind a caller's handle.
///
/// # Safety
/// `ptr` must be NULL or a handle from the matching `_new` not yet freed.
pub(crate) unsafe fn handle<'a, H: Handle>(ptr: *const H, name: &str) -> FfiResult<&'a H> {
    if ptr.is_null() {
        return Err(FfiError::null(name));
    }
    if !ptr.is_aligned() {
        return Err(FfiError::invalid(format!(
            "{name} is not a valid {} handle",
            H::KIND
        )));
    }
    // Every handle starts with its tag (checked by impl_handle!) and is at
    // least 8 bytes, so the tag of a live handle of another type is read in
    // bounds, before any reference to `H` exists.
    // SAFETY: non-NULL and aligned; liveness is the caller's contract.
    if unsafe { read_tag(ptr) } != H::MAGIC {
        return Err(FfiError::invalid(format!(
            "{name} is not a live {} handle (freed or wrong type)",
            H::KIND
        )));
    }
    // SAFETY: the tag says this is a live `H`.
    Ok(unsafe { &*ptr })
}

/// The first 8 bytes of a handle: its tag, whatever its type.
///
/// # Safety
/// `ptr` must be non-NULL, aligned, and point to at least 8 readable bytes
/// (true of every live handle, of any type).
unsafe fn read_tag<H>(ptr: *const H) -> u64 {
    // SAFETY: forwarded contract; u64 alignment <= handle alignment.
    unsafe { ptr.cast::<u64>().read() }
}

/// Releases a handle; NULL is a no-op.
///
/// # Safety
/// `ptr` must be NULL or a handle from the matching `_new` not yet freed.
pub(crate) unsafe fn free_handle<H: Handle>(ptr: *mut H) {
    if ptr.is_null() || !ptr.is_aligned() {
        return;
    }
    // SAFETY: as in `handle`; the tag check refuses most double frees and
    // handles of another type.
    unsafe {
        if read_tag(ptr) != H::MAGIC {
            return;
        }
        *(*ptr).magic_mut() = 0;
        drop(Box::from_raw(ptr));
    }
}

/// Locks a handle's state; a lock poisoned by an earlier panic is reported.
pub(crate) fn lock<'a, T>(m: &'a Mutex<T>, kind: &str) -> FfiResult<MutexGuard<'a, T>> {
    m.lock().map_err(|_| {
        FfiError::new(
            CRAWLSCHED_INTERNAL,
            format!("this {kind} handle is unusable after an earlier internal error"),
        )
    })
}

/// Declares a handle type: its tag, what the C messages call it and the
/// Rust value it wraps. Every handle is written as
///
/// ```ignore
/// /// Doc comment for C readers.
/// #[cfg_attr(all(), repr(C))]
/// pub struct crawlsched_x_t {
///     magic: u64,
///     pub(super) inner: Inner,
/// }
/// impl_handle!(crawlsched_x_t, Inner, "x", 0x6372_6177_...);
/// ```
///
/// plus a `crawlsched_x_free` whose body is `free_handle`. cbindgen does not
/// expand macros, so the struct and the `_free` export stay plain items
/// that the header sees. `repr(C)` with `magic` first puts the tag at offset
/// 0 of every handle (asserted here), so a handle of the wrong type is
/// recognised without reading outside its allocation; it is written as
/// `cfg_attr` because cbindgen reads only a plain `#[repr]` and would then
/// emit the fields instead of an opaque type.
macro_rules! impl_handle {
    ($ty:ident, $inner:ty, $kind:literal, $magic:literal) => {
        const _: () = assert!(
            ::std::mem::offset_of!($ty, magic) == 0
                && ::std::mem::size_of::<$ty>() >= 8
                && ::std::mem::align_of::<$ty>() >= 8,
            "a handle's tag must be its first field"
        );
        impl $crate::ffi::common::Handle for $ty {
            const KIND: &'static str = $kind;
            const MAGIC: u64 = $magic;
            type Inner = $inner;
            fn wrap(inner: $inner) -> Self {
                Self {
                    magic: $magic,
                    inner,
                }
            }
            fn magic_mut(&mut self) -> &mut u64 {
                &mut self.magic
            }
        }
    };
}
pub(crate) use impl_handle;

// ---------------------------------------------------------------------------
// Exports shared by all modules.
// ---------------------------------------------------------------------------

/// The name of a status code, e.g. "CRAWLSCHED_INVALID_ARGUMENT"; unknown
/// values give "CRAWLSCHED_UNKNOWN_STATUS". The string is static: do not free.
/// Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn crawlsched_status_string(status: i32) -> *const c_char {
    guard_value(c"CRAWLSCHED_UNKNOWN_STATUS".as_ptr(), || {
        match status {
            CRAWLSCHED_OK => c"CRAWLSCHED_OK",
            CRAWLSCHED_NULL_ARGUMENT => c"CRAWLSCHED_NULL_ARGUMENT",
            CRAWLSCHED_INVALID_ARGUMENT => c"CRAWLSCHED_INVALID_ARGUMENT",
            CRAWLSCHED_INFEASIBLE => c"CRAWLSCHED_INFEASIBLE",
            CRAWLSCHED_NOT_CONVERGED => c"CRAWLSCHED_NOT_CONVERGED",
            CRAWLSCHED_TOO_LARGE => c"CRAWLSCHED_TOO_LARGE",
            CRAWLSCHED_BUFFER_TOO_SMALL => c"CRAWLSCHED_BUFFER_TOO_SMALL",
            CRAWLSCHED_NOT_FOUND => c"CRAWLSCHED_NOT_FOUND",
            CRAWLSCHED_CANCELLED => c"CRAWLSCHED_CANCELLED",
            CRAWLSCHED_NUMERICAL => c"CRAWLSCHED_NUMERICAL",
            CRAWLSCHED_PANIC => c"CRAWLSCHED_PANIC",
            CRAWLSCHED_INTERNAL => c"CRAWLSCHED_INTERNAL",
            _ => c"CRAWLSCHED_UNKNOWN_STATUS",
        }
        .as_ptr()
    })
}

/// The library version as "MAJOR.MINOR.PATCH". Static string: do not free.
#[unsafe(no_mangle)]
pub extern "C" fn crawlsched_version() -> *const c_char {
    guard_value(c"?".as_ptr(), || c"0.2.0".as_ptr())
}

/// The ABI version of the loaded library (CRAWLSCHED_ABI_VERSION at its
/// build). A program built against another ABI version must not use it.
#[unsafe(no_mangle)]
pub extern "C" fn crawlsched_abi_version() -> u32 {
    guard_value(CRAWLSCHED_ABI_VERSION, || CRAWLSCHED_ABI_VERSION)
}

/// Status of the most recent failed call on the calling OS thread (a
/// convenience for C; bindings use the error struct). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn crawlsched_last_error_status() -> crawlsched_status_t {
    guard_value(CRAWLSCHED_INTERNAL, || {
        LAST_ERROR
            .try_with(|slot| slot.borrow().0)
            .unwrap_or(CRAWLSCHED_INTERNAL)
    })
}

/// Message of the most recent failed call on the calling OS thread, or ""
/// if none failed yet. Owned by the library, valid until the next failing
/// call on this thread: copy it if you need it longer. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn crawlsched_last_error_message() -> *const c_char {
    guard_value(c"".as_ptr(), || {
        // The CString lives in the thread-local slot until it is replaced.
        LAST_ERROR
            .try_with(|slot| slot.borrow().1.as_ptr())
            .unwrap_or(c"".as_ptr())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_constants_match_the_crate_version() {
        let v = format!(
            "{CRAWLSCHED_VERSION_MAJOR}.{CRAWLSCHED_VERSION_MINOR}.{CRAWLSCHED_VERSION_PATCH}"
        );
        assert_eq!(v, env!("CARGO_PKG_VERSION"));
        // SAFETY: static NUL-terminated string.
        let s = unsafe { std::ffi::CStr::from_ptr(crawlsched_version()) };
        assert_eq!(s.to_str(), Ok(env!("CARGO_PKG_VERSION")));
    }

    #[test]
    fn message_truncation_keeps_utf8_whole() {
        let mut buf = [0 as c_char; CRAWLSCHED_ERROR_MESSAGE_SIZE];
        let long = "é".repeat(300);
        fill_message(&mut buf, &long);
        // SAFETY: fill_message NUL-terminates.
        let s = unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) };
        // 127 two-byte characters fit in 255 bytes; the 128th would split.
        assert_eq!(s.to_str().map(str::len), Ok(254));
    }

    #[test]
    fn panics_become_status_and_message() {
        let mut e = crawlsched_error_t {
            status: 0,
            message: [0; CRAWLSCHED_ERROR_MESSAGE_SIZE],
        };
        let st = guard(&mut e, || std::panic::panic_any("boom"));
        assert_eq!(st, CRAWLSCHED_PANIC);
        assert_eq!(e.status, CRAWLSCHED_PANIC);
        // SAFETY: NUL-terminated by report().
        let msg = unsafe { std::ffi::CStr::from_ptr(e.message.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        assert!(msg.contains("boom"), "{msg}");
        assert_eq!(crawlsched_last_error_status(), CRAWLSCHED_PANIC);
    }
}
