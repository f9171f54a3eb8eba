//! Hostile calls: dist.

#[allow(unused_imports)]
use super::support::*;
