//! The root's band from a sample, for large models: a strided sample of
//! the pages locates the root 1/ρ of F(ρ) = κ (see [`super`]) to a narrow
//! band of σ; one pass sums the pages above the band in compensated vector
//! lanes (no per-page scatter into buckets) and keeps
//! the few pages inside it; selection over those fixes the active set
//! exactly, as [`super::water_fill`] does from the histogram. `None` (the
//! histogram's route) when the band missed the root or held too many pages.

use super::super::par::fold_pieces_par;
use super::{ActiveSums, BLOCK, Compensated, Cutoff, Terms, run_len};
use crate::numeric::exact::{product_error_split2, splits_exactly};
use wide::f64x2;

/// Fewest pages for the band's route: below, the histogram's pass costs
/// about as much as the sample and the band's pass together.
pub(super) const BAND_MIN: usize = 1 << 19;

/// Fewest pages in the sample (at most twice as many).
const SAMPLE: usize = 1 << 14;

/// The sample is split into this many interleaved parts, whose roots
/// spread as the whole sample's root does, √[`PARTS`] times wider.
const PARTS: usize = 8;

/// The band's half-width, relative to its centre: [`SPREAD`] standard
/// errors of the sample's root (from its parts), at least
/// [`MIN_HALF_WIDTH`].
const SPREAD: f64 = 5.0;
const MIN_HALF_WIDTH: f64 = 1e-3;

/// At most one page in this many may fall inside the band (in the sample,
/// and in every run of the pass).
pub(super) const INSIDE_MAX: usize = 8;

/// The cutoff of the active set fixed from the band [lo, hi) of σ
/// ([`band`]) and the number of pages in that set, with σ of every page in
/// place of what [`Terms::new`] left in `f` (as [`Terms::histogram`]
/// does); `None` when the band missed the root or held too many pages.
///
/// The set is the pages above the band and the J largest inside it; it is
/// the Newton step's fixed point (unique in exact arithmetic) when the
/// plan's pass at the cut finds as many pages active, since both sets are
/// the pages with the largest σ.
pub(super) fn cut(
    terms: &Terms,
    f: &mut [f64],
    kappa: f64,
    (lo, hi): (f64, f64),
) -> Option<(Cutoff, usize)> {
    let pass = pass(terms, f, lo, hi);
    let sums = select_active(kappa, pass.above, &mut pass.inside?);
    (sums.count > 0).then_some((Cutoff::new(kappa, sums), sums.count))
}

/// (σ_i, β'_i) of page i, from what [`Terms::new`] left in `f`.
fn terms_at(terms: &Terms, f: &[f64], i: usize) -> (f64, f64) {
    let (mut w, mut b) = ([f[i]], [0.0]);
    terms.plain_weights(i..i + 1, &mut w);
    terms.sigmas(i..i + 1, &mut w);
    terms.betas(i..i + 1, &mut b);
    (w[0], b[0])
}

/// The band [lo, hi) of σ around the root 1/ρ of the sample's own
/// F(ρ) = κ·(sample size)/n (every `stride`-th page): centred on the
/// whole sample's root, as wide as the roots of its [`PARTS`] disagree.
/// `None` when the sample has no root or too many of its pages fall
/// inside.
pub(super) fn band(terms: &Terms, f: &[f64], kappa: f64) -> Option<(f64, f64)> {
    let n = f.len();
    if !kappa.is_finite() || n == 0 {
        return None;
    }
    let root = |mut s: Vec<(f64, f64)>| {
        let k = kappa * (s.len() as f64 / n as f64);
        let sums = select_active(k, ActiveSums::default(), &mut s);
        let t = sums.s.hi / (k + sums.b.hi);
        (sums.count > 0 && t.is_normal()).then_some(t)
    };
    around_root(n, |i| terms_at(terms, f, i), root, |x| x.0)
}

/// The band [lo, hi) of a page's `key` around the root that `root` finds
/// for a strided sample of the `n` pages (`page(i)` for every stride-th
/// i): centred on the whole sample's root, as wide as the roots of its
/// [`PARTS`] disagree. `None` when a root is missing or too many of the
/// sample's pages fall inside.
pub(super) fn around_root<T: Copy>(
    n: usize,
    page: impl Fn(usize) -> T,
    root: impl Fn(Vec<T>) -> Option<f64>,
    key: impl Fn(&T) -> f64,
) -> Option<(f64, f64)> {
    let stride = (n / SAMPLE).max(1);
    let sample: Vec<T> = (0..n / stride).map(|j| page(j * stride)).collect();
    let t = root(sample.clone())?;
    let mut parts = [0.0; PARTS];
    for (p, r) in parts.iter_mut().enumerate() {
        *r = root(sample.iter().skip(p).step_by(PARTS).copied().collect())?;
    }
    let mean = parts.iter().sum::<f64>() / PARTS as f64;
    let var = parts.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (PARTS - 1) as f64;
    // Every page in the sample: its root is the root.
    let spread = if stride == 1 {
        0.0
    } else {
        SPREAD * (var / PARTS as f64).sqrt() / t
    };
    let width = spread.max(MIN_HALF_WIDTH);
    let (lo, hi) = (t * (1.0 - width), t * (1.0 + width));
    let inside = sample
        .iter()
        .filter(|x| key(x) >= lo && key(x) < hi)
        .count();
    (lo > 0.0 && inside * INSIDE_MAX <= sample.len()).then_some((lo, hi))
}

/// Water filling over `inside` (any order) on top of `sums`: `sums` with
/// the J largest σ of `inside` that are active, each at the sums of all
/// those larger (ties in any order); `inside` ends with those J first.
/// Rank by rank in decreasing σ the test is monotone (adding page j lowers
/// the next one's excess by (σ_j − σ_{j+1})(κ + B_j) ≥ 0), so a binary
/// search over ranks by selection finds J in O(len) expected.
fn select_active(kappa: f64, sums: ActiveSums, inside: &mut [(f64, f64)]) -> ActiveSums {
    select_by_rank(
        sums,
        inside,
        |p| p.0,
        |sums, &(s, b)| sums.add(s, b),
        |with, &(s, _)| Cutoff::new(kappa, *with).active(s),
    )
}

/// [`select_active`] for any page type: pages ranked by decreasing `key`,
/// `add` puts a page into the sums, `active` tests a page at the sums of
/// those ranked above it.
pub(super) fn select_by_rank<T: Copy>(
    mut sums: ActiveSums,
    inside: &mut [T],
    key: impl Fn(&T) -> f64,
    add: impl Fn(&mut ActiveSums, &T),
    active: impl Fn(&ActiveSums, &T) -> bool,
) -> ActiveSums {
    let (mut lo, mut hi) = (0, inside.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        inside[lo..hi].select_nth_unstable_by(mid - lo, |x, y| key(y).total_cmp(&key(x)));
        let mut with = sums;
        for p in &inside[lo..mid] {
            add(&mut with, p);
        }
        let p = inside[mid];
        if active(&with, &p) {
            add(&mut with, &p);
            (sums, lo) = (with, mid + 1);
        } else {
            hi = mid;
        }
    }
    sums
}

/// `a` then `b` when both runs found their pages, else `None`.
pub(super) fn joined<T>(a: Option<Vec<T>>, b: Option<Vec<T>>) -> Option<Vec<T>> {
    let (mut a, b) = (a?, b?);
    a.extend(b);
    Some(a)
}

/// What a band's pass finds: the sums over the pages above the band and
/// the pages inside it in page order (`None` if a run held more than one
/// in [`INSIDE_MAX`]), each as (σ, β').
struct Pass {
    above: ActiveSums,
    inside: Option<Vec<(f64, f64)>>,
}

impl Pass {
    /// No page yet.
    fn empty() -> Pass {
        Pass {
            above: ActiveSums::default(),
            inside: Some(Vec::new()),
        }
    }

    /// `self` then `o` (runs in page order).
    fn merge(mut self, o: Pass) -> Pass {
        self.above = self.above.merge(o.above);
        self.inside = joined(self.inside, o.inside);
        self
    }
}

/// σ in place of what [`Terms::new`] left in `f` (as [`Terms::histogram`]
/// does) and the [`Pass`] over the band [lo, hi): runs of [`run_len`]
/// pages, merged in page order (the same bits whatever the thread count).
fn pass(terms: &Terms, f: &mut [f64], lo: f64, hi: f64) -> Pass {
    let run = run_len(f.len());
    fold_pieces_par(
        [f],
        run,
        Pass::empty(),
        |pages, [w]| {
            crate::simd::wide(PassRun {
                terms,
                pages,
                w,
                band: (lo, hi),
            })
        },
        Pass::merge,
    )
}

/// One run of [`pass`]: its pages' σ into `w` and their [`Pass`].
struct PassRun<'a, 'b> {
    terms: &'a Terms<'a>,
    pages: std::ops::Range<usize>,
    w: &'b mut [f64],
    band: (f64, f64),
}

impl crate::simd::Kernel for PassRun<'_, '_> {
    type Output = Pass;

    #[inline(always)]
    fn run(self) -> Pass {
        let PassRun {
            terms,
            pages,
            w,
            band: (lo, hi),
        } = self;
        let mut lanes = Lanes::new(lo, hi, pages.len() / INSIDE_MAX);
        let mut bt = [0.0; BLOCK];
        for (start, w) in (pages.start..).step_by(BLOCK).zip(w.chunks_mut(BLOCK)) {
            let (block, b) = (start..start + w.len(), &mut bt[..w.len()]);
            terms.plain_weights(block.clone(), w);
            terms.sigmas(block.clone(), w);
            terms.betas(block, b);
            lanes.add_block(w, b);
        }
        lanes.finish()
    }
}

/// Lanes of vector arithmetic: two, the width of the x86-64 baseline's.
const LANES: usize = 2;
type V = f64x2;

/// [`LANES`] lanes of compensated sums over the pages above the band
/// (page k of a block in lane k mod [`LANES`]), and the pages inside.
struct Lanes {
    lo: f64,
    hi: f64,
    count: usize,
    /// Σ β' and Σ σβ', each as (hi, lo) of [`Compensated`] per lane.
    b: (V, V),
    s: (V, V),
    inside: Vec<(f64, f64)>,
    cap: usize,
}

/// [`Compensated::add`] per lane (the same operations).
#[inline]
fn add_lanes(sum: &mut (V, V), x: V, dx: V) {
    let (hi, lo) = *sum;
    let s = hi + x;
    let z = s - hi;
    *sum = (s, lo + ((hi - (s - z)) + (x - z) + dx));
}

/// [`add_lanes`] with dx = 0.
#[inline]
fn add_lanes_exact(sum: &mut (V, V), x: V) {
    let (hi, lo) = *sum;
    let s = hi + x;
    let z = s - hi;
    *sum = (s, lo + ((hi - (s - z)) + (x - z)));
}

impl Lanes {
    fn new(lo: f64, hi: f64, cap: usize) -> Lanes {
        Lanes {
            lo,
            hi,
            count: 0,
            b: (V::ZERO, V::ZERO),
            s: (V::ZERO, V::ZERO),
            inside: Vec::new(),
            cap,
        }
    }

    /// Adds a block (σ in `sigma`, β' in `beta`): whole groups of
    /// [`LANES`] pages in vector arithmetic when every product above the
    /// band splits exactly (σ ≥ hi and β' ≥ the block's least β' bound
    /// it below), else (and for a last partial group) page by page into
    /// the same lanes.
    #[inline(always)]
    fn add_block(&mut self, sigma: &[f64], beta: &[f64]) {
        let whole = sigma.len() / LANES * LANES;
        let (lo, hi) = (V::splat(self.lo), V::splat(self.hi));
        // The state in locals, so that it stays in registers.
        let (mut bs, mut ss, mut least) = (self.b, self.s, V::splat(1.0));
        let mut count = 0;
        for (s2, b2) in sigma[..whole]
            .chunks_exact(LANES)
            .zip(beta[..whole].chunks_exact(LANES))
        {
            let s = V::from([s2[0], s2[1]]);
            let b = V::from([b2[0], b2[1]]);
            let above = s.simd_ge(hi);
            let p = s * b;
            let dp = product_error_split2(s, b, p);
            add_lanes_exact(&mut bs, above & b);
            add_lanes(&mut ss, above & p, above & dp);
            least = least.fast_min(b);
            let up = above.to_bitmask();
            count += up.count_ones() as usize;
            let inside = !(up | s.simd_lt(lo).to_bitmask()) & 0b11;
            if inside != 0 {
                for l in 0..LANES {
                    if inside >> l & 1 == 1 {
                        self.keep(s2[l], b2[l]);
                    }
                }
            }
        }
        let least = least.to_array().into_iter().fold(1.0, f64::min);
        if splits_exactly(self.hi, least, self.hi * least) {
            (self.count, self.b, self.s) = (self.count + count, bs, ss);
        } else {
            self.add_pages(&sigma[..whole], &beta[..whole], false);
        }
        self.add_pages(&sigma[whole..], &beta[whole..], true);
    }

    /// Pages one by one into lane k mod [`LANES`] ([`ActiveSums::add`],
    /// with the exact product error wherever it lies); `keep`: also the
    /// pages inside the band (else kept already).
    fn add_pages(&mut self, sigma: &[f64], beta: &[f64], keep: bool) {
        let (b, s) = (self.b, self.s);
        let mut lanes: [ActiveSums; LANES] = std::array::from_fn(|l| ActiveSums {
            count: 0,
            b: Compensated {
                hi: b.0.to_array()[l],
                lo: b.1.to_array()[l],
            },
            s: Compensated {
                hi: s.0.to_array()[l],
                lo: s.1.to_array()[l],
            },
        });
        for (k, (&s, &b)) in sigma.iter().zip(beta).enumerate() {
            if s >= self.hi {
                lanes[k % LANES].add(s, b);
            } else if s >= self.lo && keep {
                self.keep(s, b);
            }
        }
        self.count += lanes.iter().map(|a| a.count).sum::<usize>();
        self.b = (
            V::from(lanes.map(|a| a.b.hi)),
            V::from(lanes.map(|a| a.b.lo)),
        );
        self.s = (
            V::from(lanes.map(|a| a.s.hi)),
            V::from(lanes.map(|a| a.s.lo)),
        );
    }

    /// A page inside the band, while fewer than `cap` are.
    fn keep(&mut self, s: f64, b: f64) {
        if self.inside.len() <= self.cap {
            self.inside.push((s, b));
        }
    }

    /// The lanes merged in lane order.
    fn finish(self) -> Pass {
        let (b, s) = (
            (self.b.0.to_array(), self.b.1.to_array()),
            (self.s.0.to_array(), self.s.1.to_array()),
        );
        let above = (0..LANES).fold(ActiveSums::default(), |acc, l| {
            acc.merge(ActiveSums {
                count: 0,
                b: Compensated {
                    hi: b.0[l],
                    lo: b.1[l],
                },
                s: Compensated {
                    hi: s.0[l],
                    lo: s.1[l],
                },
            })
        });
        Pass {
            above: ActiveSums {
                count: self.count,
                ..above
            },
            inside: (self.inside.len() <= self.cap).then_some(self.inside),
        }
    }
}
