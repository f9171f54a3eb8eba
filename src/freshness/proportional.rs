//! The closed form (10) of Theorem 3.4 (Coffman, Liu, Weber): with cost
//! weights proportional to the change rates, c_i = c₀ μ_i, the optimal
//! access frequencies are f_i = ln h_i / Σ_j ln h_j.

use super::{Model, fold_cheap};

/// The closed form (10) of Theorem 3.4: f_i = ln h_i / Σ_j ln h_j, optimal
/// for problem (7) when c_i = c₀ μ_i. Valid for any weights as a formula,
/// but optimal only for proportional ones.
///
/// Two passes ([`fold_cheap`]): a_i = −ln h_i into the output
/// (whose pages the threads touch first) with Σ a_i and max a_i, then the
/// division; when Σ a_i overflows or is subnormal,
/// f_i = (a_i/a_max)/Σ_j (a_j/a_max).
pub fn proportional_frequencies(model: &Model) -> Vec<f64> {
    let mut f = crate::pages::zeroed(model.len());
    let (total, amax) = fold_cheap(
        [&mut f[..]],
        (0.0, 0.0_f64),
        |pages, [a]| {
            model.neg_log_h_into(pages, a);
            sum_and_max(a)
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
    f
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
    let tail = quads.remainder();
    let total = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + tail.iter().sum::<f64>();
    let max = top
        .into_iter()
        .chain(tail.iter().copied())
        .fold(0.0, f64::max);
    (total, max)
}
