//! Update intensity λ(t) and importance a(t) (§2, eq. 1 and 5), their
//! prefix integrals, the paper's DBWorld and MicroNet profiles (Tables 2, 3)
//! and maximum-likelihood estimation of λ from observed update times (§5.1).

use crate::error::{Error, Num, Result};
use crate::validate;

/// Most pieces a profile may hold over its horizon (a finer profile is
/// almost certainly a unit mistake, and would exhaust memory).
pub const MAX_PIECES: usize = 50_000_000;

/// A piecewise-constant function of time: `values[k]` on
/// `[breaks[k], breaks[k+1])`, with `breaks[0] = 0`. A periodic one repeats
/// with period `breaks[K]`; a non-periodic one is defined on `[0, breaks[K]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct PiecewiseConstant {
    breaks: Vec<f64>,
    values: Vec<f64>,
    periodic: bool,
}

impl PiecewiseConstant {
    /// Checks `breaks` (strictly increasing from 0, finite) and `values`
    /// (one per piece, finite, ≥ 0).
    pub fn new(breaks: &[f64], values: &[f64], periodic: bool) -> Result<Self> {
        Self::named(breaks, values, periodic, "breaks", "values")
    }

    /// [`PiecewiseConstant::new`], its messages naming the arrays as the
    /// caller does (e.g. `lambda_breaks`, `lambda_values`).
    pub fn named(
        breaks: &[f64],
        values: &[f64],
        periodic: bool,
        breaks_name: &str,
        values_name: &str,
    ) -> Result<Self> {
        if breaks.len() < 2 {
            return Err(Error::invalid(format!(
                "{breaks_name} must hold at least 2 points (one piece)"
            )));
        }
        validate::same_len(
            values_name,
            values.len(),
            &format!("pieces ({breaks_name} - 1)"),
            breaks.len() - 1,
        )?;
        if breaks[0] != 0.0 {
            return Err(Error::invalid(format!(
                "{breaks_name}[0] must be 0, got {}",
                Num(breaks[0])
            )));
        }
        for (k, w) in breaks.windows(2).enumerate() {
            validate::finite(&format!("{breaks_name}[{}]", k + 1), w[1])?;
            if !(w[1] > w[0]) {
                return Err(Error::invalid(format!(
                    "{breaks_name} must be strictly increasing: {breaks_name}[{}] = {} <= {breaks_name}[{k}] = {}",
                    k + 1,
                    Num(w[1]),
                    Num(w[0])
                )));
            }
        }
        validate::all_non_negative(values_name, values)?;
        Ok(PiecewiseConstant {
            breaks: breaks.to_vec(),
            values: values.to_vec(),
            periodic,
        })
    }

    /// The constant function `c` on `[0, ∞)`.
    pub fn constant(c: f64) -> Result<Self> {
        PiecewiseConstant::new(&[0.0, 1.0], &[c], true)
    }

    /// Piece boundaries, starting at 0.
    pub fn breaks(&self) -> &[f64] {
        &self.breaks
    }

    /// Value on each piece.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// Whether the function repeats with period `breaks[K]`.
    pub fn periodic(&self) -> bool {
        self.periodic
    }

    /// Length of the period (or of the domain when not periodic).
    pub fn span(&self) -> f64 {
        self.breaks[self.breaks.len() - 1]
    }

    /// Pieces over `[0, horizon]` (an upper bound for a periodic function).
    fn pieces_until(&self, horizon: f64) -> f64 {
        let periods = if self.periodic {
            (horizon / self.span()).ceil()
        } else {
            1.0
        };
        periods * (self.breaks.len() - 1) as f64
    }

    /// Breakpoints in `[0, horizon]` (both ends included), for merging.
    fn breakpoints_until(&self, horizon: f64, out: &mut Vec<f64>) -> Result<()> {
        let span = self.span();
        if !self.periodic && horizon > span * (1.0 + 1e-12) {
            return Err(Error::invalid(format!(
                "horizon {} exceeds the domain [0, {}] of a non-periodic function",
                Num(horizon),
                Num(span)
            )));
        }
        let pieces = self.pieces_until(horizon);
        if pieces > MAX_PIECES as f64 {
            return Err(Error::TooLarge(format!(
                "{} pieces over the horizon (limit {MAX_PIECES})",
                Num(pieces)
            )));
        }
        let mut rep = 0.0_f64;
        loop {
            let base = rep * span;
            for &b in &self.breaks[..self.breaks.len() - 1] {
                let t = base + b;
                if t >= horizon {
                    out.push(horizon);
                    return Ok(());
                }
                out.push(t);
            }
            rep += 1.0;
            if !self.periodic {
                out.push(horizon);
                return Ok(());
            }
        }
    }

    /// Value at time t ≥ 0 (right-continuous).
    pub fn value_at(&self, t: f64) -> f64 {
        let span = self.span();
        let x = if self.periodic {
            t - (t / span).floor() * span
        } else {
            t.min(span)
        };
        let k = self.breaks.partition_point(|&b| b <= x).saturating_sub(1);
        self.values[k.min(self.values.len() - 1)]
    }
}

/// λ(t) and a(t) merged over the horizon `[0, T]`, with prefix integrals at
/// every merged breakpoint b_k:
/// P(x) = ∫₀ˣ λ, A(x) = ∫₀ˣ a, Q(x) = ∫₀ˣ λ(t) A(t) dt
/// (exact for piecewise-constant λ and a; see the paper notes), so that
/// C̄(s, f) = A(f)(P(f) − P(s)) − (Q(f) − Q(s)) (eq. 5) costs O(log K) at
/// arbitrary times and O(1) on a precomputed grid ([`super::cost::CostTable`]).
#[derive(Debug, Clone)]
pub struct Profile {
    horizon: f64,
    intensity: PiecewiseConstant,
    importance: PiecewiseConstant,
    /// Merged breakpoints, `b[0] = 0`, `b[K] = T`.
    b: Vec<f64>,
    /// λ and a on `[b[k], b[k+1])`.
    lam: Vec<f64>,
    imp: Vec<f64>,
    /// P, A, Q at each `b[k]`.
    p: Vec<f64>,
    a: Vec<f64>,
    q: Vec<f64>,
}

/// Prefix integrals (P, A, Q) at one time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prefix {
    /// P(x) = ∫₀ˣ λ: expected number of updates in (0, x].
    pub p: f64,
    /// A(x) = ∫₀ˣ a.
    pub a: f64,
    /// Q(x) = ∫₀ˣ λ(t) A(t) dt.
    pub q: f64,
}

impl Prefix {
    /// C̄(s, f) from the prefixes at s and f (eq. 5; Lemma 3 with s = 0).
    #[inline]
    pub fn cost_to(&self, f: &Prefix) -> f64 {
        f.a * (f.p - self.p) - (f.q - self.q)
    }
}

impl Profile {
    /// Merges λ (`intensity`, updates per time unit) and a (`importance`)
    /// over `[0, horizon]`.
    pub fn new(
        intensity: PiecewiseConstant,
        importance: PiecewiseConstant,
        horizon: f64,
    ) -> Result<Self> {
        validate::positive("horizon", horizon)?;
        // Per merged piece: both breakpoint lists, b, λ, a, P, A, Q (8 f64).
        let pieces = intensity.pieces_until(horizon) + importance.pieces_until(horizon);
        let need = if pieces < 1e30 {
            Some((pieces as u128 + 2) * 64)
        } else {
            None
        };
        crate::limits::check_memory(
            need,
            &format!(
                "a profile of {} pieces over the horizon {}",
                Num(pieces),
                Num(horizon)
            ),
        )?;
        let mut bl = Vec::new();
        intensity.breakpoints_until(horizon, &mut bl)?;
        let mut ba = Vec::new();
        importance.breakpoints_until(horizon, &mut ba)?;
        let mut b = Vec::with_capacity(bl.len() + ba.len());
        let (mut i, mut j) = (0, 0);
        while i < bl.len() || j < ba.len() {
            let next = match (bl.get(i), ba.get(j)) {
                (Some(&x), Some(&y)) if x <= y => {
                    i += 1;
                    x
                }
                (Some(_), Some(&y)) => {
                    j += 1;
                    y
                }
                (Some(&x), None) => {
                    i += 1;
                    x
                }
                (None, Some(&y)) => {
                    j += 1;
                    y
                }
                (None, None) => break,
            };
            if b.last().is_none_or(|&l: &f64| next > l) {
                b.push(next);
            }
        }
        let k = b.len() - 1;
        let mut lam = Vec::with_capacity(k);
        let mut imp = Vec::with_capacity(k);
        let (mut p, mut a, mut q) = (vec![0.0; k + 1], vec![0.0; k + 1], vec![0.0; k + 1]);
        for i in 0..k {
            // Midpoint lookup is robust to the breakpoints' rounding.
            let mid = 0.5 * (b[i] + b[i + 1]);
            let (l, w) = (intensity.value_at(mid), importance.value_at(mid));
            let h = b[i + 1] - b[i];
            lam.push(l);
            imp.push(w);
            p[i + 1] = p[i] + l * h;
            a[i + 1] = a[i] + w * h;
            q[i + 1] = q[i] + l * (a[i] * h + 0.5 * w * h * h);
        }
        Ok(Profile {
            horizon,
            intensity,
            importance,
            b,
            lam,
            imp,
            p,
            a,
            q,
        })
    }

    /// The paper's DBWorld profile (Table 2; time in days, week from Monday
    /// 00:00; λ in postings per day) with importance a = `ratio` during work
    /// hours [9:00, 18:00) on weekdays and 1 otherwise (eq. 1).
    pub fn dbworld(ratio: f64, horizon_days: f64) -> Result<Self> {
        validate::positive("preference ratio", ratio)?;
        let day = [
            (0.0, 2.40),
            (3.0, 5.96),
            (6.0, 6.04),
            (9.0, 7.50),
            (18.0, 3.03),
            (21.0, 2.41),
        ];
        let lambda = weekly(&day, &[(5.0, 1.50), (6.0, 1.15)])?;
        Profile::new(lambda, work_hours(ratio, 9.0, 18.0)?, horizon_days)
    }

    /// The paper's MicroNet profile (Table 3) with work hours [9:00, 19:00)
    /// on weekdays.
    pub fn micronet(ratio: f64, horizon_days: f64) -> Result<Self> {
        validate::positive("preference ratio", ratio)?;
        let day = [(0.0, 0.25), (9.0, 2.60), (19.0, 0.14)];
        let lambda = weekly(&day, &[(5.0, 0.08)])?;
        Profile::new(lambda, work_hours(ratio, 9.0, 19.0)?, horizon_days)
    }

    /// Same importance, new intensity (e.g. re-estimated): the planner's
    /// re-plan path.
    pub fn with_intensity(&self, intensity: PiecewiseConstant) -> Result<Self> {
        Profile::new(intensity, self.importance.clone(), self.horizon)
    }

    /// T.
    pub fn horizon(&self) -> f64 {
        self.horizon
    }

    /// λ(·).
    pub fn intensity(&self) -> &PiecewiseConstant {
        &self.intensity
    }

    /// a(·).
    pub fn importance(&self) -> &PiecewiseConstant {
        &self.importance
    }

    /// Number of merged pieces over `[0, T]`.
    pub fn pieces(&self) -> usize {
        self.lam.len()
    }

    /// Largest λ and a over the horizon (λ̄, ā of Lemma 6).
    pub fn bounds(&self) -> (f64, f64) {
        let l = self.lam.iter().copied().fold(0.0, f64::max);
        let a = self.imp.iter().copied().fold(0.0, f64::max);
        (l, a)
    }

    /// P, A, Q at time x, clamped to `[0, T]`.
    pub fn prefix(&self, x: f64) -> Prefix {
        let x = x.clamp(0.0, self.horizon);
        self.prefix_in(self.piece_of(x), x)
    }

    /// Λ(s, f) = ∫_s^f λ: expected updates in (s, f].
    pub fn expected_updates(&self, s: f64, f: f64) -> f64 {
        self.prefix(f).p - self.prefix(s).p
    }

    /// A(s, f) = ∫_s^f a.
    pub fn accumulated_importance(&self, s: f64, f: f64) -> f64 {
        self.prefix(f).a - self.prefix(s).a
    }

    /// C̄(s, f), eq. (5), for 0 ≤ s ≤ f ≤ T (else `InvalidArgument`).
    pub fn interval_cost(&self, s: f64, f: f64) -> Result<f64> {
        let h = self.horizon;
        if !(s.is_finite() && f.is_finite() && 0.0 <= s && s <= f && f <= h) {
            return Err(Error::invalid(format!(
                "need 0 <= s <= f <= T = {}, got s = {}, f = {}",
                Num(h),
                Num(s),
                Num(f)
            )));
        }
        Ok(self.signed_interval_cost(s, f))
    }

    /// C̄(s, f) of eq. (5), and its signed extension (12) when s > f; s and
    /// f are clamped to [0, T].
    pub(crate) fn signed_interval_cost(&self, s: f64, f: f64) -> f64 {
        self.prefix(s).cost_to(&self.prefix(f))
    }

    /// A lower bound on the probes of the threshold policy at cost level
    /// `level` > 0, counted until it exceeds `stop`: where λ and a are the
    /// constants λ_k, a_k of a piece of length h_k, an interval inside it
    /// costs λ_k a_k L²/2, so successive probes there are L_k =
    /// √(2 level/(λ_k a_k)) apart and the first comes within L_k of its
    /// start (C̄(s, f) only grows as s moves back): at least ⌊h_k/L_k⌋
    /// probes per piece. O(K).
    pub(crate) fn threshold_probes_at_least(&self, level: f64, stop: f64) -> f64 {
        let mut total = 0.0;
        for k in 0..self.lam.len() {
            let rate = self.lam[k] * self.imp[k];
            if rate > 0.0 {
                let h = self.b[k + 1].min(self.horizon) - self.b[k];
                total += (h * (rate / (2.0 * level)).sqrt()).floor();
                if !(total <= stop) {
                    return total;
                }
            }
        }
        total
    }

    /// Merged piece holding x ∈ [0, T] (the last piece holds T).
    fn piece_of(&self, x: f64) -> usize {
        self.b
            .partition_point(|&b| b <= x)
            .saturating_sub(1)
            .min(self.lam.len() - 1)
    }

    /// [`Profile::prefix`] for x in piece k (bit-identical there: the same
    /// formula with the same k), without the search for k.
    #[inline]
    fn prefix_in(&self, k: usize, x: f64) -> Prefix {
        let h = x - self.b[k];
        let (l, w) = (self.lam[k], self.imp[k]);
        Prefix {
            p: self.p[k] + l * h,
            a: self.a[k] + w * h,
            q: self.q[k] + l * (self.a[k] * h + 0.5 * w * h * h),
        }
    }

    /// Smallest x in `[s, T]` with `g(prefix(x)) >= target`, for a `g`
    /// non-decreasing in x; None when even x = T falls short. Used by the
    /// threshold and first-arrival policies. `quadratic`: g grows like the
    /// square of x − s (an interval's cost), else linearly (updates).
    ///
    /// Walks the merged pieces from s to the first whose end reaches the
    /// target, then bisects inside it over the doubles' bit patterns
    /// (non-negative doubles sort like their bits) with that piece's
    /// formula: O(pieces passed + 64) cheap evaluations, so that a whole
    /// chain costs O(K + 64 n) rather than 64 searches of the breakpoints
    /// per probe.
    pub(crate) fn first_reaching(
        &self,
        s: f64,
        target: f64,
        quadratic: bool,
        g: impl Fn(&Prefix) -> f64,
    ) -> Option<f64> {
        if g(&self.prefix(self.horizon)) < target {
            return None;
        }
        if g(&self.prefix(s)) >= target {
            return Some(s);
        }
        let last = self.lam.len() - 1;
        let mut k = self.piece_of(s);
        // g(prefix(b[k])) < target: the answer lies in (max(s, b[k]), end of k].
        while k < last && g(&self.prefix(self.b[k + 1])) < target {
            k += 1;
        }
        let end = if k == last {
            self.horizon
        } else {
            self.b[k + 1]
        };
        let lo_x = s.max(self.b[k]);
        if !(lo_x >= 0.0 && end > lo_x) {
            return Some(end);
        }
        // In piece k: g(prefix(x)) (x < end, or x ≤ T in the last piece).
        let gk = |x: f64| g(&self.prefix_in(k, x));
        // Illinois false position narrows the bracket, on √g when g grows
        // quadratically (then nearly linear); the sides are decided by
        // g >= target itself, so the answer does not depend on the guesses.
        let shape = |v: f64| if quadratic { v.max(0.0).sqrt() } else { v };
        let goal = shape(target);
        let (mut xa, mut xb) = (lo_x, end);
        let (mut fa, mut fb) = (shape(gk(xa)) - goal, shape(g(&self.prefix(end))) - goal);
        let mut side = 0;
        for _ in 0..8 {
            let x = xa + (xb - xa) * (-fa / (fb - fa));
            if !(x > xa && x < xb) {
                break;
            }
            let gx = gk(x);
            if gx >= target {
                (xb, fb) = (x, (shape(gx) - goal).max(0.0));
                if side == 1 {
                    fa *= 0.5;
                }
                side = 1;
            } else {
                (xa, fa) = (x, (shape(gx) - goal).min(0.0));
                if side == -1 {
                    fb *= 0.5;
                }
                side = -1;
            }
        }
        let excess = |x: f64| gk(x) - target;
        // Gallop from the last point evaluated (the other end may have
        // stayed far), then bisect over the doubles between, to the last bit.
        let (mut lo, mut hi) = (xa.to_bits(), xb.to_bits());
        let mut step = 1u64;
        while hi - lo > 1 {
            let probe = if side >= 0 {
                hi.saturating_sub(step).max(lo + 1)
            } else {
                (lo + step).min(hi - 1)
            };
            if excess(f64::from_bits(probe)) >= 0.0 {
                hi = probe;
                if side < 0 {
                    break;
                }
            } else {
                lo = probe;
                if side >= 0 {
                    break;
                }
            }
            step = step.saturating_mul(2);
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if excess(f64::from_bits(mid)) >= 0.0 {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Some(f64::from_bits(hi))
    }
}

/// A weekly rate (time in days from Monday 00:00, periodic): the same
/// `(hour, value)` steps on each weekday, then `(day, value)` steps from
/// Saturday (day 5) to the end of the week.
fn weekly(weekday: &[(f64, f64)], weekend: &[(f64, f64)]) -> Result<PiecewiseConstant> {
    let mut breaks = Vec::new();
    let mut values = Vec::new();
    for d in 0..5 {
        for &(h, v) in weekday {
            breaks.push(d as f64 + h / 24.0);
            values.push(v);
        }
    }
    for &(d, v) in weekend {
        breaks.push(d);
        values.push(v);
    }
    breaks.push(7.0);
    PiecewiseConstant::new(&breaks, &values, true)
}

/// a(t) of eq. (1) over a week starting Monday 00:00 (time in days):
/// `ratio` on weekdays in [`start_hour`, `end_hour`), 1 elsewhere.
pub fn work_hours(ratio: f64, start_hour: f64, end_hour: f64) -> Result<PiecewiseConstant> {
    validate::positive("preference ratio", ratio)?;
    if !(0.0 < start_hour && start_hour < end_hour && end_hour < 24.0) {
        return Err(Error::invalid(format!(
            "work hours must satisfy 0 < start < end < 24, got [{}, {})",
            Num(start_hour),
            Num(end_hour)
        )));
    }
    let mut breaks = Vec::new();
    let mut values = Vec::new();
    for d in 0..5 {
        let d = d as f64;
        breaks.extend([d, d + start_hour / 24.0, d + end_hour / 24.0]);
        values.extend([1.0, ratio, 1.0]);
    }
    breaks.extend([5.0, 7.0]);
    values.push(1.0);
    PiecewiseConstant::new(&breaks, &values, true)
}

/// Weekday work-hour windows `[d + start/24, d + end/24)` (days, week from
/// Monday) within `[0, horizon]`: allowed probe windows for the planner.
pub fn work_hour_windows(start_hour: f64, end_hour: f64, horizon: f64) -> Result<Vec<(f64, f64)>> {
    work_hours(2.0, start_hour, end_hour)?;
    validate::positive("horizon", horizon)?;
    let days = horizon.ceil();
    if days > 1e7 {
        return Err(Error::TooLarge(format!("{} days of windows", Num(days))));
    }
    let mut w = Vec::new();
    let mut d = 0.0;
    while d < horizon {
        if (d % 7.0) < 5.0 {
            let (s, e) = (d + start_hour / 24.0, (d + end_hour / 24.0).min(horizon));
            if s < e {
                w.push((s, e));
            }
        }
        d += 1.0;
    }
    Ok(w)
}

/// Maximum-likelihood piecewise-constant intensity from update times (§5.1).
///
/// `times` are observed update times in `[0, window]`, non-decreasing.
/// `breaks` define the pieces (as in [`PiecewiseConstant::new`]); with
/// `periodic` the observation window is folded onto one period of length
/// `breaks[K]`, otherwise `window` must not exceed `breaks[K]`. For a
/// non-homogeneous Poisson process the MLE of the rate on piece k is
/// count_k / exposure_k (exposure = observed time spent in piece k).
/// `smoothing` s ≥ 0 adds s time units of pseudo-exposure at the overall
/// rate: λ_k = (count_k + s·λ̄) / (exposure_k + s), λ̄ = total count / window;
/// s = 0 is the plain MLE, and a piece never observed then is an error.
pub fn estimate_intensity(
    times: &[f64],
    window: f64,
    breaks: &[f64],
    periodic: bool,
    smoothing: f64,
) -> Result<PiecewiseConstant> {
    validate::positive("window", window)?;
    validate::non_negative("smoothing", smoothing)?;
    // Validates the breaks (values are placeholders).
    let shape =
        PiecewiseConstant::new(breaks, &vec![0.0; breaks.len().saturating_sub(1)], periodic)?;
    let span = shape.span();
    if !periodic && window > span {
        return Err(Error::invalid(format!(
            "window {} exceeds the pieces' span breaks[{}] = {}",
            Num(window),
            breaks.len() - 1,
            Num(span)
        )));
    }
    let k = breaks.len() - 1;
    let mut count = vec![0.0_f64; k];
    let mut prev = f64::NEG_INFINITY;
    for (i, &t) in times.iter().enumerate() {
        if !t.is_finite() {
            return Err(Error::invalid(format!(
                "times[{i}] must be finite, got {}",
                Num(t)
            )));
        }
        if t < prev {
            return Err(Error::invalid(format!(
                "times must be sorted: times[{i}] = {} < times[{}] = {}",
                Num(t),
                i - 1,
                Num(prev)
            )));
        }
        if !(0.0..=window).contains(&t) {
            return Err(Error::invalid(format!(
                "times[{i}] = {} is outside [0, window = {}]",
                Num(t),
                Num(window)
            )));
        }
        prev = t;
        let x = if periodic {
            t - (t / span).floor() * span
        } else {
            t
        };
        let j = breaks
            .partition_point(|&b| b <= x)
            .saturating_sub(1)
            .min(k - 1);
        count[j] += 1.0;
    }
    // Exposure: how long the window spends in each piece.
    let full = if periodic {
        (window / span).floor()
    } else {
        0.0
    };
    let rest = window - full * span;
    let exposure: Vec<f64> = (0..k)
        .map(|j| {
            full * (breaks[j + 1] - breaks[j]) + (rest.min(breaks[j + 1]) - breaks[j]).max(0.0)
        })
        .collect();
    let overall = times.len() as f64 / window;
    let mut values = Vec::with_capacity(k);
    for j in 0..k {
        let denom = exposure[j] + smoothing;
        if denom <= 0.0 {
            return Err(Error::invalid(format!(
                "piece {j} [{}, {}) is never observed in the window; use smoothing > 0",
                Num(breaks[j]),
                Num(breaks[j + 1])
            )));
        }
        values.push((count[j] + smoothing * overall) / denom);
    }
    PiecewiseConstant::new(breaks, &values, periodic)
}

impl Profile {
    /// A sample trace of the non-homogeneous Poisson update process on
    /// `[0, T]` (seeded): arrivals of a unit-rate process on the Λ scale
    /// mapped back through P⁻¹. Sorted. At most `max_updates` (TooLarge
    /// beyond, so a huge intensity cannot exhaust memory).
    pub fn sample_updates(&self, seed: u64, max_updates: usize) -> Result<Vec<f64>> {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let total = self.p[self.p.len() - 1];
        let mut out = Vec::new();
        let mut u = 0.0;
        let mut k = 0;
        loop {
            // Exp(1) by inversion; 1 − U ∈ (0, 1] keeps ln finite.
            let e: f64 = -(1.0 - rng.random::<f64>()).ln();
            u += e;
            if u >= total {
                return Ok(out);
            }
            while self.p[k + 1] < u {
                k += 1;
            }
            // λ_k > 0 here: P strictly increases across the piece holding u.
            let x = self.b[k] + (u - self.p[k]) / self.lam[k];
            out.push(x.min(self.horizon));
            if out.len() > max_updates {
                return Err(Error::TooLarge(format!(
                    "more than {max_updates} updates in the trace"
                )));
            }
        }
    }
}
