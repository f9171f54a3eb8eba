//! Hostile calls: mdp.

#[allow(unused_imports)]
use super::support::*;
