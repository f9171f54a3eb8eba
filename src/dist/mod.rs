//! Access-time distributions: the law of X, the time one crawl takes.
//!
//! Coffman, Liu and Weber (paper 000, §2–§3) need only the mean E\[X] and the
//! Laplace transform h = E\[exp(−μX)] at each page's change rate μ, so every
//! distribution here exposes those exactly, plus moments and sampling for
//! validation by simulation. Because h is often within 1e−9 of 1 (a page
//! that changes rarely), the transform is also available as its complement
//! 1 − h and its logarithm ln h, each computed without cancellation.

#![forbid(unsafe_code)]

pub(crate) mod bmap;
pub mod compose;
pub mod fit;
mod phase_type;

pub use bmap::{Bmap, MAX_LAG, MAX_LAG_WORK, MAX_MOMENT_ORDER};
pub use phase_type::PhaseType;
pub(crate) use phase_type::check_order as check_phase_type_order;

use crate::error::{Error, Num, Result};
use crate::numeric::series::neumaier_sum;
use crate::numeric::special::log_sum_exp;
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
    /// Takes vectors or slices; a slice is copied only after the checks,
    /// including the memory cap for the copy.
    pub fn hyperexponential<P, R>(probs: P, rates: R) -> Result<Self>
    where
        P: AsRef<[f64]> + Into<Vec<f64>>,
        R: AsRef<[f64]> + Into<Vec<f64>>,
    {
        let (p, r) = (probs.as_ref(), rates.as_ref());
        validate::non_empty("probs", p)?;
        validate::same_len("probs", p.len(), "rates", r.len())?;
        validate::probability_vector("probs", p)?;
        validate::all_positive("rates", r)?;
        crate::limits::check_memory(
            crate::limits::bytes(p.len(), 16),
            &format!("a hyperexponential of {} branches", p.len()),
        )?;
        Ok(Distribution::HyperExponential {
            probs: probs.into(),
            rates: rates.into(),
        })
    }

    /// Empirical distribution of non-negative, finite samples (a vector or
    /// a slice, copied after the checks as in [`Self::hyperexponential`]).
    pub fn empirical<S: AsRef<[f64]> + Into<Vec<f64>>>(samples: S) -> Result<Self> {
        let xs = samples.as_ref();
        validate::non_empty("samples", xs)?;
        validate::all_non_negative("samples", xs)?;
        crate::limits::check_memory(
            crate::limits::bytes(xs.len(), 8),
            &format!("an empirical distribution of {} samples", xs.len()),
        )?;
        Ok(Distribution::Empirical {
            samples: samples.into(),
        })
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
                // inf − inf is NaN, which max(0) would turn into 0.
                let v = self.moment(2) - m * m;
                if v.is_nan() { v } else { v.max(0.0) }
            }
        }
    }

    /// The raw moment E\[X^k] (k = 0 gives 1).
    pub fn moment(&self, k: u32) -> f64 {
        if k == 0 {
            return 1.0;
        }
        match self {
            Distribution::Deterministic { value } => pow_u32(*value, k),
            // E[X^k] = k!/rate^k
            Distribution::Exponential { rate } => gamma_moment(1.0, *rate, k),
            // E[X^k] = Γ(shape+k)/(Γ(shape) rate^k) = Π_{j<k} (shape+j)/rate
            Distribution::Erlang { k: n, rate } => gamma_moment(f64::from(*n), *rate, k),
            Distribution::Gamma { shape, rate } => gamma_moment(*shape, *rate, k),
            // Σ p_i k!/r_i^k, each term a product of factors j/r_i, so
            // that neither k! nor r_i^k overflows on its own.
            Distribution::HyperExponential { probs, rates } => probs
                .iter()
                .zip(rates)
                .map(|(p, &r)| p * gamma_moment(1.0, r, k))
                .sum(),
            Distribution::PhaseType(ph) => ph.moment(k),
            // Each term divided first: the mean of values near f64::MAX is finite.
            Distribution::Empirical { samples } => {
                let n = samples.len() as f64;
                samples.iter().map(|&x| pow_u32(x, k) / n).sum::<f64>()
            }
        }
    }

    /// The Laplace–Stieltjes transform E\[exp(−sX)] for finite s ≥ 0 (else
    /// `InvalidArgument`), computed directly (a sum of non-negative terms),
    /// so that a tiny transform keeps its relative precision, which
    /// 1 − [`Distribution::laplace_complement`] loses below 1e−16.
    pub fn laplace(&self, s: f64) -> Result<f64> {
        validate::non_negative("s", s)?;
        Ok(match self {
            Distribution::Deterministic { value } => (-s * value).exp(),
            Distribution::Exponential { rate } => 1.0 / (1.0 + s / rate),
            Distribution::Erlang { k, rate } => (-f64::from(*k) * ln1p_ratio(s, *rate)).exp(),
            Distribution::Gamma { shape, rate } => (-shape * ln1p_ratio(s, *rate)).exp(),
            Distribution::HyperExponential { probs, rates } => probs
                .iter()
                .zip(rates)
                .map(|(p, r)| p / (1.0 + s / r))
                .sum(),
            Distribution::PhaseType(ph) => ph.laplace(s),
            Distribution::Empirical { samples } => {
                let n = samples.len() as f64;
                samples.iter().map(|x| (-s * x).exp() / n).sum()
            }
        })
    }

    /// 1 − E\[exp(−sX)] = E\[1 − exp(−sX)], computed without cancellation
    /// (and with ratios rather than sums such as rate + s, which overflow).
    pub fn laplace_complement(&self, s: f64) -> f64 {
        match self {
            Distribution::Deterministic { value } => -(-s * value).exp_m1(),
            Distribution::Exponential { rate } => 1.0 / (1.0 + rate / s),
            Distribution::Erlang { k, rate } => -(-f64::from(*k) * ln1p_ratio(s, *rate)).exp_m1(),
            Distribution::Gamma { shape, rate } => -(-shape * ln1p_ratio(s, *rate)).exp_m1(),
            Distribution::HyperExponential { probs, rates } => probs
                .iter()
                .zip(rates)
                .map(|(p, r)| p / (1.0 + r / s))
                .sum(),
            Distribution::PhaseType(ph) => ph.laplace_complement(s),
            // Compensated: a plain sum of n terms loses up to n/2 ulps.
            Distribution::Empirical { samples } => {
                let n = samples.len() as f64;
                neumaier_sum(samples.iter().map(|x| -(-s * x).exp_m1())) / n
            }
        }
    }

    /// ln E\[exp(−sX)], accurate both when the transform is close to one
    /// (through the complement) and when it is tiny (in logarithms, so that
    /// it stays finite below 1e−308).
    pub fn log_laplace(&self, s: f64) -> f64 {
        match self {
            Distribution::Deterministic { value } => -s * value,
            Distribution::Exponential { rate } => -ln1p_ratio(s, *rate),
            Distribution::Erlang { k, rate } => -f64::from(*k) * ln1p_ratio(s, *rate),
            Distribution::Gamma { shape, rate } => -shape * ln1p_ratio(s, *rate),
            Distribution::PhaseType(ph) => ph.log_laplace(s),
            Distribution::HyperExponential { probs, rates } => {
                let c = self.laplace_complement(s);
                if c <= 0.5 {
                    return (-c).ln_1p();
                }
                log_sum_exp(
                    probs
                        .iter()
                        .zip(rates)
                        .map(|(p, &r)| p.ln() - ln1p_ratio(s, r)),
                )
            }
            Distribution::Empirical { samples } => {
                let c = self.laplace_complement(s);
                if c <= 0.5 {
                    return (-c).ln_1p();
                }
                // max −sx_j + ln mean e^{−sx_j − max}: two terms ≤ 0, no
                // cancellation.
                let top = samples
                    .iter()
                    .map(|x| -s * x)
                    .fold(f64::NEG_INFINITY, f64::max);
                if !top.is_finite() {
                    return top;
                }
                let sum = neumaier_sum(samples.iter().map(|x| (-s * x - top).exp()));
                top + (sum / samples.len() as f64).ln()
            }
        }
    }

    /// One draw of X, or `Numerical` when it is not a finite double (a mean
    /// near f64::MAX, a subnormal rate) or a phase-type draw gave up
    /// (see [`PhaseType::sample`]).
    pub fn try_sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<f64> {
        let x = self.sample(rng);
        if x.is_finite() {
            return Ok(x);
        }
        Err(Error::Numerical(match self {
            Distribution::PhaseType(_) if x.is_nan() => format!(
                "a phase-type draw did not reach absorption within {} phase changes",
                phase_type::MAX_SAMPLE_JUMPS
            ),
            _ => format!(
                "a draw overflowed to {} (the distribution's scale is near the largest double)",
                Num(x)
            ),
        }))
    }

    /// P(X ≤ x) for finite x (else `InvalidArgument`).
    pub fn cdf(&self, x: f64) -> Result<f64> {
        validate::finite("x", x)?;
        if x < 0.0 {
            return Ok(0.0);
        }
        Ok(match self {
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
                    // A term that underflowed stays 0: the rest adds nothing,
                    // so the loop is short even for k = 2^32 - 1.
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
        })
    }

    /// One draw of X.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        match self {
            Distribution::Deterministic { value } => *value,
            Distribution::Exponential { rate } => exp_sample(rng, *rate),
            // A sum of k exponentials; for large k the same law by Gamma(k)
            // sampling in O(1).
            Distribution::Erlang { k, rate } if *k > ERLANG_SUM_MAX => {
                rand_distr::Gamma::new(f64::from(*k), 1.0 / rate)
                    .map_or(f64::NAN, |g| g.sample(rng))
            }
            Distribution::Erlang { k, rate } => (0..*k).map(|_| exp_sample(rng, *rate)).sum(),
            Distribution::Gamma { shape, rate } => {
                // Parameters are validated at construction, so this cannot fail.
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

/// ln(1 + s/r) for s ≥ 0, r > 0, also when s/r overflows (then it is
/// ln s − ln r to full precision).
fn ln1p_ratio(s: f64, r: f64) -> f64 {
    let q = s / r;
    if q.is_finite() {
        q.ln_1p()
    } else {
        s.ln() - r.ln()
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
/// to rate and both are large, when it would run up to k = 2^32 − 1
/// factors (seconds). For shape ≥ 10^6 and k > 1000 it is
/// exp(ln Γ(shape + k) − ln Γ(shape) − k ln rate) by Stirling's series,
/// whose next term, 1/(360 shape³), is below 10^-20 there.
fn gamma_moment(shape: f64, rate: f64, k: u32) -> f64 {
    if k <= 1000 || shape < 1e6 {
        let p = settled_product((0..k).map(|j| (shape + f64::from(j)) / rate));
        // The factors increase with j: a product that underflowed to 0
        // while a later factor exceeds 1 may still be huge (E[X^(2^32-1)]
        // of an exponential of rate 1e6 came out 0). Not known: NaN.
        if p == 0.0 && (shape + f64::from(k - 1)) / rate > 1.0 {
            return f64::NAN;
        }
        return p;
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
