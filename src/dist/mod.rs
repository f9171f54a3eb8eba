//! Access-time distributions: the law of X, the time one crawl takes.
//!
//! Coffman, Liu and Weber (paper 000, §2–§3) need only the mean E\[X] and the
//! Laplace transform h = E\[exp(−μX)] at each page's change rate μ, so every
//! distribution here exposes those exactly, plus moments and sampling for
//! validation by simulation. Because h is often within 1e−9 of 1 (a page
//! that changes rarely), the transform is also available as its complement
//! 1 − h and its logarithm ln h, each computed without cancellation.

mod bmap;
pub mod compose;
pub mod fit;
mod phase_type;

pub use bmap::Bmap;
pub(crate) use bmap::stationary_gth;
pub use phase_type::PhaseType;

use crate::error::{Error, Result};
use crate::validate;
use rand::{Rng, RngExt};
use rand_distr::Distribution as _;

/// A non-negative random variable with a known Laplace transform.
#[derive(Debug, Clone, PartialEq)]
pub enum Distribution {
    /// X = value with probability one.
    Deterministic { value: f64 },
    /// Exponential with the given rate (mean 1/rate).
    Exponential { rate: f64 },
    /// Sum of `k` independent exponentials of the same rate.
    Erlang { k: u32, rate: f64 },
    /// Gamma with shape and rate (mean shape/rate).
    Gamma { shape: f64, rate: f64 },
    /// Mixture: exponential of rate `rates[i]` with probability `probs[i]`.
    HyperExponential { probs: Vec<f64>, rates: Vec<f64> },
    /// General continuous phase-type distribution (α, S).
    PhaseType(PhaseType),
    /// The empirical distribution of observed samples (each equally likely).
    Empirical { samples: Vec<f64> },
}

impl Distribution {
    /// X = `value` (≥ 0) always.
    pub fn deterministic(value: f64) -> Result<Self> {
        validate::non_negative("value", value)?;
        Ok(Distribution::Deterministic { value })
    }

    /// Exponential with `rate` > 0.
    pub fn exponential(rate: f64) -> Result<Self> {
        validate::positive("rate", rate)?;
        Ok(Distribution::Exponential { rate })
    }

    /// Erlang with `k` ≥ 1 phases each of `rate` > 0.
    pub fn erlang(k: u32, rate: f64) -> Result<Self> {
        if k == 0 {
            return Err(Error::invalid("Erlang phase count k must be >= 1"));
        }
        validate::positive("rate", rate)?;
        Ok(Distribution::Erlang { k, rate })
    }

    /// Gamma with `shape` > 0 and `rate` > 0.
    pub fn gamma(shape: f64, rate: f64) -> Result<Self> {
        validate::positive("shape", shape)?;
        validate::positive("rate", rate)?;
        Ok(Distribution::Gamma { shape, rate })
    }

    /// Hyperexponential: branch probabilities summing to one, positive rates.
    pub fn hyperexponential(probs: Vec<f64>, rates: Vec<f64>) -> Result<Self> {
        validate::non_empty("probs", &probs)?;
        validate::same_len("probs", probs.len(), "rates", rates.len())?;
        validate::probability_vector("probs", &probs)?;
        validate::all_positive("rates", &rates)?;
        Ok(Distribution::HyperExponential { probs, rates })
    }

    /// Empirical distribution of non-negative, finite samples.
    pub fn empirical(samples: Vec<f64>) -> Result<Self> {
        validate::non_empty("samples", &samples)?;
        validate::all_non_negative("samples", &samples)?;
        Ok(Distribution::Empirical { samples })
    }

    /// E\[X].
    pub fn mean(&self) -> f64 {
        self.moment(1)
    }

    /// Var\[X].
    pub fn variance(&self) -> f64 {
        match self {
            Distribution::Empirical { samples } => {
                // Two-pass formula: avoids the cancellation of E[X²] − E[X]².
                let m = self.mean();
                samples.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / samples.len() as f64
            }
            Distribution::Deterministic { .. } => 0.0,
            Distribution::Exponential { rate } => 1.0 / (rate * rate),
            Distribution::Erlang { k, rate } => f64::from(*k) / (rate * rate),
            Distribution::Gamma { shape, rate } => shape / (rate * rate),
            _ => {
                let m = self.mean();
                (self.moment(2) - m * m).max(0.0)
            }
        }
    }

    /// The raw moment E\[X^k] (k = 0 gives 1).
    pub fn moment(&self, k: u32) -> f64 {
        if k == 0 {
            return 1.0;
        }
        let kf = f64::from(k);
        match self {
            Distribution::Deterministic { value } => pow_u32(*value, k),
            // E[X^k] = k!/rate^k
            Distribution::Exponential { rate } => {
                settled_product((1..=k).map(|j| f64::from(j) / rate))
            }
            // E[X^k] = Γ(shape+k)/(Γ(shape) rate^k) = Π_{j<k} (shape+j)/rate
            Distribution::Erlang { k: n, rate } => gamma_moment(f64::from(*n), *rate, k),
            Distribution::Gamma { shape, rate } => gamma_moment(*shape, *rate, k),
            Distribution::HyperExponential { probs, rates } => {
                let fact = settled_product((1..=k).map(f64::from));
                probs
                    .iter()
                    .zip(rates)
                    .map(|(p, r)| p * fact / r.powf(kf))
                    .sum()
            }
            Distribution::PhaseType(ph) => ph.moment(k),
            Distribution::Empirical { samples } => {
                samples.iter().map(|&x| pow_u32(x, k)).sum::<f64>() / samples.len() as f64
            }
        }
    }

    /// The Laplace–Stieltjes transform E\[exp(−sX)] for s ≥ 0.
    pub fn laplace(&self, s: f64) -> f64 {
        1.0 - self.laplace_complement(s)
    }

    /// 1 − E\[exp(−sX)] = E\[1 − exp(−sX)], computed without cancellation.
    pub fn laplace_complement(&self, s: f64) -> f64 {
        match self {
            Distribution::Deterministic { value } => -(-s * value).exp_m1(),
            Distribution::Exponential { rate } => s / (rate + s),
            Distribution::Erlang { k, rate } => -(-f64::from(*k) * (s / rate).ln_1p()).exp_m1(),
            Distribution::Gamma { shape, rate } => -(-shape * (s / rate).ln_1p()).exp_m1(),
            Distribution::HyperExponential { probs, rates } => {
                probs.iter().zip(rates).map(|(p, r)| p * s / (r + s)).sum()
            }
            Distribution::PhaseType(ph) => ph.laplace_complement(s),
            Distribution::Empirical { samples } => {
                samples.iter().map(|x| -(-s * x).exp_m1()).sum::<f64>() / samples.len() as f64
            }
        }
    }

    /// ln E\[exp(−sX)], accurate when the transform is close to one.
    pub fn log_laplace(&self, s: f64) -> f64 {
        match self {
            Distribution::Deterministic { value } => -s * value,
            Distribution::Exponential { rate } => -(s / rate).ln_1p(),
            Distribution::Erlang { k, rate } => -f64::from(*k) * (s / rate).ln_1p(),
            Distribution::Gamma { shape, rate } => -shape * (s / rate).ln_1p(),
            _ => (-self.laplace_complement(s)).ln_1p(),
        }
    }

    /// P(X ≤ x).
    pub fn cdf(&self, x: f64) -> f64 {
        if x < 0.0 {
            return 0.0;
        }
        match self {
            Distribution::Deterministic { value } => {
                if x >= *value {
                    1.0
                } else {
                    0.0
                }
            }
            Distribution::Exponential { rate } => -(-rate * x).exp_m1(),
            Distribution::Erlang { k, rate } => {
                // 1 − Σ_{j<k} e^{−rx}(rx)^j/j!
                let rx = rate * x;
                let mut term = (-rx).exp();
                let mut tail = 0.0;
                for j in 0..*k {
                    // A term that underflowed stays 0: the rest adds nothing
                    // (without this, k = 2^32 - 1 took four billion steps).
                    if term == 0.0 {
                        break;
                    }
                    tail += term;
                    term *= rx / f64::from(j + 1);
                }
                (1.0 - tail).clamp(0.0, 1.0)
            }
            Distribution::Gamma { shape, rate } => regularized_gamma_p(*shape, rate * x),
            Distribution::HyperExponential { probs, rates } => probs
                .iter()
                .zip(rates)
                .map(|(p, r)| p * -(-r * x).exp_m1())
                .sum(),
            Distribution::PhaseType(ph) => ph.cdf(x),
            Distribution::Empirical { samples } => {
                samples.iter().filter(|&&s| s <= x).count() as f64 / samples.len() as f64
            }
        }
    }

    /// One draw of X.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        match self {
            Distribution::Deterministic { value } => *value,
            Distribution::Exponential { rate } => exp_sample(rng, *rate),
            // A sum of k exponentials; for large k the same law by Gamma(k)
            // sampling in O(1) (k = 2^32 - 1 took four billion draws).
            Distribution::Erlang { k, rate } if *k > ERLANG_SUM_MAX => {
                rand_distr::Gamma::new(f64::from(*k), 1.0 / rate)
                    .map_or(f64::NAN, |g| g.sample(rng))
            }
            Distribution::Erlang { k, rate } => (0..*k).map(|_| exp_sample(rng, *rate)).sum(),
            Distribution::Gamma { shape, rate } => {
                // Parameters were validated at construction, so this cannot fail.
                rand_distr::Gamma::new(*shape, 1.0 / rate)
                    .map(|g| g.sample(rng))
                    .unwrap_or(f64::NAN)
            }
            Distribution::HyperExponential { probs, rates } => {
                let i = pick(rng, probs);
                exp_sample(rng, rates[i])
            }
            Distribution::PhaseType(ph) => ph.sample(rng),
            Distribution::Empirical { samples } => samples[rng.random_range(0..samples.len())],
        }
    }
}

/// Exponential draw by inversion; `random::<f64>()` is in [0, 1), so 1 − u > 0.
pub(crate) fn exp_sample<R: Rng + ?Sized>(rng: &mut R, rate: f64) -> f64 {
    let u: f64 = rng.random();
    -(1.0 - u).ln() / rate
}

/// Index i with probability `weights[i]` (weights sum to one).
pub(crate) fn pick<R: Rng + ?Sized>(rng: &mut R, weights: &[f64]) -> usize {
    let u: f64 = rng.random();
    let mut acc = 0.0;
    for (i, w) in weights.iter().enumerate() {
        acc += w;
        if u < acc {
            return i;
        }
    }
    // Rounding left u above the total: take the last branch with weight.
    weights.iter().rposition(|&w| w > 0.0).unwrap_or(0)
}

/// Regularized lower incomplete gamma P(a, x) (series / continued fraction,
/// Numerical Recipes §6.2), accurate to about 1e−14.
fn regularized_gamma_p(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let ln_pre = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let (mut sum, mut term, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (sum * ln_pre.exp()).clamp(0.0, 1.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (1.0 - ln_pre.exp() * h).clamp(0.0, 1.0)
    }
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9), relative error about 1e−15.
pub(crate) fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1−x) = π / sin(πx)
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Erlang orders above this are sampled as a Gamma variate.
const ERLANG_SUM_MAX: u32 = 1024;

/// x^k for any u32 k (`powi` takes an i32: k >= 2^31 would wrap negative).
fn pow_u32(x: f64, k: u32) -> f64 {
    match i32::try_from(k) {
        Ok(k) => x.powi(k),
        Err(_) => x.powf(f64::from(k)),
    }
}

/// E\[X^k] of Gamma(shape, rate) = Π_{j<k} (shape + j)/rate. The product
/// settles (at 0 or ∞) within about 40·√rate factors unless shape is close
/// to rate and both are large: then it ran up to k = 2^32 − 1 factors
/// (seconds; found by fuzzing). For shape ≥ 10^6 and k > 1000 it is
/// exp(ln Γ(shape + k) − ln Γ(shape) − k ln rate) by Stirling's series,
/// whose next term, 1/(360 shape³), is below 10^-20 there.
fn gamma_moment(shape: f64, rate: f64, k: u32) -> f64 {
    if k <= 1000 || shape < 1e6 {
        return settled_product((0..k).map(|j| (shape + f64::from(j)) / rate));
    }
    let (s, kf) = (shape, f64::from(k));
    let log = (s - 0.5) * (kf / s).ln_1p() + kf * ((s + kf) / rate).ln() - kf
        + 1.0 / (12.0 * (s + kf))
        - 1.0 / (12.0 * s);
    log.exp()
}

/// The product of positive finite factors, stopping once it is 0 or
/// infinite (it cannot leave either), so that k = 2^32 - 1 takes a few
/// hundred steps instead of four billion. The value is the full product's.
fn settled_product(factors: impl Iterator<Item = f64>) -> f64 {
    let mut acc = 1.0;
    for f in factors {
        acc *= f;
        if acc == 0.0 || !acc.is_finite() {
            break;
        }
    }
    acc
}

#[cfg(test)]
mod tests;
