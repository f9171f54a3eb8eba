//! The C API. Each file converts, checks and forwards to one model module;
//! `common` holds what they share. The header `include/crawlsched.h` is
//! generated from these files by cbindgen (see `build.rs`).
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

pub mod common;
pub mod dist;
pub mod freshness;
pub mod limits;
pub mod mdp;
pub mod probe;
pub mod robots;
pub mod routing;
pub mod threshold;
