//! Batch Markovian arrival processes BMAP (D₀, D₁, …, D_k), with MAP (k = 1),
//! MMPP and Poisson as special cases.
//!
//! An underlying CTMC on n phases moves with rates D₀ (off-diagonal, no
//! arrival) and D_j (a batch of j arrivals); D = Σ_j D_j is its generator.
//! Used by the threshold model (Avrachenkov et al., paper 002) for page
//! arrivals and by the routing model (Altman et al., paper 003, §5).

use crate::error::{Error, Num, Result};
use crate::numeric::markov::stationary_gth;
use crate::numeric::matrix::absorption_moment;
use nalgebra::{DMatrix, DVector};

/// Work bound of [`Bmap::lag_correlation`], in multiply-adds (some
/// seconds).
pub const MAX_LAG_WORK: f64 = 2e10;

/// Largest k of [`Bmap::interarrival_moment`] (k! overflows a double
/// beyond k = 170; E\[T^k] long before for any rate below one).
pub const MAX_MOMENT_ORDER: u32 = 64;

/// Largest lag k of [`Bmap::lag_correlation`].
pub const MAX_LAG: u32 = 1_000_000;

/// Tolerance, relative to the largest rate in a row, for "rows sum to zero".
const ROW_SUM_TOL: f64 = 1e-9;

/// n x n matrices a BMAP's computations hold besides its own D₀..D_k (the
/// generator, GTH's copy, an LU factor, Σ_{j≥1} D_j, ...): an upper bound.
const WORK_MATRICES: u128 = 6;

/// Bytes to build a BMAP of order `n` from `matrices` = k + 1 matrices
/// when `copies` full copies of them are alive at once (the input and the
/// stored matrices count; `None` on overflow), plus the working matrices.
pub fn build_bytes(n: usize, matrices: usize, copies: u128) -> Option<u128> {
    let n2 = u128::try_from(n).ok()?.checked_pow(2)?;
    let m = u128::try_from(matrices).ok()?;
    m.checked_mul(copies)?
        .checked_add(WORK_MATRICES)?
        .checked_mul(n2)?
        .checked_mul(8)
}

/// `TooLarge` when [`build_bytes`] exceeds the memory cap; `what` names
/// the process, e.g. "a BMAP of order 4 with 1001 matrices".
pub(crate) fn check_build(n: usize, matrices: usize, copies: u128) -> Result<()> {
    // Beyond the address space as such (the byte count would print with
    // 20+ digits).
    crate::limits::check_memory(
        build_bytes(n, matrices, copies).filter(|&b| b <= isize::MAX as u128),
        &format!("a BMAP of order {n} with {matrices} matrices D0..Dk"),
    )
}

/// A BMAP of order n with batches of size 1..=k.
#[derive(Debug, Clone, PartialEq)]
pub struct Bmap {
    /// d[0] = D₀, d[j] = D_j.
    d: Vec<DMatrix<f64>>,
    /// Stationary distribution θ of D.
    theta: DVector<f64>,
}

impl Bmap {
    /// Builds from matrices D₀..D_k given row-major, each n×n, k ≥ 1.
    /// Checks: D₀ off-diagonal ≥ 0 and diagonal < 0, D_j ≥ 0 for j ≥ 1,
    /// all finite, rows of D₀ + … + D_k summing to zero, and an irreducible
    /// D (a unique stationary distribution).
    pub fn new(n: usize, matrices: &[&[f64]]) -> Result<Self> {
        if n == 0 {
            return Err(Error::invalid("a BMAP needs at least one phase"));
        }
        if matrices.len() < 2 {
            return Err(Error::invalid("a BMAP needs D0 and at least D1"));
        }
        let n2 = n
            .checked_mul(n)
            .ok_or_else(|| Error::TooLarge(format!("BMAP order {n} overflows")))?;
        // The caller's matrices and the stored copy.
        check_build(n, matrices.len(), 2)?;
        let mut d = Vec::with_capacity(matrices.len());
        for (j, m) in matrices.iter().enumerate() {
            if m.len() != n2 {
                return Err(Error::invalid(format!(
                    "D{j} must have n*n = {n2} entries, got {}",
                    m.len()
                )));
            }
            for (idx, &v) in m.iter().enumerate() {
                let (r, c) = (idx / n, idx % n);
                // The index in the C API's one array of matrices, too.
                let at = j * n2 + idx;
                if !v.is_finite() {
                    return Err(Error::invalid(format!(
                        "D{j}[{r}][{c}] (matrices[{at}]) must be finite, got {}",
                        Num(v)
                    )));
                }
                let diag0 = j == 0 && r == c;
                if !diag0 && v < 0.0 {
                    return Err(Error::invalid(format!(
                        "D{j}[{r}][{c}] (matrices[{at}]) must be >= 0, got {}",
                        Num(v)
                    )));
                }
                if diag0 && v >= 0.0 {
                    return Err(Error::invalid(format!(
                        "D0[{r}][{r}] (matrices[{at}]) must be < 0, got {}",
                        Num(v)
                    )));
                }
            }
            d.push(DMatrix::from_row_slice(n, n, m));
        }
        for r in 0..n {
            let sum: f64 = d.iter().map(|m| m.row(r).sum()).sum();
            let scale = d[0][(r, r)].abs();
            // A sum that overflowed (inf or NaN) is refused too.
            if sum.is_nan() || sum.abs() > ROW_SUM_TOL * scale {
                return Err(Error::invalid(format!(
                    "row {r} of D0 + D1 + ... sums to {}, not 0: not a generator",
                    Num(sum)
                )));
            }
        }
        let generator: DMatrix<f64> = d.iter().sum();
        let theta = stationary_gth(&generator)?;
        Ok(Bmap { d, theta })
    }

    /// A MAP (D₀, D₁), row-major n×n each.
    pub fn map(n: usize, d0: &[f64], d1: &[f64]) -> Result<Self> {
        Bmap::new(n, &[d0, d1])
    }

    /// Poisson process of rate λ > 0 (single arrivals).
    pub fn poisson(rate: f64) -> Result<Self> {
        crate::validate::positive("rate", rate)?;
        Bmap::new(1, &[&[-rate], &[rate]])
    }

    /// Markov-modulated Poisson process: phase generator Q (row-major n×n)
    /// and arrival rate `rates[i]` ≥ 0 in phase i. D₀ = Q − Λ, D₁ = Λ.
    pub fn mmpp(q: &[f64], rates: &[f64]) -> Result<Self> {
        let n = rates.len();
        crate::validate::all_non_negative("rates", rates)?;
        let n2 = n
            .checked_mul(n)
            .ok_or_else(|| Error::TooLarge(format!("MMPP order {n} overflows")))?;
        if q.len() != n2 {
            return Err(Error::invalid(format!(
                "Q must have n*n = {n2} entries, got {}",
                q.len()
            )));
        }
        // D0 and D1 built here, then the stored copy.
        check_build(n, 2, 2)?;
        let mut d0 = q.to_vec();
        let mut d1 = vec![0.0; n * n];
        for i in 0..n {
            d0[i * n + i] -= rates[i];
            d1[i * n + i] = rates[i];
        }
        Bmap::new(n, &[&d0, &d1])
    }

    /// Number of phases n.
    pub fn order(&self) -> usize {
        self.theta.len()
    }

    /// Largest batch size k.
    pub fn max_batch(&self) -> usize {
        self.d.len() - 1
    }

    /// D_j (zero matrix beyond k is not stored: j must be ≤ k).
    pub fn d(&self, j: usize) -> &DMatrix<f64> {
        &self.d[j]
    }

    /// All matrices D₀..D_k.
    pub fn matrices(&self) -> &[DMatrix<f64>] {
        &self.d
    }

    /// The generator D = Σ_j D_j of the phase process.
    pub fn generator(&self) -> DMatrix<f64> {
        self.d.iter().sum()
    }

    /// Stationary distribution θ of the phase process (θD = 0, θ1 = 1).
    pub fn stationary(&self) -> &[f64] {
        self.theta.as_slice()
    }

    /// Fundamental rate λ = θ Σ_j j D_j 1: mean arrivals (pages) per unit time.
    pub fn fundamental_rate(&self) -> f64 {
        let ones = DVector::from_element(self.order(), 1.0);
        self.d
            .iter()
            .enumerate()
            .skip(1)
            .map(|(j, m)| j as f64 * self.theta.dot(&(m * &ones)))
            .sum()
    }

    /// Batch rate λ_b = θ (−D₀) 1: mean batches per unit time.
    pub fn batch_rate(&self) -> f64 {
        let ones = DVector::from_element(self.order(), 1.0);
        -self.theta.dot(&(&self.d[0] * &ones))
    }

    /// Builds from matrices D₀..D_k given as square nalgebra matrices of the
    /// same order (same checks as [`Bmap::new`]).
    pub fn from_matrices(d: &[DMatrix<f64>]) -> Result<Self> {
        let n = d.first().map(|m| m.nrows()).unwrap_or(0);
        // The caller's d, the row-major copy here and the stored one.
        check_build(n, d.len(), 3)?;
        let mut rows: Vec<Vec<f64>> = Vec::with_capacity(d.len());
        for (j, m) in d.iter().enumerate() {
            if m.nrows() != n || m.ncols() != n {
                return Err(Error::invalid(format!(
                    "D{j} is {}x{}, expected {n}x{n}",
                    m.nrows(),
                    m.ncols()
                )));
            }
            rows.push(m.transpose().as_slice().to_vec());
        }
        let refs: Vec<&[f64]> = rows.iter().map(|r| r.as_slice()).collect();
        Bmap::new(n, &refs)
    }

    /// Σ_{j≥1} D_j: the rates of transitions that carry a batch.
    pub fn batch_matrix(&self) -> DMatrix<f64> {
        self.d.iter().skip(1).sum()
    }

    /// Phase distribution φ = θ(Σ_{j≥1} D_j)/λ_b just after a batch epoch.
    /// The time to the next batch is then PH(φ, D₀) (Lucantoni 1991).
    pub fn batch_epoch_phase(&self) -> DVector<f64> {
        let lb = self.batch_rate();
        (self.theta.transpose() * self.batch_matrix()).transpose() / lb
    }

    /// E\[T^k] of the stationary time T between batches: k! φ (−D₀)^{−k} 1,
    /// for 1 ≤ k ≤ [`MAX_MOMENT_ORDER`] (else `InvalidArgument`).
    pub fn interarrival_moment(&self, k: u32) -> Result<f64> {
        if k == 0 || k > MAX_MOMENT_ORDER {
            return Err(Error::invalid(format!(
                "moment order k must be in 1..={MAX_MOMENT_ORDER}, got {k}"
            )));
        }
        Ok(self.gap_moment(k))
    }

    /// E\[T^k] for any k (E\[T⁰] = 1).
    fn gap_moment(&self, k: u32) -> f64 {
        absorption_moment(&self.batch_epoch_phase(), &self.d[0], k)
    }

    /// Var\[T] of the stationary time between batches.
    pub fn interarrival_variance(&self) -> f64 {
        let m = self.gap_moment(1);
        self.gap_moment(2) - m * m
    }

    /// Lag-k correlation of successive times between batches, 1 ≤ k ≤
    /// [`MAX_LAG`] (else `InvalidArgument`): (φ(−D₀)⁻¹ Pᵏ (−D₀)⁻¹1 −
    /// E\[T]²)/Var\[T], P = (−D₀)⁻¹ Σ_{j≥1} D_j the phase transition matrix
    /// from batch to batch; 0 when Var\[T] = 0. `TooLarge` once the k
    /// products with P (4 n² multiply-adds each) pass [`MAX_LAG_WORK`]. The
    /// products stop early once Pʲ v no longer changes (P is stochastic: Pʲ v
    /// converges), so a large k costs only as many products as the
    /// convergence takes.
    pub fn lag_correlation(&self, k: u32) -> Result<f64> {
        if k == 0 || k > MAX_LAG {
            return Err(Error::invalid(format!(
                "lag k must be in 1..={MAX_LAG}, got {k}"
            )));
        }
        let n = self.order();
        let lu = (-&self.d[0]).lu();
        let ones = DVector::from_element(n, 1.0);
        let nan = || DVector::from_element(n, f64::NAN);
        let m1 = self.gap_moment(1);
        let var = self.interarrival_variance();
        if var <= 0.0 {
            return Ok(0.0);
        }
        // Right to left: v = Pᵏ (−D₀)⁻¹ 1.
        let mut v = lu.solve(&ones).unwrap_or_else(nan);
        let dplus = self.batch_matrix();
        let per_step = 4.0 * (n as f64) * (n as f64);
        for j in 0..k {
            if f64::from(j) * per_step > MAX_LAG_WORK {
                return Err(Error::TooLarge(format!(
                    "the lag-{k} correlation of a BMAP of order {n} needs more than {MAX_LAG_WORK:e} multiply-adds \
                     (P^j has not converged after {j} products)"
                )));
            }
            let next = lu.solve(&(&dplus * &v)).unwrap_or_else(nan);
            let same = next == v;
            v = next;
            if same {
                break;
            }
        }
        let w = lu.solve(&v).unwrap_or_else(nan);
        Ok((self.batch_epoch_phase().dot(&w) - m1 * m1) / var)
    }

    /// Mean batch size E\[B] = λ/λ_b.
    pub fn mean_batch_size(&self) -> f64 {
        self.fundamental_rate() / self.batch_rate()
    }

    /// P(batch size = j) for j = 1..=k (index 0 of the result is j = 1).
    pub fn batch_size_distribution(&self) -> Vec<f64> {
        let ones = DVector::from_element(self.order(), 1.0);
        let lb = self.batch_rate();
        self.d
            .iter()
            .skip(1)
            .map(|m| self.theta.dot(&(m * &ones)) / lb)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poisson_and_mmpp_rates() {
        let p = Bmap::poisson(2.5).unwrap();
        assert!((p.fundamental_rate() - 2.5).abs() < 1e-15);
        // Two-phase MMPP: switch 1→2 at rate 1, 2→1 at rate 3; θ = (3/4, 1/4).
        let m = Bmap::mmpp(&[-1.0, 1.0, 3.0, -3.0], &[2.0, 10.0]).unwrap();
        assert!((m.stationary()[0] - 0.75).abs() < 1e-14);
        assert!((m.fundamental_rate() - (0.75 * 2.0 + 0.25 * 10.0)).abs() < 1e-13);
    }

    #[test]
    fn batches() {
        // Poisson batches at rate 2 with sizes 1 (p = 0.25) and 3 (p = 0.75).
        let b = Bmap::new(1, &[&[-2.0], &[0.5], &[0.0], &[1.5]]).unwrap();
        assert_eq!(b.max_batch(), 3);
        assert!((b.batch_rate() - 2.0).abs() < 1e-15);
        let p = b.batch_size_distribution();
        assert!((p[0] - 0.25).abs() < 1e-15 && p[1].abs() < 1e-15 && (p[2] - 0.75).abs() < 1e-15);
        assert!((b.fundamental_rate() - 2.0 * (0.25 + 3.0 * 0.75)).abs() < 1e-14);
    }

    #[test]
    fn invalid_processes_are_rejected() {
        assert!(Bmap::poisson(0.0).is_err());
        assert!(Bmap::map(1, &[-1.0], &[2.0]).is_err()); // rows do not sum to 0
        assert!(Bmap::map(1, &[1.0], &[-1.0]).is_err());
        assert!(Bmap::map(2, &[-1.0, 1.0, 0.0], &[0.0; 4]).is_err());
        assert!(Bmap::map(1, &[f64::NAN], &[1.0]).is_err());
        // Reducible: two absorbing classes.
        assert!(Bmap::map(2, &[-1.0, 0.0, 0.0, -1.0], &[1.0, 0.0, 0.0, 1.0]).is_err());
        assert!(Bmap::new(1, &[&[-1.0]]).is_err());
    }
}
