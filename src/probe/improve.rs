//! The paper's schedule improver (§4, Algorithm 10): greedy left/right
//! μ-moves of single probes in continuous time, with μ halved (ρ) whenever
//! no move gains at least ι, until μ < μ_*. A max-heap of the 2(n − 1)
//! move gains, refreshed around each moved probe, gives O(log n) per move
//! as the paper suggests (stale entries are skipped by version numbers).

use super::cost::{check_schedule, expected_cost};
use super::profile::Profile;
use crate::error::{Error, Num, Result};
use crate::validate;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Most move-gain evaluations the μ-levels may need before any move: the
/// levels μ₀, ρμ₀, … ≥ μ_* times the 2(n − 1) moves each level scans. A ρ
/// near 1 gives ln(μ_*/μ₀)/ln ρ levels (about 5·10^16 for the double just
/// below 1), so the parameters are refused (TooLarge) up front beyond this.
pub const MAX_LEVEL_WORK: f64 = 1e7;

/// Parameters of Algorithm 10. The paper's experiments use μ₀ = 1/2,
/// μ_* = 1/512, ρ = 1/2 (§5.2), the [`Default`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImproverParams {
    /// Initial move fraction μ₀ ∈ (0, 1].
    pub mu0: f64,
    /// Stop once μ < μ_* (0 < μ_* ≤ μ₀).
    pub mu_min: f64,
    /// μ ← ρμ when no move gains ι (0 < ρ < 1).
    pub rho: f64,
    /// Smallest gain ι > 0 that counts as an improvement.
    pub iota: f64,
    /// Safety cap on the number of moves.
    pub max_moves: usize,
}

impl Default for ImproverParams {
    fn default() -> Self {
        ImproverParams {
            mu0: 0.5,
            mu_min: 1.0 / 512.0,
            rho: 0.5,
            iota: 1e-9,
            max_moves: 10_000_000,
        }
    }
}

/// Outcome of Algorithm 10.
#[derive(Debug, Clone, PartialEq)]
pub struct Improved {
    /// Improved probe times p_1..p_n (p_n = T unchanged).
    pub times: Vec<f64>,
    /// Expected cost of the start and of the result (result ≤ start).
    pub start_cost: f64,
    /// Expected cost of `times`.
    pub cost: f64,
    /// Number of μ-moves made (the paper's Figure 11 counts these).
    pub moves: usize,
    /// False if `max_moves` stopped it before μ < μ_*.
    pub converged: bool,
}

#[derive(PartialEq)]
struct Entry {
    gain: f64,
    k: usize,
    right: bool,
    version: u64,
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        self.gain
            .total_cmp(&o.gain)
            .then_with(|| o.k.cmp(&self.k))
            .then_with(|| self.right.cmp(&o.right))
    }
}

/// Runs Algorithm 10 from `probes` (p_1 ≤ … ≤ p_n = T with spacing ≥ δ,
/// also from p_0 = 0). The result is never worse than the start: every
/// move lowers the cost by at least ι.
pub fn improve(
    profile: &Profile,
    probes: &[f64],
    delta: f64,
    params: &ImproverParams,
) -> Result<Improved> {
    check_params(delta, params)?;
    let v = check_schedule(profile, probes)?;
    check_level_work(params, v.len())?;
    let p = spaced_start(&v, delta)?;
    let start_cost = expected_cost(profile, &v)?;
    let n = p.len() - 1;
    let mut mover = Mover {
        profile,
        delta,
        p,
        version: vec![0u64; n + 1],
        moves: 0,
    };
    let converged = mover.run(params);
    let times = mover.p[1..].to_vec();
    let cost = expected_cost(profile, &times)?;
    Ok(Improved {
        times,
        start_cost,
        cost,
        moves: mover.moves,
        converged,
    })
}

/// δ ≥ 0 and the ranges of μ₀, μ_*, ρ and ι.
fn check_params(delta: f64, params: &ImproverParams) -> Result<()> {
    validate::non_negative("delta", delta)?;
    if !(params.mu0 > 0.0 && params.mu0 <= 1.0) {
        return Err(Error::invalid(format!(
            "mu0 must be in (0, 1], got {}",
            Num(params.mu0)
        )));
    }
    if !(params.mu_min > 0.0 && params.mu_min <= params.mu0) {
        return Err(Error::invalid(format!(
            "mu_min must be in (0, mu0], got {}",
            Num(params.mu_min)
        )));
    }
    if !(params.rho > 0.0 && params.rho < 1.0) {
        return Err(Error::invalid(format!(
            "rho must be in (0, 1), got {}",
            Num(params.rho)
        )));
    }
    validate::positive("iota", params.iota)?;
    Ok(())
}

/// The move scans of all μ-levels for `probes` probes within [`MAX_LEVEL_WORK`].
fn check_level_work(params: &ImproverParams, probes: usize) -> Result<()> {
    // Levels μ₀ρ^j ≥ μ_*: j ≤ ln(μ_*/μ₀)/ln ρ (both logs ≤ 0, ln ρ < 0).
    let levels = ((params.mu_min / params.mu0).ln() / params.rho.ln()).floor() + 1.0;
    let scans = levels * (2.0 * (probes as f64 - 1.0)).max(1.0);
    if !(scans <= MAX_LEVEL_WORK) {
        return Err(Error::TooLarge(format!(
            "rho = {} gives {} levels of mu from mu0 = {} to mu_min = {}, {} move scans for {} probes \
             (limit {}): lower rho or raise mu_min",
            Num(params.rho),
            Num(levels),
            Num(params.mu0),
            Num(params.mu_min),
            Num(scans),
            probes,
            Num(MAX_LEVEL_WORK)
        )));
    }
    Ok(())
}

/// p_0 = 0 followed by the probes `v`, checked to be spaced by δ (up to
/// a relative 1e−9).
fn spaced_start(v: &[f64], delta: f64) -> Result<Vec<f64>> {
    let tol = 1e-9 * delta;
    let mut p = Vec::with_capacity(v.len() + 1);
    p.push(0.0);
    p.extend_from_slice(v);
    for k in 1..p.len() {
        if p[k] - p[k - 1] < delta - tol {
            // p[k] is the caller's probes[k - 1]; p[0] = 0 is not a probe.
            let gap = if k == 1 {
                "probes[0] - 0".to_string()
            } else {
                format!("probes[{}] - probes[{}]", k - 1, k - 2)
            };
            return Err(Error::invalid(format!(
                "the start violates the spacing: {gap} = {} < delta = {}",
                Num(p[k] - p[k - 1]),
                Num(delta)
            )));
        }
    }
    Ok(p)
}

/// The state of Algorithm 10: probes p_0 = 0, p_1, …, p_n (p_0 and p_n
/// fixed), a version per probe (heap entries of an older version are
/// stale), and the moves made.
struct Mover<'a> {
    profile: &'a Profile,
    delta: f64,
    p: Vec<f64>,
    version: Vec<u64>,
    moves: usize,
}

impl Mover<'_> {
    /// Runs the μ-levels; false if `max_moves` stopped it before μ < μ_*.
    fn run(&mut self, params: &ImproverParams) -> bool {
        let mut mu = params.mu0;
        while mu >= params.mu_min {
            if !self.level(mu, params) {
                return false;
            }
            mu *= params.rho;
        }
        true
    }

    /// Greedy moves at fraction μ, best gain first, while one gains at
    /// least ι; false if `max_moves` was reached.
    fn level(&mut self, mu: f64, params: &ImproverParams) -> bool {
        let n = self.p.len() - 1;
        let mut heap = BinaryHeap::with_capacity(2 * n);
        for k in 1..n {
            self.push(&mut heap, k, mu);
        }
        while let Some(e) = heap.pop() {
            if e.version != self.version[e.k] {
                continue;
            }
            if !(e.gain >= params.iota) {
                break;
            }
            if self.moves >= params.max_moves {
                return false;
            }
            self.p[e.k] = self.target(e.k, e.right, mu);
            self.moves += 1;
            for k in e.k.saturating_sub(1).max(1)..=(e.k + 1).min(n - 1) {
                self.version[k] += 1;
                self.push(&mut heap, k, mu);
            }
        }
        true
    }

    /// Heap entries for both moves of probe k.
    fn push(&self, heap: &mut BinaryHeap<Entry>, k: usize, mu: f64) {
        for right in [false, true] {
            heap.push(Entry {
                gain: self.gain(k, right, mu),
                k,
                right,
                version: self.version[k],
            });
        }
    }

    /// Where the move of p_k a fraction μ toward p_{k−1} + δ (left) or
    /// p_{k+1} − δ (right) puts it.
    fn target(&self, k: usize, right: bool, mu: f64) -> f64 {
        let (p, delta) = (&self.p, self.delta);
        let end = if right {
            p[k + 1] - delta
        } else {
            p[k - 1] + delta
        };
        // Clamp: rounding must not push a probe past its neighbour's bound.
        let t = (1.0 - mu) * p[k] + mu * end;
        t.clamp(p[k - 1] + delta, (p[k + 1] - delta).max(p[k - 1] + delta))
    }

    /// The cost decrease of that move.
    fn gain(&self, k: usize, right: bool, mu: f64) -> f64 {
        let p = &self.p;
        let t = self.target(k, right, mu);
        self.cost(p[k - 1], p[k], p[k + 1]) - self.cost(p[k - 1], t, p[k + 1])
    }

    fn cost(&self, s: f64, t: f64, u: f64) -> f64 {
        self.profile.signed_interval_cost(s, t) + self.profile.signed_interval_cost(t, u)
    }
}
