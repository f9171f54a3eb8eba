//! The randomized plan (15) for exponential crawl times (Poisson crawls)
//! over large models of moderate values: one square root per page and no
//! division, so that each of its two passes runs at about memory speed.
//!
//! For exponential X of rate K = 1/E\[X\], β_i = μ_i/K and σ_iβ_i ∝
//! s_i = √(c_iμ_i). Over the active set P, with M = Σ_P μ_i and
//! T = Σ_P s_i, page i's excess is e_i = (K + M)s_i − Tμ_i (the excess of
//! [`super::Cutoff`] times a positive constant), page i is active iff
//! e_i > 0, and f_i = e_i/(KT), which sums to 1 over P. The active set is
//! the pages of largest r_i = s_i/μ_i = √(c_i/μ_i) (water filling).
//!
//! The route is [`super::band`]'s: a strided sample's root gives a band
//! of r; one pass sums μ and s (compensated) over the pages above the
//! band and leaves those inside in the output (memory the plan writes
//! anyway, not memory to fault in); selection among them fixes P; one pass
//! writes the plan, each excess to within 1.4e-14 relative (from
//! error-free products where it is within 1/[`SURE`] of its terms). With μ_i,
//! c_i and K in [2^-400, 2^400] ([`TAME`]) every quantity stays a normal
//! double with room for the exact products' errors. [`plan`] returns
//! `None` (the general route plans) for other models, or when the band
//! misses the root, or a page lies closer to the cutoff than the
//! compensated sums resolve, or an active page's frequency is below the
//! normal range.

use super::super::par::{fold_chunks, fold_pieces_par};
use super::band::{INSIDE_MAX, around_root, joined, select_by_rank};
use super::{ActiveSums, Compensated, Model, PLAN_SUM_SLACK, UNRESOLVED, run_len};
use crate::dist::Distribution;
use crate::numeric::exact::product_error;
use crate::simd::Sums8;
use std::ops::Range;

/// Values of μ_i, c_i and K for which the route applies: [2^-400, 2^400].
const TAME: (f64, f64) = (
    f64::from_bits((1023 - 400) << 52),
    f64::from_bits((1023 + 400) << 52),
);

/// Pages whose plain excess exceeds 1/[`SURE`] of a = (K + M)s_i are
/// active with that excess; those whose excess is below −a/[`SURE`] are
/// not; the rest take the exact excess. Where |e| ≤ a/2 the subtraction
/// is exact, so the plain excess is off by the rounding of its two
/// products, about ε·a: within [`SURE`]·ε ≈ 1.4e-14 of e.
const SURE: f64 = 64.0;

/// A page: s = √(cμ), μ, and r = s/μ (the order of the water filling).
#[derive(Debug, Clone, Copy)]
struct Page {
    r: f64,
    mu: f64,
    s: f64,
}

impl Page {
    fn new(mu: f64, c: f64) -> Page {
        let s = (c * mu).sqrt();
        Page { r: s / mu, mu, s }
    }
}

/// The randomized plan (15) into `f` when `model` has exponential X,
/// weights, and every μ_i, c_i and K in [`TAME`]; `None` otherwise or
/// when the route cannot fix the active set (then `f` may be overwritten).
pub(super) fn plan(model: &Model, f: &mut [f64]) -> Option<()> {
    let Distribution::Exponential { rate: k } = *model.access() else {
        return None;
    };
    let ex = model.extremes()?;
    let (c_lo, c_hi) = ex.c_range?;
    let tame = |x: f64| (TAME.0..=TAME.1).contains(&x);
    if ![ex.mu_min, ex.mu_max, c_lo, c_hi, k].into_iter().all(tame) {
        return None;
    }
    let (mu, c) = (model.change_rates(), model.weights());
    let (lo, hi) = band(mu, c, k)?;
    let found = pass(mu, c, f, lo, hi);
    let mut inside = found.inside(f)?;
    let sums = select_active(k, found.above, &mut inside);
    let cut = Cut::new(k, sums)?;
    // The cutoff inside the band, clear of its edges (where the pass's
    // rounded comparisons decided).
    let r_cut = cut.sums.s.hi / cut.num;
    if !(r_cut > lo * (1.0 + 1e-9) && r_cut < hi * (1.0 - 1e-9)) {
        return None;
    }
    let (active, total, lost) = write_plan(mu, c, cut, f);
    (active == sums.count && !lost && (total - 1.0).abs() <= PLAN_SUM_SLACK).then_some(())
}

/// The excess (K + M)s − Tμ from the sums, with the products' exact errors
/// (TwoProduct) and TwoSum where its terms cancel.
fn excess(k: f64, sums: &ActiveSums, s: f64, mu: f64) -> f64 {
    let (m, t) = (sums.b, sums.s);
    let p1 = s * m.hi;
    let p2 = mu * t.hi;
    let d = p1 - p2;
    let z = d - p1;
    let dd = (p1 - (d - z)) + (-p2 - z);
    let dp = product_error(s, m.hi, p1) - product_error(mu, t.hi, p2);
    s * k + (d + (dd + dp + s * m.lo - mu * t.lo))
}

/// Water filling over `inside` (any order) on top of `sums`, as
/// [`super::band`]'s selection in decreasing r: `sums` with the J pages of
/// largest r that are active, each at the sums of all those larger.
fn select_active(k: f64, sums: ActiveSums, inside: &mut [Page]) -> ActiveSums {
    select_by_rank(
        sums,
        inside,
        |p| p.r,
        |sums, p| sums.add_product(p.mu, p.s, 0.0),
        |with, p| excess(k, with, p.s, p.mu) > 0.0,
    )
}

/// The band [lo, hi) of r around the root r* = T/(K + M) of a sample's
/// own problem (K scaled by the sample's share), as [`around_root`].
fn band(mu: &[f64], c: &[f64], k: f64) -> Option<(f64, f64)> {
    let n = mu.len();
    let root = |mut s: Vec<Page>| {
        let k = k * (s.len() as f64 / n as f64);
        let sums = select_active(k, ActiveSums::default(), &mut s);
        let r = sums.s.hi / (k + sums.b.hi);
        (sums.count > 0 && r.is_normal()).then_some(r)
    };
    around_root(n, |i| Page::new(mu[i], c[i]), root, |p| p.r)
}

/// What [`pass`] finds: the sums over the pages above the band, and for
/// each run of pages its range and how many pages inside the band it left
/// in the output (their μ from the run's first entry, their c from its
/// middle one on); `None` when a run had no room for them.
struct Found {
    above: ActiveSums,
    runs: Option<Vec<(Range<usize>, usize)>>,
}

impl Found {
    /// `self` then `o` (runs in page order).
    fn merge(mut self, o: Found) -> Found {
        self.above = self.above.merge(o.above);
        self.runs = joined(self.runs, o.runs);
        self
    }

    /// The pages inside the band, in page order, from the pairs the pass
    /// left in `f`; `None` when a run had no room or more than one page in
    /// [`INSIDE_MAX`] is inside.
    fn inside(&self, f: &[f64]) -> Option<Vec<Page>> {
        let runs = self.runs.as_ref()?;
        let total: usize = runs.iter().map(|r| r.1).sum();
        if total > f.len() / INSIDE_MAX {
            return None;
        }
        let mut pages = Vec::with_capacity(total);
        for (run, kept) in runs {
            let (m, c) = f[run.clone()].split_at(run.len() / 2);
            pages.extend(
                m[..*kept]
                    .iter()
                    .zip(&c[..*kept])
                    .map(|(&m, &c)| Page::new(m, c)),
            );
        }
        Some(pages)
    }
}

/// The [`Found`] over the band [lo, hi) of r: the sums over the pages
/// above it (s ≥ hi·μ) and those inside, as (μ, c) pairs left in `f` (one
/// entry per page, in each run's part); runs of [`run_len`] pages, merged
/// in page order (the same bits whatever the thread count).
fn pass(mu: &[f64], c: &[f64], f: &mut [f64], lo: f64, hi: f64) -> Found {
    let run = run_len(mu.len());
    let empty = Found {
        above: ActiveSums::default(),
        runs: Some(Vec::new()),
    };
    fold_pieces_par(
        [f],
        run,
        empty,
        |pages, [out]| {
            let kept = crate::simd::wide(PassRun {
                mu: &mu[pages.clone()],
                c: &c[pages.clone()],
                band: (lo, hi),
                out,
            });
            Found {
                above: kept.0,
                runs: kept.1.map(|k| vec![(pages, k)]),
            }
        },
        Found::merge,
    )
}

/// One run of [`pass`], with its part of the output.
struct PassRun<'a, 'b> {
    mu: &'a [f64],
    c: &'a [f64],
    band: (f64, f64),
    out: &'b mut [f64],
}

/// Pages per block of [`PassRun`] and [`PlanRun`]: a loop without
/// branches over the block, then the block's rare pages (inside the band,
/// near the cutoff).
const BLOCK: usize = 256;

/// Lanes of the pass's compensated sums ([`crate::simd::add_sums8`]).
const LANES: usize = 8;

/// Adds x to lane l of `sum` ([`crate::simd::add_sums8`]'s operations).
fn add_lane(sum: &mut Sums8, l: usize, x: f64) {
    let mut c = Compensated {
        hi: sum.0[l],
        lo: sum.1[l],
    };
    c.add(x, 0.0);
    (sum.0[l], sum.1[l]) = (c.hi, c.lo);
}

impl crate::simd::Kernel for PassRun<'_, '_> {
    /// The sums above the band, and how many pages inside it were left in
    /// the output (`None`: no room).
    type Output = (ActiveSums, Option<usize>);

    /// Per block: the terms above the band (μ and s, else 0) and a mark
    /// for each page inside in one loop without branches, then the marked
    /// pages written into the output ([`crate::simd::write_kept`]), then
    /// the terms into the compensated lanes.
    #[inline(always)]
    fn run(self) -> (ActiveSums, Option<usize>) {
        let PassRun {
            mu,
            c,
            band: (lo, hi),
            out,
        } = self;
        let half = out.len() / 2;
        let (out_m, out_c) = out.split_at_mut(half);
        let mut kept = Some(0);
        let zero = ([0.0; LANES], [0.0; LANES]);
        let (mut m_sum, mut s_sum, mut count) = (zero, zero, 0_usize);
        let (mut m_up, mut s_up, mut keep) = ([0.0; BLOCK], [0.0; BLOCK], [0.0; BLOCK]);
        for (m, c) in mu.chunks(BLOCK).zip(c.chunks(BLOCK)) {
            let terms = m_up.iter_mut().zip(s_up.iter_mut()).zip(keep.iter_mut());
            for (((m_up, s_up), keep), (&m, &c)) in terms.zip(m.iter().zip(c)) {
                let s = (c * m).sqrt();
                let above = s >= hi * m;
                count += usize::from(above);
                *keep = if !above & (s >= lo * m) { 1.0 } else { 0.0 };
                *m_up = if above { m } else { 0.0 };
                *s_up = if above { s } else { 0.0 };
            }
            if let Some(k) = kept {
                let keep = &keep[..m.len()];
                // Room for the block (at most its length), else counted.
                let room =
                    k + m.len() <= half || k + keep.iter().filter(|&&x| x != 0.0).count() <= half;
                kept = room.then(|| {
                    k + crate::simd::write_kept(keep, m, c, &mut out_m[k..], &mut out_c[k..])
                });
            }
            let whole = m.len() / LANES * LANES;
            crate::simd::add_sums8(&mut m_sum, &m_up[..whole], &mut s_sum, &s_up[..whole]);
            for (l, (&m, &s)) in m_up[whole..m.len()].iter().zip(&s_up[whole..]).enumerate() {
                add_lane(&mut m_sum, l, m);
                add_lane(&mut s_sum, l, s);
            }
        }
        let lane = |sum: Sums8, l: usize| Compensated {
            hi: sum.0[l],
            lo: sum.1[l],
        };
        let above = (0..LANES).fold(ActiveSums::default(), |acc, l| {
            acc.merge(ActiveSums {
                count: 0,
                b: lane(m_sum, l),
                s: lane(s_sum, l),
            })
        });
        (ActiveSums { count, ..above }, kept)
    }
}

/// The cutoff: K, the sums M and T over P, and K + M as hi + lo.
#[derive(Debug, Clone, Copy)]
struct Cut {
    k: f64,
    sums: ActiveSums,
    num: f64,
    num_lo: f64,
    scale: f64,
}

impl Cut {
    /// `None` when 1/(KT) is not a normal double.
    fn new(k: f64, sums: ActiveSums) -> Option<Cut> {
        let m = sums.b;
        let num = k + m.hi;
        let z = num - k;
        let num_lo = ((k - (num - z)) + (m.hi - z)) + m.lo;
        let scale = 1.0 / (k * (sums.s.hi + sums.s.lo));
        (sums.count > 0 && scale.is_normal()).then_some(Cut {
            k,
            sums,
            num,
            num_lo,
            scale,
        })
    }
}

/// f_i = e_i/(KT) for every page into `f`; returns the number of active
/// pages, Σ f, and whether an active page's excess is below what the
/// compensated sums resolve ([`UNRESOLVED`]) or its frequency below the
/// normal range.
fn write_plan(mu: &[f64], c: &[f64], cut: Cut, f: &mut [f64]) -> (usize, f64, bool) {
    fold_chunks(
        [f],
        (0, 0.0, false),
        |pages, [x]| {
            crate::simd::wide(PlanRun {
                mu: &mu[pages.clone()],
                c: &c[pages],
                cut,
                x,
            })
        },
        |(a, s, l), (b, t, m)| (a + b, s + t, l | m),
    )
}

/// One chunk of [`write_plan`].
struct PlanRun<'a, 'b> {
    mu: &'a [f64],
    c: &'a [f64],
    cut: Cut,
    x: &'b mut [f64],
}

impl crate::simd::Kernel for PlanRun<'_, '_> {
    type Output = (usize, f64, bool);

    #[inline(always)]
    fn run(self) -> (usize, f64, bool) {
        let PlanRun { mu, c, cut, x } = self;
        let (num, num_lo, t_hi, t_lo) = (cut.num, cut.num_lo, cut.sums.s.hi, cut.sums.s.lo);
        let (mut active, mut total, mut lost) = (0, [0.0; LANES], false);
        for ((m, c), x) in mu
            .chunks(BLOCK)
            .zip(c.chunks(BLOCK))
            .zip(x.chunks_mut(BLOCK))
        {
            // Pages near the cutoff get −1, a mark for the exact excess.
            let mut unsure = false;
            for ((x, &m), &c) in x.iter_mut().zip(m).zip(c) {
                let s = (c * m).sqrt();
                let a = s * num;
                let e = (a - m * t_hi) + (s * num_lo - m * t_lo);
                let sure = a * (1.0 / SURE);
                let near = e.abs() <= sure;
                let v = e * cut.scale;
                unsure |= near;
                lost |= (e > sure) & (v < f64::MIN_POSITIVE);
                active += usize::from(e > sure);
                *x = if e > sure {
                    v
                } else if near {
                    -1.0
                } else {
                    0.0
                };
            }
            if unsure {
                // Four marks at a time (one vector compare).
                for (q, x4) in x.chunks_mut(4).enumerate() {
                    if x4.iter().fold(false, |u, &v| u | (v < 0.0)) {
                        for (l, x) in x4.iter_mut().enumerate() {
                            if *x < 0.0 {
                                let i = 4 * q + l;
                                let (m, s) = (m[i], (c[i] * m[i]).sqrt());
                                let e = excess(cut.k, &cut.sums, s, m);
                                let v = e * cut.scale;
                                lost |= e.abs() <= UNRESOLVED * (s * num + m * t_hi);
                                lost |= (e > 0.0) & (v < f64::MIN_POSITIVE);
                                active += usize::from(e > 0.0);
                                *x = if e > 0.0 { v } else { 0.0 };
                            }
                        }
                    }
                }
            }
            let mut eights = x.chunks_exact(LANES);
            for q in &mut eights {
                for (t, v) in total.iter_mut().zip(q) {
                    *t += v;
                }
            }
            for (t, v) in total.iter_mut().zip(eights.remainder()) {
                *t += v;
            }
        }
        (active, total.iter().sum(), lost)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// [`pass`] against brute force over runs of 32768 pages and a last
    /// run of 3: it counts the pages at or above the band's top and sums
    /// their μ and s to double-double accuracy, and gives the pages inside
    /// in page order (from the last run too, its one page inside filling
    /// its room); none when a run has no room for its own (two of the last
    /// three) or more than one page in [`INSIDE_MAX`] is inside.
    #[test]
    fn the_pass_sums_the_pages_above_the_band_and_keeps_those_inside() {
        let n = (1 << 15) + 3;
        assert_eq!(run_len(n), 1 << 15);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(85);
        let mut draw = |lo: f64, hi: f64| -> Vec<f64> {
            (0..n)
                .map(|_| 10f64.powf(rng.random_range(lo..hi)))
                .collect()
        };
        let (mu, mut c) = (draw(-3.0, 1.0), draw(-1.0, 1.0));
        let mut r: Vec<f64> = (0..n).map(|i| Page::new(mu[i], c[i]).r).collect();
        r.sort_by(f64::total_cmp);
        let (lo, hi) = (r[n / 2], r[n / 2 + n / 20]);
        let set_r = |c: &mut [f64], i: usize, r: f64| c[i] = r * r * mu[i];
        set_r(&mut c, n - 3, 0.5 * lo);
        set_r(&mut c, n - 2, (lo * hi).sqrt());
        set_r(&mut c, n - 1, 2.0 * hi);
        let brute = |c: &[f64], lo: f64, hi: f64| {
            let (mut inside, mut above) = (Vec::new(), (0, 0.0, 0.0));
            for (&m, &c) in mu.iter().zip(c) {
                let s = (c * m).sqrt();
                if s >= hi * m {
                    above = (above.0 + 1, above.1 + m, above.2 + s);
                } else if s >= lo * m {
                    inside.push((m, s));
                }
            }
            (inside, above)
        };
        let mut f = vec![0.0; n];
        let found = pass(&mu, &c, &mut f, lo, hi);
        let (inside, above) = brute(&c, lo, hi);
        let got: Vec<(f64, f64)> = found
            .inside(&f)
            .unwrap()
            .iter()
            .map(|p| (p.mu, p.s))
            .collect();
        assert_eq!(got, inside);
        assert_eq!(
            got.last(),
            Some(&(mu[n - 2], (c[n - 2] * mu[n - 2]).sqrt()))
        );
        let sums = found.above;
        assert_eq!(sums.count, above.0);
        assert!(((sums.b.hi + sums.b.lo) / above.1 - 1.0).abs() < 1e-13);
        assert!(((sums.s.hi + sums.s.lo) / above.2 - 1.0).abs() < 1e-13);
        // Two of the last run's three pages inside: no room.
        set_r(&mut c, n - 1, (lo * hi).sqrt());
        assert!(pass(&mu, &c, &mut f, lo, hi).inside(&f).is_none());
        // A band holding 1/5 of the pages: too many.
        let (lo, hi) = (r[n / 2], r[n / 2 + n / 5]);
        assert!(pass(&mu, &c, &mut f, lo, hi).inside(&f).is_none());
    }
}
