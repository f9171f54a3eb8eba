//! Replays, on stable Rust, every input kept in `fuzz/regressions/<target>/`
//! through the fuzz harness (`fuzz/harness.rs`, the same code the
//! cargo-fuzz targets run), so each crash the fuzzer found stays a test.
//! Then runs a fixed set of pseudo-random inputs per target, so that the
//! harness itself is exercised by `cargo test` without a fuzzer.

#[path = "../fuzz/harness.rs"]
mod harness;

use std::path::Path;

/// Replays `fuzz/regressions/<target>/*`; returns the number of files.
fn replay(target: &str) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut files: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.is_file())
            .collect(),
        Err(_) => return 0,
    };
    files.sort();
    for f in &files {
        let data = std::fs::read(f).expect("read regression input");
        let name = f.display().to_string();
        // Name the input that fails, then let the harness's panic through.
        let r = std::panic::catch_unwind(|| harness::run(target, &data));
        if let Err(e) = r {
            eprintln!("regression input failed: {name}");
            std::panic::resume_unwind(e);
        }
    }
    files.len()
}

/// Deterministic pseudo-random inputs (xorshift64*), lengths 0..512.
fn random_inputs(target: &str, count: usize) {
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15 ^ target.len() as u64;
    let mut next = || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        s.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    for i in 0..count {
        let len = (next() % 512) as usize;
        let data: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        let t0 = std::time::Instant::now();
        let r = std::panic::catch_unwind(|| harness::run(target, &data));
        if std::env::var_os("FUZZ_SLOW").is_some() && t0.elapsed().as_millis() > 200 {
            eprintln!(
                "slow input {i} of {target}: {} ms: {data:?}",
                t0.elapsed().as_millis()
            );
        }
        if let Err(e) = r {
            eprintln!("pseudo-random input {i} of target {target} failed: {data:?}");
            std::panic::resume_unwind(e);
        }
    }
}

macro_rules! target_test {
    ($name:ident) => {
        #[test]
        fn $name() {
            let n = replay(stringify!($name));
            println!("{}: {n} regression inputs replayed", stringify!($name));
            // FUZZ_RANDOM_INPUTS=1000 FUZZ_SLOW=1 lists inputs over 200 ms.
            let count = std::env::var("FUZZ_RANDOM_INPUTS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(100);
            random_inputs(stringify!($name), count);
        }
    };
}

target_test!(dist);
target_test!(freshness);
target_test!(mdp);
target_test!(arrivals);
target_test!(probe);

#[test]
fn every_target_has_a_test_and_a_fuzz_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cargo = std::fs::read_to_string(root.join("fuzz/Cargo.toml")).expect("fuzz/Cargo.toml");
    for t in harness::TARGETS {
        assert!(
            root.join(format!("fuzz/fuzz_targets/{t}.rs")).is_file(),
            "fuzz/fuzz_targets/{t}.rs missing"
        );
        assert!(
            cargo.contains(&format!("name = \"{t}\"")),
            "fuzz/Cargo.toml lacks bin {t}"
        );
    }
    let this = std::fs::read_to_string(root.join("tests/fuzz_regressions.rs")).expect("this file");
    for t in harness::TARGETS {
        assert!(
            this.contains(&format!("target_test!({t});")),
            "no target_test!({t})"
        );
    }
}

// Crashes the fuzzer found, as plain tests of the C API.

use crawlsched::ffi::*;
use std::ptr::{null, null_mut};

fn new_err() -> crawlsched_error_t {
    crawlsched_error_t {
        status: 0,
        message: [0; CRAWLSCHED_ERROR_MESSAGE_SIZE],
    }
}

/// An Erlang service of 2^32 - 1 phases overflowed the dense phase-type
/// allocation inside crawlsched_threshold_model_new (a caught panic).
#[test]
fn threshold_model_with_huge_erlang_service_is_too_large() {
    let mut err = new_err();
    let (mut arr, mut svc, mut m) = (null_mut(), null_mut(), null_mut());
    unsafe {
        assert_eq!(
            crawlsched_bmap_poisson_new(1.0, &mut arr, &mut err),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_dist_erlang_new(u32::MAX, 1.0, &mut svc, &mut err),
            CRAWLSCHED_OK
        );
        let arrivals = [arr as *const crawlsched_bmap_t];
        let st =
            crawlsched_threshold_model_new(arrivals.as_ptr(), 1, svc, null(), 2, &mut m, &mut err);
        assert_eq!(st, CRAWLSCHED_TOO_LARGE);
        assert!(m.is_null());
        crawlsched_dist_free(svc);
        crawlsched_bmap_free(arr);
    }
}

/// crawlsched_scheduler_next_batch wrote page ids, then failed on a page
/// whose weight / (mu E[X]) overflows: outputs must be untouched on failure.
#[test]
fn scheduler_next_batch_writes_nothing_on_failure() {
    let mut err = new_err();
    let (mut d, mut s) = (null_mut(), null_mut());
    unsafe {
        assert_eq!(
            crawlsched_dist_exponential_new(1.0, &mut d, &mut err),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_scheduler_new(d, CRAWLSCHED_SCHEDULER_STRIDE, &mut s, &mut err),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_scheduler_add_page(s, 1, 1.0, &mut err),
            CRAWLSCHED_OK
        );
        let mut out = [u64::MAX; 8];
        assert_eq!(
            crawlsched_scheduler_next_batch(s, out.as_mut_ptr(), 8, &mut err),
            CRAWLSCHED_OK
        );
        assert!(out.iter().all(|&id| id == 1));
        // Accepted, but unusable once the plan is recomputed.
        let st = crawlsched_scheduler_add_weighted_page(s, 2, 1e-300, 1e308, &mut err);
        let mut out = [u64::MAX; 8];
        let st2 = crawlsched_scheduler_next_batch(s, out.as_mut_ptr(), 8, &mut err);
        if st == CRAWLSCHED_OK && st2 != CRAWLSCHED_OK {
            assert!(
                out.iter().all(|&id| id == u64::MAX),
                "written on failure: {out:?}"
            );
        }
        crawlsched_scheduler_free(s);
        crawlsched_dist_free(d);
    }
}

type SequenceFn = unsafe extern "C" fn(
    *const u64,
    usize,
    *mut u32,
    usize,
    *mut usize,
    *mut crawlsched_error_t,
) -> crawlsched_status_t;

/// The size query (out_cap 0) for a cycle of 2^27 accesses built the whole
/// golden-ratio or round-robin sequence first (seconds and a gigabyte) to
/// report its length; now the length comes first. Invalid counts are
/// still reported before the buffer.
#[test]
fn sequence_size_query_does_not_build_the_sequence() {
    let cases: [(&str, SequenceFn); 2] = [
        ("golden_ratio", crawlsched_freshness_golden_ratio_sequence),
        ("round_robin", crawlsched_freshness_round_robin_sequence),
    ];
    for (name, f) in cases {
        let call = |counts: &[u64], out: &mut [u32]| {
            let (mut err, mut len) = (new_err(), usize::MAX);
            let p = if out.is_empty() {
                null_mut()
            } else {
                out.as_mut_ptr()
            };
            let st = unsafe {
                f(
                    counts.as_ptr(),
                    counts.len(),
                    p,
                    out.len(),
                    &mut len,
                    &mut err,
                )
            };
            (st, len)
        };
        assert_eq!(
            call(&[1 << 26, 1 << 26], &mut []),
            (CRAWLSCHED_BUFFER_TOO_SMALL, 1 << 27),
            "{name}"
        );
        assert_eq!(
            call(&[3, 1], &mut [0; 2]),
            (CRAWLSCHED_BUFFER_TOO_SMALL, 4),
            "{name}"
        );
        assert_eq!(
            call(&[0, 0], &mut []),
            (CRAWLSCHED_INVALID_ARGUMENT, usize::MAX),
            "{name}"
        );
        assert_eq!(
            call(&[1 << 27, 1], &mut []),
            (CRAWLSCHED_TOO_LARGE, usize::MAX),
            "{name}"
        );
        let mut out = [u32::MAX; 5];
        assert_eq!(call(&[3, 1], &mut out), (CRAWLSCHED_OK, 4), "{name}");
        assert_eq!(
            out.iter().filter(|&&p| p == 0).count(),
            3,
            "{name}: {out:?}"
        );
        assert_eq!(out[4], u32::MAX, "{name}: wrote past out_len");
    }
}
