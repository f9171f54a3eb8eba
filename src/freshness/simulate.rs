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
    let n = model.len();
    if seq.is_empty() {
        return Err(Error::invalid("the access sequence must not be empty"));
    }
    if cycles == 0 {
        return Err(Error::invalid("the number of cycles must be >= 1"));
    }
    let k = seq.len() as u64;
    // Checked before any allocation or work; the warm-up cycle counts too.
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

    let access = model.access();
    let mu = model.change_rates();
    let weights = model.weights();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);

    // Warm-up cycle, everything "just crawled" at time 0.
    let mut clocks: Vec<PageClock> = mu
        .iter()
        .map(|&m| PageClock {
            last_crawl: 0.0,
            next_change: exp_sample(&mut rng, m),
        })
        .collect();
    let mut t = 0.0;
    for &i in seq {
        t += access.sample(&mut rng);
        clocks[i] = PageClock {
            last_crawl: t,
            next_change: t + exp_sample(&mut rng, mu[i]),
        };
    }

    let batches = cycles.min(BATCHES);
    // Per-batch accumulators (reset after each batch) and run totals.
    let mut stale_b = vec![0.0; n];
    let mut span_b = vec![0.0; n];
    let mut stale_tot = vec![0.0; n];
    let mut span_tot = vec![0.0; n];
    let mut batch_costs = Vec::with_capacity(batches as usize);

    let mut cycle: u64 = 0;
    let mut accesses: u64 = 0;
    for b in 0..batches {
        // Batch b covers cycles [b·cycles/B, (b+1)·cycles/B): sizes differ by
        // at most one. u128 avoids overflow of the product.
        let end = ((u128::from(b) + 1) * u128::from(cycles) / u128::from(batches)) as u64;
        while cycle < end {
            for &i in seq {
                if accesses % (1 << 16) == 0 {
                    control.check("freshness simulation", accesses)?;
                }
                accesses += 1;
                t += access.sample(&mut rng);
                let c = &mut clocks[i];
                if c.next_change < t {
                    stale_b[i] += t - c.next_change;
                }
                span_b[i] += t - c.last_crawl;
                c.last_crawl = t;
                c.next_change = t + exp_sample(&mut rng, mu[i]);
            }
            cycle += 1;
        }
        let mut cost_b = 0.0;
        for i in 0..n {
            if span_b[i] > 0.0 {
                cost_b += weights[i] * stale_b[i] / span_b[i];
            }
            stale_tot[i] += stale_b[i];
            span_tot[i] += span_b[i];
            stale_b[i] = 0.0;
            span_b[i] = 0.0;
        }
        batch_costs.push(cost_b);
    }

    let obsolescence: Vec<f64> = stale_tot
        .iter()
        .zip(&span_tot)
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
    Ok(SimulationResult {
        cost,
        std_error,
        obsolescence,
        accesses: cycles * k,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dist::Distribution;
    use crate::freshness::cyclic;

    /// Exact cost of a cyclic sequence from eq. (3) and Lemma 3.1, written
    /// out independently of `cyclic::cost`:
    /// r_i = (1/(K E\[X])) Σ_j (d_j E\[X] − (1 − h_i^{d_j})/μ_i).
    fn lemma_3_1_cost(model: &Model, seq: &[usize]) -> (f64, Vec<f64>) {
        let n = model.len();
        let k = seq.len();
        let e = model.mean_access();
        let mut r = vec![0.0; n];
        for (i, ri) in r.iter_mut().enumerate() {
            let pos: Vec<usize> = (0..k).filter(|&p| seq[p] == i).collect();
            let mut s = 0.0;
            for (j, &p) in pos.iter().enumerate() {
                let prev = if j == 0 {
                    pos[pos.len() - 1]
                } else {
                    pos[j - 1]
                };
                let d = ((p + k - prev - 1) % k + 1) as f64;
                s += d * e - (1.0 - model.h()[i].powf(d)) / model.change_rates()[i];
            }
            *ri = s / (k as f64 * e);
        }
        let c = r.iter().zip(model.weights()).map(|(a, b)| a * b).sum();
        (c, r)
    }

    fn small_model(access: Distribution) -> Model {
        Model::new(access, &[0.05, 0.2, 0.4, 0.8], Some(&[1.0, 2.0, 0.5, 1.5])).unwrap()
    }

    /// A cycle with uneven spacing, so the test is not only round robin.
    const SEQ: [usize; 9] = [3, 2, 3, 1, 3, 2, 0, 3, 1];

    fn check(access: Distribution, seed: u64) {
        let model = small_model(access);
        let sim = simulate_cyclic(&model, &SEQ, 100_000, seed).unwrap();
        let exact = cyclic::cost(&model, &SEQ).unwrap();
        let (mine, r_exact) = lemma_3_1_cost(&model, &SEQ);
        assert!(
            (exact - mine).abs() < 1e-12 * mine.max(1.0),
            "{exact} vs {mine}"
        );
        assert!(
            sim.std_error > 0.0 && sim.std_error < 0.01 * exact,
            "se {}",
            sim.std_error
        );
        assert!(
            (sim.cost - exact).abs() < 4.0 * sim.std_error,
            "sim {} ± {} vs exact {exact}",
            sim.cost,
            sim.std_error
        );
        // Per-page rates too; the batch SE of the cost bounds each page's
        // noise only loosely, so use a relative tolerance there.
        let r_cyc = cyclic::obsolescence(&model, &SEQ).unwrap();
        for i in 0..model.len() {
            assert!((r_cyc[i] - r_exact[i]).abs() < 1e-12);
            assert!(
                (sim.obsolescence[i] - r_exact[i]).abs() < 0.02 * r_exact[i] + 1e-3,
                "page {i}: sim {} exact {}",
                sim.obsolescence[i],
                r_exact[i]
            );
        }
        assert_eq!(sim.accesses, 900_000);
    }

    #[test]
    fn agrees_with_exact_cost_exponential_access() {
        check(Distribution::exponential(1.0).unwrap(), 1);
    }

    #[test]
    fn agrees_with_exact_cost_deterministic_access() {
        check(Distribution::deterministic(1.0).unwrap(), 2);
    }

    #[test]
    fn agrees_with_exact_cost_hyperexponential_access() {
        // High variance X: h_i differs markedly from exp(−μ_i E[X]).
        check(
            Distribution::hyperexponential(vec![0.9, 0.1], vec![2.0, 0.2]).unwrap(),
            3,
        );
    }

    #[test]
    fn deterministic_given_seed() {
        let model = small_model(Distribution::exponential(2.0).unwrap());
        let a = simulate_cyclic(&model, &SEQ, 100, 7).unwrap();
        let b = simulate_cyclic(&model, &SEQ, 100, 7).unwrap();
        let c = simulate_cyclic(&model, &SEQ, 100, 8).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.cost, c.cost);
    }

    #[test]
    fn control_cancels_from_another_thread_and_changes_nothing_otherwise() {
        let model = small_model(Distribution::exponential(2.0).unwrap());
        let control = Control::new();
        let plain = simulate_cyclic(&model, &SEQ, 100, 7).unwrap();
        assert_eq!(
            simulate_cyclic_with(&model, &SEQ, 100, 7, &control).unwrap(),
            plain
        );
        // 10^10 cycles of 9 accesses (hours): only the cancel ends it.
        let c2 = control.clone();
        let canceller = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            c2.cancel();
        });
        let r = simulate_cyclic_with(&model, &SEQ, 10_000_000_000, 7, &control);
        canceller.join().unwrap();
        assert!(
            matches!(&r, Err(Error::Cancelled(m)) if m.contains("freshness simulation")),
            "{r:?}"
        );
    }

    #[test]
    fn one_cycle_has_no_standard_error() {
        let model = small_model(Distribution::exponential(1.0).unwrap());
        let r = simulate_cyclic(&model, &SEQ, 1, 0).unwrap();
        assert!(r.std_error.is_infinite());
        assert!(r.cost.is_finite() && r.cost >= 0.0);
        assert_eq!(r.accesses, SEQ.len() as u64);
    }

    #[test]
    fn rejects_bad_input() {
        let model = small_model(Distribution::exponential(1.0).unwrap());
        let inv = |r: Result<SimulationResult>| matches!(r, Err(Error::InvalidArgument(_)));
        assert!(inv(simulate_cyclic(&model, &[], 10, 0)));
        assert!(inv(simulate_cyclic(&model, &SEQ, 0, 0)));
        assert!(inv(simulate_cyclic(&model, &[0, 1, 2, 4], 10, 0)));
        assert!(inv(simulate_cyclic(&model, &[0, 1, 2, 2], 10, 0)));
        assert!(matches!(
            simulate_cyclic(&model, &SEQ, u64::MAX, 0),
            Err(Error::TooLarge(_))
        ));
        assert!(matches!(
            simulate_cyclic(&model, &SEQ, MAX_ACCESSES, 0),
            Err(Error::TooLarge(_))
        ));
    }

    /// 10^6 accesses must be quick (the bound is loose for debug builds).
    #[test]
    fn million_accesses_is_fast() {
        let model = small_model(Distribution::exponential(1.0).unwrap());
        let start = std::time::Instant::now();
        let r = simulate_cyclic(&model, &SEQ, 111_112, 4).unwrap();
        assert!(r.accesses >= 1_000_000);
        let limit = if cfg!(debug_assertions) { 20.0 } else { 1.0 };
        assert!(start.elapsed().as_secs_f64() < limit);
    }
}
