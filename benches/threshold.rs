//! Threshold chain (paper 002): time of the stationary solve chosen by
//! `stationary` (banded level reduction; ILU(0)-BiCGSTAB when a level has
//! more than 512 states, i.e. R ≥ 2 with long buffers) at growing sizes,
//! on the model family of bench/threshold/model.rs.
//!
//! `cargo bench --bench threshold` times sizes up to 10⁶ states (R = 1)
//! and 1.3·10⁵ states (R = 2); about 3 minutes. The
//! comparison with SciPy's spsolve and the largest model in 60 s are
//! measured by bench/threshold/run.sh (writes bench/results/threshold.json).

#[path = "../bench/threshold/model.rs"]
mod model;

use crawlsched::threshold::generator::generator;
use crawlsched::threshold::solve::stationary;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    // `cargo bench` passes --bench; `cargo test --all-targets` runs this
    // binary once per function in debug as a smoke test: only the smallest
    // size there, nothing written.
    let full = std::env::args().any(|a| a == "--bench");
    // (W, k, R, buffer): R = 1 chains grow in levels, R = 2 in level size.
    let sizes: &[(usize, usize, usize, usize)] = if full {
        &[
            (10, 5, 1, 400),
            (10, 5, 1, 5_000),
            (10, 5, 1, 50_000),
            (4, 3, 2, 6),
            (4, 3, 2, 8),
            (4, 3, 2, 10),
            (4, 3, 2, 14),
        ]
    } else {
        // One block-solved and one iteratively solved chain.
        &[(10, 5, 1, 40), (4, 3, 2, 4), (4, 3, 2, 8)]
    };
    let mut g = c.benchmark_group("threshold_stationary");
    g.sample_size(10);
    for &(w, k, r, buffer) in sizes {
        let (m, policy) = model::bench_model(w, k, r, buffer).expect("model");
        let q = generator(&m, &policy).expect("generator");
        let name = format!("W={w} k={k} R={r} N={buffer} ({} states)", q.rows());
        g.bench_function(name, |b| {
            b.iter(|| black_box(stationary(m.space(), &q).expect("solve")))
        });
    }
    g.finish();
}

criterion_group!(threshold, benches);
criterion_main!(threshold);
