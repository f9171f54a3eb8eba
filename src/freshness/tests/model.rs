//! `Model::from_vecs` against `Model::new`: the same model from the same
//! inputs, whether they are copied or handed over.

use crate::dist::Distribution;
use crate::error::Error;
use crate::freshness::{Model, frequencies, randomized};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn bits(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

/// Every plan of a model handed its arrays has the bits of the plan of a
/// model that copied them: cheap laws on the one-pass route (2^18 pages and
/// more, where `Model::new` sums the closed form while it copies) and below
/// it, a costly law, with and without weights.
#[test]
fn a_model_handed_its_arrays_plans_as_one_that_copied_them() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
    let laws = [
        Distribution::exponential(2.0).unwrap(),
        Distribution::deterministic(1e-3).unwrap(),
        Distribution::erlang(3, 5.0).unwrap(),
    ];
    for n in [300_000, 2_000] {
        let mu: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.random_range(-4.0..0.5)))
            .collect();
        let c: Vec<f64> = (0..n).map(|_| rng.random_range(0.1..10.0)).collect();
        for access in &laws {
            for weights in [None, Some(&c)] {
                let copied = Model::new(access.clone(), &mu, weights.map(|w| &w[..])).unwrap();
                let owned = Model::from_vecs(access.clone(), mu.clone(), weights.cloned()).unwrap();
                assert_eq!(bits(owned.change_rates()), bits(copied.change_rates()));
                assert_eq!(bits(owned.weights()), bits(copied.weights()));
                assert_eq!(owned.is_proportional(), copied.is_proportional());
                let plan = |m: &Model| {
                    let f = frequencies::optimal_frequencies(m).unwrap();
                    let r = randomized::optimal_frequencies(m).unwrap();
                    (bits(&f), bits(&r))
                };
                assert!(plan(&owned) == plan(&copied), "{access:?}, {n} pages");
            }
        }
    }
}

/// A bad input is refused with `Model::new`'s message, whichever way the
/// arrays come, on the checked fast path (exponential) and the ordered
/// checks (Erlang).
#[test]
fn a_model_handed_bad_arrays_refuses_them_as_new_does() {
    let bad: [(Vec<f64>, Option<Vec<f64>>); 6] = [
        (vec![], None),
        (vec![1.0, f64::NAN], None),
        (vec![1.0, -2.0], None),
        (vec![1.0, 2.0], Some(vec![1.0])),
        (vec![1.0, 2.0], Some(vec![1.0, 0.0])),
        (vec![1.0, f64::INFINITY], None),
    ];
    for access in [
        Distribution::exponential(1.0).unwrap(),
        Distribution::erlang(2, 1.0).unwrap(),
    ] {
        for (mu, w) in &bad {
            let e1 = Model::new(access.clone(), mu, w.as_deref()).unwrap_err();
            let e2 = Model::from_vecs(access.clone(), mu.clone(), w.clone()).unwrap_err();
            assert!(matches!(e1, Error::InvalidArgument(_)), "{e1}");
            assert_eq!(e1.to_string(), e2.to_string(), "{mu:?} {w:?}");
        }
    }
}
