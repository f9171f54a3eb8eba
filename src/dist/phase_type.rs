//! Continuous phase-type distributions PH(α, S): the time to absorption of
//! a finite Markov chain started in phase i with probability α_i (and
//! absorbed at once with probability α₀ = 1 − Σα_i), with sub-generator S.

use crate::error::{Error, Num, Result};
use crate::numeric::matrix::{absorption_moment, exp_sx, expm1};
use nalgebra::{DMatrix, DVector};
use rand::{Rng, RngExt};

/// A phase-type distribution (α, S) of order n.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseType {
    alpha: DVector<f64>,
    s: DMatrix<f64>,
    /// Exit rates s₀ = −S·1.
    exit: DVector<f64>,
}

/// Largest Erlang order turned into a (dense) phase-type: 32 MiB.
pub const MAX_ERLANG_PHASES: usize = 2048;

/// n x n matrices a phase-type of order n may hold at once: S, its
/// construction buffer and the temporaries of the matrix exponential in
/// [`PhaseType::cdf`] (nalgebra's Padé step holds about ten), an upper bound.
pub const WORK_MATRICES: u128 = 16;

/// Phase changes after which one draw of [`PhaseType::sample`] gives up
/// (NaN): a few seconds of work for an order-2 chain.
pub const MAX_SAMPLE_JUMPS: u64 = 100_000_000;

/// Power of two by which [`PhaseType::log_laplace`] scales a transform
/// below the normal range: y_i = E_i\[e^{−sX}\] ≤ 1 per starting phase, so
/// the scaled solve stays below 2^960 (no overflow, even summed over
/// [`MAX_ERLANG_PHASES`] phases).
const TINY_SCALE: i32 = 960;

/// Bytes a phase-type of order `n` may hold during its computations
/// (`None` on overflow): [`WORK_MATRICES`] dense n x n matrices.
pub fn working_bytes(n: usize) -> Option<u128> {
    let n = u128::try_from(n).ok()?;
    n.checked_mul(n)?.checked_mul(WORK_MATRICES)?.checked_mul(8)
}

/// `TooLarge` when a dense phase-type of order `n` (`what`, e.g. "a Coxian
/// of 100000 phases") would exceed the memory cap; called before anything
/// of that size is allocated.
pub(crate) fn check_order(n: usize, what: &str) -> Result<()> {
    // Beyond the address space as such (the byte count would print with
    // 20+ digits).
    crate::limits::check_memory(
        working_bytes(n).filter(|&b| b <= isize::MAX as u128),
        &format!("{what} (dense {n} x {n} sub-generator)"),
    )
}

impl PhaseType {
    /// Build from the initial vector `alpha` (length n, entries ≥ 0, sum ≤ 1)
    /// and the row-major n×n sub-generator `s` (off-diagonal ≥ 0, negative
    /// diagonal, row sums ≤ 0, absorption certain: S nonsingular).
    pub fn new(alpha: &[f64], s: &[f64]) -> Result<Self> {
        let n = alpha.len();
        if n == 0 {
            return Err(Error::invalid(
                "phase-type order must be >= 1 (alpha is empty)",
            ));
        }
        let n2 = n
            .checked_mul(n)
            .ok_or_else(|| Error::TooLarge(format!("phase-type order {n} overflows")))?;
        if s.len() != n2 {
            return Err(Error::invalid(format!(
                "S must have n*n = {n2} entries for alpha of length {n}, got {}",
                s.len()
            )));
        }
        crate::validate::all_non_negative("alpha", alpha)?;
        let total: f64 = alpha.iter().sum();
        if total > 1.0 + 1e-9 {
            return Err(Error::invalid(format!(
                "alpha must sum to at most 1, sums to {}",
                Num(total)
            )));
        }
        check_order(n, &format!("a phase-type of order {n}"))?;
        let m = DMatrix::from_row_slice(n, n, s);
        let mut exit = DVector::zeros(n);
        for i in 0..n {
            let mut row = 0.0;
            for j in 0..n {
                let v = m[(i, j)];
                if !v.is_finite() {
                    return Err(Error::invalid(format!(
                        "S[{i}][{j}] (s[{}]) must be finite, got {}",
                        i * n + j,
                        Num(v)
                    )));
                }
                if i != j && v < 0.0 {
                    return Err(Error::invalid(format!(
                        "S[{i}][{j}] (s[{}]) is off-diagonal and must be >= 0, got {}",
                        i * n + j,
                        Num(v)
                    )));
                }
                row += v;
            }
            if m[(i, i)] >= 0.0 {
                return Err(Error::invalid(format!(
                    "S[{i}][{i}] (s[{}]) must be < 0, got {}",
                    i * n + i,
                    Num(m[(i, i)])
                )));
            }
            let scale = m[(i, i)].abs();
            // A sum that overflowed (inf, or NaN) is refused too.
            if row.is_nan() || row > 1e-12 * scale {
                return Err(Error::invalid(format!(
                    "row {i} of S sums to {} > 0: not a sub-generator",
                    Num(row)
                )));
            }
            exit[i] = (-row).max(0.0);
        }
        // Absorption is certain iff every phase reaches a phase with exit > 0.
        let mut reaches = exit.iter().map(|&e| e > 0.0).collect::<Vec<_>>();
        loop {
            let mut changed = false;
            for i in 0..n {
                if !reaches[i] && (0..n).any(|j| j != i && m[(i, j)] > 0.0 && reaches[j]) {
                    reaches[i] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        if let Some(i) = reaches.iter().position(|r| !r) {
            return Err(Error::invalid(format!(
                "phase {i} never leads to absorption: S is singular (not a transient sub-generator)"
            )));
        }
        Ok(PhaseType {
            alpha: DVector::from_column_slice(alpha),
            s: m,
            exit,
        })
    }

    /// Exponential(rate) as PH of order 1.
    pub fn exponential(rate: f64) -> Result<Self> {
        crate::validate::positive("rate", rate)?;
        PhaseType::new(&[1.0], &[-rate])
    }

    /// Erlang(k, rate) as a chain of k phases.
    pub fn erlang(k: usize, rate: f64) -> Result<Self> {
        crate::validate::positive("rate", rate)?;
        if k == 0 {
            return Err(Error::invalid("Erlang phase count k must be >= 1"));
        }
        // S is stored dense (k^2 doubles): k is bounded before allocating.
        if k > MAX_ERLANG_PHASES {
            return Err(Error::TooLarge(format!(
                "Erlang with {k} phases as a phase-type (dense {k} x {k} matrix; limit {MAX_ERLANG_PHASES})"
            )));
        }
        check_order(k, &format!("an Erlang of {k} phases"))?;
        let mut s = vec![0.0; k * k];
        for i in 0..k {
            s[i * k + i] = -rate;
            if i + 1 < k {
                s[i * k + i + 1] = rate;
            }
        }
        let mut alpha = vec![0.0; k];
        alpha[0] = 1.0;
        PhaseType::new(&alpha, &s)
    }

    /// Hyperexponential: start in phase i with probability `probs[i]`.
    pub fn hyperexponential(probs: &[f64], rates: &[f64]) -> Result<Self> {
        crate::validate::same_len("probs", probs.len(), "rates", rates.len())?;
        crate::validate::probability_vector("probs", probs)?;
        crate::validate::all_positive("rates", rates)?;
        let k = rates.len();
        check_order(k, &format!("a hyperexponential of {k} branches"))?;
        let mut s = vec![0.0; k * k];
        for i in 0..k {
            s[i * k + i] = -rates[i];
        }
        PhaseType::new(probs, &s)
    }

    /// Coxian: phase i has rate `rates[i]` and continues to phase i+1 with
    /// probability `cont[i]` (length n−1), otherwise absorbs.
    pub fn coxian(rates: &[f64], cont: &[f64]) -> Result<Self> {
        let k = rates.len();
        crate::validate::all_positive("rates", rates)?;
        if cont.len() + 1 != k {
            return Err(Error::invalid(format!(
                "a Coxian with {k} phases needs {} continuation probabilities, got {}",
                k.saturating_sub(1),
                cont.len()
            )));
        }
        for (i, &p) in cont.iter().enumerate() {
            if !(0.0..=1.0).contains(&p) {
                return Err(Error::invalid(format!(
                    "cont[{i}] must be in [0, 1], got {}",
                    Num(p)
                )));
            }
        }
        check_order(k, &format!("a Coxian of {k} phases"))?;
        let mut s = vec![0.0; k * k];
        for i in 0..k {
            s[i * k + i] = -rates[i];
            if i + 1 < k {
                s[i * k + i + 1] = rates[i] * cont[i];
            }
        }
        let mut alpha = vec![0.0; k];
        alpha[0] = 1.0;
        PhaseType::new(&alpha, &s)
    }

    /// Number of phases.
    pub fn order(&self) -> usize {
        self.alpha.len()
    }

    /// Initial probabilities α.
    pub fn alpha(&self) -> &[f64] {
        self.alpha.as_slice()
    }

    /// The sub-generator S.
    pub fn sub_generator(&self) -> &DMatrix<f64> {
        &self.s
    }

    /// Exit-rate vector s₀ = −S·1.
    pub fn exit_rates(&self) -> &[f64] {
        self.exit.as_slice()
    }

    /// E\[X^k] = k! α (−S)^{−k} 1.
    pub fn moment(&self, k: u32) -> f64 {
        absorption_moment(&self.alpha, &self.s, k)
    }

    /// 1 − E\[e^{−sX}] = s·α (sI − S)^{−1} 1: the form without cancellation.
    pub fn laplace_complement(&self, s: f64) -> f64 {
        if s == 0.0 {
            return 0.0;
        }
        // Mass at zero (1 − Σα) also contributes 1 − e^{0} = 0.
        self.resolvent_dot(s, 0, |_| s)
    }

    /// E\[e^{−sX}] = (1 − Σα) + α (sI − S)^{−1} s₀, a sum of non-negative
    /// terms, so accurate also where it is tiny (1 − complement is not).
    pub fn laplace(&self, s: f64) -> f64 {
        if s == 0.0 {
            return 1.0;
        }
        let atom = (1.0 - self.alpha.sum()).max(0.0);
        atom + self.absorbed_transform(s)
    }

    /// ln E\[e^{−sX}], accurate near 0 (through the complement) and where
    /// the transform is tiny (through the direct form, in logarithms),
    /// also below the least double: finite down to about 2^−2034 (−∞
    /// beyond).
    pub fn log_laplace(&self, s: f64) -> f64 {
        let c = self.laplace_complement(s);
        if c <= 0.5 {
            return (-c).ln_1p();
        }
        let atom = (1.0 - self.alpha.sum()).max(0.0);
        if atom > 0.0 {
            return self.laplace(s).ln();
        }
        let h = self.absorbed_transform(s);
        if h >= f64::MIN_POSITIVE {
            return h.ln();
        }
        // Below the normal range the solve's last bits are lost: solved
        // with its right side scaled by 2^TINY_SCALE, ln h is exact again
        // down to about 2^(−1074 − TINY_SCALE).
        let scaled = self.resolvent_dot(s, TINY_SCALE, |i| self.exit[i]);
        scaled.ln() - f64::from(TINY_SCALE) * std::f64::consts::LN_2
    }

    /// 2^`scale` α (sI − S)^{−1} b for s > 0, b_i = `rhs(i)` ≥ 0, solved as M y = c
    /// with row i of sI − S and b divided by d_i = s + rate_i: M has unit
    /// diagonal and off-diagonal row sums at most 1, and c_i ≤ 1 for the
    /// b used here (s, or exit rates), so nothing overflows or underflows
    /// to a singular M, however far apart s and the rates are.
    /// The right side is multiplied by 2^`scale` (exactly) after the
    /// division, so 0 ≤ c_i ≤ 2^`scale` and y_i stays far below overflow
    /// for `scale` ≤ [`TINY_SCALE`].
    fn resolvent_dot(&self, s: f64, scale: i32, rhs: impl Fn(usize) -> f64) -> f64 {
        let n = self.order();
        // Halves, so that s + rate cannot overflow.
        let half_d = |i: usize| 0.5 * s - 0.5 * self.s[(i, i)];
        let mut m = DMatrix::from_fn(n, n, |i, j| -(0.5 * self.s[(i, j)]) / half_d(i));
        let up = 2f64.powi(scale);
        let c = DVector::from_fn(n, |i, _| 0.5 * rhs(i) / half_d(i) * up);
        for i in 0..n {
            m[(i, i)] = 1.0;
        }
        let y = m
            .lu()
            .solve(&c)
            .unwrap_or_else(|| DVector::from_element(n, f64::NAN));
        self.alpha.dot(&y)
    }

    /// α (sI − S)^{−1} s₀ for s > 0 ([`Self::resolvent_dot`]).
    fn absorbed_transform(&self, s: f64) -> f64 {
        self.resolvent_dot(s, 0, |i| self.exit[i])
    }

    /// P(X ≤ x) = 1 − α e^{Sx} 1 = (1 − Σα) − α (e^{Sx} − I) 1, the
    /// second form evaluated by [`expm1`] so that nothing cancels.
    pub fn cdf(&self, x: f64) -> f64 {
        let atom = (1.0 - self.alpha.sum()).max(0.0);
        if x <= 0.0 {
            return atom;
        }
        if !x.is_finite() {
            // (Not reached through the C API, which requires a finite x;
            // the scalings below need one.)
            return if x.is_nan() { f64::NAN } else { 1.0 };
        }
        let e = expm1(&self.s, x);
        let absorbed = -(self.alpha.transpose() * e * DVector::from_element(self.order(), 1.0))[0];
        (atom + absorbed).clamp(0.0, 1.0)
    }

    /// Density α e^{Sx} s₀ (for x > 0). Plain scaling and squaring: in a
    /// tail the density is small and α s₀ + α (e^{Sx} − I) s₀ would cancel.
    pub fn density(&self, x: f64) -> f64 {
        if x < 0.0 {
            return 0.0;
        }
        if !x.is_finite() {
            return if x.is_nan() { f64::NAN } else { 0.0 };
        }
        let e = exp_sx(&self.s, x);
        (self.alpha.transpose() * e * &self.exit)[0]
    }

    /// One draw by simulating the absorbing chain: NaN when the draw took
    /// more than [`MAX_SAMPLE_JUMPS`] phase changes (absorption so unlikely
    /// per jump that a draw would not end in reasonable time).
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        let n = self.order();
        let mut t = 0.0;
        // Start phase, or absorption at time zero with probability α₀.
        let u: f64 = rng.random();
        let mut acc = 0.0;
        let mut phase = n;
        for i in 0..n {
            acc += self.alpha[i];
            if u < acc {
                phase = i;
                break;
            }
        }
        let mut jumps: u64 = 0;
        while phase < n {
            jumps += 1;
            if jumps > MAX_SAMPLE_JUMPS {
                return f64::NAN;
            }
            let rate = -self.s[(phase, phase)];
            t += super::exp_sample(rng, rate);
            let u: f64 = rng.random::<f64>() * rate;
            let mut acc = 0.0;
            let mut next = n; // absorption unless a transition is chosen
            for j in 0..n {
                if j != phase {
                    acc += self.s[(phase, j)];
                    if u < acc {
                        next = j;
                        break;
                    }
                }
            }
            phase = next;
        }
        t
    }
}
