//! The C API: one file per C handle type, named after the type without
//! `crawlsched_` and `_t` (`crawlsched_mdp_solver_t` is in `mdp_solver.rs`);
//! `common` holds what they share (status codes, error struct, guard,
//! converters, handle machinery, version and status-string exports). The
//! header `include/crawlsched.h` is generated from these files by cbindgen
//! (see `build.rs`).
//!
//! Where an export lives: in the file of the handle type it produces (a
//! constructor: `crawlsched_threshold_fit_h2_new` returns a
//! `crawlsched_dist_t`, so it is in `dist.rs`), else of its first handle
//! parameter (`crawlsched_threshold_model_new(bmap, ...)` produces a threshold
//! model, `crawlsched_mdp_solver_new(mdp, ...)` a solver). An export without
//! any handle goes with its paper's model type, the handle holding that
//! paper's parameters: `crawlsched_freshness_*` in `freshness_model.rs`,
//! `crawlsched_routing_*` in `routing_servers.rs`, `crawlsched_probe_*` in
//! `probe_profile.rs`, `crawlsched_robots_*` in `robots.rs`, the process-wide
//! limits in `control.rs`. The constants of an export go with it.
//!
//! # Safety
//! Every export has the same contract, stated once in `docs/c-api.md`
//! rather than on each function (the doc comments become the C header):
//! pointers are NULL or valid for the documented length, handles are NULL
//! or live handles of the named type, and a handle is not freed while in use.

// The shared contract above replaces a per-function `# Safety` section.
#![allow(clippy::missing_safety_doc)]
// Doc comments here are written for C readers of the header (`rates[i]`),
// not as rustdoc links.
#![allow(rustdoc::broken_intra_doc_links, rustdoc::private_intra_doc_links)]

pub mod bmap;
pub mod common;
pub mod control;
pub mod dist;
pub mod estimator;
pub mod freshness_model;
pub mod mdp;
pub mod mdp_builder;
pub mod mdp_solver;
pub mod probe_planner;
pub mod probe_profile;
pub mod robots;
pub mod routing_arrivals;
pub mod routing_router;
pub mod routing_servers;
pub mod scheduler;
pub mod threshold_model;

// The former per-paper module paths, kept for Rust callers (tests, fuzz
// harness): each re-exports the files that replaced it.
pub mod freshness {
    pub use super::{estimator::*, freshness_model::*, scheduler::*};
}
pub mod limits {
    pub use super::control::*;
}
pub mod probe {
    pub use super::{probe_planner::*, probe_profile::*};
}
pub mod routing {
    pub use super::{routing_arrivals::*, routing_router::*, routing_servers::*};
}
pub mod threshold {
    pub use super::bmap::*;
    pub use super::dist::{crawlsched_threshold_fit_aph2_new, crawlsched_threshold_fit_h2_new};
    pub use super::threshold_model::*;
}
