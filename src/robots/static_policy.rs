//! The static policy: a fixed number n of active robots, so the buffer is
//! an M/M/1/K queue with arrival rate nλ (Talim et al., §4, eq. 9 and
//! Proposition 3, after their earlier paper [6]).

use crate::error::{Error, Result};
use crate::validate;

/// C_s(ρ, γ, K) of eq. (9): γ·P(empty) + loss rate of an M/M/1/K queue with
/// load ρ = nλ/μ and service rate μ,
/// (1 − ρ)(γ + μρ^{K+1}) / (1 − ρ^{K+1}), which is (γ + μ)/(K + 1) at ρ = 1.
///
/// Computed as (γ + μρ^{K+1}) / Σ_{i=0}^{K} ρ^i (the same quantity without
/// the 0/0 at ρ = 1), and for ρ > 1 after dividing through by ρ^K so that
/// nothing overflows for large K.
pub fn static_cost(rho: f64, gamma: f64, k: usize, mu: f64) -> Result<f64> {
    validate::positive("rho", rho)?;
    validate::non_negative("gamma", gamma)?;
    validate::positive("mu", mu)?;
    if k < 1 {
        return Err(Error::invalid("buffer size K must be >= 1"));
    }
    let kf = k as f64;
    if rho <= 1.0 {
        Ok((gamma + mu * rho.powf(kf + 1.0)) / geometric_sum(rho, kf))
    } else {
        let x = 1.0 / rho;
        Ok((gamma * x.powf(kf) + mu * rho) / geometric_sum(x, kf))
    }
}

/// Σ_{i=0}^{K} x^i for 0 < x <= 1 as −expm1((K + 1) ln x)/(1 − x): accurate
/// to a few ulps even next to x = 1 (1 − x is exact there, and ln and
/// expm1 keep their relative accuracy), and O(1) for any K (a direct sum
/// near x = 1 would take K steps, up to 2^63 from C).
fn geometric_sum(x: f64, kf: f64) -> f64 {
    if x == 1.0 {
        kf + 1.0
    } else {
        -((kf + 1.0) * x.ln()).exp_m1() / (1.0 - x)
    }
}

/// Proposition 3: the number of robots N_s minimising C_s(nλ/μ, γ, K) over
/// n ≥ 1, and that cost. Ties go to the smaller n.
///
/// C_s is unimodal in ρ, so a binary search on the sign of
/// C_s(n + 1) − C_s(n) finds N_s in O(log n) evaluations (λ/μ = 1e-12, 10^12
/// candidate n, takes microseconds). Why unimodal: with S = Σ_{i=0}^{K} ρ^i,
/// C_s' has the sign of μρ^K Σ_{i=0}^{K} (K + 1 − i)ρ^i − γ S', i.e. of
/// g(ρ) − γ with g = μρ^K A/S', A = Σ (K + 1 − i)ρ^i; and
/// (log g)' = K/ρ + A'/A − S''/S' >= K/ρ − (K − 1)/ρ > 0, because every power
/// in S' = Σ_{i=1}^{K} iρ^{i−1} is at most K − 1. So C_s falls while g < γ
/// and rises after. The search runs over 1 ..= the largest n whose loss
/// rate alone, at least μ(nλ/μ − 1), does not exceed C_s(1); more than 2^53
/// candidates (n no longer exact in a double) is `TooLarge`.
pub fn optimal_static(lambda: f64, mu: f64, gamma: f64, k: usize) -> Result<(usize, f64)> {
    validate::positive("lambda", lambda)?;
    validate::positive("mu", mu)?;
    validate::non_negative("gamma", gamma)?;
    let cost = |n: usize| static_cost(n as f64 * lambda / mu, gamma, k, mu);
    let one = cost(1)?;
    let top = ((one + mu) / lambda).floor();
    if top >= 2f64.powi(53) {
        return Err(Error::TooLarge(format!(
            "the static optimum may need up to {top:e} robots (lambda/mu = {:e} too small for an exact search)",
            lambda / mu
        )));
    }
    // The first n in [lo, hi] with C_s(n + 1) >= C_s(n) (true at hi = top
    // by the bound above).
    let (mut lo, mut hi) = (1usize, (top as usize).max(1));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if cost(mid + 1)? >= cost(mid)? {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Ok((lo, cost(lo)?))
}
