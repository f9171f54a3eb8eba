//! Stationary distribution πQ = 0, π1 = 1 of the chain.
//!
//! Block algorithm ([`block_solve`]): linear level reduction (censoring)
//! from the top level down, the scheme of Klimenok et al. that paper 002
//! (§3, steps 1–5) cites, written for an upper block Hessenberg generator:
//! eliminating level n from the chain censored on levels ≤ n gives
//!   G_n = (−Q̃_{n,n})⁻¹ Q_{n,n−1},   Q̃_{i,n−1} += Q̃_{i,n} G_n  (i < n),
//! where Q̃ are the blocks of the censored chain (Q̃_{n,n} includes the
//! returns through higher levels). G_n is the matrix of first-passage
//! probabilities from level n down to level n − 1 and every update adds
//! non-negative terms, so there is no cancellation (as in GTH). Then π₀ is
//! the stationary vector of the censored generator Q̃_{0,0} and
//!   π_n = (Σ_{i<n} π_i Q̃_{i,n}) (−Q̃_{n,n})⁻¹,   n = 1..L.
//! Blocks are dense: the cost is Σ_n (d_n³ + Σ_{i<n} d_i d_n d_{n−1}).
//!
//! Cross-check ([`dense_solve`]): the whole generator as a dense matrix, one
//! LU solve with the normalisation replacing an equation (small models).

use super::state::StateSpace;
use crate::error::{Error, Result};
use nalgebra::{DMatrix, DVector};
use sprs::CsMat;

/// Largest number of dense block entries the block solver may hold.
pub const MAX_BLOCK_ENTRIES: usize = 200_000_000;
/// Largest chain [`dense_solve`] accepts.
pub const MAX_DENSE_STATES: usize = 5000;

/// Σ_{i ≤ j} d_i d_j (+ the down blocks): dense entries the block solver stores.
fn block_entries(space: &StateSpace) -> Option<usize> {
    let l = space.max_level();
    let mut total: usize = 0;
    for i in 0..=l {
        for j in i.saturating_sub(1)..=l {
            total = total.checked_add(space.level_size(i).checked_mul(space.level_size(j))?)?;
        }
    }
    Some(total)
}

/// Stationary distribution by level reduction (see the module docs).
pub fn block_solve(space: &StateSpace, q: &CsMat<f64>) -> Result<Vec<f64>> {
    let l = space.max_level();
    let entries = block_entries(space).filter(|&e| e <= MAX_BLOCK_ENTRIES).ok_or_else(|| {
        Error::TooLarge(format!(
            "the chain has {} states; its dense level blocks would exceed {MAX_BLOCK_ENTRIES} entries \
             (largest level has {} states)",
            space.len(),
            space.level_size(l)
        ))
    })?;
    let _ = entries;
    // up[i][j − i] = Q̃_{i,j} for j ≥ i; down[i] = Q_{i,i−1}.
    let mut up: Vec<Vec<DMatrix<f64>>> = (0..=l)
        .map(|i| (i..=l).map(|j| DMatrix::zeros(space.level_size(i), space.level_size(j))).collect())
        .collect();
    let mut down: Vec<DMatrix<f64>> = (0..=l)
        .map(|i| DMatrix::zeros(space.level_size(i), if i == 0 { 0 } else { space.level_size(i - 1) }))
        .collect();
    for (row, vec) in q.outer_iterator().enumerate() {
        let i = space.level_of(row);
        let r = row - space.offset(i);
        for (col, &v) in vec.iter() {
            let j = space.level_of(col);
            let c = col - space.offset(j);
            if j + 1 == i {
                down[i][(r, c)] += v;
            } else if j >= i {
                up[i][j - i][(r, c)] += v;
            } else {
                return Err(Error::Numerical(format!(
                    "generator entry from level {i} to level {j}: not upper block Hessenberg"
                )));
            }
        }
    }
    // Backward elimination.
    for n in (1..=l).rev() {
        let a = -&up[n][0];
        let g = a.lu().solve(&down[n]).ok_or_else(|| {
            Error::Numerical(format!("level {n}: the censored diagonal block is singular"))
        })?;
        for i in 0..n {
            let add = &up[i][n - i] * &g;
            up[i][n - 1 - i] += add;
        }
    }
    // π₀ from the censored chain on level 0, then forward.
    let mut pi: Vec<DVector<f64>> = Vec::with_capacity(l + 1);
    pi.push(crate::dist::stationary(&up[0][0]).map_err(|e| Error::Numerical(format!("level 0: {e}")))?);
    for n in 1..=l {
        let mut b = DVector::zeros(space.level_size(n));
        for i in 0..n {
            b += up[i][n - i].tr_mul(&pi[i]);
        }
        let at = (-&up[n][0]).transpose();
        let x = at
            .lu()
            .solve(&b)
            .ok_or_else(|| Error::Numerical(format!("level {n}: singular block in the forward pass")))?;
        pi.push(x);
    }
    let flat: Vec<f64> = pi.iter().flat_map(|v| v.iter().copied()).collect();
    normalise(flat)
}

/// Stationary distribution from one dense LU of the whole generator
/// (cross-check for small chains; `TooLarge` above [`MAX_DENSE_STATES`]).
pub fn dense_solve(q: &CsMat<f64>) -> Result<Vec<f64>> {
    let n = q.rows();
    if n > MAX_DENSE_STATES {
        return Err(Error::TooLarge(format!("dense solve of {n} states (limit {MAX_DENSE_STATES})")));
    }
    let mut a = DMatrix::zeros(n, n);
    for (row, vec) in q.outer_iterator().enumerate() {
        for (col, &v) in vec.iter() {
            a[(col, row)] += v; // Qᵀ
        }
    }
    for c in 0..n {
        a[(n - 1, c)] = 1.0;
    }
    let mut b = DVector::zeros(n);
    b[n - 1] = 1.0;
    let x = a.lu().solve(&b).ok_or_else(|| Error::Numerical("the generator is singular beyond rank n − 1".into()))?;
    normalise(x.iter().copied().collect())
}

/// Clears rounding-level negatives and rescales to sum one; a clearly
/// negative or non-finite entry is a failure.
fn normalise(mut pi: Vec<f64>) -> Result<Vec<f64>> {
    let max = pi.iter().cloned().fold(0.0_f64, f64::max);
    if !(max > 0.0 && max.is_finite()) {
        return Err(Error::Numerical("stationary vector is zero or not finite".into()));
    }
    for (k, v) in pi.iter_mut().enumerate() {
        if !v.is_finite() || *v < -1e-10 * max {
            return Err(Error::Numerical(format!("stationary probability {k} is {v}")));
        }
        *v = v.max(0.0);
    }
    let s: f64 = pi.iter().sum();
    pi.iter_mut().for_each(|v| *v /= s);
    Ok(pi)
}

/// Residual certificate max_j |(πQ)_j| / max_i |q_ii|: how far π is from
/// stationary, relative to the fastest rate of the chain.
pub fn residual(q: &CsMat<f64>, pi: &[f64]) -> f64 {
    let mut r = vec![0.0; q.cols()];
    let mut scale: f64 = 0.0;
    for (row, vec) in q.outer_iterator().enumerate() {
        for (col, &v) in vec.iter() {
            r[col] += pi[row] * v;
            if col == row {
                scale = scale.max(v.abs());
            }
        }
    }
    r.iter().fold(0.0_f64, |m, x| m.max(x.abs())) / scale.max(f64::MIN_POSITIVE)
}
