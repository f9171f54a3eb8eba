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

use crate::dist::Bmap;
use crate::error::{Error, Result};
use crate::validate;
use nalgebra::{DMatrix, DVector};

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
        validate::non_empty("MMPP rates", rates)?;
        Self::from_bmap(Bmap::mmpp(q, rates)?)
    }

    /// MAP with matrices C = D₀ and D = D₁ (row-major n×n each, §5.2).
    pub fn map(n: usize, d0: &[f64], d1: &[f64]) -> Result<Self> {
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

    /// (f_m(1), …, f_m(kmax)) and their complements (1 − f_m(k)) for an
    /// exponential server of rate `mu` (Lemma 5.2), each computed without
    /// cancellation: v_k = f* v_{k−1} (v₀ = e) gives f_m(k) = q v_k, and
    /// u_k = e − v_k obeys u_k = u₁ + f* u_{k−1} with u₁ = μ(μI − C)⁻¹e
    /// (because De = −Ce), a sum of non-negative terms.
    pub fn transforms(&self, mu: f64, kmax: usize) -> Result<(Vec<f64>, Vec<f64>)> {
        validate::positive("service rate", mu)?;
        let mut f = Vec::new();
        let mut g = Vec::new();
        f.try_reserve_exact(kmax)
            .map_err(|_| Error::TooLarge(format!("{kmax} transform values")))?;
        g.try_reserve_exact(kmax)
            .map_err(|_| Error::TooLarge(format!("{kmax} transform values")))?;
        match self {
            ArrivalProcess::Poisson { rate } => {
                // ln(λ/(λ+μ)) = −ln(1 + μ/λ).
                let log_rho = -(mu / rate).ln_1p();
                for k in 1..=kmax {
                    let x = k as f64 * log_rho;
                    f.push(x.exp());
                    g.push(-x.exp_m1());
                }
            }
            ArrivalProcess::Map { bmap, q } => {
                let (a, u1) = shifted(bmap, mu)?;
                let n = q.len();
                let mut v = DVector::from_element(n, 1.0);
                let mut u = DVector::zeros(n);
                for _ in 0..kmax {
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
