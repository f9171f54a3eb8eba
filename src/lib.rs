//! crawlsched: the scheduling mathematics of five research papers on web
//! crawling, as a Rust library and a C ABI.
//!
//! # Layering
//!
//! - The model modules ([`dist`], [`freshness`], [`mdp`], [`probe`],
//!   [`robots`], [`routing`], [`threshold`]) and their shared support
//!   ([`error`], [`limits`], [`validate`], and the crate-private `numeric`)
//!   are plain safe Rust: each carries `#![forbid(unsafe_code)]`. Every
//!   model type validates its own inputs in its constructor or method, so a
//!   Rust caller is refused exactly as a C caller is, with the same message.
//! - `pages` (large zeroed arrays on transparent huge pages: one
//!   `madvise` call) and `simd` (hot loops compiled for AVX2 and called
//!   where the CPU has it, and one written in AVX intrinsics; the same
//!   bits either way) are the only other modules with `unsafe`.
//! - [`ffi`] is the C API, the main module with `unsafe`: it converts C
//!   values (pointers, lengths, C enum values, handles) into Rust ones,
//!   forwards to a model's public function and converts the result back. It
//!   checks nothing about a value's domain.
//!
//! # Example: how often to recrawl each page
//!
//! ```
//! use crawlsched::dist::Distribution;
//! use crawlsched::freshness::{Model, cyclic, frequencies};
//!
//! // A crawl takes exactly 1 s; three pages change 0.1, 0.2 and 0.4 times per second.
//! let model = Model::new(Distribution::deterministic(1.0)?, &[0.1, 0.2, 0.4], None)?;
//! let f = frequencies::optimal_frequencies(&model)?;
//! // With a constant crawl time the optimum is proportional to the change rates (§3).
//! assert!((f[2] - 0.4 / 0.7).abs() < 1e-12);
//! // A cycle of 7 crawls realises it (counts 1, 2, 4). Its exact cost is
//! // 2.7% above the bound of Theorem 3.4, which assumes perfectly even
//! // gaps: page 2 needs a gap of 1.75 crawls and gets gaps of 1 and 2.
//! let seq = cyclic::round_robin_sequence(&cyclic::integer_counts(&f, 7)?)?;
//! let (cost, bound) = (cyclic::cost(&model, &seq)?, frequencies::lower_bound(&model)?);
//! assert!((cost / bound - 1.02684).abs() < 1e-5);
//! # Ok::<(), crawlsched::Error>(())
//! ```

pub mod dist;
pub mod error;
pub mod freshness;
pub mod limits;
pub mod mdp;
pub(crate) mod numeric;
pub(crate) mod pages;
pub mod probe;
pub mod robots;
pub mod routing;
pub(crate) mod simd;
pub mod threshold;
pub mod validate;

pub use error::{Error, Result};

pub mod ffi;
