//! A seeded discrete-event simulation of the crawler of paper 002, written
//! independently of the Markov chain: pages carry sampled service times and
//! obsolescence deadlines (not phases), the queue is a FIFO of pages, and
//! only the arrival process is simulated through its phase. Used to check
//! the chain's measures within confidence intervals.

use super::model::{Policy, ThresholdModel};
use crate::dist::Bmap;
use crate::error::{Error, Result};
use crate::limits::Control;
use crate::validate;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;

/// A point estimate and its standard error (from batch means).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Ratio of totals over the measured period.
    pub mean: f64,
    /// Standard error from the spread of the batch values.
    pub std_error: f64,
}

/// Simulated counterparts of [`super::Measures`].
#[derive(Debug, Clone, PartialEq)]
pub struct SimMeasures {
    /// Offered pages per unit time.
    pub fundamental_rate: Estimate,
    /// Lost / offered.
    pub loss_probability: Estimate,
    /// Obsolete / offered.
    pub obsolescence_probability: Estimate,
    /// Served / offered.
    pub success_probability: Estimate,
    /// Fraction of time the system is empty.
    pub starvation_probability: Estimate,
    /// Served pages per unit time.
    pub throughput: Estimate,
    /// Time-average number of pages in the system.
    pub mean_pages: Estimate,
    /// Mean sojourn of admitted pages that left (served or obsolete).
    pub response_time: Estimate,
    /// Mean sojourn of served pages (admission to end of service).
    pub served_response_time: Estimate,
    /// Mean sojourn of pages that became obsolete.
    pub obsolete_response_time: Estimate,
    /// P(sojourn ≤ t) over admitted pages that left, at each t given to
    /// [`simulate_sojourns`] (empty from [`simulate`]).
    pub sojourn_cdf: Vec<Estimate>,
    /// P(sojourn ≤ t | served) at the same times.
    pub served_sojourn_cdf: Vec<Estimate>,
    /// Time-average number of active robots.
    pub mean_robots: Estimate,
    /// Events simulated.
    pub events: u64,
}

#[derive(Default, Clone)]
struct Acc {
    time: f64,
    empty: f64,
    pages: f64,
    robots: f64,
    offered: f64,
    lost: f64,
    obsolete: f64,
    served: f64,
    sojourn: f64,
    served_sojourn: f64,
    /// Departed pages (all, served) with sojourn ≤ each requested time.
    below: Vec<f64>,
    served_below: Vec<f64>,
}

fn estimate(batches: &[Acc], num: impl Fn(&Acc) -> f64, den: impl Fn(&Acc) -> f64) -> Estimate {
    let (n, d): (f64, f64) = batches
        .iter()
        .fold((0.0, 0.0), |(a, b), x| (a + num(x), b + den(x)));
    let mean = n / d;
    let vals: Vec<f64> = batches
        .iter()
        .filter(|x| den(x) > 0.0)
        .map(|x| num(x) / den(x))
        .collect();
    let k = vals.len() as f64;
    let avg = vals.iter().sum::<f64>() / k;
    let var = vals.iter().map(|v| (v - avg) * (v - avg)).sum::<f64>() / (k - 1.0).max(1.0);
    Estimate {
        mean,
        std_error: (var / k).sqrt(),
    }
}

/// Simulates `horizon` time units after a warm-up of `warmup`, split into
/// `batches` equal batches for the standard errors.
pub fn simulate(
    model: &ThresholdModel,
    policy: &Policy,
    warmup: f64,
    horizon: f64,
    batches: usize,
    seed: u64,
) -> Result<SimMeasures> {
    simulate_sojourns(model, policy, warmup, horizon, batches, seed, &[])
}

/// [`simulate`], also estimating the sojourn distribution of admitted
/// pages (all, and served only) at `times`: each page is followed from its
/// admission to its departure, the fraction departing within t counted
/// over the pages that leave during the measured period.
pub fn simulate_sojourns(
    model: &ThresholdModel,
    policy: &Policy,
    warmup: f64,
    horizon: f64,
    batches: usize,
    seed: u64,
    times: &[f64],
) -> Result<SimMeasures> {
    simulate_sojourns_with(
        model,
        policy,
        warmup,
        horizon,
        batches,
        seed,
        times,
        &Control::default(),
    )
}

/// [`simulate_sojourns`] under a control: the run length grows with the
/// horizon without bound, so a cancel is read every 2^16 events
/// (`Cancelled`, no estimates). The iteration cap does not apply (the
/// caller chooses the horizon).
#[allow(clippy::too_many_arguments)]
pub fn simulate_sojourns_with(
    model: &ThresholdModel,
    policy: &Policy,
    warmup: f64,
    horizon: f64,
    batches: usize,
    seed: u64,
    times: &[f64],
    control: &Control,
) -> Result<SimMeasures> {
    check_run(model, policy, warmup, horizon, batches, times)?;
    let mut sim = Sim::new(model, policy, warmup, horizon, batches, seed, times);
    sim.run(control)?;
    Ok(sim.finish())
}

/// The arguments of [`simulate_sojourns_with`].
fn check_run(
    model: &ThresholdModel,
    policy: &Policy,
    warmup: f64,
    horizon: f64,
    batches: usize,
    times: &[f64],
) -> Result<()> {
    if let Some(t) = times.iter().find(|t| !(t.is_finite() && **t >= 0.0)) {
        return Err(Error::invalid(format!(
            "times must be finite and >= 0, got {}",
            crate::error::Num(*t)
        )));
    }
    model.check_policy(policy)?;
    validate::non_negative("warmup", warmup)?;
    validate::positive("horizon", horizon)?;
    if !(2..=10_000).contains(&batches) {
        return Err(Error::invalid(format!(
            "batches must be in 2..=10000, got {batches}"
        )));
    }
    Ok(())
}

/// The state of one simulation run: the clock, the arrival phase, the
/// pages in the system and the per-batch totals.
struct Sim<'a> {
    model: &'a ThresholdModel,
    policy: &'a Policy,
    times: &'a [f64],
    rng: Xoshiro256PlusPlus,
    /// Buffer capacity (largest level).
    top: usize,
    warmup: f64,
    /// warmup + horizon.
    end: f64,
    /// Length of one batch.
    width: f64,
    acc: Vec<Acc>,
    /// Phase of the arrival process.
    nu: usize,
    t: f64,
    /// (arrival time, deadline) of waiting pages, head first.
    queue: VecDeque<(f64, f64)>,
    /// (arrival time, completion time) of the page in service.
    in_service: Option<(f64, f64)>,
    events: u64,
}

impl<'a> Sim<'a> {
    /// Setup: empty system at time 0, the arrival phase drawn from the
    /// stationary law of the first mode's process.
    fn new(
        model: &'a ThresholdModel,
        policy: &'a Policy,
        warmup: f64,
        horizon: f64,
        batches: usize,
        seed: u64,
        times: &'a [f64],
    ) -> Self {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let acc = vec![
            Acc {
                below: vec![0.0; times.len()],
                served_below: vec![0.0; times.len()],
                ..Acc::default()
            };
            batches
        ];
        let nu = crate::dist::pick(&mut rng, model.arrivals(policy.robots_at(0)).stationary());
        Sim {
            model,
            policy,
            times,
            rng,
            top: model.space().max_level(),
            warmup,
            end: warmup + horizon,
            width: horizon / batches as f64,
            acc,
            nu,
            t: 0.0,
            queue: VecDeque::new(),
            in_service: None,
            events: 0,
        }
    }

    /// The batch holding time t, `None` during the warm-up.
    fn batch_of(&self, t: f64) -> Option<usize> {
        if t < self.warmup {
            None
        } else {
            Some((((t - self.warmup) / self.width) as usize).min(self.acc.len() - 1))
        }
    }

    /// Main loop: one event (service completion, obsolescence or arrival
    /// phase move) per step until the end of the horizon.
    fn run(&mut self, control: &Control) -> Result<()> {
        while self.t < self.end {
            if self.events.is_multiple_of(1 << 16) {
                control.check("threshold simulation", self.events)?;
            }
            let level = self.queue.len() + usize::from(self.in_service.is_some());
            let robots = self.policy.robots_at(level);
            let arr = self.model.arrivals(robots);
            let q = -arr.d(0)[(self.nu, self.nu)];
            // Memoryless clock, redrawn after every event (the mode may change).
            let t_arr = self.t + crate::dist::exp_sample(&mut self.rng, q);
            let t_srv = self.in_service.map_or(f64::INFINITY, |s| s.1);
            let (dead_pos, t_dead) = self.next_deadline();
            let t_next = t_arr.min(t_srv).min(t_dead).min(self.end);
            self.accumulate(t_next, level, robots);
            self.t = t_next;
            if self.t >= self.end {
                break;
            }
            self.events += 1;
            let slot = self.batch_of(self.t);
            if self.t == t_srv {
                self.complete_service(slot);
            } else if self.t == t_dead {
                self.expire(dead_pos, slot);
            } else {
                self.move_phase(arr, q, level, slot);
            }
        }
        Ok(())
    }

    /// (position, time) of the earliest deadline in the queue.
    fn next_deadline(&self) -> (usize, f64) {
        self.queue
            .iter()
            .enumerate()
            .fold((usize::MAX, f64::INFINITY), |b, (p, x)| {
                if x.1 < b.1 { (p, x.1) } else { b }
            })
    }

    /// Time averages over [t, t_next], split at batch boundaries.
    fn accumulate(&mut self, t_next: f64, level: usize, robots: usize) {
        let batches = self.acc.len();
        let mut a = self.t.max(self.warmup);
        while a < t_next {
            let Some(b) = self.batch_of(a) else { break };
            let stop = if b + 1 == batches {
                t_next
            } else {
                (self.warmup + (b + 1) as f64 * self.width).min(t_next)
            };
            let dt = stop - a;
            let x = &mut self.acc[b];
            x.time += dt;
            x.pages += dt * level as f64;
            x.robots += dt * robots as f64;
            if level == 0 {
                x.empty += dt;
            }
            a = stop;
        }
    }

    /// The page in service leaves served; the head of the queue starts.
    fn complete_service(&mut self, slot: Option<usize>) {
        let t = self.t;
        let (arrived, _) = self.in_service.take().unwrap_or((t, t));
        if let Some(b) = slot {
            let x = &mut self.acc[b];
            let d = t - arrived;
            x.served += 1.0;
            x.sojourn += d;
            x.served_sojourn += d;
            for (k, &tk) in self.times.iter().enumerate() {
                if d <= tk {
                    x.below[k] += 1.0;
                    x.served_below[k] += 1.0;
                }
            }
        }
        if let Some((arrived, _)) = self.queue.pop_front() {
            self.in_service = Some((arrived, t + self.model.service().sample(&mut self.rng)));
        }
    }

    /// The waiting page at `pos` becomes obsolete and leaves.
    fn expire(&mut self, pos: usize, slot: Option<usize>) {
        let t = self.t;
        let (arrived, _) = self.queue.remove(pos).unwrap_or((t, t));
        if let Some(b) = slot {
            let x = &mut self.acc[b];
            let d = t - arrived;
            x.obsolete += 1.0;
            x.sojourn += d;
            for (k, &tk) in self.times.iter().enumerate() {
                if d <= tk {
                    x.below[k] += 1.0;
                }
            }
        }
    }

    /// A transition of the arrival phase (total rate q out of phase nu of
    /// `arr`): a D₀ off-diagonal move, or a batch of j pages of which those
    /// that fit are admitted.
    fn move_phase(&mut self, arr: &Bmap, q: f64, level: usize, slot: Option<usize>) {
        let nu = self.nu;
        let u = self.rng.random::<f64>() * q;
        let mut cum = 0.0;
        let mut chosen: Option<(usize, usize)> = None; // (batch size, next phase)
        'pick: for j in 0..=arr.max_batch() {
            let d = arr.d(j);
            for nu2 in 0..d.ncols() {
                if j == 0 && nu2 == nu {
                    continue;
                }
                cum += d[(nu, nu2)];
                if u < cum {
                    chosen = Some((j, nu2));
                    break 'pick;
                }
            }
        }
        // u beyond the rounded total of the rates: the last possible move.
        let (j, nu2) = chosen.unwrap_or((0, nu));
        self.nu = nu2;
        if j == 0 {
            return;
        }
        let admitted = j.min(self.top - level);
        if let Some(b) = slot {
            self.acc[b].offered += j as f64;
            self.acc[b].lost += (j - admitted) as f64;
        }
        let t = self.t;
        for _ in 0..admitted {
            if self.in_service.is_none() {
                self.in_service = Some((t, t + self.model.service().sample(&mut self.rng)));
            } else {
                let deadline = self
                    .model
                    .obsolescence()
                    .map_or(f64::INFINITY, |ob| t + ob.sample(&mut self.rng));
                self.queue.push_back((t, deadline));
            }
        }
    }

    /// Finish: the estimates from the batch totals.
    fn finish(self) -> SimMeasures {
        let acc = &self.acc;
        let times = self.times;
        let total_time = |x: &Acc| x.time;
        let offered = |x: &Acc| x.offered;
        SimMeasures {
            fundamental_rate: estimate(acc, offered, total_time),
            loss_probability: estimate(acc, |x| x.lost, offered),
            obsolescence_probability: estimate(acc, |x| x.obsolete, offered),
            success_probability: estimate(acc, |x| x.served, offered),
            starvation_probability: estimate(acc, |x| x.empty, total_time),
            throughput: estimate(acc, |x| x.served, total_time),
            mean_pages: estimate(acc, |x| x.pages, total_time),
            response_time: estimate(acc, |x| x.sojourn, |x| x.served + x.obsolete),
            served_response_time: estimate(acc, |x| x.served_sojourn, |x| x.served),
            obsolete_response_time: estimate(acc, |x| x.sojourn - x.served_sojourn, |x| x.obsolete),
            sojourn_cdf: (0..times.len())
                .map(|k| estimate(acc, |x| x.below[k], |x| x.served + x.obsolete))
                .collect(),
            served_sojourn_cdf: (0..times.len())
                .map(|k| estimate(acc, |x| x.served_below[k], |x| x.served))
                .collect(),
            mean_robots: estimate(acc, |x| x.robots, total_time),
            events: self.events,
        }
    }
}
