//! Large zeroed arrays backed by transparent huge pages where Linux offers
//! them (`madvise(MADV_HUGEPAGE)`, as NumPy does for arrays of 4 MiB and
//! more): writing a fresh array then takes one page fault per 2 MiB instead
//! of one per 4 KiB, which at 10^7 pages is most of the cost of a pass that
//! fills its output. The second module with `unsafe`, besides [`crate::ffi`]:
//! one system call (through the `libc` crate) on memory the array owns, which leaves its contents
//! (zeros) unchanged; a refusal of the advice is ignored.

/// Arrays below this many bytes keep ordinary pages.
const HUGE_FROM: usize = 4 << 20;
/// Transparent huge page size on x86-64 and aarch64 (4 KiB base pages).
const HUGE_PAGE: usize = 2 << 20;

/// `vec![0.0; n]`, advised to use huge pages when it spans at least
/// [`HUGE_FROM`] bytes; nothing is written, so no page is touched here.
pub(crate) fn zeroed(n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n];
    if n.saturating_mul(8) >= HUGE_FROM {
        advise_huge(&mut v);
    }
    v
}

#[cfg(target_os = "linux")]
fn advise_huge(v: &mut [f64]) {
    let start = v.as_mut_ptr() as usize;
    let end = start + std::mem::size_of_val(v);
    // The whole huge pages inside the array: advice outside it would apply
    // to memory the array does not own.
    let (lo, hi) = (
        start.next_multiple_of(HUGE_PAGE),
        end / HUGE_PAGE * HUGE_PAGE,
    );
    if hi > lo {
        // SAFETY: [lo, hi) lies inside `v`'s allocation, which is live and
        // exclusively borrowed; MADV_HUGEPAGE changes how its pages are
        // backed, never their contents.
        let _ = unsafe { libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_: &mut [f64]) {}

#[cfg(test)]
mod tests {
    #[test]
    fn zeroed_arrays_are_zero_at_every_size() {
        for n in [0, 1, 1000, (4 << 20) / 8, (5 << 20) / 8 + 3] {
            let v = super::zeroed(n);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == 0.0));
        }
    }
}
