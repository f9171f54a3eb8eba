//! Probe: when to poll one information source under a politeness limit.
//!
//! Eckstein, Gal and Reiner, *Optimal information monitoring under a
//! politeness constraint* (paper 004). Updates arrive as a non-homogeneous
//! Poisson process of intensity λ(t); an update at t waits until the next
//! probe, accruing importance a(t) meanwhile (eq. 3). Over `[0, T]` the
//! client may probe n times, p_1 ≤ … ≤ p_n = T (p_0 = 0 is free), at least
//! δ apart (problem (8)); the expected cost of an interval is
//! C̄(s, f) = ∫_s^f λ(t) ∫_t^f a (eq. 5) and costs add up (eq. 6, Lemma 3).
//!
//! - [`profile`]: piecewise-constant λ and a, prefix integrals P, A, Q,
//!   the DBWorld and MicroNet profiles (Tables 2, 3), maximum-likelihood
//!   estimation of λ from update times, sample traces.
//! - [`cost`]: the candidate grid with O(1) interval costs, expected cost
//!   of any schedule, realized cost on a trace.
//! - [`optimal`]: problem (9) exactly: the paper's O(nN²) dynamic program
//!   (Algorithm 1) as the reference, and Monge-based methods: divide and
//!   conquer, the convex hull trick (O(nN)), and Lagrangian relaxation over
//!   n (O(N) per multiplier, all budgets at once).
//! - [`improve`]: the continuous-time improver, Algorithm 10.
//! - [`baselines`]: uniform, threshold and first-arrival policies (§5.2).
//! - [`planner`]: a re-plannable planner for crawlers.

#![forbid(unsafe_code)]
// `!(x > y)` is deliberate: it also rejects NaN. Index loops mirror the
// paper's recursions (i, j, m) and touch several arrays at once.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::needless_range_loop)]

pub mod baselines;
pub mod cost;
pub mod improve;
pub mod optimal;
pub mod planner;
pub mod profile;

pub use cost::{CostTable, expected_cost, realized_cost};
pub use optimal::{Method, Problem, Schedule};
pub use profile::{PiecewiseConstant, Profile};

#[cfg(test)]
mod tests;
