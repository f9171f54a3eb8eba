//! Per-shard evaluation of the general-weights optimum (Lagrange
//! conditions (8)–(9) of Coffman et al.) for solves distributed over
//! machines: each shard holds some pages and answers, at a multiplier λ in
//! absolute units, its Σ x_i(λ) and d Σ x_i/d ln λ; [`solve_shards`] finds
//! λ with Σ over all shards = 1 from those sums alone, and each shard then
//! produces its own frequencies.
//!
//! λ is absolute (w_i = c_i/(μ_i E\[X\]) itself, no normalisation by a
//! global maximum), so shards need no shared state but E\[X\] and λ. It is
//! passed as ln λ: w_i may over- or underflow. Unlike
//! [`super::frequencies::optimal_frequencies_general`] there is no polishing
//! near a cutoff: a page whose 1 − λ/w_i is below ~1e−10 gets its x_i to
//! the resolution of ln λ only.

use super::frequencies::{GeneralPages, PagePoint, g_over_s2, ln_p_of};
use super::{Model, Scaled};
use crate::error::{Error, Result};
use crate::numeric::roots::newton_bisect;

/// One shard: a [`Model`] of its pages, ln w_i in absolute units and the
/// warm starts of its last evaluation.
pub struct Shard<'a> {
    ln_w: Vec<f64>,
    pages: GeneralPages<'a>,
}

/// What [`solve_shards`] needs from a shard to bracket ln λ.
#[derive(Debug, Clone, Copy)]
pub struct ShardSummary {
    /// Σ a_i = Σ −ln h_i over the shard's pages.
    pub sum_a: f64,
    /// min ln w_i.
    pub ln_w_min: f64,
    /// max ln w_i: at ln λ ≥ this the shard visits no page.
    pub ln_w_max: f64,
}

impl<'a> Shard<'a> {
    /// The shard of `model`'s pages. Errors: `TooLarge` beyond the memory
    /// cap (three arrays of 8 bytes per page besides the model).
    pub fn new(model: &'a Model) -> Result<Self> {
        let n = model.len();
        crate::limits::check_memory(
            crate::limits::bytes(n, 32),
            &format!("a freshness shard of {n} pages"),
        )?;
        let one = Scaled::new(1.0);
        let ln_w = (0..n)
            .map(|i| model.scaled_weight(i).ln_ratio(one))
            .collect();
        Ok(Shard {
            ln_w,
            pages: GeneralPages::new(model.log_h()),
        })
    }

    /// Σ a_i and the range of ln w_i.
    pub fn summary(&self) -> ShardSummary {
        let log_h = self.pages.log_h();
        ShardSummary {
            sum_a: log_h.iter().map(|l| -l).sum(),
            ln_w_min: self.ln_w.iter().copied().fold(f64::INFINITY, f64::min),
            ln_w_max: self.ln_w.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }

    /// Σ x_i(λ) over the shard and d Σ x_i / d ln λ (≤ 0) at ln λ.
    /// Errors: `NotConverged` if an inner inversion fails.
    pub fn sum_at(&mut self, ln_lambda: f64) -> Result<(f64, f64)> {
        let ln_w = &self.ln_w;
        let (s, ds) = self.pages.eval(
            |i| {
                let ln_t = ln_lambda - ln_w[i];
                (ln_t < 0.0).then(|| PagePoint {
                    ln_t,
                    ln_p: ln_p_of(ln_t),
                })
            },
            0.0,
        )?;
        Ok((s, -ds))
    }

    /// The shard's frequencies x_i(λ) at ln λ (they sum to the shard's
    /// share of the budget when ln λ comes from [`solve_shards`]).
    pub fn frequencies_at(&mut self, ln_lambda: f64) -> Result<Vec<f64>> {
        self.sum_at(ln_lambda)?;
        Ok(self.pages.x.clone())
    }
}

/// ln λ with Σ over all shards of Σ x_i(λ) = 1, by safeguarded Newton on
/// ln Σ against ln λ using only the shards' sums and derivatives (added in
/// shard order). The bracket: at max ln w no page is visited; at
/// min ln w + ln G(A), A = Σ a_i, every x_i ≥ a_i/A, so Σ ≥ 1.
///
/// Errors: `InvalidArgument` without shards, `NotConverged` if the root
/// find fails.
pub fn solve_shards(shards: &mut [Shard]) -> Result<f64> {
    if shards.is_empty() {
        return Err(Error::invalid("solve_shards needs at least one shard"));
    }
    let sums: Vec<ShardSummary> = shards.iter().map(Shard::summary).collect();
    let big_a = sums.iter().map(|s| s.sum_a).sum::<f64>().min(f64::MAX);
    let ln_w_min = sums
        .iter()
        .map(|s| s.ln_w_min)
        .fold(f64::INFINITY, f64::min);
    let hi = sums
        .iter()
        .map(|s| s.ln_w_max)
        .fold(f64::NEG_INFINITY, f64::max);
    let ln_g_a = if big_a < 1.0 {
        2.0 * big_a.ln() + g_over_s2(big_a).ln()
    } else {
        (-(big_a.ln_1p() - big_a).exp()).ln_1p()
    };
    let lo = ln_w_min + ln_g_a;
    newton_bisect(
        |ln_lambda| {
            let (mut s, mut ds) = (0.0, 0.0);
            for shard in shards.iter_mut() {
                let (a, b) = shard.sum_at(ln_lambda)?;
                s += a;
                ds += b;
            }
            Ok((s.ln(), ds / s))
        },
        lo,
        hi,
        0.5 * (lo + hi),
        false,
        1e-15,
        1e-14,
        500,
    )
}
