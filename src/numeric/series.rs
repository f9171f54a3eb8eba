//! The Laplace complement 1 − E\[e^{−sX}] of a non-negative X from its
//! moments, for s small against X's scale: the alternating series
//! Σ_{k≥1} (−1)^{k+1} s^k E\[X^k]/k!, in u = sτ with the scaled
//! coefficients m_k = E\[X^k]/(k! τ^k) ≤ m_1. A few dozen flops per
//! argument instead of one exponential per sample of an empirical law, or
//! a linear solve per argument for a phase-type law.

/// Terms kept: with u ≤ [`U_MAX`] and m_k ≤ m_1 the omitted tail is below
/// u^K m_1 u/(1 − u), under 2e−18 of the sum (≥ (6/7) u m_1).
pub(crate) const TERMS: usize = 20;

/// Largest u = sτ at which the series is used.
pub(crate) const U_MAX: f64 = 0.125;

/// The scaled moments of one law: 1 − E\[e^{−sX}] = Σ (−1)^{k+1} m_k (sτ)^k.
#[derive(Debug, Clone)]
pub(crate) struct ComplementSeries {
    /// τ: every m_k ≤ m_1 (the scale of X).
    tau: f64,
    /// m_1, …, m_K.
    m: [f64; TERMS],
}

impl ComplementSeries {
    /// Equally likely samples x_j ≥ 0, τ = max x_j: m_k = mean((x_j/τ)^k)/k!
    /// (compensated sums). None when every sample is 0 or τ is not finite.
    pub(crate) fn empirical(samples: &[f64]) -> Option<Self> {
        let tau = samples.iter().copied().fold(0.0, f64::max);
        if !(tau > 0.0 && tau.is_finite()) {
            return None;
        }
        let n = samples.len() as f64;
        let mut m = [0.0; TERMS];
        let mut fact = 1.0;
        for (k, mk) in m.iter_mut().enumerate() {
            fact *= (k + 1) as f64;
            let pow = samples.iter().map(|&x| (x / tau).powi(k as i32 + 1));
            *mk = neumaier_sum(pow) / n / fact;
        }
        Some(ComplementSeries { tau, m })
    }

    /// From τ and m_1, …, m_K ([`TERMS`] of them, m_k ≤ m_1; None
    /// otherwise).
    pub(crate) fn from_scaled(tau: f64, m: &[f64]) -> Option<Self> {
        let ok = m.len() == TERMS
            && tau > 0.0
            && tau.is_finite()
            && m.iter().all(|v| v.is_finite() && *v >= 0.0 && *v <= m[0]);
        let mut out = [0.0; TERMS];
        out.copy_from_slice(m.get(..TERMS)?);
        ok.then_some(ComplementSeries { tau, m: out })
    }

    /// 1 − E\[e^{−sX}] for s ≥ 0 with sτ ≤ [`U_MAX`] (Horner in u = sτ),
    /// else None.
    pub(crate) fn complement(&self, s: f64) -> Option<f64> {
        let u = s * self.tau;
        if u.is_nan() || u > U_MAX {
            return None;
        }
        let inner = self.m.iter().rev().fold(0.0, |acc, &mk| mk - u * acc);
        Some(u * inner)
    }
}

/// Σ of the terms with Neumaier's compensation.
pub(crate) fn neumaier_sum(terms: impl Iterator<Item = f64>) -> f64 {
    let (mut sum, mut comp) = (0.0_f64, 0.0_f64);
    for t in terms {
        let next = sum + t;
        comp += if sum.abs() >= t.abs() {
            (sum - next) + t
        } else {
            (t - next) + sum
        };
        sum = next;
    }
    sum + comp
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::tolerance::rel;

    /// Against −expm1 summed directly: the two agree to a few ulps.
    #[test]
    fn empirical_matches_the_direct_sum() {
        let xs: Vec<f64> = (0..1000)
            .map(|j| -(1.0 - (j as f64 + 0.5) / 1000.0).ln())
            .collect();
        let series = ComplementSeries::empirical(&xs).unwrap();
        let tau = xs.iter().copied().fold(0.0, f64::max);
        let mut s = 1e-12 / tau;
        while s * tau <= U_MAX {
            let direct: f64 = xs.iter().map(|x| -(-s * x).exp_m1()).sum::<f64>() / 1000.0;
            let c = series.complement(s).unwrap();
            assert!(rel(c, direct) < 1e-14, "s={s} c={c} direct={direct}");
            s *= 1.1;
        }
        assert!(series.complement(1.01 * U_MAX / tau).is_none());
    }

    /// At the switch u = sτ = [`U_MAX`] (the worst truncation and
    /// rounding), against −expm1 summed with compensation, for samples with
    /// zeros and a spread of 1e−300..τ.
    #[test]
    fn accurate_up_to_the_switch() {
        let mut xs: Vec<f64> = (0..999).map(|j| 10f64.powf(-0.3 * f64::from(j))).collect();
        xs.extend([0.0, 0.0, 1.0]);
        let series = ComplementSeries::empirical(&xs).unwrap();
        let direct = |s: f64| {
            let n = xs.len() as f64;
            neumaier_sum(xs.iter().map(|x| -(-s * x).exp_m1())) / n
        };
        // τ = the largest sample = 1.
        let at_switch = U_MAX;
        for s in [
            at_switch,
            at_switch * (1.0 - 1e-15),
            at_switch * 0.9,
            1e-200,
        ] {
            let c = series.complement(s).unwrap();
            assert!(rel(c, direct(s)) < 4.0 * f64::EPSILON, "s={s}");
        }
        assert!(series.complement(at_switch * (1.0 + 1e-15)).is_none());
        assert!(series.complement(f64::NAN).is_none());
    }

    /// Sums whose plain f64 sum is wrong: exactly 2, and 1000 copies of
    /// fl(0.1) = 0.1 + 2^−55/5, whose exact sum 100 + 2^−55·200 rounds to 100.
    #[test]
    fn neumaier_sum_is_compensated() {
        assert_eq!(neumaier_sum([1.0, 1e100, 1.0, -1e100].into_iter()), 2.0);
        assert_eq!(neumaier_sum(std::iter::repeat_n(0.1, 1000)), 100.0);
        assert_ne!(std::iter::repeat_n(0.1, 1000).sum::<f64>(), 100.0);
    }

    /// One sample x: 1 − e^{−sx} in closed form.
    #[test]
    fn one_sample_is_expm1() {
        let series = ComplementSeries::empirical(&[2.5]).unwrap();
        for s in [1e-300, 1e-9, 1e-3, 0.01, 0.05] {
            let exact = -(-s * 2.5_f64).exp_m1();
            assert!(rel(series.complement(s).unwrap(), exact) < 4.0 * f64::EPSILON);
        }
        assert!(ComplementSeries::empirical(&[0.0, 0.0]).is_none());
    }
}
