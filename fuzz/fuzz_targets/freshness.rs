//! Fuzz target `freshness`: see fuzz/harness.rs (shared with tests/fuzz_regressions.rs).
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::run("freshness", data));
