//! The closed form (10) of Theorem 3.4 (Coffman, Liu, Weber): with cost
//! weights proportional to the change rates, c_i = c₀ μ_i, the optimal
//! access frequencies are f_i = ln h_i / Σ_j ln h_j.

use super::{Model, fold_cheap};
use std::ops::Range;

/// The closed form (10) of Theorem 3.4: f_i = ln h_i / Σ_j ln h_j, optimal
/// for problem (7) when c_i = c₀ μ_i. Valid for any weights as a formula,
/// but optimal only for proportional ones.
///
/// One pass ([`fold_cheap`]) writing f_i = a_i·(1/Σ_j a_j), a_i = −ln h_i,
/// when [`Model::new`] summed the a_i (c = μ, exponential or deterministic
/// X) and the sum is normal. Otherwise two: a_i into the output (whose
/// pages the threads touch first) with Σ a_i and max a_i, then the
/// scaling; when Σ a_i overflows or is subnormal,
/// f_i = (a_i/a_max)/Σ_j (a_j/a_max). Both routes give the same bits.
pub fn proportional_frequencies(model: &Model) -> Vec<f64> {
    let mut f = crate::pages::zeroed(model.len());
    // 1/Σ must be finite: Σ normal (else Σ_j a_j/a_max ≥ 1 is).
    let normal = |total: f64| total.is_finite() && total >= f64::MIN_POSITIVE;
    if let Some((total, _)) = model.neg_log_h_sum().filter(|&(t, _)| normal(t)) {
        // One rounding more than a division: f_i within 1 ulp of a_i/Σ a_j.
        let scale = 1.0 / total;
        fold_cheap(
            [&mut f[..]],
            (),
            |pages, [a]| {
                model.neg_log_h_into(pages, a);
                a.iter_mut().for_each(|x| *x *= scale);
            },
            |(), ()| (),
        );
        return f;
    }
    let (total, amax) = fold_cheap(
        [&mut f[..]],
        (0.0, 0.0_f64),
        |pages, [a]| {
            model.neg_log_h_into(pages, a);
            sum_and_max(a)
        },
        |(s, m), (t, n)| (s + t, m.max(n)),
    );
    let total = if normal(total) {
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
    let scale = 1.0 / total;
    fold_cheap(
        [&mut f[..]],
        (),
        |_, [a]| a.iter_mut().for_each(|x| *x *= scale),
        |(), ()| (),
    );
    f
}

/// Σ xs in four interleaved partial sums (a fixed order that vectorises).
fn sum(xs: &[f64]) -> f64 {
    sum_and_max(xs).0
}

/// (Σ xs, max(0, max xs)), both in four lanes: the sum in a fixed order,
/// and both vectorise.
fn sum_and_max(xs: &[f64]) -> (f64, f64) {
    let mut lanes = Lanes::default();
    let quads = xs.len() / 4 * 4;
    lanes.add_quads(&xs[..quads]);
    lanes.finish(&xs[quads..])
}

/// Entries per block of [`sum_and_max_of`] (a multiple of 4, on the stack).
const BLOCK: usize = 256;

/// [`sum_and_max`] of the `n` values that `fill(range, out)` writes into
/// `out` block by block (`out` has one entry per index of `range`), with
/// no array of n values: the same bits.
pub(super) fn sum_and_max_of(
    n: usize,
    mut fill: impl FnMut(Range<usize>, &mut [f64]),
) -> (f64, f64) {
    let mut lanes = Lanes::default();
    let mut buf = [0.0; BLOCK];
    let mut lo = 0;
    loop {
        let take = (n - lo).min(BLOCK);
        let xs = &mut buf[..take];
        fill(lo..lo + take, xs);
        lo += take;
        // Every block but the last is whole quads (BLOCK % 4 == 0).
        let quads = take / 4 * 4;
        lanes.add_quads(&xs[..quads]);
        if lo == n {
            return lanes.finish(&xs[quads..]);
        }
    }
}

/// The four partial sums and maxima of [`sum_and_max`].
#[derive(Default)]
struct Lanes {
    sums: [f64; 4],
    top: [f64; 4],
}

impl Lanes {
    /// Entry 4k + l goes to lane l (`xs.len()` a multiple of 4).
    fn add_quads(&mut self, xs: &[f64]) {
        for q in xs.chunks_exact(4) {
            for l in 0..4 {
                self.sums[l] += q[l];
                self.top[l] = if q[l] > self.top[l] {
                    q[l]
                } else {
                    self.top[l]
                };
            }
        }
    }

    /// The lanes combined, then the last 0–3 entries `tail` in order.
    fn finish(self, tail: &[f64]) -> (f64, f64) {
        let s = self.sums;
        let total = ((s[0] + s[1]) + (s[2] + s[3])) + tail.iter().sum::<f64>();
        let max = self
            .top
            .into_iter()
            .chain(tail.iter().copied())
            .fold(0.0, f64::max);
        (total, max)
    }
}
