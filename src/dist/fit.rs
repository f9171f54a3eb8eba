//! Fitting phase-type distributions and batch Markovian arrival processes to
//! measured moments, as Avrachenkov et al. (paper 002, §7) do with the
//! real-data figures of the INRIA crawler: page sizes by a three-moment
//! hyperexponential, the batch process by a correlated MAP, batch sizes by
//! a distribution on 1..k with the measured mean.

use super::{Bmap, PhaseType};
use crate::error::{Error, Num, Result};
use crate::validate;
use nalgebra::DMatrix;

/// Relative tolerance of the moment check after a fit.
const FIT_CHECK: f64 = 1e-8;

/// The acyclic order-2 phase-type distribution (ACPH(2)) with moments
/// E\[X] = `m1`, E\[X²] = `m2`, E\[X³] = `m3`, in canonical form
/// α = (p, 1 − p), S = \[\[−λ₁, λ₁\], \[0, −λ₂\]\], λ₁ ≤ λ₂ (Telek & Heindl 2003).
///
/// Method: the Laplace transform of an ACPH(2) is (a₁s + b₀)/(s² + b₁s + b₀);
/// matching its Taylor series to the moments gives a linear system in
/// (b₀, b₁) and then a₁ = b₁ − b₀m₁. λ₁, λ₂ are the roots of s² + b₁s + b₀
/// and p = 1 − a₁/λ₂.
///
/// Feasible region (checked; `Infeasible` outside), with n₂ = m₂/m₁² and
/// n₃ = m₁m₃/m₂²: the system must be non-singular (n₃ ≠ 3/2, except the
/// exponential n₂ = 2, n₃ = 3/2 which is returned as order 1), b₀ > 0,
/// b₁ > 0, real roots (b₁² ≥ 4b₀) and 0 ≤ a₁ ≤ λ₂. In terms of moments this
/// needs n₂ ≥ 3/2 (squared coefficient of variation ≥ 1/2, the Erlang-2
/// bound); for n₂ > 2 it is exactly n₃ > 3/2 (the hyperexponential region);
/// for 3/2 ≤ n₂ < 2 only a band of n₃ is reachable.
pub fn fit_aph2(m1: f64, m2: f64, m3: f64) -> Result<PhaseType> {
    validate::positive("m1", m1)?;
    validate::positive("m2", m2)?;
    validate::positive("m3", m3)?;
    // The fit is scale-free: it is done for the moments of X/m1 (1, n2,
    // m3/m1^3) and the rates divided by m1 at the end, so that m1 = 1e300
    // or 1e-300 does not overflow m1^2 or m1^3 on the way.
    let n2 = m2 / m1 / m1;
    let t3 = m3 / m1 / m1 / m1;
    if !(n2.is_finite() && n2 > 0.0 && t3.is_finite() && t3 > 0.0) {
        return Err(Error::Numerical(format!(
            "moments m1 = {}, m2 = {}, m3 = {} differ too much in scale: m2/m1^2 or m3/m1^3 is not a finite positive double",
            Num(m1),
            Num(m2),
            Num(m3)
        )));
    }
    let n3 = t3 / (n2 * n2);
    if n2 < 1.0 {
        return Err(Error::Infeasible(format!(
            "m2/m1^2 = {} < 1: no distribution has these moments",
            Num(n2)
        )));
    }
    let unscale = |l: f64| {
        let v = l / m1;
        if v.is_finite() && v >= f64::MIN_POSITIVE {
            Ok(v)
        } else {
            Err(Error::Numerical(format!(
                "a fitted rate, {} / m1 with m1 = {}, is not a normal double",
                Num(l),
                Num(m1)
            )))
        }
    };
    let (r1, r2, r3) = (1.0, n2 / 2.0, t3 / 6.0);
    // [r1 −r2; r2 −r3] (b1, b0)ᵀ = (1, r1)ᵀ
    let det = r2 * r2 - r1 * r3;
    if det.abs() <= 1e-12 * r2 * r2 {
        if (n2 - 2.0).abs() <= 1e-9 {
            return PhaseType::exponential(unscale(1.0)?);
        }
        return Err(Error::Infeasible(format!(
            "moments give n2 = m2/m1^2 = {}, n3 = m1*m3/m2^2 = {}: n3 = 3/2 is reachable by ACPH(2) only with n2 = 2",
            Num(n2),
            Num(n3)
        )));
    }
    let b1 = (r1 * r2 - r3) / det;
    let b0 = (r1 * r1 - r2) / det;
    let disc = b1 * b1 - 4.0 * b0;
    let outside = || {
        Error::Infeasible(format!(
            "moments (n2 = m2/m1^2 = {}, n3 = m1*m3/m2^2 = {}) lie outside the ACPH(2) region \
             (needs n2 >= 1.5; for n2 > 2, n3 > 1.5)",
            Num(n2),
            Num(n3)
        ))
    };
    if !(b0 > 0.0 && b1 > 0.0 && disc >= -1e-12 * b1 * b1) {
        return Err(outside());
    }
    let sq = disc.max(0.0).sqrt();
    let (l1, l2) = ((b1 - sq) / 2.0, (b1 + sq) / 2.0);
    let a1 = b1 - b0 * r1;
    let tol = 1e-12 * l2;
    if !(l1 > 0.0 && a1 >= -tol && a1 <= l2 + tol) {
        return Err(outside());
    }
    let p = (1.0 - a1 / l2).clamp(0.0, 1.0);
    let (l1, l2) = (unscale(l1)?, unscale(l2)?);
    let ph = PhaseType::new(&[p, 1.0 - p], &[-l1, l1, 0.0, -l2])?;
    check_moments(&ph, [m1, m2, m3])?;
    Ok(ph)
}

/// The two-phase hyperexponential H₂ with moments m1, m2, m3 (the paper's
/// fit of page sizes, §7): rates μ₁ < μ₂ with probabilities q, 1 − q.
/// Feasible iff n₂ = m₂/m₁² > 2 and n₃ = m₁m₃/m₂² > 3/2 (or the exponential,
/// n₂ = 2, n₃ = 3/2); `Infeasible` otherwise.
pub fn fit_hyperexponential2(m1: f64, m2: f64, m3: f64) -> Result<PhaseType> {
    let aph = fit_aph2(m1, m2, m3)?;
    if aph.order() == 1 {
        return Ok(aph);
    }
    let s = aph.sub_generator();
    let (l1, l2) = (-s[(0, 0)], -s[(1, 1)]);
    // Numerator coefficient a₁ = (1 − p)λ₂ = qμ₁ + (1 − q)μ₂ for an H₂.
    let a1 = (1.0 - aph.alpha()[0]) * l2;
    if l2 - l1 <= 1e-12 * l2 || a1 < l1 * (1.0 - 1e-12) {
        return Err(Error::Infeasible(format!(
            "moments have squared coefficient of variation {} <= 1: not hyperexponential",
            Num(m2 / m1 / m1 - 1.0)
        )));
    }
    let q = ((l2 - a1) / (l2 - l1)).clamp(0.0, 1.0);
    let ph = PhaseType::hyperexponential(&[q, 1.0 - q], &[l1, l2])?;
    check_moments(&ph, [m1, m2, m3])?;
    Ok(ph)
}

fn check_moments(ph: &PhaseType, m: [f64; 3]) -> Result<()> {
    for (k, &want) in m.iter().enumerate() {
        let got = ph.moment(k as u32 + 1);
        if (got - want).abs() > FIT_CHECK * want || got.is_nan() {
            return Err(Error::Numerical(format!(
                "fitted moment m{} is {}, target {}: ill-conditioned fit",
                k + 1,
                Num(got),
                Num(want)
            )));
        }
    }
    Ok(())
}

/// Largest Erlang order tried by [`fit_map`] (the MAP has twice as many phases).
pub const MAP_FIT_MAX_ERLANG: usize = 64;

/// A MAP whose times between arrivals have mean `mean`, variance `variance`
/// and lag-1 correlation `lag1`; if `lag2` is given, the family member whose
/// lag-2 correlation is closest to it.
///
/// Family (stated because the paper's method, Diamond & Alfa, is not
/// reproduced and a MAP of order 2 cannot reach the paper's figures: its
/// lag-1 correlation is at most (1 − 1/c²)/2 = 0.062 for c² = 1.142): two
/// equally likely regimes i = 0, 1 with Erlang(k) times of mean
/// m(1 ∓ δ); after each arrival the regime is kept with probability γ and
/// otherwise redrawn uniformly. Then c² = (1 + δ²)/k + δ² and the lag-j
/// correlation is γʲ δ²/c². For each k, δ² = (k c² − 1)/(k + 1) and
/// γ = ρ₁c²/δ²; k is admissible when 0 ≤ δ² < 1 and 0 ≤ γ ≤ 1.
/// The smallest admissible k is taken (or the best lag-2 match).
/// `Infeasible` when ρ₁ < 0 (this family is non-negatively correlated) or
/// no k ≤ [`MAP_FIT_MAX_ERLANG`] is admissible.
pub fn fit_map(mean: f64, variance: f64, lag1: f64, lag2: Option<f64>) -> Result<Bmap> {
    validate::positive("mean", mean)?;
    validate::positive("variance", variance)?;
    validate::finite("lag1", lag1)?;
    if let Some(l2) = lag2 {
        validate::finite("lag2", l2)?;
    }
    if !(0.0..1.0).contains(&lag1) {
        return Err(Error::Infeasible(format!(
            "lag1 = {} outside [0, 1): the two-regime Erlang MAP family has non-negative correlations below 1",
            Num(lag1)
        )));
    }
    let c2 = variance / mean / mean;
    if !(c2.is_finite() && c2 > 0.0) {
        return Err(Error::Numerical(format!(
            "variance/mean^2 = {} with mean = {}, variance = {}: not a finite positive double",
            Num(c2),
            Num(mean),
            Num(variance)
        )));
    }
    let mut best: Option<(f64, usize, f64, f64)> = None;
    for k in 1..=MAP_FIT_MAX_ERLANG {
        let kf = k as f64;
        let delta2 = (kf * c2 - 1.0) / (kf + 1.0);
        if !(0.0..1.0).contains(&delta2) {
            continue;
        }
        let gamma = if delta2 > 0.0 {
            lag1 * c2 / delta2
        } else if lag1 == 0.0 {
            0.0
        } else {
            continue;
        };
        if !(0.0..=1.0).contains(&gamma) {
            continue;
        }
        let score = match lag2 {
            Some(l2) if lag1 > 0.0 => (gamma - l2 / lag1).abs(),
            _ => kf, // smallest k
        };
        if best.is_none_or(|b| score < b.0) {
            best = Some((score, k, delta2, gamma));
        }
    }
    let Some((_, k, delta2, gamma)) = best else {
        return Err(Error::Infeasible(format!(
            "no two-regime Erlang(k <= {MAP_FIT_MAX_ERLANG}) MAP has squared CV variance/mean^2 = {} and lag1 = {}",
            Num(c2),
            Num(lag1)
        )));
    };
    let delta = delta2.sqrt();
    let n = 2 * k;
    let mut d0 = DMatrix::zeros(n, n);
    let mut d1 = DMatrix::zeros(n, n);
    for i in 0..2 {
        let c = mean * if i == 0 { 1.0 - delta } else { 1.0 + delta };
        let rate = k as f64 / c;
        if !(rate.is_finite() && rate >= f64::MIN_POSITIVE) {
            return Err(Error::Numerical(format!(
                "mean = {} gives a phase rate {} that is not a normal double",
                Num(mean),
                Num(rate)
            )));
        }
        for s in 0..k {
            let from = i * k + s;
            d0[(from, from)] = -rate;
            if s + 1 < k {
                d0[(from, from + 1)] = rate;
            } else {
                for j in 0..2 {
                    let p = if i == j { gamma } else { 0.0 } + (1.0 - gamma) * 0.5;
                    d1[(from, j * k)] += rate * p;
                }
            }
        }
    }
    Bmap::from_matrices(&[d0, d1])
}

/// The maximum-entropy distribution on batch sizes 1..=`max_batch` with
/// mean `mean` (a truncated geometric p_j ∝ xʲ, x found by bisection); the
/// paper's batch-size probabilities were lost, only their mean survives.
/// Index 0 of the result is P(batch = 1).
pub fn batch_sizes_with_mean(batch_mean: f64, max_batch: usize) -> Result<Vec<f64>> {
    let mean = validate::finite("batch_mean", batch_mean)?;
    if max_batch == 0 || max_batch > 1 << 16 {
        return Err(Error::invalid(format!(
            "max_batch must be in 1..=65536, got {max_batch}"
        )));
    }
    let kmax = max_batch as f64;
    if !(mean >= 1.0 && mean <= kmax) {
        return Err(Error::Infeasible(format!(
            "batch_mean = {} is outside [1, max_batch = {max_batch}]",
            Num(mean)
        )));
    }
    if max_batch == 1 || (mean - 1.0).abs() < 1e-15 || (mean - kmax).abs() < 1e-15 {
        let mut p = vec![0.0; max_batch];
        p[if mean < 1.5 { 0 } else { max_batch - 1 }] = 1.0;
        return Ok(p);
    }
    let dist = |lx: f64| -> Vec<f64> {
        // Weights relative to the largest, so that no power overflows.
        let lmax = if lx > 0.0 { lx * kmax } else { lx };
        let w: Vec<f64> = (1..=max_batch)
            .map(|j| (lx * j as f64 - lmax).exp())
            .collect();
        let s: f64 = w.iter().sum();
        w.into_iter().map(|v| v / s).collect()
    };
    let mean_of = |p: &[f64]| {
        p.iter()
            .enumerate()
            .map(|(j, v)| (j + 1) as f64 * v)
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (-60.0_f64, 60.0_f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mean_of(&dist(mid)) < mean {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(dist(0.5 * (lo + hi)))
}

/// A BMAP for batches whose epochs form the MAP of [`fit_map`] and whose
/// sizes, independent of everything else, follow `batch_probs` (index 0 =
/// size 1): D_j = p_j · D₁.
pub fn bmap_with_batches(batches: &Bmap, batch_probs: &[f64]) -> Result<Bmap> {
    validate::non_empty("batch_probs", batch_probs)?;
    validate::probability_vector("batch_probs", batch_probs)?;
    if batches.max_batch() != 1 {
        return Err(Error::invalid(
            "the batch-epoch process must be a MAP (single arrivals)",
        ));
    }
    // d here, then the two copies of Bmap::from_matrices: checked before
    // d is built (65,537 matrices of order 128 are 8.6 GB each copy).
    let matrices = batch_probs.len().saturating_add(1);
    super::bmap::check_build(batches.order(), matrices, 3)?;
    let mut d = Vec::with_capacity(matrices);
    d.push(batches.d(0).clone());
    for &p in batch_probs {
        d.push(batches.d(1) * p);
    }
    Bmap::from_matrices(&d)
}

/// The paper's real-data fit in one call: a BMAP with inter-batch mean,
/// variance, lag-1 (and optionally lag-2) correlation, and batch sizes
/// 1..=`max_batch` with mean `batch_mean`.
pub fn fit_bmap(
    mean: f64,
    variance: f64,
    lag1: f64,
    lag2: Option<f64>,
    batch_mean: f64,
    max_batch: usize,
) -> Result<Bmap> {
    let map = fit_map(mean, variance, lag1, lag2)?;
    let probs = batch_sizes_with_mean(batch_mean, max_batch)?;
    bmap_with_batches(&map, &probs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::tolerance::rel;

    #[test]
    fn aph2_recovers_random_aph2_and_h2() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..200 {
            let p: f64 = rng.random_range(0.0..1.0);
            let l1: f64 = rng.random_range(0.1..5.0);
            let l2: f64 = l1 * rng.random_range(1.0..20.0);
            let ph = PhaseType::new(&[p, 1.0 - p], &[-l1, l1, 0.0, -l2]).unwrap();
            let m = [ph.moment(1), ph.moment(2), ph.moment(3)];
            let fit = fit_aph2(m[0], m[1], m[2]).unwrap();
            for (k, &mk) in m.iter().enumerate() {
                assert!(rel(fit.moment(k as u32 + 1), mk) < 1e-8);
            }
            // Same distribution: compare the CDF at a few points.
            for x in [0.1, 1.0, 3.0] {
                assert!((fit.cdf(x) - ph.cdf(x)).abs() < 1e-7);
            }
        }
        // The paper's page-size moments (§7): squared CV 83.78.
        let (m1, m2, m3) = (49207.0356, 2.0527e11, 2.5773e18);
        let h = fit_hyperexponential2(m1, m2, m3).unwrap();
        assert!(
            rel(h.moment(1), m1) < 1e-9
                && rel(h.moment(2), m2) < 1e-9
                && rel(h.moment(3), m3) < 1e-9
        );
        let cv2 = m2 / (m1 * m1) - 1.0;
        assert!((cv2 - 83.78).abs() < 0.01, "{cv2}");
    }

    #[test]
    fn aph2_region_is_enforced() {
        // Below the Erlang-2 bound.
        assert!(matches!(fit_aph2(1.0, 1.2, 2.0), Err(Error::Infeasible(_))));
        // n2 > 2 with n3 = m1 m3/m2² < 3/2.
        let (m1, m2) = (1.0, 3.0);
        assert!(matches!(
            fit_aph2(m1, m2, 1.4 * m2 * m2 / m1),
            Err(Error::Infeasible(_))
        ));
        assert!(fit_aph2(m1, m2, 1.6 * m2 * m2 / m1).is_ok());
        // Exponential exactly.
        assert_eq!(fit_aph2(0.5, 0.5, 0.75).unwrap().order(), 1);
        // Erlang-2 is in ACPH(2) but not hyperexponential.
        let e2 = PhaseType::erlang(2, 3.0).unwrap();
        let m = [e2.moment(1), e2.moment(2), e2.moment(3)];
        assert!(fit_aph2(m[0], m[1], m[2]).is_ok());
        assert!(matches!(
            fit_hyperexponential2(m[0], m[1], m[2]),
            Err(Error::Infeasible(_))
        ));
        assert!(fit_aph2(f64::NAN, 1.0, 1.0).is_err());
        assert!(fit_aph2(1.0, 0.5, 1.0).is_err());
    }

    #[test]
    fn map_fit_reaches_the_real_data_figures() {
        let (mean, var) = (212.03, 51352.38);
        let map = fit_map(mean, var, 0.622, Some(0.574)).unwrap();
        assert!(rel(map.interarrival_moment(1).unwrap(), mean) < 1e-10);
        assert!(rel(map.interarrival_variance(), var) < 1e-9);
        assert!((map.lag_correlation(1).unwrap() - 0.622).abs() < 1e-9);
        // Lag-2 is γ·ρ₁ in this family: close to the measured 0.574.
        assert!(
            (map.lag_correlation(2).unwrap() - 0.574).abs() < 0.02,
            "{}",
            map.lag_correlation(2).unwrap()
        );
        assert!(matches!(
            fit_map(1.0, 1.0, -0.1, None),
            Err(Error::Infeasible(_))
        ));
        let renewal = fit_map(2.0, 4.0, 0.0, None).unwrap();
        assert!(renewal.lag_correlation(1).unwrap().abs() < 1e-12);
    }

    #[test]
    fn batch_fit_has_the_paper_mean() {
        let p = batch_sizes_with_mean(3.263389905223716, 8).unwrap();
        let m: f64 = p.iter().enumerate().map(|(j, v)| (j + 1) as f64 * v).sum();
        assert!((m - 3.263389905223716).abs() < 1e-12);
        assert!(p.windows(2).all(|w| w[0] >= w[1]));
        assert!(batch_sizes_with_mean(9.0, 8).is_err());
        let b = fit_bmap(212.03, 51352.38, 0.622, None, 3.263389905223716, 8).unwrap();
        assert!(rel(b.mean_batch_size(), 3.263389905223716) < 1e-12);
        assert!(rel(b.fundamental_rate(), 3.263389905223716 / 212.03) < 1e-10);
    }
}
