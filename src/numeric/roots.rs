//! Scalar root finding.

use crate::error::{Error, Num, Result};

/// Root of a monotone function on [lo, hi] by Newton's method, safeguarded
/// by bisection: a Newton step that leaves the current bracket, or a bracket
/// that fails to halve every few steps, falls back to the midpoint.
///
/// `f` returns (value, derivative); `increasing` tells the sign convention
/// (increasing: f(lo) ≤ 0 ≤ f(hi)). Stops when a step, or the bracket, is
/// below `xtol` (at least 4 ulps of x) or |f| ≤ `ftol`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn newton_bisect<F>(
    mut f: F,
    mut lo: f64,
    mut hi: f64,
    x0: f64,
    increasing: bool,
    xtol: f64,
    ftol: f64,
    max_iter: usize,
) -> Result<f64>
where
    F: FnMut(f64) -> Result<(f64, f64)>,
{
    if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
        return Err(Error::NotConverged(format!(
            "invalid root bracket [{}, {}]",
            Num(lo),
            Num(hi)
        )));
    }
    let mut x = if x0 >= lo && x0 <= hi {
        x0
    } else {
        0.5 * (lo + hi)
    };
    let mut width_ref = hi - lo;
    for it in 0..max_iter {
        let (v, d) = f(x)?;
        if v == 0.0 || v.abs() <= ftol {
            return Ok(x);
        }
        if v.is_nan() {
            return Err(Error::NotConverged(format!(
                "function value is NaN at {}",
                Num(x)
            )));
        }
        // Root to the right of x?
        if (v < 0.0) == increasing {
            lo = x;
        } else {
            hi = x;
        }
        let tol = xtol
            .max(4.0 * f64::EPSILON * x.abs())
            .max(f64::MIN_POSITIVE);
        if hi - lo <= tol {
            return Ok(x);
        }
        let newton = x - v / d;
        let stalled = it % 4 == 3 && hi - lo > 0.5 * width_ref;
        if it % 4 == 3 {
            width_ref = hi - lo;
        }
        let use_newton = !stalled && d.is_finite() && d != 0.0 && newton > lo && newton < hi;
        let cand = if use_newton { newton } else { 0.5 * (lo + hi) };
        if use_newton && (cand - x).abs() <= tol {
            return Ok(cand);
        }
        x = cand;
    }
    Err(Error::NotConverged(format!(
        "root finder did not converge in {max_iter} iterations (bracket [{}, {}])",
        Num(lo),
        Num(hi)
    )))
}
