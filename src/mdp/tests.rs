use super::*;
use crate::error::Error;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A random MDP: every row reaches `fanout` random states plus a chain edge
/// s → s+1 (so every policy is unichain when `dense`), random costs.
fn random_mdp(n: usize, actions: usize, fanout: usize, seed: u64) -> Mdp {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut b = MdpBuilder::new(n).unwrap();
    for s in 0..n {
        for _ in 0..actions {
            let mut next = vec![((s + 1) % n) as u32, 0];
            let mut w = vec![rng.random::<f64>() + 0.1, 0.05];
            for _ in 0..fanout {
                next.push(rng.random_range(0..n) as u32);
                w.push(rng.random::<f64>());
            }
            let t: f64 = w.iter().sum();
            let p: Vec<f64> = w.iter().map(|x| x / t).collect();
            b.add_action(s, &next, &p, rng.random::<f64>() * 10.0 - 2.0)
                .unwrap();
        }
    }
    b.build().unwrap()
}

/// Every deterministic policy, evaluated exactly: the minimum gain.
fn brute_force_gain(m: &Mdp) -> f64 {
    let n = m.n_states();
    let mut pol = vec![0u32; n];
    let mut best = f64::INFINITY;
    loop {
        best = best.min(evaluate_average(m, &pol).unwrap().gain);
        let mut i = 0;
        loop {
            if i == n {
                return best;
            }
            pol[i] += 1;
            if (pol[i] as usize) < m.n_actions(i) {
                break;
            }
            pol[i] = 0;
            i += 1;
        }
    }
}

fn opts(method: Method) -> Options {
    Options {
        method,
        ..Options::default()
    }
}

#[test]
fn all_solvers_agree_with_brute_force() {
    for seed in 0..6 {
        let m = random_mdp(7, 3, 2, seed);
        let g = brute_force_gain(&m);
        for method in [
            Method::PolicyIteration,
            Method::RelativeValueIteration,
            Method::ValueIteration,
            Method::GaussSeidel,
        ] {
            let s = solve(&m, &opts(method)).unwrap();
            assert!(s.converged, "{method:?}");
            assert!(
                s.bound_lo <= g + 1e-12 && g <= s.bound_hi + 1e-12,
                "{method:?}: {g} not in [{}, {}]",
                s.bound_lo,
                s.bound_hi
            );
            assert!((s.gain - g).abs() < 1e-9, "{method:?}: {} vs {g}", s.gain);
            assert_eq!(s.recurrent_classes, 1);
            // The policy found is optimal: its exact gain is g.
            let e = evaluate_average(&m, &s.policy).unwrap();
            assert!((e.gain - g).abs() < 1e-9, "{method:?}");
        }
    }
}

#[test]
fn bias_solves_the_optimality_equation() {
    let m = random_mdp(40, 2, 3, 11);
    let s = solve(&m, &opts(Method::PolicyIteration)).unwrap();
    for x in 0..m.n_states() {
        let best = (0..m.n_actions(x))
            .map(|a| {
                let (nx, p) = m.transitions(x, a).unwrap();
                m.cost(x, a).unwrap()
                    + nx.iter()
                        .zip(p)
                        .map(|(&j, &pj)| pj * s.values[j as usize])
                        .sum::<f64>()
            })
            .fold(f64::INFINITY, f64::min);
        assert!((s.gain + s.values[x] - best).abs() < 1e-9);
    }
    // Stationary distribution: π P = π, Σ π = 1, and π·c = g.
    let e = evaluate_average(&m, &s.policy).unwrap();
    let mut pp = vec![0.0; m.n_states()];
    let mut pc = 0.0;
    for x in 0..m.n_states() {
        let a = s.policy[x] as usize;
        let (nx, p) = m.transitions(x, a).unwrap();
        for (&j, &pj) in nx.iter().zip(p) {
            pp[j as usize] += e.stationary[x] * pj;
        }
        pc += e.stationary[x] * m.cost(x, a).unwrap();
    }
    for (a, b) in pp.iter().zip(&e.stationary) {
        assert!((a - b).abs() < 1e-12);
    }
    assert!((e.stationary.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!((pc - s.gain).abs() < 1e-10);
}

#[test]
fn discounted_solvers_agree_with_brute_force() {
    let m = random_mdp(6, 2, 2, 3);
    let beta = 0.9;
    // Brute force: the optimal value is the pointwise minimum over policies.
    let n = m.n_states();
    let mut best = vec![f64::INFINITY; n];
    for code in 0..(1u32 << n) {
        let pol: Vec<u32> = (0..n).map(|i| (code >> i) & 1).collect();
        let v = evaluate_discounted(&m, &pol, beta).unwrap();
        for (b, x) in best.iter_mut().zip(&v) {
            *b = b.min(*x);
        }
    }
    for method in [
        Method::PolicyIteration,
        Method::ValueIteration,
        Method::GaussSeidel,
    ] {
        let s = solve(
            &m,
            &Options {
                method,
                criterion: Criterion::Discounted(beta),
                ..Options::default()
            },
        )
        .unwrap();
        assert!(s.converged);
        for (v, b) in s.values.iter().zip(&best) {
            assert!((v - b).abs() < 1e-8, "{method:?}");
            assert!(b - v >= s.bound_lo - 1e-12 && b - v <= s.bound_hi + 1e-12);
        }
    }
}

#[test]
fn periodic_chain_needs_the_aperiodicity_transform() {
    // Two states swapping deterministically, costs 1 and 0: gain 1/2.
    let mut b = MdpBuilder::new(2).unwrap();
    b.add_action(0, &[1], &[1.0], 1.0).unwrap();
    b.add_action(1, &[0], &[1.0], 0.0).unwrap();
    let m = b.build().unwrap();
    let plain = Options {
        method: Method::RelativeValueIteration,
        aperiodicity: Some(1.0),
        max_iterations: 500,
        ..Options::default()
    };
    let s = solve(&m, &plain).unwrap();
    assert!(
        !s.converged,
        "without the transform value iteration oscillates"
    );
    assert!(s.bound_lo <= 0.5 && 0.5 <= s.bound_hi);
    for method in [
        Method::RelativeValueIteration,
        Method::ValueIteration,
        Method::GaussSeidel,
        Method::PolicyIteration,
    ] {
        let s = solve(&m, &opts(method)).unwrap();
        assert!(s.converged, "{method:?}");
        assert!((s.gain - 0.5).abs() < 1e-9, "{method:?}");
        // Bias of the original chain: h(1) − h(0) = −1/2.
        assert!(
            (s.values[1] - s.values[0] + 0.5).abs() < 1e-8,
            "{method:?}: {:?}",
            s.values
        );
    }
}

#[test]
fn multichain_policies_are_detected() {
    // Two absorbing states with different costs; state 2 chooses where to go.
    let mut b = MdpBuilder::new(3).unwrap();
    b.add_action(0, &[0], &[1.0], 1.0).unwrap();
    b.add_action(1, &[1], &[1.0], 2.0).unwrap();
    b.add_action(2, &[0], &[1.0], 0.0).unwrap();
    b.add_action(2, &[1], &[1.0], 0.0).unwrap();
    let m = b.build().unwrap();
    let (k, class) = recurrent_classes(&m, &[0, 0, 0]).unwrap();
    assert_eq!(k, 2);
    assert_eq!(class[2], u32::MAX);
    assert!(matches!(
        evaluate_average(&m, &[0, 0, 0]),
        Err(Error::Infeasible(_))
    ));
    let s = solve(&m, &opts(Method::RelativeValueIteration)).unwrap();
    assert_eq!(s.recurrent_classes, 2);
    assert!(!s.converged, "gains differ by state: the span never closes");
}

#[test]
fn iteration_limit_keeps_the_best_answer() {
    let m = random_mdp(30, 2, 2, 5);
    let exact = solve(&m, &Options::default()).unwrap().gain;
    let s = solve(
        &m,
        &Options {
            method: Method::RelativeValueIteration,
            max_iterations: 3,
            ..Options::default()
        },
    )
    .unwrap();
    assert!(!s.converged);
    assert_eq!(s.iterations, 3);
    assert!(s.bound_lo <= exact && exact <= s.bound_hi);
    assert!(matches!(s.into_result(), Err(Error::NotConverged(_))));
}

#[test]
fn builder_validates_rows() {
    let mut b = MdpBuilder::new(2).unwrap();
    assert!(b.add_action(2, &[0], &[1.0], 0.0).is_err());
    assert!(b.add_action(0, &[2], &[1.0], 0.0).is_err());
    assert!(b.add_action(0, &[0, 1], &[0.5, 0.4], 0.0).is_err());
    assert!(b.add_action(0, &[0, 1], &[1.5, -0.5], 0.0).is_err());
    assert!(b.add_action(0, &[0], &[f64::NAN], 0.0).is_err());
    assert!(b.add_action(0, &[0], &[1.0], f64::INFINITY).is_err());
    assert!(b.add_action(0, &[], &[], 0.0).is_err());
    assert!(b.add_action(0, &[0], &[1.0, 0.0], 0.0).is_err());
    assert!(b.add_action(0, &[0, 1], &[0.5, 0.5 + 1e-10], 0.0).is_ok());
    assert!(
        matches!(b.clone().build(), Err(Error::InvalidArgument(_))),
        "state 1 has no action"
    );
    assert!(MdpBuilder::new(0).is_err());
    assert!(matches!(
        MdpBuilder::new(usize::MAX),
        Err(Error::TooLarge(_))
    ));
    // Out-of-order states are sorted, keeping each state's action order.
    let mut b = MdpBuilder::new(2).unwrap();
    b.add_action(1, &[0], &[1.0], 5.0).unwrap();
    b.add_action(0, &[1], &[1.0], 1.0).unwrap();
    assert_eq!(b.add_action(1, &[1], &[1.0], 7.0).unwrap(), 1);
    let m = b.build().unwrap();
    assert_eq!(m.cost(1, 0).unwrap(), 5.0);
    assert_eq!(m.cost(1, 1).unwrap(), 7.0);
    assert_eq!(m.cost(0, 0).unwrap(), 1.0);
}

#[test]
fn options_are_validated() {
    let m = random_mdp(3, 2, 1, 1);
    for o in [
        Options {
            tolerance: 0.0,
            ..Options::default()
        },
        Options {
            tolerance: f64::NAN,
            ..Options::default()
        },
        Options {
            max_iterations: 0,
            ..Options::default()
        },
        Options {
            aperiodicity: Some(0.0),
            ..Options::default()
        },
        Options {
            aperiodicity: Some(1.5),
            ..Options::default()
        },
        Options {
            criterion: Criterion::Discounted(1.0),
            ..Options::default()
        },
        Options {
            reference_state: 3,
            ..Options::default()
        },
        Options {
            initial_policy: Some(vec![0, 0]),
            ..Options::default()
        },
        Options {
            initial_policy: Some(vec![0, 0, 2]),
            ..Options::default()
        },
    ] {
        assert!(
            matches!(solve(&m, &o), Err(Error::InvalidArgument(_))),
            "{o:?}"
        );
    }
}

/// A random MDP whose actions draw their transition rows from a pool of
/// `pool` rows (post-decision states), so that many states share rows;
/// each row also reaches its pool index's state, keeping policies unichain.
fn shared_rows_mdp(n: usize, pool: usize, actions: usize, seed: u64) -> Mdp {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let rows: Vec<(Vec<u32>, Vec<f64>)> = (0..pool)
        .map(|r| {
            let mut next = vec![(r * n / pool) as u32, ((r * n / pool + 1) % n) as u32];
            let mut w = vec![rng.random::<f64>() + 0.1, rng.random::<f64>() + 0.1];
            next.push(rng.random_range(0..n) as u32);
            w.push(rng.random::<f64>());
            let t: f64 = w.iter().sum();
            (next, w.iter().map(|x| x / t).collect())
        })
        .collect();
    let mut b = MdpBuilder::new(n).unwrap();
    for s in 0..n {
        for _ in 0..actions {
            let (next, p) = &rows[rng.random_range(0..pool)];
            b.add_action(s, next, p, rng.random::<f64>() * 4.0).unwrap();
        }
    }
    b.build().unwrap()
}

fn assert_same_evaluation(m: &Mdp, pol: &[u32], what: &str) {
    let plain = evaluate_average_with(m, pol, Reduction::Never).unwrap();
    let reduced = evaluate_average_with(m, pol, Reduction::Always).unwrap();
    let scale = 1.0 + plain.bias.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    assert!(
        (plain.gain - reduced.gain).abs() <= 1e-12 * (1.0 + plain.gain.abs()),
        "{what}: gain {} vs {}",
        plain.gain,
        reduced.gain
    );
    // Biases may differ by a constant (different reference states).
    let shift = reduced.bias[plain.reference];
    for (a, b) in plain.bias.iter().zip(&reduced.bias) {
        assert!(
            (a - (b - shift)).abs() <= 1e-9 * scale,
            "{what}: bias {a} vs {}",
            b - shift
        );
    }
    for (a, b) in plain.stationary.iter().zip(&reduced.stationary) {
        assert!((a - b).abs() <= 1e-12, "{what}: stationary {a} vs {b}");
    }
    assert_eq!(reduced.bias[reduced.reference], 0.0);
    for beta in [0.5, 0.99] {
        let vp = evaluate_discounted_with(m, pol, beta, Reduction::Never).unwrap();
        let vr = evaluate_discounted_with(m, pol, beta, Reduction::Always).unwrap();
        let sc = 1.0 + vp.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        for (a, b) in vp.iter().zip(&vr) {
            assert!(
                (a - b).abs() <= 1e-11 * sc,
                "{what}, beta {beta}: {a} vs {b}"
            );
        }
    }
}

#[test]
fn evaluation_on_shared_rows_equals_the_plain_evaluation() {
    // Rows shared 5 to 1, and no sharing at all (one class per state).
    for seed in 0..4 {
        let m = shared_rows_mdp(60, 12, 3, seed);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed + 100);
        let pol: Vec<u32> = (0..60).map(|_| rng.random_range(0..3)).collect();
        assert_same_evaluation(&m, &pol, "shared rows");
        let m = random_mdp(40, 2, 3, seed);
        assert_same_evaluation(&m, &[1; 40], "distinct rows");
    }
    // The robots model: states after the same post-decision pair share rows.
    let rm =
        crate::robots::RobotsMdp::new(crate::robots::Params::new(6, 5, 0.2, 1.0, 3.0).unwrap())
            .unwrap();
    let pol = rm
        .policy_from(|q, r, s| if s == 0 { r < 4 || q < 2 } else { r <= 3 })
        .unwrap();
    assert_same_evaluation(&rm.mdp, &pol, "robots");
    // Auto reduces the robots model (about one class per three states).
    let (class, rep) = super::chain::row_classes_for_tests(&rm.mdp, &pol);
    assert_eq!(class.len(), rm.mdp.n_states());
    assert!(
        3 * rep.len() < 2 * rm.mdp.n_states(),
        "{} classes for {} states",
        rep.len(),
        rm.mdp.n_states()
    );
}

#[test]
fn policy_iteration_on_shared_rows_matches_brute_force() {
    for seed in 0..4 {
        let m = shared_rows_mdp(8, 3, 2, seed);
        let g = brute_force_gain(&m);
        let s = solve(&m, &Options::default()).unwrap();
        assert!(
            s.converged
                && (s.gain - g).abs() < 1e-10
                && s.bound_lo <= g + 1e-12
                && g <= s.bound_hi + 1e-12
        );
    }
}

#[test]
fn cancelled_control_stops_every_method_with_the_best_answer() {
    let m = random_mdp(30, 2, 2, 7);
    let exact = solve(&m, &Options::default()).unwrap().gain;
    for method in [
        Method::PolicyIteration,
        Method::RelativeValueIteration,
        Method::ValueIteration,
        Method::GaussSeidel,
    ] {
        for criterion in [Criterion::Average, Criterion::Discounted(0.9)] {
            let control = crate::limits::Control::new();
            control.cancel();
            let o = Options {
                method,
                criterion,
                control,
                ..Options::default()
            };
            let s = solve(&m, &o).unwrap();
            assert!(s.cancelled && !s.converged, "{method:?} {criterion:?}");
            if criterion == Criterion::Average {
                // Even a cancelled answer carries a valid certificate.
                assert!(
                    s.bound_lo <= exact + 1e-9 && exact <= s.bound_hi + 1e-9,
                    "{method:?}"
                );
            }
            assert!(matches!(s.into_result(), Err(Error::Cancelled(_))));
        }
    }
}

#[test]
fn cancel_from_another_thread_stops_a_long_solve() {
    // Value iteration on a 20,000-state random MDP with a tolerance it
    // cannot reach in 10^9 sweeps: only the cancel can end it.
    let m = random_mdp(20_000, 2, 2, 3);
    let control = crate::limits::Control::new();
    let o = Options {
        method: Method::ValueIteration,
        tolerance: 1e-300,
        max_iterations: 1_000_000_000,
        control: control.clone(),
        ..Options::default()
    };
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        control.cancel();
    });
    let s = solve(&m, &o).unwrap();
    canceller.join().unwrap();
    assert!(s.cancelled && !s.converged);
    assert!(s.iterations < 1_000_000_000);
}

#[test]
fn control_iteration_cap_lowers_the_limit() {
    let m = random_mdp(30, 2, 2, 5);
    let control = crate::limits::Control::new();
    control.set_max_iterations(Some(4));
    let s = solve(
        &m,
        &Options {
            method: Method::GaussSeidel,
            control,
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(s.iterations, 4);
    assert!(!s.converged && !s.cancelled);
    assert!(matches!(s.into_result(), Err(Error::NotConverged(_))));
}

#[test]
fn memory_cap_refuses_the_solve_with_states_and_bytes() {
    let m = random_mdp(1000, 2, 2, 1);
    let control = crate::limits::Control::new();
    // Value iteration needs 44 bytes per state: 44,000 bytes.
    assert_eq!(working_bytes(&m, Method::ValueIteration), Some(44_000));
    control.set_memory_limit(Some(40_000));
    let o = Options {
        method: Method::ValueIteration,
        control: control.clone(),
        ..Options::default()
    };
    let e = solve(&m, &o).unwrap_err();
    let Error::TooLarge(msg) = e else {
        panic!("{e:?}")
    };
    assert!(
        msg.contains("1000 states") && msg.contains("44000 bytes") && msg.contains("40000 bytes"),
        "{msg}"
    );
    control.set_memory_limit(Some(44_000));
    assert!(solve(&m, &o).unwrap().converged);
}

/// Two wells: states 0..n drift (0.6 vs 0.4) towards 0 in the lower half
/// and towards n − 1 in the upper half, so crossing from one well to the
/// other takes ~1.5^(n/2) steps. The reference lies in one well, the mean
/// times w to reach it from the other are ~1e10, and h = u − g·w cancels
/// ten digits: a plain LU solve leaves a residual of ~1e-6 relative to h
/// (as the robots model at 10^6 states does), iterative refinement
/// brings it back to round-off.
fn two_wells(n: usize) -> Mdp {
    let mut b = MdpBuilder::new(n).expect("builder");
    for s in 0..n {
        let (down, up) = if s < n / 2 { (0.6, 0.4) } else { (0.4, 0.6) };
        let lo = s.saturating_sub(1) as u32;
        let hi = (s + 1).min(n - 1) as u32;
        // Symmetric costs: both wells have the same average, so h stays
        // moderate while u and g·w grow like w.
        let cost = 1.0 + (s.min(n - 1 - s) % 3) as f64;
        b.add_action(s, &[lo, hi], &[down, up], cost).expect("row");
    }
    b.build().expect("mdp")
}

#[test]
fn slowly_mixing_chain_is_evaluated_to_round_off() {
    for n in [100, 120, 130] {
        let m = two_wells(n);
        let pol = vec![0u32; n];
        for reduction in [Reduction::Auto, Reduction::Never] {
            let e = chain::evaluate_average_with(&m, &pol, reduction).expect("evaluation");
            let scale = e.bias.iter().fold(e.gain.abs(), |a, v| a.max(v.abs()));
            assert!(
                e.residual <= 1e-13 * scale,
                "n = {n}: residual {:e}, scale {scale:e}",
                e.residual
            );
            // Balance of the stationary distribution: π = π P.
            let mut pp = vec![0.0; n];
            for s in 0..n {
                let (nx, p) = m.row(s);
                for (&j, &pj) in nx.iter().zip(p) {
                    pp[j as usize] += e.stationary[s] * pj;
                }
            }
            let worst = pp
                .iter()
                .zip(&e.stationary)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            assert!(worst <= 1e-14, "n = {n}: balance {worst:e}");
            // Each well holds half the mass (symmetry); the distribution of a
            // nearly decomposable chain is itself ill-conditioned (~1e-16·w).
            let lower: f64 = e.stationary[..n / 2].iter().sum();
            assert!(
                (lower - 0.5).abs() < 1e-6,
                "n = {n}: lower-half mass {lower}"
            );
        }
    }
}

/// A builder reports a state without actions before it is given up, so
/// the action can be added and the build retried.
#[test]
fn builder_completeness_is_checked_without_consuming_it() {
    let mut b = MdpBuilder::new(2).unwrap();
    b.add_action(0, &[1], &[1.0], 1.0).unwrap();
    let missing = Error::InvalidArgument("state 1 has no action".into());
    assert_eq!(b.check_complete(), Err(missing.clone()));
    assert_eq!(b.clone().build().unwrap_err(), missing);
    b.add_action(1, &[0], &[1.0], 3.0).unwrap();
    assert_eq!(b.check_complete(), Ok(()));
    // The two-state cycle alternates costs 1 and 3: gain 2.
    let sol = solve(&b.build().unwrap(), &Options::default()).unwrap();
    assert!((sol.gain - 2.0).abs() < 1e-9);
}

/// The option setters refuse what solve refuses, and leave the options
/// unchanged.
#[test]
fn option_setters_check_like_solve() {
    let mut o = Options::default();
    let before = o.clone();
    assert_eq!(
        o.set_limits(-1.0, 10, Stopping::Span),
        Err(Error::InvalidArgument(
            "tolerance must be finite and > 0, got -1".into()
        ))
    );
    assert_eq!(
        o.set_limits(1e-6, 0, Stopping::Span),
        Err(Error::InvalidArgument("max_iterations must be >= 1".into()))
    );
    assert_eq!(
        o.set_criterion(Criterion::Discounted(1.5), None),
        Err(Error::InvalidArgument(
            "discount must be in [0, 1), got 1.5".into()
        ))
    );
    assert_eq!(
        o.set_criterion(Criterion::Average, Some(0.0)),
        Err(Error::InvalidArgument(
            "tau must be in (0, 1], got 0".into()
        ))
    );
    assert_eq!(o, before);
    o.set_limits(1e-6, 7, Stopping::RelativeChange).unwrap();
    o.set_criterion(Criterion::Discounted(0.5), Some(0.9))
        .unwrap();
    assert_eq!(
        (
            o.tolerance,
            o.max_iterations,
            o.stopping,
            o.criterion,
            o.aperiodicity
        ),
        (
            1e-6,
            7,
            Stopping::RelativeChange,
            Criterion::Discounted(0.5),
            Some(0.9)
        )
    );
}
