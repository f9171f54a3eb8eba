//! Optimal periodic policies (Theorem 3.1 (ii): one exists).
//!
//! - [`exhaustive`]: every sequence of each period length in a range, up
//!   to rotation (a rotation of a periodic policy has the same cost), by
//!   the FKM necklace algorithm: about Σ_n M^n/n sequences, each evaluated
//!   in O(n). Exact, for small M^n.
//! - [`local_search`]: from a start sequence, repeatedly take the best
//!   improving neighbour. The neighbourhood [`Neighbourhood::Pairs`] holds
//!   the points x + Σ α_i b_i of Theorem 4.2 that change at most two
//!   positions — every relabelling of one position (b_0, b_n and their
//!   rotations) and every exchange of two positions (a run of b_i's,
//!   e_i − e_{j+1}) — generalised to M servers by letting a position take
//!   any label; each is evaluated in O(1) from per-server previous/next
//!   occurrence tables. [`Neighbourhood::Multimodular`] is the full
//!   neighbourhood of Theorem 4.2 (2^{n+1} − 2 points) for M = 2; since
//!   g is multimodular there (Theorem 4.4), a local minimum for it is a
//!   global minimum over sequences of that period (Theorem 4.2). The paper
//!   does not define multimodularity for M > 2 (§4), so for M > 2 local
//!   search is a heuristic; tests compare it with [`exhaustive`].
//! - [`balanced_counts`] and [`balanced_sequence`]: a start point. Counts
//!   per server minimise Σ_m h_m(c_m), h_m(c) being the cost of c perfectly
//!   regular visits in n slots (greedy marginal allocation), and the
//!   billiard (balanced) sequence places visit k of server m at the ideal
//!   time (k + ½) n / c_m.

use super::cost::{Evaluation, evaluate_with, period_total};
use super::system::{CostTable, MAX_PERIOD, RoutingSystem};
use crate::error::{Error, Num, Result};
use crate::limits::{self, Control};

/// Sequences (exhaustive) or neighbours (local search) between two checks
/// of a control's cancel flag.
const CHECK_EVERY: u64 = 1 << 16;

/// Largest number of sequences [`exhaustive`] will evaluate.
pub const MAX_EXHAUSTIVE: f64 = 5e7;
/// Largest period for [`Neighbourhood::Multimodular`] (2^{n+1} points).
pub const MAX_MULTIMODULAR_PERIOD: usize = 20;

/// A periodic policy found by a search, with the effort it took.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// One period π = (π_1, …, π_n) of server indices.
    pub period: Vec<usize>,
    /// Its exact cost.
    pub evaluation: Evaluation,
    /// Number of sequences (exhaustive) or neighbours (local search) evaluated.
    pub evaluations: u64,
}

/// Which neighbours local search examines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Neighbourhood {
    /// Relabel one position or exchange two (O(n² + nM) per step).
    Pairs,
    /// Theorem 4.2's full neighbourhood, M = 2 only, n ≤ 20.
    Multimodular,
}

fn check_range(min_period: usize, max_period: usize) -> Result<()> {
    if min_period == 0 || min_period > max_period {
        return Err(Error::invalid(format!(
            "need 1 <= min_period <= max_period, got {min_period}..{max_period}"
        )));
    }
    if max_period > MAX_PERIOD {
        return Err(Error::TooLarge(format!(
            "period {max_period} exceeds the limit {MAX_PERIOD}"
        )));
    }
    Ok(())
}

fn finish(
    system: &RoutingSystem,
    table: &CostTable,
    best: Option<Vec<usize>>,
    evaluations: u64,
) -> Result<SearchResult> {
    let period = best.ok_or_else(|| {
        Error::Infeasible(
            "no period in the range visits every server whose cost grows superlinearly".into(),
        )
    })?;
    let evaluation = evaluate_with(system, table, &period)?;
    Ok(SearchResult {
        period,
        evaluation,
        evaluations,
    })
}

/// The cost table up to `kmax`, its memory checked against `control`
/// first; `bounded`: with [`RoutingSystem::table`]'s work bound, else
/// under the control's cancel flag.
fn table_with(
    system: &RoutingSystem,
    kmax: usize,
    control: &Control,
    bounded: bool,
) -> Result<CostTable> {
    control.check_memory(
        kmax.checked_mul(system.len())
            .and_then(|c| limits::bytes(c, 8)),
        &format!("a cost table of {} servers x {kmax} periods", system.len()),
    )?;
    if bounded {
        system.table(kmax)
    } else {
        system.table_with(kmax, control)
    }
}

/// The exact optimum over all periods of length min_period..=max_period.
/// Errors: `TooLarge` when about Σ M^n/n sequences exceed [`MAX_EXHAUSTIVE`].
pub fn exhaustive(
    system: &RoutingSystem,
    min_period: usize,
    max_period: usize,
) -> Result<SearchResult> {
    exhaustive_inner(system, min_period, max_period, &Control::default(), true)
}

/// [`exhaustive`] under a control: its memory cap applies to the cost
/// table, its iteration cap to the number of sequences evaluated
/// (`NotConverged` when reached: the best so far is not known to be
/// optimal, so none is returned), and a cancel is seen within 2^16
/// sequences (`Cancelled`).
pub fn exhaustive_with(
    system: &RoutingSystem,
    min_period: usize,
    max_period: usize,
    control: &Control,
) -> Result<SearchResult> {
    exhaustive_inner(system, min_period, max_period, control, false)
}

fn exhaustive_inner(
    system: &RoutingSystem,
    min_period: usize,
    max_period: usize,
    control: &Control,
    bounded: bool,
) -> Result<SearchResult> {
    check_range(min_period, max_period)?;
    let m = system.len();
    let work: f64 = (min_period..=max_period)
        .map(|n| (m as f64).powi(n as i32) / n as f64)
        .sum();
    if work > MAX_EXHAUSTIVE {
        return Err(Error::TooLarge(format!(
            "exhaustive search over {m} servers and periods up to {max_period} needs about {work:.3e} evaluations \
             (limit {MAX_EXHAUSTIVE:.0e}); use local search"
        )));
    }
    control.check("exhaustive routing search", 0)?;
    let table = table_with(system, max_period, control, bounded)?;
    let mut best: Option<(f64, Vec<usize>)> = None;
    let mut evaluations = 0u64;
    let mut stop = Ok(());
    let cap = control.max_iterations();
    for n in min_period..=max_period {
        necklaces_until(n, m, |seq| {
            // The cap counts every sequence; the flag is read every 2^16.
            if evaluations.is_multiple_of(CHECK_EVERY) || cap.is_some_and(|c| evaluations >= c) {
                stop = control.step("exhaustive routing search", evaluations);
                if stop.is_err() {
                    return false;
                }
            }
            evaluations += 1;
            if let Some(total) = period_total(&table, seq) {
                let g = total / n as f64;
                if best
                    .as_ref()
                    .is_none_or(|(b, _)| g < *b - 1e-14 * b.abs().max(1e-300))
                {
                    best = Some((g, seq.to_vec()));
                }
            }
            true
        });
        stop.clone()?;
    }
    finish(system, &table, best.map(|b| b.1), evaluations)
}

/// Calls `visit` with every necklace (lexicographically least rotation) of
/// length n over k symbols: the iterative Fredricksen–Kessler–Maiorana
/// algorithm (a prenecklace of period p is a necklace when p divides n).
pub fn necklaces(n: usize, k: usize, mut visit: impl FnMut(&[usize])) {
    necklaces_until(n, k, |a| {
        visit(a);
        true
    });
}

/// [`necklaces`] until `visit` returns false.
fn necklaces_until(n: usize, k: usize, mut visit: impl FnMut(&[usize]) -> bool) {
    if n == 0 || k == 0 {
        return;
    }
    let mut a = vec![0usize; n + 1]; // a[1..=n]
    if !visit(&a[1..]) {
        return;
    }
    loop {
        let mut i = n;
        while i > 0 && a[i] == k - 1 {
            i -= 1;
        }
        if i == 0 {
            return;
        }
        a[i] += 1;
        for j in i + 1..=n {
            a[j] = a[j - i];
        }
        if n.is_multiple_of(i) && !visit(&a[1..]) {
            return;
        }
    }
}

/// Cost of c perfectly regular visits in a period of n: (n mod c) gaps of
/// ⌊n/c⌋ + 1 and the rest of ⌊n/c⌋; c = 0 costs n·slope.
fn regular_cost(table: &CostTable, m: usize, n: usize, c: usize) -> f64 {
    if c == 0 {
        return table.slope(m).map_or(f64::INFINITY, |a| n as f64 * a);
    }
    let (q, r) = (n / c, n % c);
    let mut t = (c - r) as f64 * table.value(m, q);
    if r > 0 {
        t += r as f64 * table.value(m, q + 1);
    }
    t
}

/// Visits per server for a period of n (greedy marginal allocation of
/// Σ_m h_m(c_m), h_m the regular-spacing cost). `Infeasible` when n is
/// smaller than the number of servers that must be visited.
pub fn balanced_counts(table: &CostTable, n: usize) -> Result<Vec<usize>> {
    balanced_counts_with(table, n, &Control::default())
}

/// [`balanced_counts`] (O(nM)) under a control: a cancel is seen within
/// 2^16 servers' marginal costs.
fn balanced_counts_with(table: &CostTable, n: usize, control: &Control) -> Result<Vec<usize>> {
    if n == 0 || n > table.kmax() {
        return Err(Error::invalid(format!(
            "period {n} outside the table (1..={})",
            table.kmax()
        )));
    }
    let m = table.servers();
    let mut c: Vec<usize> = (0..m)
        .map(|s| usize::from(table.slope(s).is_none()))
        .collect();
    let mut used: usize = c.iter().sum();
    if used > n {
        return Err(Error::Infeasible(format!(
            "period {n} cannot visit the {used} servers whose cost grows superlinearly"
        )));
    }
    let mut since = 0usize;
    while used < n {
        since += m;
        if since >= CHECK_EVERY as usize {
            control.check("routing local search", 0)?;
            since = 0;
        }
        let mut best = (f64::INFINITY, usize::MAX);
        for (s, &cs) in c.iter().enumerate() {
            let d = regular_cost(table, s, n, cs + 1) - regular_cost(table, s, n, cs);
            let d = if d.is_nan() { f64::NEG_INFINITY } else { d };
            if d < best.0 || best.1 == usize::MAX {
                best = (d, s);
            }
        }
        c[best.1] += 1;
        used += 1;
    }
    Ok(c)
}

/// The billiard (balanced) sequence with `counts[m]` visits of server m:
/// visit k of m at ideal time (k + ½)·n/counts\[m], n = Σ counts, in order
/// of ideal time (ties by server index).
pub fn balanced_sequence(counts: &[usize]) -> Result<Vec<usize>> {
    let n = counts.iter().try_fold(0usize, |acc, &c| acc.checked_add(c));
    let n = n.ok_or_else(|| Error::TooLarge("the counts overflow".into()))?;
    if n == 0 {
        return Err(Error::invalid("the counts sum to 0"));
    }
    if n > MAX_PERIOD {
        return Err(Error::TooLarge(format!(
            "period {n} exceeds the limit {MAX_PERIOD}"
        )));
    }
    let mut events: Vec<(f64, usize)> = Vec::with_capacity(n);
    for (m, &c) in counts.iter().enumerate() {
        for k in 0..c {
            events.push(((k as f64 + 0.5) * n as f64 / c as f64, m));
        }
    }
    events.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    Ok(events.into_iter().map(|e| e.1).collect())
}

/// Local-search state: the sequence with, for every server present, its
/// previous and next occurrence strictly before/after each position.
struct State<'a> {
    table: &'a CostTable,
    seq: Vec<usize>,
    n: usize,
    count: Vec<usize>,
    prev: Vec<usize>,
    next: Vec<usize>,
}

impl<'a> State<'a> {
    fn new(table: &'a CostTable, seq: Vec<usize>) -> Self {
        let (n, m) = (seq.len(), table.servers());
        let mut s = State {
            table,
            seq,
            n,
            count: vec![0; m],
            prev: vec![0; m * n],
            next: vec![0; m * n],
        };
        s.rebuild();
        s
    }

    fn rebuild(&mut self) {
        let (n, m) = (self.n, self.table.servers());
        self.count.iter_mut().for_each(|c| *c = 0);
        let mut last = vec![usize::MAX; m];
        let mut first = vec![usize::MAX; m];
        for (i, &s) in self.seq.iter().enumerate() {
            self.count[s] += 1;
            if first[s] == usize::MAX {
                first[s] = i;
            }
            last[s] = i;
        }
        for s in 0..m {
            if self.count[s] == 0 {
                continue;
            }
            let row = s * n;
            let mut p = last[s];
            for i in 0..n {
                self.prev[row + i] = p;
                if self.seq[i] == s {
                    p = i;
                }
            }
            let mut q = first[s];
            for i in (0..n).rev() {
                self.next[row + i] = q;
                if self.seq[i] == s {
                    q = i;
                }
            }
        }
    }

    /// Cyclic distance from p forward to i, in 1..=n.
    fn dist(&self, p: usize, i: usize) -> usize {
        let d = (i + self.n - p) % self.n;
        if d == 0 { self.n } else { d }
    }

    fn f(&self, s: usize, d: usize) -> f64 {
        self.table.value(s, d)
    }

    /// Change of the period total when server s loses position i.
    fn remove(&self, s: usize, i: usize) -> f64 {
        if self.count[s] == 1 {
            return self
                .table
                .slope(s)
                .map_or(f64::INFINITY, |a| a * self.n as f64)
                - self.f(s, self.n);
        }
        let (p, q) = (self.prev[s * self.n + i], self.next[s * self.n + i]);
        self.f(s, self.dist(p, q)) - self.f(s, self.dist(p, i)) - self.f(s, self.dist(i, q))
    }

    /// Change when server s (not at i) gains position i.
    fn add(&self, s: usize, i: usize) -> f64 {
        if self.count[s] == 0 {
            return self.f(s, self.n)
                - self
                    .table
                    .slope(s)
                    .map_or(f64::INFINITY, |a| a * self.n as f64);
        }
        let (p, q) = (self.prev[s * self.n + i], self.next[s * self.n + i]);
        self.f(s, self.dist(p, i)) + self.f(s, self.dist(i, q)) - self.f(s, self.dist(p, q))
    }

    /// Change when server s moves from r to t (seq[t] ≠ s).
    fn shift(&self, s: usize, r: usize, t: usize) -> f64 {
        if self.count[s] == 1 {
            return 0.0;
        }
        let row = s * self.n;
        let (p, q) = (self.prev[row + r], self.next[row + r]);
        let lose = self.f(s, self.dist(p, r)) + self.f(s, self.dist(r, q));
        if self.dist(p, t) < self.dist(p, q) {
            // t falls in the gap that r leaves.
            self.f(s, self.dist(p, t)) + self.f(s, self.dist(t, q)) - lose
        } else {
            let (p2, q2) = (self.prev[row + t], self.next[row + t]);
            self.f(s, self.dist(p, q)) - lose
                + self.f(s, self.dist(p2, t))
                + self.f(s, self.dist(t, q2))
                - self.f(s, self.dist(p2, q2))
        }
    }
}

/// Local search from `start` (server indices, length ≤ the table's kmax)
/// until no neighbour improves the cost by more than a relative 1e-12.
pub fn local_search(
    system: &RoutingSystem,
    table: &CostTable,
    start: &[usize],
    neighbourhood: Neighbourhood,
) -> Result<SearchResult> {
    local_search_with(system, table, start, neighbourhood, &Control::default())
}

/// [`local_search`] under a control: its iteration cap bounds the scans
/// of the neighbourhood (one per move taken, plus the final one that
/// finds no improvement; `NotConverged` when reached, since the sequence
/// is then not known to be a local minimum), its memory cap the
/// occurrence tables, and a cancel is seen within one position's
/// neighbours (Pairs) or 2^16 neighbours (Multimodular).
pub fn local_search_with(
    system: &RoutingSystem,
    table: &CostTable,
    start: &[usize],
    neighbourhood: Neighbourhood,
    control: &Control,
) -> Result<SearchResult> {
    let mut work = Work {
        steps: 0,
        spent: 0,
        limit: u64::MAX,
    };
    local_search_counted(system, table, start, neighbourhood, control, &mut work)
}

/// [`local_search_with`] in the [`Neighbourhood::Multimodular`]
/// neighbourhood from `start`, on the cost table of `system` up to
/// `start.len()` ([`RoutingSystem::table`], with its work bound). The
/// sequence, M = 2 and n ≤ [`MAX_MULTIMODULAR_PERIOD`] are checked before
/// the table is built.
pub fn multimodular_search(
    system: &RoutingSystem,
    start: &[usize],
    control: &Control,
) -> Result<SearchResult> {
    super::cost::check_sequence(start, system.len())?;
    check_multimodular(system.len(), start.len())?;
    let table = system.table(start.len())?;
    local_search_with(system, &table, start, Neighbourhood::Multimodular, control)
}

/// The multimodular neighbourhood needs M = 2 servers and has 2^(n+1) − 2
/// points: n ≤ [`MAX_MULTIMODULAR_PERIOD`].
fn check_multimodular(m: usize, n: usize) -> Result<()> {
    if m != 2 {
        return Err(Error::invalid(format!(
            "the multimodular neighbourhood needs M = 2 servers, got {m}"
        )));
    }
    if n > MAX_MULTIMODULAR_PERIOD {
        return Err(Error::TooLarge(format!(
            "the multimodular neighbourhood has 2^(n+1) - 2 points; n = {n} exceeds {MAX_MULTIMODULAR_PERIOD}"
        )));
    }
    Ok(())
}

/// Effort shared by the periods of [`optimize_local_with`].
struct Work {
    /// Neighbourhood scans (a control's iteration cap counts these).
    steps: u64,
    /// Neighbours evaluated (and balanced-count steps) by earlier periods.
    spent: u64,
    /// Most neighbours the search may evaluate in all (plain calls).
    limit: u64,
}

/// [`local_search_with`], counting its effort in `work`.
fn local_search_counted(
    system: &RoutingSystem,
    table: &CostTable,
    start: &[usize],
    neighbourhood: Neighbourhood,
    control: &Control,
    work: &mut Work,
) -> Result<SearchResult> {
    super::cost::check_sequence(start, system.len())?;
    let n = start.len();
    if n > table.kmax() || table.servers() != system.len() {
        return Err(Error::invalid("the cost table does not cover this period"));
    }
    let total = period_total(table, start).ok_or_else(|| {
        Error::Infeasible(
            "the start sequence leaves out a server whose cost grows superlinearly".into(),
        )
    })?;
    let mut search = Descent {
        table,
        control,
        work,
        total,
        evaluations: 1,
    };
    let seq = match neighbourhood {
        Neighbourhood::Multimodular => search.multimodular(system.len(), start)?,
        Neighbourhood::Pairs => search.pairs(system.len(), start)?,
    };
    let evaluations = search.evaluations;
    let evaluation = evaluate_with(system, table, &seq)?;
    Ok(SearchResult {
        period: seq,
        evaluation,
        evaluations,
    })
}

/// A steepest descent of [`local_search_counted`]: the cost of the current
/// sequence and the neighbours evaluated so far.
struct Descent<'a> {
    table: &'a CostTable,
    control: &'a Control,
    work: &'a mut Work,
    /// Period total of the current sequence.
    total: f64,
    /// Sequences costed, the start included.
    evaluations: u64,
}

const WHAT: &str = "routing local search";

impl Descent<'_> {
    /// Steepest descent over the multimodular neighbourhood of M = 2
    /// servers: x + Σ_{i ∈ S} b_i for the 2^(n+1) − 2 proper subsets S.
    fn multimodular(&mut self, m: usize, start: &[usize]) -> Result<Vec<usize>> {
        let n = start.len();
        check_multimodular(m, n)?;
        let mut x = start.to_vec();
        let mut y = vec![0usize; n];
        loop {
            self.control.step(WHAT, self.work.steps)?;
            let mut best: Option<(f64, Vec<usize>)> = None;
            for alpha in 1u64..(1u64 << (n + 1)) - 1 {
                if alpha % CHECK_EVERY == 0 {
                    self.control.check(WHAT, self.work.steps)?;
                }
                if !multimodular_neighbour(&x, alpha, &mut y) {
                    continue;
                }
                self.evaluations += 1;
                if let Some(t) = period_total(self.table, &y) {
                    let total = self.total;
                    if t < total - 1e-12 * total.abs().max(1e-300)
                        && best.as_ref().is_none_or(|b| t < b.0)
                    {
                        best = Some((t, y.clone()));
                    }
                }
            }
            match best {
                Some((t, b)) => {
                    self.total = t;
                    x = b;
                    self.work.steps += 1;
                }
                None => return Ok(x),
            }
        }
    }

    /// Steepest descent over moves of one position to another server and
    /// swaps of two positions, on occurrence tables updated per move.
    fn pairs(&mut self, m: usize, start: &[usize]) -> Result<Vec<usize>> {
        let n = start.len();
        // prev and next: M x n positions each.
        self.control.check_memory(
            m.checked_mul(n).and_then(|c| limits::bytes(c, 16)),
            &format!("local search tables of {m} servers x period {n}"),
        )?;
        let mut st = State::new(self.table, start.to_vec());
        loop {
            self.control.step(WHAT, self.work.steps)?;
            match self.best_pair_move(&st, m)? {
                None => return Ok(st.seq),
                Some((i, x, swap)) => {
                    self.work.steps += 1;
                    if swap {
                        st.seq.swap(i, x);
                    } else {
                        st.seq[i] = x;
                    }
                    st.rebuild();
                    // Recompute rather than accumulate deltas: no drift.
                    self.total = period_total(self.table, &st.seq).unwrap_or(f64::INFINITY);
                }
            }
        }
    }

    /// The best improving move (position, server or position, swap) of
    /// one scan, if any.
    fn best_pair_move(&mut self, st: &State, m: usize) -> Result<Option<(usize, usize, bool)>> {
        let n = st.seq.len();
        let tol = 1e-12 * self.total.abs().max(1e-300);
        let mut best = (-tol, None::<(usize, usize, bool)>);
        for i in 0..n {
            // One position's neighbours are O(n + M): check per position.
            self.control.check(WHAT, self.work.steps)?;
            if self.work.spent.saturating_add(self.evaluations) > self.work.limit {
                return Err(Error::NotConverged(format!(
                    "routing local search stopped after {} neighbour evaluations (the bound of \
                     a call without a control; a control lifts it)",
                    self.work.limit
                )));
            }
            let a = st.seq[i];
            let da = st.remove(a, i);
            for b in (0..m).filter(|&b| b != a) {
                self.evaluations += 1;
                let d = da + st.add(b, i);
                if d < best.0 {
                    best = (d, Some((i, b, false)));
                }
            }
            for j in i + 1..n {
                let b = st.seq[j];
                if b == a {
                    continue;
                }
                self.evaluations += 1;
                let d = st.shift(a, i, j) + st.shift(b, j, i);
                if d < best.0 {
                    best = (d, Some((i, j, true)));
                }
            }
        }
        Ok(best.1)
    }
}

/// y = x + Σ_{i: bit i of alpha} b_i, that is y_k = x_k + α_k − α_{k−1}
/// (1-based k; b_i = e_i − e_{i+1}, e_0 = e_{n+1} = 0); false when y
/// leaves {0, 1}^n.
fn multimodular_neighbour(x: &[usize], alpha: u64, y: &mut [usize]) -> bool {
    for k in 1..=x.len() {
        let v = x[k - 1] as i64 + ((alpha >> k) & 1) as i64 - ((alpha >> (k - 1)) & 1) as i64;
        if !(0..=1).contains(&v) {
            return false;
        }
        y[k - 1] = v as usize;
    }
    true
}

/// Most neighbours (and balanced-count steps) [`optimize_local`]
/// evaluates in all, a few seconds: TooLarge up front when one scan of
/// every period's neighbourhood already exceeds it (Σ n(n − 1)/2 + 2nM),
/// NotConverged when it is reached.
pub const MAX_LOCAL_WORK: u64 = 1 << 27;

/// Local search ([`Neighbourhood::Pairs`]) from the balanced sequence of
/// every period length in min_period..=max_period; the best one found.
/// Bounded: at most [`MAX_LOCAL_WORK`] neighbour evaluations, and the cost
/// table within [`RoutingSystem::table`]'s work bound; for more, use
/// [`optimize_local_with`].
pub fn optimize_local(
    system: &RoutingSystem,
    min_period: usize,
    max_period: usize,
) -> Result<SearchResult> {
    check_range(min_period, max_period)?;
    let m = system.len() as f64;
    let first_scans: f64 = (min_period..=max_period)
        .map(|n| {
            let n = n as f64;
            n * (n - 1.0) / 2.0 + 2.0 * n * m
        })
        .sum();
    if first_scans > MAX_LOCAL_WORK as f64 {
        return Err(Error::TooLarge(format!(
            "local search over periods {min_period}..{max_period} and {} servers evaluates at least {} \
             neighbours (limit {MAX_LOCAL_WORK}); pass a control (ctl) to lift the limit",
            system.len(),
            Num(first_scans)
        )));
    }
    optimize_local_inner(
        system,
        min_period,
        max_period,
        &Control::default(),
        MAX_LOCAL_WORK,
    )
}

/// [`optimize_local`] under a control, as [`local_search_with`], without
/// its bounds; the iteration cap counts the neighbourhood scans of all
/// periods together, and a cancel is seen within one position's
/// neighbours, 2^16 steps of the balanced counts or 2^20 multiply-adds of
/// the cost table.
pub fn optimize_local_with(
    system: &RoutingSystem,
    min_period: usize,
    max_period: usize,
    control: &Control,
) -> Result<SearchResult> {
    optimize_local_inner(system, min_period, max_period, control, u64::MAX)
}

fn optimize_local_inner(
    system: &RoutingSystem,
    min_period: usize,
    max_period: usize,
    control: &Control,
    limit: u64,
) -> Result<SearchResult> {
    check_range(min_period, max_period)?;
    control.check("routing local search", 0)?;
    let bounded = limit != u64::MAX;
    let table = table_with(system, max_period, control, bounded)?;
    let mut best: Option<SearchResult> = None;
    let mut evaluations = 0u64;
    let mut work = Work {
        steps: 0,
        spent: 0,
        limit,
    };
    for n in min_period..=max_period {
        control.check("routing local search", work.steps)?;
        work.spent = work
            .spent
            .saturating_add((n as u64).saturating_mul(system.len() as u64));
        let counts = match balanced_counts_with(&table, n, control) {
            Ok(c) => c,
            Err(Error::Infeasible(_)) => continue,
            Err(e) => return Err(e),
        };
        let start = balanced_sequence(&counts)?;
        let r = local_search_counted(
            system,
            &table,
            &start,
            Neighbourhood::Pairs,
            control,
            &mut work,
        )?;
        evaluations += r.evaluations;
        work.spent = work.spent.saturating_add(r.evaluations);
        if best
            .as_ref()
            .is_none_or(|b| r.evaluation.per_packet < b.evaluation.per_packet)
        {
            best = Some(r);
        }
    }
    let mut best = best.ok_or_else(|| {
        Error::Infeasible(
            "no period in the range visits every server whose cost grows superlinearly".into(),
        )
    })?;
    best.evaluations = evaluations;
    Ok(best)
}
