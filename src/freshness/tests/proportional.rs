use crate::dist::Distribution;
use crate::freshness::Model;
use crate::freshness::par::FORCE_THREADS;
use crate::freshness::proportional::proportional_frequencies;
use crate::numeric::tolerance::rel;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::Ordering;

/// Σ xs exactly rounded enough for a reference: sorted, then pairwise.
fn reference_sum(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    while v.len() > 1 {
        v = v.chunks(2).map(|c| c.iter().sum()).collect();
    }
    v[0]
}

/// Theorem 3.4 literally, f_i = ln(1 + μ_i E\[X\]) / Σ_j ln(1 + μ_j E\[X\]),
/// with the C library's ln_1p.
fn literal_exponential(mu: &[f64], mean: f64) -> Vec<f64> {
    let a: Vec<f64> = mu.iter().map(|m| (m * mean).ln_1p()).collect();
    let s = reference_sum(&a);
    a.iter().map(|x| x / s).collect()
}

#[test]
fn exponential_matches_the_literal_closed_form_on_every_path() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20);
    // 300 000 pages (beyond the cheap passes' threshold, so on threads);
    // q = μE[X] spans 1e-12..1e3: chunks of small q only take the series,
    // the others the library's ln_1p.
    for (n, lo, hi) in [
        (300_000, -12.0, -4.0),
        (300_000, -12.0, 3.0),
        (5_000, -3.0, 1.0),
    ] {
        let mu: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.random_range(lo..hi)))
            .collect();
        let m = Model::new(Distribution::exponential(1.0).unwrap(), &mu, None).unwrap();
        let f = proportional_frequencies(&m);
        let lit = literal_exponential(&mu, 1.0);
        let worst = f
            .iter()
            .zip(&lit)
            .map(|(a, b)| rel(*a, *b))
            .fold(0.0, f64::max);
        assert!(worst < 1e-12, "n = {n}: {worst:e}");
        assert!(rel(reference_sum(&f), 1.0) < 1e-14);
        // ln h from the model agrees with the distribution's transform.
        for (l, &x) in m.log_h().iter().zip(&mu).step_by(97) {
            let d = Distribution::exponential(1.0).unwrap().log_laplace(x);
            assert!(rel(*l, d) < 5e-16, "{x:e}: {l:e} vs {d:e}");
        }
    }
}

#[test]
fn same_bits_on_any_number_of_threads() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    let mu: Vec<f64> = (0..300_000)
        .map(|_| 10f64.powf(rng.random_range(-9.0..1.0)))
        .collect();
    let m = Model::new(Distribution::exponential(3.0).unwrap(), &mu, None).unwrap();
    let base = proportional_frequencies(&m);
    for t in [1, 3] {
        FORCE_THREADS.store(t, Ordering::Relaxed);
        let m = Model::new(Distribution::exponential(3.0).unwrap(), &mu, None).unwrap();
        let f = proportional_frequencies(&m);
        FORCE_THREADS.store(0, Ordering::Relaxed);
        assert!(f.iter().zip(&base).all(|(a, b)| a.to_bits() == b.to_bits()));
    }
}

#[test]
fn deterministic_is_proportional_to_mu_even_when_the_sum_overflows() {
    // Deterministic X: ln h_i = −μ_i E[X], f_i = μ_i/Σ μ_j.
    let d = Distribution::deterministic(0.5).unwrap();
    let mu = [0.2, 1.0, 5.0, 0.3];
    let f = proportional_frequencies(&Model::new(d.clone(), &mu, None).unwrap());
    for (fi, m) in f.iter().zip(&mu) {
        assert!(rel(*fi, m / 6.5) < 1e-15);
    }
    // a_i = μ_i E[X] = 1e308, 1e308, 1e307: Σ a overflows; the frequencies
    // are 10/21, 10/21, 1/21.
    let d = Distribution::deterministic(1.0).unwrap();
    let f = proportional_frequencies(&Model::new(d, &[1e308, 1e308, 1e307], None).unwrap());
    for (fi, want) in f.iter().zip([10.0 / 21.0, 10.0 / 21.0, 1.0 / 21.0]) {
        assert!(rel(*fi, want) < 1e-15, "{fi} vs {want}");
    }
}

#[test]
fn subnormal_sums_take_the_rescaled_route() {
    // a_i = μ_i E[X] subnormal: 1/Σ a would overflow; f = (1/4, 3/4).
    let d = Distribution::deterministic(1.0).unwrap();
    let f = proportional_frequencies(&Model::new(d, &[1e-310, 3e-310], None).unwrap());
    assert!(rel(f[0], 0.25) < 1e-4 && rel(f[1], 0.75) < 1e-4, "{f:?}");
    assert!(rel(f[0] + f[1], 1.0) < 1e-15);
}

#[test]
fn the_sum_from_model_new_gives_the_two_pass_bits() {
    // Model::new sums a_i while it copies μ (c = μ, enough pages for
    // threads); the closed form then takes one pass. Without that sum it
    // takes its two passes: the same bits, for the series and for
    // deterministic X.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(22);
    let mu: Vec<f64> = (0..300_001)
        .map(|_| 10f64.powf(rng.random_range(-9.0..-4.0)))
        .collect();
    for d in [
        Distribution::exponential(1.0).unwrap(),
        Distribution::deterministic(0.5).unwrap(),
    ] {
        let m = Model::new(d, &mu, None).unwrap();
        assert!(m.extremes.is_some_and(|e| e.log_total.is_some()));
        let mut two_pass = m.clone();
        two_pass.extremes.as_mut().unwrap().log_total = None;
        let (f, g) = (
            proportional_frequencies(&m),
            proportional_frequencies(&two_pass),
        );
        assert!(f.iter().zip(&g).all(|(a, b)| a.to_bits() == b.to_bits()));
        assert!(rel(reference_sum(&f), 1.0) < 1e-14);
    }
    // q up to 2e-4 (mean 2): the series; up to 10: not it, no sum.
    let m = Model::new(Distribution::exponential(0.5).unwrap(), &mu, None).unwrap();
    let big: Vec<f64> = mu.iter().map(|m| m * 1e5).collect();
    let b = Model::new(Distribution::exponential(1.0).unwrap(), &big, None).unwrap();
    assert!(m.extremes.is_some_and(|e| e.log_total.is_some()));
    assert!(b.extremes.is_some_and(|e| e.log_total.is_none()));
}

/// The plan written into a caller's buffer has the bits of the returned one
/// on every route (the one-pass closed form from 2^18 pages, the two-pass
/// one below it or beyond the series, deterministic X, the general solve),
/// and a buffer of the wrong length is refused untouched.
#[test]
fn frequencies_into_a_buffer_have_the_same_bits() {
    use crate::error::Error;
    use crate::freshness::frequencies::{optimal_frequencies, optimal_frequencies_into};
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
    let cases = [
        (300_000, 1e-7, false, -3.0, 1.0), // one pass: the sum from Model::new
        (300_000, 1.0, false, -3.0, 1.0),  // beyond the series: two passes
        (5_000, 1e-4, false, -3.0, 1.0),   // below 2^18 pages: two passes
        (5_000, 1e-4, true, -3.0, 1.0),    // general weights: the KKT solve
    ];
    for (n, mean, weighted, lo, hi) in cases {
        let mu: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.random_range(lo..hi)))
            .collect();
        let c: Vec<f64> = (0..n).map(|_| rng.random_range(0.1..10.0)).collect();
        for access in [
            Distribution::exponential(1.0 / mean).unwrap(),
            Distribution::deterministic(mean).unwrap(),
        ] {
            let m = Model::new(access, &mu, weighted.then_some(&c[..])).unwrap();
            let want = optimal_frequencies(&m).unwrap();
            let mut out = vec![f64::NAN; n];
            optimal_frequencies_into(&m, &mut out).unwrap();
            assert!(
                want.iter()
                    .zip(&out)
                    .all(|(a, b)| a.to_bits() == b.to_bits())
            );
            let sum: f64 = out.iter().sum();
            assert!(rel(sum, 1.0) < 1e-12, "{n} pages: the plan sums to {sum}");
            let mut short = vec![7.0; n - 1];
            let e = optimal_frequencies_into(&m, &mut short).unwrap_err();
            assert!(matches!(e, Error::InvalidArgument(_)), "{e}");
            assert!(short.iter().all(|&x| x == 7.0));
        }
    }
}

/// The closed form's sum in `Model::new` and its plan's pass run compiled
/// for the widest vectors the CPU has (`simd::wide`): the same bits as
/// the AVX2 and baseline builds of the same loops, for the series
/// (exponential X, every μE\[X\] ≤ 1/1024) and the linear formula
/// (deterministic X), at 3e5 pages (from where `Model::new` sums a_i).
/// Widths the CPU lacks fall back to the next narrower.
#[test]
fn the_wide_kernels_give_the_baseline_bits() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(29);
    let n = 300_000;
    let mu: Vec<f64> = (0..n)
        .map(|_| 10f64.powf(rng.random_range(-12.0..-4.0)))
        .collect();
    for d in [
        Distribution::exponential(1.0).unwrap(),
        Distribution::deterministic(1.0).unwrap(),
    ] {
        let plan = || proportional_frequencies(&Model::new(d.clone(), &mu, None).unwrap());
        let wide = super::same_plan_at_every_width(plan);
        assert!(rel(reference_sum(&wide), 1.0) < 1e-14);
    }
}
