//! The process-wide memory cap: big models of every module are refused with
//! `TooLarge` (naming the size and the bytes) before they allocate. One
//! test function, in its own process, because the cap is process-wide.

use crawlsched::Error;
use crawlsched::dist::{Bmap, PhaseType};
use crawlsched::limits::{default_memory_limit, set_default_memory_limit};
use crawlsched::mdp::MdpBuilder;
use crawlsched::probe::planner::Planner;
use crawlsched::probe::{PiecewiseConstant, Profile};
use crawlsched::robots::{Params, solve};
use crawlsched::threshold::ThresholdModel;

/// Peak resident set size of this process in KiB (Linux; 0 elsewhere).
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn too_large<T: std::fmt::Debug>(r: Result<T, Error>, needles: &[&str]) {
    match r {
        Err(Error::TooLarge(m)) => {
            for n in needles {
                assert!(m.contains(n), "message lacks {n:?}: {m}");
            }
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

#[test]
fn big_models_are_refused_before_allocating() {
    if cfg!(target_os = "linux") {
        // The initial default is the machine's memory.
        assert!(default_memory_limit().is_some_and(|b| b > 1 << 24));
    }
    set_default_memory_limit(Some(64 << 20));
    assert_eq!(default_memory_limit(), Some(64 << 20));
    let before = peak_rss_kib();

    // A 10^7-state threshold chain (W = M = R = 1, buffer 10^7 - 2):
    // 352 bytes per state plus a band of 3 entries per level, ~3.5 GiB.
    let exp = |r| PhaseType::exponential(r).unwrap();
    let r = ThresholdModel::new(
        vec![Bmap::poisson(1.0).unwrap()],
        exp(2.0),
        Some(exp(0.5)),
        9_999_998,
    );
    too_large(
        r,
        &[
            "10000000 states",
            "3759999984 bytes",
            "memory limit ~64.0 MiB (67108864 bytes)",
        ],
    );

    // An MDP builder for 4e9 states: 44 bytes per state at least.
    too_large(
        MdpBuilder::new(4_000_000_000),
        &["4000000000 states", "176000000000 bytes"],
    );

    // A periodic profile with a one-minute period over ten years (5.3e6
    // pieces each for intensity and importance).
    let minute =
        PiecewiseConstant::new(&[0.0, 0.5 / 1440.0, 1.0 / 1440.0], &[1.0, 2.0], true).unwrap();
    let r = Profile::new(minute.clone(), minute, 3650.0);
    too_large(r, &["pieces", "bytes"]);

    // A candidate grid of 10^7 points: 41 bytes per point.
    let week = Profile::dbworld(2.0, 7.0).unwrap();
    too_large(
        Planner::new(week.clone(), 10_000_000, 0.0, None),
        &["10000000 points", "410000041 bytes"],
    );

    // The robots MDP with N = 1000, K = 10^4: 3e7 state slots.
    too_large(
        solve(&Params::new(1000, 10_000, 0.001, 1.0, 1.0).unwrap()),
        &["30033003 state slots", "bytes"],
    );

    // Nothing above was allocated: the peak RSS grew by far less than any
    // of those models (each needs more than the 64 MiB cap).
    let grown = peak_rss_kib().saturating_sub(before);
    assert!(grown < 32 * 1024, "peak RSS grew by {grown} KiB");

    // Small models still work under the cap, and without it.
    assert!(Planner::new(week, 168, 0.0, None).is_ok());
    set_default_memory_limit(None);
    assert_eq!(default_memory_limit(), None);
    assert!(MdpBuilder::new(1000).is_ok());
}
