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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions").join(target);
    let mut files: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd.map(|e| e.expect("dir entry").path()).filter(|p| p.is_file()).collect(),
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
            eprintln!("slow input {i} of {target}: {} ms: {data:?}", t0.elapsed().as_millis());
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
            random_inputs(stringify!($name), 1000);
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
        assert!(root.join(format!("fuzz/fuzz_targets/{t}.rs")).is_file(), "fuzz/fuzz_targets/{t}.rs missing");
        assert!(cargo.contains(&format!("name = \"{t}\"")), "fuzz/Cargo.toml lacks bin {t}");
    }
    let this = std::fs::read_to_string(root.join("tests/fuzz_regressions.rs")).expect("this file");
    for t in harness::TARGETS {
        assert!(this.contains(&format!("target_test!({t});")), "no target_test!({t})");
    }
}
