//! Hostile calls: threshold.

#[allow(unused_imports)]
use super::support::*;
