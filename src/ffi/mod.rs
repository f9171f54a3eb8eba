//! The C API. Each file converts, checks and forwards to one model module;
//! `common` holds what they share. The header `include/crawlsched.h` is
//! generated from these files by cbindgen (see `build.rs`).

pub mod common;
pub mod dist;
pub mod freshness;
