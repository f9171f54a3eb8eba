use super::*;
use crate::error::Error;
use crate::mdp::{Method, Options, Stopping};

/// γ as the dynamic columns of the paper's tables used it: the rows
/// printed γ = 1.13 (K = 15) were computed with γ = 17/15 (errata).
fn dyn_gamma(gamma: f64) -> f64 {
    if gamma == 1.13 { 17.0 / 15.0 } else { gamma }
}

/// Table 1 row: λ, K, γ, C_s, N_s, C_d, N_min, N̄.
type Row1 = (f64, usize, f64, f64, usize, f64, usize, f64);

const TABLE1_LAMBDA_01: [Row1; 9] = [
    (0.1, 5, 0.4, 0.17600, 7, 0.15239, 1, 6.5),
    (0.1, 5, 1.4, 0.40000, 10, 0.32198, 4, 8.6),
    (0.1, 5, 2.4, 0.54067, 11, 0.44989, 5, 9.3),
    (0.1, 10, 0.4, 0.10403, 9, 0.06838, 0, 8.4),
    (0.1, 10, 1.2, 0.20000, 10, 0.13854, 2, 9.0),
    (0.1, 10, 2.4, 0.28347, 11, 0.18585, 3, 9.6),
    (0.1, 15, 0.4, 0.07184, 9, 0.05326, 0, 8.7),
    (0.1, 15, 1.13, 0.13313, 10, 0.08538, 1, 9.3),
    (0.1, 15, 2.4, 0.19458, 11, 0.09606, 1, 9.7),
];

const TABLE1_SAMPLE: [Row1; 4] = [
    (0.05, 5, 1.4, 0.40000, 20, 0.34733, 12, 17.7),
    (0.05, 10, 2.4, 0.28347, 22, 0.20541, 10, 19.4),
    (0.05, 15, 1.13, 0.13313, 20, 0.09117, 6, 18.7),
    (0.01, 5, 0.4, 0.17541, 73, 0.16804, 57, 70.3),
];

fn check_table1_row(&(lambda, k, gamma, cs, ns, cd, nmin, nbar): &Row1) {
    let (n_s, c_s) = optimal_static(lambda, 1.0, gamma, k).unwrap();
    assert_eq!(n_s, ns, "N_s for {lambda} {k} {gamma}");
    assert!((c_s - cs).abs() < 1e-5, "C_s {c_s} vs {cs}");
    let d = solve(&Params::new(ns, k, lambda, 1.0, dyn_gamma(gamma)).unwrap()).unwrap();
    let p = &d.performance;
    assert!(
        (p.cost - cd).abs() < 1e-4,
        "C_d {} vs {cd} ({lambda} {k} {gamma})",
        p.cost
    );
    assert!(
        d.cost_lo <= p.cost + 1e-12 && p.cost <= d.cost_hi + 1e-12 && d.cost_hi - d.cost_lo < 1e-9
    );
    assert_eq!(p.n_min, nmin, "N_min ({lambda} {k} {gamma})");
    assert!((p.n_mean - nbar).abs() < 0.1, "N̄ {} vs {nbar}", p.n_mean);
    assert!(
        d.is_switching_curve,
        "the paper's conjecture (§3) holds here"
    );
    // W = γS + L (§3).
    assert!((p.cost - (dyn_gamma(gamma) * p.starvation + p.loss_rate)).abs() < 1e-12);
}

#[test]
fn table1_every_row_for_lambda_0_1() {
    for row in &TABLE1_LAMBDA_01 {
        check_table1_row(row);
    }
}

#[test]
fn table1_sample_of_other_rows() {
    for row in &TABLE1_SAMPLE {
        check_table1_row(row);
    }
}

/// Table 2 rows: λ, K, γ, C_d, N_min, N̄, N_max.
const TABLE2_SAMPLE: [(f64, usize, f64, f64, usize, f64, usize); 7] = [
    (0.1, 5, 0.4, 0.11097, 2, 8.2, 12),
    (0.1, 5, 1.4, 0.25924, 4, 9.8, 16),
    (0.1, 5, 2.4, 0.35805, 6, 10.7, 18),
    (0.1, 10, 1.2, 0.03887, 1, 9.9, 20),
    (0.1, 15, 1.13, 0.00368, 0, 10.0, 25),
    (0.05, 5, 0.4, 0.13770, 7, 15.9, 20),
    (0.05, 15, 2.4, 0.02782, 6, 20.1, 41),
];

#[test]
fn table2_sample_with_unlimited_robots() {
    for &(lambda, k, gamma, cd, nmin, nbar, nmax) in &TABLE2_SAMPLE {
        let d = solve_unlimited(lambda, 1.0, dyn_gamma(gamma), k).unwrap();
        let p = &d.performance;
        assert!(
            (p.cost - cd).abs() < 1e-4,
            "C_d {} vs {cd} ({lambda} {k} {gamma})",
            p.cost
        );
        assert_eq!(p.n_min, nmin, "N_min ({lambda} {k} {gamma})");
        assert!((p.n_mean - nbar).abs() < 0.1, "N̄ {} vs {nbar}", p.n_mean);
        assert_eq!(p.n_max, Some(nmax), "N_max ({lambda} {k} {gamma})");
        // More robots would not help: doubling N leaves C_d unchanged.
        let twice =
            solve(&Params::new(2 * d.params.n, k, lambda, 1.0, dyn_gamma(gamma)).unwrap()).unwrap();
        assert!((twice.performance.cost - p.cost).abs() < 1e-12);
    }
}

#[test]
fn paper_figures_cost_values() {
    // Figures 2–4: N = 16, K = 5, λ = 0.1, μ = 1.
    for (gamma, cost) in [(1.0, 0.20907), (1.4, 0.25924), (2.0, 0.32211)] {
        let d = solve(&Params::new(16, 5, 0.1, 1.0, gamma).unwrap()).unwrap();
        assert!(
            (d.performance.cost - cost).abs() < 1e-4,
            "{gamma}: {}",
            d.performance.cost
        );
        // Monotone (decreasing) switching curves.
        assert!(d.is_switching_curve);
        assert!(d.f0.windows(2).all(|w| w[0] >= w[1]));
        assert!(d.f1[1..].windows(2).all(|w| w[0] >= w[1]));
        assert!(d.f0[0] >= 1);
    }
}

#[test]
fn static_closed_form_matches_the_mdp_evaluation() {
    for &(n_total, n, k, lambda, gamma) in &[
        (10usize, 7usize, 5usize, 0.1, 0.4),
        (12, 10, 15, 0.1, 1.13),
        (6, 6, 4, 0.3, 2.0),
        (5, 3, 3, 0.5, 0.0),
    ] {
        let p = Params::new(n_total, k, lambda, 1.0, gamma).unwrap();
        let e = evaluate(&p, &Policy::Static(n)).unwrap();
        let cs = static_cost(n as f64 * lambda, gamma, k, 1.0).unwrap();
        assert!((e.cost - cs).abs() < 1e-12, "{} vs {cs}", e.cost);
        assert_eq!(e.n_min, n);
        assert!((e.n_mean - n as f64).abs() < 1e-12);
        // M/M/1/K: P(empty) = (1 − ρ)/(1 − ρ^{K+1}).
        let rho: f64 = n as f64 * lambda;
        let p0 = if (rho - 1.0).abs() < 1e-12 {
            1.0 / (k as f64 + 1.0)
        } else {
            (1.0 - rho) / (1.0 - rho.powi(k as i32 + 1))
        };
        assert!((e.starvation - p0).abs() < 1e-12);
    }
    // ρ = 1 exactly: (γ + μ)/(K + 1), and continuity around it.
    assert!((static_cost(1.0, 1.13, 15, 1.0).unwrap() - 2.13 / 16.0).abs() < 1e-15);
    let (a, b) = (
        static_cost(1.0 - 1e-9, 0.7, 8, 2.0).unwrap(),
        static_cost(1.0 + 1e-9, 0.7, 8, 2.0).unwrap(),
    );
    assert!((a - b).abs() < 1e-8 && (a - 2.7 / 9.0).abs() < 1e-8);
    // Huge K and ρ > 1 do not overflow: the cost tends to μ(ρ − 1) + γ·0.
    assert!((static_cost(2.0, 1.0, 5000, 1.0).unwrap() - 1.0).abs() < 1e-12);
}

/// The exhaustive scan Proposition 3 suggests: n = 1, 2, ... until the
/// loss rate alone exceeds the best cost.
fn optimal_static_by_scan(lambda: f64, mu: f64, gamma: f64, k: usize) -> (usize, f64) {
    let mut best = (1, static_cost(lambda / mu, gamma, k, mu).unwrap());
    let mut n = 2;
    while mu * (n as f64 * lambda / mu - 1.0) <= best.1 {
        let c = static_cost(n as f64 * lambda / mu, gamma, k, mu).unwrap();
        if c < best.1 {
            best = (n, c);
        }
        n += 1;
    }
    best
}

#[test]
fn static_optimum_search_equals_the_exhaustive_scan() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..3000 {
        let lambda = 10f64.powf(rng.random_range(-4.0..1.0));
        let mu = 10f64.powf(rng.random_range(-1.0..1.0));
        let gamma = if rng.random_bool(0.1) {
            0.0
        } else {
            10f64.powf(rng.random_range(-3.0..3.0))
        };
        let k = rng.random_range(1..40);
        let got = optimal_static(lambda, mu, gamma, k).unwrap();
        let want = optimal_static_by_scan(lambda, mu, gamma, k);
        assert_eq!(got, want, "lambda {lambda} mu {mu} gamma {gamma} K {k}");
    }
    // Loads that make n = 1 .. 8 robots give ρ = 1 exactly (a tie-prone
    // spot for the bound): the same answer.
    for k in [1, 2, 5, 15] {
        for gamma in [0.0, 0.4, 1.13, 7.0] {
            assert_eq!(
                optimal_static(0.125, 1.0, gamma, k).unwrap(),
                optimal_static_by_scan(0.125, 1.0, gamma, k)
            );
        }
    }
}

#[test]
fn static_optimum_with_tiny_lambda_over_mu_is_exact_and_immediate() {
    // λ/μ = 1e-9: about 10^9 candidate n, which a scan would take seconds for.
    // The optimum sits near ρ ≈ 1 (n ≈ 10^9); its neighbours are no better.
    let (lambda, mu, gamma, k) = (1e-9, 1.0, 0.4, 5);
    let (n, c) = optimal_static(lambda, mu, gamma, k).unwrap();
    for m in [n - 1, n + 1] {
        assert!(static_cost(m as f64 * lambda / mu, gamma, k, mu).unwrap() >= c);
    }
    assert!((n as f64 * lambda / mu - 1.0).abs() < 0.5, "n = {n}");
    // Too many candidates to index exactly in a double: refused.
    assert!(matches!(
        optimal_static(1e-300, 1.0, 0.4, 5),
        Err(Error::TooLarge(_))
    ));
}

#[test]
fn static_cost_near_rho_one_with_a_huge_buffer_is_immediate_and_accurate() {
    // K = 2^62 next to ρ = 1: a direct sum would take 2^62 terms.
    let k = 1usize << 62;
    let rho = 1.0 - 1e-12;
    let c = static_cost(rho, 1.0, k, 1.0).unwrap();
    // ρ^{K+1} underflows, so Σρ^i = 1/(1 − ρ) and the cost is γ(1 − ρ)
    // (1 − ρ is exact in floating point here).
    assert!((c - (1.0 - rho)).abs() <= 1e-14 * c, "{c}");
    // Small K: the closed form equals the direct sum to a few ulps.
    for &rho in &[
        1.0f64 - 1e-13,
        1.0 - 3e-7,
        1.0 + 1e-13,
        1.0 + 2e-5,
        0.3,
        3.0,
    ] {
        for k in [1usize, 7, 100] {
            let direct = {
                let s: f64 = (0..=k).map(|i| rho.powi(i as i32)).sum();
                (0.7 + 2.0 * rho.powi(k as i32 + 1)) / s
            };
            let got = static_cost(rho, 0.7, k, 2.0).unwrap();
            assert!(
                (got - direct).abs() <= 1e-13 * direct,
                "rho {rho} K {k}: {got} vs {direct}"
            );
        }
    }
}

#[test]
fn optimum_beats_every_policy_by_brute_force() {
    // N = 2, K = 2: 8 two-action states (forced and fictitious excluded).
    let p = Params::new(2, 2, 0.6, 1.0, 0.8).unwrap();
    let m = RobotsMdp::new(p).unwrap();
    let best = solve(&p).unwrap().performance.cost;
    let free: Vec<usize> = (0..m.n_states())
        .filter(|&s| m.mdp.n_actions(s) == 2)
        .collect();
    assert!(free.len() <= 16);
    let mut min = f64::INFINITY;
    for code in 0u32..(1 << free.len()) {
        let mut pol = vec![0u32; m.n_states()];
        for (b, &s) in free.iter().enumerate() {
            pol[s] = (code >> b) & 1;
        }
        match crate::mdp::evaluate_average(&m.mdp, &pol) {
            Ok(e) => min = min.min(e.gain),
            Err(Error::Infeasible(_)) => {} // multichain: no single average cost
            Err(e) => panic!("{e}"),
        }
    }
    assert!((best - min).abs() < 1e-12, "{best} vs {min}");
}

#[test]
fn solvers_agree_on_the_robots_model() {
    let m = RobotsMdp::new(Params::new(12, 6, 0.1, 1.0, 1.4).unwrap()).unwrap();
    let exact = crate::mdp::solve(&m.mdp, &Options::default()).unwrap();
    for method in [
        Method::RelativeValueIteration,
        Method::ValueIteration,
        Method::GaussSeidel,
    ] {
        let s = crate::mdp::solve(
            &m.mdp,
            &Options {
                method,
                ..Options::default()
            },
        )
        .unwrap();
        assert!(s.converged);
        assert!(
            s.bound_lo <= exact.gain + 1e-12 && exact.gain <= s.bound_hi + 1e-12,
            "{method:?}"
        );
        assert!((s.gain - exact.gain).abs() < 1e-9);
    }
    // The paper's RVI (τ = 0.99999, relative change < 1e-5) stops early
    // but its certificate still brackets the optimum.
    let paper = Options {
        method: Method::RelativeValueIteration,
        aperiodicity: Some(0.99999),
        stopping: Stopping::RelativeChange,
        tolerance: 1e-5,
        ..Options::default()
    };
    let s = crate::mdp::solve(&m.mdp, &paper).unwrap();
    assert!(s.converged && s.bound_lo <= exact.gain + 1e-12 && exact.gain <= s.bound_hi + 1e-12);
    let viaw = solve_with(&m.params, &paper).unwrap();
    assert!((viaw.performance.cost - exact.gain).abs() < 1e-4);
}

#[test]
fn caller_policies_are_evaluated_and_validated() {
    let p = Params::new(16, 5, 0.1, 1.0, 1.4).unwrap();
    let d = solve(&p).unwrap();
    // The optimal switching curve, given back, costs C_d.
    let e = evaluate(
        &p,
        &Policy::SwitchingCurve {
            f0: d.f0.clone(),
            f1: d.f1.clone(),
        },
    )
    .unwrap();
    assert!((e.cost - d.performance.cost).abs() < 1e-12);
    let t = evaluate(&p, &Policy::Table(d.actions.clone())).unwrap();
    assert!((t.cost - d.performance.cost).abs() < 1e-12);
    // Stationary distribution sums to one over X.
    assert!((d.performance.stationary.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(evaluate(&p, &Policy::Static(0)).is_err());
    assert!(evaluate(&p, &Policy::Static(17)).is_err());
    assert!(
        evaluate(
            &p,
            &Policy::SwitchingCurve {
                f0: vec![0; 17],
                f1: vec![0; 17]
            }
        )
        .is_err(),
        "must activate at (1,0,0)"
    );
    assert!(
        evaluate(
            &p,
            &Policy::SwitchingCurve {
                f0: vec![1; 3],
                f1: vec![1; 17]
            }
        )
        .is_err()
    );
    assert!(evaluate(&p, &Policy::Table(vec![0; 5])).is_err());
    assert!(evaluate(&p, &Policy::Table(vec![2; 6 * 17 * 2])).is_err());
}

#[test]
fn parameters_are_validated() {
    assert!(Params::new(0, 5, 0.1, 1.0, 1.0).is_err());
    assert!(Params::new(3, 0, 0.1, 1.0, 1.0).is_err());
    assert!(Params::new(3, 5, 0.0, 1.0, 1.0).is_err());
    assert!(Params::new(3, 5, 0.1, f64::NAN, 1.0).is_err());
    assert!(
        Params::new(3, 5, 0.1, 1.0, -1.0).is_err(),
        "negative starvation cost"
    );
    assert!(matches!(
        Params::new(usize::MAX / 2, 5, 0.1, 1.0, 1.0),
        Err(Error::TooLarge(_))
    ));
    assert!(static_cost(0.0, 1.0, 5, 1.0).is_err());
    assert!(optimal_static(0.1, 1.0, -0.5, 5).is_err());
}

#[test]
fn control_cancels_and_caps_the_solve() {
    let p = Params::new(20, 30, 0.05, 1.0, 100.0).unwrap();
    let control = crate::limits::Control::new();
    control.cancel();
    let o = Options {
        control: control.clone(),
        ..Options::default()
    };
    assert!(matches!(solve_with(&p, &o), Err(Error::Cancelled(_))));
    control.reset();
    // 3 (K+1)(N+1) = 1953 slots at 440 bytes (model and policy iteration).
    control.set_memory_limit(Some(1953 * 440 - 1));
    let e = solve_with(&p, &o).unwrap_err();
    assert!(
        matches!(&e, Error::TooLarge(m) if m.contains("1953 state slots") && m.contains("859320 bytes")),
        "{e:?}"
    );
    control.set_memory_limit(Some(1953 * 440));
    assert_eq!(
        solve_with(&p, &o).unwrap().performance,
        solve(&p).unwrap().performance
    );
}

#[test]
fn control_stops_the_unlimited_search_and_evaluations() {
    use crate::limits::Control;
    let (lambda, k, gamma) = (0.1, 5, 0.4);
    let plain = solve_unlimited(lambda, 1.0, gamma, k).unwrap();
    let control = Control::new();
    let o = Options {
        control: control.clone(),
        ..Options::default()
    };
    // Without limits: the same solution (Table 2: C_d = 0.11097, N_max = 12).
    let with = solve_unlimited_with(lambda, 1.0, gamma, k, &o).unwrap();
    assert_eq!(with, plain);
    assert!((with.performance.cost - 0.11097).abs() < 1e-4);
    control.cancel();
    assert!(matches!(
        solve_unlimited_with(lambda, 1.0, gamma, k, &o),
        Err(Error::Cancelled(_))
    ));
    let p = Params::new(8, k, lambda, 1.0, gamma).unwrap();
    assert!(matches!(
        evaluate_with(&p, &Policy::Static(4), &control),
        Err(Error::Cancelled(_))
    ));
    control.reset();
    // One policy-iteration step cannot certify the optimum.
    control.set_max_iterations(Some(1));
    assert!(matches!(
        solve_unlimited_with(lambda, 1.0, gamma, k, &o),
        Err(Error::NotConverged(_))
    ));
    control.set_max_iterations(None);
    // The doubling search starts at N = 2 N_s and the memory cap refuses
    // the first N whose model does not fit: 3 (K+1)(N+1) slots x 440 bytes.
    let n0 = (2 * optimal_static(lambda, 1.0, gamma, k).unwrap().0).max(4);
    let slots = 3 * (k + 1) * (n0 + 1);
    control.set_memory_limit(Some(slots as u64 * 440 - 1));
    let e = solve_unlimited_with(lambda, 1.0, gamma, k, &o).unwrap_err();
    assert!(
        matches!(&e, Error::TooLarge(m) if m.contains(&format!("{slots} state slots"))),
        "{e:?}"
    );
    // An evaluation of N = 8 needs 3·6·9 = 162 slots x 440 bytes.
    control.set_memory_limit(Some(162 * 440 - 1));
    assert!(matches!(
        evaluate_with(&p, &Policy::Static(4), &control),
        Err(Error::TooLarge(_))
    ));
    control.set_memory_limit(Some(162 * 440));
    assert_eq!(
        evaluate_with(&p, &Policy::Static(4), &control).unwrap(),
        evaluate(&p, &Policy::Static(4)).unwrap()
    );
}

#[test]
fn cancel_from_another_thread_stops_the_unlimited_search() {
    // Value iteration to a tolerance it cannot reach in 10^12 sweeps:
    // only the cancel can end the search.
    let control = crate::limits::Control::new();
    let o = Options {
        method: Method::ValueIteration,
        tolerance: 1e-300,
        max_iterations: 1_000_000_000_000,
        control: control.clone(),
        ..Options::default()
    };
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        control.cancel();
    });
    let r = solve_unlimited_with(0.1, 1.0, 0.4, 5, &o);
    canceller.join().unwrap();
    assert!(matches!(r, Err(Error::Cancelled(_))), "{r:?}");
}

#[test]
fn costs_beyond_double_precision_end_quickly_and_are_not_optimal() {
    // γ/μ = 1e39 and 1e309-scale biases: round-off decides every
    // comparison, so policy iteration could cycle to its iteration limit.
    // A revisited policy stops it within a handful of iterations, an
    // evaluation whose gain lies outside the policy's costs is refused, and
    // the answer is NotConverged or Numerical, never a (negative) optimum.
    for &(n, k, lambda, mu, gamma) in &[
        (8usize, 6usize, 23.5, 1e-9, 1e30),
        (8, 6, 23.5, 1e-9, 2.77602548694822e130),
        (9, 8, 6.470315526762029e8, 18.25, 1e300),
    ] {
        let p = Params::new(n, k, lambda, mu, gamma).unwrap();
        match solve(&p) {
            Err(Error::NotConverged(msg)) => {
                let its: usize = msg
                    .split_whitespace()
                    .nth(2)
                    .and_then(|t| t.parse().ok())
                    .unwrap();
                assert!(its < 200, "{msg}");
                // The certificate's lower end is at least the smallest cost, 0.
                assert!(msg.contains("gain in [0,"), "{msg}");
            }
            Err(Error::Numerical(_)) => {}
            Ok(s) => panic!(
                "gamma {gamma:e}: solved with cost {} in [{}, {}]",
                s.performance.cost, s.cost_lo, s.cost_hi
            ),
            Err(e) => panic!("gamma {gamma:e}: {e}"),
        }
    }
    // Just inside the range a double resolves, the same model solves.
    let s = solve(&Params::new(8, 6, 23.5, 1e-9, 1e10).unwrap()).unwrap();
    assert!(
        s.performance.cost >= 0.0
            && s.cost_lo <= s.performance.cost
            && s.performance.cost <= s.cost_hi
    );
}
