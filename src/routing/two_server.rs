//! The two-server analysis of §5 (Figure 1): Poisson arrivals with λ = 1,
//! a slow server μ₁ = 1 and a fast one μ₂ ≥ 1. The optimal period has the
//! form (1, 2, …, 2) (Koole, and reference \[1] of the paper), of cost
//! g(n, μ₂) = [(1/2)^n + b² + (n − 2) b]/n with b = 1/(1 + μ₂), and its
//! length moves from n to n + 1 where g(n, μ₂) = g(n + 1, μ₂):
//! μ₂ = 1 + √2 for (1, 2) → (1, 2, 2).

use crate::error::{Error, Num, Result};
use crate::validate;

/// Largest n accepted (the switch points grow roughly like 2^n / n).
pub const MAX_N: u32 = 60;

/// g(n, μ₂) of §5 for n ≥ 2 and μ₂ > 0: the cost per packet of the period
/// (1, 2, …, 2) of length n.
pub fn cost(n: u32, mu2: f64) -> Result<f64> {
    if !(2..=MAX_N).contains(&n) {
        return Err(Error::invalid(format!("n must be in 2..={MAX_N}, got {n}")));
    }
    validate::positive("mu2", mu2)?;
    let b = 1.0 / (1.0 + mu2);
    let nf = f64::from(n);
    Ok((0.5f64.powi(n as i32) + b * b + (nf - 2.0) * b) / nf)
}

/// The rate μ₂ at which the optimal period length moves from n to n + 1,
/// the root of g(n, μ₂) = g(n + 1, μ₂), by bisection to machine precision.
///
/// Since n(n+1)(g(n) − g(n+1)) = b² − 2b + (n + 2)/2^{n+1}, the root is
/// also b = 1 − √(1 − (n + 2)/2^{n+1}); bisection on g itself keeps this
/// code an independent check of that closed form (see the tests).
pub fn switch_point(n: u32) -> Result<f64> {
    if !(2..MAX_N).contains(&n) {
        return Err(Error::invalid(format!("n must be in 2..{MAX_N}, got {n}")));
    }
    let h = |mu: f64| -> Result<f64> { Ok(cost(n, mu)? - cost(n + 1, mu)?) };
    // At μ₂ = 1 the shorter period is better (h < 0); for large μ₂ the
    // longer one is (h > 0).
    let mut lo = 1.0;
    if h(lo)? >= 0.0 {
        return Err(Error::Numerical(format!(
            "no sign change of g({n}) - g({}) above mu2 = 1",
            n + 1
        )));
    }
    let mut hi = 2.0;
    while h(hi)? <= 0.0 {
        hi *= 2.0;
        if hi > 1e300 {
            return Err(Error::Numerical("switch point not bracketed".into()));
        }
    }
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if h(mid)? < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(0.5 * (lo + hi))
}

/// The optimal period length n ≥ 2 of the (1, 2, …, 2) family at μ₂ ≥ 1
/// (Figure 1): argmin_n g(n, μ₂), n ≤ MAX_N.
pub fn optimal_length(mu2: f64) -> Result<u32> {
    validate::positive("mu2", mu2)?;
    if mu2 < 1.0 {
        return Err(Error::invalid(format!(
            "Figure 1 assumes mu2 >= mu1 = 1, got {}",
            Num(mu2)
        )));
    }
    let mut best = (f64::INFINITY, 2);
    for n in 2..=MAX_N {
        let g = cost(n, mu2)?;
        if g < best.0 {
            best = (g, n);
        }
    }
    Ok(best.1)
}
