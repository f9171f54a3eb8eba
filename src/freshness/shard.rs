//! Per-shard evaluation of the general-weights optimum (Lagrange
//! conditions (8)–(9) of Coffman et al.) for solves distributed over
//! machines: each shard holds some pages and answers, at a multiplier λ in
//! absolute units, its Σ x_i(λ) (as a float and exactly, [`GridSum`]) and
//! d Σ x_i/d ln λ; [`solve_shards`] finds λ with Σ over all shards = 1 from
//! those sums alone, and each shard then produces its own frequencies.
//!
//! λ is absolute (w_i = c_i/(μ_i E\[X\]) itself, no normalisation by a
//! global maximum), so shards need no shared state but E\[X\] and λ. It is
//! passed as ln λ: w_i may over- or underflow.
//!
//! The plan does not depend on how the pages are split: each page's x_i is
//! a function of ln λ, ln w_i and ln h_i alone ([`page_at`]), the exact
//! sums add as integers, and the search ends with [`CrossingWalk`], whose
//! result (the smallest double ln λ at which the exact Σ x_i ≤ 1) depends
//! only on those sums. [`super::frequencies::optimal_frequencies_general`]
//! ends with the same walk over one shard of all pages, so it returns the
//! same bits. Unlike it, there is no refinement between doubles: when one
//! ulp of ln λ moves Σ x by more than 1e−14 (|ln λ| beyond ~50, or a page
//! so close to its cutoff that its x_i jumps between adjacent doubles),
//! the shards' plan may sum to less than 1 by that much, and the single
//! call's differs.

use super::Model;
use super::frequencies::{ColdPage, anchor_of, cold_page, g_over_s2, ln_weight, page_at};
use super::par::fold_chunks;
use crate::error::{Error, Num, Result};
pub use crate::numeric::exact::GridSum;
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
            sum_a: (self.sum_a + other.sum_a).min(f64::MAX),
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

    /// Σ a_i (at most DBL_MAX: an overflowed sum, which only pages with
    /// ln h_i near −DBL_MAX give, counts as DBL_MAX in the
    /// [`MultiplierSearch`] bracket) and the range of ln w_i.
    pub fn summary(&self) -> ShardSummary {
        ShardSummary {
            sum_a: self.log_h.iter().map(|l| -l).sum::<f64>().min(f64::MAX),
            ln_w_min: self.ln_w.iter().copied().fold(f64::INFINITY, f64::min),
            ln_w_max: self.ln_w.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }

    /// Σ x_i(λ) over the shard (float and exact) and d Σ x_i / d ln λ
    /// (≤ 0) at ln λ. Errors: `InvalidArgument` if `ln_lambda` is not
    /// finite, `NotConverged` if an inner inversion fails.
    pub fn sum_at(&self, ln_lambda: f64) -> Result<ShardSums> {
        let mut x = crate::pages::zeroed(self.len());
        let [sums] = canonical_pass([ln_lambda], |i| self.ln_w[i], &self.log_h, None, [&mut x])?;
        Ok(sums)
    }

    /// The shard's frequencies x_i(λ) at ln λ (they sum to the shard's
    /// share of the budget when ln λ comes from [`MultiplierSearch`]).
    /// Errors: as [`Self::sum_at`].
    pub fn frequencies_at(&self, ln_lambda: f64) -> Result<Vec<f64>> {
        let mut x = crate::pages::zeroed(self.len());
        canonical_pass([ln_lambda], |i| self.ln_w[i], &self.log_h, None, [&mut x])?;
        Ok(x)
    }
}

/// What a shard reports at a multiplier: Σ x_i as a float (page order in
/// fixed chunks) and exactly, and d Σ x_i / d ln λ ≤ 0. The sums of
/// several shards combine with [`ShardSums::combine`]; only `exact` is
/// the same bits however the pages are split.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ShardSums {
    pub sum: f64,
    pub dsum: f64,
    pub exact: GridSum,
}

impl ShardSums {
    /// The sums of no pages, the identity of [`Self::combine`].
    pub const ZERO: ShardSums = ShardSums {
        sum: 0.0,
        dsum: 0.0,
        exact: GridSum::ZERO,
    };

    /// The sums over the union of both shards' pages.
    pub fn combine(self, other: ShardSums) -> ShardSums {
        ShardSums {
            sum: self.sum + other.sum,
            dsum: self.dsum + other.dsum,
            exact: self.exact.plus(other.exact),
        }
    }
}

/// Every page's [`cold_page`] at one anchor, as (anchor, x, s, d ln s/d ln t),
/// each indexed by page.
pub(super) type AnchorPages<'a> = (f64, [&'a [f64]; 3]);

/// The sums of every page's x_i by [`page_at`] at each of `points`, and
/// the x_i at the last M points into `xs` (in order; ln w_i from `ln_w`, absolute units;
/// ln h_i from `log_h`). Consecutive points with the same anchor share
/// each page's inner solve, and points anchored at `known`'s anchor take
/// it from there.
pub(super) fn canonical_pass<W, const N: usize, const M: usize>(
    points: [f64; N],
    ln_w: W,
    log_h: &[f64],
    known: Option<AnchorPages>,
    xs: [&mut [f64]; M],
) -> Result<[ShardSums; N]>
where
    W: Fn(usize) -> f64 + Sync,
{
    if let Some(bad) = points.iter().find(|l| !l.is_finite()) {
        return Err(Error::invalid(format!(
            "ln_lambda must be finite, got {}",
            Num(*bad)
        )));
    }
    let anchors = points.map(anchor_of);
    // Point j's x_i go to xs[j − kept] (M ≤ N).
    let kept = N - M;
    fold_chunks(
        xs,
        Ok([ShardSums::ZERO; N]),
        |pages, xs| {
            let mut out = [ShardSums::ZERO; N];
            for (k, i) in pages.enumerate() {
                let (lw, a) = (ln_w(i), -log_h[i]);
                let mut at: Option<ColdPage> = None;
                for j in 0..N {
                    let cold = match (at, known) {
                        (Some(c), _)
                            if j > 0 && anchors[j].to_bits() == anchors[j - 1].to_bits() =>
                        {
                            c
                        }
                        (_, Some((anchor, [xs, ss, dls])))
                            if anchor.to_bits() == anchors[j].to_bits() =>
                        {
                            ColdPage::new(xs[i], ss[i], dls[i])
                        }
                        _ => cold_page(anchors[j], lw, a)?,
                    };
                    at = Some(cold);
                    let (xi, dl) = page_at(points[j], cold, lw, a)?;
                    out[j].sum += xi;
                    out[j].dsum -= xi * dl;
                    out[j].exact = out[j].exact.plus(GridSum::of(xi));
                    if j >= kept {
                        xs[j - kept][k] = xi;
                    }
                }
            }
            Ok(out)
        },
        |acc: Result<[ShardSums; N]>, part: Result<[ShardSums; N]>| {
            let (mut acc, part) = (acc?, part?);
            for (t, p) in acc.iter_mut().zip(part) {
                *t = t.combine(p);
            }
            Ok(acc)
        },
    )
}

/// The canonical end of a multiplier search: the smallest double ln λ at
/// which the exact Σ x_i ≤ 1, found from a start by galloping over
/// doubles (1, 2, 4, … apart) until the sum is on both sides of 1, then
/// bisecting the doubles in between. Which points it proposes depends on
/// the start, but where it ends depends only on the exact sums, which
/// fall with ln λ (each x_i does, by at least x_i/2 per unit of ln λ,
/// far beyond the rounding of the inner inversions): so any start, any
/// split of the pages gives the same double.
#[derive(Debug, Clone)]
pub(super) struct CrossingWalk {
    /// Order-preserving keys of doubles ([`key`]): the next to evaluate,
    /// the largest seen with Σ > 1 and the smallest seen with Σ ≤ 1.
    next: u64,
    over: Option<u64>,
    under: Option<u64>,
    gallop: u64,
    evals: usize,
}

/// Most evaluations of a walk (galloping and bisecting 2^64 doubles takes
/// at most 128).
const WALK_EVALS: usize = 200;

/// The double's position in the order of all doubles (−0 just below +0).
fn key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 { !b } else { b | 1 << 63 }
}

/// The double at a [`key`].
fn from_key(k: u64) -> f64 {
    if k >> 63 == 1 {
        f64::from_bits(k & !(1 << 63))
    } else {
        f64::from_bits(!k)
    }
}

impl CrossingWalk {
    /// A walk whose first point is `start` (finite).
    pub(super) fn new(start: f64) -> CrossingWalk {
        CrossingWalk {
            next: key(start),
            over: None,
            under: None,
            gallop: 1,
            evals: 0,
        }
    }

    /// The next ln λ to evaluate, or the final one. Errors: `NotConverged`
    /// after [`WALK_EVALS`] evaluations.
    pub(super) fn next(&self) -> Result<MultiplierStep> {
        if let (Some(o), Some(u)) = (self.over, self.under)
            && u == o + 1
        {
            return Ok(MultiplierStep::Done(from_key(u)));
        }
        if self.evals >= WALK_EVALS {
            return Err(Error::NotConverged(format!(
                "the multiplier's final walk did not end in {WALK_EVALS} evaluations"
            )));
        }
        Ok(MultiplierStep::Evaluate(from_key(self.next)))
    }

    /// Takes the exact Σ x_i at the point [`Self::next`] proposed. Errors:
    /// `NotConverged` if the sums seen rise with ln λ.
    pub(super) fn update(&mut self, exact: GridSum) -> Result<()> {
        if matches!(self.next()?, MultiplierStep::Done(_)) {
            return Ok(());
        }
        let at = self.next;
        self.evals += 1;
        if exact > GridSum::ONE {
            self.over = Some(self.over.map_or(at, |o| o.max(at)));
        } else {
            self.under = Some(self.under.map_or(at, |u| u.min(at)));
        }
        // Finite doubles only.
        let (lo, hi) = (key(-f64::MAX), key(f64::MAX));
        let step = self.gallop;
        self.next = match (self.over, self.under) {
            (Some(o), Some(u)) if o < u => o + (u - o) / 2,
            (Some(o), Some(_)) => {
                return Err(Error::NotConverged(format!(
                    "the exact sum of frequencies rises with ln_lambda at {}",
                    Num(from_key(o))
                )));
            }
            (Some(o), None) => o.saturating_add(step).min(hi),
            (None, u) => u.unwrap_or(at).saturating_sub(step).max(lo),
        };
        self.gallop = step.saturating_mul(2);
        Ok(())
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
/// against ln λ using the shards' total float sums and derivatives, then,
/// from Newton's prediction once Σ is within [`WALK_FROM`] of 1, the
/// [`CrossingWalk`] on the exact sums, whose end does not depend on the
/// path. The bracket: at max ln w no page is visited; at
/// min ln w + ln G(A), A = Σ a_i, every x_i ≥ a_i/A, so Σ ≥ 1.
#[derive(Debug, Clone)]
pub struct MultiplierSearch {
    root: NewtonBisect,
    walk: Option<CrossingWalk>,
}

/// |ln Σ| below which [`MultiplierSearch`] hands over to its walk.
const WALK_FROM: f64 = 1e-9;

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
        Ok(MultiplierSearch { root, walk: None })
    }

    /// The next ln λ to evaluate, or the final one. Errors: `NotConverged`
    /// after 500 evaluations.
    pub fn next(&self) -> Result<MultiplierStep> {
        if let Some(walk) = &self.walk {
            return walk.next();
        }
        Ok(match self.root.next()? {
            RootStep::Evaluate(x) => MultiplierStep::Evaluate(x),
            // Newton's root (not expected: the walk starts first).
            RootStep::Done(x) => CrossingWalk::new(x).next()?,
        })
    }

    /// Takes the shards' totals of [`Shard::sum_at`] at the ln λ
    /// [`Self::next`] proposed (ignored once done). Errors:
    /// `InvalidArgument` unless `sum` ≥ 0 and `dsum` ≤ 0 are finite,
    /// `NotConverged` as [`CrossingWalk::update`].
    pub fn update(&mut self, total: ShardSums) -> Result<()> {
        let ShardSums { sum, dsum, exact } = total;
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
        if let Some(walk) = &mut self.walk {
            return walk.update(exact);
        }
        let x = match self.root.next()? {
            RootStep::Evaluate(x) => x,
            RootStep::Done(x) => {
                let mut walk = CrossingWalk::new(x);
                walk.update(exact)?;
                self.walk = Some(walk);
                return Ok(());
            }
        };
        let ln_sum = sum.ln();
        self.root.update(ln_sum, dsum / sum)?;
        if ln_sum.abs() <= WALK_FROM && dsum < 0.0 {
            // Newton's next point: d ln Σ/d ln λ = dsum/Σ.
            let start = x - ln_sum * sum / dsum;
            if start.is_finite() {
                self.walk = Some(CrossingWalk::new(start));
            }
        }
        Ok(())
    }
}

/// ln λ with Σ over all shards of Σ x_i(λ) = 1: [`MultiplierSearch`] run
/// in-process, the shards' sums added in shard order (the float sums
/// steer the search, the exact ones end it).
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
                let mut total = ShardSums::ZERO;
                for shard in shards {
                    total = total.combine(shard.sum_at(ln_lambda)?);
                }
                search.update(total)?;
            }
            MultiplierStep::Done(ln_lambda) => return Ok(ln_lambda),
        }
    }
}
