use crate::dist::Distribution;
use crate::error::Error;
use crate::freshness::Model;
use crate::freshness::frequencies;
use crate::freshness::randomized::*;
use crate::numeric::tolerance::rel;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Lemma 4.1 in the paper's literal form.
fn literal_rate(m: &Model, i: usize, f: f64) -> f64 {
    let (mu, e, h) = (m.change_rates()[i], m.mean_access(), m.h()[i]);
    (e - f / mu + f / mu * f * h / (1.0 - h + f * h)) / e
}

#[test]
fn lemma_4_1_explicit_values() {
    // Exponential X (rate 1), μ = (1, 2): h = (1/2, 1/3), f = (1/2, 1/2).
    // r_1 = 1 − 0.5 + 0.5·(1/4)/(1/2 + 1/4) = 2/3;
    // r_2 = 1 − 0.25 + 0.25·(1/6)/(2/3 + 1/6) = 0.8.
    let m = Model::new(Distribution::exponential(1.0).unwrap(), &[1.0, 2.0], None).unwrap();
    let r = obsolescence(&m, &[0.5, 0.5]).unwrap();
    assert!(rel(r[0], 2.0 / 3.0) < 1e-15);
    assert!(rel(r[1], 0.8) < 1e-15);
    assert!(rel(cost(&m, &[0.5, 0.5]).unwrap(), 2.0 / 3.0 + 1.6) < 1e-15);
    assert_eq!(obsolescence(&m, &[1.0, 0.0]).unwrap()[1], 1.0);
    // Agrees with the literal formula on moderate inputs.
    for &f in &[0.01, 0.3, 0.99] {
        assert!(
            rel(
                obsolescence(&m, &[f, 1.0 - f]).unwrap()[0],
                literal_rate(&m, 0, f)
            ) < 1e-13
        );
    }
}

#[test]
fn small_rates_keep_relative_accuracy() {
    // Deterministic X = 1, μ = 1e-9, f = 1: r = 1 − (1 − h)/(1 − h + h)·1/q
    // = 1 − (1 − e^{−q})/q ≈ q/2 − q²/6.
    let q = 1e-9_f64;
    let m = Model::new(Distribution::deterministic(1.0).unwrap(), &[q], None).unwrap();
    let r = obsolescence(&m, &[1.0]).unwrap()[0];
    assert!(rel(r, q / 2.0 - q * q / 6.0) < 1e-14, "{r}");
}

#[test]
fn closed_form_16_matches_water_filling() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for d in [
        Distribution::deterministic(0.7).unwrap(),
        Distribution::exponential(2.0).unwrap(),
        Distribution::erlang(3, 1.0).unwrap(),
    ] {
        for n in [1usize, 2, 7, 100] {
            let mu: Vec<f64> = (0..n)
                .map(|_| 10f64.powf(rng.random_range(-3.0..1.0)))
                .collect();
            let m = Model::new(d.clone(), &mu, None).unwrap();
            let closed = optimal_frequencies(&m).unwrap();
            let general = optimal_frequencies_general(&m).unwrap();
            for (c, g) in closed.iter().zip(&general) {
                assert!(rel(*g, *c) < 1e-10);
            }
            // (16) literally.
            let bt: f64 = m.h().iter().map(|h| 1.0 / h - 1.0).sum();
            for (c, h) in closed.iter().zip(m.h()) {
                assert!(rel(*c, (1.0 / h - 1.0) / bt) < 1e-9);
            }
            // (11) equals the cost at (16), and its literal form.
            let oc = optimal_cost(&m).unwrap();
            assert!(rel(cost(&m, &closed).unwrap(), oc) < 1e-12);
            let e = m.mean_access();
            let lit = m.total_change_rate() - bt / (1.0 + bt) / e;
            assert!(rel(oc, lit) < 1e-8, "{oc} vs {lit}");
        }
    }
}

#[test]
fn bound_6_below_11_below_other_frequencies() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for _ in 0..50 {
        let n = rng.random_range(1..30);
        let mu: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.random_range(-2.0..1.0)))
            .collect();
        let m = Model::new(Distribution::gamma(0.5, 0.25).unwrap(), &mu, None).unwrap();
        let lb = frequencies::lower_bound(&m).unwrap();
        let rnd = optimal_cost(&m).unwrap();
        assert!(lb > 0.0);
        assert!(lb <= rnd * (1.0 + 1e-12), "(6) {lb} > (11) {rnd}");
        // The randomized optimum is not the even-spacing optimum (n > 1).
        if n > 1 {
            assert!(rnd > lb * (1.0 + 1e-6));
        }
        for f in [
            frequencies::optimal_frequencies(&m).unwrap(),
            vec![1.0 / n as f64; n],
        ] {
            assert!(rnd <= cost(&m, &f).unwrap() * (1.0 + 1e-12));
        }
    }
}

#[test]
fn lemma_4_1_exceeds_theorem_3_3_with_corrected_expansion() {
    // Randomized r_i ≥ Theorem 3.3's bound; as f → 0 the difference is
    // h f²/(μ E[X] (1 − h)) + o(f²) — the paper prints h f²/(μ E[X]),
    // missing the factor 1/(1 − h).
    let m = Model::new(
        Distribution::exponential(1.0).unwrap(),
        &[0.5, 2.0, 8.0],
        None,
    )
    .unwrap();
    for i in 0..3 {
        let (mu, h) = (m.change_rates()[i], m.h()[i]);
        for &f in &[1e-3, 1e-2, 0.2, 0.5, 0.9, 1.0] {
            let mut v = vec![0.0; 3];
            v[i] = f;
            v[(i + 1) % 3] = 1.0 - f;
            let rr = obsolescence(&m, &v).unwrap()[i];
            let lb = frequencies::obsolescence_lower_bound(&m, &v).unwrap()[i];
            assert!(rr >= lb - 1e-15, "page {i} f={f}");
        }
        let f = 1e-4;
        let mut v = vec![0.0; 3];
        v[i] = f;
        v[(i + 1) % 3] = 1.0 - f;
        let diff = obsolescence(&m, &v).unwrap()[i]
            - frequencies::obsolescence_lower_bound(&m, &v).unwrap()[i];
        let corrected = h * f * f / (mu * (1.0 - h));
        assert!(rel(diff, corrected) < 1e-3, "diff {diff} vs {corrected}");
        let paper = h * f * f / mu;
        assert!(rel(diff, paper) > 0.1);
        // Near f = 1 the difference is (h/(μE))(1 − h + ln h)(f − 1)
        // (the paper prints (1 + ln h)).
        let f = 1.0 - 1e-5;
        let mut v = vec![0.0; 3];
        v[i] = f;
        v[(i + 1) % 3] = 1.0 - f;
        let diff = obsolescence(&m, &v).unwrap()[i]
            - frequencies::obsolescence_lower_bound(&m, &v).unwrap()[i];
        let slope = h / mu * (1.0 - h + h.ln()) * (f - 1.0);
        assert!(rel(diff, slope) < 1e-3, "near 1: {diff} vs {slope}");
    }
}

fn grid_min(m: &Model, steps: usize) -> f64 {
    let n = m.len();
    let hstep = 1.0 / steps as f64;
    let mut best = f64::INFINITY;
    for i in 0..=steps {
        if n == 2 {
            best = best.min(cost(m, &[i as f64 * hstep, 1.0 - i as f64 * hstep]).unwrap());
        } else {
            for j in 0..=(steps - i) {
                let f = [
                    i as f64 * hstep,
                    j as f64 * hstep,
                    1.0 - (i + j) as f64 * hstep,
                ];
                best = best.min(cost(m, &f).unwrap());
            }
        }
    }
    best
}

#[test]
fn brute_force_general_weights() {
    let cases = super::small_general_cases();
    for (d, mu, c) in cases {
        let m = Model::new(d, &mu, Some(&c)).unwrap();
        let f = optimal_frequencies(&m).unwrap();
        let best = cost(&m, &f).unwrap();
        assert!(rel(optimal_cost(&m).unwrap(), best) < 1e-15);
        let steps = if mu.len() == 2 { 20_000 } else { 600 };
        let g = grid_min(&m, steps);
        assert!(g >= best - 1e-12, "grid {g} below optimum {best}");
        assert!(g - best < 1e-4 * best.max(1.0), "grid {g} vs {best}");
        // The optimum is also at least the even-spacing bound.
        assert!(best >= frequencies::lower_bound(&m).unwrap());
    }
    let m = Model::new(
        Distribution::exponential(1.0).unwrap(),
        &[1.0, 1.0, 1.0],
        Some(&[1.0, 1.0, 0.02]),
    )
    .unwrap();
    let f = optimal_frequencies(&m).unwrap();
    assert_eq!(f[2], 0.0);
    assert!(rel(f[0], 0.5) < 1e-14);
    // Paper's validity test after (16) fails exactly here: min √(c/μ)
    // below Σ√(c/μ)(1/h − 1)/(1 + Σ(1/h − 1)) (E[X] = 1, h = 1/2).
    let s: Vec<f64> = [1.0f64, 1.0, 0.02].iter().map(|x| x.sqrt()).collect();
    let rhs = s.iter().sum::<f64>() / 4.0;
    assert!(s[2] < rhs);
}

#[test]
fn errors_are_reported() {
    let m = Model::new(Distribution::exponential(1.0).unwrap(), &[1.0, 2.0], None).unwrap();
    assert!(matches!(cost(&m, &[1.0]), Err(Error::InvalidArgument(_))));
    assert!(matches!(
        cost(&m, &[f64::NAN, 1.0]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        obsolescence(&m, &[0.2, 0.2]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        obsolescence(&m, &[]),
        Err(Error::InvalidArgument(_))
    ));
}

#[test]
fn frequencies_next_to_the_cutoff_keep_their_accuracy() {
    // E[X] = 1, w = c/μ = (1, (1 − 2⁻²⁰)²): σ = (1, 1 − 2⁻²⁰) exactly;
    // page 1 has the largest β (β'₁ = 1, κ = 1/β₁) and both pages are
    // active. (15) gives x_i ∝ σ_iκ − Σ_j β'_j(σ_j − σ_i):
    // x₁ ∝ κ + β'₂2⁻²⁰ and x₂ ∝ (σ₂κ − 2⁻²⁰)β'₂, where β₁ is chosen so that
    // σ₂κ − 2⁻²⁰ ≈ 1e−6·2⁻²⁰: σ₂(κ + B) − S in plain doubles would keep
    // only about four digits of it.
    let t = 2f64.powi(-20);
    let mu1 = (1.0 / t - 1.0) / (1.0 + 1e-6);
    let m = Model::new(
        Distribution::exponential(1.0).unwrap(),
        &[mu1, 1.0],
        Some(&[mu1, (1.0 - t) * (1.0 - t)]),
    )
    .unwrap();
    let b1 = (-m.log_h()[0]).exp_m1();
    let b2 = (-m.log_h()[1]).exp_m1() / b1;
    let kappa = 1.0 / b1;
    let x1 = kappa + b2 * t;
    // One rounding for σ₂κ − 2⁻²⁰.
    let x2 = (1.0 - t).mul_add(kappa, -t) * b2;
    let f = optimal_frequencies(&m).unwrap();
    assert!(x2 / x1 < 1e-11, "{x1} {x2}");
    assert!(rel(f[1] / f[0], x2 / x1) < 1e-8, "{f:?} vs {}", x2 / x1);
    assert!(rel(f[0], x1 / (x1 + x2)) < 1e-15);
}

/// Largest relative spread of λ_i = w_i (b_i/(b_i + h_i f_i))² ((13)
/// rearranged) over the visited pages, and of w_i/λ − 1 above 0 over the
/// unvisited ones (KKT of (12)).
fn kkt_violation(m: &Model, f: &[f64]) -> f64 {
    let e = m.mean_access();
    let w = |i: usize| m.weights()[i] / (m.change_rates()[i] * e);
    let lam = |i: usize| {
        let b = m.one_minus_h()[i];
        w(i) * (b / (b + m.h()[i] * f[i])).powi(2)
    };
    let visited: Vec<f64> = (0..f.len()).filter(|&i| f[i] > 0.0).map(lam).collect();
    let lmax = visited.iter().copied().fold(0.0, f64::max);
    let spread = visited.iter().map(|l| rel(*l, lmax)).fold(0.0, f64::max);
    let idle = (0..f.len())
        .filter(|&i| f[i] == 0.0)
        .map(|i| w(i) / lmax - 1.0)
        .fold(0.0, f64::max);
    spread.max(idle)
}

#[test]
fn thread_count_does_not_change_the_plan() {
    // The instance of issue 20: 0.2 n crawls per unit time.
    let n = 150_000;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20);
    let mu: Vec<f64> = (0..n)
        .map(|_| 10f64.powf(rng.random_range(-3.0..1.0)))
        .collect();
    let c: Vec<f64> = (0..n)
        .map(|_| 10f64.powf(rng.random_range(-1.0..1.0)))
        .collect();
    let d = Distribution::exponential(n as f64 / 5.0).unwrap();
    let m = Model::new(d, &mu, Some(&c)).unwrap();
    let one = super::same_plan_on_one_and_four_threads(|| optimal_frequencies(&m).unwrap());
    assert!((one.iter().sum::<f64>() - 1.0).abs() < 1e-14);
    assert!(one.contains(&0.0) && one.iter().any(|&x| x > 0.0));
    let v = kkt_violation(&m, &one);
    assert!(v < 1e-12, "{v:e}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn optimum_beats_random_frequencies(
        kind in 0usize..4,
        pages in prop::collection::vec((-3.0f64..1.5, -2.0f64..2.0), 1..20),
        prop_c in any::<bool>(),
        raw in prop::collection::vec(0.0f64..1.0, 20),
    ) {
        let d = match kind {
            0 => Distribution::deterministic(1.3).unwrap(),
            1 => Distribution::exponential(0.8).unwrap(),
            2 => Distribution::erlang(4, 2.0).unwrap(),
            _ => Distribution::hyperexponential(vec![0.3, 0.7], vec![0.2, 5.0]).unwrap(),
        };
        let mu: Vec<f64> = pages.iter().map(|p| 10f64.powf(p.0)).collect();
        let c: Vec<f64> = pages.iter().map(|p| 10f64.powf(p.1)).collect();
        let m = Model::new(d, &mu, if prop_c { None } else { Some(&c) }).unwrap();
        let f = optimal_frequencies(&m).unwrap();
        prop_assert!(f.iter().all(|x| x.is_finite() && *x >= 0.0));
        prop_assert!((f.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let best = cost(&m, &f).unwrap();
        prop_assert!(rel(optimal_cost(&m).unwrap(), best) < 1e-11);
        prop_assert!(frequencies::lower_bound(&m).unwrap() <= best * (1.0 + 1e-12));
        let n = mu.len();
        // KKT of (12): λ = w_i (b_i/(b_i + h_i f_i))² on active pages
        // ((13) rearranged), w_i ≤ λ on idle ones.
        let e = m.mean_access();
        let w: Vec<f64> = (0..n).map(|i| m.weights()[i] / (mu[i] * e)).collect();
        let lam: Vec<f64> = (0..n).filter(|&i| f[i] > 0.0).map(|i| {
            let b = m.one_minus_h()[i];
            let h = (m.log_h()[i]).exp();
            w[i] * (b / (b + h * f[i])).powi(2)
        }).collect();
        let lmax = lam.iter().copied().fold(0.0, f64::max);
        for l in &lam {
            prop_assert!(rel(*l, lmax) < 1e-9, "{:?}", lam);
        }
        for i in 0..n {
            if f[i] == 0.0 {
                prop_assert!(w[i] <= lmax * (1.0 + 1e-9));
            }
        }
        let tot: f64 = raw[..n].iter().sum();
        if tot > 0.0 {
            let g: Vec<f64> = raw[..n].iter().map(|x| x / tot).collect();
            let cg = cost(&m, &g).unwrap();
            prop_assert!(best <= cg * (1.0 + 1e-12), "{} > {}", best, cg);
        }
    }
}

#[test]
fn underflowed_active_betas_are_rescaled() {
    // β₁ = 2.2e−308 underflows against β₂ ≈ 1e30 once scaled by the
    // largest; page 2 (σ₂/σ₁ ≈ 1.5e−319) is inactive: (15) with page 1
    // alone gives ρ ≈ 1/β₁ = 4.5e307 and ρσ₂ ≈ 7e−12 < 1, so f = (1, 0).
    let m = Model::new(
        Distribution::exponential(1.0).unwrap(),
        &[2.2250738585072014e-308, 1e30],
        Some(&[1e300, 1.0]),
    )
    .unwrap();
    assert_eq!(optimal_frequencies(&m).unwrap(), vec![1.0, 0.0]);
}

#[test]
fn the_roots_bucket_gives_the_newton_plan() {
    // Issue 20's instance (0.2 n crawls per unit time), a narrow spread of
    // weights (many pages per bucket), equal weights (every σ tied: c ∝ μ
    // read through the general solver, where (16) holds), for cheap and
    // costly X: the same active set as Newton's steps, the same
    // frequencies to rounding, and the KKT conditions.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    for kind in 0..3 {
        for (n, spread) in [(3usize, 1.0), (1000, 1.0), (5000, 0.01), (3000, 0.0)] {
            // E[X] = 5/n.
            let rate = n as f64 / 5.0;
            let d = match kind {
                0 => Distribution::exponential(rate),
                1 => Distribution::deterministic(1.0 / rate),
                _ => Distribution::erlang(2, 2.0 * rate),
            }
            .unwrap();
            let mu: Vec<f64> = (0..n)
                .map(|_| 10f64.powf(rng.random_range(-3.0..1.0)))
                .collect();
            let c: Vec<f64> = if spread == 0.0 {
                mu.clone()
            } else {
                mu.iter()
                    .map(|m| m * 10f64.powf(rng.random_range(-spread..spread)))
                    .collect()
            };
            let m = Model::new(d, &mu, Some(&c)).unwrap();
            let fast = optimal_frequencies_general(&m).unwrap();
            let newton = general_by_newton(&m).unwrap();
            for (a, b) in fast.iter().zip(&newton) {
                assert_eq!(*a == 0.0, *b == 0.0);
                assert!(rel(*a, *b) < 1e-14, "{a} vs {b}");
            }
            assert!((fast.iter().sum::<f64>() - 1.0).abs() < 1e-14);
            assert!(kkt_violation(&m, &fast) < 1e-12);
            if spread == 0.0 {
                let beta: Vec<f64> = m.h().iter().map(|h| 1.0 / h - 1.0).collect();
                let bt: f64 = beta.iter().sum();
                for (f, b) in fast.iter().zip(&beta) {
                    assert!(rel(*f, b / bt) < 1e-9);
                }
            }
        }
    }
}

#[test]
fn betas_spanning_more_than_the_compensated_precision() {
    // μ = (1e-6, 1e30), c = (1e-30, 1), X ~ Exp(1): β' = (b₀, 1) with
    // b₀ = 1e-36, σ = (1, σ₁ ≈ 1e-3), κ = 1e-30; both pages active, and
    // F(ρ) = κ gives x₀ = (ρ − 1)b₀ with Σ x = κ, so f₀ = x₀/κ =
    // (κ + 1 − σ₁)b₀/((σ₁ + b₀)κ). The sums hold terms 33 decades apart
    // (beyond a double-double): the largest β' must be exactly 1.
    let m = Model::new(
        Distribution::exponential(1.0).unwrap(),
        &[1e-6, 1e30],
        Some(&[1e-30, 1.0]),
    )
    .unwrap();
    let s1 = ((1.0_f64 / 1e30) / (1e-30 / 1e-6)).sqrt();
    let (b0, kappa) = (1e-6 / 1e30, 1e-30);
    let f0 = ((kappa + 1.0) - s1) * b0 / ((s1 + b0) * kappa);
    for f in [
        optimal_frequencies_general(&m).unwrap(),
        general_by_newton(&m).unwrap(),
    ] {
        assert!(rel(f[0], f0) < 1e-12, "{f:?} vs {f0}");
        assert!(rel(f[1], 1.0 - f0) < 1e-14, "{f:?}");
    }
}

#[test]
fn products_below_the_splitting_range_take_the_exact_route() {
    // One page with μ = 1e-300 and the largest weight per rate among
    // 1000 (σ = 1, β' ≈ 1e-301): σβ' is below the range where the split
    // TwoProduct is exact, so its block of the histogram takes the
    // per-page route. The plan is Newton's and meets the KKT conditions.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
    let n = 1000;
    let mut mu: Vec<f64> = (0..n)
        .map(|_| 10f64.powf(rng.random_range(-3.0..1.0)))
        .collect();
    let mut c: Vec<f64> = (0..n)
        .map(|_| 10f64.powf(rng.random_range(-1.0..1.0)))
        .collect();
    (mu[300], c[300]) = (1e-300, 1e-290);
    let m = Model::new(
        Distribution::exponential(n as f64 / 5.0).unwrap(),
        &mu,
        Some(&c),
    )
    .unwrap();
    let fast = optimal_frequencies_general(&m).unwrap();
    let newton = general_by_newton(&m).unwrap();
    assert!(fast[300] > 0.0);
    for (a, b) in fast.iter().zip(&newton) {
        assert!(rel(*a, *b) < 1e-14, "{a} vs {b}");
    }
    assert!(kkt_violation(&m, &fast) < 1e-12);
}

/// Issue 20's instance at n pages (E[X] = 5/n) with weights c = μ·10^U,
/// U uniform on [−spread, spread] (spread 0: c = μ).
fn instance(seed: u64, n: usize, spread: f64, kind: usize) -> Model {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mu: Vec<f64> = (0..n)
        .map(|_| 10f64.powf(rng.random_range(-3.0..1.0)))
        .collect();
    let c: Vec<f64> = mu
        .iter()
        .map(|m| {
            if spread == 0.0 {
                *m
            } else {
                m * 10f64.powf(rng.random_range(-spread..spread))
            }
        })
        .collect();
    let rate = n as f64 / 5.0;
    let d = match kind {
        0 => Distribution::exponential(rate),
        1 => Distribution::deterministic(1.0 / rate),
        _ => Distribution::erlang(2, 2.0 * rate),
    }
    .unwrap();
    Model::new(d, &mu, Some(&c)).unwrap()
}

/// `f` is Newton's plan for `m` (the same active set, each frequency to
/// 1e-14), sums to 1 and meets the KKT conditions.
fn assert_newtons_plan(m: &Model, f: &[f64]) {
    let newton = general_by_newton(m).unwrap();
    for (a, b) in f.iter().zip(&newton) {
        assert_eq!(*a == 0.0, *b == 0.0);
        assert!(rel(*a, *b) < 1e-14, "{a} vs {b}");
    }
    assert!(sum_error(f).abs() < 1e-14, "{}", sum_error(f));
    assert!(kkt_violation(m, f) < 1e-12);
}

/// Σ f − 1 summed with TwoSum (a plain sum of 10^5 plan entries can be
/// off by 1e-14 by itself).
fn sum_error(f: &[f64]) -> f64 {
    let (mut hi, mut lo) = (-1.0_f64, 0.0_f64);
    for &x in f {
        let t = hi + x;
        let z = t - hi;
        lo += (hi - (t - z)) + (x - z);
        hi = t;
    }
    hi + lo
}

#[test]
fn the_band_around_a_samples_root_gives_the_newton_plan() {
    // Wide and narrow spreads of weights, equal weights read through the
    // general solver (every σ tied), cheap and costly X; 40,000 pages
    // sample every second page. The band's route must hold (the plan's
    // pass confirms its active set) and give Newton's plan.
    for kind in 0..3 {
        for (seed, spread) in [(31, 1.0), (32, 0.01), (33, 0.0)] {
            let m = instance(seed, 40_000, spread, kind);
            let f = general_by_band(&m).expect("the band holds the root");
            assert_newtons_plan(&m, &f);
        }
    }
    // Every page sampled (the sample's root is the root), and pages in
    // increasing σ (a strided sample of sorted pages).
    let m = instance(34, 5000, 1.0, 0);
    assert_newtons_plan(&m, &general_by_band(&m).unwrap());
    let (mut mu, mut c) = (m.change_rates().to_vec(), m.weights().to_vec());
    let mut order: Vec<usize> = (0..mu.len()).collect();
    order.sort_by(|&i, &j| (c[i] / mu[i]).total_cmp(&(c[j] / mu[j])));
    (mu, c) = (
        order.iter().map(|&i| mu[i]).collect(),
        order.iter().map(|&i| c[i]).collect(),
    );
    let sorted = Model::new(m.access().clone(), &mu, Some(&c)).unwrap();
    assert_newtons_plan(&sorted, &general_by_band(&sorted).unwrap());
}

#[test]
fn the_band_over_rates_and_weights_across_the_double_range() {
    // μ log-uniform over 10^±75 and c over 10^±150 (β' and σβ' below the
    // splitting range for some pages, σ near underflow for others; wider
    // rates would put optimal frequencies below the least double, where
    // the KKT check cannot see them): where the band's route holds it
    // gives Newton's plan, and the solve does whichever route it takes.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(39);
    for kind in 0..2 {
        let n = 40_000;
        let mu: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.random_range(-75.0..75.0)))
            .collect();
        let c: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.random_range(-150.0..150.0)))
            .collect();
        let d = match kind {
            0 => Distribution::exponential(1.0),
            _ => Distribution::erlang(2, 2.0),
        }
        .unwrap();
        let m = Model::new(d, &mu, Some(&c)).unwrap();
        if let Some(f) = general_by_band(&m) {
            assert_newtons_plan(&m, &f);
        }
        let mut f = vec![0.0; n];
        general_into_for_test(&m, &mut f, true).unwrap();
        assert_newtons_plan(&m, &f);
    }
}

#[test]
fn a_sample_that_misleads_the_band_falls_back_to_the_histogram() {
    // 2^17 pages sampled every 8th: the sampled pages weigh 10^4 times
    // more than the others, so the sample's root lies far from the root:
    // the band misses it, the plan's pass at the band's cut finds another
    // active set than the band's sums were taken over, and the solve
    // starts again from the histogram, with Newton's plan.
    let n = 1 << 17;
    let m = instance(35, n, 1.0, 0);
    let c: Vec<f64> = (0..n)
        .map(|i| m.weights()[i] * if i % 8 == 0 { 1e4 } else { 1.0 })
        .collect();
    let m = Model::new(m.access().clone(), m.change_rates(), Some(&c)).unwrap();
    assert!(general_by_band(&m).is_none());
    assert!(poisson_plan_for_test(&m).is_none());
    let mut f = vec![0.0; n];
    general_into_for_test(&m, &mut f, true).unwrap();
    assert_newtons_plan(&m, &f);
}

#[test]
fn the_band_gives_the_same_plan_on_any_number_of_threads() {
    let m = instance(36, 150_000, 1.0, 0);
    let one = super::same_plan_on_one_and_four_threads(|| general_by_band(&m).unwrap());
    assert_newtons_plan(&m, &one);
}

#[test]
fn the_plan_into_a_buffer_has_the_same_bits() {
    for (seed, spread) in [(37, 1.0), (38, 0.0)] {
        let m = instance(seed, 3000, spread, 2);
        let mut out = vec![f64::NAN; 3000];
        optimal_frequencies_into(&m, &mut out).unwrap();
        let f = optimal_frequencies(&m).unwrap();
        assert!(super::same_bits(&out, &f));
        let mut short = vec![7.0; 2999];
        assert!(matches!(
            optimal_frequencies_into(&m, &mut short),
            Err(Error::InvalidArgument(_))
        ));
        assert!(short.iter().all(|&x| x == 7.0));
    }
}

#[test]
fn an_inactive_page_whose_beta_dwarfs_the_active_ones_still_gets_a_plan_summing_to_one() {
    // Deterministic X = 4.91: page 1 (μ = 16.7, inactive) has β ≈ e^82,
    // the active pages β' ≈ 6e-38 and 2.5e-7, so κ = 1/β_max lies 10^29
    // below B: Σ x = κS no longer holds to the sums' precision (the plan
    // from the root's bucket summed to 1.00018; a proptest found it).
    // The deficit goes back to the active pages in proportion to β'
    // (the shared error of their excesses): Newton's plan (which had the
    // same flaw), the KKT conditions, and the plan computed in 80-digit
    // arithmetic to 1e-14 (page 2's excess ρσ₂ − 1 ≈ 7e-30 was 2e-4 off).
    let mu: Vec<f64> = [
        -2.3122627982139563_f64,
        1.2229340291006947,
        1.1340086921170278,
    ]
    .iter()
    .map(|p| 10f64.powf(*p))
    .collect();
    let c = [1.0, 1.0, 10f64.powf(1.567961559197724)];
    let m = Model::new(
        Distribution::deterministic(4.913419258935225).unwrap(),
        &mu,
        Some(&c),
    )
    .unwrap();
    let f = optimal_frequencies(&m).unwrap();
    assert_newtons_plan(&m, &f);
    let exact = [0.1863841466688988, 0.0, 0.8136158533311012];
    for (a, b) in f.iter().zip(&exact) {
        assert!(rel(*a, *b) < 1e-14, "{f:?}");
    }
    let (ours, best) = (cost(&m, &f).unwrap(), cost(&m, &exact).unwrap());
    assert!(ours <= best * (1.0 + 1e-12), "{ours} vs {best}");
}

/// f_i = β_i(ρσ_i − 1) over the active set `p`, ρ = (1 + Σβ)/(Σσβ) in
/// plain doubles (exponential X with E\[X\] = 1: β_i = μ_i, σ_i = √(c_i/μ_i)).
fn plan_over(mu: &[f64], c: &[f64], p: &[usize]) -> Vec<f64> {
    let sigma = |i: usize| (c[i] / mu[i]).sqrt();
    let num = 1.0 + p.iter().map(|&i| mu[i]).sum::<f64>();
    let den: f64 = p.iter().map(|&i| sigma(i) * mu[i]).sum();
    (0..mu.len())
        .map(|i| {
            if p.contains(&i) {
                mu[i] * (num / den * sigma(i) - 1.0)
            } else {
                0.0
            }
        })
        .collect()
}

/// Page 2's x_2 = excess·β'_2 (β scaled by an inactive page's β_max
/// 10^80 above) is 3.6e−320, subnormal, before the division that makes it
/// f_2 = 1.48e−109: it was 5.6e−5 off. Now x_i and κS are scaled by the
/// same power of two first.
#[test]
fn a_plan_entry_whose_unnormalised_value_is_subnormal_is_exact() {
    let mu = [
        7.883805770185016e79,
        1.5004728659956144e-51,
        6.590636559466374e-138,
    ];
    let c = [1.0, 3.7895001597991067e111, 1.884020732638833e-20];
    let m = Model::new(Distribution::exponential(1.0).unwrap(), &mu, Some(&c)).unwrap();
    let f = optimal_frequencies(&m).unwrap();
    let want = plan_over(&mu, &c, &[1, 2]);
    assert_eq!(f[0], 0.0);
    assert_eq!(f[1], 1.0);
    assert!(rel(f[2], want[2]) < 1e-13, "{f:?} {want:?}");
}

/// Page 1 dominates B and S of the set {0, 1, 2} while its excess,
/// about −3.6e−95 against S = 1.7e−51, is below what compensated sums
/// resolve: Newton kept it, and clipping its excess to 0 left a plan
/// summing to 4e73. Membership is now decided by G_j < κσ_j (no
/// cancellation): the plan over {0, 2}.
#[test]
fn a_spurious_active_page_is_dropped() {
    let mu = [
        1.0500116969516932e38,
        1.9045323956178056e117,
        2.7682759029015063e-94,
        2.978912819236351e121,
    ];
    let c = [
        1.2644769011191878e135,
        1.4601905952724125e143,
        3.1298852373732967e25,
        1.0,
    ];
    let m = Model::new(Distribution::exponential(1.0).unwrap(), &mu, Some(&c)).unwrap();
    let f = optimal_frequencies(&m).unwrap();
    let want = plan_over(&mu, &c, &[0, 2]);
    assert_eq!((f[1], f[3]), (0.0, 0.0));
    assert!(rel(f[2], want[2]) < 1e-12, "{f:?} {want:?}");
    assert!((f[0] - (1.0 - f[2])).abs() <= f64::EPSILON);
}

/// Rates and weights over ~10^±75 and 10^±150: a marginal page whose
/// excess σ_j(κ + B) − S the compensated sums cannot resolve (it holds
/// nearly all of B and S, or its excess is 1e−33 of them) is decided and
/// weighed by sums without cancellation. These plans summed to 0.98,
/// 4.7e34 and 0.94; the references are brute force over the active sets
/// in 500-digit decimal arithmetic.
#[test]
fn marginal_pages_the_compensated_sums_cannot_resolve_get_the_exact_plan() {
    let cases: [(&[f64], &[f64], &[f64]); 3] = [
        (
            &[
                7.845633680803632e30,
                0.08821591019460549,
                2.1617609417528036e69,
            ],
            &[2.738227049624922e117, 4.511358039433392e87, 1.0],
            &[0.02037539916322563, 0.9796246008367744, 0.0],
        ),
        (
            &[
                2.6956648372630066e68,
                9.119521860922293e-17,
                1.6854348813595015e33,
                3.427204685254071e70,
                6.067420071489571e26,
            ],
            &[
                5.606681064553775e131,
                4.547377700624907e69,
                2.882889640882104e99,
                1.0,
                2.5359015409031983e92,
            ],
            &[0.0, 4.923892109270067e-07, 0.999999507610789, 0.0, 0.0],
        ),
        (
            &[
                3.006882285367277e74,
                9.684792340048893e31,
                1.1211083774654228e-19,
            ],
            &[1.0, 2.3347877109262643e128, 1.8995643970710804e115],
            &[0.0, 0.0601203063532992, 0.9398796936467008],
        ),
    ];
    for (mu, c, want) in cases {
        let m = Model::new(Distribution::exponential(1.0).unwrap(), mu, Some(c)).unwrap();
        let f = optimal_frequencies(&m).unwrap();
        for (x, y) in f.iter().zip(want) {
            assert!(
                if *y == 0.0 {
                    *x == 0.0
                } else {
                    rel(*x, *y) < 1e-12
                },
                "{f:?} vs {want:?}"
            );
        }
    }
}

/// β spread beyond the doubles' range: page 1's β' = β_1/β_max is 5e−513
/// (0 as a double) next to page 0's 10^281, yet page 1 is the page of
/// largest σ and gets f_1 = β_1(ρσ_1 − 1) = 4.9e−116. Reference: brute
/// force over the active sets in 500-digit decimal arithmetic.
#[test]
fn a_page_whose_scaled_beta_underflows_keeps_its_frequency() {
    let mu = [1.1490826290900894e281, 5.9949813402721286e-232, 1.0];
    let m = Model::new(
        Distribution::exponential(1.0).unwrap(),
        &mu,
        Some(&[1.0; 3]),
    )
    .unwrap();
    let f = optimal_frequencies(&m).unwrap();
    assert_eq!(f[0], 0.0);
    assert!(rel(f[1], 4.896930197694114e-116) < 1e-12, "{f:?}");
    assert_eq!(f[2], 1.0);
}

/// Deterministic X: page 1 changes 7.8e16 times per crawl (β capped at
/// e^700 − 1), page 0 8.8e−261 times: with β scaled by the larger, κS is
/// 1e−442, below the doubles, and so is page 1's excess. The plan is
/// weighed relative to κ instead: f_0 = 2.6e−122 (800-digit reference,
/// with the same cap).
#[test]
fn a_plan_whose_kappa_s_underflows_is_weighed_relative_to_kappa() {
    let mu = [8.767030567745749e-261, 7.762908036319579e16];
    let m = Model::new(
        Distribution::deterministic(1.0).unwrap(),
        &mu,
        Some(&[1.0, 1.0]),
    )
    .unwrap();
    let f = optimal_frequencies(&m).unwrap();
    assert!(rel(f[0], 2.608786155456458e-122) < 1e-12, "{f:?}");
    assert_eq!(f[1], 1.0);
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 500,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x72616e64),
        ..ProptestConfig::default()
    })]
    /// KKT of (12) in logs, to 1e−12 plus 8 ulps of the largest |ln w_i|
    /// (ln λ and ln w_i are doubles of that size): rates over 10^±300
    /// (exponential X) or 10^−14..10^8 (deterministic X: β from 1e−14 to
    /// the cap e^700, often both in one plan) and weights over 10^±300,
    /// 2 to 7 pages. A page of h_i = 0 (β capped) has λ = w_i. An idle
    /// page must not be owed a frequency of the least double or more.
    #[test]
    fn kkt_holds_over_rates_and_weights_across_the_double_range(
        pages in prop::collection::vec((-300.0f64..300.0, -300.0f64..300.0), 2..8),
        det in any::<bool>(),
    ) {
        let d = if det { Distribution::deterministic(1.0).unwrap() } else { Distribution::exponential(1.0).unwrap() };
        let mu: Vec<f64> = pages
            .iter()
            .map(|p| if det { 10f64.powf(p.0 / 300.0 * 11.0 - 3.0) } else { 10f64.powf(p.0) })
            .collect();
        let c: Vec<f64> = pages.iter().map(|p| 10f64.powf(p.1)).collect();
        let m = Model::new(d, &mu, Some(&c)).unwrap();
        let f = optimal_frequencies(&m).unwrap();
        prop_assert!(f.iter().all(|x| x.is_finite() && *x >= 0.0));
        prop_assert!((f.iter().sum::<f64>() - 1.0).abs() < 1e-14, "{:?}", f);
        // ln λ_i = ln w_i − 2 ln(1 + h_i f_i/b_i) on visited pages ((13)).
        let e = m.mean_access();
        let ln_w = |i: usize| c[i].ln() - mu[i].ln() - e.ln();
        let ln_lam = |i: usize, fi: f64| ln_w(i) - 2.0 * (m.h()[i] * fi / m.one_minus_h()[i]).ln_1p();
        let seen: Vec<f64> = (0..f.len()).filter(|&i| f[i] >= f64::MIN_POSITIVE).map(|i| ln_lam(i, f[i])).collect();
        let hi = seen.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let lo = seen.iter().copied().fold(f64::INFINITY, f64::min);
        let tol = 1e-12 + 8.0 * f64::EPSILON * (0..f.len()).map(|i| ln_w(i).abs()).fold(0.0, f64::max);
        prop_assert!((hi - lo).exp_m1() < tol, "{:e} {:?} {:?} {:?}", (hi - lo).exp_m1(), f, mu, c);
        for (i, &fi) in f.iter().enumerate() {
            if fi == 0.0 {
                prop_assert!((ln_lam(i, 5e-324) - hi).exp_m1() < tol, "page {} {:?} {:?} {:?}", i, f, mu, c);
            }
        }
    }
}

/// Deterministic X: page 0 changes 3.5e6 times per crawl (β capped at
/// e^700 − 1, 10^304), pages 1 and 2 about 10^−30 times (β ≈ 10^−30): β
/// spreads over 10^334. Page 0 sits at its cutoff (λ = w_0 to every
/// digit) and takes what pages 1 and 2 leave at λ = w_0; the plan was 4%
/// off before the wide route. Reference: brute force over the active sets
/// in 500-digit decimal arithmetic, with the same cap.
#[test]
fn a_capped_page_next_to_pages_of_beta_1e_minus_30_takes_the_rest() {
    let mu = [
        3544628.444085006,
        4.197162951185583e-30,
        1.5167140253755457e-30,
    ];
    let c = [
        3.506459987070782e20,
        4.489091026314202e40,
        7.070246505770254e34,
    ];
    let m = Model::new(Distribution::deterministic(1.0).unwrap(), &mu, Some(&c)).unwrap();
    let want = [
        0.9563247346122336,
        0.04364234082284796,
        3.292456491843347e-05,
    ];
    let f = optimal_frequencies(&m).unwrap();
    for (x, y) in f.iter().zip(want) {
        assert!(rel(*x, y) < 1e-13, "{f:?} vs {want:?}");
    }
}

/// The band's pass and the plan's pass run compiled for the widest
/// vectors the CPU has (`simd::wide`): the same bits as the AVX2 and
/// baseline builds of the same loops, on issue 20's instance at 6e5
/// pages, on the Poisson route (exponential X), the band's route for
/// exponential X (β' = μ/max μ, w_max from the model) and deterministic
/// X (β' from ln h, w_max from a pass). Widths the CPU lacks fall back to
/// the next narrower.
#[test]
fn the_wide_kernels_give_the_baseline_bits() {
    for kind in [0, 1] {
        let m = instance(31, 600_000, 1.0, kind);
        let wide = super::same_plan_at_every_width(|| optimal_frequencies(&m).unwrap());
        assert!(wide.contains(&0.0) && wide.iter().any(|&x| x > 0.0));
    }
    // Exponential X takes the Poisson route above: the band's route too.
    let m = instance(31, 600_000, 1.0, 0);
    super::same_plan_at_every_width(|| general_by_band(&m).unwrap());
}

/// `f` from the Poisson route ([`poisson_plan_for_test`]) against
/// Newton's plan from the main route's σ_i and β'_i: the same active set,
/// Σ f = 1, the KKT conditions, and each frequency within 1e-13 of
/// a_i = (K + M)s_i/(KT), the size of the terms whose difference
/// f_i = ((K + M)s_i − Tμ_i)/(KT) is (s_i = √(c_iμ_i), M and T the sums of
/// μ and s over the active set): both routes are exact for their inputs
/// rounded differently, which moves f_i by a few ulps of a_i.
fn assert_poisson_plan(m: &Model, f: &[f64]) {
    let newton = general_by_newton(m).unwrap();
    let (mu, c) = (m.change_rates(), m.weights());
    let k = 1.0 / m.mean_access();
    let s = |i: usize| (c[i] * mu[i]).sqrt();
    let active: Vec<usize> = (0..f.len()).filter(|&i| newton[i] > 0.0).collect();
    let big_m: f64 = active.iter().map(|&i| mu[i]).sum();
    let t: f64 = active.iter().map(|&i| s(i)).sum();
    for i in 0..f.len() {
        let a = s(i) * (k + big_m) / (k * t);
        assert_eq!(f[i] == 0.0, newton[i] == 0.0, "page {i}");
        assert!(
            (f[i] - newton[i]).abs() <= 1e-13 * a,
            "page {i}: {} vs {}",
            f[i],
            newton[i]
        );
    }
    assert!(sum_error(f).abs() < 1e-14, "{}", sum_error(f));
    assert!(kkt_violation(m, f) < 1e-12);
}

#[test]
fn the_poisson_route_gives_newtons_plan_to_rounding() {
    // Issue 20's instance with weights spread over 10^±0.01, 10^±1 and
    // 10^±3, sampled every second page, and every page sampled.
    for (seed, spread, n) in [
        (41, 1.0, 40_000),
        (42, 0.01, 40_000),
        (43, 3.0, 40_000),
        (44, 1.0, 5000),
    ] {
        let m = instance(seed, n, spread, 0);
        let f = poisson_plan_for_test(&m).expect("the route holds");
        assert_poisson_plan(&m, &f);
    }
}

#[test]
fn the_poisson_route_over_its_whole_range() {
    // Rates and crawl rate scaled by 2^±380 and weights by 2^±380 (μ_i,
    // c_i and K reach 2^±393): the plan does not change, and every
    // product and sum of the route scales exactly, so the bits do not
    // either.
    let base = instance(45, 40_000, 1.0, 0);
    let f = poisson_plan_for_test(&base).expect("the route holds");
    assert_poisson_plan(&base, &f);
    let rate = 1.0 / base.mean_access();
    for (a, b) in [(380, 380), (380, -380), (-380, 380), (-380, -380)] {
        let (ta, tb) = (2f64.powi(a), 2f64.powi(b));
        let mu: Vec<f64> = base.change_rates().iter().map(|m| m * ta).collect();
        let c: Vec<f64> = base.weights().iter().map(|c| c * tb).collect();
        let d = Distribution::exponential(rate * ta).unwrap();
        let m = Model::new(d, &mu, Some(&c)).unwrap();
        let g = poisson_plan_for_test(&m).expect("the route holds");
        assert!(super::same_bits(&f, &g), "2^{a}, 2^{b}");
    }
}

#[test]
fn the_poisson_route_leaves_other_models_to_the_main_route() {
    // A weight beyond 2^400, a rate below 2^-400, a crawl rate beyond
    // 2^400, deterministic X: no plan from the route; the solve gives
    // Newton's plan.
    let base = instance(46, 40_000, 1.0, 0);
    let (mu, c) = (base.change_rates().to_vec(), base.weights().to_vec());
    let with = |i: usize, x: f64, v: &[f64]| {
        let mut v = v.to_vec();
        v[i] = x;
        v
    };
    let exp = |r: f64| Distribution::exponential(r).unwrap();
    let models = [
        Model::new(exp(8000.0), &mu, Some(&with(7, 1e121, &c))).unwrap(),
        Model::new(exp(8000.0), &with(7, 1e-121, &mu), Some(&c)).unwrap(),
        Model::new(exp(1e121), &mu, Some(&c)).unwrap(),
        Model::new(
            Distribution::deterministic(1.0 / 8000.0).unwrap(),
            &mu,
            Some(&c),
        )
        .unwrap(),
    ];
    for m in &models {
        assert!(poisson_plan_for_test(m).is_none());
        let mut f = vec![0.0; m.len()];
        general_into_for_test(m, &mut f, true).unwrap();
        assert_newtons_plan(m, &f);
    }
}

#[test]
fn the_poisson_route_gives_the_same_plan_on_any_number_of_threads() {
    let m = instance(47, 150_000, 1.0, 0);
    let one = super::same_plan_on_one_and_four_threads(|| poisson_plan_for_test(&m).unwrap());
    assert_poisson_plan(&m, &one);
}

#[test]
fn a_page_next_to_the_poisson_cutoff_takes_the_exact_excess() {
    // The active page of least frequency moved to 1e-9 (relative) above
    // the cutoff r* = T/(K + M): its excess is 1e-9 of its terms, which
    // the plain excess would give to about 1e-7; the exact one to
    // rounding of the inputs.
    let base = instance(48, 40_000, 1.0, 0);
    let (mu, mut c) = (base.change_rates().to_vec(), base.weights().to_vec());
    let newton = general_by_newton(&base).unwrap();
    let j = (0..c.len())
        .filter(|&i| newton[i] > 0.0)
        .min_by(|&a, &b| newton[a].total_cmp(&newton[b]))
        .unwrap();
    let k = 1.0 / base.mean_access();
    for _ in 0..3 {
        let active = (0..c.len()).filter(|&i| newton[i] > 0.0);
        let (big_m, t) = active.fold((0.0, 0.0), |(m, t), i| {
            (m + mu[i], t + (c[i] * mu[i]).sqrt())
        });
        // r_j = √(c_j/μ_j) = r*(1 + 1e-9).
        let r = t / (k + big_m) * (1.0 + 1e-9);
        c[j] = r * r * mu[j];
    }
    let m = Model::new(base.access().clone(), &mu, Some(&c)).unwrap();
    let f = poisson_plan_for_test(&m).expect("the route holds");
    assert!(f[j] > 0.0 && f[j] < 1e-12, "{}", f[j]);
    assert_poisson_plan(&m, &f);
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x706f6973),
        ..ProptestConfig::default()
    })]
    /// The Poisson route on 1 to 300 pages (every page in its sample):
    /// rates and weights over 10^±6, or weights tied to four ratios c/μ,
    /// the crawl rate from far below to far above Σ μ (few pages active,
    /// or all): where it gives a plan (else the main route plans), that
    /// plan is Newton's to rounding.
    #[test]
    fn the_poisson_route_matches_newton_on_small_models(
        pages in prop::collection::vec((-6.0f64..6.0, -6.0f64..6.0, 0usize..4), 1..300),
        tied in any::<bool>(),
        log_rate in -10.0f64..10.0,
    ) {
        let mu: Vec<f64> = pages.iter().map(|p| 10f64.powf(p.0)).collect();
        let c: Vec<f64> = pages
            .iter()
            .zip(&mu)
            .map(|(p, m)| if tied { m * 10f64.powi(p.2 as i32 - 2) } else { 10f64.powf(p.1) })
            .collect();
        let d = Distribution::exponential(10f64.powf(log_rate)).unwrap();
        let m = Model::new(d, &mu, Some(&c)).unwrap();
        if let Some(f) = poisson_plan_for_test(&m) {
            assert_poisson_plan(&m, &f);
        }
    }
}
