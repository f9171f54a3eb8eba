//! The error type shared by every model module.
//!
//! Each variant maps to exactly one C status code (see `ffi::common`), so a
//! Rust caller and a C caller learn the same thing about a failure.

/// Why a computation was refused or did not produce a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// An argument is outside its domain (NaN, negative rate, empty set, ...).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// The constraints admit no solution.
    #[error("infeasible: {0}")]
    Infeasible(String),
    /// An iterative method stopped before reaching its tolerance.
    #[error("not converged: {0}")]
    NotConverged(String),
    /// The problem would need more memory or time than allowed.
    #[error("too large: {0}")]
    TooLarge(String),
    /// A key (page id, ...) is not present.
    #[error("not found: {0}")]
    NotFound(String),
    /// The caller asked the computation to stop.
    #[error("cancelled: {0}")]
    Cancelled(String),
    /// The result is not representable (overflow to infinity or NaN).
    #[error("numerical failure: {0}")]
    Numerical(String),
}

/// Shorthand used throughout the crate.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub(crate) fn invalid(msg: impl Into<String>) -> Self {
        Error::InvalidArgument(msg.into())
    }
}
