//! Servers, objectives and the immediate costs f_m(k) = c(x, a) with
//! x_a = k (§2): weighted losses (Example 2.1, §5), the robot-scheduling
//! cost of §6 (Remark 6.1), or any user cost satisfying §3's conditions.

use super::arrivals::{ArrivalProcess, MAX_TRANSFORM_WORK};
use crate::error::{Error, Num, Result};
use crate::limits::Control;
use crate::validate;
use std::fmt;
use std::sync::Arc;

/// Largest period (and table length) accepted anywhere in this module:
/// beyond it a table of M × n costs or a router would be unreasonable.
pub const MAX_PERIOD: usize = 1 << 20;

/// A user cost f(server, k) for k ≥ 1 arrivals since the last assignment.
pub type CostFn = Arc<dyn Fn(usize, usize) -> f64 + Send + Sync>;

/// What a routing decision costs.
#[derive(Clone)]
pub enum Objective {
    /// c_m f_m(k): expected weighted number of packets lost (preempted)
    /// when routing to server m after k arrivals (Example 2.1, §5).
    Losses,
    /// Remark 6.1: server m is page m with change rate μ_m and weight c_m;
    /// c(x, a) = c_a x_a E τ + (c_a/μ_a)(E exp(−μ_a Σ τ) − 1), the expected
    /// weighted time page a was out of date since its last visit.
    RobotScheduling,
    /// f_m(k) from a function; `slopes[m]` = lim f_m(k)/k (None when f_m
    /// grows faster than linearly, Condition (2)). The slope is the cost per
    /// packet of never using server m (terminal cost (1) divided by T).
    Custom {
        /// f(m, k).
        f: CostFn,
        /// Asymptotic slopes a_m of Conditions (3)–(4), or None.
        slopes: Vec<Option<f64>>,
    },
}

impl fmt::Debug for Objective {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Objective::Losses => write!(out, "Losses"),
            Objective::RobotScheduling => write!(out, "RobotScheduling"),
            Objective::Custom { slopes, .. } => write!(out, "Custom {{ slopes: {slopes:?} }}"),
        }
    }
}

/// M parallel servers with exponential service rates μ_m and cost weights
/// c_m, fed by one stationary arrival process, with an objective.
#[derive(Debug, Clone)]
pub struct RoutingSystem {
    arrivals: ArrivalProcess,
    rates: Vec<f64>,
    weights: Vec<f64>,
    objective: Objective,
}

/// The costs f_m(k), k = 1..=kmax, of every server, computed once (the
/// powers of f*(μ_m) of Lemma 5.2), plus the per-packet cost of leaving a
/// server unused (`None`: unbounded).
#[derive(Debug, Clone)]
pub struct CostTable {
    /// f[m][k − 1] = f_m(k).
    pub(crate) f: Vec<Vec<f64>>,
    /// lim f_m(k)/k, the cost per packet of never routing to m.
    pub(crate) slopes: Vec<Option<f64>>,
}

impl CostTable {
    /// Number of servers M.
    pub fn servers(&self) -> usize {
        self.f.len()
    }
    /// Largest k tabulated.
    pub fn kmax(&self) -> usize {
        self.f.first().map_or(0, Vec::len)
    }
    /// f_m(k) for 1 ≤ k ≤ kmax.
    pub fn value(&self, m: usize, k: usize) -> f64 {
        self.f[m][k - 1]
    }
    /// Cost per packet of never routing to m (None: unbounded).
    pub fn slope(&self, m: usize) -> Option<f64> {
        self.slopes[m]
    }
}

impl RoutingSystem {
    /// Servers with service rates `rates` (> 0) and weights `weights`
    /// (> 0; None = all 1). For `Objective::Custom`, `slopes` must have one
    /// entry per server.
    pub fn new(
        arrivals: ArrivalProcess,
        rates: &[f64],
        weights: Option<&[f64]>,
        objective: Objective,
    ) -> Result<Self> {
        validate::non_empty("server rates", rates)?;
        validate::all_positive("server rates", rates)?;
        if rates.len() > u32::MAX as usize {
            return Err(Error::TooLarge(format!("{} servers", rates.len())));
        }
        let weights = match weights {
            Some(w) => {
                validate::same_len("server rates", rates.len(), "weights", w.len())?;
                validate::all_positive("weights", w)?;
                w.to_vec()
            }
            None => vec![1.0; rates.len()],
        };
        if let Objective::Custom { slopes, .. } = &objective {
            validate::same_len("server rates", rates.len(), "slopes", slopes.len())?;
            for (m, s) in slopes.iter().enumerate() {
                if let Some(a) = s {
                    validate::finite(&format!("slopes[{m}]"), *a)?;
                }
            }
        }
        Ok(RoutingSystem {
            arrivals,
            rates: rates.to_vec(),
            weights,
            objective,
        })
    }

    /// Number of servers M.
    pub fn len(&self) -> usize {
        self.rates.len()
    }
    /// Always false (a system has at least one server).
    pub fn is_empty(&self) -> bool {
        self.rates.is_empty()
    }
    /// The arrival process.
    pub fn arrivals(&self) -> &ArrivalProcess {
        &self.arrivals
    }
    /// Service rates μ_m.
    pub fn rates(&self) -> &[f64] {
        &self.rates
    }
    /// Weights c_m.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }
    /// The objective.
    pub fn objective(&self) -> &Objective {
        &self.objective
    }

    /// The cost per packet of never routing to server m: lim f_m(k)/k
    /// (0 for losses, c_m E τ for robot scheduling: page m always stale).
    pub fn slope(&self, m: usize) -> Option<f64> {
        match &self.objective {
            Objective::Losses => Some(0.0),
            Objective::RobotScheduling => Some(self.weights[m] * self.arrivals.mean_interarrival()),
            Objective::Custom { slopes, .. } => slopes[m],
        }
    }

    /// Tabulates f_m(k) for k = 1..=kmax and every server. Bounded work:
    /// TooLarge, before any, when the M tables of kmax transforms exceed
    /// [`MAX_TRANSFORM_WORK`] multiply-adds; see [`RoutingSystem::table_with`].
    pub fn table(&self, kmax: usize) -> Result<CostTable> {
        self.check_table_work(kmax, self.len())?;
        self.table_with(kmax, &Control::default())
    }

    fn check_table_work(&self, kmax: usize, servers: usize) -> Result<()> {
        let work = self.arrivals.transform_work(kmax) * servers as f64;
        if work.is_nan() || work > MAX_TRANSFORM_WORK {
            return Err(Error::TooLarge(format!(
                "costs of {servers} servers up to k = {kmax} with an order-{} arrival process take {} \
                 multiply-adds (limit {})",
                self.arrivals.order(),
                Num(work),
                Num(MAX_TRANSFORM_WORK)
            )));
        }
        Ok(())
    }

    fn check_kmax(&self, kmax: usize) -> Result<()> {
        if kmax == 0 {
            return Err(Error::invalid("the cost table needs kmax >= 1"));
        }
        if kmax > MAX_PERIOD {
            return Err(Error::TooLarge(format!(
                "periods longer than {MAX_PERIOD} are refused, got {kmax}"
            )));
        }
        Ok(())
    }

    /// [`RoutingSystem::table`] under a control instead of the work bound:
    /// a cancel is seen within 2^20 multiply-adds of the transforms.
    pub fn table_with(&self, kmax: usize, control: &Control) -> Result<CostTable> {
        self.check_kmax(kmax)?;
        let cells = kmax.checked_mul(self.len()).filter(|&c| c <= 1 << 26);
        if cells.is_none() {
            return Err(Error::TooLarge(format!(
                "a table of {} servers x {kmax} costs",
                self.len()
            )));
        }
        let mut f = Vec::with_capacity(self.len());
        for m in 0..self.len() {
            f.push(self.row(m, kmax, control)?);
        }
        let slopes = (0..self.len()).map(|m| self.slope(m)).collect();
        Ok(CostTable { f, slopes })
    }

    /// f_m(1..=kmax) of server m.
    fn row(&self, m: usize, kmax: usize, control: &Control) -> Result<Vec<f64>> {
        let et = self.arrivals.mean_interarrival();
        let (mu, w) = (self.rates[m], self.weights[m]);
        let row: Vec<f64> = match &self.objective {
            Objective::Losses => self
                .arrivals
                .transforms_with(mu, kmax, control)?
                .0
                .into_iter()
                .map(|x| w * x)
                .collect(),
            Objective::RobotScheduling => {
                let (_, comp) = self.arrivals.transforms_with(mu, kmax, control)?;
                // c k Eτ − (c/μ)(1 − E e^{−μΣτ}), Remark 6.1.
                comp.iter()
                    .enumerate()
                    .map(|(i, c)| w * (i + 1) as f64 * et - w / mu * c)
                    .collect()
            }
            Objective::Custom { f: func, .. } => {
                let mut row = Vec::with_capacity(kmax);
                for k in 1..=kmax {
                    if k % (1 << 16) == 0 {
                        control.check("routing cost table", k as u64)?;
                    }
                    row.push(func(m, k));
                }
                row
            }
        };
        if let Some(k) = row.iter().position(|x| !x.is_finite()) {
            return Err(Error::Numerical(format!("f_{m}({}) is not finite", k + 1)));
        }
        Ok(row)
    }

    /// The immediate cost f_m(k) of routing to server m after k ≥ 1 arrivals.
    pub fn immediate_cost(&self, m: usize, k: usize) -> Result<f64> {
        if m >= self.len() {
            return Err(Error::NotFound(format!(
                "server {m} (there are {})",
                self.len()
            )));
        }
        if k == 0 {
            return Err(Error::invalid("k must be >= 1"));
        }
        // Only server m's row: the work bound counts one server.
        self.check_kmax(k)?;
        self.check_table_work(k, 1)?;
        Ok(self.row(m, k, &Control::default())?[k - 1])
    }
}
