//! Freshness: how often, and in what order, to recrawl each page.
//!
//! Coffman, Liu and Weber, *Optimal robot scheduling for Web search engines*
//! (paper 000). Page i changes as a Poisson process of rate μ_i; each crawl
//! takes an independent time X with a general distribution; page i is
//! out of date from its first change after a crawl until its next crawl, a
//! fraction r_i of the time. The cost of a policy is C = Σ c_i r_i (eq. 4).
//! Everything about X that the results need is E\[X] and
//! h_i = E\[exp(−μ_i X)] (Lemma 3.1), which [`Model`] precomputes.
//!
//! - [`frequencies`]: the lower bound of Theorem 3.3 for given access
//!   frequencies, the optimal frequencies (Theorem 3.4 closed form when
//!   c_i ∝ μ_i, Lagrange conditions (8)–(9) in general) and the bound (6).
//! - [`randomized`]: the randomized policy, Lemma 4.1 and Theorem 4.1.
//! - [`cyclic`]: integer access counts, the golden-ratio policy (§5), a
//!   generic round robin, the exact cost of any cyclic sequence (eq. 3 with
//!   Lemma 3.1), and the asymptotic bounds (18)–(19).
//! - [`simulate`]: Monte Carlo of a cyclic sequence against Poisson changes.
//! - [`estimator`]: change-rate estimation from "changed / not changed" visits.
//! - [`scheduler`]: a streaming scheduler with a dynamic page set (§6).

pub mod cyclic;
pub mod estimator;
pub mod frequencies;
pub mod randomized;
pub mod scheduler;
pub mod simulate;

use crate::dist::Distribution;
use crate::error::{Error, Num, Result};
use crate::validate;

/// N pages with change rates μ_i and cost weights c_i, crawled by one robot
/// whose access times are i.i.d. copies of X.
#[derive(Debug, Clone)]
pub struct Model {
    access: Distribution,
    mean_access: f64,
    mu: Vec<f64>,
    weights: Vec<f64>,
    /// h_i = E\[exp(−μ_i X)].
    h: Vec<f64>,
    /// 1 − h_i, computed without cancellation.
    one_minus_h: Vec<f64>,
    /// ln h_i (< 0).
    log_h: Vec<f64>,
    proportional: bool,
}

impl Model {
    /// Pages with change rates `mu` (> 0) and weights `weights` (> 0); with
    /// `weights = None` the weights are c_i = μ_i (c₀ = 1), the case of
    /// Theorem 3.4 where the cost is the expected rate of changes missed.
    pub fn new(access: Distribution, mu: &[f64], weights: Option<&[f64]>) -> Result<Self> {
        validate::non_empty("change_rates", mu)?;
        validate::all_positive("change_rates", mu)?;
        let weights = match weights {
            Some(w) => {
                validate::same_len("change_rates", mu.len(), "weights", w.len())?;
                validate::all_positive("weights", w)?;
                w.to_vec()
            }
            None => mu.to_vec(),
        };
        let mean_access = access.mean();
        if !(mean_access.is_finite() && mean_access > 0.0) {
            return Err(Error::invalid(format!(
                "the access time must have a finite, positive mean, got E[X] = {}",
                Num(mean_access)
            )));
        }
        let one_minus_h: Vec<f64> = mu.iter().map(|&m| access.laplace_complement(m)).collect();
        let log_h: Vec<f64> = mu.iter().map(|&m| access.log_laplace(m)).collect();
        // exp(ln h) keeps full relative accuracy when h is tiny; 1 − (1 − h) does not.
        let h: Vec<f64> = log_h.iter().map(|&l| l.exp()).collect();
        for (i, (&c, &l)) in one_minus_h.iter().zip(&log_h).enumerate() {
            if !(c > 0.0 && l < 0.0 && l.is_finite()) {
                return Err(Error::invalid(format!(
                    "change_rates[{i}] = {} is too large or too small for this access time: \
                     h = E[exp(-mu X)] must lie strictly in (0, 1), got 1 - h = {}, ln h = {}",
                    Num(mu[i]),
                    Num(c),
                    Num(l)
                )));
            }
        }
        // c_i ∝ μ_i: the ratios agree to rounding.
        let r0 = weights[0] / mu[0];
        let proportional = weights
            .iter()
            .zip(mu)
            .all(|(w, m)| ((w / m) - r0).abs() <= 1e-12 * r0);
        Ok(Model {
            access,
            mean_access,
            mu: mu.to_vec(),
            weights,
            h,
            one_minus_h,
            log_h,
            proportional,
        })
    }

    /// Number of pages N.
    pub fn len(&self) -> usize {
        self.mu.len()
    }

    /// Always false: a model has at least one page.
    pub fn is_empty(&self) -> bool {
        self.mu.is_empty()
    }

    /// The access-time distribution X.
    pub fn access(&self) -> &Distribution {
        &self.access
    }

    /// E\[X].
    pub fn mean_access(&self) -> f64 {
        self.mean_access
    }

    /// Change rates μ_i.
    pub fn change_rates(&self) -> &[f64] {
        &self.mu
    }

    /// Total change rate μ = Σ μ_i.
    pub fn total_change_rate(&self) -> f64 {
        self.mu.iter().sum()
    }

    /// Cost weights c_i.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// h_i = E\[exp(−μ_i X)] for every page.
    pub fn h(&self) -> &[f64] {
        &self.h
    }

    /// 1 − h_i for every page, accurate when h_i is close to 1.
    pub fn one_minus_h(&self) -> &[f64] {
        &self.one_minus_h
    }

    /// ln h_i for every page.
    pub fn log_h(&self) -> &[f64] {
        &self.log_h
    }

    /// True when c_i = c₀ μ_i for one c₀ (Theorems 3.4 and 4.1 apply).
    pub fn is_proportional(&self) -> bool {
        self.proportional
    }

    /// c₀ when the weights are proportional to the change rates.
    pub fn c0(&self) -> Option<f64> {
        self.proportional.then(|| self.weights[0] / self.mu[0])
    }
}

/// Checks that `f` is a frequency vector for `n` pages: finite, ≥ 0, sum 1.
pub(crate) fn check_frequencies(n: usize, f: &[f64]) -> Result<()> {
    validate::same_len("pages", n, "frequencies", f.len())?;
    validate::probability_vector("frequencies", f)
}
