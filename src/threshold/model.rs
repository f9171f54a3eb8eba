//! The model of Avrachenkov et al. (paper 002, §2) and its threshold
//! policy.

use super::state::StateSpace;
use crate::dist::{Bmap, PhaseType};
use crate::error::{Error, Result};
use nalgebra::DMatrix;
use std::sync::Arc;

/// The crawler: one server (the indexing engine) with a buffer of N
/// waiting places, so at most N + 1 pages in the system.
///
/// Modeling decisions (the paper's matrix formulas were lost; see the
/// module documentation for the full list):
/// - `arrivals[r − 1]` is the BMAP (D₀(r), …, D_k(r)) of pages when r
///   robots are active; all share one phase space, and the phase is kept
///   when the number of active robots changes (build them with
///   [`crate::dist::compose`]).
/// - Service is PH(β, S) and starts as soon as a page reaches the server;
///   obsolescence of each waiting page is PH(γ, Γ), independent; the page
///   in service cannot become obsolete. β and γ must sum to one (no mass
///   at zero).
/// - Partial admission: of a batch of j pages arriving to i pages in the
///   system, min(j, N + 1 − i) are admitted, the rest lost.
#[derive(Debug, Clone)]
pub struct ThresholdModel {
    /// Shared, not copied: one process may serve every mode (a fitted BMAP
    /// with 65,536 batch sizes is megabytes).
    arrivals: Vec<Arc<Bmap>>,
    service: PhaseType,
    obsolescence: Option<PhaseType>,
    /// (γ, Γ, γ₀) of the obsolescence PH; one phase with rate 0 when pages
    /// never become obsolete.
    ob_alpha: Vec<f64>,
    ob_sub: DMatrix<f64>,
    ob_exit: Vec<f64>,
    buffer: usize,
    space: StateSpace,
}

impl ThresholdModel {
    /// Checks the inputs and the size of the chain (`TooLarge` with the
    /// state count above [`super::state::MAX_STATES`]). `obsolescence` None
    /// means pages never become obsolete (the model of Talim et al.).
    /// The arrival processes are given by value or as `Arc`s (shared, not
    /// copied).
    pub fn new<A: Into<Arc<Bmap>>>(
        arrivals: Vec<A>,
        service: PhaseType,
        obsolescence: Option<PhaseType>,
        buffer: usize,
    ) -> Result<Self> {
        let arrivals: Vec<Arc<Bmap>> = arrivals.into_iter().map(Into::into).collect();
        let w = arrivals
            .first()
            .map(|b| b.order())
            .ok_or_else(|| Error::invalid("arrivals must not be empty"))?;
        if let Some(i) = arrivals.iter().position(|b| b.order() != w) {
            return Err(Error::invalid(format!(
                "arrivals[{i}] has {} phases but arrivals[0] has {w}: the modes must share one phase space",
                arrivals[i].order()
            )));
        }
        for (name, ph) in [
            ("service", Some(&service)),
            ("obsolescence", obsolescence.as_ref()),
        ] {
            let Some(ph) = ph else { continue };
            let s: f64 = ph.alpha().iter().sum();
            if s.is_nan() || (s - 1.0).abs() > 1e-9 {
                return Err(Error::invalid(format!(
                    "the {name} initial vector must sum to 1, sums to {}",
                    crate::error::Num(s)
                )));
            }
        }
        let max_level = buffer
            .checked_add(1)
            .ok_or_else(|| Error::TooLarge("buffer size overflows".into()))?;
        let m = service.order();
        let r = obsolescence.as_ref().map_or(1, PhaseType::order);
        // Refused before anything is built when evaluating the chain would
        // exceed the memory cap (StateSpace::new reports the state limit).
        // The model's own copy of the obsolescence PH below (r² + 2r
        // doubles) is within the 16 r² its constructor checked.
        let count = StateSpace::count(w, m, r, max_level)?;
        if count <= super::state::MAX_STATES as u128 {
            let k = arrivals.iter().map(|b| b.max_batch()).max().unwrap_or(1);
            crate::limits::check_memory(
                super::solve::evaluation_bytes(
                    w,
                    m,
                    r,
                    max_level,
                    k,
                    &super::solve::RowPattern::of(&service, obsolescence.as_ref()),
                ),
                &format!("a threshold chain of {count} states"),
            )?;
        }
        let (ob_alpha, ob_sub, ob_exit) = match &obsolescence {
            Some(ph) => (
                ph.alpha().to_vec(),
                ph.sub_generator().clone(),
                ph.exit_rates().to_vec(),
            ),
            None => (vec![1.0], DMatrix::zeros(1, 1), vec![0.0]),
        };
        let space = StateSpace::new(w, m, r, max_level)?;
        Ok(ThresholdModel {
            arrivals,
            service,
            obsolescence,
            ob_alpha,
            ob_sub,
            ob_exit,
            buffer,
            space,
        })
    }

    /// How the service and obsolescence distributions fill generator rows
    /// (for the memory estimate of an iterative solve).
    pub fn row_pattern(&self) -> super::solve::RowPattern {
        super::solve::RowPattern::of(&self.service, self.obsolescence.as_ref())
    }

    /// The arrival process with r active robots (r ≥ 1).
    pub fn arrivals(&self, robots: usize) -> &Bmap {
        &self.arrivals[robots - 1]
    }

    /// Number of robots available (R).
    pub fn max_robots(&self) -> usize {
        self.arrivals.len()
    }

    /// The largest batch any of the arrival processes brings (K).
    pub fn max_batch(&self) -> usize {
        self.arrivals
            .iter()
            .map(|b| b.max_batch())
            .max()
            .unwrap_or(1)
    }

    /// Bytes of evaluating the chain ([`super::solve::evaluation_bytes`]);
    /// `None` on overflow.
    pub fn evaluation_bytes(&self) -> Option<u128> {
        let (w, m, r) = self.space.phases();
        let l = self.space.max_level();
        super::solve::evaluation_bytes(w, m, r, l, self.max_batch(), &self.row_pattern())
    }

    /// Service time distribution PH(β, S).
    pub fn service(&self) -> &PhaseType {
        &self.service
    }

    /// Obsolescence time distribution PH(γ, Γ) (None: never obsolete).
    pub fn obsolescence(&self) -> Option<&PhaseType> {
        self.obsolescence.as_ref()
    }

    /// γ (a single phase when pages never become obsolete).
    pub fn obsolescence_alpha(&self) -> &[f64] {
        &self.ob_alpha
    }

    /// Γ (the 1×1 zero matrix when pages never become obsolete).
    pub fn obsolescence_sub_generator(&self) -> &DMatrix<f64> {
        &self.ob_sub
    }

    /// γ₀ = −Γ1, the obsolescence rate of a waiting page in each phase.
    pub fn obsolescence_exit_rates(&self) -> &[f64] {
        &self.ob_exit
    }

    /// Buffer capacity N (waiting places).
    pub fn buffer(&self) -> usize {
        self.buffer
    }

    /// The chain's state space.
    pub fn space(&self) -> &StateSpace {
        &self.space
    }

    /// Checks that a policy only uses available robots.
    pub fn check_policy(&self, policy: &Policy) -> Result<()> {
        if let Some(&r) = policy.modes.iter().find(|&&r| r > self.max_robots()) {
            return Err(Error::invalid(format!(
                "mode with {r} robots but only {} arrival processes were given",
                self.max_robots()
            )));
        }
        Ok(())
    }

    /// Checks that `pi` has one entry per state of the chain.
    pub fn check_stationary(&self, pi: &[f64]) -> Result<()> {
        if pi.len() != self.space.len() {
            return Err(Error::invalid(format!(
                "pi has {} entries, the chain {}",
                pi.len(),
                self.space.len()
            )));
        }
        Ok(())
    }
}

/// A threshold policy (paper 002, §2): modes r₁ > r₂ > … > r_J active
/// robots and thresholds t₁ ≤ … ≤ t_{J−1}. With i pages in the system, r₁
/// robots are active while i ≤ t₁, r_j while t_{j−1} < i ≤ t_j, and r_J when
/// i > t_{J−1}. Equal thresholds skip a mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    modes: Vec<usize>,
    thresholds: Vec<usize>,
}

impl Policy {
    /// Checks r₁ > … > r_J ≥ 1 and J − 1 non-decreasing thresholds.
    pub fn new(modes: Vec<usize>, thresholds: Vec<usize>) -> Result<Self> {
        if modes.is_empty() {
            return Err(Error::invalid("a policy needs at least one mode"));
        }
        if modes.contains(&0) {
            return Err(Error::invalid("a mode must have at least one active robot"));
        }
        if modes.windows(2).any(|w| w[0] <= w[1]) {
            return Err(Error::invalid(format!(
                "modes must be strictly decreasing, got {modes:?}"
            )));
        }
        if thresholds.len() + 1 != modes.len() {
            return Err(Error::invalid(format!(
                "{} modes need {} thresholds, got {}",
                modes.len(),
                modes.len() - 1,
                thresholds.len()
            )));
        }
        if thresholds.windows(2).any(|w| w[0] > w[1]) {
            return Err(Error::invalid(format!(
                "thresholds must be non-decreasing, got {thresholds:?}"
            )));
        }
        Ok(Policy { modes, thresholds })
    }

    /// Always r robots.
    pub fn fixed(robots: usize) -> Result<Self> {
        Policy::new(vec![robots], Vec::new())
    }

    /// Modes r₁ > … > r_J.
    pub fn modes(&self) -> &[usize] {
        &self.modes
    }

    /// Thresholds t₁ ≤ … ≤ t_{J−1}.
    pub fn thresholds(&self) -> &[usize] {
        &self.thresholds
    }

    /// Number of active robots with i pages in the system.
    pub fn robots_at(&self, level: usize) -> usize {
        let j = self
            .thresholds
            .iter()
            .position(|&t| level <= t)
            .unwrap_or(self.thresholds.len());
        self.modes[j]
    }
}

/// The phase-type representation of a distribution, for the PH inputs of
/// the model: exponential, Erlang, hyperexponential and phase-type convert
/// exactly; deterministic, gamma and empirical distributions are not
/// phase-type (`InvalidArgument`: fit one with [`crate::dist::fit`]).
pub fn phase_type_of(d: &crate::dist::Distribution) -> Result<PhaseType> {
    use crate::dist::Distribution as D;
    match d {
        D::Exponential { rate } => PhaseType::exponential(*rate),
        D::Erlang { k, rate } => PhaseType::erlang(*k as usize, *rate),
        D::HyperExponential { probs, rates } => PhaseType::hyperexponential(probs, rates),
        D::PhaseType(ph) => {
            // A copy of a dense n x n matrix: checked like a new one.
            crate::dist::check_phase_type_order(ph.order(), "a copy of a phase-type")?;
            Ok(ph.clone())
        }
        other => Err(Error::invalid(format!(
            "a phase-type distribution is required, got {}",
            match other {
                D::Deterministic { .. } => "deterministic",
                D::Gamma { .. } => "gamma",
                _ => "empirical",
            }
        ))),
    }
}
