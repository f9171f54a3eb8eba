//! Hostile calls: messages.

#[allow(unused_imports)]
use super::support::*;
