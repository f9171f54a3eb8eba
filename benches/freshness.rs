//! Speed of the freshness planners (paper 000) on the instance of issue 20:
//! change rates log-uniform on [1e-3, 10], weights log-uniform on [0.1, 10],
//! 0.2 n crawls per unit time. What a user pays is `Model::new` plus the
//! solve, so both are inside the measured span. The comparison with NumPy
//! and LambdaCrawl, and the larger sizes, are in bench/freshness/run.sh.

use crawlsched::dist::Distribution;
use crawlsched::freshness::{Model, frequencies, randomized};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;

fn instance(n: usize) -> (Vec<f64>, Vec<f64>, f64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20);
    let mut log_uniform = |lo: f64, hi: f64| 10f64.powf(rng.random_range(lo..hi));
    let mu: Vec<f64> = (0..n).map(|_| log_uniform(-3.0, 1.0)).collect();
    let c: Vec<f64> = (0..n).map(|_| log_uniform(-1.0, 1.0)).collect();
    (mu, c, 5.0 / n as f64)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("freshness");
    g.sample_size(10);
    for n in [1_000usize, 10_000, 100_000] {
        let (mu, w, mean) = instance(n);
        let exp = Distribution::exponential(1.0 / mean).expect("exponential");
        let det = Distribution::deterministic(mean).expect("deterministic");
        for (name, d) in [
            ("general_exponential", &exp),
            ("general_deterministic", &det),
        ] {
            g.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                b.iter(|| {
                    let m = Model::new(d.clone(), &mu, Some(&w)).expect("model");
                    black_box(frequencies::optimal_frequencies_general(&m).expect("solve"))
                })
            });
        }
        g.bench_with_input(BenchmarkId::new("randomized", n), &n, |b, _| {
            b.iter(|| {
                let m = Model::new(exp.clone(), &mu, Some(&w)).expect("model");
                black_box(randomized::optimal_frequencies(&m).expect("solve"))
            })
        });
        g.bench_with_input(BenchmarkId::new("closed_form", n), &n, |b, _| {
            b.iter(|| {
                let m = Model::new(exp.clone(), &mu, None).expect("model");
                black_box(frequencies::optimal_frequencies(&m).expect("solve"))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
