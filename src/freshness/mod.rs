//! Freshness: how often, and in what order, to recrawl each page.
//!
//! Coffman, Liu and Weber, *Optimal robot scheduling for Web search engines*
//! (paper 000). Page i changes as a Poisson process of rate μ_i; each crawl
//! takes an independent time X with a general distribution; page i is
//! out of date from its first change after a crawl until its next crawl, a
//! fraction r_i of the time. The cost of a policy is C = Σ c_i r_i (eq. 4).
//! Everything about X that the results need is E\[X] and
//! h_i = E\[exp(−μ_i X)] (Lemma 3.1), which [`Model`] precomputes.
//!
//! - [`frequencies`]: the lower bound of Theorem 3.3 for given access
//!   frequencies, the optimal frequencies (Theorem 3.4 closed form when
//!   c_i ∝ μ_i, Lagrange conditions (8)–(9) in general) and the bound (6).
//! - [`proportional`]: the closed form (10) of Theorem 3.4 (c_i ∝ μ_i).
//! - [`randomized`]: the randomized policy, Lemma 4.1 and Theorem 4.1.
//! - [`cyclic`]: integer access counts, the golden-ratio policy (§5), a
//!   generic round robin, the exact cost of any cyclic sequence (eq. 3 with
//!   Lemma 3.1), and the asymptotic bounds (18)–(19).
//! - [`simulate`]: Monte Carlo of a cyclic sequence against Poisson changes.
//! - [`estimator`]: change-rate estimation from "changed / not changed" visits.
//! - [`scheduler`]: a streaming scheduler with a dynamic page set (§6).

#![forbid(unsafe_code)]

pub mod cyclic;
pub mod estimator;
pub mod frequencies;
mod par;
pub mod polite;
pub mod proportional;
pub mod randomized;
pub mod scheduler;
pub mod shard;
pub mod simulate;

use crate::dist::Distribution;
use crate::error::{Error, Num, Result};
use crate::numeric::fastlog::SMALL;
use crate::numeric::fastlog::ln_1p_in_place;
use crate::numeric::series::{self, ComplementSeries};
use crate::simd::{self, Kernel};
use crate::validate;
use proportional::{CheapLog, ChunkTotal};
use std::ops::Range;
use std::sync::OnceLock;

/// Bytes a [`Model`] holds per page (at most five arrays of f64: ln h, h
/// and 1 − h may be filled on first use), checked against the process-wide
/// memory cap by [`Model::new`].
pub const MODEL_BYTES_PER_PAGE: u128 = 40;

/// N pages with change rates μ_i and cost weights c_i, crawled by one robot
/// whose access times are i.i.d. copies of X.
#[derive(Debug, Clone)]
pub struct Model {
    access: Distribution,
    mean_access: f64,
    mu: Vec<f64>,
    /// c_i; `None` when c = μ (no weights given).
    weights: Option<Vec<f64>>,
    /// ln h_i (< 0), h_i = E\[exp(−μ_i X)]: computed by [`Model::new`]
    /// when X's transform is costly, else on first use.
    log_h: OnceLock<Vec<f64>>,
    /// h_i, computed on first use (no planner reads it).
    h: OnceLock<Vec<f64>>,
    /// 1 − h_i without cancellation, computed on first use.
    one_minus_h: OnceLock<Vec<f64>>,
    proportional: bool,
    /// Found by [`Model::new`]'s fast path while it copies the inputs.
    extremes: Option<Extremes>,
}

/// min and max μ_i, and max w_i (w_i = c_i/(μ_i E\[X\]), weights given) when every
/// μ_i E\[X\] and w_i is a normal double: what a planner would otherwise
/// read every page for before its main passes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Extremes {
    pub(crate) mu_min: f64,
    pub(crate) mu_max: f64,
    pub(crate) w_max: Option<f64>,
    /// The least and largest weight c_i (with weights).
    pub(crate) c_range: Option<(f64, f64)>,
    /// Without weights (c = μ), when a_i = −ln h_i is a [`CheapLog`]
    /// formula for every page: it and Σ a_i summed as the closed form
    /// sums them (its chunks and lanes, the same bits).
    pub(crate) log_total: Option<(CheapLog, f64)>,
}

impl Model {
    /// Pages with change rates `mu` (> 0) and weights `weights` (> 0); with
    /// `weights = None` the weights are c_i = μ_i (c₀ = 1), the case of
    /// Theorem 3.4 where the cost is the expected rate of changes missed.
    ///
    /// Errors: `InvalidArgument` for an empty, non-finite or non-positive
    /// input or a rate whose h rounds to 0 or 1; `TooLarge` when the model
    /// ([`MODEL_BYTES_PER_PAGE`] per page) exceeds the memory cap.
    pub fn new(access: Distribution, mu: &[f64], weights: Option<&[f64]>) -> Result<Self> {
        Self::build(access, Inputs::Borrowed { mu, weights })
    }

    /// [`Model::new`] taking the arrays it would copy: no copy is made (a
    /// plan of N pages then reads its inputs once fewer and holds 8 or 16
    /// bytes per page less). The same checks and errors, the same model.
    ///
    /// Errors: as [`Model::new`].
    pub fn from_vecs(
        access: Distribution,
        mu: Vec<f64>,
        weights: Option<Vec<f64>>,
    ) -> Result<Self> {
        Self::build(access, Inputs::Owned { mu, weights })
    }

    fn build(access: Distribution, inputs: Inputs<'_>) -> Result<Self> {
        let (mu, _) = inputs.slices();
        validate::non_empty("change_rates", mu)?;
        crate::limits::check_memory(
            crate::limits::bytes(mu.len(), MODEL_BYTES_PER_PAGE),
            &format!("a freshness model of {} pages", mu.len()),
        )?;
        let mean_access = access.mean();
        let inputs = match inputs.checked(&access, mean_access) {
            Ok((mu, weights, extremes)) => {
                let log_h = OnceLock::new();
                return Ok(Model::assemble(
                    access,
                    mean_access,
                    mu,
                    weights,
                    log_h,
                    Some(extremes),
                ));
            }
            Err(inputs) => inputs,
        };
        // Costly X, or an input that fails a check: the checks in order.
        let (mu, weights) = inputs.slices();
        validate::all_positive("change_rates", mu)?;
        if let Some(w) = weights {
            validate::same_len("change_rates", mu.len(), "weights", w.len())?;
            validate::all_positive("weights", w)?;
        }
        if !(mean_access.is_finite() && mean_access > 0.0) {
            return Err(Error::invalid(format!(
                "the access time must have a finite, positive mean, got E[X] = {}",
                Num(mean_access)
            )));
        }
        let log_h = transforms(&access, mu)?;
        let (mu, weights) = inputs.into_vecs();
        Ok(Model::assemble(
            access,
            mean_access,
            mu,
            weights,
            OnceLock::from(log_h),
            None,
        ))
    }

    fn assemble(
        access: Distribution,
        mean_access: f64,
        mu: Vec<f64>,
        weights: Option<Vec<f64>>,
        log_h: OnceLock<Vec<f64>>,
        extremes: Option<Extremes>,
    ) -> Model {
        // c = μ (no weights given) is proportional by construction.
        let proportional = weights
            .as_ref()
            .is_none_or(|w| weights_proportional(&mu, w));
        Model {
            access,
            mean_access,
            mu,
            weights,
            log_h,
            h: OnceLock::new(),
            one_minus_h: OnceLock::new(),
            proportional,
            extremes,
        }
    }

    /// Number of pages N.
    pub fn len(&self) -> usize {
        self.mu.len()
    }

    /// Always false: a model has at least one page.
    pub fn is_empty(&self) -> bool {
        self.mu.is_empty()
    }

    /// The access-time distribution X.
    pub fn access(&self) -> &Distribution {
        &self.access
    }

    /// E\[X].
    pub fn mean_access(&self) -> f64 {
        self.mean_access
    }

    /// Change rates μ_i.
    pub fn change_rates(&self) -> &[f64] {
        &self.mu
    }

    /// Total change rate μ = Σ μ_i.
    pub fn total_change_rate(&self) -> f64 {
        self.mu.iter().sum()
    }

    /// Cost weights c_i.
    pub fn weights(&self) -> &[f64] {
        self.weights.as_deref().unwrap_or(&self.mu)
    }

    /// h_i = E\[exp(−μ_i X)] for every page.
    pub fn h(&self) -> &[f64] {
        // exp(ln h) keeps full relative accuracy when h is tiny; 1 − (1 − h) does not.
        self.h.get_or_init(|| {
            let log_h = self.log_h();
            per_page(self.len(), |i| log_h[i].exp())
        })
    }

    /// 1 − h_i for every page, accurate when h_i is close to 1.
    pub fn one_minus_h(&self) -> &[f64] {
        self.one_minus_h.get_or_init(|| {
            let series = complement_series(&self.access);
            per_page(self.len(), |i| {
                complement(&self.access, series.as_ref(), self.mu[i])
            })
        })
    }

    /// ln h_i for every page.
    pub fn log_h(&self) -> &[f64] {
        self.log_h.get_or_init(|| {
            let mut out = crate::pages::zeroed(self.len());
            fold_cheap(
                [&mut out[..]],
                (),
                |pages, [o]| {
                    self.neg_log_h_into(pages, o);
                    o.iter_mut().for_each(|a| *a = -*a);
                },
                |(), ()| (),
            );
            out
        })
    }

    /// a_i = −ln h_i for the pages `pages` into `out` (one entry each):
    /// for exponential X, ln(1 + q_i), q_i = μ_i E\[X\], by
    /// [`ln_1p_in_place`] ([`Distribution::log_laplace`] where q_i overflows);
    /// for deterministic X, μ_i E\[X\]; else [`Model::log_h`]'s, stored by
    /// [`Model::new`]. Each a_i depends on page i alone.
    pub(crate) fn neg_log_h_into(&self, pages: Range<usize>, out: &mut [f64]) {
        let mu = &self.mu[pages.clone()];
        if let Some(log_h) = self.log_h.get() {
            for (o, l) in out.iter_mut().zip(&log_h[pages]) {
                *o = -l;
            }
            return;
        }
        match self.access {
            Distribution::Exponential { .. } => {
                for (o, m) in out.iter_mut().zip(mu) {
                    *o = m * self.mean_access;
                }
                ln_1p_in_place(out);
                if out.iter().fold(false, |inf, a| inf | a.is_infinite()) {
                    for (o, &m) in out.iter_mut().zip(mu) {
                        if o.is_infinite() {
                            *o = -self.access.log_laplace(m);
                        }
                    }
                }
            }
            Distribution::Deterministic { value } => {
                for (o, m) in out.iter_mut().zip(mu) {
                    *o = m * value;
                }
            }
            _ => {
                for (o, &m) in out.iter_mut().zip(mu) {
                    *o = -self.access.log_laplace(m);
                }
            }
        }
    }

    /// The weight w_i = c_i/(μ_i E\[X\]) of the Lagrange conditions as a
    /// mantissa/exponent pair (the quotient itself may over- or underflow).
    pub(crate) fn scaled_weight(&self, i: usize) -> Scaled {
        let e = Scaled::new(self.mean_access);
        Scaled::new(self.weights()[i]).div(Scaled::new(self.mu[i]).mul(e))
    }

    /// What [`Model::new`] found while copying the inputs (exponential and
    /// deterministic X only).
    pub(crate) fn extremes(&self) -> Option<Extremes> {
        self.extremes
    }

    /// True when c_i = c₀ μ_i for one c₀ (Theorems 3.4 and 4.1 apply).
    pub fn is_proportional(&self) -> bool {
        self.proportional
    }

    /// c₀ when the weights are proportional to the change rates (0 or +∞
    /// when c₀ itself is not representable; see [`Model::c0_over_mean_times`]).
    pub fn c0(&self) -> Option<f64> {
        self.proportional.then(|| self.weights()[0] / self.mu[0])
    }

    /// (c₀/E\[X\])·x when the weights are proportional, without
    /// the intermediate over- or underflow of c₀ = c_i/μ_i (c = 1e300 with
    /// μ = 1e−10 gives c₀ = ∞ while (c₀/E\[X\])·x may be representable).
    pub(crate) fn c0_over_mean_times(&self, x: f64) -> Option<f64> {
        if !self.proportional {
            return None;
        }
        if !x.is_finite() || x == 0.0 {
            return Some(x);
        }
        let v = Scaled::new(self.weights()[0])
            .mul(Scaled::new(x.abs()))
            .div(Scaled::new(self.mu[0]).mul(Scaled::new(self.mean_access)));
        Some(v.value().copysign(x))
    }
}

/// Below this many pages, passes of a few nanoseconds per page run on the
/// calling thread: starting threads would cost more than it saves.
const CHEAP_PARALLEL_MIN: usize = 1 << 18;

/// [`par::fold_chunks`] for a pass of a few nanoseconds per page: on the
/// calling thread below [`CHEAP_PARALLEL_MIN`] pages, over the same chunks
/// folded in the same order (so the same bits).
pub(crate) fn fold_cheap<T, F, C, const K: usize>(
    bufs: [&mut [f64]; K],
    init: T,
    f: F,
    combine: C,
) -> T
where
    T: Send,
    F: Fn(Range<usize>, [&mut [f64]; K]) -> T + Sync,
    C: Fn(T, T) -> T,
{
    let n = bufs[0].len();
    if n >= CHEAP_PARALLEL_MIN {
        return par::fold_chunks(bufs, init, f, combine);
    }
    par::fold_run(bufs, 0, init, &f, combine)
}

/// A copy of `xs` made on [`par::threads_for`] threads (the fresh pages
/// are first touched there).
fn copied(xs: &[f64]) -> Vec<f64> {
    let mut out = crate::pages::zeroed(xs.len());
    par::fold_chunks(
        [&mut out[..]],
        (),
        |pages, [o]| o.copy_from_slice(&xs[pages]),
        |(), ()| (),
    );
    out
}

/// `f(i)` for every page, computed on [`par::threads_for`] threads.
fn per_page(n: usize, f: impl Fn(usize) -> f64 + Sync) -> Vec<f64> {
    let mut out = crate::pages::zeroed(n);
    par::fold_chunks(
        [&mut out[..]],
        (),
        |pages, [o]| {
            for (k, i) in pages.enumerate() {
                o[k] = f(i);
            }
        },
        |(), ()| (),
    );
    out
}

/// ln h_i for every page, computed on [`par::threads_for`] threads
/// (1 − h_i, read only for the check here, is left to
/// [`Model::one_minus_h`]). `InvalidArgument` naming the first page whose
/// q_i = μ_i E\[X] overflows or whose h_i is not strictly inside (0, 1).
fn transforms(access: &Distribution, mu: &[f64]) -> Result<Vec<f64>> {
    let n = mu.len();
    let mean_access = access.mean();
    let mut log_h = crate::pages::zeroed(n);
    let series = complement_series(access);
    let first_bad = par::fold_chunks(
        [&mut log_h[..]],
        None,
        |pages, [l]| {
            let mut bad = None;
            for (k, i) in pages.enumerate() {
                let c;
                (c, l[k]) = complement_and_log(access, series.as_ref(), mu[i]);
                if !transform_ok(mu[i] * mean_access, c, l[k]) && bad.is_none() {
                    bad = Some(i);
                }
            }
            bad
        },
        |a: Option<usize>, b| a.or(b),
    );
    if let Some(i) = first_bad {
        // q_i = μ_i E[X] (changes per mean crawl time) enters every bound.
        if !(mu[i] * mean_access).is_finite() {
            return Err(Error::invalid(format!(
                "change_rates[{i}] = {} is too large for this access time: \
                 change_rate * E[X] overflows (E[X] = {})",
                Num(mu[i]),
                Num(mean_access)
            )));
        }
        return Err(Error::invalid(format!(
            "change_rates[{i}] = {} is too large or too small for this access time: \
             h = E[exp(-mu X)] must lie strictly in (0, 1), got 1 - h = {}, ln h = {}",
            Num(mu[i]),
            Num(access.laplace_complement(mu[i])),
            Num(log_h[i])
        )));
    }
    Ok(log_h)
}

/// The moment series of 1 − h for X whose transform costs more than a few
/// flops per rate (empirical: one exponential per sample; phase-type: a
/// linear solve), used where it converges ([`ComplementSeries`]).
fn complement_series(access: &Distribution) -> Option<ComplementSeries> {
    match access {
        Distribution::Empirical { samples } => ComplementSeries::empirical(samples),
        Distribution::PhaseType(ph) => phase_type_series(ph),
        _ => None,
    }
}

/// E\[X^k]/k! = α T^k 1 with T = (−S)^{−1} ≥ 0 entrywise, scaled by
/// τ = max T1 (T^k 1 ≤ τ^{k−1} T1 entrywise, so m_k = α T^k 1/τ^k ≤ m_1).
fn phase_type_series(ph: &crate::dist::PhaseType) -> Option<ComplementSeries> {
    let n = ph.order();
    let lu = (-ph.sub_generator()).lu();
    let alpha = nalgebra::DVector::from_column_slice(ph.alpha());
    let mut w = lu.solve(&nalgebra::DVector::from_element(n, 1.0))?;
    let tau = w.max();
    if w.iter().any(|v| v.is_nan() || *v < 0.0) {
        return None;
    }
    let mut m = Vec::with_capacity(series::TERMS);
    for k in 0..series::TERMS {
        if k > 0 {
            w = lu.solve(&w)?;
        }
        w /= tau;
        m.push(alpha.dot(&w));
    }
    ComplementSeries::from_scaled(tau, &m)
}

/// 1 − h at rate `m`: from `series` where it converges, else
/// [`Distribution::laplace_complement`].
fn complement(access: &Distribution, series: Option<&ComplementSeries>, m: f64) -> f64 {
    series
        .and_then(|s| s.complement(m))
        .unwrap_or_else(|| access.laplace_complement(m))
}

/// (1 − h, ln h) at rate `m` for [`transforms`]' check and ln h:
/// [`Distribution::log_laplace`] to the bit, sharing the work of
/// [`Distribution::laplace_complement`], except that 1 − h comes from
/// `series` where it converges (to a few ulps). Deterministic, Gamma and
/// Erlang X: 1 − h = −expm1(ln h), which is > 0 exactly when ln h < 0,
/// so 1 stands for it then (0 otherwise): only its sign is read. The mixtures (hyperexponential, phase-type,
/// empirical): ln h = ln(1 − (1 − h)) when 1 − h ≤ 1/2, as log_laplace
/// takes it.
fn complement_and_log(
    access: &Distribution,
    series: Option<&ComplementSeries>,
    m: f64,
) -> (f64, f64) {
    match access {
        Distribution::Deterministic { .. } => (1.0, access.log_laplace(m)),
        Distribution::Erlang { .. } | Distribution::Gamma { .. } => {
            // 1 − h = −expm1(ln h) > 0 exactly when ln h < 0.
            let l = access.log_laplace(m);
            (if l < 0.0 { 1.0 } else { 0.0 }, l)
        }
        Distribution::Exponential { .. } => (access.laplace_complement(m), access.log_laplace(m)),
        Distribution::HyperExponential { .. }
        | Distribution::PhaseType(_)
        | Distribution::Empirical { .. } => {
            let c = complement(access, series, m);
            let l = if c <= 0.5 {
                (-c).ln_1p()
            } else {
                access.log_laplace(m)
            };
            (c, l)
        }
    }
}

/// Page i's transform is usable: q_i = μ_i E\[X\] finite and h_i strictly
/// inside (0, 1), from c = 1 − h_i and l = ln h_i. Each condition holds on
/// an interval of μ (q, c and −l increase with μ).
fn transform_ok(q: f64, c: f64, l: f64) -> bool {
    q.is_finite() && c > 0.0 && l < 0.0 && l.is_finite()
}

/// A model's own μ and weights, and their [`Extremes`].
type Checked = (Vec<f64>, Option<Vec<f64>>, Extremes);

/// A model's inputs: the caller's arrays, copied by [`Model::new`], or
/// arrays it hands over ([`Model::from_vecs`]).
enum Inputs<'a> {
    Borrowed {
        mu: &'a [f64],
        weights: Option<&'a [f64]>,
    },
    Owned {
        mu: Vec<f64>,
        weights: Option<Vec<f64>>,
    },
}

impl Inputs<'_> {
    fn slices(&self) -> (&[f64], Option<&[f64]>) {
        match self {
            Inputs::Borrowed { mu, weights } => (mu, *weights),
            Inputs::Owned { mu, weights } => (mu, weights.as_deref()),
        }
    }

    /// The model's own arrays: copies of borrowed ones, on
    /// [`par::threads_for`] threads.
    fn into_vecs(self) -> (Vec<f64>, Option<Vec<f64>>) {
        match self {
            Inputs::Borrowed { mu, weights } => (copied(mu), weights.map(copied)),
            Inputs::Owned { mu, weights } => (mu, weights),
        }
    }

    /// For exponential and deterministic X (cheap transforms, computed on
    /// first use): the model's arrays (borrowed inputs copied on the
    /// threads that check them, so the fresh pages are first touched
    /// there) and their [`Extremes`], when every input passes
    /// [`Model::new`]'s checks; the inputs back for other X or when a check
    /// fails (then [`Model::new`] redoes the checks in order to name the
    /// first failure).
    fn checked(self, access: &Distribution, mean: f64) -> std::result::Result<Checked, Self> {
        let (mu, weights) = self.slices();
        let cheap = matches!(
            access,
            Distribution::Exponential { .. } | Distribution::Deterministic { .. }
        );
        let mean_ok = mean.is_finite() && mean > 0.0;
        if !(cheap && mean_ok) || weights.is_some_and(|w| w.len() != mu.len()) {
            return Err(self);
        }
        let (mut mu_dst, mut w_dst, src) = match self {
            Inputs::Borrowed { mu, weights } => {
                let n = mu.len();
                let w = weights.map(|_| crate::pages::zeroed(n));
                (crate::pages::zeroed(n), w, Some((mu, weights)))
            }
            Inputs::Owned { mu, weights } => (mu, weights, None),
        };
        match check_pages(access, mean, &mut mu_dst, w_dst.as_deref_mut(), src) {
            Some(extremes) => Ok((mu_dst, w_dst, extremes)),
            None => Err(Inputs::Owned {
                mu: mu_dst,
                weights: w_dst,
            }),
        }
    }
}

/// [`Inputs::checked`]'s pass over the model's arrays `mu` and `weights`
/// (equal lengths; exponential or deterministic X with a finite, positive
/// mean), first copied from `src` chunk by chunk when given: their
/// [`Extremes`] when every check passes.
fn check_pages(
    access: &Distribution,
    mean: f64,
    mu: &mut [f64],
    weights: Option<&mut [f64]>,
    src: Option<(&[f64], Option<&[f64]>)>,
) -> Option<Extremes> {
    // Deterministic X: 1 − h = −expm1(ln h) > 0 whenever ln h < 0.
    let det = matches!(access, Distribution::Deterministic { .. });
    let ok_at = |m: f64| {
        let c = if det {
            1.0
        } else {
            access.laplace_complement(m)
        };
        transform_ok(m * mean, c, access.log_laplace(m))
    };
    // Every rate finite and > 0, and (the conditions holding on an
    // interval of μ) the transform usable at the smallest and largest;
    // with the largest rate.
    let rates_ok = |(pos, lo, hi): (bool, f64, f64)| (pos && ok_at(lo) && ok_at(hi), lo, hi);
    let n = mu.len();
    // (all checks pass, (min μ, max μ), max plain w: 0 when one is not
    // plain, −1 before the first page).
    let max = |a: f64, b: f64| if b > a { b } else { a };
    let min = |a: f64, b: f64| if b < a { b } else { a };
    type Found = (bool, (f64, f64), f64);
    let merge = |(ok, (l, m), w): Found, (o, (k, n), v): Found| {
        let w = if w == 0.0 || v == 0.0 { 0.0 } else { max(w, v) };
        (ok & o, (min(l, k), max(m, n)), w)
    };
    let src_mu = src.map(|(m, _)| m);
    let src_w = src.and_then(|(_, w)| w);
    match weights {
        None => {
            // Σ a_i as the closed form sums it; NaN from a chunk where
            // the series does not apply (then the whole sum is dropped).
            // Below CHEAP_PARALLEL_MIN pages the arrays stay in cache and
            // the closed form's second pass costs less than the series.
            let log = CheapLog::of(access).filter(|_| n >= CHEAP_PARALLEL_MIN);
            let series_ok =
                |hi: f64| !matches!(log, Some(CheapLog::Series { .. })) || hi * mean <= SMALL;
            let ((ok, (mu_min, mu_max), _), total) = fold_cheap(
                [mu],
                ((true, (f64::MAX, 0.0), 0.0), 0.0),
                |pages, [m]| {
                    if let Some(s) = src_mu {
                        m.copy_from_slice(&s[pages]);
                    }
                    let (ok, lo, hi) = rates_ok(positive_range(m));
                    let total = match log {
                        Some(log) if series_ok(hi) => simd::wide(ChunkTotal(log, &*m)),
                        _ => f64::NAN,
                    };
                    ((ok, (lo, hi), 0.0), total)
                },
                |(a, s), (b, t)| (merge(a, b), s + t),
            );
            ok.then_some(Extremes {
                mu_min,
                mu_max,
                w_max: None,
                c_range: None,
                log_total: log.filter(|_| series_ok(mu_max)).map(|l| (l, total)),
            })
        }
        Some(w) => {
            let ((ok, (mu_min, mu_max), w_max), c_range) = fold_cheap(
                [mu, w],
                ((true, (f64::MAX, 0.0), -1.0), (f64::MAX, 0.0)),
                |pages, [m, c]| {
                    if let (Some(sm), Some(sw)) = (src_mu, src_w) {
                        m.copy_from_slice(&sm[pages.clone()]);
                        c.copy_from_slice(&sw[pages]);
                    }
                    let (rates, (positive, c_lo, c_hi), w_max) =
                        simd::wide(CheckedPairs(&*m, &*c, mean));
                    let (ok, lo, hi) = rates_ok(rates);
                    ((ok & positive, (lo, hi), w_max), (c_lo, c_hi))
                },
                |(a, (l, h)), (b, (k, g))| (merge(a, b), (min(l, k), max(h, g))),
            );
            ok.then_some(Extremes {
                mu_min,
                mu_max,
                w_max: (w_max > 0.0).then_some(w_max),
                c_range: Some(c_range),
                log_total: None,
            })
        }
    }
}

/// x in [f64::MIN_POSITIVE, f64::MAX] (a positive normal double).
#[inline(always)]
pub(crate) fn normal(x: f64) -> bool {
    (f64::MIN_POSITIVE..=f64::MAX).contains(&x)
}

/// (every entry finite and > 0, smallest, largest) of `xs`, in four lanes
/// (vectorises).
fn positive_range(xs: &[f64]) -> (bool, f64, f64) {
    let (mut ok, mut lo, mut hi) = ([true; 4], [f64::MAX; 4], [0.0_f64; 4]);
    let mut quads = xs.chunks_exact(4);
    let mut step = |l: usize, x: f64| {
        ok[l] &= x > 0.0 && x <= f64::MAX;
        lo[l] = if x < lo[l] { x } else { lo[l] };
        hi[l] = if x > hi[l] { x } else { hi[l] };
    };
    for q in &mut quads {
        for (l, &x) in q.iter().enumerate() {
            step(l, x);
        }
    }
    for &x in quads.remainder() {
        step(0, x);
    }
    let lo = lo.into_iter().fold(f64::MAX, f64::min);
    let hi = hi.into_iter().fold(0.0, f64::max);
    (ok.into_iter().all(|o| o), lo, hi)
}

/// Lanes of [`checked_pairs`]: one AVX-512 or two AVX2 vectors. Its
/// flags are doubles (1 once a check failed), and its loop takes whole
/// arrays of lanes: the form the compiler vectorizes (with `bool` flags
/// it kept the loop in scalars and SSE2 halves).
const CHECK_LANES: usize = 8;

/// The least of `x`'s lanes (f64::MAX for none).
fn least(x: [f64; CHECK_LANES]) -> f64 {
    x.into_iter().fold(f64::MAX, f64::min)
}

/// The largest of `x`'s lanes (0 for none).
fn most(x: [f64; CHECK_LANES]) -> f64 {
    x.into_iter().fold(0.0, f64::max)
}

/// (every entry finite and > 0, smallest, largest) of `mu` and of `c`,
/// and max w_i, w_i = c_i/(μ_i E\[X\]), when every μ_i E\[X\] and w_i is
/// a normal double (else 0): one loop in [`CHECK_LANES`] lanes without
/// branches (under [`simd::wide`]).
#[inline(always)]
fn checked_pairs(mu: &[f64], c: &[f64], mean: f64) -> ((bool, f64, f64), (bool, f64, f64), f64) {
    const L: usize = CHECK_LANES;
    let (mut bad, mut lo, mut hi) = ([0.0; L], [f64::MAX; L], [0.0_f64; L]);
    let (mut c_bad, mut c_lo, mut c_hi) = ([0.0; L], [f64::MAX; L], [0.0_f64; L]);
    let (mut unplain, mut top) = ([0.0; L], [0.0_f64; L]);
    let mut step = |l: usize, m: f64, c: f64| {
        bad[l] = if (m > 0.0) & (m <= f64::MAX) {
            bad[l]
        } else {
            1.0
        };
        lo[l] = if m < lo[l] { m } else { lo[l] };
        hi[l] = if m > hi[l] { m } else { hi[l] };
        c_bad[l] = if (c > 0.0) & (c <= f64::MAX) {
            c_bad[l]
        } else {
            1.0
        };
        c_lo[l] = if c < c_lo[l] { c } else { c_lo[l] };
        c_hi[l] = if c > c_hi[l] { c } else { c_hi[l] };
        let me = m * mean;
        let v = c / me;
        unplain[l] = if normal(me) & normal(v) {
            unplain[l]
        } else {
            1.0
        };
        top[l] = if v > top[l] { v } else { top[l] };
    };
    let ((m_lanes, m_rest), (c_lanes, c_rest)) = (mu.as_chunks::<L>(), c.as_chunks::<L>());
    for (m, c) in m_lanes.iter().zip(c_lanes) {
        for l in 0..L {
            step(l, m[l], c[l]);
        }
    }
    for (&m, &c) in m_rest.iter().zip(c_rest) {
        step(0, m, c);
    }
    (
        (most(bad) == 0.0, least(lo), most(hi)),
        (most(c_bad) == 0.0, least(c_lo), most(c_hi)),
        if most(unplain) == 0.0 { most(top) } else { 0.0 },
    )
}

/// [`checked_pairs`] of a chunk of μ, c and E\[X\], as a [`Kernel`].
struct CheckedPairs<'a>(&'a [f64], &'a [f64], f64);

impl Kernel for CheckedPairs<'_> {
    type Output = ((bool, f64, f64), (bool, f64, f64), f64);

    #[inline(always)]
    fn run(self) -> Self::Output {
        checked_pairs(self.0, self.1, self.2)
    }
}

/// c_i ∝ μ_i: the ratios agree to rounding (compared as exact
/// mantissa/exponent pairs: c_i/μ_i may over- or underflow).
fn weights_proportional(mu: &[f64], weights: &[f64]) -> bool {
    let ratio = |i: usize| Scaled::new(weights[i]).div(Scaled::new(mu[i]));
    let r0 = ratio(0);
    (0..mu.len()).all(|i| (ratio(i).ratio(r0) - 1.0).abs() <= 1e-12)
}

/// A positive finite value as m·2^e with m ∈ [1, 2): the weights
/// w_i = c_i/(μ_i E\[X\]) of the general solver, whose quotient may over- or
/// underflow f64 (c = DBL_MAX, or μ = 1e−200 with c = 1e200), are kept
/// exactly to rounding, and compared and divided without leaving the range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Scaled {
    m: f64,
    e: i64,
}

impl Scaled {
    /// `x` must be finite and > 0 (subnormals included).
    pub(crate) fn new(x: f64) -> Scaled {
        debug_assert!(x.is_finite() && x > 0.0);
        // 2^64 lifts a subnormal into the normal range.
        let (y, bias) = if x < f64::MIN_POSITIVE {
            (x * 18_446_744_073_709_551_616.0, -64)
        } else {
            (x, 0)
        };
        let bits = y.to_bits();
        let e = ((bits >> 52) & 0x7ff) as i64 - 1023;
        let m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
        Scaled { m, e: e + bias }
    }

    pub(crate) fn div(self, o: Scaled) -> Scaled {
        let r = Scaled::new(self.m / o.m);
        Scaled {
            m: r.m,
            e: self.e - o.e + r.e,
        }
    }

    pub(crate) fn mul(self, o: Scaled) -> Scaled {
        let r = Scaled::new(self.m * o.m);
        Scaled {
            m: r.m,
            e: self.e + o.e + r.e,
        }
    }

    /// Ordering of the values.
    pub(crate) fn cmp(self, o: Scaled) -> std::cmp::Ordering {
        self.e.cmp(&o.e).then(self.m.total_cmp(&o.m))
    }

    /// self/o as an f64: 0 or +∞ beyond 2^∓1000.
    pub(crate) fn ratio(self, o: Scaled) -> f64 {
        let de = self.e - o.e;
        let r = self.m / o.m;
        if de < -1000 {
            0.0
        } else if de > 1000 {
            f64::INFINITY
        } else {
            // |de| ≤ 1000: 2^de is a normal double (built from its bits)
            // and r·2^de is normal.
            r * f64::from_bits(((de + 1023) as u64) << 52)
        }
    }

    /// The value as an f64 (0 or +∞ outside the range).
    pub(crate) fn value(self) -> f64 {
        self.ratio(Scaled { m: 1.0, e: 0 })
    }

    /// ln(self/o), with a relative error of a few ulps even when the
    /// ratio is close to 1.
    pub(crate) fn ln_ratio(self, o: Scaled) -> f64 {
        let de = self.e - o.e;
        if de.abs() <= 1000 {
            self.ratio(o).ln()
        } else {
            (self.m / o.m).ln() + de as f64 * std::f64::consts::LN_2
        }
    }
}

/// Checks that `f` is a frequency vector for `n` pages: finite, ≥ 0, sum 1.
pub(crate) fn check_frequencies(n: usize, f: &[f64]) -> Result<()> {
    validate::same_len("pages", n, "frequencies", f.len())?;
    validate::probability_vector("frequencies", f)
}

#[cfg(test)]
mod tests;
