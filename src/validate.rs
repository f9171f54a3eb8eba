//! Argument checks shared by the model modules, so that every entry point
//! (Rust or C) rejects NaN, infinities and out-of-domain values the same way
//! and with the same message.

#![forbid(unsafe_code)]

use crate::error::{Error, Num, Result};

/// `x` must be finite and strictly positive.
pub fn positive(name: &str, x: f64) -> Result<f64> {
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(Error::invalid(format!(
            "{name} must be finite and > 0, got {}",
            Num(x)
        )))
    }
}

/// `x` must be finite and non-negative.
pub fn non_negative(name: &str, x: f64) -> Result<f64> {
    if x.is_finite() && x >= 0.0 {
        Ok(x)
    } else {
        Err(Error::invalid(format!(
            "{name} must be finite and >= 0, got {}",
            Num(x)
        )))
    }
}

/// `x` must be finite.
pub fn finite(name: &str, x: f64) -> Result<f64> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(Error::invalid(format!(
            "{name} must be finite, got {}",
            Num(x)
        )))
    }
}

/// A slice must not be empty.
pub fn non_empty<T>(name: &str, xs: &[T]) -> Result<()> {
    if xs.is_empty() {
        Err(Error::invalid(format!("{name} must not be empty")))
    } else {
        Ok(())
    }
}

/// Every element must be finite and strictly positive.
pub fn all_positive(name: &str, xs: &[f64]) -> Result<()> {
    for (i, &x) in xs.iter().enumerate() {
        if !(x.is_finite() && x > 0.0) {
            return Err(Error::invalid(format!(
                "{name}[{i}] must be finite and > 0, got {}",
                Num(x)
            )));
        }
    }
    Ok(())
}

/// Every element must be finite and non-negative.
pub fn all_non_negative(name: &str, xs: &[f64]) -> Result<()> {
    for (i, &x) in xs.iter().enumerate() {
        if !(x.is_finite() && x >= 0.0) {
            return Err(Error::invalid(format!(
                "{name}[{i}] must be finite and >= 0, got {}",
                Num(x)
            )));
        }
    }
    Ok(())
}

/// Two slices that describe the same items must have the same length.
pub fn same_len(a_name: &str, a: usize, b_name: &str, b: usize) -> Result<()> {
    if a == b {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "{a_name} has {a} elements but {b_name} has {b}"
        )))
    }
}

/// Non-negative weights that sum to one within `1e-9` (relative to length).
pub fn probability_vector(name: &str, p: &[f64]) -> Result<()> {
    all_non_negative(name, p)?;
    let s: f64 = p.iter().sum();
    if (s - 1.0).abs() > 1e-9 * (p.len().max(1) as f64) {
        return Err(Error::invalid(format!(
            "{name} must sum to 1, sums to {}",
            Num(s)
        )));
    }
    Ok(())
}
