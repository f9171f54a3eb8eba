//! Hostile calls: probe.

#[allow(unused_imports)]
use super::support::*;
