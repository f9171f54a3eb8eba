//! Robots: how many crawler robots to keep active, as a Markov decision
//! process (Talim, Liu, Nain, Coffman, *Controlling the robots of Web search
//! engines*, Sigmetrics 2001 — paper 001).
//!
//! N robots each bring pages at rate λ while active into an indexing buffer
//! of K pages served at rate μ. At every arrival the arriving robot may be
//! kept or de-activated, at every departure one more robot may be
//! activated. The cost weighs the starvation probability S (empty buffer)
//! against the loss rate L: W = γ·S + L (§3).
//!
//! Model (§2, with the errata of `papers/README.md`, since the text's
//! transition equations (2)–(3) are garbled): uniformised at ν = λN + μ,
//! state x = (q, r, s) before the decision at an event of type s (0
//! departure, 1 arrival, 2 fictitious); action a ∈ A_x gives the
//! post-decision pair (q − 1, min(r + a, N)) at a departure,
//! (min(q + 1, K), r − 1 + a) at an arrival, (q, r) at a fictitious event;
//! then the next event is a departure w.p. μ·1(q' > 0)/ν, an arrival w.p.
//! λr'/ν, fictitious otherwise. A_x = {0} at fictitious events, {1} at
//! (1, 0, 0), {0, 1} otherwise; states (0, r, 0), (q, 0, 1), (0, 0, 2) are
//! excluded. The cost c(x) = γ·1(q = 0) + ν·1(q = K, s = 1) (eq. 1) is
//! averaged per event, which is γ·S + L per unit time.
//!
//! - [`model`]: the state space and the MDP ([`RobotsMdp`]).
//! - [`dynamic`]: the exact optimum ([`solve`], solved by policy iteration
//!   in [`crate::mdp`]; the paper's relative value iteration is available
//!   through [`solve_with`]), the switching curve f_s(r), C_d, N_min, N̄,
//!   N_max, the stationary distribution, exact evaluation of any policy
//!   ([`evaluate`]) and the unlimited-N optimum of Table 2
//!   ([`solve_unlimited`]).
//! - [`static_policy`]: the static cost C_s of eq. (9) and N_s of
//!   Proposition 3.

#![forbid(unsafe_code)]

pub mod dynamic;
pub mod model;
pub mod static_policy;

pub use dynamic::{
    DynamicSolution, Performance, Policy, evaluate, evaluate_with, solve, solve_unlimited,
    solve_unlimited_with, solve_with,
};
pub use model::{Params, RobotsMdp};
pub use static_policy::{optimal_static, static_cost};

#[cfg(test)]
mod tests;
