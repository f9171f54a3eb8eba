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

/// The checked fast path (exponential X) finds a bad value at any page
/// (every lane of its vectors and the pages after them: 8·4 + 5 pages),
/// in the rates or the weights, and otherwise brute force's least and
/// largest μ and c and largest w = c/(μE\[X\]); no w_max when one w_i is
/// not a normal double.
#[test]
fn the_fast_check_finds_a_bad_value_at_any_page_and_the_extremes() {
    let n = 37;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
    let mut draw = || -> Vec<f64> {
        (0..n)
            .map(|_| 10f64.powf(rng.random_range(-3.0..3.0)))
            .collect()
    };
    let (mu, c) = (draw(), draw());
    let access = Distribution::exponential(3.0).unwrap();
    let mean = access.mean();
    let least = |x: &[f64]| x.iter().copied().fold(f64::MAX, f64::min);
    let most = |x: &[f64]| x.iter().copied().fold(0.0, f64::max);
    let ex = Model::new(access.clone(), &mu, None)
        .unwrap()
        .extremes()
        .unwrap();
    assert_eq!((ex.mu_min, ex.mu_max), (least(&mu), most(&mu)));
    let ex = Model::new(access.clone(), &mu, Some(&c))
        .unwrap()
        .extremes()
        .unwrap();
    assert_eq!((ex.mu_min, ex.mu_max), (least(&mu), most(&mu)));
    assert_eq!(ex.c_range, Some((least(&c), most(&c))));
    let w: Vec<f64> = mu.iter().zip(&c).map(|(m, c)| c / (m * mean)).collect();
    assert_eq!(ex.w_max, Some(most(&w)));
    for i in 0..n {
        for bad in [f64::NAN, 0.0, -0.0, -1.0, f64::INFINITY, f64::NEG_INFINITY] {
            let with = |x: &[f64]| {
                let mut x = x.to_vec();
                x[i] = bad;
                x
            };
            assert!(
                Model::new(access.clone(), &with(&mu), None).is_err(),
                "μ[{i}] = {bad}"
            );
            assert!(
                Model::new(access.clone(), &with(&mu), Some(&c)).is_err(),
                "μ[{i}] = {bad}"
            );
            assert!(
                Model::new(access.clone(), &mu, Some(&with(&c))).is_err(),
                "c[{i}] = {bad}"
            );
        }
        // w_i = 1e300/(1e-20·E[X]) overflows.
        let (mut m2, mut c2) = (mu.clone(), c.clone());
        (m2[i], c2[i]) = (1e-20, 1e300);
        let ex = Model::new(access.clone(), &m2, Some(&c2))
            .unwrap()
            .extremes()
            .unwrap();
        assert_eq!(ex.w_max, None, "page {i}");
        assert_eq!((ex.mu_min, ex.c_range.unwrap().1), (1e-20, 1e300));
    }
}
