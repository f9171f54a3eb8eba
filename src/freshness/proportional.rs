//! The closed form (10) of Theorem 3.4 (Coffman, Liu, Weber): with cost
//! weights proportional to the change rates, c_i = c₀ μ_i, the optimal
//! access frequencies are f_i = ln h_i / Σ_j ln h_j.

use super::{Model, fold_cheap};
use crate::dist::Distribution;
use crate::error::Result;
use crate::numeric::fastlog::{SMALL, ln_1p_small};
use crate::simd::{self, Kernel};
use crate::validate;

/// The closed form (10) of Theorem 3.4: f_i = ln h_i / Σ_j ln h_j, optimal
/// for problem (7) when c_i = c₀ μ_i. Valid for any weights as a formula,
/// but optimal only for proportional ones.
///
/// One pass when [`Model::new`] summed the a_i = −ln h_i ([`CheapLog`]):
/// f_i = a_i·(1/Σ). Else two passes ([`fold_cheap`]): a_i into the
/// output (whose pages the threads touch first) with Σ a_i and max a_i,
/// then the division. Both give the same bits. When Σ a_i overflows or is
/// subnormal, f_i = (a_i/a_max)/Σ_j (a_j/a_max).
pub fn proportional_frequencies(model: &Model) -> Vec<f64> {
    let mut f = crate::pages::zeroed(model.len());
    fill(model, &mut f);
    f
}

/// [`proportional_frequencies`] written into `out` (one entry per page),
/// the same bits: for callers that own the buffer (the C API writes the
/// caller's array directly, without a plan of its own to copy).
///
/// Every entry written is finite and ≥ 0 (a_i = −ln h_i is, and 1/Σ is a
/// normal double), and nothing can fail once writing begins.
///
/// Errors: `InvalidArgument` unless `out` has one entry per page.
pub fn proportional_frequencies_into(model: &Model, out: &mut [f64]) -> Result<()> {
    validate::same_len("change_rates", model.len(), "out", out.len())?;
    fill(model, out);
    Ok(())
}

/// The plan into `f`, one entry per page.
fn fill(model: &Model, f: &mut [f64]) {
    if from_model_total(model, f) {
        return;
    }
    let series = series_scale(model);
    let (total, amax) = fold_cheap(
        [&mut f[..]],
        (0.0, 0.0_f64),
        |pages, [a]| match series {
            Some(mean) => series_sum_and_max(&model.change_rates()[pages], mean, a),
            None => {
                model.neg_log_h_into(pages, a);
                sum_and_max(a)
            }
        },
        |(s, m), (t, n)| (s + t, m.max(n)),
    );
    // 1/Σ must be finite: Σ normal (else Σ_j a_j/a_max ≥ 1 is).
    let total = if total.is_finite() && total >= f64::MIN_POSITIVE {
        total
    } else {
        fold_cheap(
            [&mut f[..]],
            0.0,
            |_, [a]| {
                a.iter_mut().for_each(|x| *x /= amax);
                sum(a)
            },
            |s, t| s + t,
        )
    };
    // One rounding more than a division: f_i within 1 ulp of a_i/Σ a_j.
    let scale = 1.0 / total;
    fold_cheap(
        [&mut f[..]],
        (),
        |_, [a]| a.iter_mut().for_each(|x| *x *= scale),
        |(), ()| (),
    );
}

/// a_i = −ln h_i as a formula of μ_i alone, as [`Model::neg_log_h_into`]
/// computes it (the same bits): ln(1 + μ_i E\[X\]) by [`ln_1p_small`]
/// (exponential X, every q_i within [`SMALL`]) or μ_i·value
/// (deterministic X).
#[derive(Debug, Clone, Copy)]
pub(crate) enum CheapLog {
    Series { mean: f64 },
    Linear { value: f64 },
}

impl CheapLog {
    /// The formula for `access` (exponential or deterministic X), before
    /// the series' range is known.
    pub(crate) fn of(access: &Distribution) -> Option<CheapLog> {
        match *access {
            Distribution::Exponential { .. } => Some(CheapLog::Series {
                mean: access.mean(),
            }),
            Distribution::Deterministic { value } => Some(CheapLog::Linear { value }),
            _ => None,
        }
    }

    /// Σ a_i over one chunk of rates `mu` in [`sum_and_max`]'s lanes (the
    /// same bits as summing the a_i written out), without writing them.
    #[inline(always)]
    pub(crate) fn chunk_total(self, mu: &[f64]) -> f64 {
        match self {
            CheapLog::Series { mean } => lanes_sum(mu, |m| ln_1p_small(m * mean)),
            CheapLog::Linear { value } => lanes_sum(mu, |m| m * value),
        }
    }

    /// f_i = a_i·scale for the rates `mu` into `f`.
    #[inline(always)]
    fn scaled_into(self, mu: &[f64], scale: f64, f: &mut [f64]) {
        match self {
            CheapLog::Series { mean } => scaled(mu, f, |m| ln_1p_small(m * mean) * scale),
            CheapLog::Linear { value } => scaled(mu, f, |m| m * value * scale),
        }
    }
}

/// [`CheapLog::chunk_total`] of a chunk of rates, as a [`Kernel`].
pub(crate) struct ChunkTotal<'a>(pub(crate) CheapLog, pub(crate) &'a [f64]);

impl Kernel for ChunkTotal<'_> {
    type Output = f64;

    #[inline(always)]
    fn run(self) -> f64 {
        self.0.chunk_total(self.1)
    }
}

/// [`CheapLog::scaled_into`] of a chunk of rates (then the scale and the
/// chunk's plan), as a [`Kernel`].
struct ScaledInto<'a, 'b>(CheapLog, &'a [f64], f64, &'b mut [f64]);

impl Kernel for ScaledInto<'_, '_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        self.0.scaled_into(self.1, self.2, self.3)
    }
}

/// The closed form in one pass from Σ a_i that [`Model::new`] summed while
/// it copied μ (c = μ, a_i by [`CheapLog`]): f_i = a_i·(1/Σ), the bits of
/// the two-pass route, into `f`. False (`f` unchanged) without that sum or
/// when it is not normal.
fn from_model_total(model: &Model, f: &mut [f64]) -> bool {
    let Some((log, total)) = model.extremes().and_then(|e| e.log_total) else {
        return false;
    };
    if !(total.is_finite() && total >= f64::MIN_POSITIVE) {
        return false;
    }
    let scale = 1.0 / total;
    fold_cheap(
        [f],
        (),
        |pages, [x]| {
            let mu = &model.change_rates()[pages];
            simd::wide(ScaledInto(log, mu, scale, x));
        },
        |(), ()| (),
    );
    true
}

/// out_i = g(mu_i) (vectorises).
#[inline(always)]
fn scaled(mu: &[f64], out: &mut [f64], g: impl Fn(f64) -> f64) {
    for (o, &m) in out.iter_mut().zip(mu) {
        *o = g(m);
    }
}

/// Σ g(mu_i) in [`sum_and_max`]'s four lanes and tail order.
#[inline(always)]
fn lanes_sum(mu: &[f64], g: impl Fn(f64) -> f64) -> f64 {
    let mut lanes = [0.0; 4];
    let mut quads = mu.chunks_exact(4);
    for q in &mut quads {
        for l in 0..4 {
            lanes[l] += g(q[l]);
        }
    }
    let tail = quads.remainder().iter().map(|&m| g(m)).sum::<f64>();
    ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + tail
}

/// E\[X\] when X is exponential and every q_i = μ_i E\[X\] is within
/// [`SMALL`] (by the model's [`Extremes`](super::Extremes)): then a_i =
/// ln(1 + q_i) is [`ln_1p_small`] for every page, as in
/// [`Model::neg_log_h_into`] (the same bits).
fn series_scale(model: &Model) -> Option<f64> {
    let mean = model.mean_access();
    let exponential = matches!(model.access(), Distribution::Exponential { .. });
    let ex = model.extremes()?;
    (exponential && ex.mu_max * mean <= SMALL).then_some(mean)
}

/// a_i = ln(1 + μ_i·mean) by the series into `a` with [`sum_and_max`] of
/// them, in one loop: the same lanes, so the same bits.
fn series_sum_and_max(mu: &[f64], mean: f64, a: &mut [f64]) -> (f64, f64) {
    let (mut lanes, mut top) = ([0.0; 4], [0.0_f64; 4]);
    let (mut m4, mut a4) = (mu.chunks_exact(4), a.chunks_exact_mut(4));
    for (m, x) in (&mut m4).zip(&mut a4) {
        for l in 0..4 {
            let v = ln_1p_small(m[l] * mean);
            x[l] = v;
            lanes[l] += v;
            top[l] = if v > top[l] { v } else { top[l] };
        }
    }
    let tail = a4.into_remainder();
    for (x, &m) in tail.iter_mut().zip(m4.remainder()) {
        *x = ln_1p_small(m * mean);
    }
    lanes_total(lanes, top, tail)
}

/// Σ xs in four interleaved partial sums (a fixed order that vectorises).
fn sum(xs: &[f64]) -> f64 {
    sum_and_max(xs).0
}

/// (Σ xs, max(0, max xs)), both in four lanes: the sum in a fixed order,
/// and both vectorise.
fn sum_and_max(xs: &[f64]) -> (f64, f64) {
    let (mut lanes, mut top) = ([0.0; 4], [0.0_f64; 4]);
    let mut quads = xs.chunks_exact(4);
    for q in &mut quads {
        for l in 0..4 {
            lanes[l] += q[l];
            top[l] = if q[l] > top[l] { q[l] } else { top[l] };
        }
    }
    lanes_total(lanes, top, quads.remainder())
}

/// (Σ, max(0, max)) from four lanes of partial sums and maxima and the
/// entries after the last whole four, in a fixed order.
fn lanes_total(lanes: [f64; 4], top: [f64; 4], tail: &[f64]) -> (f64, f64) {
    let total = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + tail.iter().sum::<f64>();
    let max = top
        .into_iter()
        .chain(tail.iter().copied())
        .fold(0.0, f64::max);
    (total, max)
}
