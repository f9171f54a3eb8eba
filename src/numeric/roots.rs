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
    lo: f64,
    hi: f64,
    x0: f64,
    increasing: bool,
    xtol: f64,
    ftol: f64,
    max_iter: usize,
) -> Result<f64>
where
    F: FnMut(f64) -> Result<(f64, f64)>,
{
    let mut search = NewtonBisect::new(lo, hi, x0, increasing, xtol, ftol, max_iter)?;
    loop {
        match search.next()? {
            RootStep::Evaluate(x) => {
                let (v, d) = f(x)?;
                search.update(v, d)?;
            }
            RootStep::Done(x) => return Ok(x),
        }
    }
}

/// (lo + hi)/2 without overflow: the halves are exact (for normal lo, hi),
/// so this is the same double as 0.5·(lo + hi) wherever that is finite.
fn midpoint(lo: f64, hi: f64) -> f64 {
    0.5 * lo + 0.5 * hi
}

/// What [`NewtonBisect`] wants next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum RootStep {
    /// Evaluate the function (value, derivative) at this point.
    Evaluate(f64),
    /// The root.
    Done(f64),
}

/// [`newton_bisect`] as a protocol, for a function evaluated elsewhere
/// (another process, a cluster): [`NewtonBisect::next`] proposes a point,
/// [`NewtonBisect::update`] takes the function there. Invariant: the root
/// stays in [lo, hi] and x is the point proposed.
#[derive(Debug, Clone)]
pub(crate) struct NewtonBisect {
    lo: f64,
    hi: f64,
    x: f64,
    width_ref: f64,
    it: usize,
    done: bool,
    increasing: bool,
    xtol: f64,
    ftol: f64,
    max_iter: usize,
}

impl NewtonBisect {
    /// Errors: `NotConverged` if [lo, hi] is not a finite bracket.
    pub(crate) fn new(
        lo: f64,
        hi: f64,
        x0: f64,
        increasing: bool,
        xtol: f64,
        ftol: f64,
        max_iter: usize,
    ) -> Result<Self> {
        if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
            return Err(Error::NotConverged(format!(
                "invalid root bracket [{}, {}]",
                Num(lo),
                Num(hi)
            )));
        }
        let x = if x0 >= lo && x0 <= hi {
            x0
        } else {
            midpoint(lo, hi)
        };
        Ok(NewtonBisect {
            lo,
            hi,
            x,
            width_ref: hi - lo,
            it: 0,
            done: false,
            increasing,
            xtol,
            ftol,
            max_iter,
        })
    }

    /// The next point to evaluate, or the root. Errors: `NotConverged`
    /// after `max_iter` evaluations.
    pub(crate) fn next(&self) -> Result<RootStep> {
        if self.done {
            return Ok(RootStep::Done(self.x));
        }
        if self.it >= self.max_iter {
            return Err(Error::NotConverged(format!(
                "root finder did not converge in {} iterations (bracket [{}, {}])",
                self.max_iter,
                Num(self.lo),
                Num(self.hi)
            )));
        }
        Ok(RootStep::Evaluate(self.x))
    }

    /// Takes the function's value `v` and derivative `d` at the point
    /// [`Self::next`] proposed. Errors: `NotConverged` if `v` is NaN.
    pub(crate) fn update(&mut self, v: f64, d: f64) -> Result<()> {
        if self.done {
            return Ok(());
        }
        let (it, x) = (self.it, self.x);
        self.it += 1;
        if v == 0.0 || v.abs() <= self.ftol {
            self.done = true;
            return Ok(());
        }
        if v.is_nan() {
            return Err(Error::NotConverged(format!(
                "function value is NaN at {}",
                Num(x)
            )));
        }
        // Root to the right of x?
        if (v < 0.0) == self.increasing {
            self.lo = x;
        } else {
            self.hi = x;
        }
        let (lo, hi) = (self.lo, self.hi);
        let tol = self
            .xtol
            .max(4.0 * f64::EPSILON * x.abs())
            .max(f64::MIN_POSITIVE);
        if hi - lo <= tol {
            self.done = true;
            return Ok(());
        }
        let newton = x - v / d;
        let stalled = it % 4 == 3 && hi - lo > 0.5 * self.width_ref;
        if it % 4 == 3 {
            self.width_ref = hi - lo;
        }
        let use_newton = !stalled && d.is_finite() && d != 0.0 && newton > lo && newton < hi;
        self.x = if use_newton { newton } else { midpoint(lo, hi) };
        self.done = use_newton && (self.x - x).abs() <= tol;
        Ok(())
    }
}
