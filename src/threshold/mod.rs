//! Threshold control of crawler robots with obsolescence of documents:
//! Avrachenkov, Dudin, Klimenok, Nain, Semenova (paper 002).
//!
//! Pages arrive in batches from the active robots (a BMAP whose matrices
//! depend on the number r of active robots), wait in a finite buffer of N
//! places and are served one at a time (PH service) by the indexing engine.
//! Each waiting page becomes obsolete after a PH time and leaves; the page
//! in service cannot. The number of active robots follows a threshold
//! policy on the number of pages in the system ([`Policy`]).
//!
//! The paper's generator blocks, cost formula and example inputs were lost
//! in the text; the chain is rebuilt here from the model description and
//! validated on closed forms (M/M/1/K, M/M/1/K+M, Talim et al.'s static
//! cost) and against an independent discrete-event simulation
//! ([`simulate()`]). Modeling decisions, each stated where it is made:
//! - State (§3): level i = pages in the system, 0..=N+1; the arrival phase;
//!   for i ≥ 1 the service phase; the obsolescence phase of each of the
//!   i − 1 waiting pages in arrival order ([`state::StateSpace`]).
//! - Policy (§2, as the tables read): modes r₁ > … > r_J and thresholds
//!   t₁ ≤ … ≤ t_{J−1}; r₁ robots while i ≤ t₁, …, r_J when i > t_{J−1}.
//!   Equal thresholds skip a mode.
//! - The arrival phase is kept when the mode changes; how r robots' process
//!   derives from one robot's is one of the paper's four interpretations
//!   ([`crate::dist::compose`]).
//! - Partial admission; batch pages get i.i.d. obsolescence phases.
//! - Cost (eq. 2): one weight per measure ([`CostWeights`]).
//!
//! Solution: sparse generator ([`generator::generator`]), stationary vector
//! by [`solve::stationary`], which picks the method by the chain's shape:
//! banded level reduction ([`solve::block_solve`], exact) while every
//! level has at most 512 states — with one-phase obsolescence the chain
//! grows only in levels and 10⁶ states solve in seconds — and otherwise
//! (R ≥ 2: the top level has W·M·R^{L−1} states and any direct method is
//! cubic in it) ILU(0)-preconditioned BiCGSTAB ([`iterative`]), O(nnz)
//! per iteration, accepted only with a residual certificate
//! max|πQ|/max|q_ii| ≤ 10⁻¹². Cross-checks: sparse LU
//! ([`solve::sparse_solve`]) and dense LU ([`solve::dense_solve`]).
//! Response time: mean by Little's law in [`Measures`]; its distribution
//! and the means conditional on service or obsolescence from the absorbing
//! chain of a tagged page ([`response`]). Scale: benches/threshold.rs,
//! bench/threshold/.

#![forbid(unsafe_code)]

pub mod generator;
pub mod iterative;
pub mod measures;
pub mod model;
pub mod optimize;
pub mod response;
pub mod simulate;
pub mod solve;
pub mod state;

pub use measures::{CostWeights, Measures, evaluate, evaluate_with};
pub use model::{Policy, ThresholdModel, phase_type_of};
pub use optimize::{Optimum, optimize, optimize_with, search_space_size};
pub use response::{ResponseTime, Sojourn, response_time, sojourn, sojourn_with};
pub use simulate::{Estimate, SimMeasures, simulate, simulate_sojourns, simulate_sojourns_with};
pub use state::{State, StateSpace};

#[cfg(test)]
mod tests;
