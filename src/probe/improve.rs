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
    let v = check_schedule(profile, probes)?;
    // Levels μ₀ρ^j ≥ μ_*: j ≤ ln(μ_*/μ₀)/ln ρ (both logs ≤ 0, ln ρ < 0).
    let levels = ((params.mu_min / params.mu0).ln() / params.rho.ln()).floor() + 1.0;
    let scans = levels * (2.0 * (v.len() as f64 - 1.0)).max(1.0);
    if !(scans <= MAX_LEVEL_WORK) {
        return Err(Error::TooLarge(format!(
            "rho = {} gives {} levels of mu from mu0 = {} to mu_min = {}, {} move scans for {} probes \
             (limit {}): lower rho or raise mu_min",
            Num(params.rho),
            Num(levels),
            Num(params.mu0),
            Num(params.mu_min),
            Num(scans),
            v.len(),
            Num(MAX_LEVEL_WORK)
        )));
    }
    let tol = 1e-9 * delta;
    let mut p = Vec::with_capacity(v.len() + 1);
    p.push(0.0);
    p.extend_from_slice(&v);
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
    let start_cost = expected_cost(profile, &v)?;
    let n = p.len() - 1;
    let mut version = vec![0u64; n + 1];
    let mut moves = 0;
    let mut converged = true;
    let c = |s: f64, t: f64, u: f64| {
        profile.signed_interval_cost(s, t) + profile.signed_interval_cost(t, u)
    };
    // The move of p_k a fraction μ toward p_{k−1} + δ (left) or p_{k+1} − δ.
    let target = |p: &[f64], k: usize, right: bool, mu: f64| {
        let end = if right {
            p[k + 1] - delta
        } else {
            p[k - 1] + delta
        };
        // Clamp: rounding must not push a probe past its neighbour's bound.
        let t = (1.0 - mu) * p[k] + mu * end;
        t.clamp(p[k - 1] + delta, (p[k + 1] - delta).max(p[k - 1] + delta))
    };
    let gain = |p: &[f64], k: usize, right: bool, mu: f64| {
        let t = target(p, k, right, mu);
        c(p[k - 1], p[k], p[k + 1]) - c(p[k - 1], t, p[k + 1])
    };
    let mut mu = params.mu0;
    'outer: while mu >= params.mu_min {
        let mut heap = BinaryHeap::with_capacity(2 * n);
        for k in 1..n {
            for right in [false, true] {
                heap.push(Entry {
                    gain: gain(&p, k, right, mu),
                    k,
                    right,
                    version: version[k],
                });
            }
        }
        while let Some(e) = heap.pop() {
            if e.version != version[e.k] {
                continue;
            }
            if !(e.gain >= params.iota) {
                break;
            }
            if moves >= params.max_moves {
                converged = false;
                break 'outer;
            }
            p[e.k] = target(&p, e.k, e.right, mu);
            moves += 1;
            for k in e.k.saturating_sub(1).max(1)..=(e.k + 1).min(n - 1) {
                version[k] += 1;
                for right in [false, true] {
                    heap.push(Entry {
                        gain: gain(&p, k, right, mu),
                        k,
                        right,
                        version: version[k],
                    });
                }
            }
        }
        mu *= params.rho;
    }
    let times = p[1..].to_vec();
    let cost = expected_cost(profile, &times)?;
    Ok(Improved {
        times,
        start_cost,
        cost,
        moves,
        converged,
    })
}
