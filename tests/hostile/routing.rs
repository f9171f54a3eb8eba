//! Hostile calls: routing.

#[allow(unused_imports)]
use super::support::*;
