//! Hot loops on wider vector instructions where the CPU has them: the
//! library is built for the x86-64 baseline (SSE2, two doubles per
//! instruction); [`wide()`] runs a [`Kernel`] inside a function compiled
//! for AVX2 when the CPU reports it, so that the loops inlined into it
//! (a kernel's `run` and what it calls are `#[inline(always)]`) use four
//! lanes. Only IEEE operations that round the same at any width (add,
//! mul, div, sqrt, compare; no fused multiply-add) are enabled, so the
//! results are the same bits either way (the randomized and closed-form
//! tests `the_avx2_kernels_give_the_baseline_bits` force the baseline
//! path through `BASELINE_ONLY` and compare; on a CPU without AVX2 both
//! runs take the baseline). The third module with `unsafe`, besides the
//! C API and `pages`: one call of a `#[target_feature]` function after the
//! CPU has been checked for it.

/// A loop to compile twice, for the baseline and for AVX2: `run` must be
/// `#[inline(always)]`, as must the functions its loops call.
pub(crate) trait Kernel {
    type Output;
    fn run(self) -> Self::Output;
}

/// `k.run()`, compiled for AVX2 when the CPU has it.
#[inline(always)]
pub(crate) fn wide<K: Kernel>(k: K) -> K::Output {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") && !baseline_only() {
            // SAFETY: the CPU supports AVX2, checked just above.
            return unsafe { with_avx2(k) };
        }
    }
    k.run()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn with_avx2<K: Kernel>(k: K) -> K::Output {
    k.run()
}

/// Tests set this to run every kernel on the baseline path, to compare
/// its bits with the AVX2 path's (other tests running meanwhile get the
/// same bits either way).
#[cfg(test)]
pub(crate) static BASELINE_ONLY: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn baseline_only() -> bool {
    #[cfg(test)]
    {
        BASELINE_ONLY.load(std::sync::atomic::Ordering::Relaxed)
    }
    #[cfg(not(test))]
    {
        false
    }
}

/// A call of an `#[inline(always)]` function item with its arguments, as
/// a [`Kernel`]: `wide(Call(f, (a, b)))` is `f(a, b)` compiled for AVX2
/// where the CPU has it. (A closure would not do: it is compiled once,
/// for the baseline, unless inlined, and is not inlined when large.)
pub(crate) struct Call<F, Args>(pub F, pub Args);

impl<F: FnOnce(A, B) -> R, A, B, R> Kernel for Call<F, (A, B)> {
    type Output = R;

    #[inline(always)]
    fn run(self) -> R {
        (self.0)(self.1.0, self.1.1)
    }
}

impl<F: FnOnce(A, B, C) -> R, A, B, C, R> Kernel for Call<F, (A, B, C)> {
    type Output = R;

    #[inline(always)]
    fn run(self) -> R {
        (self.0)(self.1.0, self.1.1, self.1.2)
    }
}

impl<F: FnOnce(A, B, C, D) -> R, A, B, C, D, R> Kernel for Call<F, (A, B, C, D)> {
    type Output = R;

    #[inline(always)]
    fn run(self) -> R {
        (self.0)(self.1.0, self.1.1, self.1.2, self.1.3)
    }
}
