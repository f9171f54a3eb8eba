//! The C API: one file per C handle type, named after the type without
//! `crawlsched_` and `_t` (`crawlsched_mdp_solver_t` is in `mdp_solver.rs`);
//! `common` holds what they share (status codes, error struct, guard,
//! converters, handle machinery, helpers for repeated export shapes such as
//! `write_value` and `publish_from`, version and status-string exports).
//! The header `include/crawlsched.h` is generated from these files by
//! cbindgen (see `build.rs`). Rust callers see the C namespace flat: every
//! C item is re-exported here (`use crawlsched::ffi::*`), whatever file
//! holds it.
//!
//! Where an export lives: in the file of the handle type it produces (a
//! constructor: `crawlsched_bmap_fit_new` returns a `crawlsched_bmap_t`,
//! so it is in `bmap.rs`), else of its first handle
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
pub mod freshness_multiplier_search;
pub mod freshness_shard;
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

// C has one flat namespace (every item is `crawlsched_`-prefixed), and so
// has this module for Rust callers (tests, fuzz harness): `use
// crawlsched::ffi::*` names every export, handle type and constant.
pub use bmap::*;
pub use common::*;
pub use control::*;
pub use dist::*;
pub use estimator::*;
pub use freshness_model::*;
pub use freshness_multiplier_search::*;
pub use freshness_shard::*;
pub use mdp::*;
pub use mdp_builder::*;
pub use mdp_solver::*;
pub use probe_planner::*;
pub use probe_profile::*;
pub use robots::*;
pub use routing_arrivals::*;
pub use routing_router::*;
pub use routing_servers::*;
pub use scheduler::*;
pub use threshold_model::*;
