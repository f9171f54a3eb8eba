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

use super::Model;
use super::frequencies::{GeneralPages, PagePoint, g_over_s2, ln_p_of, ln_weight};
use crate::error::{Error, Num, Result};
use crate::numeric::roots::{NewtonBisect, RootStep};

/// One shard: ln h_i and ln w_i (absolute units) of its pages, copied from
/// a [`Model`] (which may be dropped afterwards). Immutable: evaluations
/// may run from several threads at once.
#[derive(Debug, Clone)]
pub struct Shard {
    log_h: Vec<f64>,
    ln_w: Vec<f64>,
}

/// What [`MultiplierSearch`] needs from the shards to bracket ln λ; the
/// summaries of all shards combine with [`ShardSummary::combine`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShardSummary {
    /// Σ a_i = Σ −ln h_i over the shard's pages.
    pub sum_a: f64,
    /// min ln w_i.
    pub ln_w_min: f64,
    /// max ln w_i: at ln λ ≥ this the shard visits no page.
    pub ln_w_max: f64,
}

impl ShardSummary {
    /// The summary of no pages, the identity of [`Self::combine`].
    pub const EMPTY: ShardSummary = ShardSummary {
        sum_a: 0.0,
        ln_w_min: f64::INFINITY,
        ln_w_max: f64::NEG_INFINITY,
    };

    /// The summary of the union of both shards' pages.
    pub fn combine(self, other: ShardSummary) -> ShardSummary {
        ShardSummary {
            sum_a: self.sum_a + other.sum_a,
            ln_w_min: self.ln_w_min.min(other.ln_w_min),
            ln_w_max: self.ln_w_max.max(other.ln_w_max),
        }
    }
}

/// Bytes a shard holds per page (ln h, ln w) plus those of an evaluation
/// (s, x, d ln s/d ln t), checked against the memory cap by [`Shard::new`].
pub const SHARD_BYTES_PER_PAGE: u128 = 40;

impl Shard {
    /// The shard of `model`'s pages. Errors: `TooLarge` beyond the memory
    /// cap ([`SHARD_BYTES_PER_PAGE`] per page besides the model).
    pub fn new(model: &Model) -> Result<Self> {
        let n = model.len();
        crate::limits::check_memory(
            crate::limits::bytes(n, SHARD_BYTES_PER_PAGE),
            &format!("a freshness shard of {n} pages"),
        )?;
        let ln_w = (0..n).map(|i| ln_weight(model, i)).collect();
        Ok(Shard {
            log_h: model.log_h().to_vec(),
            ln_w,
        })
    }

    /// The number of pages.
    pub fn len(&self) -> usize {
        self.ln_w.len()
    }

    /// Whether the shard has no pages.
    pub fn is_empty(&self) -> bool {
        self.ln_w.is_empty()
    }

    /// Σ a_i and the range of ln w_i.
    pub fn summary(&self) -> ShardSummary {
        ShardSummary {
            sum_a: self.log_h.iter().map(|l| -l).sum(),
            ln_w_min: self.ln_w.iter().copied().fold(f64::INFINITY, f64::min),
            ln_w_max: self.ln_w.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }

    /// Σ x_i(λ) over the shard and d Σ x_i / d ln λ (≤ 0) at ln λ.
    /// Errors: `InvalidArgument` if `ln_lambda` is not finite,
    /// `NotConverged` if an inner inversion fails.
    pub fn sum_at(&self, ln_lambda: f64) -> Result<(f64, f64)> {
        self.eval(ln_lambda).map(|(_, s, ds)| (s, ds))
    }

    /// The shard's frequencies x_i(λ) at ln λ (they sum to the shard's
    /// share of the budget when ln λ comes from [`MultiplierSearch`]).
    /// Errors: as [`Self::sum_at`].
    pub fn frequencies_at(&self, ln_lambda: f64) -> Result<Vec<f64>> {
        self.eval(ln_lambda).map(|(pages, _, _)| pages.x)
    }

    fn eval(&self, ln_lambda: f64) -> Result<(GeneralPages<'_>, f64, f64)> {
        if !ln_lambda.is_finite() {
            return Err(Error::invalid(format!(
                "ln_lambda must be finite, got {}",
                Num(ln_lambda)
            )));
        }
        let ln_w = &self.ln_w;
        let mut pages = GeneralPages::new(&self.log_h);
        debug_assert_eq!(pages.log_h().len(), ln_w.len(), "one ln w per page");
        let (s, ds) = pages.eval(
            |i| {
                let ln_t = ln_lambda - ln_w[i];
                (ln_t < 0.0).then(|| PagePoint {
                    ln_t,
                    ln_p: ln_p_of(ln_t),
                })
            },
            0.0,
        )?;
        Ok((pages, s, -ds))
    }
}

/// What [`MultiplierSearch`] wants next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MultiplierStep {
    /// Every shard evaluates [`Shard::sum_at`] at this ln λ; pass the
    /// totals to [`MultiplierSearch::update`].
    Evaluate(f64),
    /// The final ln λ: every shard computes [`Shard::frequencies_at`] there.
    Done(f64),
}

/// The search for ln λ with Σ over all shards of Σ x_i(λ) = 1 as a
/// protocol a distributed engine can run: safeguarded Newton on ln Σ
/// against ln λ using only the shards' total sums and derivatives. The
/// bracket: at max ln w no page is visited; at min ln w + ln G(A),
/// A = Σ a_i, every x_i ≥ a_i/A, so Σ ≥ 1.
#[derive(Debug, Clone)]
pub struct MultiplierSearch {
    root: NewtonBisect,
}

impl MultiplierSearch {
    /// The search over pages whose combined summary is `total`. Errors:
    /// `InvalidArgument` unless sum_a > 0 and ln_w_min ≤ ln_w_max are
    /// finite (a summary of at least one page).
    pub fn new(total: ShardSummary) -> Result<Self> {
        let ShardSummary {
            sum_a,
            ln_w_min,
            ln_w_max,
        } = total;
        if sum_a.is_nan() || sum_a <= 0.0 {
            return Err(Error::invalid(format!(
                "sum_a must be > 0, got {}",
                Num(sum_a)
            )));
        }
        if !(ln_w_min.is_finite() && ln_w_max.is_finite() && ln_w_min <= ln_w_max) {
            return Err(Error::invalid(format!(
                "ln_w_min <= ln_w_max must be finite, got {} and {}",
                Num(ln_w_min),
                Num(ln_w_max)
            )));
        }
        let big_a = sum_a.min(f64::MAX);
        let ln_g_a = if big_a < 1.0 {
            2.0 * big_a.ln() + g_over_s2(big_a).ln()
        } else {
            (-(big_a.ln_1p() - big_a).exp()).ln_1p()
        };
        let (lo, hi) = (ln_w_min + ln_g_a, ln_w_max);
        let root = NewtonBisect::new(lo, hi, 0.5 * (lo + hi), false, 1e-15, 1e-14, 500)?;
        Ok(MultiplierSearch { root })
    }

    /// The next ln λ to evaluate, or the final one. Errors: `NotConverged`
    /// after 500 evaluations.
    pub fn next(&self) -> Result<MultiplierStep> {
        Ok(match self.root.next()? {
            RootStep::Evaluate(x) => MultiplierStep::Evaluate(x),
            RootStep::Done(x) => MultiplierStep::Done(x),
        })
    }

    /// Takes the shards' totals of [`Shard::sum_at`] at the ln λ
    /// [`Self::next`] proposed (ignored once done). Errors:
    /// `InvalidArgument` unless `sum` ≥ 0 and `dsum` ≤ 0 are finite.
    pub fn update(&mut self, sum: f64, dsum: f64) -> Result<()> {
        if !(sum >= 0.0 && sum.is_finite()) {
            return Err(Error::invalid(format!(
                "sum must be finite and >= 0, got {}",
                Num(sum)
            )));
        }
        if !(dsum <= 0.0 && dsum.is_finite()) {
            return Err(Error::invalid(format!(
                "dsum must be finite and <= 0 (the sum falls as ln_lambda grows), got {}",
                Num(dsum)
            )));
        }
        self.root.update(sum.ln(), dsum / sum)
    }
}

/// ln λ with Σ over all shards of Σ x_i(λ) = 1: [`MultiplierSearch`] run
/// in-process, the shards' sums added in shard order.
///
/// Errors: `InvalidArgument` without pages, `NotConverged` if the root
/// find fails.
pub fn solve_shards(shards: &[Shard]) -> Result<f64> {
    let total = shards
        .iter()
        .map(Shard::summary)
        .fold(ShardSummary::EMPTY, ShardSummary::combine);
    if total.sum_a == 0.0 {
        return Err(Error::invalid("solve_shards needs at least one page"));
    }
    let mut search = MultiplierSearch::new(total)?;
    loop {
        match search.next()? {
            MultiplierStep::Evaluate(ln_lambda) => {
                let (mut s, mut ds) = (0.0, 0.0);
                for shard in shards {
                    let (a, b) = shard.sum_at(ln_lambda)?;
                    s += a;
                    ds += b;
                }
                search.update(s, ds)?;
            }
            MultiplierStep::Done(ln_lambda) => return Ok(ln_lambda),
        }
    }
}
