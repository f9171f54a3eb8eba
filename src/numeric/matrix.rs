//! Matrix exponentials of sub-generators, scaled so that nothing overflows.

use nalgebra::{DMatrix, DVector};

/// E\[T^k] = k! α (−S)^{−k} 1 of the time T to absorption of a chain with
/// sub-generator S started in distribution α: k solves with one LU of −S.
/// NaN when −S is singular. From k = 171 on, k! is infinite and so is the
/// result (or NaN): the solves stop there rather than run up to 2^32.
pub(crate) fn absorption_moment(alpha: &DVector<f64>, s: &DMatrix<f64>, k: u32) -> f64 {
    let n = s.nrows();
    let lu = (-s).lu();
    let mut v = DVector::from_element(n, 1.0);
    let mut fact = 1.0;
    for j in 1..=k {
        v = lu
            .solve(&v)
            .unwrap_or_else(|| DVector::from_element(n, f64::NAN));
        fact *= f64::from(j);
        if fact.is_infinite() {
            break;
        }
    }
    fact * alpha.dot(&v)
}

/// e^{Sx} − I for a sub-generator S and x > 0, accurate entry by entry
/// even when the rates of S span many orders of magnitude.
///
/// Plain scaling and squaring (nalgebra's `exp`) computes e^{A/2^k} ≈ I + δ
/// and squares it k ≈ log2(‖S‖x) times; a slow phase's δ is lost next to
/// the 1, so with rates 1e−9 and 1e9 in one S the CDF came out 0.5 instead
/// of 0.99998. Here the scaled matrix's E = e^{A/2^k} − I comes from its
/// Taylor series and each squaring uses (I + E)² − I = E(E + 2I), which
/// keeps small entries to relative precision.
pub(crate) fn expm1(s: &DMatrix<f64>, x: f64) -> DMatrix<f64> {
    let n = s.nrows();
    // k with ‖S‖ x / 2^k ≤ 1/4, from logs so that ‖S‖ x may overflow (the
    // column sums are scaled by 2^-64 so that they cannot).
    let tiny = 2f64.powi(-64);
    let norm = s
        .column_iter()
        .map(|c| c.iter().map(|v| v.abs() * tiny).sum::<f64>())
        .fold(0.0, f64::max);
    let k = if norm > 0.0 {
        ((norm.log2() + 64.0 + x.log2() + 2.0).ceil().max(0.0)) as i32
    } else {
        0
    };
    // A = S x / 2^k, scaling x and S separately so that 2^-k (k up to about
    // 2100) neither underflows nor overflows.
    let bx = x.log2().ceil() as i32;
    let xs = ldexp(x, -bx);
    let a = s.map(|v| ldexp(v * xs, bx - k));
    // Taylor: with ‖A‖ ≤ 1/4 the terms after A^12/12! are below 1e−17 ‖A‖.
    let id = DMatrix::<f64>::identity(n, n);
    let mut e = &id + &a / 12.0;
    for j in (2..12).rev() {
        e = &id + (&a * e) / f64::from(j);
    }
    let mut e = &a * e;
    for _ in 0..k {
        let twice = &e * 2.0;
        e = &e * &e + twice;
    }
    e
}

/// e^{S x} for finite x >= 0, by scaling and squaring. nalgebra's `exp`
/// picks its number of squarings from norms of powers of its argument;
/// when those overflow (‖Sx‖ above about 1e30, or Sx not finite) the count
/// becomes u64::MAX and the call never returns (x = 3e103 in a CDF is
/// enough). Scaling Sx to a 1-norm <= 1 keeps nalgebra in range; the
/// squarings here are ceil(log2 ‖Sx‖) <= about 2100, no more than
/// nalgebra would do if it could.
pub(crate) fn exp_sx(s: &DMatrix<f64>, x: f64) -> DMatrix<f64> {
    // log2 of the 1-norm of S (column sums scaled by 2^-64: no overflow).
    let tiny = 2f64.powi(-64);
    let norm = s
        .column_iter()
        .map(|c| c.iter().map(|v| v.abs() * tiny).sum::<f64>())
        .fold(0.0, f64::max);
    let log2 = x.log2() + norm.log2() + 64.0;
    // k squarings: S x / 2^k has norm <= 1. Scale x and S separately so
    // that neither factor overflows nor underflows: x by 2^-b, S by 2^-(k-b).
    let k = if log2 > 0.0 { log2.ceil() as i32 } else { 0 };
    let b = if x > 0.0 { x.log2().ceil() as i32 } else { 0 };
    let xs = ldexp(x, -b);
    let scaled = s.map(|v| ldexp(v * xs, b - k));
    let mut e = scaled.exp();
    for _ in 0..k {
        e = &e * &e;
    }
    e
}

/// v · 2^e without overflow in the power itself (|e| up to about 2100).
fn ldexp(v: f64, e: i32) -> f64 {
    let h = e / 2;
    v * 2f64.powi(h) * 2f64.powi(e - h)
}
