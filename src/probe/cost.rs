//! Expected cost of a probe schedule (eq. 5, 6) from prefix integrals, the
//! candidate grid 𝒯 of §3 with O(1) interval costs, and the realized cost
//! of a schedule on an actual update trace (eq. 3, 4).

use super::profile::{Prefix, Profile};
use crate::error::{Error, Num, Result};

/// Largest candidate grid (N) accepted: 3 prefix arrays of N + 1 doubles.
pub const MAX_GRID: usize = 100_000_000;

/// A grid of N candidates holds t, P, A, Q (32 bytes per point) and the
/// problem built on it `allowed` and `lo` (9 more): checked before allocating.
fn check_grid_memory(n_grid: usize) -> Result<()> {
    check_grid_memory_with(n_grid, &crate::limits::Control::default())
}

/// [`check_grid_memory`] against a control's cap (else the default).
pub(crate) fn check_grid_memory_with(
    n_grid: usize,
    control: &crate::limits::Control,
) -> Result<()> {
    control.check_memory(
        crate::limits::bytes(n_grid as u128 + 1, 41),
        &format!("a candidate grid of {n_grid} points"),
    )
}

/// The candidate times t_0 = 0 < t_1 < … < t_N = T of problem (9) with the
/// prefix integrals P, A, Q at each, so that
/// K[i, j] = C̄(t_i, t_j) = A_j (P_j − P_i) − (Q_j − Q_i) costs O(1) and no
/// N × N matrix (the paper's Algorithm 4) is needed.
#[derive(Debug, Clone)]
pub struct CostTable {
    t: Vec<f64>,
    p: Vec<f64>,
    a: Vec<f64>,
    q: Vec<f64>,
}

impl CostTable {
    /// N evenly spaced candidates t_j = jT/N, j = 0..N (the paper uses
    /// N = 672 hourly points over 28 days).
    pub fn uniform(profile: &Profile, n_grid: usize) -> Result<Self> {
        if n_grid == 0 {
            return Err(Error::invalid("the grid needs N >= 1 candidate times"));
        }
        if n_grid > MAX_GRID {
            return Err(Error::TooLarge(format!(
                "grid of {n_grid} points (limit {MAX_GRID})"
            )));
        }
        check_grid_memory(n_grid)?;
        let h = profile.horizon();
        let t: Vec<f64> = (0..=n_grid)
            .map(|j| {
                if j == n_grid {
                    h
                } else {
                    h * (j as f64 / n_grid as f64)
                }
            })
            .collect();
        Ok(CostTable::from_times_unchecked(profile, t))
    }

    /// Candidates at the given times: strictly increasing, from 0 to T.
    pub fn new(profile: &Profile, times: &[f64]) -> Result<Self> {
        if times.len() < 2 {
            return Err(Error::invalid("the grid needs t_0 = 0 and t_N = T"));
        }
        if times.len() - 1 > MAX_GRID {
            return Err(Error::TooLarge(format!(
                "grid of {} points (limit {MAX_GRID})",
                times.len() - 1
            )));
        }
        check_grid_memory(times.len() - 1)?;
        if times[0] != 0.0 || times[times.len() - 1] != profile.horizon() {
            return Err(Error::invalid(format!(
                "grid must run from t_0 = 0 to t_N = T = {}, got [{}, {}]",
                Num(profile.horizon()),
                Num(times[0]),
                Num(times[times.len() - 1])
            )));
        }
        for (i, w) in times.windows(2).enumerate() {
            if !(w[1] > w[0]) {
                return Err(Error::invalid(format!(
                    "grid times must be strictly increasing at index {}",
                    i + 1
                )));
            }
        }
        Ok(CostTable::from_times_unchecked(profile, times.to_vec()))
    }

    fn from_times_unchecked(profile: &Profile, t: Vec<f64>) -> Self {
        let mut p = Vec::with_capacity(t.len());
        let mut a = Vec::with_capacity(t.len());
        let mut q = Vec::with_capacity(t.len());
        for &x in &t {
            let pr = profile.prefix(x);
            p.push(pr.p);
            a.push(pr.a);
            q.push(pr.q);
        }
        CostTable { t, p, a, q }
    }

    /// N, the number of candidate probe times t_1..t_N (t_0 = 0 is p_0).
    #[inline]
    pub fn len(&self) -> usize {
        self.t.len() - 1
    }

    /// Never true: a table always has t_0 and t_N.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The candidate times t_0..t_N.
    pub fn times(&self) -> &[f64] {
        &self.t
    }

    /// K[i, j] = C̄(t_i, t_j), O(1).
    #[inline]
    pub fn cost(&self, i: usize, j: usize) -> f64 {
        self.a[j] * (self.p[j] - self.p[i]) - (self.q[j] - self.q[i])
    }

    /// P_i = ∫₀^{t_i} λ.
    #[inline]
    pub fn p(&self, i: usize) -> f64 {
        self.p[i]
    }

    /// A_i = ∫₀^{t_i} a.
    #[inline]
    pub fn a(&self, i: usize) -> f64 {
        self.a[i]
    }

    /// Q_i = ∫₀^{t_i} λ(t) A(t) dt.
    #[inline]
    pub fn q(&self, i: usize) -> f64 {
        self.q[i]
    }

    /// Cost (6) of probing at grid indices `idx` (strictly increasing,
    /// ending at N).
    pub fn schedule_cost(&self, idx: &[usize]) -> f64 {
        let mut prev = 0;
        let mut c = 0.0;
        for &j in idx {
            c += self.cost(prev, j);
            prev = j;
        }
        c
    }
}

/// Checks a continuous schedule p_1 ≤ … ≤ p_n = T (problem (7)) and returns
/// it with p_n set exactly to T (a caller's T may differ in the last bit).
pub fn check_schedule(profile: &Profile, probes: &[f64]) -> Result<Vec<f64>> {
    let h = profile.horizon();
    let Some(&last) = probes.last() else {
        return Err(Error::invalid(
            "a schedule needs n >= 1 probes (the last at T)",
        ));
    };
    let mut prev = 0.0;
    for (i, &p) in probes.iter().enumerate() {
        if !p.is_finite() {
            return Err(Error::invalid(format!(
                "probes[{i}] must be finite, got {}",
                Num(p)
            )));
        }
        if p < prev {
            return Err(Error::invalid(format!(
                "probes must be sorted and >= 0: probes[{i}] = {} < {}",
                Num(p),
                Num(prev)
            )));
        }
        prev = p;
    }
    if (last - h).abs() > 1e-9 * h.max(1.0) {
        return Err(Error::invalid(format!(
            "the last probe must be at T = {}, got {}",
            Num(h),
            Num(last)
        )));
    }
    let mut v = probes.to_vec();
    let n = v.len();
    v[n - 1] = h;
    for x in v.iter_mut() {
        *x = x.min(h);
    }
    Ok(v)
}

/// Expected obsolescence cost C̄(p_0, …, p_n) = Σ C̄(p_{i−1}, p_i) of a
/// continuous schedule (eq. 6; additivity by Lemma 3).
pub fn expected_cost(profile: &Profile, probes: &[f64]) -> Result<f64> {
    let v = check_schedule(profile, probes)?;
    let mut prev = profile.prefix(0.0);
    let mut c = 0.0;
    for &x in &v {
        let cur = profile.prefix(x);
        c += prev.cost_to(&cur);
        prev = cur;
    }
    Ok(c)
}

/// Realized cost C(p_0, …, p_n) (eq. 3, 4) on an observed trace: each update
/// at time t(r) ∈ [0, T] costs A(t(r), p_{i(r)}), with p_{i(r)} the first
/// probe at or after it (p_0 = 0 transcribes an update at time 0 for free).
/// `updates` must be sorted.
pub fn realized_cost(profile: &Profile, probes: &[f64], updates: &[f64]) -> Result<f64> {
    let v = check_schedule(profile, probes)?;
    let h = profile.horizon();
    let mut prev = f64::NEG_INFINITY;
    let mut k = 0; // index into v of the first probe >= current update
    let mut c = 0.0;
    for (r, &t) in updates.iter().enumerate() {
        if !t.is_finite() {
            return Err(Error::invalid(format!(
                "updates[{r}] must be finite, got {}",
                Num(t)
            )));
        }
        if t < prev {
            return Err(Error::invalid(format!(
                "updates must be sorted: updates[{r}] = {} < {}",
                Num(t),
                Num(prev)
            )));
        }
        if !(0.0..=h).contains(&t) {
            return Err(Error::invalid(format!(
                "updates[{r}] = {} is outside [0, T = {}]",
                Num(t),
                Num(h)
            )));
        }
        prev = t;
        if t == 0.0 {
            continue;
        }
        while v[k] < t {
            k += 1; // v[n-1] = T >= t ends the loop
        }
        c += profile.accumulated_importance(t, v[k]);
    }
    Ok(c)
}

/// The prefix of a grid point, for tests comparing with [`Profile::prefix`].
pub fn grid_prefix(table: &CostTable, i: usize) -> Prefix {
    Prefix {
        p: table.p(i),
        a: table.a(i),
        q: table.q(i),
    }
}
