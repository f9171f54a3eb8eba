//! Randomized accessing (Section 4, Coffman, Liu, Weber): every access picks
//! page i with probability f_i, independently of the past, so the
//! inter-access distances of page i are geometric with mean 1/f_i.
//!
//! Notation as in [`super::frequencies`]: q_i = μ_i E\[X\], a_i = −ln h_i,
//! b_i = 1 − h_i. Lemma 4.1's rate is rewritten without cancellation as
//!
//! r_i = 1 − (f/q)·b/(b + f h) = [q b (1 − f) + f (q − b)] / (q (b + f h)),
//!
//! with q − b = (q − a) + (a − b), both terms ≥ 0 and the second computed by
//! its series −ln(1 − b) − b = Σ_{k≥2} b^k/k when b is small.

use super::frequencies::{jensen_gap, q_and_a};
use super::{Model, check_frequencies};
use crate::error::{Error, Num, Result};

/// a − b = −ln(1 − b) − b ≥ 0 given a = −ln(1 − b), accurate for small b.
fn log_gap(a: f64, b: f64) -> f64 {
    if b < 0.3 {
        let mut pow = b * b;
        let mut sum = 0.0;
        for k in 2..200 {
            let term = pow / f64::from(k);
            sum += term;
            if term <= 1e-17 * sum {
                break;
            }
            pow *= b;
        }
        sum
    } else {
        (a - b).max(0.0)
    }
}

/// h from (a, b): 1 − b when h is not small, e^{−a} otherwise (keeps the
/// relative accuracy of a tiny h that 1 − b would round away).
fn h_of(a: f64, b: f64) -> f64 {
    if b < 0.5 { 1.0 - b } else { (-a).exp() }
}

/// Lemma 4.1 for one page.
fn randomized_rate(q: f64, a: f64, b: f64, f: f64) -> f64 {
    if f <= 0.0 {
        // Never chosen: always out of date after the first change.
        return 1.0;
    }
    let h = h_of(a, b);
    let q_minus_b = jensen_gap(q, a) + log_gap(a, b);
    let num = q * b * (1.0 - f) + f * q_minus_b;
    let den = q * (b + f * h);
    (num / den).clamp(0.0, 1.0)
}

/// Lemma 4.1: the obsolescence rates of the randomized policy with access
/// probabilities `f`,
/// r_i = (1/E\[X\])(E\[X\] − f_i/μ_i + (f_i/μ_i)· f_i h_i/(1 − h_i + f_i h_i)).
///
/// Uses 1 − h_i from [`Model::one_minus_h`] in the cancellation-free form of
/// the module notes. f_i = 0 gives r_i = 1.
///
/// Errors: `InvalidArgument` unless `f` has one finite, non-negative entry
/// per page summing to 1.
pub fn obsolescence(model: &Model, f: &[f64]) -> Result<Vec<f64>> {
    check_frequencies(model.len(), f)?;
    let (q, a) = q_and_a(model);
    let b = model.one_minus_h();
    Ok((0..f.len())
        .map(|i| randomized_rate(q[i], a[i], b[i], f[i]))
        .collect())
}

/// The cost (4), Σ c_i r_i, of the randomized policy (Lemma 4.1 rates).
///
/// Errors: as [`obsolescence`].
pub fn cost(model: &Model, f: &[f64]) -> Result<f64> {
    let r = obsolescence(model, f)?;
    Ok(r.iter().zip(model.weights()).map(|(r, c)| r * c).sum())
}

/// β_i = h_i^{-1} − 1 = e^{a_i} − 1, divided by max_j β_j so that neither the
/// terms nor their sum overflow. a_i is capped at 700 (h_i ≥ e^{−700}):
/// beyond that a page is out of date between any two accesses to within
/// f64 rounding and its exact β no longer matters.
fn scaled_beta(a: &[f64]) -> (Vec<f64>, f64) {
    let beta: Vec<f64> = a.iter().map(|&x| x.min(700.0).exp_m1()).collect();
    let bmax = beta.iter().copied().fold(0.0_f64, f64::max);
    (beta.iter().map(|b| b / bmax).collect(), bmax)
}

/// Theorem 4.1, eq. (16): with c_i ∝ μ_i the optimal randomized frequencies
/// are f_i = (h_i^{-1} − 1)/Σ_j (h_j^{-1} − 1); for other weights
/// [`optimal_frequencies_general`].
///
/// h_i^{-1} − 1 = (1 − h_i)/h_i is evaluated as expm1(−ln h_i), accurate for
/// h_i near 1 and near 0.
///
/// Errors: `NotConverged` if the frequencies cannot be normalised (not
/// expected for a valid model).
pub fn optimal_frequencies(model: &Model) -> Result<Vec<f64>> {
    if !model.is_proportional() {
        return optimal_frequencies_general(model);
    }
    let a: Vec<f64> = model.log_h().iter().map(|l| -l).collect();
    let (beta, _) = scaled_beta(&a);
    normalise(beta)
}

fn normalise(mut x: Vec<f64>) -> Result<Vec<f64>> {
    let s: f64 = x.iter().sum();
    if !(s.is_finite() && s > 0.0) {
        return Err(Error::NotConverged(format!(
            "frequencies sum to {}",
            Num(s)
        )));
    }
    for v in &mut x {
        *v /= s;
    }
    Ok(x)
}

/// Optimal randomized frequencies for arbitrary weights: the KKT solution of
/// the convex problem (12).
///
/// Eq. (15) gives x_i = (√(c_i/(λ μ_i E\[X\])) − 1)(1 − h_i)/h_i where that is
/// positive; where it is not, the derivative of page i's term at x_i = 0 is
/// already ≥ 0 and the KKT conditions give x_i = 0 (the paper's validity
/// condition after (16) is exactly "no clipping needed"). With ρ = λ^{-1/2}
/// and σ_i = √(c_i/(μ_i E\[X\])), Σ_i max(0, ρσ_i − 1)β_i is piecewise linear
/// and increasing in ρ, so (14) is solved exactly by water-filling: pages
/// enter in decreasing σ_i, and on the active set P,
/// ρ = (1 + Σ_P β_i)/Σ_P σ_i β_i. O(N log N).
///
/// Errors: `NotConverged` only if the result cannot be normalised.
pub fn optimal_frequencies_general(model: &Model) -> Result<Vec<f64>> {
    let n = model.len();
    let (_, a) = q_and_a(model);
    // σ_i normalised by the largest (ρ absorbs the scale), from the weights
    // c_i/(μ_i E[X]) as mantissa/exponent pairs: the quotient itself may
    // over- or underflow.
    let (w, wmax) = model.scaled_weights();
    let sig: Vec<f64> = w.iter().map(|x| (0.5 * x.ln_ratio(wmax)).exp()).collect();
    // Scaled β' = β/β_max, κ = 1/β_max: Σ (ρσ − 1)⁺ β' = κ.
    let (beta, bmax) = scaled_beta(&a);
    let kappa = 1.0 / bmax;
    // Decreasing σ, ties by index: σ ≥ 0, so the order of the bit patterns
    // is the order of the values; sorting (key, index) pairs directly is
    // several times faster than comparing through the indices.
    let mut keyed: Vec<(u64, usize)> = sig
        .iter()
        .enumerate()
        .map(|(i, s)| (!s.to_bits(), i))
        .collect();
    keyed.sort_unstable();
    let order: Vec<usize> = keyed.into_iter().map(|(_, i)| i).collect();
    let sg: Vec<f64> = order.iter().map(|&i| sig[i]).collect();
    let bt: Vec<f64> = order.iter().map(|&i| beta[i]).collect();
    // Active set = the first k pages in decreasing σ. Page k+1 (0-based k)
    // joins iff ρ_k σ_k > 1 ⇔ σ_k κ > D_k with D_k = Σ_{j<k} β'_j(σ_j − σ_k),
    // accumulated as D_k = D_{k−1} + (σ_{k−1} − σ_k) B_{k−1} from
    // non-negative terms: the direct form σ(κ + B) − Σσβ cancels badly when
    // one page's β dominates (β ~ e^{a}, a = −ln h up to 700).
    let mut d_prev = vec![0.0; n];
    let mut bsum = bt[0];
    let mut k = 1;
    while k < n {
        let d = d_prev[k - 1] + (sg[k - 1] - sg[k]) * bsum;
        if sg[k] * kappa <= d {
            break;
        }
        d_prev[k] = d;
        bsum += bt[k];
        k += 1;
    }
    // On the active set, (ρσ_i − 1)·Σ_P σβ = σ_i κ − D_i + U_i with
    // D_i = Σ_{j<i} β'_j(σ_j − σ_i) and U_i = Σ_{i<j<k} β'_j(σ_i − σ_j)
    // (forward and backward recurrences of non-negative terms); the common
    // factor is dropped by normalising.
    let active = |bt: &[f64], kappa: f64| -> Vec<f64> {
        let mut x = vec![0.0; n];
        let (mut d, mut head) = (0.0, 0.0);
        let mut dv = vec![0.0; k];
        for r in 1..k {
            head += bt[r - 1];
            d += (sg[r - 1] - sg[r]) * head;
            dv[r] = d;
        }
        let (mut u, mut tail) = (0.0, 0.0);
        for r in (0..k).rev() {
            if r + 1 < k {
                tail += bt[r + 1];
                u += (sg[r] - sg[r + 1]) * tail;
            }
            // κ = ∞ (every β below 1/DBL_MAX): the σκ term dominates.
            let num = if kappa.is_finite() {
                sg[r] * kappa - dv[r] + u
            } else {
                sg[r]
            };
            x[order[r]] = num.max(0.0) * bt[r];
        }
        x
    };
    let mut x = active(&bt, kappa);
    let s: f64 = x.iter().sum();
    if !(s.is_finite() && s > 0.0) {
        // Every active β_i underflowed relative to the largest β (an
        // inactive page changing far faster): the same with β scaled by
        // the active set's largest, in logs.
        let ln_beta: Vec<f64> = order[..k]
            .iter()
            .map(|&i| a[i].min(700.0).exp_m1().ln())
            .collect();
        let ln_bact = ln_beta.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let b2: Vec<f64> = ln_beta.iter().map(|l| (l - ln_bact).exp()).collect();
        x = active(&b2, (-ln_bact).exp());
    }
    normalise(x)
}

/// The minimum over frequencies of the randomized policy's cost.
///
/// With c_i = c₀μ_i this is eq. (11) of Theorem 4.1,
/// c₀(μ − (1/E\[X\]) B/(1 + B)), B = Σ (h_i^{-1} − 1); small B is evaluated
/// as (c₀/E\[X\])(Σ(q_i − a_i) − Σ(e^{a_i} − 1 − a_i) + B²/(1 + B)), the same
/// quantity without the cancellation of μE\[X\] against B/(1 + B). For other
/// weights it is `cost(optimal_frequencies_general)`.
///
/// Errors: as [`optimal_frequencies`].
pub fn optimal_cost(model: &Model) -> Result<f64> {
    if !model.is_proportional() {
        return cost(model, &optimal_frequencies_general(model)?);
    }
    // (c₀/E[X])·x without the intermediate over- or underflow of c₀.
    let scaled = |x: f64| model.c0_over_mean_times(x).unwrap_or(f64::NAN);
    let (q, a) = q_and_a(model);
    let b_total: f64 = a.iter().map(|x| x.exp_m1()).sum();
    if b_total > 0.5 || !b_total.is_finite() {
        let qt: f64 = q.iter().sum();
        // B/(1+B) written as 1/(1 + 1/B) stays finite for B = ∞.
        return Ok(scaled(qt - 1.0 / (1.0 + 1.0 / b_total)));
    }
    let gap: f64 = q.iter().zip(&a).map(|(&q, &a)| jensen_gap(q, a)).sum();
    // e^{a} − 1 − a by its series (a ≤ B ≤ 0.5 here).
    let curv: f64 = a
        .iter()
        .map(|&x| {
            let mut term = x * x / 2.0;
            let mut s = 0.0;
            for k in 3..60 {
                s += term;
                term *= x / f64::from(k);
                if term <= 1e-17 * s {
                    break;
                }
            }
            s
        })
        .sum();
    Ok(scaled(gap - curv + b_total * b_total / (1.0 + b_total)))
}
