use crate::dist::Distribution;
use crate::freshness::Model;
use crate::freshness::frequencies::optimal_frequencies_general;
use crate::freshness::shard::*;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn log_uniform<R: rand::Rng>(rng: &mut R, lo: f64, hi: f64) -> f64 {
    10f64.powf(rng.random_range(lo.log10()..hi.log10()))
}

/// Splitting the pages into k shards (uneven, contiguous) and solving from
/// the shards' sums gives the single-call plan to 1e−12 relative.
#[test]
fn shards_reproduce_the_single_call_plan() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let n = 3000;
    let mu: Vec<f64> = (0..n).map(|_| log_uniform(&mut rng, 1e-3, 10.0)).collect();
    let c: Vec<f64> = (0..n).map(|_| log_uniform(&mut rng, 0.1, 10.0)).collect();
    for d in [
        Distribution::exponential(n as f64 / 5.0).unwrap(),
        Distribution::deterministic(5.0 / n as f64).unwrap(),
    ] {
        let whole =
            optimal_frequencies_general(&Model::new(d.clone(), &mu, Some(&c)).unwrap()).unwrap();
        assert!(whole.contains(&0.0), "some pages unvisited");
        for cuts in [
            vec![0, n],
            vec![0, 1000, 1001, n],
            vec![0, 7, 500, 1700, 2990, n],
        ] {
            let models: Vec<Model> = cuts
                .windows(2)
                .map(|r| Model::new(d.clone(), &mu[r[0]..r[1]], Some(&c[r[0]..r[1]])).unwrap())
                .collect();
            let mut shards: Vec<Shard> = models.iter().map(|m| Shard::new(m).unwrap()).collect();
            let ln_lambda = solve_shards(&mut shards).unwrap();
            let mut f = Vec::new();
            for s in &mut shards {
                f.extend(s.frequencies_at(ln_lambda).unwrap());
            }
            let total: f64 = f.iter().sum();
            assert!((total - 1.0).abs() < 1e-13, "{total}");
            for (i, (&a, &b)) in f.iter().zip(&whole).enumerate() {
                assert_eq!(a == 0.0, b == 0.0, "page {i}: {a} vs {b}");
                if b > 0.0 {
                    assert!(((a / total - b) / b).abs() < 1e-12, "page {i}: {a} vs {b}");
                }
            }
        }
    }
}

#[test]
fn no_shards_is_an_error() {
    assert!(solve_shards(&mut []).is_err());
}
