//! Stationary distributions of continuous-time Markov chains.

use crate::error::{Error, Result};
use nalgebra::{DMatrix, DVector};

/// The stationary distribution of a generator Q by the GTH algorithm
/// (Grassmann, Taksar and Heyman), which uses only the off-diagonal rates
/// and has no subtraction. The diagonal is a sum of user entries such as
/// −q12 − λ1 + λ1, which cancels: with q12 = 4e−9 next to λ1 = 1 it keeps
/// only eight digits of q12, enough to put an LU solve's fundamental rate
/// of a stiff MMPP off by 2e−9 relative; GTH never reads it.
pub(crate) fn stationary_gth(q: &DMatrix<f64>) -> Result<DVector<f64>> {
    let n = q.nrows();
    let reducible = || {
        Error::invalid("the phase process is not irreducible: no unique stationary distribution")
    };
    let mut a = q.clone();
    // Censor states n−1, ..., 1 one at a time: state k's rate to the lower
    // states is s, and the path i → k → j adds a(i, k) a(k, j)/s to i → j.
    for k in (1..n).rev() {
        let s: f64 = (0..k).map(|j| a[(k, j)]).sum();
        if !(s > 0.0 && s.is_finite()) {
            return Err(reducible());
        }
        for i in 0..k {
            let f = a[(i, k)] / s;
            if f != 0.0 {
                for j in (0..k).filter(|&j| j != i) {
                    a[(i, j)] += f * a[(k, j)];
                }
            }
        }
    }
    let mut theta = DVector::zeros(n);
    theta[0] = 1.0;
    for k in 1..n {
        let s: f64 = (0..k).map(|j| a[(k, j)]).sum();
        theta[k] = (0..k).map(|i| theta[i] * a[(i, k)]).sum::<f64>() / s;
    }
    let total = theta.sum();
    if !(total.is_finite() && total > 0.0) {
        return Err(reducible());
    }
    Ok(theta / total)
}
