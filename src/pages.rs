//! Large zeroed arrays backed by transparent huge pages where Linux offers
//! them (`madvise(MADV_HUGEPAGE)`, as NumPy does for arrays of 4 MiB and
//! more): writing a fresh array then takes one page fault per 2 MiB instead
//! of one per 4 KiB, which at 10^7 pages is most of the cost of a pass that
//! fills its output. Smaller arrays of at least [`POPULATE_FROM`] bytes
//! (passed over on one thread) are faulted in by one system call
//! (`MADV_POPULATE_WRITE`, Linux 5.14) instead of a trap per 4 KiB page,
//! most of the cost of a plan of 10^5 pages. The second module with
//! `unsafe`, besides the C API (`src/ffi`): one system call (through the `rustix`
//! crate's typed `madvise`) on memory the array owns, which leaves its contents (zeros)
//! unchanged; a refusal of the advice is ignored.

/// Arrays below this many bytes keep ordinary pages.
const HUGE_FROM: usize = 4 << 20;
/// Transparent huge page size on x86-64 and aarch64 (4 KiB base pages).
const HUGE_PAGE: usize = 2 << 20;
/// Arrays from this many bytes up to [`HUGE_FROM`] are populated at once.
const POPULATE_FROM: usize = 64 << 10;
/// Base page size assumed for the populated range (a misaligned range is
/// refused, and the refusal ignored).
const BASE_PAGE: usize = 4 << 10;

/// `vec![0.0; n]`, advised to use huge pages when it spans at least
/// [`HUGE_FROM`] bytes (nothing is written, so no page is touched here),
/// populated when it spans [`POPULATE_FROM`] bytes up to that.
pub(crate) fn zeroed(n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n];
    let bytes = n.saturating_mul(8);
    if bytes >= HUGE_FROM {
        advise(&mut v, HUGE_PAGE, ADVICE_HUGE);
    } else if bytes >= POPULATE_FROM {
        advise(&mut v, BASE_PAGE, ADVICE_POPULATE);
    }
    v
}

#[cfg(target_os = "linux")]
const ADVICE_HUGE: Advice = Advice::LinuxHugepage;
#[cfg(target_os = "linux")]
const ADVICE_POPULATE: Advice = Advice::LinuxPopulateWrite;
#[cfg(target_os = "linux")]
use rustix::mm::Advice;

/// `madvise(advice)` on the whole pages of `page` bytes inside `v`.
#[cfg(target_os = "linux")]
fn advise(v: &mut [f64], page: usize, advice: Advice) {
    let start = v.as_mut_ptr() as usize;
    let end = start + std::mem::size_of_val(v);
    // The whole pages inside the array: advice outside it would apply to
    // memory the array does not own.
    let (lo, hi) = (start.next_multiple_of(page), end / page * page);
    if hi > lo {
        // SAFETY: [lo, hi) lies inside `v`'s allocation, which is live and
        // exclusively borrowed; MADV_HUGEPAGE changes how its pages are
        // backed and MADV_POPULATE_WRITE faults them in (writable, as a
        // write would), never their contents.
        let _ = unsafe { rustix::mm::madvise(lo as *mut _, hi - lo, advice) };
    }
}

#[cfg(not(target_os = "linux"))]
const ADVICE_HUGE: () = ();
#[cfg(not(target_os = "linux"))]
const ADVICE_POPULATE: () = ();

#[cfg(not(target_os = "linux"))]
fn advise(_: &mut [f64], _: usize, _: ()) {}

#[cfg(test)]
mod tests {
    #[test]
    fn zeroed_arrays_are_zero_at_every_size() {
        for n in [
            0,
            1,
            1000,
            (64 << 10) / 8,
            100_000,
            (4 << 20) / 8,
            (5 << 20) / 8 + 3,
        ] {
            let v = super::zeroed(n);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == 0.0));
        }
    }
}
