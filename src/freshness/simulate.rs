//! Monte Carlo validation of a cyclic access sequence.
//!
//! The exact long-run cost of a cyclic policy follows from eq. (3) of
//! Coffman, Liu and Weber (paper 000) with Lemma 3.1; this module estimates
//! the same quantity by simulating the model of §2 literally: the robot
//! repeats the cycle, each access takes an independent copy of X, page i
//! changes as a Poisson process of rate μ_i, and page i is out of date from
//! its first change after a crawl until the completion of its next crawl.
//! Agreement within a few standard errors is an end-to-end check of
//! [`super::cyclic::cost`] and of the model's h_i = E\[exp(−μ_i X)].

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::Model;
use crate::dist::exp_sample;
use crate::error::{Error, Result};
use crate::limits::Control;

/// Largest number of simulated accesses (warm-up included) accepted; beyond
/// it a run would take hours, so it is refused as [`Error::TooLarge`].
pub const MAX_ACCESSES: u64 = 100_000_000_000;

/// Number of batches for the batch-means standard error (fewer when there
/// are fewer cycles). Thirty batches give a usable t-like spread while each
/// batch stays long enough to be nearly independent of its neighbours.
pub const BATCHES: u64 = 30;

/// Outcome of [`simulate_cyclic`].
#[derive(Debug, Clone, PartialEq)]
pub struct SimulationResult {
    /// Estimated cost C = Σ c_i r_i (eq. 4).
    pub cost: f64,
    /// Batch-means standard error of `cost`; `f64::INFINITY` when there were
    /// fewer than two cycles (no spread to measure).
    pub std_error: f64,
    /// Estimated obsolescence rate r_i of every page (eq. 2).
    pub obsolescence: Vec<f64>,
    /// Number of measured accesses, `cycles × seq.len()` (the warm-up cycle
    /// is not counted).
    pub accesses: u64,
}

/// Per-page running state of the simulation.
#[derive(Clone, Copy)]
struct PageClock {
    /// Completion time of the page's last crawl.
    last_crawl: f64,
    /// Time of the first change after `last_crawl`.
    next_change: f64,
}

/// Simulates `cycles` repetitions of the cyclic access sequence `seq` (page
/// indices into `model`) and estimates the obsolescence rates and the cost.
///
/// Every page must occur in `seq`: the paper's stationary policies (§2)
/// access every page with a positive frequency, and a page never crawled
/// would simply be out of date for ever.
///
/// Simulation is exact, not discretised: after each crawl of page i the
/// time to its next change is drawn as Exp(μ_i) (memorylessness of the
/// Poisson process, eq. 5), and the stale time of that inter-access interval
/// is (completion of the next crawl − change time)⁺.
///
/// Warm-up: one unmeasured cycle is run first, starting with every page
/// "just crawled" at time 0. After it every page has been crawled at its
/// own position of the cycle, so every measured inter-access interval has
/// exactly the cyclic length of the stationary policy; by memorylessness
/// nothing else carries over, so the measured cycles are an exact sample
/// of the stationary regime (no initial bias, unlike starting the clock at
/// 0 where each page's first interval would be artificially short).
///
/// r_i is the ratio of page i's summed stale time to its summed inter-access
/// time over the measured intervals, as in eq. (2). The standard error comes
/// from batch means: the measured cycles are split into up to [`BATCHES`]
/// consecutive batches, the cost is computed within each batch, and the
/// spread of those batch costs gives the standard error of their mean.
///
/// Errors: `InvalidArgument` for an empty sequence, an index ≥ N, a page
/// missing from the sequence, or `cycles == 0`; `TooLarge` when the run
/// would exceed [`MAX_ACCESSES`] accesses.
pub fn simulate_cyclic(
    model: &Model,
    seq: &[usize],
    cycles: u64,
    seed: u64,
) -> Result<SimulationResult> {
    simulate_cyclic_with(model, seq, cycles, seed, &Control::default())
}

/// [`simulate_cyclic`] under a control: a run of up to [`MAX_ACCESSES`]
/// accesses takes hours, so a cancel is read every 2^16 accesses
/// (`Cancelled`, no estimate). The iteration cap does not apply (the
/// caller chooses `cycles`); the memory is O(N).
pub fn simulate_cyclic_with(
    model: &Model,
    seq: &[usize],
    cycles: u64,
    seed: u64,
    control: &Control,
) -> Result<SimulationResult> {
    check_inputs(model.len(), seq, cycles)?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut run = Run::warmed_up(model, seq, &mut rng);
    let batches = cycles.min(BATCHES);
    let mut batch_costs = Vec::with_capacity(batches as usize);
    let mut cycle: u64 = 0;
    for b in 0..batches {
        // Batch b covers cycles [b·cycles/B, (b+1)·cycles/B): sizes differ by
        // at most one. u128 avoids overflow of the product.
        let end = ((u128::from(b) + 1) * u128::from(cycles) / u128::from(batches)) as u64;
        while cycle < end {
            run.cycle(model, seq, &mut rng, control)?;
            cycle += 1;
        }
        batch_costs.push(run.close_batch(model.weights()));
    }
    Ok(run.finish(model.weights(), &batch_costs, cycles * seq.len() as u64))
}

/// The input checks of [`simulate_cyclic`], before any allocation or work
/// (the warm-up cycle counts towards [`MAX_ACCESSES`]).
fn check_inputs(n: usize, seq: &[usize], cycles: u64) -> Result<()> {
    if seq.is_empty() {
        return Err(Error::invalid("the access sequence must not be empty"));
    }
    if cycles == 0 {
        return Err(Error::invalid("the number of cycles must be >= 1"));
    }
    let k = seq.len() as u64;
    let total = cycles.checked_add(1).and_then(|c| c.checked_mul(k));
    if total.is_none_or(|t| t > MAX_ACCESSES) {
        return Err(Error::TooLarge(format!(
            "{cycles} cycles of length {k} exceed {MAX_ACCESSES} simulated accesses"
        )));
    }
    let mut seen = vec![false; n];
    for (p, &i) in seq.iter().enumerate() {
        if i >= n {
            return Err(Error::invalid(format!(
                "seq[{p}] = {i} is not a page index (the model has {n} pages)"
            )));
        }
        seen[i] = true;
    }
    if let Some(i) = seen.iter().position(|&s| !s) {
        return Err(Error::invalid(format!(
            "page {i} never occurs in the sequence; every page needs a positive frequency"
        )));
    }
    Ok(())
}

/// A simulation in progress: the clock, every page's state, per-batch
/// accumulators (reset by [`Run::close_batch`]) and run totals.
struct Run {
    t: f64,
    accesses: u64,
    clocks: Vec<PageClock>,
    stale_b: Vec<f64>,
    span_b: Vec<f64>,
    stale_tot: Vec<f64>,
    span_tot: Vec<f64>,
}

impl Run {
    /// After the unmeasured warm-up cycle, started with every page "just
    /// crawled" at time 0.
    fn warmed_up(model: &Model, seq: &[usize], rng: &mut Xoshiro256PlusPlus) -> Run {
        let n = model.len();
        let mu = model.change_rates();
        let mut clocks: Vec<PageClock> = mu
            .iter()
            .map(|&m| PageClock {
                last_crawl: 0.0,
                next_change: exp_sample(rng, m),
            })
            .collect();
        let mut t = 0.0;
        for &i in seq {
            t += model.access().sample(rng);
            clocks[i] = PageClock {
                last_crawl: t,
                next_change: t + exp_sample(rng, mu[i]),
            };
        }
        Run {
            t,
            accesses: 0,
            clocks,
            stale_b: vec![0.0; n],
            span_b: vec![0.0; n],
            stale_tot: vec![0.0; n],
            span_tot: vec![0.0; n],
        }
    }

    /// One measured cycle; the control is read every 2^16 accesses.
    fn cycle(
        &mut self,
        model: &Model,
        seq: &[usize],
        rng: &mut Xoshiro256PlusPlus,
        control: &Control,
    ) -> Result<()> {
        let mu = model.change_rates();
        for &i in seq {
            if self.accesses.is_multiple_of(1 << 16) {
                control.check("freshness simulation", self.accesses)?;
            }
            self.accesses += 1;
            self.t += model.access().sample(rng);
            let t = self.t;
            let c = &mut self.clocks[i];
            if c.next_change < t {
                self.stale_b[i] += t - c.next_change;
            }
            self.span_b[i] += t - c.last_crawl;
            c.last_crawl = t;
            c.next_change = t + exp_sample(rng, mu[i]);
        }
        Ok(())
    }

    /// The batch's cost; its accumulators move into the run totals.
    fn close_batch(&mut self, weights: &[f64]) -> f64 {
        let mut cost_b = 0.0;
        for (i, &w) in weights.iter().enumerate() {
            if self.span_b[i] > 0.0 {
                cost_b += w * self.stale_b[i] / self.span_b[i];
            }
            self.stale_tot[i] += self.stale_b[i];
            self.span_tot[i] += self.span_b[i];
            self.stale_b[i] = 0.0;
            self.span_b[i] = 0.0;
        }
        cost_b
    }

    /// Obsolescence rates and cost over the whole run, and the batch-means
    /// standard error (∞ with fewer than two batches).
    fn finish(self, weights: &[f64], batch_costs: &[f64], accesses: u64) -> SimulationResult {
        let obsolescence: Vec<f64> = self
            .stale_tot
            .iter()
            .zip(&self.span_tot)
            .map(|(&s, &d)| if d > 0.0 { s / d } else { 0.0 })
            .collect();
        let cost: f64 = obsolescence.iter().zip(weights).map(|(r, c)| r * c).sum();
        let std_error = if batch_costs.len() < 2 {
            f64::INFINITY
        } else {
            let m = batch_costs.len() as f64;
            let mean = batch_costs.iter().sum::<f64>() / m;
            let var = batch_costs
                .iter()
                .map(|x| (x - mean) * (x - mean))
                .sum::<f64>()
                / (m - 1.0);
            (var / m).sqrt()
        };
        SimulationResult {
            cost,
            std_error,
            obsolescence,
            accesses,
        }
    }
}
