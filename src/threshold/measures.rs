//! Performance measures (paper 002, §4, Theorems 1–3; the mean response
//! time of Corollary 1 by Little's law) and the cost criterion (eq. 2).

use super::generator::generator;
use super::model::{Policy, ThresholdModel};
use super::solve::residual;
use crate::error::{Error, Result};
use crate::limits::Control;
use crate::validate;

/// Stationary performance of the crawler under one policy.
#[derive(Debug, Clone, PartialEq)]
pub struct Measures {
    /// λ: pages offered per unit time (Theorem 2, averaged over the modes).
    pub fundamental_rate: f64,
    /// P_loss: share of offered pages lost to a full buffer (Theorem 2).
    pub loss_probability: f64,
    /// P_obs: share of offered pages that become obsolete while waiting (Theorem 3).
    pub obsolescence_probability: f64,
    /// P_succ: share of offered pages served (Theorem 3, eq. 15).
    pub success_probability: f64,
    /// P_starv: probability that the system is empty (Theorem 1).
    pub starvation_probability: f64,
    /// Pages served per unit time.
    pub throughput: f64,
    /// Mean number of pages in the system.
    pub mean_pages: f64,
    /// Mean number of waiting pages.
    pub mean_queue: f64,
    /// V: mean sojourn time of an admitted page (served or obsolete),
    /// mean_pages / (λ(1 − P_loss)) by Little's law.
    pub response_time: f64,
    /// Mean time an admitted page spends in the buffer.
    pub waiting_time: f64,
    /// Mean number of active robots (Theorem 1).
    pub mean_robots: f64,
    /// P(r robots active), index r − 1.
    pub robots_distribution: Vec<f64>,
    /// P(i pages in the system), i = 0..=N+1.
    pub level_distribution: Vec<f64>,
    /// max_j |(πQ)_j| / max|q_ii| of the stationary vector used.
    pub residual: f64,
}

/// One weight per term of the cost criterion (paper 002, eq. 2; the exact
/// arrangement of the weights was lost, so each measure gets its own).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostWeights {
    /// Weight of the loss rate λ·P_loss.
    pub loss: f64,
    /// Weight of the obsolescence rate λ·P_obs.
    pub obsolescence: f64,
    /// Weight of the response time V.
    pub response: f64,
    /// Weight of the mean number of active robots.
    pub robots: f64,
    /// Weight of the starvation probability.
    pub starvation: f64,
}

impl CostWeights {
    /// Weights must be finite and ≥ 0.
    pub fn check(&self) -> Result<()> {
        validate::non_negative("weight of loss", self.loss)?;
        validate::non_negative("weight of obsolescence", self.obsolescence)?;
        validate::non_negative("weight of response time", self.response)?;
        validate::non_negative("weight of active robots", self.robots)?;
        validate::non_negative("weight of starvation", self.starvation)?;
        Ok(())
    }
}

impl Measures {
    /// The cost criterion of eq. 2:
    /// c_loss·λP_loss + c_obs·λP_obs + c_V·V + c_R·R̄ + c_starv·P_starv.
    pub fn cost(&self, w: &CostWeights) -> f64 {
        let lam = self.fundamental_rate;
        w.loss * lam * self.loss_probability
            + w.obsolescence * lam * self.obsolescence_probability
            + w.response * self.response_time
            + w.robots * self.mean_robots
            + w.starvation * self.starvation_probability
    }
}

/// Measures from a stationary vector `pi` of the chain of `model` under `policy`.
pub fn measures_from(
    model: &ThresholdModel,
    policy: &Policy,
    pi: &[f64],
    res: f64,
) -> Result<Measures> {
    model.check_stationary(pi)?;
    finish(flows(model, policy, pi), res)
}

/// The stationary rates and distributions the measures are ratios of.
struct Flows {
    offered: f64,
    lost: f64,
    /// Admitted pages summed directly: offered − lost cancels when nearly
    /// every page is lost.
    admitted: f64,
    served: f64,
    obsolete: f64,
    /// P(i pages in the system).
    levels: Vec<f64>,
    /// P(r robots active), index r − 1.
    robots: Vec<f64>,
}

/// Main loop: the flows of `pi` (one entry per state of the chain).
fn flows(model: &ThresholdModel, policy: &Policy, pi: &[f64]) -> Flows {
    let sp = model.space();
    let top = sp.max_level();
    let s0 = model.service().exit_rates();
    let g0 = model.obsolescence_exit_rates();
    let mut f = Flows {
        offered: 0.0,
        lost: 0.0,
        admitted: 0.0,
        served: 0.0,
        obsolete: 0.0,
        levels: vec![0.0; top + 1],
        robots: vec![0.0; model.max_robots()],
    };
    for (idx, &p) in pi.iter().enumerate() {
        if p == 0.0 {
            continue;
        }
        // With R = 1 every waiting page is in phase 0, so the state need
        // not be decoded (O(level) per state: O(n·L) over the chain).
        let (i, arrival, service) = sp.head(idx);
        let r = policy.robots_at(i);
        f.levels[i] += p;
        f.robots[r - 1] += p;
        let arr = model.arrivals(r);
        for j in 1..=arr.max_batch() {
            let rate: f64 = arr.d(j).row(arrival).sum();
            f.offered += p * rate * j as f64;
            f.lost += p * rate * j.saturating_sub(top - i) as f64;
            f.admitted += p * rate * j.min(top - i) as f64;
        }
        if i >= 1 {
            f.served += p * s0[service];
            f.obsolete += p * if g0.len() == 1 {
                (i - 1) as f64 * g0[0]
            } else {
                sp.state(idx)
                    .obsolescence
                    .iter()
                    .map(|&k| g0[k])
                    .sum::<f64>()
            };
        }
    }
    if g0.iter().all(|&g| g == 0.0) {
        // Without obsolescence every admitted page is served. The exit flow
        // Σ π s₀ multiplies π's absolute rounding by the service rates:
        // with rates 1.7e−9 and 2.2e5 it was 8e−4 off (found by
        // tests/robustness.rs), while the arrival rates are moderate.
        f.served = f.admitted;
    }
    f
}

/// Finish: the measures as ratios of the flows; `Numerical` when one is
/// not finite.
fn finish(f: Flows, res: f64) -> Result<Measures> {
    let mean_pages: f64 = f.levels.iter().enumerate().map(|(i, p)| i as f64 * p).sum();
    let mean_queue: f64 = f
        .levels
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, p)| (i - 1) as f64 * p)
        .sum();
    let m = Measures {
        fundamental_rate: f.offered,
        loss_probability: f.lost / f.offered,
        obsolescence_probability: f.obsolete / f.offered,
        success_probability: f.served / f.offered,
        starvation_probability: f.levels[0],
        throughput: f.served,
        mean_pages,
        mean_queue,
        response_time: mean_pages / f.admitted,
        waiting_time: mean_queue / f.admitted,
        mean_robots: f
            .robots
            .iter()
            .enumerate()
            .map(|(r, p)| (r + 1) as f64 * p)
            .sum(),
        robots_distribution: f.robots,
        level_distribution: f.levels,
        residual: res,
    };
    if ![
        m.loss_probability,
        m.obsolescence_probability,
        m.response_time,
        m.waiting_time,
    ]
    .iter()
    .all(|x| x.is_finite())
    {
        return Err(Error::Numerical(
            "a measure is not finite (no pages admitted?)".into(),
        ));
    }
    Ok(m)
}

/// Builds the generator, solves it exactly by banded level reduction
/// ([`stationary`]) and computes the measures.
pub fn evaluate(model: &ThresholdModel, policy: &Policy) -> Result<Measures> {
    evaluate_with(model, policy, &Control::default())
}

/// [`evaluate`] under a control: its memory cap (else the process default)
/// is checked against [`super::solve::evaluation_bytes`] before building,
/// and a cancelled control gives `Cancelled`, checked before starting and
/// during the stationary solve.
pub fn evaluate_with(
    model: &ThresholdModel,
    policy: &Policy,
    control: &Control,
) -> Result<Measures> {
    control.check("threshold evaluation", 0)?;
    control.check_memory(
        model.evaluation_bytes(),
        &format!("a threshold chain of {} states", model.space().len()),
    )?;
    let q = generator(model, policy)?;
    let (pi, _) = super::solve::stationary_with(model.space(), &q, control)?;
    let res = residual(&q, &pi);
    measures_from(model, policy, &pi, res)
}
