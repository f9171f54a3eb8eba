//! Tests of the probe module: the paper's DBWorld numbers (independent
//! check values in the paper notes), brute force, quadrature, property
//! tests of the fast algorithms against the paper's dynamic program.

use super::baselines::{self, Policy};
use super::cost::{self, CostTable};
use super::improve::{ImproverParams, improve};
use super::optimal::{Method, Problem};
use super::planner::Planner;
use super::profile::{self, PiecewiseConstant, Profile};
use crate::error::{Error, Num};
use crate::numeric::tolerance::rel;
use proptest::prelude::*;

const ALL: [Method; 4] = [
    Method::Reference,
    Method::DivideConquer,
    Method::Hull,
    Method::Lagrangian,
];

fn dbworld_problem() -> Problem {
    let p = Profile::dbworld(3.0, 28.0).unwrap();
    Problem::new(CostTable::uniform(&p, 672).unwrap(), 0.0, None).unwrap()
}

/// Paper notes: DBWorld, ratio 3, δ = 0, T = 28 days, 672 hourly candidates.
#[test]
fn dbworld_check_values() {
    let pb = dbworld_problem();
    let profile = Profile::dbworld(3.0, 28.0).unwrap();
    let want_opt = [
        (4, 611.7427),
        (8, 301.0284),
        (14, 168.9081),
        (28, 80.5915),
        (56, 40.7283),
    ];
    let want_uni = [696.0875, 342.4025, 199.6175, 107.9125, 50.5125];
    for (&(n, opt), &uni) in want_opt.iter().zip(&want_uni) {
        for m in ALL {
            let s = pb.solve(n, m).unwrap();
            assert_eq!(s.indices.len(), n);
            assert_eq!(*s.indices.last().unwrap(), 672);
            assert!(
                (s.cost - opt).abs() < 5e-5,
                "{m:?} n={n}: {} vs {opt}",
                s.cost
            );
            // The reported cost is the schedule's continuous expected cost.
            let c = cost::expected_cost(&profile, &s.times).unwrap();
            assert!(rel(c, s.cost) < 1e-12);
        }
        let u = baselines::uniform(&profile, n).unwrap();
        let cu = cost::expected_cost(&profile, &u).unwrap();
        assert!((cu - uni).abs() < 5e-5, "uniform n={n}: {cu} vs {uni}");
    }
}

/// The printed errors of the check values (for the report).
#[test]
fn dbworld_check_value_errors() {
    let pb = dbworld_problem();
    let profile = Profile::dbworld(3.0, 28.0).unwrap();
    for (n, opt, uni) in [
        (4, 611.7427, 696.0875),
        (8, 301.0284, 342.4025),
        (14, 168.9081, 199.6175),
        (28, 80.5915, 107.9125),
        (56, 40.7283, 50.5125),
    ] {
        let s = pb.optimal(n).unwrap();
        let cu = cost::expected_cost(&profile, &baselines::uniform(&profile, n).unwrap()).unwrap();
        println!(
            "n={n}: optimal {:.6} (err {:.1e}), uniform {:.6} (err {:.1e})",
            s.cost,
            s.cost - opt,
            cu,
            cu - uni
        );
        assert!((s.cost - opt).abs() < 5e-5 && (cu - uni).abs() < 5e-5);
    }
}

/// Random piecewise-constant profile with some zero-intensity pieces.
fn random_profile(seed: u64, pieces: usize, horizon: f64) -> Profile {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut b = vec![0.0];
    for _ in 0..pieces {
        let last = *b.last().unwrap();
        b.push(last + rng.random_range(0.1..1.0));
    }
    let span = *b.last().unwrap();
    let b: Vec<f64> = b.iter().map(|x| x * horizon / span).collect();
    let lam: Vec<f64> = (0..pieces)
        .map(|_| {
            if rng.random_range(0.0..1.0) < 0.2 {
                0.0
            } else {
                rng.random_range(0.0..5.0)
            }
        })
        .collect();
    let imp: Vec<f64> = (0..pieces).map(|_| rng.random_range(0.0..3.0)).collect();
    let mut b2 = b.clone();
    *b2.last_mut().unwrap() = horizon;
    Profile::new(
        PiecewiseConstant::new(&b2, &lam, false).unwrap(),
        PiecewiseConstant::new(&b2, &imp, false).unwrap(),
        horizon,
    )
    .unwrap()
}

/// Eq. (5) by brute-force midpoint quadrature of the double integral.
fn quad_cost(p: &Profile, s: f64, f: f64, m: usize) -> f64 {
    let h = (f - s) / m as f64;
    let mut inner = 0.0; // ∫_t^f a, accumulated from the right
    let mut total = 0.0;
    for k in (0..m).rev() {
        let t = s + (k as f64 + 0.5) * h;
        let a = p.importance().value_at(t);
        // ∫_{t}^{f} a ≈ inner + a h/2 (a constant within the cell)
        total += p.intensity().value_at(t) * (inner + 0.5 * a * h) * h;
        inner += a * h;
    }
    total
}

#[test]
fn interval_cost_matches_quadrature_and_lemma_3() {
    for seed in 0..5 {
        let p = random_profile(seed, 7, 10.0);
        for &(s, f) in &[(0.0, 10.0), (1.3, 4.7), (2.0, 2.5), (0.0, 0.01)] {
            let exact = p.interval_cost(s, f).unwrap();
            let q = quad_cost(&p, s, f, 200_000);
            // Midpoint cells straddling a jump of λ or a err by O(h) each.
            assert!((exact - q).abs() < 1e-4 * exact.max(1.0), "{exact} vs {q}");
            // Lemma 3 (13) with v inside, and with v outside (signed form).
            for v in [0.5 * (s + f), 0.5 * (f + 10.0), (s - 0.5).max(0.0)] {
                let rhs = p.signed_interval_cost(s, v)
                    + p.expected_updates(s, v) * p.accumulated_importance(v, f)
                    + p.signed_interval_cost(v, f);
                assert!((exact - rhs).abs() < 1e-10 * exact.max(1.0));
            }
            // Lemma 6: 0 <= C <= a λ (f−s)²/2.
            let (lb, ab) = p.bounds();
            assert!(exact >= 0.0 && exact <= 0.5 * lb * ab * (f - s) * (f - s) * (1.0 + 1e-12));
        }
    }
}

/// The paper's Algorithm 4 (K[i, j] by recursion (14)) equals the O(1)
/// prefix formula, and K is Monge.
#[test]
fn algorithm_4_matrix_and_monge() {
    let p = random_profile(11, 9, 5.0);
    let t = CostTable::uniform(&p, 40).unwrap();
    let n = t.len();
    let mut k = vec![vec![0.0; n + 1]; n + 1];
    let ai: Vec<f64> = (0..n).map(|i| t.a(i + 1) - t.a(i)).collect();
    let li: Vec<f64> = (0..n).map(|i| t.p(i + 1) - t.p(i)).collect();
    for i in 0..n {
        k[i][i + 1] = t.cost(i, i + 1);
    }
    for j in (1..=n).rev() {
        let mut acc = 0.0;
        for i in (0..j.saturating_sub(1)).rev() {
            acc += ai[i + 1];
            k[i][j] = k[i][i + 1] + li[i] * acc + k[i + 1][j];
        }
    }
    for i in 0..n {
        for j in i + 1..=n {
            assert!((k[i][j] - t.cost(i, j)).abs() < 1e-10 * k[i][j].max(1.0));
            assert!(
                (t.cost(i, j) - p.interval_cost(t.times()[i], t.times()[j]).unwrap()).abs()
                    < 1e-10 * k[i][j].max(1.0)
            );
        }
    }
    for i in 0..n {
        for i2 in i + 1..n {
            for j in i2 + 1..n {
                for j2 in j + 1..=n {
                    let d = t.cost(i, j) + t.cost(i2, j2) - t.cost(i, j2) - t.cost(i2, j);
                    assert!(d <= 1e-9);
                }
            }
        }
    }
}

/// Brute force over all subsets on tiny grids equals the reference DP.
#[test]
fn reference_dp_equals_brute_force() {
    for seed in 0..20 {
        let p = random_profile(100 + seed, 5, 3.0);
        let t = CostTable::uniform(&p, 9).unwrap();
        let delta = [0.0, 0.3, 0.7][seed as usize % 3];
        let pb = Problem::new(t.clone(), delta, None).unwrap();
        for n in 1..=9 {
            let mut best = f64::INFINITY;
            for mask in 0u32..(1 << 8) {
                if mask.count_ones() as usize != n - 1 {
                    continue;
                }
                let mut idx: Vec<usize> = (1..9).filter(|j| mask & (1 << (j - 1)) != 0).collect();
                idx.push(9);
                let mut prev = 0.0;
                let ok = idx.iter().all(|&j| {
                    let ok = t.times()[j] - prev >= delta - 1e-9 * delta;
                    prev = t.times()[j];
                    ok
                });
                if ok {
                    best = best.min(t.schedule_cost(&idx));
                }
            }
            match pb.solve(n, Method::Reference) {
                Ok(s) => assert!(
                    rel(s.cost, best) < 1e-12 || (s.cost - best).abs() < 1e-12,
                    "n={n}: {} vs {best}",
                    s.cost
                ),
                Err(Error::Infeasible(_)) => assert!(best.is_infinite()),
                Err(e) => panic!("{e}"),
            }
        }
    }
}

fn arb_case() -> impl Strategy<Value = (u64, usize, usize, f64, bool)> {
    (
        any::<u64>(),
        1usize..8,
        2usize..28,
        prop_oneof![Just(0.0), 0.0f64..0.6],
        any::<bool>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Every fast method equals the paper's DP (cost to 1e-9 relative,
    /// same feasibility), with spacing and allowed windows.
    #[test]
    fn fast_methods_equal_reference((seed, pieces, grid, delta, windows) in arb_case(), n_frac in 0.0f64..1.0) {
        let p = random_profile(seed, pieces, 4.0);
        let t = CostTable::uniform(&p, grid).unwrap();
        let w: Vec<(f64, f64)> = vec![(0.3, 1.1), (1.9, 2.2), (2.8, 3.5)];
        let pb = Problem::new(t, delta, if windows { Some(&w) } else { None }).unwrap();
        let n = 1 + ((grid as f64 * n_frac) as usize).min(grid - 1);
        let r = pb.solve(n, Method::Reference);
        for m in [Method::DivideConquer, Method::Hull, Method::Lagrangian] {
            let s = pb.solve(n, m);
            match (&r, &s) {
                (Ok(a), Ok(b)) => {
                    prop_assert!(rel(b.cost, a.cost) <= 1e-9 || (b.cost - a.cost).abs() < 1e-12, "{m:?}: {} vs {}", b.cost, a.cost);
                    prop_assert_eq!(b.indices.len(), n);
                    prop_assert_eq!(*b.indices.last().unwrap(), grid);
                    let mut prev = 0.0;
                    for (&j, &x) in b.indices.iter().zip(&b.times) {
                        prop_assert!(x - prev >= delta * (1.0 - 1e-9));
                        prop_assert!(j == grid || pb.allowed(j));
                        prev = x;
                    }
                }
                (Err(Error::Infeasible(_)), Err(Error::Infeasible(_))) => {}
                _ => prop_assert!(false, "{m:?}: {:?} vs {:?}", s.as_ref().map(|x| x.cost), r.as_ref().map(|x| x.cost)),
            }
        }
    }

    /// g(n) is convex in n (what the Lagrangian relaxation needs), and the
    /// all-budgets parametric search reproduces every g(n).
    #[test]
    fn optimum_is_convex_in_budget_and_all_costs_match((seed, pieces, grid, delta, windows) in arb_case()) {
        let p = random_profile(seed, pieces, 4.0);
        let t = CostTable::uniform(&p, grid).unwrap();
        let w: Vec<(f64, f64)> = vec![(0.3, 1.1), (1.9, 2.2), (2.8, 3.5)];
        let pb = Problem::new(t, delta, if windows { Some(&w) } else { None }).unwrap();
        let Ok((_, g)) = pb.layered(grid, true) else { return Ok(()) };
        let feasible: Vec<f64> = g.iter().copied().take_while(|x| x.is_finite()).collect();
        let scale = feasible.first().copied().unwrap_or(1.0).max(1e-12);
        for w3 in feasible.windows(3) {
            prop_assert!(w3[0] - 2.0 * w3[1] + w3[2] >= -1e-9 * scale, "not convex: {w3:?}");
        }
        if !feasible.is_empty() {
            let m = feasible.len();
            let all = pb.all_costs(m).unwrap();
            for (k, (&a, &b)) in all.iter().zip(&feasible).enumerate() {
                prop_assert!((a - b).abs() <= 1e-9 * scale, "n={}: {a} vs {b}", k + 1);
            }
        }
    }
}

#[test]
fn budget_and_spacing_errors() {
    let pb = dbworld_problem();
    assert!(matches!(
        pb.solve(0, Method::Hull),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        pb.solve(673, Method::Reference),
        Err(Error::InvalidArgument(_))
    ));
    // 28 probes at least 1.01 days apart do not fit into 28 days.
    let p = Profile::dbworld(3.0, 28.0).unwrap();
    let tight = Problem::new(CostTable::uniform(&p, 672).unwrap(), 1.01, None).unwrap();
    for m in ALL {
        assert!(
            matches!(tight.solve(28, m), Err(Error::Infeasible(_))),
            "{m:?}"
        );
        // 25 hourly slots per gap: 26 probes fit in 672 hours, 27 do not.
        assert!(tight.solve(26, m).is_ok());
        assert!(matches!(tight.solve(27, m), Err(Error::Infeasible(_))));
    }
    // Exactly one day apart: the only schedule is daily probing.
    let daily = Problem::new(CostTable::uniform(&p, 672).unwrap(), 1.0, None).unwrap();
    let s = daily.optimal(28).unwrap();
    assert_eq!(s.indices, (1..=28).map(|d| 24 * d).collect::<Vec<_>>());
    assert!(matches!(
        Problem::new(CostTable::uniform(&p, 10).unwrap(), -1.0, None),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        Problem::new(CostTable::uniform(&p, 10).unwrap(), f64::NAN, None),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        CostTable::uniform(&p, 0),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        CostTable::uniform(&p, usize::MAX),
        Err(Error::TooLarge(_))
    ));
}

#[test]
fn profile_errors() {
    assert!(PiecewiseConstant::new(&[0.0, 1.0], &[-1.0], true).is_err());
    assert!(PiecewiseConstant::new(&[0.0, 1.0], &[f64::NAN], true).is_err());
    assert!(PiecewiseConstant::new(&[0.0, 1.0, 1.0], &[1.0, 1.0], true).is_err());
    assert!(PiecewiseConstant::new(&[0.5, 1.0], &[1.0], true).is_err());
    assert!(PiecewiseConstant::new(&[0.0, 1.0], &[1.0, 2.0], true).is_err());
    let l = PiecewiseConstant::new(&[0.0, 1.0], &[1.0], false).unwrap();
    assert!(Profile::new(l.clone(), l.clone(), 2.0).is_err()); // beyond a non-periodic domain
    assert!(Profile::new(l.clone(), l, f64::INFINITY).is_err());
    assert!(Profile::dbworld(0.0, 28.0).is_err());
    let tiny = PiecewiseConstant::new(&[0.0, 1e-9], &[1.0], true).unwrap();
    assert!(matches!(
        Profile::new(tiny.clone(), tiny, 1e3),
        Err(Error::TooLarge(_))
    ));
}

/// Algorithm 10 never worsens its start and improves every baseline on
/// DBWorld; the DOE start keeps the best result (Figure 8) with the
/// fewest moves (Figure 11) for a mid-size budget.
#[test]
fn improver_on_dbworld() {
    let p = Profile::dbworld(3.0, 28.0).unwrap();
    let pb = dbworld_problem();
    let params = ImproverParams::default();
    let n = 14;
    let doe = pb.optimal(n).unwrap();
    let starts = [
        doe.times.clone(),
        baselines::uniform(&p, n).unwrap(),
        baselines::with_budget(&p, Policy::Threshold, n).unwrap().1,
        baselines::with_budget(&p, Policy::FirstArrival, n)
            .unwrap()
            .1,
    ];
    let mut res = Vec::new();
    for s in &starts {
        let r = improve(&p, s, 0.0, &params).unwrap();
        assert!(r.converged);
        assert!(r.cost <= r.start_cost);
        assert!((r.start_cost - cost::expected_cost(&p, s).unwrap()).abs() < 1e-9);
        res.push(r);
    }
    assert!(
        res[0].start_cost
            < res[1]
                .start_cost
                .min(res[2].start_cost)
                .min(res[3].start_cost)
    );
    assert!(res[1].cost < res[1].start_cost);
    // Continuous improvement of the discrete optimum: within the O(1/N)
    // bound of Proposition 8 below it.
    let (lb, ab) = p.bounds();
    let gamma = 28.0 / 672.0;
    assert!(doe.cost - res[0].cost <= ab * lb * (n as f64 / 2.0 * gamma * gamma + 28.0 * gamma));
    println!(
        "improved: {:?}",
        res.iter()
            .map(|r| (r.start_cost, r.cost, r.moves))
            .collect::<Vec<_>>()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn improver_never_worse(seed in any::<u64>(), n in 1usize..12, delta in prop_oneof![Just(0.0), 0.0f64..0.3]) {
        let p = random_profile(seed, 6, 4.0);
        let t = CostTable::uniform(&p, 40).unwrap();
        let Ok(s) = Problem::new(t, delta, None).unwrap().optimal(n) else { return Ok(()) };
        let params = ImproverParams { mu0: if delta > 0.0 { 1.0 } else { 0.5 }, ..ImproverParams::default() };
        let r = improve(&p, &s.times, delta, &params).unwrap();
        prop_assert!(r.cost <= s.cost + 1e-12);
        let mut prev = 0.0;
        for &x in &r.times {
            prop_assert!(x - prev >= delta * (1.0 - 1e-9) - 1e-12);
            prev = x;
        }
        prop_assert_eq!(*r.times.last().unwrap(), 4.0);
    }
}

/// §5.3 qualitatively: DOE is best at every n, the cost falls with n, the
/// absolute gap to the other policies shrinks as n grows, and the gain
/// over uniform is larger for MicroNet than for DBWorld.
#[test]
fn paper_qualitative_results() {
    let mut gains = Vec::new();
    for (name, prof) in [
        ("dbworld", Profile::dbworld(3.0, 28.0).unwrap()),
        ("micronet", Profile::micronet(3.0, 28.0).unwrap()),
    ] {
        let pb = Problem::new(CostTable::uniform(&prof, 672).unwrap(), 0.0, None).unwrap();
        let g = pb.all_costs(60).unwrap();
        for w in g.windows(2) {
            assert!(w[1] <= w[0]);
        }
        let mut prev_gap = f64::INFINITY;
        let mut row = Vec::new();
        for n in [4, 8, 14, 28, 56] {
            let opt = pb.optimal(n).unwrap().cost;
            assert!((opt - g[n - 1]).abs() < 1e-9 * opt);
            let uni = cost::expected_cost(&prof, &baselines::uniform(&prof, n).unwrap()).unwrap();
            let thr = cost::expected_cost(
                &prof,
                &baselines::with_budget(&prof, Policy::Threshold, n)
                    .unwrap()
                    .1,
            )
            .unwrap();
            let fa = cost::expected_cost(
                &prof,
                &baselines::with_budget(&prof, Policy::FirstArrival, n)
                    .unwrap()
                    .1,
            )
            .unwrap();
            println!(
                "{name} n={n}: DOE {opt:.3} uniform {uni:.3} threshold {thr:.3} first-arrival {fa:.3}"
            );
            assert!(opt < uni && opt < thr && opt < fa);
            let gap = uni - opt;
            assert!(gap < prev_gap);
            prev_gap = gap;
            row.push(1.0 - opt / uni);
        }
        gains.push(row);
    }
    for (d, m) in gains[0].iter().zip(&gains[1]) {
        assert!(m > d, "MicroNet gain {m} should exceed DBWorld gain {d}");
    }
}

#[test]
fn estimation_recovers_dbworld_and_rejects_bad_input() {
    let truth = Profile::dbworld(3.0, 7.0 * 200.0).unwrap();
    let trace = truth.sample_updates(7, 10_000_000).unwrap();
    let breaks = truth.intensity().breaks().to_vec();
    let est = profile::estimate_intensity(&trace, 1400.0, &breaks, true, 0.0).unwrap();
    for (k, (&e, &t)) in est
        .values()
        .iter()
        .zip(truth.intensity().values())
        .enumerate()
    {
        // Count ~ Poisson(t · exposure): 5 standard errors.
        let exposure = 200.0 * (breaks[k + 1] - breaks[k]);
        let se = (t / exposure).sqrt();
        assert!((e - t).abs() < 5.0 * se, "piece {k}: {e} vs {t}");
    }
    // Smoothing pulls toward the overall rate; never-observed pieces need it.
    let short = [0.1, 0.2, 0.3];
    assert!(profile::estimate_intensity(&short, 0.5, &[0.0, 0.5, 1.0], true, 0.0).is_err());
    let sm = profile::estimate_intensity(&short, 0.5, &[0.0, 0.5, 1.0], true, 1.0).unwrap();
    assert!((sm.values()[0] - (3.0 + 6.0) / 1.5).abs() < 1e-12);
    assert!((sm.values()[1] - 6.0).abs() < 1e-12);
    assert!(matches!(
        profile::estimate_intensity(&[0.2, 0.1], 1.0, &[0.0, 1.0], true, 0.0),
        Err(Error::InvalidArgument(_))
    ));
    assert!(profile::estimate_intensity(&[f64::NAN], 1.0, &[0.0, 1.0], true, 0.0).is_err());
    assert!(profile::estimate_intensity(&[2.0], 1.0, &[0.0, 1.0], true, 0.0).is_err());
    assert!(profile::estimate_intensity(&[0.5], 1.0, &[0.0, 1.0], true, -1.0).is_err());
}

/// Realized cost: a hand-computed trace, and Monte Carlo mean ≈ expected
/// cost (eq. 5 is its expectation).
#[test]
fn realized_cost_closed_form_and_monte_carlo() {
    let l = PiecewiseConstant::constant(2.0).unwrap();
    let a = PiecewiseConstant::new(&[0.0, 1.0, 2.0], &[1.0, 3.0], true).unwrap();
    let p = Profile::new(l, a, 4.0).unwrap();
    // Probes 1.5 and 4; updates 0.5 (waits 0.5·1 + 0.5·3 = 2), 1.5 (0),
    // 3.25 (0.75·1 = 0.75... 3.25 is in [3, 4): a = 3 → 2.25).
    let c = cost::realized_cost(&p, &[1.5, 4.0], &[0.0, 0.5, 1.5, 3.25]).unwrap();
    assert!((c - (2.0 + 0.0 + 2.25)).abs() < 1e-12);
    assert!(cost::realized_cost(&p, &[1.5, 4.0], &[0.5, 0.2]).is_err());
    assert!(cost::realized_cost(&p, &[1.5, 4.0], &[5.0]).is_err());
    assert!(cost::realized_cost(&p, &[1.5, 3.0], &[]).is_err());
    assert!(cost::expected_cost(&p, &[2.0, 1.0, 4.0]).is_err());
    let db = Profile::dbworld(3.0, 28.0).unwrap();
    let sched = dbworld_problem().optimal(14).unwrap();
    let runs = 400;
    let xs: Vec<f64> = (0..runs)
        .map(|s| {
            cost::realized_cost(&db, &sched.times, &db.sample_updates(s, 1_000_000).unwrap())
                .unwrap()
        })
        .collect();
    let mean = xs.iter().sum::<f64>() / runs as f64;
    let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (runs - 1) as f64).sqrt();
    assert!(
        (mean - sched.cost).abs() < 4.0 * sd / (runs as f64).sqrt(),
        "{mean} vs {}",
        sched.cost
    );
}

#[test]
fn planner_replans_and_windows() {
    let p = Profile::dbworld(3.0, 28.0).unwrap();
    let mut pl = Planner::new(p.clone(), 672, 0.0, None).unwrap();
    let a = pl.plan(14).unwrap();
    assert!((a.cost - 168.9081).abs() < 5e-5);
    // Re-estimate λ as a flat rate: optimum becomes the importance-driven one.
    pl.set_intensity(PiecewiseConstant::constant(5.0).unwrap())
        .unwrap();
    let b = pl.plan(14).unwrap();
    assert!(b.indices != a.indices);
    // Work-hour windows: every probe but the final one inside [9:00, 18:00].
    let w = profile::work_hour_windows(9.0, 18.0, 28.0).unwrap();
    pl.set_constraints(1.0 / 24.0, Some(w.clone())).unwrap();
    let c = pl.plan(20).unwrap();
    for &x in &c.times[..19] {
        assert!(
            w.iter().any(|&(s, e)| s <= x + 1e-12 && x <= e + 1e-12),
            "{x}"
        );
    }
    // 20 weekdays × 10 hourly slots in [9, 18] (+T) hold at most 201 probes.
    assert!(matches!(pl.plan(202), Err(Error::Infeasible(_))));
    assert!(pl.plan(201).is_ok());
    assert!(pl.set_constraints(-1.0, None).is_err());
    assert!(
        pl.plan(201).is_ok(),
        "failed update leaves the planner unchanged"
    );
}

#[test]
fn control_caps_cancels_and_leaves_results_unchanged() {
    use crate::limits::Control;
    let plain = dbworld_problem();
    let mut pb = dbworld_problem();
    let control = Control::new();
    pb.set_control(control.clone());
    // Without limits: identical schedules (n = 28: 80.5915, paper notes).
    for m in ALL {
        let s = pb.solve(28, m).unwrap();
        assert_eq!(s, plain.solve(28, m).unwrap(), "{m:?}");
        assert!((s.cost - 80.5915).abs() < 5e-5);
    }
    assert_eq!(pb.all_costs(56).unwrap(), plain.all_costs(56).unwrap());
    // An iteration is one pass over the grid: the layered methods take
    // exactly n (one per layer).
    for m in [Method::Reference, Method::DivideConquer, Method::Hull] {
        control.set_max_iterations(Some(27));
        let e = pb.solve(28, m).unwrap_err();
        assert!(
            matches!(&e, Error::NotConverged(s) if s.contains("iteration cap of 27")),
            "{m:?} {e:?}"
        );
        control.set_max_iterations(Some(28));
        assert_eq!(
            pb.solve(28, m).unwrap(),
            plain.solve(28, m).unwrap(),
            "{m:?}"
        );
    }
    // The Lagrangian search needs at least its two end multipliers.
    control.set_max_iterations(Some(1));
    assert!(matches!(
        pb.solve(28, Method::Lagrangian),
        Err(Error::NotConverged(_))
    ));
    assert!(matches!(pb.all_costs(56), Err(Error::NotConverged(_))));
    control.set_max_iterations(None);
    control.cancel();
    for m in ALL {
        assert!(matches!(pb.solve(28, m), Err(Error::Cancelled(_))), "{m:?}");
    }
    assert!(matches!(pb.all_costs(56), Err(Error::Cancelled(_))));
    control.reset();
    // Memory: 4-byte back-pointers for n (N + 1) cells plus 24 (N + 1).
    let need = 28 * 673 * 4 + 673 * 24;
    control.set_memory_limit(Some(need - 1));
    let e = pb.solve(28, Method::Hull).unwrap_err();
    assert!(
        matches!(&e, Error::TooLarge(s) if s.contains(&format!("{need} bytes"))),
        "{e:?}"
    );
    control.set_memory_limit(Some(need));
    assert!(pb.solve(28, Method::Hull).is_ok());
}

#[test]
fn planner_keeps_its_control_and_a_cancel_from_another_thread_stops_the_dp() {
    use crate::limits::Control;
    // The reference DP over 20,000 candidates with n = 100 needs ~2e10
    // interval costs: only the cancel ends it.
    let p = Profile::dbworld(3.0, 28.0).unwrap();
    let mut pl = Planner::new(p.clone(), 20_000, 0.0, None).unwrap();
    let control = Control::new();
    pl.set_control(control.clone());
    // Kept across re-planning.
    pl.set_profile(p).unwrap();
    pl.set_constraints(0.0, None).unwrap();
    assert_eq!(pl.control(), &control);
    // Rebuilding the grid checks its 41 bytes per point against the cap.
    control.set_memory_limit(Some(20_001 * 41 - 1));
    let e = pl.set_constraints(0.0, None).unwrap_err();
    assert!(
        matches!(&e, Error::TooLarge(m) if m.contains("820041 bytes")),
        "{e:?}"
    );
    control.set_memory_limit(None);
    let c2 = control.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        c2.cancel();
    });
    let r = pl.problem().solve(100, Method::Reference);
    canceller.join().unwrap();
    assert!(matches!(r, Err(Error::Cancelled(_))), "{r:?}");
    assert!(matches!(pl.plan(100), Err(Error::Cancelled(_))));
    control.reset();
    pl.set_control(Control::default());
    control.cancel();
    assert_eq!(pl.plan(4).unwrap().indices.len(), 4);
}

/// C̄(s, f) needs 0 <= s <= f <= T, for a Rust caller as for C.
#[test]
fn interval_cost_checks_its_interval() {
    let p = random_profile(3, 4, 4.0);
    for (s, f) in [
        (3.0, 1.0),
        (-1.0, 1.0),
        (1.0, 5.0),
        (f64::NAN, 1.0),
        (0.0, f64::INFINITY),
    ] {
        assert_eq!(
            p.interval_cost(s, f).unwrap_err(),
            Error::InvalidArgument(format!(
                "need 0 <= s <= f <= T = 4, got s = {}, f = {}",
                Num(s),
                Num(f)
            ))
        );
    }
    // An empty interval costs nothing; the whole horizon is the signed form.
    assert_eq!(p.interval_cost(2.0, 2.0), Ok(0.0));
    assert_eq!(
        p.interval_cost(0.0, 4.0),
        Ok(p.signed_interval_cost(0.0, 4.0))
    );
}
