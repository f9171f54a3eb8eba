//! crawlsched: the scheduling mathematics of five research papers on web
//! crawling, as a Rust library and a C ABI.
//!
//! The model modules are plain, safe Rust; the C API lives in [`ffi`] and
//! only converts, checks and forwards.

pub mod dist;
pub mod error;
pub mod freshness;
pub mod validate;

pub use error::{Error, Result};

pub mod ffi;
