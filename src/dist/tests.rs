use super::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

/// Every closed form against the matching phase-type representation.
#[test]
fn closed_forms_agree_with_phase_type() {
    let cases = vec![
        (Distribution::exponential(2.0).unwrap(), PhaseType::exponential(2.0).unwrap()),
        (Distribution::erlang(3, 1.5).unwrap(), PhaseType::erlang(3, 1.5).unwrap()),
        (
            Distribution::hyperexponential(vec![0.3, 0.7], vec![0.5, 4.0]).unwrap(),
            PhaseType::hyperexponential(&[0.3, 0.7], &[0.5, 4.0]).unwrap(),
        ),
    ];
    for (d, ph) in cases {
        let p = Distribution::PhaseType(ph);
        for k in 1..=4 {
            assert!(close(d.moment(k), p.moment(k), 1e-12), "moment {k}: {:?}", d);
        }
        for &s in &[1e-9, 0.01, 0.7, 3.0, 100.0] {
            assert!(close(d.laplace(s), p.laplace(s), 1e-12));
            assert!(close(d.laplace_complement(s), p.laplace_complement(s), 1e-10));
        }
        for &x in &[0.1, 1.0, 2.5] {
            assert!(close(d.cdf(x), p.cdf(x), 1e-10), "cdf at {x} for {:?}", d);
        }
    }
}

/// Gamma with integer shape is Erlang.
#[test]
fn gamma_integer_shape_is_erlang() {
    let g = Distribution::gamma(4.0, 2.0).unwrap();
    let e = Distribution::erlang(4, 2.0).unwrap();
    for &x in &[0.3, 1.0, 2.0, 5.0] {
        assert!(close(g.cdf(x), e.cdf(x), 1e-12));
    }
    assert!(close(g.laplace(0.5), (2.0f64 / 2.5).powi(4), 1e-15));
    assert!(close(g.variance(), 1.0, 1e-15));
}

/// For tiny s, 1 − h ≈ s·E[X] with full relative accuracy (no cancellation).
#[test]
fn complement_is_accurate_for_small_rates() {
    let s = 1e-12;
    for d in [
        Distribution::deterministic(2.0).unwrap(),
        Distribution::exponential(0.5).unwrap(),
        Distribution::gamma(0.3, 0.15).unwrap(),
        Distribution::empirical(vec![1.0, 3.0]).unwrap(),
    ] {
        assert!(close(d.laplace_complement(s) / s, d.mean(), 1e-9), "{d:?}");
        assert!(close(-d.log_laplace(s) / s, d.mean(), 1e-9), "{d:?}");
    }
}

/// Sample means and second moments within 5 standard errors.
#[test]
fn sampling_matches_moments() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let ph = PhaseType::coxian(&[2.0, 1.0, 3.0], &[0.5, 0.8]).unwrap();
    for d in [
        Distribution::exponential(2.0).unwrap(),
        Distribution::erlang(3, 1.5).unwrap(),
        Distribution::gamma(0.7, 1.3).unwrap(),
        Distribution::hyperexponential(vec![0.2, 0.8], vec![0.3, 5.0]).unwrap(),
        Distribution::PhaseType(ph),
        Distribution::empirical(vec![0.5, 1.0, 4.0]).unwrap(),
    ] {
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|_| d.sample(&mut rng)).collect();
        let m = xs.iter().sum::<f64>() / n as f64;
        let se = (d.variance() / n as f64).sqrt();
        assert!((m - d.mean()).abs() < 5.0 * se, "{d:?}: sample mean {m} vs {}", d.mean());
    }
}

#[test]
fn invalid_parameters_are_rejected() {
    assert!(Distribution::exponential(-1.0).is_err());
    assert!(Distribution::exponential(f64::NAN).is_err());
    assert!(Distribution::erlang(0, 1.0).is_err());
    assert!(Distribution::gamma(1.0, f64::INFINITY).is_err());
    assert!(Distribution::hyperexponential(vec![0.5, 0.6], vec![1.0, 2.0]).is_err());
    assert!(Distribution::hyperexponential(vec![1.0], vec![1.0, 2.0]).is_err());
    assert!(Distribution::empirical(vec![]).is_err());
    assert!(Distribution::empirical(vec![1.0, -2.0]).is_err());
    assert!(PhaseType::new(&[1.0], &[1.0]).is_err());
    // Two phases that feed each other and never absorb.
    assert!(PhaseType::new(&[1.0, 0.0], &[-1.0, 1.0, 1.0, -1.0]).is_err());
    assert!(PhaseType::new(&[0.5, 0.5], &[-1.0]).is_err());
}

/// Found by fuzzing: k >= 2^31 wrapped to a negative power (E[X^k] of the
/// constant 2 was 0.5), and k = 2^32 - 1 ran four billion steps (a phase
/// type four billion LU solves).
#[test]
fn huge_moment_orders_are_exact_and_quick() {
    let k = u32::MAX;
    let two = Distribution::deterministic(2.0).unwrap();
    assert_eq!(two.moment(k), f64::INFINITY);
    assert_eq!(two.moment(1 << 31), f64::INFINITY);
    assert_eq!(Distribution::deterministic(1.0).unwrap().moment(k), 1.0);
    assert_eq!(Distribution::deterministic(0.5).unwrap().moment(k), 0.0);
    assert_eq!(Distribution::empirical(vec![1.0, 1.0]).unwrap().moment(k), 1.0);
    assert_eq!(Distribution::exponential(1.0).unwrap().moment(k), f64::INFINITY);
    // The same product, stopped early, still gives small orders exactly.
    assert_eq!(Distribution::exponential(2.0).unwrap().moment(3), 6.0 / 8.0);
    assert!(!Distribution::hyperexponential(vec![0.5, 0.5], vec![1.0, 2.0]).unwrap().moment(k).is_finite());
    let ph = Distribution::PhaseType(PhaseType::new(&[1.0, 0.0], &[-1.0, 1.0, 0.0, -1.0]).unwrap());
    assert!(!ph.moment(k).is_finite());
    assert!(close(ph.moment(3), 24.0, 1e-12)); // Erlang(2, 1): (k+1)!
}

/// Found by fuzzing: Erlang with k = 2^32 - 1 summed four billion terms
/// per cdf and drew four billion exponentials per sample.
#[test]
fn huge_erlang_order_is_quick() {
    let d = Distribution::erlang(u32::MAX, 1.0).unwrap();
    assert_eq!(d.cdf(1e-15), 0.0);
    assert_eq!(d.cdf(1e300), 1.0);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let x = d.sample(&mut rng);
    // Mean k, standard deviation sqrt(k) = 65536.
    assert!((x - f64::from(u32::MAX)).abs() < 6.0 * 65536.0, "{x}");
    // Small orders still sum exponentials (same draws as before).
    assert!(close(Distribution::erlang(3, 2.0).unwrap().cdf(1.0), 1.0 - (-2f64).exp() * (1.0 + 2.0 + 2.0), 1e-14));
}
