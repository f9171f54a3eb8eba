//! Routing: open-loop assignment of requests (packets, crawl requests,
//! robot visits) to M parallel servers with no buffers.
//!
//! Altman, Bhulai, Gaujal and Hordijk, *Open-loop routeing to M parallel
//! servers with no buffers* (paper 003). The controller knows only its own
//! past decisions: the state x_m is the number of arrivals since a packet
//! was last routed to server m (§2), routing to server a costs
//! c(x, a) = f_a(x_a), and a periodic policy is optimal (Theorem 3.1).
//!
//! - [`arrivals`]: Poisson, MMPP and MAP arrivals (§5) and the transforms
//!   f_m(k) = q [f*(μ_m)]^k e of Lemma 5.2.
//! - [`system`]: servers (rates μ_m, weights c_m) and the objective:
//!   weighted losses (§5), robot scheduling (§6, Remark 6.1) or a custom
//!   cost; [`system::CostTable`] caches f_m(1..=k).
//! - [`cost`]: the exact cost g(π) of a periodic sequence, eq. (6).
//! - [`search`]: exhaustive search up to rotation, local search with the
//!   neighbourhood of Theorem 4.2, balanced (billiard) start sequences.
//! - [`two_server`]: g(n, μ₂) and the switch points of Figure 1.
//! - [`simulate`]: Monte Carlo of the system, to validate the exact costs.
//! - [`router`]: a streaming router repeating a period.

#![forbid(unsafe_code)]

pub mod arrivals;
pub mod cost;
pub mod router;
pub mod search;
pub mod simulate;
pub mod system;
pub mod two_server;

pub use arrivals::ArrivalProcess;
pub use cost::{Evaluation, evaluate};
pub use router::Router;
pub use search::{Neighbourhood, SearchResult};
pub use system::{CostTable, Objective, RoutingSystem};

#[cfg(test)]
mod tests;
