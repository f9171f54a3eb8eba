//! Tests of the freshness module, one file per submodule.

mod cyclic;
mod estimator;
mod estimator_state;
mod frequencies;
mod model;
mod polite;
mod proportional;
mod randomized;
mod scheduler;
mod scheduler_due;
mod scheduler_hosts;
mod shard;
mod simulate;

/// Small general-weights instances for brute-force checks: three crawl-time
/// laws, and a KKT corner where page 2 is worth little per unit of
/// frequency. Each is (X, change rates, weights).
fn small_general_cases() -> Vec<(crate::dist::Distribution, Vec<f64>, Vec<f64>)> {
    use crate::dist::Distribution;
    vec![
        (
            Distribution::exponential(1.0).unwrap(),
            vec![0.3, 2.0],
            vec![1.0, 0.7],
        ),
        (
            Distribution::deterministic(1.0).unwrap(),
            vec![0.2, 1.0, 5.0],
            vec![3.0, 1.0, 0.5],
        ),
        (
            Distribution::gamma(0.5, 0.5).unwrap(),
            vec![0.05, 0.5, 1.5],
            vec![0.2, 2.0, 0.4],
        ),
        (
            Distribution::exponential(1.0).unwrap(),
            vec![1.0, 1.0, 1.0],
            vec![1.0, 1.0, 0.02],
        ),
    ]
}
mod transforms;

/// `solve()` on one thread and on four: the same bits (chunk results are
/// combined in a fixed order); returns the one-thread plan.
fn same_plan_on_one_and_four_threads(solve: impl Fn() -> Vec<f64>) -> Vec<f64> {
    use crate::freshness::par::FORCE_THREADS;
    use std::sync::atomic::Ordering;
    FORCE_THREADS.store(1, Ordering::Relaxed);
    let one = solve();
    FORCE_THREADS.store(4, Ordering::Relaxed);
    let four = solve();
    FORCE_THREADS.store(0, Ordering::Relaxed);
    assert!(same_bits(&one, &four));
    one
}

/// `solve()` at the widest vectors the CPU has, and capped at each
/// narrower [`crate::simd::Width`] (`simd::MAX_WIDTH`): the same bits;
/// returns the first plan.
fn same_plan_at_every_width(solve: impl Fn() -> Vec<f64>) -> Vec<f64> {
    use crate::simd::{MAX_WIDTH, Width};
    use std::sync::atomic::Ordering;
    let widest = solve();
    for cap in [Width::Avx2, Width::Baseline] {
        MAX_WIDTH.store(cap as u8, Ordering::Relaxed);
        let capped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(&solve));
        MAX_WIDTH.store(Width::Avx512 as u8, Ordering::Relaxed);
        let capped = capped.unwrap_or_else(|e| std::panic::resume_unwind(e));
        assert!(same_bits(&widest, &capped), "{cap:?}");
    }
    widest
}

/// `a` and `b` hold the same doubles, bit for bit.
fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}
