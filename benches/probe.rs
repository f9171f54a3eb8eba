//! Speed of the probe planners (paper 004): the paper's O(nN²) dynamic
//! program against the Monge-based methods, at sizes where the DP still
//! finishes (same run), then N = 10⁶ candidates with n = 10³ probes and all
//! budgets n = 1..N/10 for N = 10⁵ via the Lagrangian.
//!
//! `cargo bench --bench probe` also writes the measured ratios to
//! bench/results/probe.json.

use crawlsched::probe::{CostTable, Method, Problem, Profile};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;

/// DBWorld (ratio 3) over `weeks` weeks on `n_grid` candidates.
fn problem(weeks: f64, n_grid: usize) -> Problem {
    let p = Profile::dbworld(3.0, 7.0 * weeks).expect("profile");
    Problem::new(CostTable::uniform(&p, n_grid).expect("grid"), 0.0, None).expect("problem")
}

fn time<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let t0 = Instant::now();
    let r = f();
    (t0.elapsed().as_secs_f64(), r)
}

/// One timed run per method and size; the ratios go to bench/results.
fn ratios() {
    let mut rows = Vec::new();
    for (n_grid, n) in [
        (672usize, 56usize),
        (2_000, 100),
        (5_000, 200),
        (10_000, 300),
    ] {
        let pb = problem(4.0, n_grid);
        let (t_ref, s_ref) = time(|| pb.solve(n, Method::Reference).expect("dp"));
        let mut row = format!("{{\"N\": {n_grid}, \"n\": {n}, \"reference_dp_s\": {t_ref:.6}");
        for (name, m) in [
            ("divide_conquer", Method::DivideConquer),
            ("hull", Method::Hull),
            ("lagrangian", Method::Lagrangian),
        ] {
            let (t, s) = time(|| pb.solve(n, m).expect("fast"));
            assert!(
                (s.cost - s_ref.cost).abs() <= 1e-9 * s_ref.cost,
                "{name} differs from the DP"
            );
            row += &format!(
                ", \"{name}_s\": {t:.6}, \"{name}_speedup\": {:.1}",
                t_ref / t
            );
            eprintln!(
                "N={n_grid} n={n}: DP {t_ref:.3}s, {name} {t:.5}s, ratio {:.0}x",
                t_ref / t
            );
        }
        rows.push(row + "}");
    }
    let big = problem(52.0, 1_000_000);
    let (t_big, s_big) = time(|| big.optimal(1_000).expect("big"));
    eprintln!(
        "N=1e6 n=1e3 Lagrangian: {t_big:.3}s (cost {:.4})",
        s_big.cost
    );
    let mid = problem(52.0, 100_000);
    let (t_all, g) = time(|| mid.all_costs(10_000).expect("all"));
    eprintln!(
        "N=1e5 all budgets 1..1e4 (Lagrangian): {t_all:.3}s, g(1e4) = {:.6}",
        g[9_999]
    );
    let json = format!(
        "{{\n  \"profile\": \"DBWorld ratio 3, delta 0\",\n  \"dp_vs_fast\": [\n    {}\n  ],\n  \"N1e6_n1e3_lagrangian_s\": {t_big:.4},\n  \"N1e5_all_budgets_1e4_s\": {t_all:.4}\n}}\n",
        rows.join(",\n    ")
    );
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/results");
    let _ = std::fs::create_dir_all(dir);
    let _ = std::fs::write(format!("{dir}/probe.json"), json);
}

fn benches(c: &mut Criterion) {
    // `cargo bench` passes --bench; `cargo test --all-targets` runs this
    // binary as a smoke test, which must neither take minutes nor rewrite
    // the committed results.
    if std::env::args().any(|a| a == "--bench") {
        ratios();
    }
    let mut g = c.benchmark_group("probe");
    g.sample_size(10);
    let small = problem(4.0, 2_000);
    g.bench_function("reference_dp N=2000 n=100", |b| {
        b.iter(|| black_box(small.solve(100, Method::Reference).expect("dp")))
    });
    g.bench_function("hull N=2000 n=100", |b| {
        b.iter(|| black_box(small.solve(100, Method::Hull).expect("hull")))
    });
    g.bench_function("lagrangian N=2000 n=100", |b| {
        b.iter(|| black_box(small.solve(100, Method::Lagrangian).expect("lagr")))
    });
    let big = problem(52.0, 1_000_000);
    g.bench_function("lagrangian N=1e6 n=1e3", |b| {
        b.iter(|| black_box(big.optimal(1_000).expect("big")))
    });
    // The cost of a live control (its cancel flag and pass cap are read):
    // compare with "hull N=2000 n=100" above.
    let mut small_ctl = small.clone();
    small_ctl.set_control(crawlsched::limits::Control::new());
    g.bench_function("hull N=2000 n=100 with control", |b| {
        b.iter(|| black_box(small_ctl.solve(100, Method::Hull).expect("hull")))
    });
    g.finish();
}

criterion_group!(probe, benches);
criterion_main!(probe);
