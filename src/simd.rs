//! Hot loops on wider vector instructions where the CPU has them: the
//! library is built for the x86-64 baseline (SSE2, two doubles per
//! instruction); [`wide()`] runs a [`Kernel`] inside a function compiled
//! for AVX-512 or AVX2, the widest the CPU reports ([`Width`]), so that
//! the loops inlined into it (a kernel's `run` and what it calls are
//! `#[inline(always)]`) use eight or four lanes. Only IEEE operations
//! that round the same at any width (add, mul, div, sqrt, compare; no
//! fused multiply-add) are enabled, so the results are the same bits at
//! every width (the freshness tests `the_wide_kernels_give_the_baseline_bits`
//! cap the width through `MAX_WIDTH` and compare; on a CPU without
//! AVX-512 or AVX2 the capped runs take what it has). Two loops the
//! compiler would not vectorize well are written out in intrinsics next
//! to their baseline form, with the same operations per lane (tests
//! compare their bits): [`add_sums8`], compensated sums in eight lanes,
//! which the compiler keeps in SSE2 halves even under AVX2, and
//! [`write_kept`], compaction by AVX-512's masked compression. The third
//! module with `unsafe`, besides the C API and `pages`: calls of
//! `#[target_feature]` functions after the CPU has been checked for the
//! feature, and loads and stores of four or eight doubles.

/// A loop to compile three times, for the baseline, AVX2 and AVX-512:
/// `run` must be `#[inline(always)]`, as must the functions its loops
/// call, and call them directly. (A closure or a function item called
/// through `FnOnce` would not do: the compiler may decline to inline
/// its shim, which is then compiled once, for the baseline.)
pub(crate) trait Kernel {
    type Output;
    fn run(self) -> Self::Output;
}

/// Vector instruction sets the kernels run on, narrowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Width {
    /// x86-64's SSE2, or another architecture's baseline.
    Baseline,
    /// AVX2 (four doubles).
    Avx2,
    /// AVX-512 F, VL, DQ and BW (eight doubles, mask registers).
    Avx512,
}

/// The widest [`Width`] the CPU has (in tests, at most `MAX_WIDTH`).
#[inline(always)]
pub(crate) fn width() -> Width {
    cpu_width().min(max_width())
}

/// The widest [`Width`] the CPU has.
#[inline(always)]
fn cpu_width() -> Width {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx512f") && has!("avx512vl") && has!("avx512dq") && has!("avx512bw") {
            Width::Avx512
        } else if has!("avx2") {
            Width::Avx2
        } else {
            Width::Baseline
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Width::Baseline
    }
}

/// `k.run()`, compiled for the widest vectors the CPU has.
#[inline(always)]
pub(crate) fn wide<K: Kernel>(k: K) -> K::Output {
    #[cfg(target_arch = "x86_64")]
    {
        match width() {
            // SAFETY: the CPU supports AVX-512 F, VL, DQ and BW ([`width`]).
            Width::Avx512 => return unsafe { with_avx512(k) },
            // SAFETY: the CPU supports AVX2 ([`width`]).
            Width::Avx2 => return unsafe { with_avx2(k) },
            Width::Baseline => {}
        }
    }
    k.run()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn with_avx2<K: Kernel>(k: K) -> K::Output {
    k.run()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
unsafe fn with_avx512<K: Kernel>(k: K) -> K::Output {
    k.run()
}

/// Tests lower this to run every kernel at most at that [`Width`]
/// (`Width as u8`), to compare its bits with the wider paths' (other
/// tests running meanwhile get the same bits either way).
#[cfg(test)]
pub(crate) static MAX_WIDTH: std::sync::atomic::AtomicU8 =
    std::sync::atomic::AtomicU8::new(Width::Avx512 as u8);

#[inline(always)]
fn max_width() -> Width {
    #[cfg(test)]
    {
        match MAX_WIDTH.load(std::sync::atomic::Ordering::Relaxed) {
            0 => Width::Baseline,
            1 => Width::Avx2,
            _ => Width::Avx512,
        }
    }
    #[cfg(not(test))]
    {
        Width::Avx512
    }
}

/// Eight lanes of compensated sums, (hi, lo) per lane: the running sum
/// and the sum of the exact rounding errors of its additions (TwoSum).
pub(crate) type Sums8 = ([f64; 8], [f64; 8]);

/// Adds the terms of `a` into `sa` and those of `b` into `sb` (equal
/// lengths, a multiple of 8), term k into lane k mod 8, each as
/// s = hi + x, z = s − hi, lo += (hi − (s − z)) + (x − z), hi = s: in one
/// AVX-512 vector per sum, two AVX2 vectors, or the baseline's, by
/// [`width`]; the same bits.
#[inline]
pub(crate) fn add_sums8(sa: &mut Sums8, a: &[f64], sb: &mut Sums8, b: &[f64]) {
    debug_assert!(a.len() == b.len() && a.len().is_multiple_of(8));
    #[cfg(target_arch = "x86_64")]
    {
        match width() {
            // SAFETY: the CPU supports AVX-512F ([`width`]).
            Width::Avx512 => return unsafe { add_sums8_avx512(sa, a, sb, b) },
            // SAFETY: the CPU supports AVX2 ([`width`]).
            Width::Avx2 => return unsafe { add_sums8_avx2(sa, a, sb, b) },
            Width::Baseline => {}
        }
    }
    add_sums8_baseline(sa, a, sb, b);
}

#[inline(always)]
fn add_sums8_baseline(sa: &mut Sums8, a: &[f64], sb: &mut Sums8, b: &[f64]) {
    use wide::f64x4;
    type Lanes = [(f64x4, f64x4); 2];
    let add = |(hi, lo): &mut (f64x4, f64x4), x: f64x4| {
        let s = *hi + x;
        let z = s - *hi;
        *lo += (*hi - (s - z)) + (x - z);
        *hi = s;
    };
    let load = |x: &[f64]| f64x4::from([x[0], x[1], x[2], x[3]]);
    let split = |(hi, lo): &Sums8| -> Lanes {
        std::array::from_fn(|h| (load(&hi[4 * h..]), load(&lo[4 * h..])))
    };
    let join = |t: Lanes, s: &mut Sums8| {
        for (h, (hi, lo)) in t.into_iter().enumerate() {
            s.0[4 * h..4 * h + 4].copy_from_slice(&hi.to_array());
            s.1[4 * h..4 * h + 4].copy_from_slice(&lo.to_array());
        }
    };
    let (mut ta, mut tb) = (split(sa), split(sb));
    for (a8, b8) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for h in 0..2 {
            add(&mut ta[h], load(&a8[4 * h..]));
            add(&mut tb[h], load(&b8[4 * h..]));
        }
    }
    join(ta, sa);
    join(tb, sb);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unused_unsafe)]
unsafe fn add_sums8_avx2(sa: &mut Sums8, a: &[f64], sb: &mut Sums8, b: &[f64]) {
    use std::arch::x86_64::{
        __m256d, _mm256_add_pd, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_sub_pd,
    };
    // SAFETY (all blocks): loads and stores of 4 doubles at offsets 0 and
    // 4 of arrays and chunks of exactly 8; the arithmetic needs AVX,
    // enabled here.
    let add = |(hi, lo): &mut (__m256d, __m256d), x: __m256d| unsafe {
        let s = _mm256_add_pd(*hi, x);
        let z = _mm256_sub_pd(s, *hi);
        let err = _mm256_add_pd(_mm256_sub_pd(*hi, _mm256_sub_pd(s, z)), _mm256_sub_pd(x, z));
        *lo = _mm256_add_pd(*lo, err);
        *hi = s;
    };
    let split = |(hi, lo): &Sums8| -> [(__m256d, __m256d); 2] {
        std::array::from_fn(|h| unsafe {
            (
                _mm256_loadu_pd(hi[4 * h..].as_ptr()),
                _mm256_loadu_pd(lo[4 * h..].as_ptr()),
            )
        })
    };
    let (mut ta, mut tb) = (split(sa), split(sb));
    for (a8, b8) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for h in 0..2 {
            let (x, y) = unsafe {
                (
                    _mm256_loadu_pd(a8[4 * h..].as_ptr()),
                    _mm256_loadu_pd(b8[4 * h..].as_ptr()),
                )
            };
            add(&mut ta[h], x);
            add(&mut tb[h], y);
        }
    }
    for (t, s) in [(ta, sa), (tb, sb)] {
        for (h, (hi, lo)) in t.into_iter().enumerate() {
            unsafe {
                _mm256_storeu_pd(s.0[4 * h..].as_mut_ptr(), hi);
                _mm256_storeu_pd(s.1[4 * h..].as_mut_ptr(), lo);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[allow(unused_unsafe)]
unsafe fn add_sums8_avx512(sa: &mut Sums8, a: &[f64], sb: &mut Sums8, b: &[f64]) {
    use std::arch::x86_64::{
        __m512d, _mm512_add_pd, _mm512_loadu_pd, _mm512_storeu_pd, _mm512_sub_pd,
    };
    // SAFETY (all blocks): loads and stores of 8 doubles from arrays and
    // chunks of exactly 8; the arithmetic needs AVX-512F, enabled here.
    let add = |(hi, lo): &mut (__m512d, __m512d), x: __m512d| unsafe {
        let s = _mm512_add_pd(*hi, x);
        let z = _mm512_sub_pd(s, *hi);
        let err = _mm512_add_pd(_mm512_sub_pd(*hi, _mm512_sub_pd(s, z)), _mm512_sub_pd(x, z));
        *lo = _mm512_add_pd(*lo, err);
        *hi = s;
    };
    let split =
        |(hi, lo): &Sums8| unsafe { (_mm512_loadu_pd(hi.as_ptr()), _mm512_loadu_pd(lo.as_ptr())) };
    let (mut ta, mut tb) = (split(sa), split(sb));
    for (a8, b8) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let (x, y) = unsafe { (_mm512_loadu_pd(a8.as_ptr()), _mm512_loadu_pd(b8.as_ptr())) };
        add(&mut ta, x);
        add(&mut tb, y);
    }
    for ((hi, lo), s) in [(ta, sa), (tb, sb)] {
        unsafe {
            _mm512_storeu_pd(s.0.as_mut_ptr(), hi);
            _mm512_storeu_pd(s.1.as_mut_ptr(), lo);
        }
    }
}

/// Writes a\[i\] into `out_a` and b\[i\] into `out_b`, in order from
/// their first entry, for every i with keep\[i\] ≠ 0, and returns how many
/// (equal input lengths; a panic when an output is shorter than the
/// count): eight at a time by masked compression at [`Width::Avx512`]
/// when both outputs are at least as long as `keep`, else with one test
/// per four entries. Entries past the count, up to the length of `keep`,
/// may be overwritten.
#[inline]
pub(crate) fn write_kept(
    keep: &[f64],
    a: &[f64],
    b: &[f64],
    out_a: &mut [f64],
    out_b: &mut [f64],
) -> usize {
    let n = keep.len();
    assert!(a.len() == n && b.len() == n);
    #[cfg(target_arch = "x86_64")]
    {
        if width() == Width::Avx512 && out_a.len() >= n && out_b.len() >= n {
            // SAFETY: the CPU supports AVX-512F ([`width`]).
            return unsafe { write_kept_avx512(keep, a, b, &mut out_a[..n], &mut out_b[..n]) };
        }
    }
    write_kept_baseline(keep, a, b, out_a, out_b)
}

#[inline(always)]
fn write_kept_baseline(
    keep: &[f64],
    a: &[f64],
    b: &[f64],
    out_a: &mut [f64],
    out_b: &mut [f64],
) -> usize {
    let mut kept = 0;
    for (q, k4) in keep.chunks(4).enumerate() {
        if k4.iter().fold(false, |any, &k| any | (k != 0.0)) {
            for (l, &k) in k4.iter().enumerate() {
                if k != 0.0 {
                    out_a[kept] = a[4 * q + l];
                    out_b[kept] = b[4 * q + l];
                    kept += 1;
                }
            }
        }
    }
    kept
}

/// [`write_kept`] at [`Width::Avx512`]: outputs exactly as long as `keep`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[allow(unused_unsafe)]
unsafe fn write_kept_avx512(
    keep: &[f64],
    a: &[f64],
    b: &[f64],
    out_a: &mut [f64],
    out_b: &mut [f64],
) -> usize {
    use std::arch::x86_64::{
        _CMP_NEQ_UQ, _mm512_cmp_pd_mask, _mm512_loadu_pd, _mm512_maskz_compress_pd,
        _mm512_setzero_pd, _mm512_storeu_pd,
    };
    let n = keep.len();
    assert!(a.len() == n && b.len() == n && out_a.len() == n && out_b.len() == n);
    let whole = n / 8 * 8;
    let mut kept = 0;
    let eights = keep[..whole]
        .chunks_exact(8)
        .zip(a.chunks_exact(8))
        .zip(b.chunks_exact(8));
    // Compression into a register, then a plain store: the form that is
    // fast on every AVX-512 CPU (into memory it is slow on some). Groups
    // with none kept are skipped: the band pass keeps few pages.
    for ((k8, a8), b8) in eights {
        // SAFETY: loads of 8 doubles from chunks of exactly 8. The stores
        // write 8 doubles from entry `kept` of each output, where
        // kept + 8 <= whole <= n (kept counts the entries kept from
        // earlier chunks, at most 8 per chunk): within the outputs.
        unsafe {
            let zero = _mm512_setzero_pd();
            let m = _mm512_cmp_pd_mask::<_CMP_NEQ_UQ>(_mm512_loadu_pd(k8.as_ptr()), zero);
            if m == 0 {
                continue;
            }
            let x = _mm512_maskz_compress_pd(m, _mm512_loadu_pd(a8.as_ptr()));
            let y = _mm512_maskz_compress_pd(m, _mm512_loadu_pd(b8.as_ptr()));
            _mm512_storeu_pd(out_a.as_mut_ptr().add(kept), x);
            _mm512_storeu_pd(out_b.as_mut_ptr().add(kept), y);
            kept += m.count_ones() as usize;
        }
    }
    let (ta, tb) = (&mut out_a[kept..], &mut out_b[kept..]);
    kept + write_kept_baseline(&keep[whole..], &a[whole..], &b[whole..], ta, tb)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// [`write_kept`] with AVX-512, where the CPU has it, keeps the
    /// entries the baseline keeps, in order: flags 0, −0, 1, NaN and
    /// subnormal, each kept with probability 1/5 (runs of eight kept and
    /// none too), at lengths that are and are not multiples of eight;
    /// outputs longer than the input keep their entries past its length.
    #[test]
    fn the_compressed_writes_keep_the_baselines_entries() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(84);
        for len in [0, 1, 7, 8, 9, 64, 255, 256, 1000] {
            let flag = |r: u32| match r {
                0 => 1.0,
                1 => f64::NAN,
                2 => 5e-324,
                3 => -0.0,
                _ => 0.0,
            };
            let mut keep: Vec<f64> = (0..len).map(|_| flag(rng.random_range(0..10))).collect();
            if len >= 24 {
                keep[8..16].fill(1.0);
                keep[16..24].fill(0.0);
            }
            let a: Vec<f64> = (0..len).map(|_| rng.random_range(-1.0..1.0)).collect();
            let b: Vec<f64> = (0..len).map(|_| rng.random_range(-1.0..1.0)).collect();
            let (mut ya, mut yb) = (vec![7.0; len + 3], vec![8.0; len + 3]);
            let got = write_kept_baseline(&keep, &a, &b, &mut ya, &mut yb);
            let kept = |x: &[f64]| -> Vec<f64> {
                x.iter()
                    .zip(&keep)
                    .filter(|(_, k)| **k != 0.0)
                    .map(|(x, _)| *x)
                    .collect()
            };
            assert_eq!((&ya[..got], &yb[..got]), (&kept(&a)[..], &kept(&b)[..]));
            assert_eq!((&ya[len..], &yb[len..]), (&[7.0; 3][..], &[8.0; 3][..]));
            let (mut xa, mut xb) = (vec![7.0; len + 3], vec![8.0; len + 3]);
            assert_eq!(write_kept(&keep, &a, &b, &mut xa, &mut xb), got, "{len}");
            assert_eq!((&xa[..got], &xb[..got]), (&ya[..got], &yb[..got]), "{len}");
            assert_eq!((&xa[len..], &xb[len..]), (&ya[len..], &yb[len..]), "{len}");
            // The compressed form itself, whatever width other tests cap.
            #[cfg(target_arch = "x86_64")]
            if cpu_width() == Width::Avx512 {
                let (mut xa, mut xb) = (vec![7.0; len], vec![8.0; len]);
                // SAFETY: the CPU has AVX-512, checked just above.
                let n = unsafe { write_kept_avx512(&keep, &a, &b, &mut xa, &mut xb) };
                assert_eq!(n, got, "{len}");
                assert_eq!((&xa[..got], &xb[..got]), (&ya[..got], &yb[..got]), "{len}");
            }
            // Outputs just long enough for the count.
            let (mut sa, mut sb) = (vec![0.0; got], vec![0.0; got]);
            assert_eq!(write_kept(&keep, &a, &b, &mut sa, &mut sb), got, "{len}");
            assert_eq!((&sa[..], &sb[..]), (&ya[..got], &yb[..got]), "{len}");
            if got > 0 {
                let short = std::panic::catch_unwind(|| {
                    let (mut sa, mut sb) = (vec![0.0; got - 1], vec![0.0; got]);
                    write_kept(&keep, &a, &b, &mut sa, &mut sb)
                });
                assert!(short.is_err(), "{len}: an output too short panics");
            }
        }
    }

    /// [`add_sums8`] at every width the CPU has gives the baseline's bits
    /// (terms over 10^±30, a quarter of them zero, from non-zero starting
    /// sums), and each lane holds its terms' sum to double-double
    /// accuracy.
    #[test]
    fn the_wide_sums_give_the_baseline_bits() {
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
        let start: Sums8 = (
            [1.0, 2.0, 3.0, 1e-300, 5.0, 1e300, 0.0, 7.0],
            [1e-17, 0.0, -1e-17, 0.0, 2e-16, 0.0, 0.0, -3e-16],
        );
        let bits = |s: Sums8| {
            s.0.iter()
                .chain(&s.1)
                .map(|x| x.to_bits())
                .collect::<Vec<_>>()
        };
        let (mut ta, mut tb) = (start, start);
        add_sums8_baseline(&mut ta, &a, &mut tb, &b);
        #[cfg(target_arch = "x86_64")]
        for w in [Width::Avx2, Width::Avx512] {
            if cpu_width() < w {
                continue;
            }
            let (mut sa, mut sb) = (start, start);
            // SAFETY: the CPU has the width, checked just above.
            unsafe {
                match w {
                    Width::Avx2 => add_sums8_avx2(&mut sa, &a, &mut sb, &b),
                    _ => add_sums8_avx512(&mut sa, &a, &mut sb, &b),
                }
            }
            assert_eq!(bits(sa), bits(ta), "{w:?}");
            assert_eq!(bits(sb), bits(tb), "{w:?}");
        }
        // Lanes 0 and 5 of a against a sum of their terms from largest to
        // least in double-double (a reference independent of the lanes'
        // order).
        for l in [0, 5] {
            let mut lane: Vec<f64> = a
                .iter()
                .skip(l)
                .step_by(8)
                .copied()
                .chain([start.0[l], start.1[l]])
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
            let got = ta.0[l] + ta.1[l];
            assert!(
                (got - want).abs() <= 4.0 * f64::EPSILON * f64::EPSILON * want,
                "{l}"
            );
        }
    }
}
