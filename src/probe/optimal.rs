//! Optimal probe schedules on the candidate grid (problem (9), §3).
//!
//! - [`Method::Reference`]: the paper's dynamic program (Algorithm 1 with
//!   Algorithm 2's back-tracking), O(nN²), kept as the reference.
//! - [`Method::DivideConquer`]: the same recursion layer by layer, using the
//!   Monge (quadrangle) inequality of C̄: for i < i', j < j',
//!   C̄(t_i, t_j) + C̄(t_i', t_j') − C̄(t_i, t_j') − C̄(t_i', t_j)
//!   = −(A_j' − A_j)(P_i' − P_i) ≤ 0, so the best predecessor of t_j is
//!   non-decreasing in j: O(nN log N), valid for any Monge interval cost.
//! - [`Method::Hull`]: C̄(t_i, t_j) + F(i) = (F(i) + Q_i) − A_j P_i + (A_j P_j − Q_j)
//!   is a line in A_j with slope −P_i, so each layer is a monotone lower
//!   envelope (convex hull trick): O(nN).
//! - [`Method::Lagrangian`]: g(n), the optimum with exactly n probes, is
//!   convex in n for a Monge cost (the k-link shortest-path property;
//!   property-tested in `tests.rs`), so min over schedules of cost + λ·(number
//!   of probes) solved in O(N) by the hull recovers g(n) for the right λ
//!   ("Aliens trick"). λ is found by the chord (Newton) method on the convex
//!   g; when a tie hides the exact n the exact O(nN) hull is used instead.
//!
//! The spacing constraint p_i − p_{i−1} ≥ δ (problem (8), also between p_0 = 0
//! and p_1) and allowed windows keep the Monge structure: each target's
//! feasible predecessors form a prefix of the candidates whose end moves
//! right with the target, and forbidden candidates drop out entirely.
//! The final probe p_n = T is always allowed (the model ends there).
//!
//! The paper's D(m, i) allows *at most* m probes; here a schedule has
//! *exactly* n probes at distinct candidates, as in problem (8). With δ = 0
//! the optima coincide (an extra probe never raises the cost, Lemma 3).

use super::cost::CostTable;
use crate::error::{Error, Num, Result};
use crate::limits::Control;
use crate::validate;

/// Largest n·(N + 1) back-pointer table the layered methods allocate.
pub const MAX_LAYER_CELLS: usize = 300_000_000;

/// Which algorithm solves problem (9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The paper's O(nN²) dynamic program (Algorithms 1 and 2).
    Reference,
    /// Monge divide and conquer per layer, O(nN log N).
    DivideConquer,
    /// Convex hull trick per layer, O(nN).
    Hull,
    /// Lagrangian relaxation over n with the O(N) hull per multiplier;
    /// falls back to [`Method::Hull`] on ties.
    Lagrangian,
}

/// An optimal schedule: probes at `times` (= t at `indices`), last at T.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    /// Grid indices j of the probes, strictly increasing, last = N.
    pub indices: Vec<usize>,
    /// Probe times p_1..p_n.
    pub times: Vec<f64>,
    /// Expected cost (6), summed interval by interval.
    pub cost: f64,
}

/// Problem (9) with its constraints, ready to solve for any budget n.
#[derive(Debug, Clone)]
pub struct Problem {
    table: CostTable,
    delta: f64,
    /// allowed[j]: a probe may be placed at t_j (allowed[0] means "is p_0").
    allowed: Vec<bool>,
    /// lo[i]: first j > i with t_j − t_i ≥ δ (N + 1 if none).
    lo: Vec<usize>,
    /// Memory cap, pass cap and cancel flag for the solves.
    control: Control,
}

/// What a control's messages call a probe solve.
const WHAT: &str = "probe schedule";
/// Grid targets between two cancel checks inside one O(N) hull pass.
const CHECK_EVERY: usize = 1 << 16;

const INF: f64 = f64::INFINITY;

impl Problem {
    /// The grid `table`, minimum spacing `delta` ≥ 0 (time units), and
    /// optional allowed windows `[start, end]` (probes outside every window
    /// are forbidden, except the final probe at T).
    pub fn new(table: CostTable, delta: f64, windows: Option<&[(f64, f64)]>) -> Result<Self> {
        validate::non_negative("delta", delta)?;
        let n = table.len();
        let t = table.times();
        let mut allowed = vec![true; n + 1];
        if let Some(w) = windows {
            for (k, &(s, e)) in w.iter().enumerate() {
                if !(s.is_finite() && e.is_finite() && s <= e) {
                    return Err(Error::invalid(format!(
                        "starts[{k}] = {} and ends[{k}] = {} must be finite with start <= end",
                        Num(s),
                        Num(e)
                    )));
                }
            }
            let mut sorted = w.to_vec();
            sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
            // Sweep grid and windows together: O(N + W log W).
            // Grid times carry rounding: a window edge on a grid point counts.
            let tol = 1e-9 * t[n] / n as f64;
            let mut k = 0;
            let mut reach = f64::NEG_INFINITY; // max end of windows started so far
            for (j, slot) in allowed.iter_mut().enumerate().skip(1) {
                while k < sorted.len() && sorted[k].0 <= t[j] + tol {
                    reach = reach.max(sorted[k].1);
                    k += 1;
                }
                *slot = j == n || t[j] <= reach + tol;
            }
        }
        // Spacing with a relative tolerance, so that δ = 1 hour on an hourly
        // grid computed in floating point is met exactly.
        let eps = delta * 1e-9;
        let mut lo = vec![n + 1; n + 1];
        let mut j = 1;
        for (i, slot) in lo.iter_mut().enumerate().take(n) {
            j = j.max(i + 1);
            while j <= n && t[j] - t[i] < delta - eps {
                j += 1;
            }
            *slot = j;
        }
        Ok(Problem {
            table,
            delta,
            allowed,
            lo,
            control: Control::default(),
        })
    }

    /// Attaches a control to every later solve: its memory cap replaces
    /// the process-wide one for the DP tables, its iteration cap bounds the
    /// passes over the grid (one DP layer, or one multiplier of the
    /// Lagrangian search; `NotConverged` when reached), and cancelling it
    /// stops a solve within one row (reference DP) or 2^16 grid targets
    /// (`Cancelled`). An interrupted solve returns no schedule.
    pub fn set_control(&mut self, control: Control) {
        self.control = control;
    }

    /// The attached control (the default one if none was set).
    pub fn control(&self) -> &Control {
        &self.control
    }

    /// Counts one pass over the grid against the control.
    fn pass(&self, work: &mut u64) -> Result<()> {
        self.control.step(WHAT, *work)?;
        *work += 1;
        Ok(())
    }

    /// The candidate grid.
    pub fn table(&self) -> &CostTable {
        &self.table
    }

    /// δ.
    pub fn delta(&self) -> f64 {
        self.delta
    }

    /// Whether a probe may be placed at t_j (j ≥ 1).
    pub fn allowed(&self, j: usize) -> bool {
        self.allowed.get(j).copied().unwrap_or(false)
    }

    fn check_budget(&self, n: usize) -> Result<()> {
        if n == 0 {
            return Err(Error::invalid(
                "the budget n must be >= 1 (the last probe is at T)",
            ));
        }
        if n > self.table.len() {
            return Err(Error::invalid(format!(
                "budget n = {n} exceeds the N = {} candidate times",
                self.table.len()
            )));
        }
        Ok(())
    }

    fn infeasible(&self, n: usize) -> Error {
        Error::Infeasible(format!(
            "no schedule of {n} probes on this grid meets spacing delta = {} and the allowed windows",
            Num(self.delta)
        ))
    }

    /// Builds the schedule from grid indices.
    fn schedule(&self, indices: Vec<usize>) -> Schedule {
        let times = indices.iter().map(|&j| self.table.times()[j]).collect();
        let cost = self.table.schedule_cost(&indices);
        Schedule {
            indices,
            times,
            cost,
        }
    }

    /// An optimal schedule of exactly `n` probes with `method`.
    pub fn solve(&self, n: usize, method: Method) -> Result<Schedule> {
        self.check_budget(n)?;
        let mut work = 0;
        match method {
            Method::Reference => self.reference(n, &mut work),
            Method::DivideConquer => self.layered_counted(n, false, &mut work).map(|(s, _)| s),
            Method::Hull => self.layered_counted(n, true, &mut work).map(|(s, _)| s),
            Method::Lagrangian => match self.lagrangian(n, &mut work)? {
                Some(s) => Ok(s),
                None => self.layered_counted(n, true, &mut work).map(|(s, _)| s),
            },
        }
    }

    /// An optimal schedule by the fastest exact method.
    pub fn optimal(&self, n: usize) -> Result<Schedule> {
        self.solve(n, Method::Lagrangian)
    }

    fn check_cells(&self, n: usize) -> Result<()> {
        let cells = n.checked_mul(self.table.len() + 1);
        // 4-byte back-pointers plus three layers of N + 1 doubles.
        self.control.check_memory(
            cells.and_then(|c| {
                crate::limits::bytes(c, 4)?
                    .checked_add(crate::limits::bytes(self.table.len() + 1, 24)?)
            }),
            &format!("a {n}-probe schedule over {} candidates", self.table.len()),
        )?;
        match cells {
            Some(c) if c <= MAX_LAYER_CELLS => Ok(()),
            _ => Err(Error::TooLarge(format!(
                "n = {n} layers over N = {} candidates need more than {MAX_LAYER_CELLS} back-pointers",
                self.table.len()
            ))),
        }
    }

    /// The paper's Algorithm 1 (backward recursion (10)–(11), exactly m
    /// further probes) and Algorithm 2; O(nN²).
    fn reference(&self, n: usize, work: &mut u64) -> Result<Schedule> {
        self.check_cells(n)?;
        let big_n = self.table.len();
        let row_ok = |i: usize| i == 0 || self.allowed[i];
        // d[i] = D(m − 1, i); D(0, N) = 0 and D(0, i < N) = ∞.
        let mut d = vec![INF; big_n + 1];
        d[big_n] = 0.0;
        let mut next = vec![0u32; n * (big_n + 1)];
        for m in 1..=n {
            self.pass(work)?;
            let mut e = vec![INF; big_n + 1];
            let rows: Box<dyn Iterator<Item = usize>> = if m == n {
                Box::new(std::iter::once(0))
            } else {
                Box::new(0..big_n)
            };
            for i in rows {
                // A row is O(N): check the flag once per row.
                self.control.check(WHAT, *work)?;
                if !row_ok(i) {
                    continue;
                }
                let mut best = INF;
                let mut arg = 0;
                for j in self.lo[i]..=big_n {
                    if !self.allowed[j] || d[j] == INF {
                        continue;
                    }
                    let v = self.table.cost(i, j) + d[j];
                    if v < best {
                        best = v;
                        arg = j;
                    }
                }
                e[i] = best;
                next[(m - 1) * (big_n + 1) + i] = arg as u32;
            }
            d = e;
        }
        if d[0] == INF {
            return Err(self.infeasible(n));
        }
        let mut idx = Vec::with_capacity(n);
        let mut k = 0;
        for l in 1..=n {
            k = next[(n - l) * (big_n + 1) + k] as usize;
            idx.push(k);
        }
        Ok(self.schedule(idx))
    }

    /// Forward layers F_m(j) = min_i F_{m−1}(i) + C̄(t_i, t_j), m = 1..n.
    /// Returns the optimal n-probe schedule and g(m) = F_m(N) for m = 1..n
    /// (∞ where infeasible).
    #[cfg(test)]
    pub(crate) fn layered(&self, n: usize, hull: bool) -> Result<(Schedule, Vec<f64>)> {
        self.layered_counted(n, hull, &mut 0)
    }

    /// [`Problem::layered`], counting its layers in `work`.
    fn layered_counted(
        &self,
        n: usize,
        hull: bool,
        work: &mut u64,
    ) -> Result<(Schedule, Vec<f64>)> {
        self.check_budget(n)?;
        self.check_cells(n)?;
        let big_n = self.table.len();
        let mut prev = vec![INF; big_n + 1];
        prev[0] = 0.0;
        let mut cur = vec![INF; big_n + 1];
        let mut parent = vec![u32::MAX; n * (big_n + 1)];
        let mut g = Vec::with_capacity(n);
        for m in 0..n {
            self.pass(work)?;
            let par = &mut parent[m * (big_n + 1)..(m + 1) * (big_n + 1)];
            if hull {
                self.hull_layer(&prev, &mut cur, par, None, *work)?;
            } else {
                self.dc_layer(&prev, &mut cur, par, *work)?;
            }
            g.push(cur[big_n]);
            std::mem::swap(&mut prev, &mut cur);
        }
        if prev[big_n] == INF {
            return Err(self.infeasible(n));
        }
        let mut idx = vec![0usize; n];
        let mut j = big_n;
        for m in (0..n).rev() {
            idx[m] = j;
            j = parent[m * (big_n + 1) + j] as usize;
        }
        Ok((self.schedule(idx), g))
    }

    /// One layer by the convex hull trick. With `penalty = Some(λ)` the
    /// layer feeds on itself (cur = prev): the Lagrangian relaxation
    /// G(j) = λ + min_i G(i) + C̄(t_i, t_j), G(0) = 0.
    /// `Cancelled` (within 2^16 targets) if the control is cancelled; `work`
    /// is the pass count for the message.
    fn hull_layer(
        &self,
        prev: &[f64],
        cur: &mut [f64],
        parent: &mut [u32],
        penalty: Option<f64>,
        work: u64,
    ) -> Result<()> {
        let big_n = self.table.len();
        let tb = &self.table;
        // Lines (slope −P_i, intercept F(i) + Q_i, i), slopes non-increasing.
        let mut hull: Vec<(f64, f64, u32)> = Vec::new();
        let mut head = 0;
        let mut src = 0;
        cur[0] = if penalty.is_some() { 0.0 } else { INF };
        for j in 1..=big_n {
            if j % CHECK_EVERY == 0 {
                self.control.check(WHAT, work)?;
            }
            while src < big_n && self.lo[src] <= j {
                let f = if penalty.is_some() {
                    cur[src]
                } else {
                    prev[src]
                };
                if (src == 0 || self.allowed[src]) && f < INF {
                    let (s3, b3) = (-tb.p(src), f + tb.q(src));
                    let mut push = true;
                    while hull.len() > head {
                        let (s2, b2, _) = hull[hull.len() - 1];
                        if s2 == s3 {
                            // Equal slopes (no updates in between): keep the lower.
                            if b3 <= b2 {
                                hull.pop();
                                continue;
                            }
                            push = false;
                            break;
                        }
                        if hull.len() - head < 2 {
                            break;
                        }
                        let (s1, b1, _) = hull[hull.len() - 2];
                        // Line 2 never wins if line 3 overtakes line 1 no later.
                        if (b3 - b1) * (s1 - s2) <= (b2 - b1) * (s1 - s3) {
                            hull.pop();
                        } else {
                            break;
                        }
                    }
                    if push {
                        hull.push((s3, b3, src as u32));
                    }
                }
                src += 1;
            }
            if !self.allowed[j] || hull.len() == head {
                cur[j] = INF;
                continue;
            }
            let x = tb.a(j);
            while hull.len() - head >= 2 {
                let (s0, b0, _) = hull[head];
                let (s1, b1, _) = hull[head + 1];
                if s1 * x + b1 <= s0 * x + b0 {
                    head += 1;
                } else {
                    break;
                }
            }
            let (s, b, i) = hull[head];
            cur[j] = s * x + b + (x * tb.p(j) - tb.q(j)) + penalty.unwrap_or(0.0);
            parent[j] = i;
        }
        Ok(())
    }

    /// One layer by Monge divide and conquer over the targets.
    fn dc_layer(&self, prev: &[f64], cur: &mut [f64], parent: &mut [u32], work: u64) -> Result<()> {
        let big_n = self.table.len();
        let sources: Vec<usize> = (0..big_n)
            .filter(|&i| (i == 0 || self.allowed[i]) && prev[i] < INF)
            .collect();
        // Targets with their count of feasible sources (a prefix of `sources`).
        let mut targets = Vec::new();
        let mut ends = Vec::new();
        let mut e = 0;
        for (j, c) in cur.iter_mut().enumerate().skip(1) {
            while e < sources.len() && self.lo[sources[e]] <= j {
                e += 1;
            }
            *c = INF;
            if self.allowed[j] && e > 0 {
                targets.push(j);
                ends.push(e);
            }
        }
        cur[0] = INF;
        if targets.is_empty() {
            return Ok(());
        }
        // Explicit stack instead of recursion: (target range, source range).
        let mut stack = vec![(0usize, targets.len(), 0usize, sources.len())];
        while let Some((tl, tr, sl, sr)) = stack.pop() {
            if tl >= tr {
                continue;
            }
            // Each step scans at least one source: the load is negligible.
            self.control.check(WHAT, work)?;
            let mid = (tl + tr) / 2;
            let j = targets[mid];
            let hi = sr.min(ends[mid]);
            let mut best = INF;
            let mut arg = sl;
            for (k, &i) in sources.iter().enumerate().take(hi).skip(sl) {
                let v = prev[i] + self.table.cost(i, j);
                if v < best {
                    best = v;
                    arg = k;
                }
            }
            cur[j] = best;
            parent[j] = sources[arg] as u32;
            stack.push((tl, mid, sl, arg + 1));
            stack.push((mid + 1, tr, arg, sr));
        }
        Ok(())
    }

    /// Penalized problem: min over schedules of cost + λ·(probes).
    /// Returns (probe count, schedule indices, cost without penalty), or
    /// None when infeasible; one pass counted in `work`.
    #[allow(clippy::type_complexity)]
    fn penalized(&self, lambda: f64, work: &mut u64) -> Result<Option<(usize, Vec<usize>, f64)>> {
        self.pass(work)?;
        let big_n = self.table.len();
        let mut g = vec![INF; big_n + 1];
        let mut parent = vec![u32::MAX; big_n + 1];
        self.hull_layer(&[], &mut g, &mut parent, Some(lambda), *work)?;
        if g[big_n] == INF {
            return Ok(None);
        }
        let mut idx = Vec::new();
        let mut j = big_n;
        while j != 0 {
            idx.push(j);
            j = parent[j] as usize;
        }
        idx.reverse();
        let c = self.table.schedule_cost(&idx);
        Ok(Some((idx.len(), idx, c)))
    }

    /// A multiplier above which one probe (at T) is the penalized optimum.
    fn big_lambda(&self) -> f64 {
        2.0 * self.table.cost(0, self.table.len()) + 1.0
    }

    /// Aliens trick for exactly n probes; None when a tie hides n (the
    /// caller then uses the exact layered method).
    fn lagrangian(&self, n: usize, work: &mut u64) -> Result<Option<Schedule>> {
        let Some((k_hi, idx_hi, c_hi)) = self.penalized(0.0, work)? else {
            return Err(self.infeasible(n));
        };
        if k_hi == n {
            return Ok(Some(self.schedule(idx_hi)));
        }
        if k_hi < n {
            return Ok(None);
        }
        let Some((k_lo, idx_lo, c_lo)) = self.penalized(self.big_lambda(), work)? else {
            return Err(self.infeasible(n));
        };
        if k_lo == n {
            return Ok(Some(self.schedule(idx_lo)));
        }
        if k_lo > n {
            return Err(self.infeasible(n));
        }
        let (mut a, mut b) = ((k_lo, c_lo), (k_hi, c_hi));
        for _ in 0..200 {
            let lambda = (a.1 - b.1) / (b.0 - a.0) as f64;
            let Some((k, idx, c)) = self.penalized(lambda, work)? else {
                return Ok(None);
            };
            if k == n {
                return Ok(Some(self.schedule(idx)));
            }
            if k <= a.0 || k >= b.0 {
                return Ok(None); // n lies on a flat piece of the hull: tie
            }
            if k < n {
                a = (k, c);
            } else {
                b = (k, c);
            }
        }
        Ok(None)
    }

    /// g(m), the optimal cost with exactly m probes, for m = 1..=max_n, all
    /// at once. With δ = 0 by parametric search over λ: each multiplier
    /// yields a vertex of the convex g, and a chord touching g at its ends
    /// only proves every budget in between lies on it (convexity), so the
    /// work is O(N) per vertex. With δ > 0 (g need not be monotone above the
    /// largest penalized count) the exact layered hull is used.
    pub fn all_costs(&self, max_n: usize) -> Result<Vec<f64>> {
        self.check_budget(max_n)?;
        if self.allowed[1..].iter().filter(|&&a| a).count() < max_n {
            return Err(self.infeasible(max_n));
        }
        let mut work = 0;
        let work = &mut work;
        let Some((k_top, _, c_top)) = self.penalized(0.0, work)? else {
            return Err(self.infeasible(1));
        };
        if self.delta > 0.0 && k_top < max_n {
            let (_, g) = self.layered_counted(max_n, true, work)?;
            if g[max_n - 1] == INF {
                return Err(self.infeasible(max_n));
            }
            return Ok(g);
        }
        let Some((k1, _, c1)) = self.penalized(self.big_lambda(), work)? else {
            return Err(self.infeasible(1));
        };
        if k1 != 1 {
            // A tie at the top multiplier: not expected; stay exact.
            return Ok(self.layered_counted(max_n, true, work)?.1);
        }
        let mut g = vec![f64::NAN; max_n.max(k_top)];
        g[0] = c1;
        g[k_top - 1] = c_top;
        let scale = c1.abs().max(1e-300);
        let mut stack = vec![((1usize, c1), (k_top, c_top))];
        while let Some((a, b)) = stack.pop() {
            if b.0 - a.0 < 2 || a.0 >= max_n {
                continue;
            }
            let lambda = (a.1 - b.1) / (b.0 - a.0) as f64;
            let found = self.penalized(lambda, work)?;
            let below = match &found {
                Some((k, _, c)) if *k > a.0 && *k < b.0 => {
                    let chord = a.1 + lambda * a.0 as f64;
                    let v = c + lambda * *k as f64;
                    if v < chord - 1e-13 * scale {
                        Some((*k, *c))
                    } else {
                        None
                    }
                }
                _ => None,
            };
            match below {
                Some((k, c)) => {
                    g[k - 1] = c;
                    stack.push((a, (k, c)));
                    stack.push(((k, c), b));
                }
                None => {
                    for m in a.0 + 1..b.0 {
                        g[m - 1] = a.1 + (b.1 - a.1) * (m - a.0) as f64 / (b.0 - a.0) as f64;
                    }
                }
            }
        }
        // Above the largest useful count extra probes cost nothing (δ = 0).
        for m in k_top..max_n {
            g[m] = c_top;
        }
        g.truncate(max_n);
        Ok(g)
    }
}
