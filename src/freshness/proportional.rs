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
/// division; when Σ a_i overflows, f_i = (a_i/a_max)/Σ_j (a_j/a_max).
pub fn proportional_frequencies(model: &Model) -> Vec<f64> {
    let mut f = vec![0.0; model.len()];
    let (total, amax) = fold_cheap(
        [&mut f[..]],
        (0.0, 0.0_f64),
        |pages, [a]| {
            model.neg_log_h_into(pages, a);
            let amax = a.iter().fold(0.0, |m, &x| if x > m { x } else { m });
            (sum(a), amax)
        },
        |(s, m), (t, n)| (s + t, m.max(n)),
    );
    let total = if total.is_finite() {
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
    fold_cheap(
        [&mut f[..]],
        (),
        |_, [a]| a.iter_mut().for_each(|x| *x /= total),
        |(), ()| (),
    );
    f
}

/// Σ xs in four interleaved partial sums (a fixed order that vectorises).
fn sum(xs: &[f64]) -> f64 {
    let mut lanes = [0.0; 4];
    let mut quads = xs.chunks_exact(4);
    for q in &mut quads {
        for (l, x) in lanes.iter_mut().zip(q) {
            *l += x;
        }
    }
    let tail: f64 = quads.remainder().iter().sum();
    ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + tail
}
