//! What the hostile tests share: a counting global allocator (so a test can
//! assert that a call refused with TOO_LARGE, or accepted under a cap,
//! never held more than the cap), a lock that runs those tests one at a
//! time, and C-error helpers.

#![allow(dead_code)]

use crawlsched::ffi::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::CStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator; only counts bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(l.size(), Ordering::Relaxed) + l.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(l) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(l.size(), Ordering::Relaxed) + l.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        CURRENT.fetch_sub(l.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            if new >= l.size() {
                let now = CURRENT.fetch_add(new - l.size(), Ordering::Relaxed) + new - l.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                CURRENT.fetch_sub(l.size() - new, Ordering::Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

static SERIAL: Mutex<()> = Mutex::new(());

/// Held for a whole test: the allocation counter then sees one test only.
pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// Runs `f` and returns its result with the largest number of bytes held
/// above what was held when it started.
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let r = f();
    (r, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}

/// [`peak_during`] and the bytes still held above the start when `f`
/// returns: (result, peak, held).
pub fn peak_and_held<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    let base = CURRENT.load(Ordering::Relaxed);
    let (r, peak) = peak_during(f);
    let held = CURRENT.load(Ordering::Relaxed).saturating_sub(base);
    (r, peak, held)
}

/// Runs `f`, and returns its result and wall time.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed())
}

/// A zeroed error struct for one call.
pub fn err() -> crawlsched_error_t {
    // SAFETY: a plain C struct; all-zero is a valid (empty) value.
    unsafe { std::mem::zeroed() }
}

/// The message the library wrote into `e`.
pub fn message(e: &crawlsched_error_t) -> String {
    // SAFETY: the library NUL-terminates the message.
    unsafe { CStr::from_ptr(e.message.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

/// A control with a memory cap of `bytes` (freed by the caller).
pub fn control_with_cap(bytes: u64) -> *mut crawlsched_control_t {
    let mut c = std::ptr::null_mut();
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(
            crawlsched_control_new(&mut c, std::ptr::null_mut()),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_control_set_memory_limit(c, bytes, std::ptr::null_mut()),
            CRAWLSCHED_OK
        );
    }
    c
}
