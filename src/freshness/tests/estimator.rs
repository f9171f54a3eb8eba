use crate::dist::exp_sample;
use crate::error::Error;
use crate::freshness::estimator::*;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Whether a Poisson(μ) page changed during an interval t.
fn changed<R: rand::Rng>(rng: &mut R, mu: f64, t: f64) -> bool {
    let u: f64 = rng.random();
    u < -(-mu * t).exp_m1()
}

/// Exact MLE from the full list of visits, by bisection on the score
/// (reference for the bucketed estimator).
fn exact_mle(obs: &[(f64, bool)]) -> f64 {
    let score = |mu: f64| -> f64 {
        obs.iter()
            .map(|&(t, c)| if c { t / (mu * t).exp_m1() } else { -t })
            .sum()
    };
    let (mut lo, mut hi) = (1e-6f64, 1e6f64);
    for _ in 0..200 {
        let m = (lo * hi).sqrt();
        if score(m) > 0.0 { lo = m } else { hi = m }
    }
    (lo * hi).sqrt()
}

/// Expected Fisher information of one visit after interval t:
/// t² e^{−μt}/(1 − e^{−μt}).
fn fisher_one(mu: f64, t: f64) -> f64 {
    t * t * (-mu * t).exp() / -(-mu * t).exp_m1()
}

#[test]
fn regular_intervals_converge_and_naive_is_biased() {
    let (mu, interval, n) = (2.0, 1.0, 20_000);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut est = ChangeRateEstimator::new();
    for _ in 0..n {
        est.observe(interval, changed(&mut rng, mu, interval))
            .unwrap();
    }
    let m = est.estimate().unwrap();
    let se = 1.0 / (n as f64 * fisher_one(mu, interval)).sqrt();
    assert!((se - 0.01787).abs() < 1e-4, "se {se}");
    assert!(((m - mu) / mu).abs() < 0.05, "estimate {m}");
    assert!((m - mu).abs() < 4.0 * se, "estimate {m}, se {se}");
    // The observed-information SE agrees with the expected one.
    let se_obs = est.std_error().unwrap();
    assert!((se_obs / se - 1.0).abs() < 0.1, "{se_obs} vs {se}");
    // Naive ratio: → (1 − e^{−2})/1 = 0.8647, binomial spread √(p(1−p)/n).
    let naive = est.naive_rate().unwrap();
    let p = -(-2.0f64).exp_m1();
    assert!((p - 0.864_664_716_763_387_3).abs() < 1e-15);
    assert!(
        (naive - p).abs() < 4.0 * (p * (1.0 - p) / n as f64).sqrt(),
        "naive {naive}"
    );
    // A single bucket: regular crawls stay exact.
    assert_eq!(est.changed.len(), 1);
}

#[test]
fn random_intervals_converge_and_naive_is_biased() {
    // Intervals ~ Exp(1): all distinct, so the bucket merging is used.
    let (mu, n) = (2.0, 20_000);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    let mut est = ChangeRateEstimator::new();
    let mut obs = Vec::with_capacity(n);
    let mut fisher = 0.0;
    for _ in 0..n {
        let t = exp_sample(&mut rng, 1.0);
        let c = changed(&mut rng, mu, t);
        est.observe(t, c).unwrap();
        obs.push((t, c));
        fisher += fisher_one(mu, t);
    }
    assert!(est.changed.len() <= MAX_BUCKETS);
    let m = est.estimate().unwrap();
    let se = 1.0 / fisher.sqrt();
    assert!(((m - mu) / mu).abs() < 0.05, "estimate {m}");
    assert!((m - mu).abs() < 4.0 * se, "estimate {m}, se {se}");
    // Merging buckets barely moves the MLE.
    let exact = exact_mle(&obs);
    assert!(
        (m / exact - 1.0).abs() < 1e-3,
        "bucketed {m} vs exact {exact}"
    );
    // Naive: E[1 − e^{−2t}]/E[t] = (2/3)/1 for t ~ Exp(1).
    let naive = est.naive_rate().unwrap();
    assert!((naive - 2.0 / 3.0).abs() < 0.02, "naive {naive}");
}

#[test]
fn uniform_intervals_converge() {
    let (mu, n) = (0.7, 20_000);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    let mut est = ChangeRateEstimator::new();
    let mut obs = Vec::with_capacity(n);
    for _ in 0..n {
        let t = rng.random_range(0.1..5.0);
        let c = changed(&mut rng, mu, t);
        est.observe(t, c).unwrap();
        obs.push((t, c));
    }
    let m = est.estimate().unwrap();
    assert!(((m - mu) / mu).abs() < 0.05, "estimate {m}");
    assert!((m - mu).abs() < 4.0 * est.std_error().unwrap());
    assert!((m / exact_mle(&obs) - 1.0).abs() < 1e-3);
    assert!(est.naive_rate().unwrap() < 0.8 * mu);
}

#[test]
fn equal_intervals_match_closed_form() {
    for &(n, x, interval) in &[
        (10u64, 3u64, 1.0),
        (100, 99, 0.25),
        (1000, 1, 7.0),
        (5, 4, 1e-3),
        (7, 2, 1e4),
    ] {
        let mut est = ChangeRateEstimator::new();
        for k in 0..n {
            est.observe(interval, k < x).unwrap();
        }
        let closed = -(-(x as f64) / n as f64).ln_1p() / interval;
        let m = est.estimate().unwrap();
        assert!(
            (m / closed - 1.0).abs() < 1e-12,
            "n={n} x={x}: {m} vs {closed}"
        );
    }
}

#[test]
fn boundary_cases_without_prior() {
    let mut est = ChangeRateEstimator::new();
    assert_eq!(est.estimate(), None);
    assert_eq!(est.naive_rate(), None);
    assert_eq!(est.std_error(), None);
    // Only unchanged visits: the MLE is 0.
    for _ in 0..5 {
        est.observe(2.0, false).unwrap();
    }
    assert_eq!(est.estimate(), Some(0.0));
    assert_eq!(est.std_error(), None);
    // Only changed visits: Cho–Garcia-Molina, ln(2n + 1)/Ī.
    let mut est = ChangeRateEstimator::new();
    for _ in 0..10 {
        est.observe(0.5, true).unwrap();
    }
    let m = est.estimate().unwrap();
    assert!((m - 21f64.ln() / 0.5).abs() < 1e-12);
    assert_eq!(est.observations(), 10);
    assert_eq!(est.changes(), 10);
    assert_eq!(est.std_error(), None);
}

#[test]
fn prior_behaviour() {
    // No visits: the guess itself.
    let est = ChangeRateEstimator::with_prior(0.3, 10.0).unwrap();
    assert!((est.estimate().unwrap() - 0.3).abs() < 1e-15);
    assert!(est.std_error().is_some());

    // All changed: finite with a prior, above the guess.
    let mut est = ChangeRateEstimator::with_prior(0.3, 1.0).unwrap();
    for _ in 0..10 {
        est.observe(0.5, true).unwrap();
    }
    let m = est.estimate().unwrap();
    assert!(m.is_finite() && m > 0.3, "{m}");

    // Only unchanged: positive, below the guess.
    let mut est = ChangeRateEstimator::with_prior(0.3, 1.0).unwrap();
    for _ in 0..10 {
        est.observe(0.5, false).unwrap();
    }
    let m = est.estimate().unwrap();
    assert!(m > 0.0 && m < 0.3, "{m}");
    // Gamma posterior with no change seen: mode α/(β + T) exactly.
    assert!((m - 0.3 / (1.0 + 5.0)).abs() < 1e-14, "{m}");

    // The posterior mode lies between the prior mode and the MLE.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(14);
    let mut plain = ChangeRateEstimator::new();
    let mut weak = ChangeRateEstimator::with_prior(0.5, 1.0).unwrap();
    let mut strong = ChangeRateEstimator::with_prior(0.5, 1e5).unwrap();
    for _ in 0..20_000 {
        let c = changed(&mut rng, 2.0, 1.0);
        for e in [&mut plain, &mut weak, &mut strong] {
            e.observe(1.0, c).unwrap();
        }
    }
    let (p, w, s) = (
        plain.estimate().unwrap(),
        weak.estimate().unwrap(),
        strong.estimate().unwrap(),
    );
    assert!(w < p && w > 0.5 && s < w && s > 0.5, "{p} {w} {s}");
    // A weak prior fades: within 0.1% of the MLE after 20k visits.
    assert!((w / p - 1.0).abs() < 1e-3, "{w} vs {p}");
    // A prior worth 10^5 time units still dominates 2·10^4 visits.
    assert!(s < 1.0, "{s}");
}

#[test]
fn bucket_cap_is_respected() {
    let mut est = ChangeRateEstimator::new();
    for k in 0..10_000 {
        est.observe(1.0 + k as f64 * 1e-3, k % 3 == 0).unwrap();
    }
    assert!(est.changed.len() <= MAX_BUCKETS);
    let count: u64 = est.changed.iter().map(|b| b.1).sum();
    assert_eq!(count, est.changes());
    assert!(est.changed.windows(2).all(|w| w[0].0 < w[1].0));
    // Σ t over changed visits is preserved by merging.
    let kept: f64 = est.changed.iter().map(|&(t, c)| t * c as f64).sum();
    let expected: f64 = (0..10_000)
        .filter(|k| k % 3 == 0)
        .map(|k| 1.0 + k as f64 * 1e-3)
        .sum();
    assert!((kept / expected - 1.0).abs() < 1e-12);
}

#[test]
fn extreme_intervals_stay_finite() {
    let mut est = ChangeRateEstimator::new();
    est.observe(1e-9, true).unwrap();
    est.observe(1e9, false).unwrap();
    est.observe(1e-300, true).unwrap();
    est.observe(1e300, true).unwrap();
    let m = est.estimate().unwrap();
    assert!(m.is_finite() && m > 0.0, "{m}");
}

#[test]
fn rejects_bad_input() {
    let mut est = ChangeRateEstimator::new();
    for t in [0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert!(
            matches!(est.observe(t, true), Err(Error::InvalidArgument(_))),
            "{t}"
        );
    }
    assert_eq!(est.observations(), 0);
    for (r, w) in [
        (0.0, 1.0),
        (1.0, 0.0),
        (f64::NAN, 1.0),
        (1.0, -2.0),
        (1.0, f64::INFINITY),
    ] {
        assert!(ChangeRateEstimator::with_prior(r, w).is_err(), "{r} {w}");
    }
    assert!(matches!(
        ChangeRateEstimator::with_prior(1e300, 1e300),
        Err(Error::InvalidArgument(_))
    ));
    // Overflowing the total time is refused and leaves the state intact.
    let mut est = ChangeRateEstimator::new();
    est.observe(f64::MAX, false).unwrap();
    assert!(matches!(
        est.observe(f64::MAX, true),
        Err(Error::TooLarge(_))
    ));
    assert_eq!(est.observations(), 1);
}
