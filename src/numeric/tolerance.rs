//! Float comparisons for unit tests: the one place for their tolerances.

/// Relative error |a − b| / |b|, with |b| floored at 1e−300 so that b = 0
/// gives a finite (huge unless a = 0) result instead of NaN or ∞.
pub(crate) fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(1e-300)
}

/// |a − b| ≤ tol · max(|b|, 1): relative for |b| ≥ 1, absolute below.
pub(crate) fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rel_and_close() {
        assert_eq!(rel(1.5, 1.0), 0.5);
        assert_eq!(rel(0.0, 0.0), 0.0);
        assert_eq!(rel(-2.0, 4.0), 1.5);
        assert!(rel(1e-300, 0.0) == 1.0);
        assert!(close(1e-7, 0.0, 1e-6) && !close(1e-5, 0.0, 1e-6));
        assert!(close(1e6 + 0.5, 1e6, 1e-6) && !close(1e6 + 2.0, 1e6, 1e-6));
    }
}
