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
        // Σ ρ^i = (1 − ρ^{K+1})/(1 − ρ), summed directly near ρ = 1.
        let sum = if (1.0 - rho).abs() < 1e-4 {
            (0..=k).fold((0.0, 1.0), |(s, p), _| (s + p, p * rho)).0
        } else {
            -((kf + 1.0) * rho.ln()).exp_m1() / (1.0 - rho)
        };
        Ok((gamma + mu * rho.powf(kf + 1.0)) / sum)
    } else {
        let x = 1.0 / rho;
        let sum = if (1.0 - x).abs() < 1e-4 {
            (0..=k).fold((0.0, 1.0), |(s, p), _| (s + p, p * x)).0
        } else {
            -((kf + 1.0) * x.ln()).exp_m1() / (1.0 - x)
        };
        Ok((gamma * x.powf(kf) + mu * rho) / sum)
    }
}

/// Proposition 3: the number of robots N_s minimising C_s(nλ/μ, γ, K) over
/// n ≥ 1, and that cost. Ties go to the smaller n.
///
/// Searched exhaustively up to the point where no larger n can win: for
/// ρ > 1 the loss rate alone is at least μ(ρ − 1), so once μ(nλ/μ − 1)
/// exceeds the best cost found the search stops.
pub fn optimal_static(lambda: f64, mu: f64, gamma: f64, k: usize) -> Result<(usize, f64)> {
    validate::positive("lambda", lambda)?;
    validate::positive("mu", mu)?;
    validate::non_negative("gamma", gamma)?;
    let mut best = (1usize, static_cost(lambda / mu, gamma, k, mu)?);
    let mut n = 2usize;
    loop {
        let rho = n as f64 * lambda / mu;
        if mu * (rho - 1.0) > best.1 {
            return Ok(best);
        }
        if n > 100_000_000 {
            return Err(Error::TooLarge(format!(
                "the static optimum needs more than {n} robots (lambda/mu too small)"
            )));
        }
        let c = static_cost(rho, gamma, k, mu)?;
        if c < best.1 {
            best = (n, c);
        }
        n += 1;
    }
}
