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
//! runs take the baseline). [`add_sums4`], compensated sums in four lanes,
//! which the compiler keeps in SSE2 halves even under AVX2, is written
//! out in AVX intrinsics next to its baseline form (the same operations
//! per lane; `the_avx2_sums_give_the_baseline_bits`). The third module
//! with `unsafe`, besides the C API and `pages`: calls of
//! `#[target_feature]` functions after the CPU has been checked for the
//! feature, and loads and stores of four doubles.

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

/// Four lanes of compensated sums, (hi, lo) per lane: the running sum and
/// the sum of the exact rounding errors of its additions (TwoSum).
pub(crate) type Sums4 = ([f64; 4], [f64; 4]);

/// Adds the terms of `a` into `sa` and those of `b` into `sb` (equal
/// lengths, a multiple of 4), term k into lane k mod 4, each as
/// s = hi + x, z = s − hi, lo += (hi − (s − z)) + (x − z), hi = s: in AVX2
/// vectors when the CPU has them, else in the baseline's; the same bits.
#[inline]
pub(crate) fn add_sums4(sa: &mut Sums4, a: &[f64], sb: &mut Sums4, b: &[f64]) {
    debug_assert!(a.len() == b.len() && a.len() % 4 == 0);
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") && !baseline_only() {
            // SAFETY: the CPU supports AVX2, checked just above.
            return unsafe { add_sums4_avx2(sa, a, sb, b) };
        }
    }
    add_sums4_baseline(sa, a, sb, b);
}

#[inline(always)]
fn add_sums4_baseline(sa: &mut Sums4, a: &[f64], sb: &mut Sums4, b: &[f64]) {
    use wide::f64x4;
    let add = |(hi, lo): (f64x4, f64x4), x: f64x4| {
        let s = hi + x;
        let z = s - hi;
        (s, lo + ((hi - (s - z)) + (x - z)))
    };
    let load = |x: &[f64]| f64x4::from([x[0], x[1], x[2], x[3]]);
    let (mut ta, mut tb) = (
        (f64x4::from(sa.0), f64x4::from(sa.1)),
        (f64x4::from(sb.0), f64x4::from(sb.1)),
    );
    for (a4, b4) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        ta = add(ta, load(a4));
        tb = add(tb, load(b4));
    }
    *sa = (ta.0.to_array(), ta.1.to_array());
    *sb = (tb.0.to_array(), tb.1.to_array());
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unused_unsafe)]
unsafe fn add_sums4_avx2(sa: &mut Sums4, a: &[f64], sb: &mut Sums4, b: &[f64]) {
    use std::arch::x86_64::{
        __m256d, _mm256_add_pd, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_sub_pd,
    };
    // SAFETY (all blocks): loads and stores of 4 doubles from arrays of 4
    // and from chunks of exactly 4; the arithmetic needs AVX, enabled here.
    let add = |(hi, lo): (__m256d, __m256d), x: __m256d| unsafe {
        let s = _mm256_add_pd(hi, x);
        let z = _mm256_sub_pd(s, hi);
        let err = _mm256_add_pd(_mm256_sub_pd(hi, _mm256_sub_pd(s, z)), _mm256_sub_pd(x, z));
        (s, _mm256_add_pd(lo, err))
    };
    let (mut ta, mut tb) = unsafe {
        (
            (
                _mm256_loadu_pd(sa.0.as_ptr()),
                _mm256_loadu_pd(sa.1.as_ptr()),
            ),
            (
                _mm256_loadu_pd(sb.0.as_ptr()),
                _mm256_loadu_pd(sb.1.as_ptr()),
            ),
        )
    };
    for (a4, b4) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        let (x, y) = unsafe { (_mm256_loadu_pd(a4.as_ptr()), _mm256_loadu_pd(b4.as_ptr())) };
        ta = add(ta, x);
        tb = add(tb, y);
    }
    unsafe {
        _mm256_storeu_pd(sa.0.as_mut_ptr(), ta.0);
        _mm256_storeu_pd(sa.1.as_mut_ptr(), ta.1);
        _mm256_storeu_pd(sb.0.as_mut_ptr(), tb.0);
        _mm256_storeu_pd(sb.1.as_mut_ptr(), tb.1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// [`add_sums4`] gives the baseline's bits on AVX2 (terms over
    /// 10^±30, a quarter of them zero, from non-zero starting sums), and
    /// each lane holds its terms' sum to double-double accuracy.
    #[test]
    fn the_avx2_sums_give_the_baseline_bits() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(83);
        let mut draw = |n: usize| -> Vec<f64> {
            (0..n)
                .map(|_| {
                    let x = 10f64.powf(rng.random_range(-30.0..30.0));
                    if rng.random_range(0..4) == 0 { 0.0 } else { x }
                })
                .collect()
        };
        let (a, b) = (draw(4096), draw(4096));
        let start: Sums4 = ([1.0, 2.0, 3.0, 1e-300], [1e-17, 0.0, -1e-17, 0.0]);
        let (mut sa, mut sb) = (start, start);
        add_sums4(&mut sa, &a, &mut sb, &b);
        let (mut ta, mut tb) = (start, start);
        add_sums4_baseline(&mut ta, &a, &mut tb, &b);
        let bits = |s: Sums4| {
            s.0.iter()
                .chain(&s.1)
                .map(|x| x.to_bits())
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(sa), bits(ta));
        assert_eq!(bits(sb), bits(tb));
        // Lane 0 of a against a sum of its terms from largest to least
        // in double-double (a reference independent of the lanes' order).
        let mut lane: Vec<f64> = a
            .iter()
            .step_by(4)
            .copied()
            .chain([start.0[0], start.1[0]])
            .collect();
        lane.sort_by(|x, y| y.total_cmp(x));
        let (mut hi, mut lo) = (0.0_f64, 0.0_f64);
        for x in lane {
            let s = hi + x;
            let z = s - hi;
            lo += (hi - (s - z)) + (x - z);
            hi = s;
        }
        let want = hi + lo;
        assert!(((sa.0[0] + sa.1[0]) - want).abs() <= 4.0 * f64::EPSILON * f64::EPSILON * want);
    }
}
