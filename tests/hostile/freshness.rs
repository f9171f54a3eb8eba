//! Hostile calls: freshness.

#[allow(unused_imports)]
use super::support::*;
