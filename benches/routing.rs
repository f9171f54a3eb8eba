//! Optimal periodic routing for 10 servers (Altman et al., paper 003):
//! local search from balanced sequences over periods up to a few hundred,
//! and exhaustive enumeration where it is feasible (periods ≤ 6), with the
//! cost ratio local/exhaustive printed once before timing. Under
//! `cargo bench` (criterion passes --bench) the same figures are written to
//! bench/results/routing.json; the test-mode smoke run writes nothing.

use crawlsched::routing::search::{self, Neighbourhood};
use crawlsched::routing::{ArrivalProcess, Objective, RoutingSystem};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;

fn ten_servers() -> RoutingSystem {
    // Bursty MMPP arrivals (mean rate 1.25) and heterogeneous servers.
    let arrivals = ArrivalProcess::mmpp(&[-0.1, 0.1, 0.3, -0.3], &[0.5, 3.5]).unwrap();
    let rates: Vec<f64> = (0..10).map(|i| 0.05 * 1.5f64.powi(i)).collect();
    RoutingSystem::new(arrivals, &rates, None, Objective::Losses).unwrap()
}

fn bench(c: &mut Criterion) {
    let sys = ten_servers();
    // One-off comparison with exhaustive search (printed, not asserted).
    let t0 = Instant::now();
    let ex = search::exhaustive(&sys, 1, 6).unwrap();
    let t_ex = t0.elapsed();
    let t1 = Instant::now();
    let loc = search::optimize_local(&sys, 1, 6).unwrap();
    let t_loc = t1.elapsed();
    println!(
        "periods <= 6: exhaustive {:.6} ({} sequences, {:?}); local {:.6} ({} neighbours, {:?}); cost ratio {:.6}",
        ex.evaluation.per_packet,
        ex.evaluations,
        t_ex,
        loc.evaluation.per_packet,
        loc.evaluations,
        t_loc,
        loc.evaluation.per_packet / ex.evaluation.per_packet
    );
    let mut rows = Vec::new();
    for n in [50usize, 100, 300] {
        let table = sys.table(n).unwrap();
        let start =
            search::balanced_sequence(&search::balanced_counts(&table, n).unwrap()).unwrap();
        let t = Instant::now();
        let r = search::local_search(&sys, &table, &start, Neighbourhood::Pairs).unwrap();
        let elapsed = t.elapsed();
        let start_cost = crawlsched::routing::cost::evaluate_with(&sys, &table, &start)
            .unwrap()
            .per_packet;
        println!(
            "period {n}: balanced start {start_cost:.6} -> local optimum {:.6} ({} neighbours, {:?})",
            r.evaluation.per_packet, r.evaluations, elapsed
        );
        rows.push(format!(
            "{{\"period\": {n}, \"balanced_cost\": {start_cost:.6}, \"local_cost\": {:.6}, \"neighbours\": {}, \"seconds\": {:.6}}}",
            r.evaluation.per_packet,
            r.evaluations,
            elapsed.as_secs_f64()
        ));
    }
    if std::env::args().any(|a| a == "--bench") {
        let json = format!(
            "{{\n  \"system\": \"10 servers, rates 0.05*1.5^i, MMPP arrivals (mean rate 1.25), losses\",\n  \"periods_le_6\": {{\"exhaustive_cost\": {:.6}, \"exhaustive_sequences\": {}, \"exhaustive_s\": {:.6}, \"local_cost\": {:.6}, \"local_neighbours\": {}, \"local_s\": {:.6}, \"time_ratio_exhaustive_over_local\": {:.1}, \"cost_ratio_local_over_exhaustive\": {:.6}}},\n  \"local_search\": [\n    {}\n  ]\n}}\n",
            ex.evaluation.per_packet,
            ex.evaluations,
            t_ex.as_secs_f64(),
            loc.evaluation.per_packet,
            loc.evaluations,
            t_loc.as_secs_f64(),
            t_ex.as_secs_f64() / t_loc.as_secs_f64(),
            loc.evaluation.per_packet / ex.evaluation.per_packet,
            rows.join(",\n    ")
        );
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/results");
        let _ = std::fs::create_dir_all(dir);
        let _ = std::fs::write(format!("{dir}/routing.json"), json);
    }

    let mut g = c.benchmark_group("routing_10_servers");
    g.sample_size(10);
    g.bench_function("exhaustive periods 1..=5", |b| {
        b.iter(|| search::exhaustive(black_box(&sys), 1, 5).unwrap())
    });
    for n in [50usize, 100, 300] {
        let table = sys.table(n).unwrap();
        let start =
            search::balanced_sequence(&search::balanced_counts(&table, n).unwrap()).unwrap();
        g.bench_function(format!("local search period {n}"), |b| {
            b.iter(|| {
                search::local_search(black_box(&sys), &table, &start, Neighbourhood::Pairs).unwrap()
            })
        });
    }
    g.bench_function("optimize_local periods 1..=100", |b| {
        b.iter(|| search::optimize_local(black_box(&sys), 1, 100).unwrap())
    });
    // The cost of a live control (cancel flag and caps read): compare with
    // the same searches above without one.
    let ctl = crawlsched::limits::Control::new();
    g.bench_function("exhaustive periods 1..=5 with control", |b| {
        b.iter(|| search::exhaustive_with(black_box(&sys), 1, 5, &ctl).unwrap())
    });
    g.bench_function("optimize_local periods 1..=100 with control", |b| {
        b.iter(|| search::optimize_local_with(black_box(&sys), 1, 100, &ctl).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
