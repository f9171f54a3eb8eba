//! Monte Carlo of the routing system of §2, to validate the exact costs.
//!
//! Packets arrive from the arrival process (Poisson, or a MAP simulated
//! phase by phase), are routed by repeating the period, and:
//! - for [`Objective::Losses`], server m holds one packet for an Exp(μ_m)
//!   time; a packet routed to a busy server preempts (loses) the one in
//!   service, costing c_m (§2, preemptive discipline);
//! - for [`Objective::RobotScheduling`], page m changes after an Exp(μ_m)
//!   time following each visit, and the next visit pays c_m times the
//!   time it was stale (§6); a page never visited pays c_m per unit time.
//!
//! One period is run first unmeasured, so every server visited by the
//! period has a previous visit at its own position, as in the stationary
//! regime. By memorylessness nothing else carries over.

use super::arrivals::ArrivalProcess;
use super::cost::check_sequence;
use super::system::{Objective, RoutingSystem};
use crate::dist::{exp_sample, pick};
use crate::error::{Error, Num, Result};
use crate::limits::Control;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Largest number of simulated packets accepted.
pub const MAX_PACKETS: u64 = 10_000_000_000;
/// Number of batches for the batch-means standard error.
pub const BATCHES: u64 = 30;

/// Outcome of [`simulate`].
#[derive(Debug, Clone, PartialEq)]
pub struct SimulationResult {
    /// Estimated cost per packet (compare with g(π), eq. 6).
    pub per_packet: f64,
    /// Batch-means standard error of `per_packet` (infinite with < 2 batches).
    pub std_error: f64,
    /// Estimated cost per unit time (total cost / elapsed time).
    pub per_unit_time: f64,
    /// Packets measured.
    pub packets: u64,
}

/// Expected phase transitions per arrival (1 for Poisson): Σ θ_i r_i / λ.
fn transitions_per_arrival(a: &ArrivalProcess) -> f64 {
    match a {
        ArrivalProcess::Poisson { .. } => 1.0,
        ArrivalProcess::Map { bmap, .. } => {
            let d0 = bmap.d(0);
            let events: f64 = bmap
                .stationary()
                .iter()
                .enumerate()
                .map(|(i, t)| t * -d0[(i, i)])
                .sum();
            (events / bmap.fundamental_rate()).max(1.0)
        }
    }
}

/// Draws interarrival times of a stationary arrival process.
struct Sampler {
    /// Per phase: total outflow rate and the 2n transition weights (first n
    /// without arrival, next n with one).
    phases: Vec<(f64, Vec<f64>)>,
    phase: usize,
    poisson: Option<f64>,
}

impl Sampler {
    fn new(a: &ArrivalProcess, rng: &mut Xoshiro256PlusPlus) -> Self {
        match a {
            ArrivalProcess::Poisson { rate } => Sampler {
                phases: Vec::new(),
                phase: 0,
                poisson: Some(*rate),
            },
            ArrivalProcess::Map { bmap, q } => {
                let n = bmap.order();
                let (d0, d1) = (bmap.d(0), bmap.d(1));
                let phases = (0..n)
                    .map(|i| {
                        let r = -d0[(i, i)];
                        let w = (0..2 * n)
                            .map(|k| {
                                let j = k % n;
                                let v = if k < n {
                                    if j == i { 0.0 } else { d0[(i, j)] }
                                } else {
                                    d1[(i, j)]
                                };
                                v / r
                            })
                            .collect();
                        (r, w)
                    })
                    .collect();
                // Start at an arrival epoch of the stationary process.
                let phase = pick(rng, q.as_slice());
                Sampler {
                    phases,
                    phase,
                    poisson: None,
                }
            }
        }
    }

    fn next(&mut self, rng: &mut Xoshiro256PlusPlus) -> f64 {
        if let Some(rate) = self.poisson {
            return exp_sample(rng, rate);
        }
        let n = self.phases.len();
        let mut t = 0.0;
        loop {
            let (r, w) = &self.phases[self.phase];
            t += exp_sample(rng, *r);
            let k = pick(rng, w);
            self.phase = k % n;
            if k >= n {
                return t;
            }
        }
    }
}

/// Simulates `periods` repetitions of `seq` (after one warm-up period).
/// Errors: `InvalidArgument` for a custom objective (no physical model),
/// a bad sequence or `periods == 0`; `TooLarge` beyond [`MAX_PACKETS`].
pub fn simulate(
    system: &RoutingSystem,
    seq: &[usize],
    periods: u64,
    seed: u64,
) -> Result<SimulationResult> {
    simulate_with(system, seq, periods, seed, &Control::default())
}

/// [`simulate`] under a control: a cancel is seen within 2^16 packets
/// (`Cancelled`, no estimate). The iteration cap does not apply (the
/// caller chooses `periods`) and the memory is O(M).
pub fn simulate_with(
    system: &RoutingSystem,
    seq: &[usize],
    periods: u64,
    seed: u64,
    control: &Control,
) -> Result<SimulationResult> {
    let robot = check_simulation(system, seq, periods)?;
    let mut tally = Tally::new(periods, seq.len() as u64);
    run_periods(system, seq, seed, robot, control, &mut tally)?;
    Ok(tally.result())
}

/// The arguments of [`simulate_with`] and its work bound; whether the
/// objective is robot scheduling (else losses).
fn check_simulation(system: &RoutingSystem, seq: &[usize], periods: u64) -> Result<bool> {
    check_sequence(seq, system.len())?;
    if periods == 0 {
        return Err(Error::invalid("periods must be >= 1"));
    }
    let robot = match system.objective() {
        Objective::Losses => false,
        Objective::RobotScheduling => true,
        Objective::Custom { .. } => {
            return Err(Error::invalid(
                "a custom objective has no physical model to simulate",
            ));
        }
    };
    let n = seq.len() as u64;
    periods
        .checked_add(1)
        .and_then(|p| p.checked_mul(n))
        .filter(|&p| p <= MAX_PACKETS)
        .ok_or_else(|| {
            Error::TooLarge(format!(
                "{periods} periods of {n} packets exceed {MAX_PACKETS} packets"
            ))
        })?;
    // A MAP draws each interarrival as a run of phase transitions, about
    // Σ θ_i r_i / λ per arrival (θ stationary, r_i the phase's outflow):
    // unbounded as λ → 0 against the phase rates, so counted as work too.
    let per_arrival = transitions_per_arrival(system.arrivals());
    let work = (periods as f64 + 1.0) * n as f64 * per_arrival;
    if work.is_nan() || work > MAX_PACKETS as f64 {
        return Err(Error::TooLarge(format!(
            "{periods} periods of {n} packets take about {} phase transitions of the arrival process \
             ({} per arrival; limit {MAX_PACKETS})",
            Num(work),
            Num(per_arrival)
        )));
    }
    Ok(robot)
}

/// Runs one unmeasured period, then `tally.periods` measured ones.
fn run_periods(
    system: &RoutingSystem,
    seq: &[usize],
    seed: u64,
    robot: bool,
    control: &Control,
    tally: &mut Tally,
) -> Result<()> {
    let m = system.len();
    let (mu, w) = (system.rates(), system.weights());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut arrivals = Sampler::new(system.arrivals(), &mut rng);
    let mut seen = vec![false; m];
    for &s in seq {
        seen[s] = true;
    }
    let absent_weight: f64 = (0..m).filter(|&s| !seen[s]).map(|s| w[s]).sum();
    // Losses: time the server becomes idle; robot: time of the page's
    // first change after its last visit.
    let mut clock = vec![f64::NEG_INFINITY; m];
    let mut now = 0.0;
    let mut packets = 0u64;
    for p in 0..=tally.periods {
        for &s in seq {
            if packets.is_multiple_of(1 << 16) {
                control.check("routing simulation", packets)?;
            }
            packets += 1;
            let dt = arrivals.next(&mut rng);
            now += dt;
            let mut cost = 0.0;
            if robot {
                cost += absent_weight * dt;
                if clock[s].is_finite() {
                    cost += w[s] * (now - clock[s]).max(0.0);
                }
            } else if clock[s] > now {
                cost += w[s];
            }
            clock[s] = now + exp_sample(&mut rng, mu[s]);
            if p > 0 {
                tally.add(p, cost, dt);
            }
        }
    }
    Ok(())
}

/// Costs of the measured periods, in `batches` batches of `per_batch`
/// periods (the last batch absorbs the remainder of periods / batches).
struct Tally {
    periods: u64,
    /// Packets per period.
    n: u64,
    batches: u64,
    per_batch: u64,
    batch_sum: Vec<f64>,
    total_cost: f64,
    measured: u64,
    elapsed: f64,
}

impl Tally {
    fn new(periods: u64, n: u64) -> Self {
        let batches = BATCHES.min(periods);
        Tally {
            periods,
            n,
            batches,
            per_batch: periods / batches,
            batch_sum: vec![0.0; batches as usize],
            total_cost: 0.0,
            measured: 0,
            elapsed: 0.0,
        }
    }

    /// A packet of measured period `p` (1-based) costing `cost` after an
    /// interarrival time `dt`.
    fn add(&mut self, p: u64, cost: f64, dt: f64) {
        let b = ((p - 1) / self.per_batch).min(self.batches - 1) as usize;
        self.total_cost += cost;
        self.elapsed += dt;
        self.measured += 1;
        self.batch_sum[b] += cost;
    }

    /// The estimates, with the batch-means standard error.
    fn result(&self) -> SimulationResult {
        let (batches, per_batch) = (self.batches, self.per_batch);
        let batch_costs: Vec<f64> = self
            .batch_sum
            .iter()
            .enumerate()
            .map(|(b, s)| {
                let periods_in = if b as u64 == batches - 1 {
                    self.periods - per_batch * (batches - 1)
                } else {
                    per_batch
                };
                s / (periods_in * self.n) as f64
            })
            .collect();
        let k = batch_costs.len();
        let std_error = if k < 2 {
            f64::INFINITY
        } else {
            let mean = batch_costs.iter().sum::<f64>() / k as f64;
            let var = batch_costs
                .iter()
                .map(|x| (x - mean) * (x - mean))
                .sum::<f64>()
                / (k - 1) as f64;
            (var / k as f64).sqrt()
        };
        SimulationResult {
            per_packet: self.total_cost / self.measured as f64,
            std_error,
            per_unit_time: self.total_cost / self.elapsed,
            packets: self.measured,
        }
    }
}
