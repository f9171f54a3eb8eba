//! Special functions of one variable, each evaluated without cancellation.

/// ψ(s) = 1 − (1 − e^{−s})/s = (s − 1 + e^{−s})/s for s ≥ 0, in [0, 1).
///
/// Small s uses the alternating series Σ_{k≥1} (−1)^{k+1} s^k/(k+1)!,
/// because the direct form cancels (ψ(s) ≈ s/2). ψ(+∞) = 1.
pub(crate) fn psi(s: f64) -> f64 {
    if s.is_nan() {
        return f64::NAN;
    }
    if s <= 0.0 {
        return 0.0;
    }
    if s < 1.0 {
        let mut term = s / 2.0;
        let mut sum = 0.0;
        for k in 1..40 {
            sum += term;
            term *= -s / f64::from(k + 2);
            if term.abs() <= 1e-17 * sum.abs() {
                break;
            }
        }
        sum
    } else {
        // (1 − e^{−s})/s ≤ 0.64 here, so the subtraction loses at most a few ulps;
        // also correct for s = +∞.
        1.0 + (-s).exp_m1() / s
    }
}

/// E1(x) = x − 1 + e^{−x} = x ψ(x) ≥ 0, without cancellation.
pub(crate) fn e1(x: f64) -> f64 {
    if x == f64::INFINITY {
        f64::INFINITY
    } else {
        x * psi(x)
    }
}

/// E1(x)/x² = (x − 1 + e^{−x})/x² = ψ(x)/x, 1/2 at x = 0 (ψ is accurate
/// for small x, so the division loses nothing).
pub(crate) fn e1_over_x2(x: f64) -> f64 {
    if x <= 0.0 { 0.5 } else { psi(x) / x }
}

/// ln Σ e^{x_i}, without overflow or underflow of the terms; the largest
/// term itself when it is not finite (−∞ for no terms).
pub(crate) fn log_sum_exp(xs: impl Iterator<Item = f64> + Clone) -> f64 {
    let m = xs.clone().fold(f64::NEG_INFINITY, f64::max);
    if !m.is_finite() {
        return m;
    }
    m + xs.map(|x| (x - m).exp()).sum::<f64>().ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::tolerance::rel;

    #[test]
    fn psi_and_e1_match_direct_forms() {
        for &s in &[1e-3_f64, 0.3, 0.99, 1.0, 2.5, 30.0, 700.0] {
            let direct = (s - 1.0 + (-s).exp()) / s;
            let tol = if s < 0.5 { 1e-9 } else { 1e-14 };
            assert!(rel(psi(s), direct) < tol, "s={s}");
        }
        // Series accuracy where the direct form is useless: ψ(s) ≈ s/2 − s²/6.
        assert!(rel(psi(1e-8), 0.5e-8 - 1e-16 / 6.0) < 1e-15);
        assert_eq!(psi(f64::INFINITY), 1.0);
        assert!(rel(e1(2.0), 1.0 + (-2.0f64).exp()) < 1e-15);
    }

    #[test]
    fn log_sum_exp_is_finite_where_the_terms_are_not() {
        assert!(rel(log_sum_exp([0.0, 2.0_f64.ln()].into_iter()), 3.0_f64.ln()) < 1e-15);
        // e^{-1000} underflows and e^{1000} overflows; the sum of two equal terms is 2x.
        let two = std::f64::consts::LN_2;
        assert!(rel(log_sum_exp([-1000.0, -1000.0].into_iter()), two - 1000.0) < 1e-15);
        assert!(rel(log_sum_exp([1000.0, 1000.0].into_iter()), two + 1000.0) < 1e-15);
        assert_eq!(log_sum_exp(std::iter::empty()), f64::NEG_INFINITY);
        assert_eq!(log_sum_exp([f64::NEG_INFINITY, 0.0].into_iter()), 0.0);
    }
}
