//! Finite Markov decision processes in sparse form, and their solvers.
//!
//! The general machinery behind [`crate::robots`] (Talim, Liu, Nain,
//! Coffman, *Controlling the robots of Web search engines*, §2–3), usable on
//! its own: states `0..n`, per-state action sets, one sparse transition row
//! and one cost per (state, action), stored in flat arrays so that memory is
//! linear in the number of transitions ([`Mdp`], built with [`MdpBuilder`]).
//!
//! - [`solve`]: average-cost (the paper's eq. 5) or discounted criterion, by
//!   relative value iteration (the paper's Proposition 2, with its
//!   aperiodicity parameter τ and its relative-change stopping rule as an
//!   option), value iteration with span-seminorm stopping, Gauss–Seidel, or
//!   policy iteration with exact evaluation (and a Gauss–Seidel lookahead
//!   that cuts its steps on large models). Every [`Solution`] carries a
//!   certificate: for any values h, min(T h − h) ≤ g* ≤ max(T h − h)
//!   (Puterman 1994, Theorem 8.5.5), computed by a final sweep.
//! - [`chain`]: the chain of a fixed policy — its recurrent classes (the
//!   unichain check: a policy with several has no single gain, as the
//!   paper's §3 example shows) and its exact evaluation (gain, bias,
//!   stationary distribution) by one sparse LU factorisation (faer). States
//!   whose chosen actions share a transition row (post-decision states, as
//!   in the robots model) are evaluated through the smaller chain on those
//!   rows, which cuts the factorisation several-fold.
//!
//! Minimisation throughout. Iteration limits do not raise errors: the
//! solution comes back with `converged == false` and its certificate, and
//! [`Solution::into_result`] turns that into `Error::NotConverged`.

#![forbid(unsafe_code)]

pub mod chain;
pub mod model;
pub mod solve;

pub(crate) use chain::evaluate_average_in;
pub use chain::{
    PolicyEvaluation, Reduction, evaluate_average, evaluate_average_with, evaluate_discounted,
    evaluate_discounted_with, recurrent_classes,
};
pub use model::{MAX_STATES, Mdp, MdpBuilder, ROW_SUM_TOLERANCE, model_bytes};
pub use solve::{Criterion, Method, Options, Solution, Stopping, solve, working_bytes};

#[cfg(test)]
mod tests;
