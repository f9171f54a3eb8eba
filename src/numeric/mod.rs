//! General numerics shared by the paper modules: special functions, scalar
//! root finding, a driver for iterative solvers, Markov-chain stationary
//! distributions and matrix exponentials. Nothing here knows about a paper's model.

#![forbid(unsafe_code)]

pub(crate) mod exact;
pub(crate) mod fastlog;
pub(crate) mod iterate;
pub(crate) mod markov;
pub(crate) mod matrix;
pub(crate) mod roots;
pub(crate) mod series;
pub(crate) mod special;
#[cfg(test)]
pub(crate) mod tolerance;
