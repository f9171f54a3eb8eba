use super::*;
use crate::numeric::tolerance::close;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Every closed form against the matching phase-type representation.
#[test]
fn closed_forms_agree_with_phase_type() {
    let cases = vec![
        (
            Distribution::exponential(2.0).unwrap(),
            PhaseType::exponential(2.0).unwrap(),
        ),
        (
            Distribution::erlang(3, 1.5).unwrap(),
            PhaseType::erlang(3, 1.5).unwrap(),
        ),
        (
            Distribution::hyperexponential(vec![0.3, 0.7], vec![0.5, 4.0]).unwrap(),
            PhaseType::hyperexponential(&[0.3, 0.7], &[0.5, 4.0]).unwrap(),
        ),
    ];
    for (d, ph) in cases {
        let p = Distribution::PhaseType(ph);
        for k in 1..=4 {
            assert!(
                close(d.moment(k), p.moment(k), 1e-12),
                "moment {k}: {:?}",
                d
            );
        }
        for &s in &[1e-9, 0.01, 0.7, 3.0, 100.0] {
            assert!(close(d.laplace(s).unwrap(), p.laplace(s).unwrap(), 1e-12));
            assert!(close(
                d.laplace_complement(s),
                p.laplace_complement(s),
                1e-10
            ));
        }
        for &x in &[0.1, 1.0, 2.5] {
            assert!(
                close(d.cdf(x).unwrap(), p.cdf(x).unwrap(), 1e-10),
                "cdf at {x} for {:?}",
                d
            );
        }
    }
}

/// Gamma with integer shape is Erlang.
#[test]
fn gamma_integer_shape_is_erlang() {
    let g = Distribution::gamma(4.0, 2.0).unwrap();
    let e = Distribution::erlang(4, 2.0).unwrap();
    for &x in &[0.3, 1.0, 2.0, 5.0] {
        assert!(close(g.cdf(x).unwrap(), e.cdf(x).unwrap(), 1e-12));
    }
    assert!(close(
        g.laplace(0.5).unwrap(),
        (2.0f64 / 2.5).powi(4),
        1e-15
    ));
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
        assert!(
            (m - d.mean()).abs() < 5.0 * se,
            "{d:?}: sample mean {m} vs {}",
            d.mean()
        );
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

/// E[X^k] for k up to 2^32 - 1 is exact (no wrap to a negative power:
/// E[2^k] of the constant 2 is 2^k) and takes O(log k) steps, not k (nor k
/// LU solves for a phase type).
#[test]
fn huge_moment_orders_are_exact_and_quick() {
    let k = u32::MAX;
    let two = Distribution::deterministic(2.0).unwrap();
    assert_eq!(two.moment(k), f64::INFINITY);
    assert_eq!(two.moment(1 << 31), f64::INFINITY);
    assert_eq!(Distribution::deterministic(1.0).unwrap().moment(k), 1.0);
    assert_eq!(Distribution::deterministic(0.5).unwrap().moment(k), 0.0);
    assert_eq!(
        Distribution::empirical(vec![1.0, 1.0]).unwrap().moment(k),
        1.0
    );
    assert_eq!(
        Distribution::exponential(1.0).unwrap().moment(k),
        f64::INFINITY
    );
    // The same product, stopped early, still gives small orders exactly.
    assert_eq!(Distribution::exponential(2.0).unwrap().moment(3), 6.0 / 8.0);
    assert!(
        !Distribution::hyperexponential(vec![0.5, 0.5], vec![1.0, 2.0])
            .unwrap()
            .moment(k)
            .is_finite()
    );
    let ph = Distribution::PhaseType(PhaseType::new(&[1.0, 0.0], &[-1.0, 1.0, 0.0, -1.0]).unwrap());
    assert!(!ph.moment(k).is_finite());
    assert!(close(ph.moment(3), 24.0, 1e-12)); // Erlang(2, 1): (k+1)!
}

/// E[X^k] of a gamma with shape = rate = 1e15 and k = 2^32 - 1 is
/// immediate: large shapes use Stirling's series instead of k factors near
/// 1; it matches the product (or the sum of logarithms) where those can be
/// run.
#[test]
fn gamma_moments_of_huge_order_with_huge_shape() {
    let d = Distribution::gamma(1e15, 1e15).unwrap();
    // ln E[X^k] = sum_{j<k} ln(1 + j/1e15) ~ k^2/2e15 = 9.2e3: overflows.
    assert_eq!(d.moment(u32::MAX), f64::INFINITY);
    // k = 10^6, shape = rate = 1e12: ln E[X^k] = sum ln1p(j/s), about 0.5.
    let (s, k) = (1e12, 1_000_000u32);
    let exact = (0..k)
        .map(|j| (f64::from(j) / s).ln_1p())
        .sum::<f64>()
        .exp();
    let m = Distribution::gamma(s, s).unwrap().moment(k);
    assert!(close(m, exact, 1e-9), "{m} vs {exact}");
    // Where the product is short, both agree (shape 1e7, k 5000, rate 2e7:
    // the factors are near 1/2, the product underflows to 0 either way;
    // rate 1e7 + 2500: near 1).
    for rate in [2e7, 1e7 + 2500.0] {
        let want = settled_product((0..5000).map(|j| (1e7 + f64::from(j)) / rate));
        let got = Distribution::gamma(1e7, rate).unwrap().moment(5000);
        assert!(
            close(got, want, 1e-9) || (got == 0.0 && want == 0.0),
            "rate {rate}: {got} vs {want}"
        );
    }
    // Erlang uses the same path: shape = order.
    let e = Distribution::erlang(4_000_000_000, 4e9).unwrap();
    assert!(close(
        e.moment(2000),
        Distribution::gamma(4e9, 4e9).unwrap().moment(2000),
        1e-12
    ));
}

/// A phase-type cdf at x = 3e103 returns at once (nalgebra's matrix
/// exponential overflows its squaring count once Sx has a norm above about
/// 1e30, so large arguments are scaled down first); the cdf and density
/// agree with the closed forms over the whole range.
#[test]
fn phase_type_cdf_at_huge_arguments_is_exact_and_quick() {
    // Erlang(2, r) as a phase type: 1 - e^{-rx} (1 + rx).
    for r in [1e-300, 1e-9, 1.0, 1e9, 1e300] {
        let ph = PhaseType::new(&[1.0, 0.0], &[-r, r, 0.0, -r]).unwrap();
        for x in [
            1e-300,
            1e-9,
            0.5 / r,
            1.0 / r,
            7.0 / r,
            1e9,
            3.069e103,
            1e300,
            f64::MAX,
        ] {
            let rx = r * x;
            if !rx.is_finite() {
                assert_eq!(ph.cdf(x), 1.0, "r {r} x {x}");
                continue;
            }
            let exact = -(-rx).exp_m1() - rx * (-rx).exp();
            assert!(
                (ph.cdf(x) - exact).abs() < 1e-12,
                "r {r} x {x}: {} vs {exact}",
                ph.cdf(x)
            );
            // Density r^2 x e^{-rx}, relative to its maximum r/e.
            let dens = r * (rx * (-rx).exp());
            assert!(
                (ph.density(x) - dens).abs() <= 1e-12 * r,
                "r {r} x {x}: {} vs {dens}",
                ph.density(x)
            );
        }
    }
    // A stiff one: rates 1e-9 and 1e9 (hyperexponential as a phase type):
    // exact against 1 − ½(e^{−1e−9 x} + e^{−1e9 x}) at every scale.
    let ph = PhaseType::new(&[0.5, 0.5], &[-1e-9, 0.0, 0.0, -1e9]).unwrap();
    for x in [1e-12_f64, 1e-9, 1.0, 1e9, 1e12, 1e103, 1e300] {
        let exact = -0.5 * ((-1e-9 * x).exp_m1() + (-1e9 * x).exp_m1());
        assert!(
            (ph.cdf(x) - exact).abs() <= 1e-14 * exact,
            "x {x}: {} vs {exact}",
            ph.cdf(x)
        );
    }
}

/// Erlang with k = 2^32 - 1: a cdf and a draw each take far fewer than k
/// steps.
#[test]
fn huge_erlang_order_is_quick() {
    let d = Distribution::erlang(u32::MAX, 1.0).unwrap();
    assert_eq!(d.cdf(1e-15), Ok(0.0));
    assert_eq!(d.cdf(1e300), Ok(1.0));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let x = d.sample(&mut rng);
    // Mean k, standard deviation sqrt(k) = 65536.
    assert!((x - f64::from(u32::MAX)).abs() < 6.0 * 65536.0, "{x}");
    // Small orders still sum exponentials (same draws as before).
    assert!(close(
        Distribution::erlang(3, 2.0).unwrap().cdf(1.0).unwrap(),
        1.0 - (-2f64).exp() * (1.0 + 2.0 + 2.0),
        1e-14
    ));
}

/// The order of a moment and the lag of a correlation are refused outside
/// their ranges, for a Rust caller as for C; inside, Poisson(2) has
/// E[T^k] = k!/2^k and uncorrelated gaps.
#[test]
fn bmap_moment_and_lag_ranges() {
    let p = Bmap::poisson(2.0).unwrap();
    for k in [0, MAX_MOMENT_ORDER + 1, u32::MAX] {
        assert_eq!(
            p.interarrival_moment(k).unwrap_err(),
            Error::InvalidArgument(format!("moment order k must be in 1..=64, got {k}"))
        );
    }
    for k in [0, MAX_LAG + 1, u32::MAX] {
        assert_eq!(
            p.lag_correlation(k).unwrap_err(),
            Error::InvalidArgument(format!("lag k must be in 1..=1000000, got {k}"))
        );
    }
    assert!(close(p.interarrival_moment(1).unwrap(), 0.5, 1e-15));
    assert!(close(p.interarrival_moment(3).unwrap(), 6.0 / 8.0, 1e-14));
    assert!(close(
        p.interarrival_moment(MAX_MOMENT_ORDER).unwrap(),
        (1..=64).map(|i| f64::from(i) / 2.0).product::<f64>(),
        1e-12
    ));
    assert!(p.lag_correlation(1).unwrap().abs() < 1e-12);
    assert!(p.lag_correlation(MAX_LAG).unwrap().abs() < 1e-12);
}

/// The transform's s and the cdf's x are checked by the distribution, for a
/// Rust caller as for C: s finite and >= 0, x finite.
#[test]
fn laplace_and_cdf_check_their_argument() {
    let d = Distribution::exponential(2.0).unwrap();
    for s in [-1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            d.laplace(s).unwrap_err(),
            Error::InvalidArgument(format!("s must be finite and >= 0, got {}", Num(s)))
        );
    }
    for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(
            d.cdf(x).unwrap_err(),
            Error::InvalidArgument(format!("x must be finite, got {}", Num(x)))
        );
    }
    // E[exp(-sX)] = 2/(2+s); P(X <= x) = 1 - exp(-2x), 0 below 0.
    assert_eq!(d.laplace(0.0), Ok(1.0));
    assert!(close(d.laplace(2.0).unwrap(), 0.5, 1e-15));
    assert_eq!(d.cdf(-1.0), Ok(0.0));
    assert!(close(d.cdf(0.5).unwrap(), 1.0 - (-1f64).exp(), 1e-15));
}

/// ln E[e^{−sX}] of a phase-type where the transform is below the normal
/// range (a chain of k phases at s ≫ rates: h ≈ Π r_i / s^k; down to
/// 1e-375 and 1e-591, below the least double): within 4 ulps of the
/// product form of a hypoexponential (Coxian continuing with probability
/// 1), Σ ln(r_i/(s + r_i)). Unscaled, the solve lost the subnormal bits
/// (4.5e-11 relative at 6e158) or gave −∞.
#[test]
fn phase_type_log_transform_below_the_normal_range() {
    for (rates, s) in [
        (vec![1.0, 2.0], 6e158),
        (vec![1.0, 2.0, 3.0], 1e110),
        (vec![0.5, 4.0, 3.0, 7.0], 1e80),
        (vec![1.0, 2.0], 1e150),
        (vec![1.0, 2.0, 3.0], 1e125),
        (vec![3.0; 20], 1e30),
    ] {
        let cont = vec![1.0; rates.len() - 1];
        let ph = PhaseType::coxian(&rates, &cont).unwrap();
        let exact: f64 = rates.iter().map(|&r| (r / (s + r)).ln()).sum();
        let got = ph.log_laplace(s);
        let rel = ((got - exact) / exact).abs();
        assert!(
            rel <= 4.0 * f64::EPSILON,
            "{rates:?} at {s:e}: {got} vs {exact}"
        );
    }
}
