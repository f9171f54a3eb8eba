//! Hostile calls through the C API, one file per area: the reproducers of
//! the boundary issue (each a regression test) and, per class of defect, a
//! search beyond them (sweeps over extreme values and sizes).
//!
//! Every test here starts with `let _g = support::serial();`: the process-wide
//! allocation counter in `support` measures one call at a time.

mod support;

mod dist;
mod freshness;
mod hosts;
mod mdp;
mod messages;
mod probe;
mod routing;
mod threshold;
