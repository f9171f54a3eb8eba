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
}
