//! Speed of the MDP solvers on the robots model (paper 001): the paper's
//! sizes (hundreds of states), then a scaling curve from 10³ to 10⁶
//! states, each solved to a certified gain accuracy of 1e-9 by policy
//! iteration and, in the same run, by a plain relative value iteration as
//! the paper describes it (τ = 0.99999, stop when the relative change of h
//! is below 1e-5; capped so that the run ends), and one exact evaluation of
//! the optimal policy on its distinct transition rows (what the solver
//! does) and on all states (the plain sparse LU).
//!
//! `cargo bench --bench mdp` also writes the curve and the ratios to
//! bench/results/mdp.json (`MDP_BENCH_MAX_N=300` stops the curve at N = 300).

use crawlsched::mdp::{self, Method, Options, Reduction, Stopping};
use crawlsched::robots::{Params, RobotsMdp};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;

/// The robots model with N robots and buffer K; λN = 1.5μ, γ = 100, so
/// that both starvation and loss matter at every size.
fn model(n: usize, k: usize) -> RobotsMdp {
    RobotsMdp::new(Params::new(n, k, 1.5 / n as f64, 1.0, 100.0).expect("params")).expect("model")
}

fn paper_rvi(max_iterations: usize) -> Options {
    Options {
        method: Method::RelativeValueIteration,
        aperiodicity: Some(0.99999),
        stopping: Stopping::RelativeChange,
        tolerance: 1e-5,
        max_iterations,
        ..Options::default()
    }
}

fn time<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let t0 = Instant::now();
    let r = f();
    (t0.elapsed().as_secs_f64(), r)
}

/// One timed run per size; the curve and ratios go to bench/results.
fn curve() {
    let mut rows = Vec::new();
    // MDP_BENCH_MAX_N limits the curve (the default 1000 reaches 10^6 states).
    let max_n = std::env::var("MDP_BENCH_MAX_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000usize);
    for (n, k) in [
        (10usize, 10usize),
        (30, 10),
        (100, 33),
        (300, 100),
        (600, 200),
        (1000, 333),
    ] {
        if n > max_n {
            continue;
        }
        let m = model(n, k);
        let states = m.mdp.n_states();
        let (t_pi, s) = time(|| mdp::solve(&m.mdp, &Options::default()).expect("pi"));
        let span = s.bound_hi - s.bound_lo;
        // One exact evaluation of the optimal policy, on the distinct
        // transition rows (what the solver does) and on all states.
        let (t_rows, _) =
            time(|| mdp::evaluate_average_with(&m.mdp, &s.policy, Reduction::Auto).expect("eval"));
        let (t_states, _) =
            time(|| mdp::evaluate_average_with(&m.mdp, &s.policy, Reduction::Never).expect("eval"));
        // Plain RVI costs one sweep per iteration; cap the sweeps so that
        // the largest sizes finish (the row then says it did not stop).
        let cap = (2_000_000_000 / m.mdp.n_transitions()).clamp(200, 200_000);
        let (t_rvi, r) = time(|| mdp::solve(&m.mdp, &paper_rvi(cap)).expect("rvi"));
        let rspan = r.bound_hi - r.bound_lo;
        eprintln!(
            "N={n} K={k} states={states}: PI {t_pi:.4}s ({} it, span {span:.1e}); paper RVI {t_rvi:.3}s ({} sweeps, stopped={}, span {rspan:.1e}); ratio {:.1}x; one evaluation {t_rows:.3}s on rows, {t_states:.3}s on states",
            s.iterations,
            r.iterations,
            r.converged,
            t_rvi / t_pi
        );
        rows.push(format!(
            "{{\"N\": {n}, \"K\": {k}, \"states\": {states}, \"transitions\": {}, \"pi_s\": {t_pi:.6}, \"pi_iterations\": {}, \"pi_span\": {span:.3e}, \"pi_gain\": {:.12e}, \"paper_rvi_s\": {t_rvi:.6}, \"paper_rvi_sweeps\": {}, \"paper_rvi_stopped\": {}, \"paper_rvi_span\": {rspan:.3e}, \"rvi_over_pi\": {:.2}, \"eval_rows_s\": {t_rows:.6}, \"eval_states_s\": {t_states:.6}}}",
            m.mdp.n_transitions(),
            s.iterations,
            s.gain,
            r.iterations,
            r.converged,
            t_rvi / t_pi
        ));
    }
    let json = format!(
        "{{\n  \"model\": \"robots, lambda = 1.5/N, mu = 1, gamma = 100\",\n  \"pi\": \"policy iteration, certificate span <= 1e-9\",\n  \"paper_rvi\": \"tau = 0.99999, relative change < 1e-5, sweeps capped at clamp(2e9/transitions, 200, 2e5)\",\n  \"threads\": {},\n  \"curve\": [\n    {}\n  ]\n}}\n",
        std::thread::available_parallelism().map_or(1, |p| p.get()),
        rows.join(",\n    ")
    );
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/results");
    let _ = std::fs::create_dir_all(dir);
    let _ = std::fs::write(format!("{dir}/mdp.json"), json);
}

fn benches(c: &mut Criterion) {
    // `cargo bench` passes --bench; `cargo test --all-targets` runs this
    // binary as a smoke test, which must stay quick and write nothing.
    let full = std::env::args().any(|a| a == "--bench");
    if full {
        curve();
    }
    let mut g = c.benchmark_group("mdp");
    g.sample_size(10);
    let paper = model(30, 10);
    g.bench_function("policy_iteration paper size N=30 K=10", |b| {
        b.iter(|| black_box(mdp::solve(&paper.mdp, &Options::default()).expect("pi")))
    });
    g.bench_function("paper RVI N=30 K=10", |b| {
        b.iter(|| black_box(mdp::solve(&paper.mdp, &paper_rvi(200_000)).expect("rvi")))
    });
    if full {
        let mid = model(300, 100);
        g.bench_function("policy_iteration N=300 K=100 (91k states)", |b| {
            b.iter(|| black_box(mdp::solve(&mid.mdp, &Options::default()).expect("pi")))
        });
    }
    g.finish();
}

criterion_group!(mdp_bench, benches);
criterion_main!(mdp_bench);
