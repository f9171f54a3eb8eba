use crate::dist::Distribution;
use crate::error::Error;
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
            let shards: Vec<Shard> = models.iter().map(|m| Shard::new(m).unwrap()).collect();
            let ln_lambda = solve_shards(&shards).unwrap();
            let mut f = Vec::new();
            for s in &shards {
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
    assert!(solve_shards(&[]).is_err());
}

/// The protocol driven by hand over shards whose summaries are combined
/// out of order gives solve_shards' multiplier, and the final Σ x is 1.
#[test]
fn multiplier_search_is_the_protocol_of_solve_shards() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let n = 500;
    let mu: Vec<f64> = (0..n).map(|_| log_uniform(&mut rng, 1e-3, 10.0)).collect();
    let c: Vec<f64> = (0..n).map(|_| log_uniform(&mut rng, 0.1, 10.0)).collect();
    let d = Distribution::exponential(n as f64 / 5.0).unwrap();
    let shards: Vec<Shard> = [0..100, 100..101, 101..n]
        .into_iter()
        .map(|r| Shard::new(&Model::new(d.clone(), &mu[r.clone()], Some(&c[r])).unwrap()).unwrap())
        .collect();
    let total = shards
        .iter()
        .rev()
        .map(Shard::summary)
        .fold(ShardSummary::EMPTY, ShardSummary::combine);
    assert_eq!(
        total.sum_a,
        shards.iter().map(|s| s.summary().sum_a).sum::<f64>()
    );
    let mut search = MultiplierSearch::new(total).unwrap();
    let mut steps = 0;
    let ln_lambda = loop {
        match search.next().unwrap() {
            MultiplierStep::Evaluate(x) => {
                let (s, ds) = shards.iter().fold((0.0, 0.0), |(s, ds), sh| {
                    let (a, b) = sh.sum_at(x).unwrap();
                    (s + a, ds + b)
                });
                search.update(s, ds).unwrap();
                steps += 1;
            }
            MultiplierStep::Done(x) => break x,
        }
    };
    assert!(steps < 60, "{steps} steps");
    assert_eq!(ln_lambda, solve_shards(&shards).unwrap());
    let total_x: f64 = shards
        .iter()
        .map(|s| s.frequencies_at(ln_lambda).unwrap().iter().sum::<f64>())
        .sum();
    assert!((total_x - 1.0).abs() < 1e-13, "{total_x}");
}

#[test]
fn the_protocol_rejects_what_no_shard_can_produce() {
    let ok = ShardSummary {
        sum_a: 2.0,
        ln_w_min: -1.0,
        ln_w_max: 1.0,
    };
    for bad in [
        ShardSummary { sum_a: 0.0, ..ok },
        ShardSummary {
            sum_a: f64::NAN,
            ..ok
        },
        ShardSummary {
            ln_w_min: 2.0,
            ..ok
        },
        ShardSummary {
            ln_w_max: f64::INFINITY,
            ..ok
        },
        ShardSummary::EMPTY,
    ] {
        assert!(
            matches!(MultiplierSearch::new(bad), Err(Error::InvalidArgument(_))),
            "{bad:?}"
        );
    }
    let mut search = MultiplierSearch::new(ok).unwrap();
    for (s, ds) in [
        (-1.0, -1.0),
        (f64::NAN, -1.0),
        (f64::INFINITY, -1.0),
        (1.0, 0.5),
        (1.0, f64::NAN),
    ] {
        assert!(
            matches!(search.update(s, ds), Err(Error::InvalidArgument(_))),
            "{s} {ds}"
        );
    }
    let m = Model::new(Distribution::exponential(1.0).unwrap(), &[1.0], None).unwrap();
    let shard = Shard::new(&m).unwrap();
    for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert!(
            matches!(shard.sum_at(x), Err(Error::InvalidArgument(_))),
            "{x}"
        );
    }
}
