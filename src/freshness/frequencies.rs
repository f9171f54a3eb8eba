//! Access frequencies and the lower bound of Section 3 (Coffman, Liu, Weber).
//!
//! For page i write q_i = μ_i E\[X\] and a_i = −ln h_i (so h_i = e^{−a_i}).
//! By Jensen, a_i ≤ q_i, with equality iff X is deterministic. The bound of
//! Theorem 3.3 for frequency f is
//!
//! r_i ≥ 1 − (f/q_i)(1 − h_i^{1/f}) = [(q_i − a_i) + a_i ψ(a_i/f)] / q_i,
//!
//! with ψ(s) = 1 − (1 − e^{−s})/s. The second form is used throughout: it
//! has no cancellation when r_i is small (slowly changing pages), and it is
//! exact to rounding for deterministic X, where q_i − a_i = 0.
//!
//! The optimal frequencies minimise the convex problem (7); the closed form
//! (10) holds when c_i ∝ μ_i (Theorem 3.4), otherwise the KKT system
//! (8)–(9) is solved by a one-dimensional root find on the multiplier.

pub use super::proportional::{proportional_frequencies, proportional_frequencies_into};

use super::par::fold_chunks;
use super::shard::{AnchorPages, CrossingWalk, MultiplierStep, canonical_pass};
use super::{Model, Scaled, check_frequencies};
use crate::error::{Error, Num, Result};
use crate::numeric::exact::{GRID_BITS, GridSum};
use crate::numeric::roots::newton_bisect;
use crate::numeric::special::{e1, psi};
use crate::validate;

/// The Jensen gap q − a = μE\[X\] + ln E\[e^{−μX}] ≥ 0 (clamped: rounding may
/// make the difference of the two slightly negative).
pub(crate) fn jensen_gap(q: f64, a: f64) -> f64 {
    (q - a).max(0.0)
}

/// (q_i, a_i) = (μ_i E\[X\], −ln h_i) for every page.
pub(crate) fn q_and_a(model: &Model) -> (Vec<f64>, Vec<f64>) {
    let e = model.mean_access();
    let q = model.change_rates().iter().map(|m| m * e).collect();
    let a = model.log_h().iter().map(|l| -l).collect();
    (q, a)
}

/// The per-page bound of Theorem 3.3 given q, a and f (f = 0 → 1).
fn even_spacing_rate(q: f64, a: f64, f: f64) -> f64 {
    if f <= 0.0 {
        // Never visited: out of date from its first change on, i.e. always.
        return 1.0;
    }
    // a/f may overflow to +∞ for a subnormal f; ψ(∞) = 1 gives r = 1, the right limit.
    ((jensen_gap(q, a) + a * psi(a / f)) / q).clamp(0.0, 1.0)
}

/// Theorem 3.3: the per-page lower bound on the obsolescence rate of any
/// accessing policy with access frequencies `f`,
/// r_i ≥ (1/E\[X\])(E\[X\] − f_i/μ_i + (f_i/μ_i) h_i^{1/f_i}).
///
/// It is attained by perfectly even spacing (every inter-access distance of
/// page i equal to 1/f_i), e.g. the plain round robin when all f_i = 1/N.
/// A page with f_i = 0 is never visited and has r_i = 1. h_i^{1/f_i} is
/// evaluated as exp(ln h_i / f_i), in the cancellation-free form
/// r_i = [(q_i − a_i) + a_i ψ(a_i/f_i)]/q_i of the module notes.
///
/// Errors: `InvalidArgument` unless `f` has one finite, non-negative entry
/// per page summing to 1.
pub fn obsolescence_lower_bound(model: &Model, f: &[f64]) -> Result<Vec<f64>> {
    check_frequencies(model.len(), f)?;
    let (q, a) = q_and_a(model);
    Ok(f.iter()
        .zip(q.iter().zip(&a))
        .map(|(&fi, (&qi, &ai))| even_spacing_rate(qi, ai, fi))
        .collect())
}

/// Σ c_i r_i with r_i from [`obsolescence_lower_bound`] (Theorem 3.3 and
/// eq. 4): the cost of perfectly even spacing at frequencies `f`, and a lower
/// bound on the cost (4) of every policy with those frequencies. It is the
/// objective of problem (7).
///
/// Errors: as [`obsolescence_lower_bound`].
pub fn cost(model: &Model, f: &[f64]) -> Result<f64> {
    let r = obsolescence_lower_bound(model, f)?;
    Ok(r.iter().zip(model.weights()).map(|(r, c)| r * c).sum())
}

/// The optimal access frequencies of problem (7): the frequencies that
/// minimise the Theorem 3.3 bound [`cost`].
///
/// With c_i ∝ μ_i this is the closed form (10) of Theorem 3.4,
/// f_i ∝ ln(1/h_i) (∝ μ_i when X is deterministic; ∝ ln(1 + μ_i E\[X\]) when
/// X is exponential). Otherwise it is [`optimal_frequencies_general`].
///
/// Errors: `NotConverged` only if the general root finder fails (not
/// expected for finite inputs).
pub fn optimal_frequencies(model: &Model) -> Result<Vec<f64>> {
    if model.is_proportional() {
        Ok(proportional_frequencies(model))
    } else {
        optimal_frequencies_general(model)
    }
}

/// [`optimal_frequencies`] written into `out` (one entry per page), the
/// same bits; `out` is unchanged on error. The closed form is written
/// there directly ([`proportional_frequencies_into`]); the general solve
/// is copied in after it succeeds.
///
/// Errors: `InvalidArgument` unless `out` has one entry per page;
/// `Numerical` if a frequency is not finite (not expected); as
/// [`optimal_frequencies`].
pub fn optimal_frequencies_into(model: &Model, out: &mut [f64]) -> Result<()> {
    if model.is_proportional() {
        return proportional_frequencies_into(model, out);
    }
    validate::same_len("change_rates", model.len(), "out", out.len())?;
    let f = optimal_frequencies_general(model)?;
    if let Some(x) = f.iter().find(|x| !x.is_finite()) {
        return Err(Error::Numerical(format!(
            "frequency is not finite ({})",
            Num(*x)
        )));
    }
    out.copy_from_slice(&f);
    Ok(())
}

/// The coefficients (−1)^n (n−1)/n!, n = 2..=21, of the series of
/// [`g_over_s2`] in powers s^{n−2}.
const G2_SERIES: [f64; 20] = {
    let mut c = [0.0; 20];
    let mut fact = 2.0;
    let mut n = 2;
    while n <= 21 {
        let sign = if n % 2 == 0 { 1.0 } else { -1.0 };
        c[n - 2] = sign * (n - 1) as f64 / fact;
        n += 1;
        fact *= n as f64;
    }
    c
};

/// g(e^{−s}) = 1 − (1 + s)e^{−s} with g(y) = 1 − y + y ln y of (8), divided
/// by s²; the series Σ_{n≥2} (−1)^n (n−1) s^{n−2}/n! avoids the
/// cancellation for small s (g ≈ s²/2).
pub(super) fn g_over_s2(s: f64) -> f64 {
    if s < 1.0 {
        // Horner in s⁴ over groups of four terms (a short dependency
        // chain); the first omitted term is below 1e−18 of the sum.
        let s2 = s * s;
        let s4 = s2 * s2;
        G2_SERIES.chunks_exact(4).rev().fold(0.0, |acc, c| {
            acc * s4 + ((c[0] + c[1] * s) + (c[2] + c[3] * s) * s2)
        })
    } else if s > 800.0 {
        // e^{−s} underflows; (1+s)e^{−s} is below the rounding of 1.
        1.0 / (s * s)
    } else {
        (1.0 - (1.0 + s) * (-s).exp()) / (s * s)
    }
}

/// Solves g(e^{−s}) = t for s > 0, given ln t < 0 and ln p, p = 1 − t,
/// each supplied by the caller as accurately as its parameterisation
/// allows; g(y) = 1 − y + y ln y is the bracket of (8) and y = h^{1/x} =
/// e^{−s}.
///
/// For t < 1/2 Newton runs on ln g in u = ln s (concave and increasing, so
/// iterates started at the lower bound s = √(2t) rise monotonically); for
/// t ≥ 1/2 on ln(1 − g) = ln(1 + s) − s = ln p (concave, decreasing,
/// started at an upper bound), which keeps s accurate when p is tiny.
pub(super) fn invert_g(ln_t: f64, ln_p: f64) -> Result<f64> {
    const LN_HALF: f64 = -std::f64::consts::LN_2;
    if ln_t < LN_HALF {
        // g(s) ≤ s²/2 gives s ≥ √(2t); g(1.7) > 1/2 bounds it above.
        let u_lo = 0.5 * (std::f64::consts::LN_2 + ln_t);
        let u_hi = 1.7_f64.ln();
        let u = newton_bisect(
            |u| {
                let s = u.exp();
                let g2 = g_over_s2(s);
                // d/du ln g(e^u) = s · s e^{−s} / g = e^{−s}/(g/s²)
                Ok((2.0 * u + g2.ln() - ln_t, (-s).exp() / g2))
            },
            u_lo,
            u_hi,
            u_lo,
            true,
            1e-15,
            0.0,
            200,
        )?;
        Ok(u.exp())
    } else {
        if ln_p == f64::NEG_INFINITY {
            return Ok(f64::INFINITY);
        }
        // (1+s)e^{−s} ≥ e^{−s} gives s ≥ −ln p; (1+s)e^{−s/2} ≤ 2e^{−1/2} < 1.22
        // gives s ≤ 2 ln(1.22/p); g(1.6) < 1/2 ≤ t gives s > 1.6.
        let lo = (-ln_p).max(1.6);
        let hi = 2.0 * (1.22_f64.ln() - ln_p);
        newton_bisect(
            |s| Ok((s.ln_1p() - s - ln_p, -s / (1.0 + s))),
            lo,
            hi,
            hi,
            false,
            0.0,
            0.0,
            200,
        )
    }
}

/// G(s_half) = 1/2 for G(s) = g(e^{−s}) = 1 − (1 + s)e^{−s}.
const S_HALF: f64 = 1.678_346_990_016_660_7;

/// Newton steps per inner solve before falling back to [`invert_g`]
/// (never reached in tests: the derivatives below are bounded away from 0
/// and ∞, so Newton converges from any start in a handful of steps).
const INNER_STEPS: usize = 60;

/// The `stop` of [`solve_g`] for roots to rounding.
pub(crate) const EXACT: f64 = 1e-8;

/// The `stop` of [`solve_g`] on a cold pass (no warm starts) far from the
/// multiplier: roots to about 1e−8, one Newton step fewer per page.
pub(crate) const COARSE: f64 = 1e-4;

/// The `stop` of [`solve_g`] on the first pass of the multiplier search,
/// far from the root: no Newton step when there is no `guess`, s and
/// d ln s/d ln t from [`low_start`]'s and [`high_start`]'s fits (to
/// 1e−10, far below the error of the local model built from that pass).
const ROUGH: f64 = f64::INFINITY;

/// Solves G(s) = t (see [`invert_g`]) by plain Newton from `guess` (a
/// previous root: one or two steps when the multiplier moved a little), or
/// from an O(1) approximation when `guess` is not usable. Returns s and
/// d ln s / d ln t. `ln_p` = ln(1 − t) is read only when t > 1/2.
///
/// t ≤ 1/2: Newton on φ(s) = ln G(s) − ln t, φ′ = e^{−s}/(s·G/s²), with
/// s φ′ ∈ [1, 2] on s ≤ S_HALF; φ is concave, so after at most one
/// overshoot (cut at s/4) the iterates rise monotonically. t > 1/2:
/// Newton on ψ(s) = ln(1 + s) − s − ln p with ψ′ = −s/(1 + s) ∈
/// [−1, −0.62] on s ≥ S_HALF. The bounded derivatives make the relative
/// error after a step of relative size δ at most about δ²: the loop stops
/// once δ ≤ `stop` ([`EXACT`]: 1e−8, leaving an error below 1e−16;
/// [`ROUGH`]: the start itself).
fn solve_g(ln_t: f64, ln_p: f64, guess: f64, stop: f64) -> Result<(f64, f64)> {
    const LN_HALF: f64 = -std::f64::consts::LN_2;
    if ln_t.is_nan() {
        return Err(Error::NotConverged("multiplier is NaN".into()));
    }
    if ln_t <= LN_HALF {
        if stop == ROUGH && guess == 0.0 {
            return Ok(low_start_dlns(ln_t));
        }
        let mut s = if guess > 0.0 && guess <= S_HALF {
            guess
        } else {
            low_start(ln_t)
        };
        for _ in 0..INNER_STEPS {
            let g2 = g_over_s2(s);
            let e = (-s).exp();
            // s² underflows below 1e−154.
            let ln_g = if s > 1e-150 {
                (s * s * g2).ln()
            } else {
                2.0 * s.ln() + g2.ln()
            };
            let step = (ln_g - ln_t) * s * g2 / e;
            if !step.is_finite() {
                break;
            }
            let next = (s - step).clamp(0.25 * s, S_HALF);
            if step.abs() <= stop * s {
                // d ln s/d ln t = G/(s G′) = (G/s²) e^{s}.
                return Ok((next, g2 / e));
            }
            s = next;
        }
    } else {
        if ln_p == f64::NEG_INFINITY {
            return Ok((f64::INFINITY, 0.0));
        }
        if stop == ROUGH && guess == 0.0 && ln_p >= -32.0 {
            let s = high_start(ln_p);
            return Ok((s, high_dlns(s, ln_t, ln_p)));
        }
        let mut s = if guess >= S_HALF && guess.is_finite() {
            guess
        } else {
            high_start(ln_p)
        };
        for _ in 0..INNER_STEPS {
            let step = (s.ln_1p() - s - ln_p) * (1.0 + s) / -s;
            if !step.is_finite() {
                break;
            }
            s = (s - step).max(S_HALF);
            if step.abs() <= stop * s {
                return Ok((s, high_dlns(s, ln_t, ln_p)));
            }
        }
    }
    let s = invert_g(ln_t, ln_p)?;
    let dlns = if s <= S_HALF {
        g_over_s2(s) * s.exp()
    } else {
        high_dlns(s, ln_t, ln_p)
    };
    Ok((s, dlns))
}

/// s/σ on σ = √(2t) ∈ [0, 1] (the root of G(s) = t ≤ 1/2) as a
/// polynomial in 2σ − 1, to 9e−11 relative: the Chebyshev fit of degree
/// 16 (s/σ is analytic there, its inverse series in σ starts
/// 1 + σ/3 + 11σ²/72 + 43σ³/540).
const LOW_START: [f64; 17] = [
    1.2187621354743496,
    0.2903860348933583,
    0.09920885429735377,
    0.03916465817966623,
    0.01670445373789096,
    0.007473730993432293,
    0.003454436338154638,
    0.0016421071515014874,
    0.0007938014653929214,
    0.00036426114648935163,
    0.000174390760561718,
    0.00013150756957827417,
    7.267203279922354e-05,
    -1.1226374591365536e-05,
    -9.77140952643346e-06,
    2.2421332370770776e-05,
    1.2522278780357773e-05,
];

/// The root s of (1 + s)e^{−s} = p as a function of τ = √(−2 ln p) (every
/// t has one: τ ≈ σ for small t, and s(τ) is analytic on τ ≥ 0) on
/// [√(2 ln 2), 4] and [4, 8] (t ≥ 1/2 and −ln p ≤ 32), Chebyshev fits of
/// degree 10 as polynomials in the interval's variable z ∈ [−1, 1], to
/// 2e−11 and 9e−13 relative.
const HIGH_START: [[f64; 11]; 2] = [
    [
        5.1704721811995,
        4.360020755488582,
        0.8905660360922909,
        0.01863434979060631,
        -0.0033523544971006216,
        0.000579160066948588,
        -9.158452291052565e-05,
        1.2260986901672595e-05,
        -1.0294062712841563e-06,
        -1.7252608393851113e-07,
        9.492751021693296e-08,
    ],
    [
        21.09536799350225,
        12.568845255776502,
        1.925345507235729,
        0.012347382906464623,
        -0.0021939584179181742,
        0.000398910942056729,
        -7.256053360112678e-05,
        1.2993613908427131e-05,
        -2.272177311393377e-06,
        4.057018178100301e-07,
        -6.308389465611578e-08,
    ],
];

/// τ = √(2 ln 2), where t = 1/2 and [`HIGH_START`] begins.
const TAU_HALF: f64 = 1.1774100225154747;

/// Σ c_k z^k.
fn horner(c: &[f64], z: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &ck| acc * z + ck)
}

/// The start of [`solve_g`]'s Newton for t ≤ 1/2 from ln t: s/σ,
/// σ = √(2t) ≤ 1, by [`LOW_START`] (to 1e−10: one step then meets the
/// `stop`).
pub(super) fn low_start(ln_t: f64) -> f64 {
    let sigma = (0.5 * (std::f64::consts::LN_2 + ln_t)).exp();
    (sigma * horner(&LOW_START, 2.0 * sigma - 1.0)).min(S_HALF)
}

/// [`low_start`] and d ln s/d ln t = (1 + σ (s/σ)′/(s/σ))/2 from the
/// derivative of the fit (s/σ as a polynomial in z = 2σ − 1).
pub(super) fn low_start_dlns(ln_t: f64) -> (f64, f64) {
    let sigma = (0.5 * (std::f64::consts::LN_2 + ln_t)).exp();
    let z = 2.0 * sigma - 1.0;
    let (p, dp) = LOW_START
        .iter()
        .rev()
        .fold((0.0, 0.0), |(p, dp), &c| (p * z + c, dp * z + p));
    let s = (sigma * p).min(S_HALF);
    (s, 0.5 * (1.0 + 2.0 * sigma * dp / p))
}

/// The start of [`solve_g`]'s Newton for t > 1/2 from ln p = ln(1 − t):
/// [`HIGH_START`] (then one step meets the `stop`), beyond −ln p = 32
/// one fixed-point step of s = −ln p + ln(1 + s) from s = −ln p.
pub(super) fn high_start(ln_p: f64) -> f64 {
    let tau = (-2.0 * ln_p).sqrt();
    if tau <= 4.0 {
        let z = (2.0 * tau - (TAU_HALF + 4.0)) / (4.0 - TAU_HALF);
        horner(&HIGH_START[0], z.max(-1.0)).max(S_HALF)
    } else if tau <= 8.0 {
        horner(&HIGH_START[1], 0.5 * tau - 3.0)
    } else {
        let s0 = -ln_p;
        s0 + s0.ln_1p()
    }
}

/// d ln s / d ln t = t(1 + s)/(s² p) on the branch t > 1/2.
fn high_dlns(s: f64, ln_t: f64, ln_p: f64) -> f64 {
    (1.0 + s) / (s * s) * (ln_t - ln_p).exp()
}

/// One page evaluated from no start at a multiplier: x_i, s_i and
/// d ln s_i/d ln t_i (0, ∞, 0 when not visited).
#[derive(Clone, Copy)]
pub(super) struct ColdPage {
    x: f64,
    s: f64,
    dl: f64,
}

/// The page with ln w_i and a_i at ln λ (absolute units): t_i =
/// e^{ln λ − ln w_i}, s_i by [`solve_g`] from no start, so the bits depend
/// on ln λ, ln w_i and a_i alone.
pub(super) fn cold_page(ln_lambda: f64, ln_w: f64, a: f64) -> Result<ColdPage> {
    const UNVISITED: ColdPage = ColdPage {
        x: 0.0,
        s: f64::INFINITY,
        dl: 0.0,
    };
    let ln_t = ln_lambda - ln_w;
    if ln_t.is_nan() || ln_t >= 0.0 {
        return Ok(UNVISITED);
    }
    let (s, dl) = solve_g(ln_t, ln_p_of(ln_t), 0.0, EXACT)?;
    Ok(if s.is_finite() {
        ColdPage {
            x: x_of(a, s, ln_t),
            s,
            dl,
        }
    } else {
        UNVISITED
    })
}

impl ColdPage {
    /// The page from values a [`GeneralPages::pass`] stored without warm
    /// starts at an anchor.
    pub(super) fn new(x: f64, s: f64, dl: f64) -> ColdPage {
        ColdPage { x, s, dl }
    }
}

/// The grid of the anchors of ln λ ([`anchor_of`]): 2^20 points per unit,
/// wide enough that the multiplier search's second pass, at the anchor of
/// its prediction, is nearly always at the final ln λ's anchor (the
/// prediction errs by ~1e−10), narrow enough that [`page_at`] steps from
/// it to rounding for all but the pages nearest their cutoff.
const ANCHORS_PER_UNIT: f64 = (1u64 << 20) as f64;

/// The anchor of ln λ: ln λ truncated toward zero to a multiple of 2^−20
/// (ln λ itself from |ln λ| ≥ 2^32, where it is one; ln λ − anchor is
/// exact: the bits of ln λ below 2^−20). Points that share an anchor share
/// each page's inner solve ([`page_at`]).
pub(super) fn anchor_of(ln_lambda: f64) -> f64 {
    if ln_lambda.abs() >= 4_294_967_296.0 {
        return ln_lambda;
    }
    // |ln λ · 2^20| < 2^52: the cast (and the sign of ln λ, for −0)
    // truncates toward zero exactly as f64::trunc, without its call on the
    // x86-64 baseline (no SSE4.1). NaN would cast to 0.
    if ln_lambda.is_nan() {
        return ln_lambda;
    }
    let scaled = ln_lambda * ANCHORS_PER_UNIT;
    (scaled as i64 as f64).copysign(scaled) / ANCHORS_PER_UNIT
}

/// Largest δ_i |d| (1 + s_i) at which [`page_at`] steps from the anchor
/// (the step's error is about its fourth power: 1e−16).
const STEP_MAX: f64 = 1e-4;

/// Page i's x_i and d ln s_i/d ln t_i at ln λ, given `at`, its
/// [`cold_page`] at [`anchor_of`]`(ln λ)`: the third-order step
/// ([`expanded_ratio`]) over d = ln λ − anchor, or where that is not
/// accurate to rounding (a page near its cutoff, or not visited at the
/// anchor) its own [`cold_page`]. A function of ln λ, ln w_i and a_i
/// alone: the plan of both [`optimal_frequencies_general`] and the shards.
#[inline]
pub(super) fn page_at(ln_lambda: f64, at: ColdPage, ln_w: f64, a: f64) -> Result<(f64, f64)> {
    let d = ln_lambda - anchor_of(ln_lambda);
    if d == 0.0 {
        return Ok((at.x, at.dl));
    }
    if at.x > 0.0 && at.dl * d.abs() * (1.0 + at.s) <= STEP_MAX {
        return Ok((at.x * expanded_ratio(at.dl, at.s, d), at.dl));
    }
    let own = cold_page(ln_lambda, ln_w, a)?;
    Ok((own.x, own.dl))
}

/// What one page contributes at a multiplier: ln t_i = ln(λ/w_i) and
/// ln p_i = ln(1 − t_i) (NaN allowed when t_i ≤ 1/2: not read there).
#[derive(Clone, Copy)]
pub(super) struct PagePoint {
    pub(super) ln_t: f64,
    pub(super) ln_p: f64,
}

/// ln(1 − t) from ln t < 0, computed only where [`solve_g`] reads it.
pub(super) fn ln_p_of(ln_t: f64) -> f64 {
    if ln_t > -std::f64::consts::LN_2 {
        (-ln_t.exp_m1()).ln()
    } else {
        f64::NAN
    }
}

/// The pages of the general solver: ln h_i (a_i = −ln h_i), the roots
/// s_i of the last evaluation (warm starts for the next; 0, no start,
/// before the first: zeroed memory is mapped lazily by the first pass's
/// threads), x_i = a_i/s_i
/// there and d ln s_i/d ln t_i (both 0 for pages not visited).
pub(super) struct GeneralPages<'a> {
    log_h: &'a [f64],
    pub(crate) s: Vec<f64>,
    pub(super) x: Vec<f64>,
    pub(crate) dlns: Vec<f64>,
}

impl<'a> GeneralPages<'a> {
    pub(super) fn new(log_h: &'a [f64]) -> Self {
        let n = log_h.len();
        GeneralPages {
            log_h,
            s: crate::pages::zeroed(n),
            x: crate::pages::zeroed(n),
            dlns: crate::pages::zeroed(n),
        }
    }

    /// Σ x_i and its derivative for the page points given by `point` (`None`:
    /// the page is not visited, x_i = 0) when every ln t_i moved by `d_ln_t`
    /// since the last evaluation; stores s, x and d ln s/d ln t: the inner Newton starts from the third-order
    /// prediction of s_i ([`expanded_ratio`]), so that one step usually
    /// suffices once the multiplier moves by less than about 1e−2. With a steep
    /// window (ln w, ℓ₀) the sums are also split as [`Local`] needs. `stop`:
    /// see [`solve_g`].
    pub(crate) fn pass<F>(
        &mut self,
        point: F,
        d_ln_t: f64,
        window: Option<(&[f64], f64, f64)>,
        stop: f64,
    ) -> Result<PassSums>
    where
        F: Fn(usize) -> Option<PagePoint> + Sync,
    {
        let log_h = self.log_h;
        let chunk = |pages: std::ops::Range<usize>, [s, x, dl]: [&mut [f64]; 3]| {
            let mut out = PassSums::default();
            for (k, i) in pages.enumerate() {
                let (mut xi, mut dli) = (0.0, 0.0);
                if let Some(p) = point(i) {
                    let guess = if d_ln_t.is_nan() {
                        0.0
                    } else if d_ln_t == 0.0 {
                        s[k]
                    } else {
                        s[k] / expanded_ratio(dl[k], s[k], d_ln_t)
                    };
                    let (si, dlns) = solve_g(p.ln_t, p.ln_p, guess, stop)?;
                    s[k] = si;
                    if si.is_finite() {
                        (xi, dli) = (x_of(-log_h[i], si, p.ln_t), dlns);
                    }
                }
                x[k] = xi;
                dl[k] = dli;
                out.sum += xi;
                out.dsum += xi * dli;
                if let Some((ln_w, ell0, width)) = window {
                    if (ln_w[i] - ell0).abs() < width {
                        out.steep.push(i);
                    } else if xi > 0.0 {
                        out.smooth += xi;
                        out.smooth_exact = out.smooth_exact.plus(GridSum::of(xi));
                        out.slope += xi * dli;
                        let (b, c) = expansion(dli, s[k]);
                        out.curv += xi * b;
                        out.cubic += xi * c;
                    }
                }
            }
            Ok(out)
        };
        fold_chunks(
            [&mut self.s, &mut self.x, &mut self.dlns],
            Ok(PassSums::default()),
            chunk,
            |acc: Result<PassSums>, part: Result<PassSums>| Ok(acc?.add(part?)),
        )
    }
}

/// The sums of one [`GeneralPages::pass`]: Σ x_i and Σ x_i d ln s_i/d ln t_i,
/// and with a steep window the same two and Σ x_i b_i, Σ x_i c_i
/// ([`expansion`]) over the pages outside it, and the pages inside
/// (ascending).
#[derive(Default)]
pub(crate) struct PassSums {
    sum: f64,
    dsum: f64,
    smooth: f64,
    smooth_exact: GridSum,
    slope: f64,
    curv: f64,
    cubic: f64,
    steep: Vec<usize>,
}

/// (b, c) in x(ℓ₀ + d)/x(ℓ₀) = 1 − δd + bd² + cd³ + O(d⁴), δ = d ln s/d ln t
/// at ℓ₀ (x = a/s). With u = ln t, dδ/du = δ₂ = δ(1 + δ(s − 2)) (from
/// δ = G/(sG′) and sG″/G′ = 1 − s) and ds/du = sδ, ln s moves by
/// E = δd + δ₂d²/2 + δ₃d³/6 with δ₃ = δ₂(1 + 2δ(s − 2)) + sδ³; e^{−E}
/// gives b = (δ² − δ₂)/2 and c = δδ₂/2 − δ³/6 − δ₃/6.
fn expansion(delta: f64, s: f64) -> (f64, f64) {
    let d2 = delta * (1.0 + delta * (s - 2.0));
    let d3 = d2 * (1.0 + 2.0 * delta * (s - 2.0)) + s * delta * delta * delta;
    let b = 0.5 * (delta * delta - d2);
    let c = 0.5 * delta * d2 - (delta * delta * delta + d3) / 6.0;
    (b, c)
}

/// x(ℓ₀ + d)/x(ℓ₀) to third order ([`expansion`]), ≥ 0.
fn expanded_ratio(delta: f64, s: f64, d: f64) -> f64 {
    let (b, c) = expansion(delta, s);
    (1.0 - (delta - (b + c * d) * d) * d).max(0.0)
}

impl PassSums {
    /// The sums of two consecutive runs of pages.
    fn add(mut self, o: PassSums) -> PassSums {
        self.sum += o.sum;
        self.dsum += o.dsum;
        self.smooth += o.smooth;
        self.smooth_exact = self.smooth_exact.plus(o.smooth_exact);
        self.slope += o.slope;
        self.curv += o.curv;
        self.cubic += o.cubic;
        self.steep.extend(o.steep);
        self
    }
}

/// x_i = a_i/s_i, s_i the root of G(s) = t_i at ln t_i = `ln_t`; through
/// logs when a_i is subnormal or the quotient overflows. Below the normal
/// range s_i has lost precision (to none at all when it underflows), so
/// there ln s_i = (ln 2 + ln t_i)/2 from G(s) = s²/2 (1 − 2s/3 + …), exact
/// to rounding for s < 1e−300.
pub(super) fn x_of(ai: f64, si: f64, ln_t: f64) -> f64 {
    if si < f64::MIN_POSITIVE {
        return (ai.ln() - 0.5 * (std::f64::consts::LN_2 + ln_t)).exp();
    }
    let xi = ai / si;
    if xi.is_finite() && xi >= f64::MIN_POSITIVE {
        xi
    } else {
        (ai.ln() - si.ln()).exp()
    }
}

/// Bytes [`optimal_frequencies_general`] holds per page (four arrays of
/// 8 bytes, two more during the final walk, three more instead when ties
/// at a cutoff share the residual mass),
/// checked against the process-wide memory cap.
pub const GENERAL_BYTES_PER_PAGE: u128 = 64;

/// Optimal frequencies of problem (7) for arbitrary positive weights, from
/// the KKT form of the Lagrange conditions (8)–(9).
///
/// With w_i = c_i/(μ_i E\[X\]) and y_i = h_i^{1/x_i} = e^{−s_i}, s_i = a_i/x_i,
/// (8) reads w_i g(y_i) = λ with g(y) = 1 − y + y ln y, which decreases from
/// 1 to 0 on (0, 1). So for λ < w_i, s_i = g⁻¹(λ/w_i) and x_i = a_i/s_i; for
/// λ ≥ w_i the derivative of page i's term is ≥ 0 at x_i = 0 and the KKT
/// conditions give x_i = 0 (the page is never visited). Σ x_i(λ) decreases
/// from ∞ to 0 as λ rises to max w_i; the outer root find fixes (9):
/// safeguarded Newton on ln Σ x_i against ln λ (nearly linear) until the
/// step is small, then Newton on a local model that evaluates the few
/// pages near their cutoff exactly and the others to first order
/// ([`Local`]), so that those pages' unbounded slope does not stall it.
///
/// The weights are handled as ln(w_i / max w) computed from exact
/// mantissa/exponent pairs ([`Scaled`]), so any finite positive c_i, μ_i
/// and E\[X\] work, even when w_i itself over- or underflows. Cost O(N) per
/// outer iteration (a handful): each inner inversion is Newton from the
/// previous iteration's root ([`solve_g`]), usually one or two steps. Large
/// models are evaluated on up to four threads in fixed
/// chunks, with the same result for any thread count.
///
/// The plan is the shards' ([`super::shard`]): the multiplier is the
/// smallest double ln λ in absolute units at which the exact Σ x ≤ 1, and
/// every page is evaluated there from ln λ, ln w_i and a_i alone
/// ([`canonical_plan`]), not rescaled; a sharded solve gives the same bits
/// however the pages are split. Only when that plan sums to less than
/// 1 − 1e−14 is the multiplier refined between doubles, as follows.
///
/// A page that changes many times between its visits (s_i ≳ 30) has
/// 1 − λ/w_i ≈ (1 + s_i)e^{−s_i} below the resolution of ln λ; when λ ends
/// within 1e−5 of some w_c the root is therefore polished in the variable
/// v = 1 − λ/w_c (searched as ln v), in which every 1 − λ/w_i of the pages
/// near the cutoff is computed without cancellation, resolving s_i up to
/// ~700. Beyond that (v below 2^{−1022}) λ = w_c to every digit, the pages
/// with w_i = w_c are linear in x to within e^{−700}, and they take the
/// residual mass 1 − Σ_{others} x_i (split ∝ a_i, i.e. equal s_i as (8)
/// requires).
///
/// Errors: `TooLarge` beyond the memory cap, `NotConverged` if a root find
/// fails.
pub fn optimal_frequencies_general(model: &Model) -> Result<Vec<f64>> {
    let n = model.len();
    if n == 1 {
        return Ok(vec![1.0]);
    }
    crate::limits::check_memory(
        crate::limits::bytes(n, GENERAL_BYTES_PER_PAGE),
        &format!("the general-weights optimum of {n} pages"),
    )?;
    let mut ln_w = crate::pages::zeroed(n);
    let (lo, x0, wmax, root_sum) = multiplier_start(model, &mut ln_w);
    let x0 = sample_start(model, &ln_w, (lo, x0), root_sum)?;
    let mut pages = GeneralPages::new(model.log_h());
    let ln_wmax = wmax.ln_ratio(Scaled::new(1.0));
    let canon = (model, ln_wmax);
    let (ell, mut local, anchor) = solve_multiplier_local(&mut pages, &ln_w, canon, (lo, x0))?;
    let steep = anchor.map(|a| steep_plan(model, &local, &pages, a));
    let start = predicted_multiplier(&mut local, ell, ln_wmax, steep)?;
    let known = anchor.map(|a| (a, [&pages.x[..], &pages.s[..], &pages.dlns[..]]));
    // ln w is not read past here: its pages, already mapped, take the plan.
    if !certainly_short(&start)
        && let Some(x) = canonical_plan(model, start, known, ln_w)?
    {
        return Ok(x);
    }
    let at_a = local.eval_at_ell(ell)?;
    let (mut d_ell, sum_a) = local.sub_ulp_step(ell - local.ell0, at_a);
    if let Some((c, p_c)) = local.cutoff_page(model, ell) {
        let x_a = local.x.clone();
        let (tb, d_b) = local.polish_near_cutoff(model, c, p_c)?;
        // The polish evaluates the steep pages exactly; the sub-ulp step
        // only to first order, which a page nearer its cutoff than the
        // step (1 − t_c ≪ |d|) defeats while its sum looks right. So the
        // polish is kept whenever its own sum is within the plan's tolerance.
        let off_b = (tb - 1.0).abs();
        let keep_b =
            tb.is_finite() && tb > 0.0 && (off_b <= (sum_a - 1.0).abs() || off_b <= PLAN_SUM_TOL);
        // Even v = 2^{−1022} leaves Σ x > 1: the polish ended at λ = w_c.
        let tied = tb > 1.0 + 1e-12 && local.split_residual_among_ties(model, d_b);
        if keep_b || tied {
            d_ell = d_b;
        } else {
            local.x = x_a;
        }
    }
    local.apply(&mut pages, d_ell);
    finish(pages.x)
}

/// w_i = c_i/(μ_i E\[X\]) as an f64 when it equals
/// [`Model::scaled_weight`] to the bit: both round the same exact product
/// and quotient once, so they agree whenever μ_i E\[X\] and w_i are normal.
/// None otherwise (the caller then takes the [`Scaled`] path).
fn plain_weight(model: &Model, i: usize) -> Option<f64> {
    let q = model.change_rates()[i] * model.mean_access();
    let w = model.weights()[i] / q;
    (q.is_normal() && w.is_normal()).then_some(w)
}

/// The largest [`Model::scaled_weight`], found on [`fold_chunks`]'s
/// threads (`buf`, one entry per page, is not written); compared as
/// f64s where [`plain_weight`] gives them.
fn max_scaled_weight(model: &Model, buf: &mut [f64]) -> Scaled {
    let larger = |x: Scaled, y: Scaled| if y.cmp(x).is_gt() { y } else { x };
    fold_chunks(
        [buf],
        model.scaled_weight(0),
        |pages, _| {
            let (mut plain, mut other) = (0.0_f64, model.scaled_weight(pages.start));
            for i in pages {
                match plain_weight(model, i) {
                    Some(w) => plain = plain.max(w),
                    None => other = larger(other, model.scaled_weight(i)),
                }
            }
            if plain > 0.0 {
                larger(other, Scaled::new(plain))
            } else {
                other
            }
        },
        larger,
    )
}

/// ln(w_i / `wmax`) as [`Scaled::ln_ratio`] computes it, through
/// [`plain_weight`] and `wmax_f64` (= wmax as an f64, NaN when it is not
/// normal) when the ratio is at least 2^−999 (then both paths round the
/// same quotient once and take its ln).
fn ln_weight_ratio(model: &Model, i: usize, wmax: Scaled, wmax_f64: f64) -> f64 {
    // 2^−999, from its bits.
    const MIN_RATIO: f64 = f64::from_bits((1023 - 999) << 52);
    if let Some(w) = plain_weight(model, i) {
        let r = w / wmax_f64;
        if r >= MIN_RATIO {
            return r.ln();
        }
    }
    model.scaled_weight(i).ln_ratio(wmax)
}

/// The bracket and start of the multiplier search, ℓ = ln(λ / max w):
/// (lo, x0), and max w. Fills `ln_w` with ln(w_i / max w) ≤ 0 on the way.
///
/// At ℓ = 0 every t_i ≥ 1, so Σ x = 0. With A = Σ a_i and
/// ℓ_lo = ln(min w / max w) + ln G(A): every t_i ≤ G(A), so s_i ≤ A and
/// x_i ≥ a_i/A, Σ x ≥ 1. The small-s start: s_i ≈ √(2λ/w_i) gives
/// λ = (Σ a_i √w_i)²/2.
fn multiplier_start(model: &Model, ln_w: &mut [f64]) -> (f64, f64, Scaled, f64) {
    let wmax = max_scaled_weight(model, ln_w);
    let wmax_f64 = Some(wmax.value())
        .filter(|w| w.is_normal())
        .unwrap_or(f64::NAN);
    let log_h = model.log_h();
    // (Σ a_i, min ln w_i, Σ a_i √(w_i/max w)) per chunk.
    let (big_a, ln_wmin, root_sum) = fold_chunks(
        [ln_w],
        (0.0, 0.0_f64, 0.0),
        |pages, [lw]| {
            let (mut sa, mut mn, mut sr) = (0.0, 0.0_f64, 0.0);
            for (k, i) in pages.enumerate() {
                let l = ln_weight_ratio(model, i, wmax, wmax_f64);
                lw[k] = l;
                sa += -log_h[i];
                mn = mn.min(l);
                sr += -log_h[i] * (0.5 * l).exp();
            }
            (sa, mn, sr)
        },
        |a, b| (a.0 + b.0, a.1.min(b.1), a.2 + b.2),
    );
    let big_a = big_a.min(f64::MAX);
    let ln_g_a = if big_a < 1.0 {
        2.0 * big_a.ln() + g_over_s2(big_a).ln()
    } else {
        (-(big_a.ln_1p() - big_a).exp()).ln_1p()
    };
    let lo = ln_wmin + ln_g_a;
    let guess = 2.0 * root_sum.ln() - std::f64::consts::LN_2;
    let x0 = if guess > lo && guess < 0.0 {
        guess
    } else {
        0.5 * lo
    };
    (lo, x0, wmax, root_sum)
}

/// ln w_i in absolute units (w_i = c_i/(μ_i E\[X\])), as
/// [`Scaled::ln_ratio`] against 1 gives it: the ln of the f64 weight when
/// [`plain_weight`] gives it within 2^±1000.
pub(super) fn ln_weight(model: &Model, i: usize) -> f64 {
    // 2^−1000 and 2^1001, from their bits.
    const LOW: f64 = f64::from_bits((1023 - 1000) << 52);
    const HIGH: f64 = f64::from_bits((1023 + 1001) << 52);
    match plain_weight(model, i) {
        Some(w) if (LOW..HIGH).contains(&w) => w.ln(),
        _ => model.scaled_weight(i).ln_ratio(Scaled::new(1.0)),
    }
}

/// How far below 1 the sum of a plan evaluated at a double multiplier
/// may be: more when one ulp of ln λ moves Σ x by more (|ln λ| beyond
/// ~50, or a page so near its cutoff that its x_i jumps between adjacent
/// doubles), and then the multiplier is refined between doubles.
const PLAN_SUM_TOL: f64 = 1e-14;

/// The plan as the shards compute it: every page by [`page_at`] at the
/// ln λ where [`CrossingWalk`] ends (the smallest double at which the
/// exact Σ x ≤ 1), walking from `start`'s prediction, so that when it is
/// right the walk's evaluations are those of the first pass, which also
/// keeps the plan. When the model's sum at the prediction or one double
/// below it is within the model's error of 1, that pass takes the
/// double on the other side too. None when that plan sums to less than
/// 1 − [`PLAN_SUM_TOL`]. `scratch` (one entry per page, any values)
/// takes the first evaluation.
fn canonical_plan(
    model: &Model,
    (start, ([over, under_by], slack)): Prediction,
    known: Option<AnchorPages>,
    mut scratch: Vec<f64>,
) -> Result<Option<Vec<f64>>> {
    let n = model.len();
    let log_h = model.log_h();
    let ln_w = |i: usize| ln_weight(model, i);
    // The plan at `x_at` in `x`; `scratch` holds the plan at `scratch_at`.
    let mut x = crate::pages::zeroed(n);
    let below = adjacent(start, false);
    // The walk's first points when the prediction is right (or off by
    // the double the model cannot rule out), in one pass (one inner solve
    // per page when they share an anchor).
    let mid = if -under_by <= slack {
        Some(start)
    } else if over <= slack {
        Some(below)
    } else {
        None
    };
    let (first, mut x_at, mut scratch_at, mut seen) = match mid {
        Some(m) => {
            let (lo, hi) = (adjacent(m, false), adjacent(m, true));
            let sums = canonical_pass([lo, m, hi], ln_w, log_h, known, [&mut x, &mut scratch])?;
            let seen = [lo, m, hi].into_iter().zip(sums.map(|s| s.exact));
            (m, Some(m), Some(hi), seen.collect::<Vec<_>>())
        }
        None => {
            let sums = canonical_pass([below, start], ln_w, log_h, known, [&mut scratch])?;
            let seen = [below, start].into_iter().zip(sums.map(|s| s.exact));
            (below, None, Some(start), seen.collect())
        }
    };
    let mut walk = CrossingWalk::new(first);
    let mut under: Option<(f64, GridSum)> = None;
    let ln_lambda = loop {
        let l = match walk.next()? {
            MultiplierStep::Evaluate(l) => l,
            MultiplierStep::Done(l) => break l,
        };
        let exact = match seen.iter().find(|(p, _)| p.to_bits() == l.to_bits()) {
            Some(&(_, exact)) => exact,
            None => {
                scratch_at = Some(l);
                let [sums] = canonical_pass([l], ln_w, log_h, known, [&mut scratch])?;
                seen.push((l, sums.exact));
                sums.exact
            }
        };
        walk.update(exact)?;
        if exact <= GridSum::ONE && under.is_none_or(|(u, _)| l < u) {
            under = Some((l, exact));
            if scratch_at == Some(l) {
                std::mem::swap(&mut x, &mut scratch);
                (x_at, scratch_at) = (scratch_at, x_at);
            }
        }
    };
    drop(scratch);
    // The walk ends at its smallest point with Σ ≤ 1.
    if x_at != Some(ln_lambda) {
        canonical_pass([ln_lambda], ln_w, log_h, known, [&mut x])?;
    }
    let exact = match under {
        Some((u, exact)) if u.to_bits() == ln_lambda.to_bits() => exact,
        _ => return Ok(None),
    };
    Ok((1.0 - exact.to_f64() <= PLAN_SUM_TOL).then_some(x))
}

/// The neighbouring double of a finite `x`, above it when `up` (as
/// f64::next_up/next_down, which need a newer Rust than the crate's).
fn adjacent(x: f64, up: bool) -> f64 {
    if x == 0.0 {
        let tiny = f64::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let bits = x.to_bits();
    // Away from zero is one more in the magnitude's bits.
    if (x > 0.0) == up {
        f64::from_bits(bits + 1)
    } else {
        f64::from_bits(bits - 1)
    }
}

/// Most doubles [`predicted_multiplier`] walks from its start.
const WALK: usize = 64;

/// The multiplier predicted as a double in absolute units: the smallest
/// double ln λ at which the [`Local`] model's Σ x (at ℓ = ln λ − ln max w)
/// is at most 1, searched from ℓ + ln max w over [`WALK`] doubles (that
/// start, with no margins, when the search fails). Returns it and the
/// model's Σ x − 1 one double below it (> 0) and at it (≤ 0), and the
/// larger of the model's errors there: [`PLAN_MODEL_SLACK`] where `steep`
/// (the steep pages at the pass's anchor) evaluates the steep pages as the
/// plan does, [`MODEL_SLACK`] elsewhere.
fn predicted_multiplier(
    local: &mut Local,
    ell: f64,
    ln_wmax: f64,
    steep: Option<SteepPlan>,
) -> Result<Prediction> {
    let mut excess = |ln_lambda: f64| -> Result<(f64, f64)> {
        let Some((anchor, pages)) = steep
            .as_ref()
            .filter(|(a, _)| a.to_bits() == anchor_of(ln_lambda).to_bits())
        else {
            return Ok((local.excess_at_ell(ln_lambda - ln_wmax)?, MODEL_SLACK));
        };
        // The other pages at the anchor, where ℓ₀ is: ln λ − anchor is exact.
        let mut sum = local.smooth_exact;
        for &(cold, ln_w, a) in pages {
            sum = sum.plus(GridSum::of(page_at(ln_lambda, cold, ln_w, a)?.0));
        }
        let excess = excess_over_one(sum) + local.smooth_change(ln_lambda - anchor);
        Ok((excess, PLAN_MODEL_SLACK))
    };
    let start = ell + ln_wmax;
    let mut at = (start, excess(start)?);
    for _ in 0..WALK {
        let up = at.1.0 > 0.0;
        let next = adjacent(at.0, up);
        let e = excess(next)?;
        let pair = |(o, so): (f64, f64), (u, su): (f64, f64)| ([o, u], so.max(su));
        match (up, e.0 > 0.0) {
            (false, true) => return Ok((at.0, pair(e, at.1))),
            (true, false) => return Ok((next, pair(at.1, e))),
            _ => at = (next, e),
        }
    }
    Ok((start, ([f64::NAN; 2], MODEL_SLACK)))
}

/// `sum` − 1 as an f64, rounded once (the integer difference of grid units).
fn excess_over_one(sum: GridSum) -> f64 {
    let (hi, lo) = sum.words();
    let units = ((u128::from(hi) << 64) | u128::from(lo)) as i128 - (1i128 << GRID_BITS);
    // 2^−GRID_BITS, exact.
    let unit = f64::from_bits(u64::from(1023 - GRID_BITS) << 52);
    units as f64 * unit
}

/// The [`Local`] model's steep pages as the plan evaluates them at ln λ
/// in one anchor: that anchor, and each page's [`cold_page`] there, ln w_i
/// (absolute units) and a_i. With it the model's sum differs from the
/// plan's only by the rounding of the other pages' third-order steps.
type SteepPlan = (f64, Vec<(ColdPage, f64, f64)>);

/// [`SteepPlan`] of `local` at `anchor` (`pages` holds its cold pages).
fn steep_plan(model: &Model, local: &Local, pages: &GeneralPages, anchor: f64) -> SteepPlan {
    let steep = local.idx.iter().map(|&i| {
        let cold = ColdPage::new(pages.x[i], pages.s[i], pages.dlns[i]);
        (cold, ln_weight(model, i), -pages.log_h[i])
    });
    (anchor, steep.collect())
}

/// A predicted multiplier, the model's Σ x − 1 one double below it and
/// at it, and the model's error there ([`predicted_multiplier`]).
type Prediction = (f64, ([f64; 2], f64));

/// True when the [`Prediction`] is certainly the plan's multiplier and
/// the plan there sums to less than 1 − [`PLAN_SUM_TOL`]: the plan's
/// pass would decide nothing ([`canonical_plan`] would return None).
fn certainly_short((_, ([over, under_by], slack)): &Prediction) -> bool {
    *over > *slack && *under_by < -(PLAN_SUM_TOL + 2.0 * slack)
}

/// How far from 1 the [`Local`] model's Σ x at a double may be while the
/// exact Σ x of the plan there is on the other side of 1 (measured: up
/// to 9e−17 at 10^7 pages, in either direction: the steep pages' ln t_i
/// round differently from the plan's, and their x_i have large slopes).
const MODEL_SLACK: f64 = 2e-16;

/// [`MODEL_SLACK`] when the steep pages are evaluated as the plan does
/// ([`SteepPlan`]): the other pages' third-order steps, rounded per page
/// in the plan, are then all that differs (measured: up to 1e−19 at 10^7
/// pages; their random sum grows as √n).
const PLAN_MODEL_SLACK: f64 = 1e-17;

/// Most pages in the sample of [`sample_start`].
const SAMPLE: usize = 1 << 17;

/// Fewest pages in the sample of [`sample_start`] (a model has at least
/// 8 times as many to be sampled).
const SAMPLE_MIN: usize = 1 << 14;

/// A start for the multiplier within about 1/√m of the root: the
/// multiplier of every (n/m)-th page, m = min(SAMPLE, n/8), with the
/// budget the sample's share of `root_sum` = Σ a_i √(w_i/max w) (the
/// small-s approximation of Σ x_i up to a common factor: a ratio
/// estimator, less noisy than m/n) and a handful of cheap evaluations
/// instead of full ones. `x0` itself for smaller models.
fn sample_start(model: &Model, ln_w: &[f64], (lo, x0): (f64, f64), root_sum: f64) -> Result<f64> {
    let n = ln_w.len();
    if n < 8 * SAMPLE_MIN {
        return Ok(x0);
    }
    let stride = (n / SAMPLE).max(8);
    let pick = |v: &[f64]| -> Vec<f64> { v.iter().step_by(stride).copied().collect() };
    let (log_h, sub_ln_w) = (pick(model.log_h()), pick(ln_w));
    let mut sub = GeneralPages::new(&log_h);
    let sub_root_sum: f64 = log_h
        .iter()
        .zip(&sub_ln_w)
        .map(|(l, w)| -l * (0.5 * w).exp())
        .sum();
    let share = sub_root_sum / root_sum;
    let ln_budget = if share > 0.0 && share < 1.0 {
        share.ln()
    } else {
        (log_h.len() as f64 / n as f64).ln()
    };
    // The sample's root may lie outside the full model's bracket.
    let ell = solve_multiplier(&mut sub, &sub_ln_w, (lo - 1.0, x0), ln_budget)?;
    Ok(ell.clamp(lo, 0.0))
}

/// The page points at ℓ: t_i = e^{ℓ − ln w_i}, visited while t_i < 1.
fn at_ell(ell: f64, ln_w: &[f64]) -> impl Fn(usize) -> Option<PagePoint> + Sync + '_ {
    move |i: usize| {
        let ln_t = ell - ln_w[i];
        (ln_t < 0.0).then(|| PagePoint {
            ln_t,
            ln_p: ln_p_of(ln_t),
        })
    }
}

/// ℓ = ln(λ / max w) with Σ x_i = e^{ln_budget} to about 1e−7 (the
/// sample of [`sample_start`] is itself only that close), by safeguarded
/// Newton on ln Σ x against ℓ.
fn solve_multiplier(
    pages: &mut GeneralPages,
    ln_w: &[f64],
    (lo, x0): (f64, f64),
    ln_budget: f64,
) -> Result<f64> {
    let mut last = f64::NAN;
    newton_bisect(
        |ell| {
            let moved = if last.is_nan() { 0.0 } else { ell - last };
            let sums = pages.pass(at_ell(ell, ln_w), moved, None, COARSE)?;
            last = ell;
            Ok((sums.sum.ln() - ln_budget, -sums.dsum / sums.sum))
        },
        lo,
        0.0,
        x0,
        false,
        1e-7,
        1e-7,
        500,
    )
}

/// Half-width of the window of ℓ in which [`Local`] treats a page as near
/// its cutoff (|ln w_i − ℓ₀| < STEEP, i.e. 1 − t_i ≲ STEEP).
const STEEP: f64 = 1e-2;

/// STEEP on the first pass, typically ~4e−3 from the root (the sample's
/// error): the third-order step of a page just outside the window errs
/// by about (δ d)⁴ with δ ≈ 1/(s STEEP), so that a window 5 times wider
/// cuts the local model's error in the root (~5e−7 with STEEP) by ~5³,
/// and the prediction lands in the final ln λ's anchor. That pass's inner
/// solves are [`ROUGH`]: the model built from it is not final anyway.
const FIRST_STEEP: f64 = 5e-2;

/// A local root |ℓ − ℓ₀| ≤ ACCEPT is final: the third-order step of the
/// other pages (δ = d ln s/d ln t ≲ (1 + s)/(s² STEEP) < 20 there) then
/// errs by about (δ ACCEPT)⁴ < 1e−16 relative in x_i.
const ACCEPT: f64 = 1e-6;

/// Outer iterations (full passes) before giving up.
const OUTER_STEPS: usize = 200;

/// The multiplier: ℓ with Σ x_i(ℓ) = 1, and the [`Local`] model it is the
/// root of. Far from the root, safeguarded Newton on ln Σ against ℓ (a
/// bisection when a step leaves the bracket or the bracket fails to halve
/// in four passes); once the Newton step is below STEEP/2, each pass
/// builds a [`Local`] model and moves to its root (in the window
/// ℓ₀ ± STEEP/2): the pages near their cutoff, whose x_i has unbounded
/// slope (and in floating point jumps from about a_i/37 to 0), no longer
/// make Newton oscillate around the root. `pages` holds x at ℓ₀.
fn solve_multiplier_local(
    pages: &mut GeneralPages,
    ln_w: &[f64],
    (model, ln_wmax): (&Model, f64),
    (mut lo, x0): (f64, f64),
) -> Result<(f64, Local, Option<f64>)> {
    let mut hi = 0.0_f64;
    let mut ell = if x0 > lo && x0 < hi { x0 } else { 0.5 * lo };
    let mut width_ref = hi - lo;
    let mut last = f64::NAN;
    for it in 0..OUTER_STEPS {
        // The first pass has no warm starts; the others evaluate every
        // page as the plan does ([`cold_page`] at the anchor of ln λ), so
        // that the final walk can reuse the last. Every pass solves to
        // rounding (from [`solve_g`]'s start that is one Newton step), so
        // that the second pass's point lands in the final ln λ's anchor.
        let first = last.is_nan();
        // (Not when the anchor leaves the bracket or repeats a point.)
        let anchor = anchor_of(ell + ln_wmax);
        let snapped = anchor - ln_wmax;
        let anchored =
            !first && anchor.is_finite() && snapped > lo && snapped < hi && snapped != last;
        if anchored {
            ell = snapped;
        }
        let moved = match (anchored, first) {
            (true, _) => f64::NAN,
            (false, true) => 0.0,
            (false, false) => ell - last,
        };
        let point = |i: usize| {
            let ln_t = if anchored {
                anchor - ln_weight(model, i)
            } else {
                ell - ln_w[i]
            };
            (ln_t < 0.0).then(|| PagePoint {
                ln_t,
                ln_p: ln_p_of(ln_t),
            })
        };
        // The first pass only predicts the root ([`FIRST_STEEP`]).
        let (width, stop) = if first {
            (FIRST_STEEP, ROUGH)
        } else {
            (STEEP, EXACT)
        };
        let sums = pages.pass(point, moved, Some((ln_w, ell, width)), stop)?;
        let anchor = anchored.then_some(anchor);
        let (sum, dsum) = (sums.sum, sums.dsum);
        last = ell;
        if sum.is_nan() {
            return Err(Error::NotConverged(format!(
                "Σ x is NaN at ℓ = {}",
                crate::error::Num(ell)
            )));
        }
        if sum > 1.0 {
            lo = ell;
        } else {
            hi = ell;
        }
        let tol = (4.0 * f64::EPSILON * ell.abs()).max(1e-15);
        if hi - lo <= tol {
            // Only rounding (or an underflowing Σ x) is left. The model
            // must hold x to rounding: a first pass (ROUGH, ~1e−10) is
            // redone in place (the bracket's end can be the root when one
            // page holds nearly all of Σ a_i).
            let sums = if stop == ROUGH {
                pages.pass(point, 0.0, Some((ln_w, ell, width)), EXACT)?
            } else {
                sums
            };
            return Ok((ell, Local::new(pages, ln_w, (ell, width), sums), anchor));
        }
        // d ln Σ/dℓ = −dsum/Σ.
        let step = sum.ln() * sum / dsum;
        if step.abs() < 0.5 * width {
            let mut local = Local::new(pages, ln_w, (ell, width), sums);
            let (a, b) = (lo.max(ell - 0.5 * width), hi.min(ell + 0.5 * width));
            let next = local.root(a, b)?;
            if (next - ell).abs() <= ACCEPT && !first {
                return Ok((next, local, anchor));
            }
            // A root pinned at the window's end (the Newton step was cut
            // short by a steep page) is not worth a pass: bisect instead.
            let pinned = (next == a && a > lo) || (next == b && b < hi);
            ell = if pinned { 0.5 * (lo + hi) } else { next };
            continue;
        }
        let stalled = it % 4 == 3 && hi - lo > 0.5 * width_ref;
        if it % 4 == 3 {
            width_ref = hi - lo;
        }
        let cand = ell + step;
        ell = if !stalled && cand > lo && cand < hi {
            cand
        } else {
            0.5 * (lo + hi)
        };
    }
    Err(Error::NotConverged(format!(
        "the multiplier did not converge in {OUTER_STEPS} passes"
    )))
}

/// The multiplier equation Σ x_i = 1 near ℓ₀ (the last full evaluation):
/// the steep pages (|ln w_i − ℓ₀| < STEEP) evaluated exactly, the others
/// to third order, x_i(1 − δ_i d + b_i d² + c_i d³), d = ℓ − ℓ₀
/// ([`expansion`]).
struct Local {
    ell0: f64,
    /// The half-width of the window of steep pages (|ln w_i − ℓ₀| < width).
    width: f64,
    /// Σ x_i (also exactly), Σ x_i δ_i, Σ x_i b_i and Σ x_i c_i over the
    /// other pages at ℓ₀.
    smooth: f64,
    smooth_exact: GridSum,
    slope: f64,
    curv: f64,
    cubic: f64,
    /// The steep pages (ascending), their ln w_i, a_i, and at the last
    /// evaluation s_i, x_i and d ln s_i/d ln t_i.
    idx: Vec<usize>,
    ln_w: Vec<f64>,
    a: Vec<f64>,
    s: Vec<f64>,
    x: Vec<f64>,
    dl: Vec<f64>,
    /// The cutoff page of [`Local::polish_near_cutoff`] (its weight).
    wc: Option<Scaled>,
}

impl Local {
    /// The model at ℓ₀ from the pass there (held by `pages`, its sums
    /// split by the window at ℓ₀).
    fn new(pages: &GeneralPages, ln_w: &[f64], (ell0, width): (f64, f64), sums: PassSums) -> Local {
        let PassSums {
            smooth,
            smooth_exact,
            slope,
            curv,
            cubic,
            steep: idx,
            ..
        } = sums;
        let log_h = pages.log_h;
        Local {
            ell0,
            width,
            smooth,
            smooth_exact,
            slope,
            curv,
            cubic,
            ln_w: idx.iter().map(|&i| ln_w[i]).collect(),
            a: idx.iter().map(|&i| -log_h[i]).collect(),
            s: idx.iter().map(|&i| pages.s[i]).collect(),
            x: vec![0.0; idx.len()],
            dl: vec![0.0; idx.len()],
            idx,
            wc: None,
        }
    }

    /// Σ x at ℓ₀ + `d_ell` with the steep pages at `point` (steep page
    /// number → its point), and Σ x_j d ln s_j/d ln t_j over the steep
    /// pages. Stores their s and x. The sums at ℓ₀ are exact
    /// ([`GridSum`]), so that the model predicts where the exact sum of
    /// the plan crosses 1 to about an ulp of ℓ.
    fn eval(
        &mut self,
        point: impl Fn(usize) -> Option<PagePoint>,
        d_ell: f64,
    ) -> Result<(f64, f64)> {
        let (sum, dsum) = self.eval_exact(point)?;
        Ok((sum.to_f64() + self.smooth_change(d_ell), dsum))
    }

    /// [`Local::eval`] with Σ x at ℓ₀ over the other pages plus the steep
    /// pages' x exactly (without the other pages' change).
    fn eval_exact(&mut self, point: impl Fn(usize) -> Option<PagePoint>) -> Result<(GridSum, f64)> {
        let (mut sum, mut dsum) = (self.smooth_exact, 0.0);
        for j in 0..self.idx.len() {
            self.x[j] = 0.0;
            self.dl[j] = 0.0;
            let Some(p) = point(j) else { continue };
            let (sj, dlns) = solve_g(p.ln_t, p.ln_p, self.s[j], EXACT)?;
            self.s[j] = sj;
            if sj.is_finite() {
                self.x[j] = x_of(self.a[j], sj, p.ln_t);
                self.dl[j] = dlns;
                sum = sum.plus(GridSum::of(self.x[j]));
                dsum += self.x[j] * dlns;
            }
        }
        Ok((sum, dsum))
    }

    /// The model's Σ x − 1 at ℓ, resolved below the rounding of 1 (the
    /// exact part's excess over 1 is exact to ~2^−80 before the change of
    /// the other pages is added).
    fn excess_at_ell(&mut self, ell: f64) -> Result<f64> {
        let ln_w = std::mem::take(&mut self.ln_w);
        let out = self.eval_exact(at_ell(ell, &ln_w));
        self.ln_w = ln_w;
        Ok(excess_over_one(out?.0) + self.smooth_change(ell - self.ell0))
    }

    /// Σ x over the other pages at ℓ₀ + `d_ell` and −d/dℓ of it.
    fn smooth_at(&self, d_ell: f64) -> f64 {
        self.smooth + self.smooth_change(d_ell)
    }

    /// [`Local::smooth_at`] minus its value at ℓ₀.
    fn smooth_change(&self, d_ell: f64) -> f64 {
        -(self.slope - (self.curv + self.cubic * d_ell) * d_ell) * d_ell
    }

    /// −d/dℓ of [`Local::smooth_at`].
    fn smooth_slope(&self, d_ell: f64) -> f64 {
        self.slope - (2.0 * self.curv + 3.0 * self.cubic * d_ell) * d_ell
    }

    /// The step of the multiplier that the rounding of ℓ leaves (Σ x may
    /// miss 1 by several ulps of ℓ times its slope) taken to first order
    /// on every page from the evaluation at ℓ₀ + `d_ell`, with
    /// (`sum`, `dsteep`) its result: each page stays on its KKT curve (8),
    /// which the plain rescaling of [`finish`] would not (it moves small-s
    /// pages only). Returns the new ℓ − ℓ₀ and Σ x.
    fn sub_ulp_step(&mut self, d_ell: f64, (sum, dsteep): (f64, f64)) -> (f64, f64) {
        let d = (sum - 1.0) / (self.smooth_slope(d_ell) + dsteep);
        // A few ulps of ℓ at most (64 of them, or 1e−12).
        let ulps = (64.0 * f64::EPSILON * self.ell0.abs()).max(1e-12);
        if !(d.is_finite() && d.abs() <= ulps) {
            return (d_ell, sum);
        }
        for (x, l) in self.x.iter_mut().zip(&self.dl) {
            *x *= (1.0 - l * d).max(0.0);
        }
        let d_ell = d_ell + d;
        let steep: f64 = self.x.iter().sum();
        (d_ell, self.smooth_at(d_ell) + steep)
    }

    /// [`Local::eval`] with the steep pages at ℓ.
    fn eval_at_ell(&mut self, ell: f64) -> Result<(f64, f64)> {
        let ln_w = std::mem::take(&mut self.ln_w);
        let out = self.eval(at_ell(ell, &ln_w), ell - self.ell0);
        self.ln_w = ln_w;
        out
    }

    /// The root of the model in [a, b] (an end when there is none).
    fn root(&mut self, a: f64, b: f64) -> Result<f64> {
        let start = self.ell0.clamp(a, b);
        newton_bisect(
            |ell| {
                let (s, ds) = self.eval_at_ell(ell)?;
                Ok((s - 1.0, -(self.smooth_slope(ell - self.ell0) + ds)))
            },
            a,
            b,
            start,
            false,
            1e-15,
            0.0,
            500,
        )
    }

    /// The steep page whose w is the nearest above λ (to rounding: ℓ may
    /// have stopped an ulp above ln w_c, on the side where x_c = 0), when λ
    /// is within 1e−5 of it: the case for [`Local::polish_near_cutoff`].
    /// Returns its number among the steep pages and 1 − λ/w_c.
    ///
    /// Not needed above 1 − λ/w_c = 1e−5: there an ulp of ℓ (≤ 2.2e−16·|ℓ|)
    /// moves 1 − λ/w_i by under 2.2e−11·max(1, |ℓ|) relative on every page,
    /// and s_i and x_i by less.
    fn cutoff_page(&self, model: &Model, ell: f64) -> Option<(usize, f64)> {
        let slack = 64.0 * f64::EPSILON * ell.abs().max(1.0);
        let w = |j: usize| model.scaled_weight(self.idx[j]);
        let c = (0..self.idx.len())
            .filter(|&j| self.ln_w[j] >= ell - slack)
            .min_by(|&j, &k| w(j).cmp(w(k)))?;
        let p_c = -(ell - self.ln_w[c]).exp_m1();
        (p_c < 1e-5).then_some((c, p_c))
    }

    /// The root polished in v = 1 − λ/w_c, c = [`Local::cutoff_page`]
    /// (steep page number): ρ_j = w_c/w_j and λ = w_c(1 − v) give
    /// t_j = ρ_j(1 − v) and 1 − t_j = (1 − ρ_j) + vρ_j, exact enough even
    /// for v ≪ 1 (1 − ρ_j is exact when w_j and w_c are close). The other
    /// pages move with ℓ(v) = ln w_c + ln(1 − v). Returns Σ x and ℓ(v) − ℓ₀
    /// at the root, searched in v ≤ STEEP/4 (inside the model's window).
    fn polish_near_cutoff(&mut self, model: &Model, c: usize, p_c: f64) -> Result<(f64, f64)> {
        let wc = model.scaled_weight(self.idx[c]);
        self.wc = Some(wc);
        let w = |j: usize| model.scaled_weight(self.idx[j]);
        let rho: Vec<f64> = (0..self.idx.len()).map(|j| wc.ratio(w(j))).collect();
        let ln_rho: Vec<f64> = (0..self.idx.len()).map(|j| wc.ln_ratio(w(j))).collect();
        let (ln_wc, ell0) = (self.ln_w[c], self.ell0);
        let d_ell = move |z: f64| ln_wc + (-z.exp()).ln_1p() - ell0;
        let at = |z: f64| {
            let v = z.exp();
            let ln_1mv = (-v).ln_1p();
            let (rho, ln_rho) = (&rho, &ln_rho);
            move |j: usize| {
                let p = (1.0 - rho[j]) + v * rho[j];
                (p > 0.0).then(|| PagePoint {
                    ln_t: (ln_rho[j] + ln_1mv).min(-f64::MIN_POSITIVE),
                    ln_p: p.ln(),
                })
            }
        };
        let z_lo = f64::MIN_POSITIVE.ln();
        let z_hi = (0.25 * self.width).ln();
        let z0 = p_c.max(f64::MIN_POSITIVE).ln().clamp(z_lo, z_hi);
        let z = newton_bisect(
            |z| {
                let (s, ds) = self.eval(at(z), d_ell(z))?;
                // dℓ/dz = −v/(1 − v).
                let v = z.exp();
                let slope = self.smooth_slope(d_ell(z)) + ds;
                Ok((s - 1.0, slope * (v / (1.0 - v))))
            },
            z_lo,
            z_hi,
            z0,
            true,
            1e-15,
            1e-15,
            500,
        )?;
        let (tb, _) = self.eval(at(z), d_ell(z))?;
        Ok((tb, d_ell(z)))
    }

    /// The pages with w = w_c are so deep in the linear regime (s > ~700)
    /// that λ = w_c to every representable digit. Then their cost is
    /// linear in x up to e^{−700}: the other pages stay at λ = w_c (the
    /// model at ℓ₀ + `d_ell`, where [`Local::polish_near_cutoff`] ended,
    /// `self.x` its steep pages) and the ties, all steep, get the residual
    /// 1 − Σ_{others} x_i, split ∝ a_i (equal s_i, as (8) asks), in
    /// `self.x`. False (nothing changed) when there is no positive
    /// residual to split.
    fn split_residual_among_ties(&mut self, model: &Model, d_ell: f64) -> bool {
        let Some(wc) = self.wc else { return false };
        let tie = |j: &usize| {
            (wc.ratio(model.scaled_weight(self.idx[*j])) - 1.0).abs() <= 8.0 * f64::EPSILON
        };
        let ties: Vec<usize> = (0..self.idx.len()).filter(tie).collect();
        // Σ a_i over the ties, relative to the largest (a_i may be near DBL_MAX).
        let a_max = ties.iter().map(|&j| self.a[j]).fold(0.0, f64::max);
        let a_tie: f64 = ties.iter().map(|&j| self.a[j] / a_max).sum();
        let steep: f64 = self.x.iter().sum();
        let tied: f64 = ties.iter().map(|&j| self.x[j]).sum();
        let resid = 1.0 - (self.smooth_at(d_ell) + (steep - tied));
        if !(resid > 0.0 && a_tie > 0.0) {
            return false;
        }
        for &j in &ties {
            self.x[j] = resid * ((self.a[j] / a_max) / a_tie);
        }
        true
    }

    /// Writes the plan into `pages.x`: the third-order step `d_ell` on
    /// every page, the steep pages' exact x over it.
    fn apply(&self, pages: &mut GeneralPages, d_ell: f64) {
        let (idx, xs) = (&self.idx, &self.x);
        fold_chunks(
            [&mut pages.x, &mut pages.dlns, &mut pages.s],
            (),
            |range, [x, dl, s]| {
                for ((x, &l), &s) in x.iter_mut().zip(dl.iter()).zip(s.iter()) {
                    if *x > 0.0 {
                        *x *= expanded_ratio(l, s, d_ell);
                    }
                }
                let first = idx.partition_point(|&i| i < range.start);
                let last = idx.partition_point(|&i| i < range.end);
                for j in first..last {
                    x[idx[j] - range.start] = xs[j];
                }
            },
            |(), ()| (),
        );
    }
}

/// Rounding leaves Σ x off one by a few ulps; rescale (by the sum in page
/// order, the order a caller's check adds them in).
fn finish(mut x: Vec<f64>) -> Result<Vec<f64>> {
    let total: f64 = x.iter().sum();
    if !(total.is_finite() && total > 0.0) {
        return Err(Error::NotConverged(
            "no multiplier gives positive frequencies".into(),
        ));
    }
    fold_chunks(
        [&mut x],
        (),
        |_, [x]| {
            for v in x.iter_mut() {
                *v /= total;
            }
        },
        |(), ()| (),
    );
    Ok(x)
}

/// The minimum over frequencies of [`cost`], a lower bound on the cost (4)
/// of every stationary policy.
///
/// With c_i = c₀ μ_i this is eq. (6) of Theorem 3.4,
/// c₀(μ − 1/E\[X\] + Π h_i / E\[X\]), evaluated with Π h_i = exp(Σ ln h_i) in
/// the algebraically identical, cancellation-free form
/// (c₀/E\[X\])(Σ (q_i − a_i) + E1(Σ a_i)), E1(x) = x − 1 + e^{−x}; otherwise
/// it is `cost(optimal_frequencies)`.
///
/// Errors: as [`optimal_frequencies`].
pub fn lower_bound(model: &Model) -> Result<f64> {
    if model.is_proportional() {
        let (q, a) = q_and_a(model);
        let gap: f64 = q.iter().zip(&a).map(|(&q, &a)| jensen_gap(q, a)).sum();
        let big_a: f64 = a.iter().sum();
        if let Some(lb) = model.c0_over_mean_times(gap + e1(big_a)) {
            return Ok(lb);
        }
    }
    cost(model, &optimal_frequencies_general(model)?)
}
