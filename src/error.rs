//! The error type shared by every model module.
//!
//! Each variant maps to exactly one C status code (see `ffi::common`), so a
//! Rust caller and a C caller learn the same thing about a failure.

#![forbid(unsafe_code)]

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

/// A double as messages show it: the shortest text that reads back to the
/// same value, in exponent form outside [1e-5, 1e16) so that 1e300 or a
/// subnormal takes a few characters, not hundreds (C messages hold 255
/// bytes). `format!("{}", Num(x))`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Num(pub f64);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let x = self.0;
        let a = x.abs();
        if !x.is_finite() || a == 0.0 || (1e-5..1e16).contains(&a) {
            write!(f, "{x}")
        } else {
            write!(f, "{x:e}")
        }
    }
}

#[cfg(test)]
mod num_tests {
    use super::Num;

    #[test]
    fn num_is_short_and_round_trips() {
        for (x, s) in [
            (1.5, "1.5"),
            (-1.0, "-1"),
            (0.0, "0"),
            (1e300, "1e300"),
            (f64::MAX, "1.7976931348623157e308"),
            (4.94e-324, "5e-324"),
            (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
            (1e-7, "1e-7"),
            (123456.25, "123456.25"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(Num(x).to_string(), s);
            if x.is_finite() {
                assert_eq!(s.parse::<f64>().unwrap(), x);
            }
        }
    }
}
