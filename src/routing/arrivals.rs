//! Stationary arrival processes of §5 and the transforms f_m(k) of Lemma 5.2.
//!
//! f_m(k) = E exp(−μ_m (τ₁ + … + τ_k)) = P(S_m ≥ τ₁ + … + τ_k) is the
//! probability that a packet routed to an exponential server of rate μ_m is
//! still in service k arrivals later (Example 2.1). For a MAP (C, D) =
//! (D₀, D₁) it is q [f*(μ)]^k e with f*(μ) = (μI − C)⁻¹ D and q = sD/(sDe),
//! s the stationary vector of C + D (§5.2); an MMPP (Q, Λ) is the MAP
//! (Q − Λ, Λ) (§5.1) and a Poisson process of rate λ gives the closed form
//! (λ/(λ + μ))^k (Example 2.1). The paper's interpretation line for the MAP
//! transform reads E\[e^{μτ}…]; the exponent is −μτ, as in its derivation.

use super::system::MAX_PERIOD;
use crate::dist::Bmap;
use crate::error::{Error, Num, Result};
use crate::limits::Control;
use crate::validate;
use nalgebra::{DMatrix, DVector};

/// Most multiply-adds [`ArrivalProcess::transforms`] (and the cost tables
/// built from it without a control) may take: about 2 d² per k for a
/// process of order d (2 for Poisson), so kmax · d² ≤ 2^30, a second or two.
pub const MAX_TRANSFORM_WORK: f64 = (1u64 << 31) as f64;

/// Multiply-adds between two checks of a control inside the transforms.
const CHECK_WORK: u64 = 1 << 20;

/// Every entry of a caller's row-major n×n matrix `name` finite, the
/// off-diagonal ones ≥ 0 and the diagonal ones ≤ 0 if `generator_like`
/// (else ≥ 0 too); messages name the caller's flat array.
fn check_matrix(name: &str, m: &[f64], n: usize, generator_like: bool) -> Result<()> {
    for (i, &v) in m.iter().enumerate() {
        let (r, c) = (i / n, i % n);
        if !v.is_finite() {
            return Err(Error::invalid(format!(
                "{name}[{i}] (row {r}, column {c}) must be finite, got {}",
                Num(v)
            )));
        }
        let diagonal = r == c && generator_like;
        if diagonal && v > 0.0 {
            return Err(Error::invalid(format!(
                "{name}[{i}] (diagonal, row {r}) must be <= 0, got {}",
                Num(v)
            )));
        }
        if !diagonal && v < 0.0 {
            return Err(Error::invalid(format!(
                "{name}[{i}] (row {r}, column {c}) must be >= 0, got {}",
                Num(v)
            )));
        }
    }
    Ok(())
}

/// A caller's n×n matrix `name` must have n*n entries.
fn order_of(name: &str, len: usize, n: usize) -> Result<()> {
    match n.checked_mul(n) {
        Some(n2) if n2 == len => Ok(()),
        Some(n2) => Err(Error::invalid(format!(
            "{name} must have n*n = {n2} entries, got {len}"
        ))),
        None => Err(Error::TooLarge(format!("order {n} overflows n*n"))),
    }
}

/// A stationary arrival process with single arrivals (§2: the τ_n form a
/// stationary sequence). Poisson is kept apart for its closed form.
#[derive(Debug, Clone, PartialEq)]
pub enum ArrivalProcess {
    /// Poisson process of rate λ (Example 2.1).
    Poisson {
        /// λ > 0.
        rate: f64,
    },
    /// A Markovian arrival process (D₀, D₁) (§5.2), MMPP included (§5.1).
    Map {
        /// The process; its largest batch size is 1.
        bmap: Bmap,
        /// q = sD₁/(sD₁e): the phase just after an arrival, stationary.
        q: DVector<f64>,
    },
}

impl ArrivalProcess {
    /// Poisson arrivals at `rate` > 0.
    pub fn poisson(rate: f64) -> Result<Self> {
        validate::positive("arrival rate", rate)?;
        Ok(ArrivalProcess::Poisson { rate })
    }

    /// MMPP with phase generator `q` (row-major n×n) and arrival rates
    /// `rates` (≥ 0, not all zero) in the phases (§5.1).
    pub fn mmpp(q: &[f64], rates: &[f64]) -> Result<Self> {
        validate::non_empty("rates", rates)?;
        validate::all_non_negative("rates", rates)?;
        let n = rates.len();
        order_of("q", q.len(), n)?;
        // The caller's names, before the BMAP (D0 = Q - diag(rates)) checks.
        check_matrix("q", q, n, true)?;
        for r in 0..n {
            let row = &q[r * n..(r + 1) * n];
            let sum: f64 = row.iter().sum();
            let scale = row.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
            if sum.abs() > 1e-9 * scale {
                return Err(Error::invalid(format!(
                    "row {r} of q sums to {}, not 0: not a generator",
                    Num(sum)
                )));
            }
        }
        Self::from_bmap(Bmap::mmpp(q, rates)?)
    }

    /// MAP with matrices C = D₀ and D = D₁ (row-major n×n each, §5.2).
    pub fn map(n: usize, d0: &[f64], d1: &[f64]) -> Result<Self> {
        if n == 0 {
            return Err(Error::invalid("the order n must be >= 1"));
        }
        order_of("d0", d0.len(), n)?;
        order_of("d1", d1.len(), n)?;
        check_matrix("d0", d0, n, true)?;
        check_matrix("d1", d1, n, false)?;
        Self::from_bmap(Bmap::map(n, d0, d1)?)
    }

    /// Any [`Bmap`] with single arrivals (batches would put several packets
    /// at one instant, which the routing model of §2 does not have).
    pub fn from_bmap(bmap: Bmap) -> Result<Self> {
        if bmap.max_batch() != 1 {
            return Err(Error::invalid(format!(
                "routing needs single arrivals, this process has batches up to {}",
                bmap.max_batch()
            )));
        }
        let n = bmap.order();
        let s = DVector::from_column_slice(bmap.stationary());
        let sd = bmap.d(1).tr_mul(&s); // (sD)ᵀ
        let total = sd.sum();
        if !(total.is_finite() && total > 0.0) {
            return Err(Error::invalid("the arrival process has arrival rate 0"));
        }
        let q = sd / total;
        debug_assert_eq!(q.len(), n);
        Ok(ArrivalProcess::Map { bmap, q })
    }

    /// Mean arrival rate λ (packets per unit time); E τ = 1/λ.
    pub fn rate(&self) -> f64 {
        match self {
            ArrivalProcess::Poisson { rate } => *rate,
            ArrivalProcess::Map { bmap, .. } => bmap.fundamental_rate(),
        }
    }

    /// Mean interarrival time E τ₁ = 1/λ (stationary at arrival epochs).
    pub fn mean_interarrival(&self) -> f64 {
        1.0 / self.rate()
    }

    /// The matrix f*(μ) = (μI − C)⁻¹ D of §5.2 (1×1 λ/(λ+μ) for Poisson).
    pub fn transform_matrix(&self, mu: f64) -> Result<DMatrix<f64>> {
        validate::positive("service rate", mu)?;
        match self {
            ArrivalProcess::Poisson { rate } => Ok(DMatrix::from_element(1, 1, rate / (rate + mu))),
            ArrivalProcess::Map { bmap, .. } => {
                let (a, _) = shifted(bmap, mu)?;
                Ok(a)
            }
        }
    }

    /// Order d of the phase process (1 for Poisson).
    pub fn order(&self) -> usize {
        match self {
            ArrivalProcess::Poisson { .. } => 1,
            ArrivalProcess::Map { q, .. } => q.len(),
        }
    }

    /// Multiply-adds of [`ArrivalProcess::transforms`] up to kmax (≥ 1 per k).
    pub fn transform_work(&self, kmax: usize) -> f64 {
        let d = self.order() as f64;
        kmax as f64 * (2.0 * d * d).max(2.0)
    }

    /// (f_m(1), …, f_m(kmax)) and their complements (1 − f_m(k)) for an
    /// exponential server of rate `mu` (Lemma 5.2), each computed without
    /// cancellation: v_k = f* v_{k−1} (v₀ = e) gives f_m(k) = q v_k, and
    /// u_k = e − v_k obeys u_k = u₁ + f* u_{k−1} with u₁ = μ(μI − C)⁻¹e
    /// (because De = −Ce), a sum of non-negative terms. TooLarge beyond
    /// [`MAX_TRANSFORM_WORK`] (kmax · 2d² multiply-adds), before any work;
    /// [`ArrivalProcess::transforms_with`] has no such bound.
    pub fn transforms(&self, mu: f64, kmax: usize) -> Result<(Vec<f64>, Vec<f64>)> {
        let work = self.transform_work(kmax);
        if work.is_nan() || work > MAX_TRANSFORM_WORK {
            return Err(Error::TooLarge(format!(
                "{kmax} transform values of an order-{} process take {} multiply-adds (limit {})",
                self.order(),
                Num(work),
                Num(MAX_TRANSFORM_WORK)
            )));
        }
        self.transforms_with(mu, kmax, &Control::default())
    }

    /// f_m(k) alone, 1 ≤ k ≤ [`MAX_PERIOD`] (`InvalidArgument` for k = 0,
    /// `TooLarge` beyond), as [`ArrivalProcess::transforms`] computes it.
    pub fn transform(&self, mu: f64, k: usize) -> Result<f64> {
        if k == 0 {
            return Err(Error::invalid("k must be >= 1"));
        }
        if k > MAX_PERIOD {
            return Err(Error::TooLarge(format!("k = {k} exceeds the period limit")));
        }
        let (f, _) = self.transforms(mu, k)?;
        Ok(f[k - 1])
    }

    /// [`ArrivalProcess::transforms`] under a control, without the work
    /// bound: a cancel is seen within 2^20 multiply-adds (`Cancelled`).
    pub fn transforms_with(
        &self,
        mu: f64,
        kmax: usize,
        control: &Control,
    ) -> Result<(Vec<f64>, Vec<f64>)> {
        validate::positive("service rate", mu)?;
        let mut f = Vec::new();
        let mut g = Vec::new();
        f.try_reserve_exact(kmax)
            .map_err(|_| Error::TooLarge(format!("{kmax} transform values")))?;
        g.try_reserve_exact(kmax)
            .map_err(|_| Error::TooLarge(format!("{kmax} transform values")))?;
        const WHAT: &str = "routing transforms";
        match self {
            ArrivalProcess::Poisson { rate } => {
                // ln(λ/(λ+μ)) = −ln(1 + μ/λ).
                let log_rho = -(mu / rate).ln_1p();
                for k in 1..=kmax {
                    if (k as u64).is_multiple_of(CHECK_WORK) {
                        control.check(WHAT, k as u64)?;
                    }
                    let x = k as f64 * log_rho;
                    f.push(x.exp());
                    g.push(-x.exp_m1());
                }
            }
            ArrivalProcess::Map { bmap, q } => {
                let (a, u1) = shifted(bmap, mu)?;
                let n = q.len();
                let per_k = (2 * n as u64).saturating_mul(n as u64).max(1);
                let mut since = 0u64;
                let mut v = DVector::from_element(n, 1.0);
                let mut u = DVector::zeros(n);
                for k in 0..kmax {
                    since = since.saturating_add(per_k);
                    if since >= CHECK_WORK {
                        control.check(WHAT, k as u64)?;
                        since = 0;
                    }
                    v = &a * &v;
                    u = &u1 + &a * &u;
                    f.push(q.dot(&v).clamp(0.0, 1.0));
                    g.push(q.dot(&u).clamp(0.0, 1.0));
                }
            }
        }
        Ok((f, g))
    }
}

/// f*(μ) = (μI − D₀)⁻¹ D₁ and u₁ = μ (μI − D₀)⁻¹ e. μI − D₀ is strictly
/// diagonally dominant for μ > 0, hence invertible.
fn shifted(bmap: &Bmap, mu: f64) -> Result<(DMatrix<f64>, DVector<f64>)> {
    let n = bmap.order();
    let m = DMatrix::identity(n, n) * mu - bmap.d(0);
    let lu = m.lu();
    let a = lu
        .solve(bmap.d(1))
        .ok_or_else(|| Error::Numerical("μI − C is singular".into()))?;
    let u1 = lu
        .solve(&DVector::from_element(n, mu))
        .ok_or_else(|| Error::Numerical("μI − C is singular".into()))?;
    if a.iter().chain(u1.iter()).any(|x| !x.is_finite()) {
        return Err(Error::Numerical("f*(μ) is not finite".into()));
    }
    Ok((a, u1))
}
