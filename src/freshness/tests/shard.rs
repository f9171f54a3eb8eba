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

/// The pages split into shards at `cuts` (after reordering them by
/// `order`): the shards and the plan of all pages in the original order.
fn plan_of_shards(
    d: &Distribution,
    mu: &[f64],
    c: &[f64],
    order: &[usize],
    cuts: &[usize],
) -> (f64, Vec<f64>) {
    let (mu_o, c_o): (Vec<f64>, Vec<f64>) = order.iter().map(|&i| (mu[i], c[i])).unzip();
    let shards: Vec<Shard> = cuts
        .windows(2)
        .filter(|r| r[1] > r[0])
        .map(|r| {
            let m = Model::new(d.clone(), &mu_o[r[0]..r[1]], Some(&c_o[r[0]..r[1]])).unwrap();
            Shard::new(&m).unwrap()
        })
        .collect();
    let ln_lambda = solve_shards(&shards).unwrap();
    let mut f = vec![f64::NAN; mu.len()];
    let mut k = 0;
    for s in &shards {
        for x in s.frequencies_at(ln_lambda).unwrap() {
            f[order[k]] = x;
            k += 1;
        }
    }
    (ln_lambda, f)
}

/// Random orders of the pages split at random cuts (shards of one page,
/// empty shards where cuts repeat, which a driver skips) give the single
/// call's plan bit for bit, and it satisfies the KKT conditions (8)–(9):
/// w_i G(s_i) = λ on visited pages (to 1e−12), w_i ≤ λ on the others,
/// Σ x = 1 (to 1e−13). The single call's ln λ is recovered from a
/// one-shard solve.
#[test]
fn shards_give_the_single_call_plan_bit_for_bit() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let n = 3000;
    let mu: Vec<f64> = (0..n).map(|_| log_uniform(&mut rng, 1e-3, 10.0)).collect();
    let c: Vec<f64> = (0..n).map(|_| log_uniform(&mut rng, 0.1, 10.0)).collect();
    for d in [
        Distribution::exponential(n as f64 / 5.0).unwrap(),
        Distribution::deterministic(5.0 / n as f64).unwrap(),
    ] {
        let model = Model::new(d.clone(), &mu, Some(&c)).unwrap();
        let whole = optimal_frequencies_general(&model).unwrap();
        assert!(whole.contains(&0.0), "some pages unvisited");
        let identity: Vec<usize> = (0..n).collect();
        let (ln_lambda, one) = plan_of_shards(&d, &mu, &c, &identity, &[0, n]);
        assert_kkt(&model, ln_lambda, &whole);
        for seed in 0..6 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut order = identity.clone();
            for i in (1..n).rev() {
                order.swap(i, rng.random_range(0..=i));
            }
            let mut cuts: Vec<usize> = (0..rng.random_range(1..12))
                .map(|_| rng.random_range(0..=n))
                .collect();
            // One-page shards and an empty one (a repeated cut).
            cuts.extend([0, 1, 2, n - 1, n - 1, n]);
            cuts.sort_unstable();
            let (l, f) = plan_of_shards(&d, &mu, &c, &order, &cuts);
            assert_eq!(l.to_bits(), ln_lambda.to_bits(), "seed {seed}");
            for (i, (a, b)) in f.iter().zip(&whole).enumerate() {
                assert_eq!(
                    a.to_bits(),
                    b.to_bits(),
                    "seed {seed}, page {i}: {a} vs {b}"
                );
            }
        }
        assert_eq!(
            one.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            whole.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
    }
}

/// (8)–(9) at ln λ: w_i G(s_i) = λ (s_i = a_i/x_i) on visited pages,
/// w_i ≤ λ on the others, Σ x = 1.
fn assert_kkt(model: &Model, ln_lambda: f64, x: &[f64]) {
    let total: f64 = x.iter().sum();
    assert!((total - 1.0).abs() < 1e-13, "{total}");
    let e = model.mean_access();
    for (i, &xi) in x.iter().enumerate() {
        let ln_w = (model.weights()[i] / (model.change_rates()[i] * e)).ln();
        if xi == 0.0 {
            assert!(ln_w <= ln_lambda + 1e-15 * ln_lambda.abs(), "page {i}");
            continue;
        }
        let s = -model.log_h()[i] / xi;
        // G(s) = 1 − (1 + s)e^{−s}, without cancellation for small s.
        let g = -((-s).exp_m1() + s * (-s).exp());
        let rel = (ln_w + g.ln() - ln_lambda).abs();
        assert!(rel < 1e-12, "page {i}: {rel:e}");
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
                // Shards added in reverse: the float sums differ in their
                // last bits, the exact ones (which end the search) do not.
                let sums = shards
                    .iter()
                    .rev()
                    .fold(ShardSums::ZERO, |t, sh| t.combine(sh.sum_at(x).unwrap()));
                search.update(sums).unwrap();
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
    for (sum, dsum) in [
        (-1.0, -1.0),
        (f64::NAN, -1.0),
        (f64::INFINITY, -1.0),
        (1.0, 0.5),
        (1.0, f64::NAN),
    ] {
        let bad = ShardSums {
            sum,
            dsum,
            exact: GridSum::ONE,
        };
        assert!(
            matches!(search.update(bad), Err(Error::InvalidArgument(_))),
            "{sum} {dsum}"
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

#[test]
fn a_sum_of_a_that_overflows_is_reported_as_dbl_max() {
    // Two pages with ln h = −μ·1 = −DBL_MAX (deterministic X = 1): Σ a_i
    // overflows; the summary (and a combination of summaries) says
    // DBL_MAX, a finite value, and the search still finds the single
    // call's multiplier from it.
    let d = Distribution::deterministic(1.0).unwrap();
    let mu = [f64::MAX, f64::MAX, 0.5];
    let m = Model::new(d.clone(), &mu, Some(&[1.0, 2.0, 3.0])).unwrap();
    let s = Shard::new(&m).unwrap();
    let sum = s.summary();
    assert_eq!(sum.sum_a, f64::MAX);
    assert_eq!(sum.combine(sum).sum_a, f64::MAX);
    let ln_lambda = solve_shards(&[s]).unwrap();
    assert!(ln_lambda.is_finite());
    let single = optimal_frequencies_general(&m).unwrap();
    let x = Shard::new(&m).unwrap().frequencies_at(ln_lambda).unwrap();
    assert_eq!(x, single);
}
