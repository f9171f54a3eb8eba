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
use super::par::{CHUNK, fold_chunks, fold_pieces_par};
use super::{Model, Scaled, check_frequencies, normal};
use crate::dist::Distribution;
use crate::error::{Error, Num, Result};
use crate::numeric::exact::{product_error, product_error_split, splits_exactly};
use std::ops::Range;

mod band;
mod poisson;
mod wide;

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

/// Bytes [`optimal_frequencies`] and [`optimal_frequencies_general`]
/// allocate per page (the output and the scaled β), checked against the
/// memory cap before allocating.
pub const RANDOMIZED_BYTES_PER_PAGE: u128 = 16;

/// β_i = h_i^{-1} − 1 = e^{a_i} − 1 with a_i capped at 700 (h_i ≥ e^{−700}):
/// beyond that a page is out of date between any two accesses to within
/// f64 rounding and its exact β no longer matters.
fn beta(log_h: f64) -> f64 {
    (-log_h).min(700.0).exp_m1()
}

/// [`beta`] for the pages `pages` into `out`: for exponential X,
/// h = 1/(1 + μ/rate) gives β = μ/rate exactly (capped alike); otherwise
/// through a_i = −ln h_i.
fn fill_beta(model: &Model, pages: Range<usize>, out: &mut [f64]) {
    if let Distribution::Exponential { rate } = *model.access() {
        let cap = 700.0_f64.exp_m1();
        for (o, m) in out.iter_mut().zip(&model.change_rates()[pages]) {
            *o = (m / rate).min(cap);
        }
    } else {
        model.neg_log_h_into(pages, out);
        out.iter_mut().for_each(|a| *a = beta(-*a));
    }
}

/// Theorem 4.1, eq. (16): with c_i ∝ μ_i the optimal randomized frequencies
/// are f_i = (h_i^{-1} − 1)/Σ_j (h_j^{-1} − 1); for other weights
/// [`optimal_frequencies_general`].
///
/// h_i^{-1} − 1 = (1 − h_i)/h_i is evaluated as expm1(−ln h_i), accurate for
/// h_i near 1 and near 0, and divided by the largest so that the sum cannot
/// overflow.
///
/// Errors: `TooLarge` beyond the memory cap ([`RANDOMIZED_BYTES_PER_PAGE`]
/// per page); `NotConverged` if the frequencies cannot be normalised, or
/// (general weights) when a page's membership of the active set is below
/// what double-double sums resolve (rates and weights spread over ~10^100
/// and more: a marginal page holding nearly all of B and S), rather than a
/// plan that does not sum to 1.
pub fn optimal_frequencies(model: &Model) -> Result<Vec<f64>> {
    if !model.is_proportional() {
        return optimal_frequencies_general(model);
    }
    check_memory(model.len())?;
    let mut x: Vec<f64> = model.log_h().iter().map(|&l| beta(l)).collect();
    let bmax = x.iter().copied().fold(0.0_f64, f64::max);
    for v in &mut x {
        *v /= bmax;
    }
    normalise(x)
}

fn check_memory(n: usize) -> Result<()> {
    crate::limits::check_memory(
        crate::limits::bytes(n, RANDOMIZED_BYTES_PER_PAGE),
        &format!("the randomized optimum of {n} pages"),
    )
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

/// A sum kept as hi + lo: hi the rounded running sum, lo the sum of the
/// exact rounding errors of every addition and product that fed it
/// (TwoSum, TwoProduct), so that hi + lo carries about twice the precision.
#[derive(Debug, Clone, Copy, Default)]
struct Compensated {
    hi: f64,
    lo: f64,
}

impl Compensated {
    /// Adds x + dx (dx the rounding error of x).
    fn add(&mut self, x: f64, dx: f64) {
        let s = self.hi + x;
        let z = s - self.hi;
        self.lo += (self.hi - (s - z)) + (x - z) + dx;
        self.hi = s;
    }

    fn merge(mut self, o: Compensated) -> Compensated {
        self.add(o.hi, o.lo);
        self
    }
}

/// B = Σ β'_i and S = Σ σ_iβ'_i over the active pages, and their number.
#[derive(Debug, Clone, Copy, Default)]
struct ActiveSums {
    count: usize,
    b: Compensated,
    s: Compensated,
}

impl ActiveSums {
    /// Adds an active page.
    #[inline]
    fn add(&mut self, sigma: f64, beta: f64) {
        let p = sigma * beta;
        self.add_product(beta, p, product_error(sigma, beta, p));
    }

    /// [`ActiveSums::add`] given p = σβ rounded and its exact error dp.
    #[inline]
    fn add_product(&mut self, beta: f64, p: f64, dp: f64) {
        self.count += 1;
        self.b.add(beta, 0.0);
        self.s.add(p, dp);
    }

    fn merge(self, o: ActiveSums) -> ActiveSums {
        ActiveSums {
            count: self.count + o.count,
            b: self.b.merge(o.b),
            s: self.s.merge(o.s),
        }
    }
}

/// The cutoff after a Newton step: page i is active iff its excess
/// σ_i(κ + B) − S (B, S the sums over the previous active set; the excess
/// is (ρσ_i − 1)·S for ρ = (κ + B)/S) is positive. The excess is formed
/// from the compensated sums with the product's exact error (TwoProduct) and
/// TwoSum, so it keeps its relative accuracy next to the cutoff where the
/// terms cancel, and ρ itself (which may overflow) is never formed.
#[derive(Debug, Clone, Copy)]
struct Cutoff {
    kappa: f64,
    b: Compensated,
    s: Compensated,
    /// κ + B rounded, and a bound on the error of σ·(κ + B) − S formed
    /// from it in plain doubles (σ ≤ 1): the sign of that is the sign of
    /// the excess outside ±margin.
    num: f64,
    margin: f64,
}

impl Cutoff {
    /// ρ = ∞: every page with σ_i > 0 (∞·0 is NaN, not positive).
    const ALL: Cutoff = Cutoff {
        kappa: f64::INFINITY,
        b: Compensated { hi: 0.0, lo: 0.0 },
        s: Compensated { hi: 0.0, lo: 0.0 },
        num: f64::INFINITY,
        margin: 0.0,
    };

    /// σ_i·num > den in plain doubles (num = ∞, den = 0: [`Cutoff::ALL`]).
    fn plain(num: f64, den: f64) -> Cutoff {
        Cutoff {
            kappa: num,
            s: Compensated { hi: den, lo: 0.0 },
            num,
            margin: 0.0,
            ..Cutoff::ALL
        }
    }

    fn new(kappa: f64, sums: ActiveSums) -> Cutoff {
        let (b, s) = (sums.b, sums.s);
        let num = kappa + b.hi;
        Cutoff {
            kappa,
            b,
            s,
            num,
            margin: 8.0 * f64::EPSILON * (num + s.hi) + b.lo.abs() + s.lo.abs(),
        }
    }

    fn excess(self, sigma: f64) -> f64 {
        let p = sigma * self.b.hi;
        self.excess_with(sigma, p, product_error(sigma, self.b.hi, p))
    }

    /// [`Cutoff::excess`] without a branch or a call, and whether it is
    /// exact (else meaningless).
    #[inline]
    fn excess_split(self, sigma: f64) -> (f64, bool) {
        let p = sigma * self.b.hi;
        let dp = product_error_split(sigma, self.b.hi, p);
        let exact = splits_exactly(sigma, self.b.hi, p);
        (self.excess_with(sigma, p, dp), exact)
    }

    /// The excess from p = σ·B rounded and its exact error dp.
    #[inline]
    fn excess_with(self, sigma: f64, p: f64, dp: f64) -> f64 {
        let (b, s) = (self.b, self.s);
        let d = p - s.hi;
        let z = d - p;
        let dd = (p - (d - z)) + (-s.hi - z);
        sigma * self.kappa + (d + (dd + dp + sigma * b.lo - s.lo))
    }

    fn active(self, sigma: f64) -> bool {
        let t = sigma * self.num - self.s.hi;
        if t > self.margin {
            true
        } else if t < -self.margin {
            false
        } else {
            self.excess(sigma) > 0.0
        }
    }
}

/// Compensated sums of β' and σβ' (with page counts) in buckets of σ, the top [`BINADES`] binades below 1 in [`SUB`] buckets
/// each (the first [`SUB_BITS`] mantissa bits), bucket 0 for everything
/// smaller:
/// locates the root of F(ρ) = κ to one bucket, and sums the pages on
/// either side of it.
#[derive(Debug, Clone, Default)]
struct Histogram {
    /// Empty until a page is added.
    buckets: Vec<ActiveSums>,
}

const BINADES: usize = 16;
const SUB_BITS: u32 = 6;
const SUB: usize = 1 << SUB_BITS;

/// Most histograms a pass keeps (one per run of pages, merged in order).
const HISTOGRAMS: usize = 16;

/// Pages per run of a pass over `n` pages that merges its runs' results
/// in page order: whole chunks, at most [`HISTOGRAMS`] runs.
fn run_len(n: usize) -> usize {
    n.div_ceil(HISTOGRAMS)
        .next_multiple_of(CHUNK)
        .max(4 * CHUNK)
}

impl Histogram {
    /// Bucket of σ ∈ (0, 1]: 1 + [`SUB`]·(binade) + the first
    /// [`SUB_BITS`] mantissa bits; 0 below 2^−16. Increases with σ.
    fn bucket(sigma: f64) -> usize {
        let bits = sigma.to_bits();
        let e = (bits >> 52) as i64 - 1023;
        if e < -(BINADES as i64) || e > 0 {
            return 0;
        }
        let sub = ((bits >> (52 - SUB_BITS)) as usize) & (SUB - 1);
        1 + (e + BINADES as i64) as usize * SUB + sub
    }

    /// The lower edge of bucket k ≥ 1.
    fn edge(k: usize) -> f64 {
        let (binade, sub) = ((k - 1) / SUB, (k - 1) % SUB);
        2f64.powi(binade as i32 - BINADES as i32) * (1.0 + sub as f64 / SUB as f64)
    }

    /// Every bucket, empty.
    fn zero() -> Histogram {
        Histogram {
            buckets: vec![ActiveSums::default(); 1 + (BINADES + 1) * SUB],
        }
    }

    /// Adds the pages of a block (σ in `sigma`, β' in `beta`, at most
    /// [`BLOCK`]) to a histogram from [`Histogram::zero`], in page order:
    /// the products σβ' and their exact errors first, in a loop without
    /// branches (it vectorises), when every product splits exactly.
    fn add_block(&mut self, sigma: &[f64], beta: &[f64]) {
        let (mut p, mut dp) = ([0.0; BLOCK], [0.0; BLOCK]);
        let mut exact = true;
        for (((p, dp), &s), &b) in p.iter_mut().zip(&mut dp).zip(sigma).zip(beta) {
            *p = s * b;
            *dp = product_error_split(s, b, *p);
            exact &= splits_exactly(s, b, *p);
        }
        if !exact {
            for (&s, &b) in sigma.iter().zip(beta) {
                self.buckets[Self::bucket(s)].add(s, b);
            }
            return;
        }
        for (((&s, &b), &p), &dp) in sigma.iter().zip(beta).zip(&p).zip(&dp) {
            self.buckets[Self::bucket(s)].add_product(b, p, dp);
        }
    }

    fn merge(mut self, o: Histogram) -> Histogram {
        if self.buckets.is_empty() {
            return o;
        }
        for (a, b) in self.buckets.iter_mut().zip(&o.buckets) {
            *a = a.merge(*b);
        }
        self
    }

    /// The highest bucket k ≥ 1 where F(1/t) = Σ_{σ ≥ t} (σ/t − 1)β'
    /// reaches κ at its lower edge t, with Σ β' and Σ σβ' over the buckets
    /// ≥ k: the root 1/ρ lies in bucket k, up to the rounding of the
    /// plain sums; `None` when no bucket above 0 reaches κ.
    fn root(&self, kappa: f64) -> Option<(usize, f64, f64)> {
        let (mut b, mut s) = (0.0, 0.0);
        if kappa.is_finite() {
            for k in (1..self.buckets.len()).rev() {
                b += self.buckets[k].b.hi;
                s += self.buckets[k].s.hi;
                if s / Self::edge(k) - b >= kappa && s > 0.0 {
                    return Some((k, b, s));
                }
            }
        }
        None
    }

    /// (num, den) of the Newton step from [`Histogram::root`]'s edge: to
    /// the right of the root (up to the rounding of the bucket sums, which
    /// the compensated steps absorb); (∞, 0) without a root bucket.
    fn start(&self, kappa: f64) -> (f64, f64) {
        self.root(kappa)
            .map_or((f64::INFINITY, 0.0), |(_, b, s)| (kappa + b, s))
    }

    /// The sums over the buckets above k, merged in decreasing bucket
    /// order (a fixed order).
    fn above(&self, k: usize) -> ActiveSums {
        let above = self.buckets[k + 1..].iter().rev();
        above.fold(ActiveSums::default(), |a, b| a.merge(*b))
    }
}

/// Pages per block of β' computed on the stack.
const BLOCK: usize = 256;

/// The terms of F: σ_i (computed once, in the output) and β'_i =
/// β_i/β_max (recomputed by each pass that needs it: reading μ costs less
/// than writing and rereading another array); κ = 1/β_max.
struct Terms<'a> {
    model: &'a Model,
    sigma: Sigma<'a>,
    bmax: f64,
    /// The least β_i (0 where μ_i/rate underflows).
    bmin: f64,
    /// The plain w_i are not in the output (no pass of [`Sigma::new`]).
    fused: bool,
    /// max μ when β'_i = μ_i/max μ (exponential X, β_max not capped).
    mu_max: Option<f64>,
}

impl<'a> Terms<'a> {
    /// w_max and β_max: for exponential X from the model's [`Extremes`]
    /// when they hold w_max (β_i = μ_i/rate capped increases with μ_i: the
    /// same bits as a pass), else by [`Sigma::new`]'s pass, which leaves
    /// the plain w_i in `w`.
    fn new(model: &'a Model, w: &mut [f64]) -> Terms<'a> {
        if let (&Distribution::Exponential { rate }, Some(ex)) = (model.access(), model.extremes())
            && let Some(w_max) = ex.w_max
        {
            let (cap, bmax) = (700.0_f64.exp_m1(), ex.mu_max / rate);
            let sigma = Sigma::with_max(model, Scaled::new(w_max));
            return Terms {
                model,
                sigma,
                bmax: bmax.min(cap),
                bmin: (ex.mu_min / rate).min(cap),
                fused: true,
                mu_max: (bmax < cap).then_some(ex.mu_max),
            };
        }
        let (sigma, (bmin, bmax)) = Sigma::new(model, w);
        Terms {
            model,
            sigma,
            bmax,
            bmin,
            fused: false,
            mu_max: None,
        }
    }

    /// The plain w_i of the pages `pages` into `w` when they are not there
    /// already ([`Terms::new`] found every one plain).
    #[inline(always)]
    fn plain_weights(&self, pages: Range<usize>, w: &mut [f64]) {
        if !self.fused {
            return;
        }
        let m = self.model;
        let mean = m.mean_access();
        let (mu, c) = (&m.change_rates()[pages.clone()], &m.weights()[pages]);
        for ((x, &m), &c) in w.iter_mut().zip(mu).zip(c) {
            *x = c / (m * mean);
        }
    }

    /// β'_i for the pages `pages` into `bt`: μ_i/max μ correctly rounded
    /// when [`Terms::new`] allows (the largest exactly 1, as β_max/β_max:
    /// the compensated sums rely on it when β' spans more than their
    /// precision), else β_i/β_max.
    #[inline(always)]
    fn betas(&self, pages: Range<usize>, bt: &mut [f64]) {
        if let Some(top) = self.mu_max {
            for (b, m) in bt.iter_mut().zip(&self.model.change_rates()[pages]) {
                *b = m / top;
            }
            return;
        }
        fill_beta(self.model, pages, bt);
        bt.iter_mut().for_each(|b| *b /= self.bmax);
    }

    /// σ_i in place of the plain w_i left by [`Sigma::new`] for the pages
    /// `pages`: [`Sigma::of_plain`]'s operations in a loop without branches
    /// (it vectorises), then page by page from the model only if a value
    /// leaves the normal range.
    #[inline(always)]
    fn sigmas(&self, pages: Range<usize>, w: &mut [f64]) {
        if let Some(wmax) = self.sigma.wmax_plain {
            let mut plain = true;
            for x in w.iter_mut() {
                let r = *x / wmax;
                plain &= normal(*x) & normal(r);
                *x = r.sqrt();
            }
            if plain {
                return;
            }
        }
        for (x, i) in w.iter_mut().zip(pages) {
            let plain = plain_weight(self.model, i).and_then(|w| self.sigma.of_plain(w));
            *x = plain.unwrap_or_else(|| self.sigma.of(i));
        }
    }

    /// Turns what [`Terms::new`] left in `f` into σ_i (unless `f` holds σ
    /// already) and returns their histogram: one per run of whole chunks
    /// (at most [`HISTOGRAMS`] runs), merged in run order (the same bits
    /// whatever the thread count).
    fn histogram(&self, f: &mut [f64], sigma_ready: bool) -> Histogram {
        let run = run_len(f.len());
        fold_pieces_par(
            [f],
            run,
            Histogram::default(),
            |pages, [w]| {
                let mut h = Histogram::zero();
                let mut bt = [0.0; BLOCK];
                for (lo, w) in (pages.start..).step_by(BLOCK).zip(w.chunks_mut(BLOCK)) {
                    let (block, b) = (lo..lo + w.len(), &mut bt[..w.len()]);
                    if !sigma_ready {
                        self.plain_weights(block.clone(), w);
                        self.sigmas(block.clone(), w);
                    }
                    self.betas(block, b);
                    h.add_block(w, b);
                }
                h
            },
            Histogram::merge,
        )
    }
}

/// What [`water_fill`]'s pass finds around the root's bucket k.
struct Around {
    /// The smallest σ above bucket k, the largest below it (0 if none).
    min_above: f64,
    max_below: f64,
    /// (σ_i, i) of the pages in bucket k, in page order.
    inside: Vec<(f64, usize)>,
}

impl Around {
    fn new() -> Around {
        Around {
            min_above: f64::INFINITY,
            max_below: 0.0,
            inside: Vec::new(),
        }
    }

    fn merge(mut self, o: Around) -> Around {
        self.min_above = self.min_above.min(o.min_above);
        self.max_below = self.max_below.max(o.max_below);
        self.inside.extend(o.inside);
        self
    }
}

/// [`Around`] for the pages `pages` (σ in `sg`) and the bucket [lo, hi)
/// (bucket k ≥ 1 is [edge(k), edge(k + 1)), exactly): the extremes in
/// four lanes without branches (vectorises), then the pages inside in a
/// second loop only when there are some.
fn around_bucket(sg: &[f64], pages: Range<usize>, lo: f64, hi: f64) -> Around {
    let (mut above, mut below, mut inside) = ([f64::INFINITY; 4], [0.0_f64; 4], [0usize; 4]);
    let mut quads = sg.chunks_exact(4);
    let mut step = |l: usize, s: f64| {
        let (up, down) = outside(s, lo, hi);
        let a = if up { s } else { f64::INFINITY };
        let b = if down { s } else { 0.0 };
        above[l] = if a < above[l] { a } else { above[l] };
        below[l] = if b > below[l] { b } else { below[l] };
        inside[l] += usize::from(!(up | down));
    };
    for q in &mut quads {
        for (l, &s) in q.iter().enumerate() {
            step(l, s);
        }
    }
    for &s in quads.remainder() {
        step(0, s);
    }
    let mut a = Around::new();
    a.min_above = above.into_iter().fold(f64::INFINITY, f64::min);
    a.max_below = below.into_iter().fold(0.0, f64::max);
    let count = inside.iter().sum::<usize>();
    if count > 0 && count < sg.len() / 64 {
        // Few inside: a branch per page, almost never taken.
        let mut found = Vec::with_capacity(count);
        for (&s, i) in sg.iter().zip(pages) {
            // One branch (on the difference's sign bits), not one per test.
            // s < hi: s − hi has its sign bit; s ≥ lo > 0: s − lo has not.
            if ((s - hi).to_bits() & !(s - lo).to_bits()) >> 63 == 1 {
                found.push((s, i));
            }
        }
        a.inside = found;
    } else if count > 0 {
        // Many: without a branch per page, each page is written at the
        // next free slot, which advances only past the pages inside (the
        // same test as the count, so the slot stays below count + 1).
        let mut found = vec![(0.0, 0); count + 1];
        let mut k = 0;
        for (&s, i) in sg.iter().zip(pages) {
            found[k] = (s, i);
            let (up, down) = outside(s, lo, hi);
            k += usize::from(!(up | down));
        }
        found.truncate(count);
        a.inside = found;
    }
    a
}

/// (σ above the bucket [lo, hi), σ below it).
#[inline]
fn outside(s: f64, lo: f64, hi: f64) -> (bool, bool) {
    (s >= hi, s < lo)
}

/// The exact active set from the root's bucket alone: the histogram sums
/// the pages above the bucket (compensated); one pass gathers those inside
/// it (σ in `sig`); water filling through them in decreasing σ adds a page
/// while it is active at the sums of the pages before it. The result is
/// returned only when it is a fixed point of the Newton step (its smallest
/// σ active, the largest σ outside inactive, at its own sums), which in
/// exact arithmetic is unique: `None` (Newton over arrays instead) when the
/// bucket sums misled, κ is not finite, or the bucket holds more than an
/// eighth of the pages.
fn water_fill(terms: &Terms, hist: &Histogram, sig: &mut [f64], kappa: f64) -> Option<Cutoff> {
    let n = sig.len();
    let (k, _, _) = hist.root(kappa)?;
    if hist.buckets[k].count > (n / 8).max(1 << 12) {
        return None;
    }
    let (lo, hi) = (Histogram::edge(k), Histogram::edge(k + 1));
    let around = fold_chunks(
        [sig],
        Around::new(),
        |pages, [sg]| around_bucket(sg, pages, lo, hi),
        Around::merge,
    );
    let mut inside = around.inside;
    inside.sort_by(|x, y| y.0.total_cmp(&x.0));
    let (mut sums, mut smallest) = (hist.above(k), around.min_above);
    let mut next_out = around.max_below;
    for &(s, i) in &inside {
        if !Cutoff::new(kappa, sums).active(s) {
            next_out = next_out.max(s);
            break;
        }
        let mut b = [0.0];
        terms.betas(i..i + 1, &mut b);
        sums.add(s, b[0]);
        smallest = s;
    }
    let cut = Cutoff::new(kappa, sums);
    (sums.count > 0 && cut.active(smallest) && !cut.active(next_out)).then_some(cut)
}

/// The plan at `cut` in place of σ in `f`, in one pass: f_i = x_i/(κS)
/// with x_i = excess_i⁺·β'_i ([`Cutoff::excess`]) on the active pages, 0
/// elsewhere, since over the active set P whose sums B, S the cut holds,
/// Σ_P x_i = (κ + B)S − SB = κS; multiplied by 1/(κS) (one rounding
/// more than a division, which was a third of this pass's time: within 1
/// ulp of x_i/(κS)). Returns the number of pages active at `cut` and the
/// plan's sum ([`settle`] checks it); `None` (`f` unchanged) when κS or
/// its inverse is not a normal double.
fn write_plan(terms: &Terms, cut: Cutoff, f: &mut [f64]) -> Option<(usize, f64, bool)> {
    let total = cut.kappa * (cut.s.hi + cut.s.lo);
    let scale = 1.0 / total;
    if !(total.is_normal() && scale.is_normal()) {
        return None;
    }
    let plan = fold_chunks(
        [f],
        (0, 0.0, false),
        |pages, [x]| {
            crate::simd::wide(PlanRun {
                terms,
                cut,
                scale,
                pages,
                x,
            })
        },
        |(a, s, l), (b, t, m)| (a + b, s + t, l | m),
    );
    Some(plan)
}

/// One chunk of [`write_plan`]: (pages active, Σ x, an active β' lost).
struct PlanRun<'a, 'b> {
    terms: &'a Terms<'a>,
    cut: Cutoff,
    scale: f64,
    pages: Range<usize>,
    x: &'b mut [f64],
}

impl crate::simd::Kernel for PlanRun<'_, '_> {
    type Output = (usize, f64, bool);

    #[inline(always)]
    fn run(self) -> (usize, f64, bool) {
        let PlanRun {
            terms,
            cut,
            scale,
            pages,
            x,
        } = self;
        let (mut bt, mut active, mut total) = ([0.0; BLOCK], 0, [0.0; 4]);
        let mut lost = false;
        for (lo, x) in (pages.start..).step_by(BLOCK).zip(x.chunks_mut(BLOCK)) {
            let b = &mut bt[..x.len()];
            terms.betas(lo..lo + x.len(), b);
            let (on, l) = plan_block(cut, scale, x, b);
            active += on;
            lost |= l;
            let mut quads = x.chunks_exact(4);
            for q in &mut quads {
                for (t, v) in total.iter_mut().zip(q) {
                    *t += v;
                }
            }
            for (t, v) in total.iter_mut().zip(quads.remainder()) {
                *t += v;
            }
        }
        (active, (total[0] + total[1]) + (total[2] + total[3]), lost)
    }
}

/// Largest |Σ f − 1| a plan keeps as written.
const PLAN_SUM_SLACK: f64 = 1e-14;

/// Whether the plan in `f` from [`write_plan`] at `cut`, with sum `total`,
/// stands; false when the sum is not a positive double or exceeds
/// [`SPURIOUS`] (a spurious active page: [`newton`] resolves it). Σ_P x_i = κS holds
/// to rounding unless κ lies below the compensated sums' precision next to
/// B (an inactive page's β larger than the active ones' by 10^30 and
/// more): then the excesses share an error from the sums' low parts,
/// which shifts every x_i by the same multiple of β'_i, and the plan's
/// deficit 1 − Σ f is given back to the active pages in proportion to β'
/// ([`give_back`]); pages whose excess is large barely move.
fn settle(terms: &Terms, cut: Cutoff, f: &mut [f64], total: f64) -> bool {
    if !(total.is_finite() && total > 0.0 && total <= SPURIOUS) {
        return false;
    }
    if (total - 1.0).abs() > PLAN_SUM_SLACK {
        let per_beta = (1.0 - total) / (cut.b.hi + cut.b.lo);
        let after = fold_chunks(
            [f],
            0.0,
            |pages, [x]| {
                let (mut bt, mut sum) = ([0.0; BLOCK], 0.0);
                for (lo, x) in (pages.start..).step_by(BLOCK).zip(x.chunks_mut(BLOCK)) {
                    let b = &mut bt[..x.len()];
                    terms.betas(lo..lo + x.len(), b);
                    sum += give_back(x, b, per_beta);
                }
                sum
            },
            |a, b| a + b,
        );
        // The deficit belonged to pages the plan did not visit (an active
        // page's excess lost to rounding): not this plan.
        return (after - 1.0).abs() <= GIVEN_BACK_SLACK;
    }
    true
}

/// Largest |Σ f − 1| after [`give_back`]: the deficit went back to the
/// pages it came from.
const GIVEN_BACK_SLACK: f64 = 1e-12;

/// x_i + `per_beta`·β'_i (at least 0) for the pages with x_i > 0; returns
/// the new Σ x.
fn give_back(x: &mut [f64], beta: &[f64], per_beta: f64) -> f64 {
    let mut sum = 0.0;
    for (v, &b) in x.iter_mut().zip(beta) {
        if *v > 0.0 {
            *v = (*v + per_beta * b).max(0.0);
            sum += *v;
        }
    }
    sum
}

/// [`write_plan`] for one block (σ in `x`, β' in `b`): the plain test of
/// [`Cutoff::active`] and the excess for every page without a branch on
/// the outcome (it is unpredictable), kept only where the page is
/// active; the exact test decides the rare pages within the margin.
/// Returns the number of active pages, and whether an active page's
/// excess is below what the compensated sums resolve ([`UNRESOLVED`]):
/// its plan needs [`newton`]'s exact excesses.
#[inline(always)]
fn plan_block(cut: Cutoff, scale: f64, x: &mut [f64], b: &[f64]) -> (usize, bool) {
    let mut plan = [0.0; BLOCK];
    let (mut unsure, mut active) = (false, 0);
    for ((p, &s), &b) in plan.iter_mut().zip(x.iter()).zip(b) {
        let t = s * cut.num - cut.s.hi;
        let (e, exact) = cut.excess_split(s);
        unsure |= (t.abs() <= cut.margin) | (!exact & (t > cut.margin));
        let eb = e.max(0.0) * b;
        let v = eb * scale;
        // e·b below the normal range has lost bits that e·b·scale keeps
        // ([`weigh`] on the exact route).
        unsure |= (eb < f64::MIN_POSITIVE) & (t > cut.margin);
        active += usize::from(t > cut.margin);
        *p = if t > cut.margin { v } else { 0.0 };
    }
    let mut lost = false;
    if unsure {
        active = 0;
        for ((p, &s), &b) in plan.iter_mut().zip(x.iter()).zip(b) {
            let on = cut.active(s);
            active += usize::from(on);
            let e = cut.excess(s);
            lost |= on & (e.abs() <= UNRESOLVED * (s * cut.num + cut.s.hi));
            *p = if on { weigh(e.max(0.0), b, scale) } else { 0.0 };
        }
    }
    x.copy_from_slice(&plan[..x.len()]);
    (active, lost)
}

/// e·b·`scale` (all ≥ 0) as (e·b)·scale, except where e·b leaves the
/// normal range (e ≫ 0 and b near the least double: then it has lost its
/// low bits, or all of them) while the product need not: then
/// (e·scale)·b, or through logs.
fn weigh(e: f64, b: f64, scale: f64) -> f64 {
    let eb = e * b;
    if eb >= f64::MIN_POSITIVE || e == 0.0 || b == 0.0 {
        return eb * scale;
    }
    let es = e * scale;
    if es.is_finite() && es >= f64::MIN_POSITIVE {
        return es * b;
    }
    (e.ln() + b.ln() + scale.ln()).exp()
}

/// [`ActiveSums`] over the pages active at `cut`, in fixed chunks.
fn active_sums(sig: &mut [f64], beta: &mut [f64], cut: Cutoff) -> ActiveSums {
    fold_chunks(
        [sig, beta],
        ActiveSums::default(),
        |_, [sg, bt]| {
            let mut acc = ActiveSums::default();
            for (&s, &b) in sg.iter().zip(bt.iter()) {
                if cut.active(s) {
                    acc.add(s, b);
                }
            }
            acc
        },
        ActiveSums::merge,
    )
}

/// Bound on the compensated Newton steps (one or two in practice).
const MAX_NEWTON: usize = 64;

/// Newton with plain sums from ρ = num/den = `start` (to the right of the
/// root; (∞, 0) at worst): ρ = num/den once the active set
/// {σ_i·num > den} stops shrinking (at κ = ∞, every page with σ_i > 0).
fn plain_newton(sig: &mut [f64], bt: &mut [f64], kappa: f64, start: (f64, f64)) -> (f64, f64) {
    let (mut num, mut den) = start;
    let mut count = usize::MAX;
    loop {
        let (c, b, s) = plain_sums(sig, bt, num, den);
        if c >= count {
            return (num, den);
        }
        (count, num, den) = (c, kappa + b, s);
    }
}

/// The number of pages with σ_i·num > den and their Σ β'_i, Σ σ_iβ'_i in
/// plain doubles (four interleaved partial sums per chunk, in fixed order).
fn plain_sums(sig: &mut [f64], bt: &mut [f64], num: f64, den: f64) -> (usize, f64, f64) {
    fold_chunks(
        [sig, bt],
        (0, 0.0, 0.0),
        |_, [sg, b]| {
            let (mut c, mut bs, mut ss) = (0, [0.0; 4], [0.0; 4]);
            for (s4, b4) in sg.chunks(4).zip(b.chunks(4)) {
                for (l, (&s, &b)) in s4.iter().zip(b4).enumerate() {
                    let on = s * num > den;
                    c += usize::from(on);
                    bs[l] += if on { b } else { 0.0 };
                    ss[l] += if on { s * b } else { 0.0 };
                }
            }
            (
                c,
                (bs[0] + bs[1]) + (bs[2] + bs[3]),
                (ss[0] + ss[1]) + (ss[2] + ss[3]),
            )
        },
        |(c, b, s), (d, e, t)| (c + d, b + e, s + t),
    )
}

/// Optimal randomized frequencies for arbitrary weights: the KKT solution of
/// the convex problem (12).
///
/// Eq. (15) gives x_i = (√(c_i/(λ μ_i E\[X\])) − 1)(1 − h_i)/h_i where that is
/// positive; where it is not, the derivative of page i's term at x_i = 0 is
/// already ≥ 0 and the KKT conditions give x_i = 0 (the paper's validity
/// condition after (16) is exactly "no clipping needed"). With ρ = λ^{-1/2},
/// σ_i = √(c_i/(μ_i E\[X\])) and β_i = h_i^{-1} − 1 (both scaled by their
/// largest, κ = 1/β_max), (14) reads F(ρ) = Σ_i (ρσ_i − 1)⁺β_i = κ: F is
/// piecewise linear, convex and increasing, so Newton's method from the
/// right, ρ ← (κ + B)/S with B = Σ_P β_i, S = Σ_P σ_iβ_i over the active set
/// P = {ρσ_i > 1}, shrinks P at every step and stops exactly when P no
/// longer changes; then x_i ∝ (ρσ_i − 1)S β_i (see [`Cutoff`]).
///
/// Four passes on [`super::par`] threads, with σ kept in the output and β'
/// recomputed from μ where needed: the largest w and β (w into the
/// output); σ in place of w and a histogram of σ with compensated sums per
/// bucket, locating the root's bucket; the pages inside it gathered, which
/// with the sums above it fixes P exactly ([`water_fill`]); the plan in
/// place of σ ([`write_plan`]). From [`band::BAND_MIN`] pages the
/// histogram and the gathering give way to a sample and one pass: a
/// strided sample's own root brackets the root in a band of σ, the pass
/// sums the pages above it in vector lanes and keeps the few inside, and
/// selection among those fixes P ([`band::cut`]); the plan's pass checks
/// that P is the active set at its own cut, else the histogram's route
/// runs. Newton steps over σ and an array of β' (16 bytes per page) where
/// neither shortcut applies. For exponential X with weights, rates and
/// the crawl rate within 2^±400, large models take [`poisson`]'s route
/// first: the same band and selection over s_i = √(c_iμ_i) in place of
/// σ_iβ'_i, one square root per page and no division, two passes.
///
/// Errors: `TooLarge` beyond the memory cap ([`RANDOMIZED_BYTES_PER_PAGE`]
/// per page); `NotConverged` as [`optimal_frequencies`].
pub fn optimal_frequencies_general(model: &Model) -> Result<Vec<f64>> {
    check_memory(model.len())?;
    let mut f = crate::pages::zeroed(model.len());
    general_into(model, &mut f, model.len() >= band::BAND_MIN)?;
    Ok(f)
}

/// [`optimal_frequencies`] into `out` (one entry per page; [`Model::len`]):
/// the same bits, with no array allocated for the plan (one of 8 bytes
/// per page where the Newton steps are needed, see
/// [`optimal_frequencies_general`]). `out` is unchanged when the model or
/// `out` is refused before the solve (`InvalidArgument`, `TooLarge`); the
/// solve itself uses `out` as its scratch, so its own error
/// (`NotConverged`: see [`optimal_frequencies`]) leaves it overwritten.
///
/// Errors: as [`optimal_frequencies`], and `InvalidArgument` when `out`
/// does not have one entry per page.
pub fn optimal_frequencies_into(model: &Model, out: &mut [f64]) -> Result<()> {
    if out.len() != model.len() {
        return Err(Error::InvalidArgument(format!(
            "the plan needs one entry per page ({}), not {}",
            model.len(),
            out.len()
        )));
    }
    if !model.is_proportional() {
        check_memory(model.len())?;
        return general_into(model, out, model.len() >= band::BAND_MIN);
    }
    out.copy_from_slice(&optimal_frequencies(model)?);
    Ok(())
}

/// [`optimal_frequencies_general`] into `f`, from the band around a
/// sample's root ([`poisson`] where it applies, else [`band`]) when
/// `by_band`, else (or when the band misled) from the histogram.
fn general_into(model: &Model, f: &mut [f64], by_band: bool) -> Result<()> {
    if by_band && poisson::plan(model, f).is_some() {
        return Ok(());
    }
    // Setup: w_max and β_max (κ = 1/β_max), with the plain w_i in `f`
    // where they are not recomputed from the model.
    let terms = Terms::new(model, f);
    if terms.bmin / terms.bmax < wide::WIDE_SPREAD {
        return wide::plan(model, f);
    }
    let kappa = 1.0 / terms.bmax;
    let band = by_band.then(|| band::band(&terms, f, kappa)).flatten();
    if let Some(band) = band
        && let Some((cut, count)) = band::cut(&terms, f, kappa, band)
    {
        match write_plan(&terms, cut, f) {
            // The active set the band's sums were taken over.
            Some((active, total, false)) if active == count && settle(&terms, cut, f, total) => {
                return Ok(());
            }
            // Not a fixed point of the Newton step; σ is overwritten.
            Some(_) => return general_into(model, f, false),
            None => {}
        }
    }
    // σ_i in `f` (unless the band's pass put them there) and their
    // histogram; the active set from the root's bucket, then the plan.
    let hist = terms.histogram(f, band.is_some());
    if let Some(cut) = water_fill(&terms, &hist, f, kappa) {
        match write_plan(&terms, cut, f) {
            Some((_, total, false)) if settle(&terms, cut, f, total) => return Ok(()),
            // σ is overwritten: Newton from the start.
            Some(_) => {
                let terms = Terms::new(model, f);
                let hist = terms.histogram(f, false);
                return newton(&terms, f, kappa, hist.start(kappa));
            }
            None => {}
        }
    }
    newton(&terms, f, kappa, hist.start(kappa))
}

/// [`poisson::plan`] for the tests, at any size.
#[cfg(test)]
pub(crate) fn poisson_plan_for_test(model: &Model) -> Option<Vec<f64>> {
    let mut f = crate::pages::zeroed(model.len());
    poisson::plan(model, &mut f).map(|()| f)
}

/// [`general_into`] for the tests (`by_band` at any size).
#[cfg(test)]
pub(crate) fn general_into_for_test(model: &Model, f: &mut [f64], by_band: bool) -> Result<()> {
    general_into(model, f, by_band)
}

/// [`optimal_frequencies_general`] by the band's route at any size:
/// `None` where it would fall back to the histogram.
#[cfg(test)]
pub(crate) fn general_by_band(model: &Model) -> Option<Vec<f64>> {
    let mut f = crate::pages::zeroed(model.len());
    let terms = Terms::new(model, &mut f);
    let kappa = 1.0 / terms.bmax;
    let band = band::band(&terms, &f, kappa)?;
    let (cut, count) = band::cut(&terms, &mut f, kappa, band)?;
    let (active, total, lost) = write_plan(&terms, cut, &mut f)?;
    (active == count && !lost && settle(&terms, cut, &mut f, total)).then_some(f)
}

/// [`optimal_frequencies_general`] without the root's-bucket shortcut.
#[cfg(test)]
pub(crate) fn general_by_newton(model: &Model) -> Result<Vec<f64>> {
    let mut f = crate::pages::zeroed(model.len());
    let terms = Terms::new(model, &mut f);
    let kappa = 1.0 / terms.bmax;
    let start = terms.histogram(&mut f, false).start(kappa);
    newton(&terms, &mut f, kappa, start)?;
    Ok(f)
}

/// [`optimal_frequencies_general`] by Newton steps over σ (in `sig`) and
/// β' from ρ = num/den = `start` (to the right of the root).
fn newton(terms: &Terms, sig: &mut [f64], kappa: f64, start: (f64, f64)) -> Result<()> {
    // Setup: β' in a scratch buffer.
    let mut bt = crate::pages::zeroed(sig.len());
    fold_chunks(
        [&mut bt[..]],
        (),
        |pages, [b]| terms.betas(pages, b),
        |(), ()| (),
    );
    // Main loop: Newton in plain doubles, then in compensated ones from
    // that active set (usually one pass confirms it).
    let (num, den) = plain_newton(sig, &mut bt, kappa, start);
    let mut sums = active_sums(sig, &mut bt, Cutoff::plain(num, den));
    // Active sets are the pages above a σ threshold: an unchanged count
    // is an unchanged set. After a first step to the right of the root
    // (if the plain set was short), the sets shrink.
    for _ in 0..MAX_NEWTON {
        if !kappa.is_finite() || sums.count == 0 {
            break;
        }
        let at_next = active_sums(sig, &mut bt, Cutoff::new(kappa, sums));
        let same = at_next.count == sums.count;
        sums = at_next;
        if same {
            break;
        }
    }
    // The active set and the excesses that the compensated sums cannot
    // resolve, decided by sums without cancellation.
    let (sums, member) = if kappa.is_finite() && sums.count > 0 {
        exact_active_set((sig, &mut bt), kappa, Cutoff::new(kappa, sums))?
    } else {
        (sums, Cutoff::new(kappa, sums))
    };
    let cut = Cutoff::new(kappa, sums);
    let scaled_total = kappa * (cut.s.hi + cut.s.lo);
    if kappa.is_finite() && sums.count > 0 && !scaled_total.is_normal() {
        // κS below the normal range (β_max from an inactive page far
        // above the active ones'): the x_i would be subnormal or 0.
        return rescaled(terms.model, &terms.sigma, member, sig, &mut bt);
    }
    let exact = if kappa.is_finite() {
        unresolved_excesses(sig, &bt, member, cut)
    } else {
        Vec::new()
    };
    // x_i and κS both times the power of two nearest 1/(κS), which keeps
    // every x_i that the plan can hold clear of the subnormal range and
    // leaves the quotients' bits as they are.
    let pow2 = power_of_two_inverse(scaled_total);
    let s = weigh_active(sig, &mut bt, (member, cut), pow2, &exact);
    if !(s.is_finite() && s > 0.0) {
        // Every active x_i underflowed: weighed relative to the active set.
        return rescaled(terms.model, &terms.sigma, member, sig, &mut bt);
    }
    // Σ x should be κS: where it is not ([`settle`]), the difference goes
    // back to the active pages in proportion to β'.
    let total = scaled_total * pow2;
    if total.is_normal() && (s / total - 1.0).abs() > PLAN_SUM_SLACK {
        let per_beta = (total - s) / (cut.b.hi + cut.b.lo);
        let after = fold_chunks(
            [&mut *sig, &mut bt[..]],
            0.0,
            |_, [x, b]| give_back(x, b, per_beta),
            |a, b| a + b,
        );
        if (after / total - 1.0).abs() > GIVEN_BACK_SLACK {
            return Err(unresolved());
        }
        divide(sig, total);
    } else {
        divide(sig, s);
    }
    Ok(())
}

fn unresolved() -> Error {
    Error::NotConverged(
        "the randomized plan's active set could not be resolved in double precision: \
         its pages' change rates and weights span too many decades"
            .into(),
    )
}

/// The active set of (14) with every membership decided exactly enough:
/// page j is active iff G_j = Σ_{σ_i > σ_j} β'_i(σ_i − σ_j) < κσ_j (F at
/// ρ = 1/σ_j below κ), a sum of non-negative terms, so no cancellation
/// hides its sign as it can in σ_j(κ + B) − S when page j holds nearly all
/// of B and S. Starts from `cut`'s set, checks its least active and
/// greatest inactive σ and moves the threshold until both hold. Returns
/// the set's sums and its membership test (σ above a threshold).
fn exact_active_set(
    (sig, bt): (&mut [f64], &mut [f64]),
    kappa: f64,
    cut: Cutoff,
) -> Result<(ActiveSums, Cutoff)> {
    // Sequential read-only passes (a fallback; the same bits on any
    // thread count).
    let max_below = |sg: &[f64], bound: f64, strict: bool| {
        sg.iter()
            .filter(|&&x| {
                if strict {
                    x < bound
                } else {
                    x <= bound && !cut.active(x)
                }
            })
            .fold(0.0, |m: f64, &x| m.max(x))
    };
    // τ: the greatest σ of an inactive page (0: none); active iff σ > τ.
    let mut tau = max_below(sig, f64::INFINITY, false);
    for _ in 0..MAX_NEWTON {
        let least = sig
            .iter()
            .filter(|&&x| x > tau)
            .fold(f64::INFINITY, |m: f64, &x| m.min(x));
        if least.is_finite() && !exactly_active((sig, bt), kappa, least) {
            tau = least;
            continue;
        }
        if tau > 0.0 && exactly_active((sig, bt), kappa, tau) {
            tau = max_below(sig, tau, true);
            continue;
        }
        let member = Cutoff::plain(1.0, tau);
        return Ok((active_sums(sig, bt, member), member));
    }
    Err(unresolved())
}

/// G_j < κσ_j for σ_j = `sigma` ([`exact_active_set`]), in logs (both
/// sides may lie below the doubles' range): ln G by the largest term's
/// ln and the sum of the terms relative to it (every β'_i is normal:
/// β_min/β_max ≥ [`wide::WIDE_SPREAD`] on this route).
fn exactly_active((sig, bt): (&[f64], &[f64]), kappa: f64, sigma: f64) -> bool {
    // Plain doubles decide unless a side leaves the normal range or the
    // two are within rounding of each other.
    let g: f64 = sig
        .iter()
        .zip(bt)
        .filter(|(x, _)| **x > sigma)
        .map(|(x, b)| b * (x - sigma))
        .sum();
    let k = kappa * sigma;
    if (g == 0.0 || g.is_normal()) && k.is_normal() && (g - k).abs() > 1e-9 * k {
        return g < k;
    }
    let ln_term = |i: usize| bt[i].ln() + (sig[i] - sigma).ln();
    let above = || (0..sig.len()).filter(|&i| sig[i] > sigma);
    let top = above().map(ln_term).fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return true;
    }
    let ln_g = top + above().map(|i| (ln_term(i) - top).exp()).sum::<f64>().ln();
    ln_g < kappa.ln() + sigma.ln()
}

/// Relative size below which a compensated excess is not trusted.
const UNRESOLVED: f64 = 1e-28;

/// Most pages whose excess [`unresolved_excesses`] recomputes (one pass
/// each).
const UNRESOLVED_MAX: usize = 16;

/// The active pages whose excess σ_j(κ + B) − S the compensated sums do
/// not resolve (below [`UNRESOLVED`] of its terms), with the excess as
/// σ_jκ + Σ_{P, σ_i < σ_j} β'_i(σ_j − σ_i) − Σ_{σ_i > σ_j} β'_i(σ_i − σ_j):
/// two sums of non-negative terms. Empty beyond [`UNRESOLVED_MAX`] pages.
fn unresolved_excesses(sig: &[f64], bt: &[f64], member: Cutoff, cut: Cutoff) -> Vec<(usize, f64)> {
    let found: Vec<(usize, f64)> = sig
        .iter()
        .enumerate()
        .filter(|&(_, &x)| {
            member.active(x) && cut.excess(x).abs() <= UNRESOLVED * (x * cut.num + cut.s.hi)
        })
        .map(|(k, &x)| (k, x))
        .collect();
    if found.len() > UNRESOLVED_MAX {
        return Vec::new();
    }
    found
        .into_iter()
        .map(|(j, sj)| {
            let (mut below, mut above) = (0.0, 0.0);
            for (&x, &b) in sig.iter().zip(bt) {
                if x > sj {
                    above += b * (x - sj);
                } else if x < sj && member.active(x) {
                    below += b * (sj - x);
                }
            }
            (j, sj * cut.kappa + below - above)
        })
        .collect()
}

/// A plan whose Σ x exceeds κS by this factor has a wrong active set (a
/// marginal page's excess lost to the compensated sums): [`settle`]
/// refuses it and [`newton`] decides the set exactly. Rounding moves the
/// sum by far less (at most 2e−4 seen, where κ is 10^30 below B).
const SPURIOUS: f64 = 2.0;

/// The same active set with β scaled by the active set's largest, in logs
/// (`sig` holds the weighed x and is overwritten).
fn rescaled(
    model: &Model,
    sigma: &Sigma,
    cut: Cutoff,
    sig: &mut [f64],
    bt: &mut [f64],
) -> Result<()> {
    let ln_bact = fold_chunks(
        [&mut *sig, &mut *bt],
        f64::NEG_INFINITY,
        |pages, [sg, b]| {
            fill_beta(model, pages.clone(), b);
            let mut m = f64::NEG_INFINITY;
            for (k, i) in pages.enumerate() {
                sg[k] = sigma.of(i);
                if cut.active(sg[k]) {
                    m = m.max(b[k].ln());
                }
            }
            m
        },
        f64::max,
    );
    let ln_c = -ln_bact;
    fold_chunks(
        [&mut *sig, &mut *bt],
        (),
        |_, [sg, b]| {
            for (s, b) in sg.iter().zip(b.iter_mut()) {
                // Inactive pages may overflow here; they are never read.
                *b = if cut.active(*s) {
                    (b.ln() + ln_c).exp()
                } else {
                    0.0
                };
            }
        },
        |(), ()| (),
    );
    let sums = active_sums(sig, bt, cut);
    let value = Cutoff::new(ln_c.exp(), sums);
    let total = value.kappa * (value.s.hi + value.s.lo);
    let s = if total.is_normal() {
        let pow2 = power_of_two_inverse(total);
        weigh_active(sig, bt, (cut, value), pow2, &[])
    } else {
        weigh_relative(sig, bt, cut, value)
    };
    if !(s.is_finite() && s > 0.0) {
        return Err(Error::NotConverged(format!(
            "frequencies sum to {}",
            Num(s)
        )));
    }
    divide(sig, s);
    Ok(())
}

/// f_i up to a common factor where κS is below the normal range (so may
/// be each excess σ_iκ + (σ_iB − S)): x_i/(κS) = β'_i (σ_i + (σ_iB − S)/κ)/S
/// in logs, the compensated part σ_iB − S divided by κ before it meets σ_i.
fn weigh_relative(sig: &mut [f64], bt: &mut [f64], cut: Cutoff, value: Cutoff) -> f64 {
    let no_kappa = Cutoff {
        kappa: 0.0,
        ..value
    };
    let ln_s = (value.s.hi + value.s.lo).ln();
    weigh_each(sig, bt, |_, si, b| {
        let q = si + no_kappa.excess(si) / value.kappa;
        if cut.active(si) && q > 0.0 {
            (b.ln() + q.ln() - ln_s).exp()
        } else {
            0.0
        }
    })
}

/// x_i = `x(i, σ_i, β'_i)` in place of σ_i for every page, in fixed
/// chunks; returns Σ x_i.
fn weigh_each(sig: &mut [f64], bt: &mut [f64], x: impl Fn(usize, f64, f64) -> f64 + Sync) -> f64 {
    fold_chunks(
        [sig, bt],
        0.0,
        |pages, [sg, bt]| {
            let mut total = 0.0;
            for ((i, v), &b) in pages.clone().zip(sg.iter_mut()).zip(bt.iter()) {
                *v = x(i, *v, b);
                total += *v;
            }
            total
        },
        |a, b| a + b,
    )
}

/// σ_i = √(w_i/w_max) for the weights w_i = c_i/(μ_i E\[X\]).
struct Sigma<'a> {
    model: &'a Model,
    wmax: Scaled,
    /// w_max as a double, when it is a normal one.
    wmax_plain: Option<f64>,
}

impl<'a> Sigma<'a> {
    /// w_max and (β_min, β_max), in one pass that leaves the plain w_i
    /// (0 where it is not a normal double) in `w`.
    fn new(model: &'a Model, w: &mut [f64]) -> (Sigma<'a>, (f64, f64)) {
        let (plain, scaled, (bmin, bmax)) = fold_chunks(
            [w],
            (0.0_f64, None::<Scaled>, (f64::MAX, 0.0_f64)),
            |pages, [w]| {
                let (mu, c) = (
                    &model.change_rates()[pages.clone()],
                    &model.weights()[pages.clone()],
                );
                let mean = model.mean_access();
                // plain_weight's operations without branches (vectorises).
                let mut all_plain = true;
                for ((x, &m), &c) in w.iter_mut().zip(mu).zip(c) {
                    let me = m * mean;
                    let v = c / me;
                    let ok = normal(me) & normal(v);
                    all_plain &= ok;
                    *x = if ok { v } else { 0.0 };
                }
                let plain = w.iter().fold(0.0_f64, |m, &x| if x > m { x } else { m });
                let mut scaled = None::<Scaled>;
                if !all_plain {
                    for (&x, i) in w.iter().zip(pages.clone()) {
                        if x == 0.0 {
                            scaled = Some(max_scaled(scaled, model.scaled_weight(i)));
                        }
                    }
                }
                let (mut bmin, mut bmax) = (f64::MAX, 0.0_f64);
                let mut beta = [0.0; BLOCK];
                for lo in pages.clone().step_by(BLOCK) {
                    let b = &mut beta[..(pages.end - lo).min(BLOCK)];
                    fill_beta(model, lo..lo + b.len(), b);
                    bmin = b.iter().fold(bmin, |m, &x| if x < m { x } else { m });
                    bmax = b.iter().fold(bmax, |m, &x| if x > m { x } else { m });
                }
                (plain, scaled, (bmin, bmax))
            },
            |(p, s, (b, d)), (q, t, (c, e))| {
                let s = t.map_or(s, |t| Some(max_scaled(s, t)));
                (p.max(q), s, (b.min(c), d.max(e)))
            },
        );
        let wmax = if plain > 0.0 {
            max_scaled(scaled, Scaled::new(plain))
        } else {
            scaled.unwrap_or_else(|| model.scaled_weight(0))
        };
        (Sigma::with_max(model, wmax), (bmin, bmax))
    }

    fn with_max(model: &'a Model, wmax: Scaled) -> Sigma<'a> {
        let v = wmax.value();
        Sigma {
            model,
            wmax,
            wmax_plain: v.is_normal().then_some(v),
        }
    }

    /// σ_i from the plain w_i ([`plain_weight`]), when [`Sigma::of`]
    /// would take its plain route (same bits).
    fn of_plain(&self, w: f64) -> Option<f64> {
        let m = self.wmax_plain?;
        let r = w / m;
        (w > 0.0 && r.is_normal()).then(|| r.sqrt())
    }

    /// σ_i: √(w_i/w_max) in plain doubles when every step stays in the
    /// normal range (then the same bits as the mantissa/exponent route of
    /// [`Model::scaled_weight`]), else through [`Scaled`]; correctly
    /// rounded while the ratio is a normal double, through logarithms below.
    fn of(&self, i: usize) -> f64 {
        if let (Some(w), Some(m)) = (plain_weight(self.model, i), self.wmax_plain) {
            let r = w / m;
            if r.is_normal() {
                return r.sqrt();
            }
        }
        let w = self.model.scaled_weight(i);
        let r = w.ratio(self.wmax);
        if r >= f64::MIN_POSITIVE {
            r.sqrt()
        } else {
            (0.5 * w.ln_ratio(self.wmax)).exp()
        }
    }
}

/// w_i = c_i/(μ_i E\[X\]) when μ_i E\[X\] and w_i are normal doubles.
fn plain_weight(model: &Model, i: usize) -> Option<f64> {
    let me = model.change_rates()[i] * model.mean_access();
    let w = model.weights()[i] / me;
    (me.is_normal() && w.is_normal()).then_some(w)
}

/// The larger of `a` (if any) and `b`.
fn max_scaled(a: Option<Scaled>, b: Scaled) -> Scaled {
    a.map_or(b, |a| if b.cmp(a).is_gt() { b } else { a })
}

/// x_i = excess_i·β'_i·`scale` at `value` ([`weigh`]; the excess from
/// `exact` for the pages listed there, by index) on the pages active at
/// `member` (σ_i·β'_i·scale at κ = ∞), 0 on the others, in place of σ;
/// returns Σ x_i.
fn weigh_active(
    sig: &mut [f64],
    bt: &mut [f64],
    (member, value): (Cutoff, Cutoff),
    scale: f64,
    exact: &[(usize, f64)],
) -> f64 {
    weigh_each(sig, bt, |i, si, b| {
        if !member.active(si) {
            return 0.0;
        }
        if !value.kappa.is_finite() {
            return weigh(si, b, scale);
        }
        let e = match exact.iter().find(|(j, _)| *j == i) {
            Some(&(_, e)) => e,
            None => value.excess(si),
        };
        weigh(e.max(0.0), b, scale)
    })
}

/// The power of two nearest 1/`x` for a normal x (its exponent negated),
/// 1 where that is not a normal double.
fn power_of_two_inverse(x: f64) -> f64 {
    if !x.is_normal() {
        return 1.0;
    }
    let biased = (x.abs().to_bits() >> 52) as i64;
    let inverse = 2046 - biased;
    if (1..=2046).contains(&inverse) {
        f64::from_bits((inverse as u64) << 52)
    } else {
        1.0
    }
}

/// `x` divided by `s`, in fixed chunks.
fn divide(x: &mut [f64], s: f64) {
    fold_chunks(
        [x],
        (),
        |_, [c]| c.iter_mut().for_each(|v| *v /= s),
        |(), ()| (),
    );
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
