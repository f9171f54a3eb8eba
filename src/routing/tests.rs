//! Tests of the routing module against the paper's closed forms, brute
//! force and simulation. Expected values are computed independently here.

use super::search::{
    Neighbourhood, balanced_counts, balanced_sequence, exhaustive, local_search, necklaces,
    optimize_local,
};
use super::*;
use crate::error::Error;
use crate::limits::Control;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

fn poisson_system(
    lambda: f64,
    rates: &[f64],
    weights: Option<&[f64]>,
    obj: Objective,
) -> RoutingSystem {
    RoutingSystem::new(
        ArrivalProcess::poisson(lambda).unwrap(),
        rates,
        weights,
        obj,
    )
    .unwrap()
}

/// A bursty two-phase MMPP: mean rate 0.75·0.5 + 0.25·3.5 = 1.25.
fn mmpp() -> ArrivalProcess {
    ArrivalProcess::mmpp(&[-0.1, 0.1, 0.3, -0.3], &[0.5, 3.5]).unwrap()
}

/// Erlang-2 renewal arrivals of rate r as a MAP: τ ~ Erlang(2, 2r), i.i.d.
fn erlang2_map(r: f64) -> ArrivalProcess {
    let a = 2.0 * r;
    ArrivalProcess::map(2, &[-a, a, 0.0, -a], &[0.0, 0.0, a, 0.0]).unwrap()
}

/// Smallest rotation, to compare periods up to rotation.
fn canonical(seq: &[usize]) -> Vec<usize> {
    (0..seq.len())
        .map(|k| [&seq[k..], &seq[..k]].concat())
        .min()
        .unwrap()
}

#[test]
fn poisson_transforms_are_the_closed_form() {
    let p = ArrivalProcess::poisson(1.5).unwrap();
    let (f, g) = p.transforms(0.7, 40).unwrap();
    let as_map = ArrivalProcess::map(1, &[-1.5], &[1.5]).unwrap();
    let (fm, gm) = as_map.transforms(0.7, 40).unwrap();
    for k in 1..=40 {
        let want = (1.5f64 / 2.2).powi(k as i32);
        assert!((f[k - 1] - want).abs() <= 1e-15 * want.max(1e-300) * 10.0);
        assert!((fm[k - 1] - want).abs() <= 1e-13 * want);
        assert!((g[k - 1] - (1.0 - want)).abs() < 1e-15);
        assert!((gm[k - 1] - (1.0 - want)).abs() < 1e-14);
    }
    // An MMPP whose phases have the same rate is that Poisson process.
    let flat = ArrivalProcess::mmpp(&[-2.0, 2.0, 5.0, -5.0], &[1.5, 1.5]).unwrap();
    let (ff, _) = flat.transforms(0.7, 10).unwrap();
    for k in 1..=10 {
        assert!((ff[k - 1] - f[k - 1]).abs() < 1e-14);
    }
}

#[test]
fn map_transform_of_erlang_renewal_arrivals() {
    // Lemma 5.2 for i.i.d. Erlang(2, 2r) gaps: (2r/(2r + μ))^{2k}.
    let a = erlang2_map(0.8);
    assert!((a.rate() - 0.8).abs() < 1e-14);
    let (f, g) = a.transforms(1.3, 25).unwrap();
    for k in 1..=25 {
        let want = (1.6f64 / 2.9).powi(2 * k as i32);
        assert!((f[k - 1] - want).abs() < 1e-13 * want.max(1e-3), "k={k}");
        assert!((g[k - 1] - (1.0 - want)).abs() < 1e-13);
    }
    // f*(μ) is (μI − C)⁻¹D: row sums of f*(0+) tend to 1 (F(∞) stochastic).
    let fs = a.transform_matrix(1e-9).unwrap();
    for i in 0..2 {
        assert!((fs.row(i).sum() - 1.0).abs() < 1e-8);
    }
}

#[test]
fn mmpp_transform_matches_conditioning_on_the_phase() {
    // For one step, f(1) = Σ_i q_i E[e^{−μτ} | phase i at an arrival];
    // check q = sΛ/(sλ) and the transform through the arrival-rate-weighted
    // mean of a slow-switching MMPP: as switching → 0, f(1) → Σ q_i λ_i/(λ_i+μ).
    let slow = ArrivalProcess::mmpp(&[-1e-9, 1e-9, 3e-9, -3e-9], &[0.5, 3.5]).unwrap();
    let (f, _) = slow.transforms(1.0, 3).unwrap();
    let (s0, s1) = (0.75, 0.25);
    let (q0, q1) = (
        s0 * 0.5 / (s0 * 0.5 + s1 * 3.5),
        s1 * 3.5 / (s0 * 0.5 + s1 * 3.5),
    );
    for k in 1..=3 {
        let want = q0 * (0.5f64 / 1.5).powi(k) + q1 * (3.5f64 / 4.5).powi(k);
        assert!(
            (f[k as usize - 1] - want).abs() < 1e-7,
            "k={k}: {} vs {want}",
            f[k as usize - 1]
        );
    }
}

#[test]
fn eq6_for_the_one_two_family_is_g_n_mu2() {
    for &mu2 in &[1.0, 2.0, 1.0 + 2f64.sqrt(), 7.5] {
        let sys = poisson_system(1.0, &[1.0, mu2], None, Objective::Losses);
        for n in 2..=12u32 {
            let mut seq = vec![1usize; n as usize];
            seq[0] = 0;
            let e = evaluate(&sys, &seq).unwrap();
            let g = two_server::cost(n, mu2).unwrap();
            assert!((e.per_packet - g).abs() < 1e-15, "n={n} mu2={mu2}");
            assert!((e.per_unit_time - g).abs() < 1e-15); // λ = 1
            assert!(e.unvisited.is_empty());
        }
    }
}

#[test]
fn figure_1_switch_points() {
    let s2 = two_server::switch_point(2).unwrap();
    assert!((s2 - (1.0 + 2f64.sqrt())).abs() < 1e-9, "{s2}");
    let readme = [4.853300, 9.140735, 16.771239];
    for (i, &want) in readme.iter().enumerate() {
        let n = i as u32 + 3;
        let got = two_server::switch_point(n).unwrap();
        assert!((got - want).abs() < 1e-6, "n={n}: {got} vs {want}");
        // Closed form: b² − 2b + (n+2)/2^{n+1} = 0, μ₂ = 1/b − 1.
        let b = 1.0 - (1.0 - f64::from(n + 2) / 2f64.powi(n as i32 + 1)).sqrt();
        assert!((got - (1.0 / b - 1.0)).abs() < 1e-9 * got);
    }
    // Figure 1: the optimal length in each interval.
    assert_eq!(two_server::optimal_length(2.0).unwrap(), 2);
    assert_eq!(two_server::optimal_length(2.5).unwrap(), 3);
    assert_eq!(two_server::optimal_length(6.0).unwrap(), 4);
    assert_eq!(two_server::optimal_length(12.0).unwrap(), 5);
    assert_eq!(two_server::optimal_length(20.0).unwrap(), 6);
}

#[test]
fn exhaustive_search_confirms_figure_1_over_all_sequences() {
    // Over every sequence of period ≤ 9, the optimum is (1, 2, …, 2) of
    // the length Figure 1 gives (Koole's structure, §5).
    for &(mu2, len) in &[(2.0, 2usize), (3.0, 3), (6.0, 4), (12.0, 5)] {
        let sys = poisson_system(1.0, &[1.0, mu2], None, Objective::Losses);
        let r = exhaustive(&sys, 1, 9).unwrap();
        let mut want = vec![1usize; len];
        want[0] = 0;
        assert_eq!(canonical(&r.period), want, "mu2 = {mu2}");
        let g = two_server::cost(len as u32, mu2).unwrap();
        assert!((r.evaluation.per_packet - g).abs() < 1e-15);
        // Necklace counts: Σ_{n ≤ 9} (binary necklaces of length n).
        assert_eq!(r.evaluations, 2 + 3 + 4 + 6 + 8 + 14 + 20 + 36 + 60);
    }
}

#[test]
fn necklace_counts_match_the_formula() {
    // Number of k-ary necklaces of length n: (1/n) Σ_{d | n} φ(d) k^{n/d}.
    let phi = |d: usize| (1..=d).filter(|&i| gcd(i, d) == 1).count();
    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    for k in 1..=4usize {
        for n in 1..=8usize {
            let mut c = 0;
            necklaces(n, k, |s| {
                assert_eq!(canonical(s), s.to_vec());
                c += 1;
            });
            let want: usize = (1..=n)
                .filter(|d| n % d == 0)
                .map(|d| phi(d) * k.pow((n / d) as u32))
                .sum::<usize>()
                / n;
            assert_eq!(c, want, "k={k} n={n}");
        }
    }
}

/// Best cost over sequences of exactly length n, by brute force over all
/// k^n sequences (not necklaces: an independent enumeration).
fn brute_force(sys: &RoutingSystem, n: usize) -> f64 {
    let m = sys.len();
    let mut best = f64::INFINITY;
    let mut seq = vec![0usize; n];
    for code in 0..m.pow(n as u32) {
        let mut c = code;
        for s in seq.iter_mut() {
            *s = c % m;
            c /= m;
        }
        if let Ok(e) = evaluate(sys, &seq) {
            best = best.min(e.per_packet);
        }
    }
    best
}

#[test]
fn multimodular_local_search_finds_the_optimum_for_two_servers() {
    // Theorems 4.2 and 4.4: for M = 2 and convex f_m, a local minimum for
    // the 2^{n+1} − 2 neighbourhood is global among sequences of period n.
    let systems = [
        poisson_system(1.0, &[1.0, 4.0], None, Objective::Losses),
        poisson_system(2.0, &[0.3, 1.0], Some(&[3.0, 1.0]), Objective::Losses),
        RoutingSystem::new(mmpp(), &[0.5, 2.0], None, Objective::Losses).unwrap(),
        RoutingSystem::new(
            erlang2_map(1.0),
            &[0.2, 1.0],
            Some(&[1.0, 2.0]),
            Objective::RobotScheduling,
        )
        .unwrap(),
    ];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for (k, sys) in systems.iter().enumerate() {
        for n in [5usize, 8, 10] {
            let best = brute_force(sys, n);
            let table = sys.table(n).unwrap();
            for _ in 0..3 {
                let start: Vec<usize> = (0..n).map(|_| rng.random_range(0..2)).collect();
                let r = local_search(sys, &table, &start, Neighbourhood::Multimodular).unwrap();
                let own = search::multimodular_search(sys, &start, &Control::default()).unwrap();
                assert_eq!(own.period, r.period);
                assert!(
                    (r.evaluation.per_packet - best).abs() <= 1e-12 * best.abs().max(1.0),
                    "system {k} n={n} start={start:?}: {} vs {best}",
                    r.evaluation.per_packet
                );
            }
        }
    }
}

#[test]
fn pair_local_search_matches_exhaustive_on_small_instances() {
    let systems = [
        poisson_system(1.0, &[1.0, 4.0], None, Objective::Losses),
        poisson_system(1.0, &[0.5, 1.0, 3.0], None, Objective::Losses),
        RoutingSystem::new(
            mmpp(),
            &[0.4, 1.0, 2.5],
            Some(&[2.0, 1.0, 1.0]),
            Objective::Losses,
        )
        .unwrap(),
        poisson_system(
            1.0,
            &[0.2, 0.5, 1.0],
            Some(&[0.4, 1.0, 2.0]),
            Objective::RobotScheduling,
        ),
    ];
    for (k, sys) in systems.iter().enumerate() {
        let maxp = if sys.len() == 2 { 12 } else { 8 };
        let ex = exhaustive(sys, 1, maxp).unwrap();
        let loc = optimize_local(sys, 1, maxp).unwrap();
        let (a, b) = (loc.evaluation.per_packet, ex.evaluation.per_packet);
        assert!(
            (a - b).abs() <= 1e-12 * b.abs().max(1.0),
            "system {k}: local {a} {:?} vs exact {b} {:?}",
            loc.period,
            ex.period
        );
    }
}

#[test]
fn balanced_sequences_are_regular() {
    // Every server gets its count; with two servers the billiard word is
    // balanced (Sturmian): each server's gaps differ by at most one.
    let seq = balanced_sequence(&[2, 3, 5]).unwrap();
    let d = cost::distance_sequences(&seq, 3).unwrap();
    assert_eq!(d.iter().map(Vec::len).collect::<Vec<_>>(), vec![2, 3, 5]);
    for counts in [[3usize, 5], [4, 7], [1, 9], [6, 6]] {
        let seq = balanced_sequence(&counts).unwrap();
        for gaps in cost::distance_sequences(&seq, 2).unwrap() {
            let (lo, hi) = (gaps.iter().min().unwrap(), gaps.iter().max().unwrap());
            assert!(hi - lo <= 1, "{counts:?}: {gaps:?}");
        }
    }
    let sys = poisson_system(1.0, &[1.0, 1.0, 1.0], None, Objective::Losses);
    let t = sys.table(9).unwrap();
    assert_eq!(balanced_counts(&t, 9).unwrap(), vec![3, 3, 3]);
    // Symmetric servers: round robin is optimal (Koole), cost (λ/(λ+μ))^M.
    let r = optimize_local(&sys, 3, 3).unwrap();
    assert!((r.evaluation.per_packet - 0.125).abs() < 1e-15);
}

#[test]
fn simulation_agrees_with_the_exact_cost() {
    let cases: Vec<(RoutingSystem, Vec<usize>)> = vec![
        (
            poisson_system(1.0, &[1.0, 3.0], None, Objective::Losses),
            vec![0, 1, 1],
        ),
        (
            RoutingSystem::new(
                mmpp(),
                &[0.5, 1.0, 2.0],
                Some(&[1.0, 2.0, 0.5]),
                Objective::Losses,
            )
            .unwrap(),
            vec![0, 2, 1, 2, 1],
        ),
        (
            RoutingSystem::new(
                erlang2_map(1.0),
                &[0.3, 1.0],
                Some(&[1.0, 2.0]),
                Objective::RobotScheduling,
            )
            .unwrap(),
            vec![0, 1, 1, 0, 1],
        ),
        // A page never visited is always stale.
        (
            RoutingSystem::new(mmpp(), &[0.3, 1.0, 0.2], None, Objective::RobotScheduling).unwrap(),
            vec![0, 1, 1],
        ),
    ];
    for (k, (sys, seq)) in cases.iter().enumerate() {
        let exact = evaluate(sys, seq).unwrap();
        let sim = simulate::simulate(sys, seq, 40_000, 11 + k as u64).unwrap();
        let z = (sim.per_packet - exact.per_packet) / sim.std_error;
        assert!(
            z.abs() < 4.0,
            "case {k}: sim {} ± {} vs exact {}",
            sim.per_packet,
            sim.std_error,
            exact.per_packet
        );
        assert!(
            sim.std_error < 0.02 * exact.per_packet.abs().max(0.01),
            "case {k}: se {}",
            sim.std_error
        );
        let rel = (sim.per_unit_time - exact.per_unit_time).abs() / exact.per_unit_time.abs();
        assert!(
            rel < 0.03,
            "case {k}: per unit time {} vs {}",
            sim.per_unit_time,
            exact.per_unit_time
        );
    }
}

#[test]
fn robot_cost_per_unit_time_is_coffman_liu_weber() {
    // §6: with Poisson(λ) visits (τ i.i.d. Exp(λ)), Σ c_i r_i per unit time
    // equals the freshness module's exact cyclic cost (paper 000, eq. 3).
    let (lambda, mu, c) = (2.0, [0.3, 0.7, 1.5], [1.0, 0.5, 2.0]);
    let sys = poisson_system(lambda, &mu, Some(&c), Objective::RobotScheduling);
    let model = crate::freshness::Model::new(
        crate::dist::Distribution::exponential(lambda).unwrap(),
        &mu,
        Some(&c),
    )
    .unwrap();
    for seq in [
        vec![0, 1, 2],
        vec![2, 0, 2, 1, 2, 1],
        vec![0, 0, 1, 2, 2, 2, 1],
    ] {
        let ours = evaluate(&sys, &seq).unwrap().per_unit_time;
        let theirs = crate::freshness::cyclic::cost(&model, &seq).unwrap();
        assert!(
            (ours - theirs).abs() < 1e-12 * theirs,
            "{seq:?}: {ours} vs {theirs}"
        );
    }
}

#[test]
fn remark_6_1_never_visiting_a_page_is_reported() {
    // c₁/μ₁ = 100 against c₂/μ₂ = 0.1: always visiting page 1 is optimal.
    let sys = poisson_system(
        1.0,
        &[0.1, 10.0],
        Some(&[10.0, 1.0]),
        Objective::RobotScheduling,
    );
    let r = exhaustive(&sys, 1, 10).unwrap();
    assert_eq!(r.period, vec![0]);
    assert_eq!(r.evaluation.unvisited, vec![1]);
    // f₁(1) + c₂ E τ = 10 − 100 (1 − 1/1.1) + 1.
    let want = 10.0 - 100.0 * (1.0 - 1.0 / 1.1) + 1.0;
    assert!((r.evaluation.per_packet - want).abs() < 1e-12);
    let loc = optimize_local(&sys, 1, 30).unwrap();
    assert_eq!(loc.evaluation.unvisited, vec![1]);
    assert!((loc.evaluation.per_packet - want).abs() < 1e-12);
}

#[test]
fn superlinear_costs_make_an_absent_server_unbounded() {
    // Example 3.5's costs f₁ = x², f₂ = 2x² satisfy Condition (2).
    let f: system::CostFn = Arc::new(|m, k| (m as f64 + 1.0) * (k * k) as f64);
    let sys = poisson_system(
        1.0,
        &[1.0, 1.0],
        None,
        Objective::Custom {
            f,
            slopes: vec![None, None],
        },
    );
    assert!(matches!(evaluate(&sys, &[0, 0]), Err(Error::Infeasible(_))));
    let r = exhaustive(&sys, 1, 8).unwrap();
    assert!(r.evaluation.unvisited.is_empty());
    // Brute force on all sequences up to period 8 agrees.
    let best = (1..=8)
        .map(|n| brute_force(&sys, n))
        .fold(f64::INFINITY, f64::min);
    assert!((r.evaluation.per_packet - best).abs() < 1e-12);
    assert_eq!(r.period.len(), 2); // (1, 2): gaps of 2, cost (4 + 8)/2 = 6
    assert!((best - 6.0).abs() < 1e-12);
    assert!(matches!(
        simulate::simulate(&sys, &[0, 1], 10, 1),
        Err(Error::InvalidArgument(_))
    ));
}

#[test]
fn invalid_inputs_are_refused() {
    assert!(ArrivalProcess::poisson(0.0).is_err());
    assert!(ArrivalProcess::poisson(f64::NAN).is_err());
    // Rows of C + D do not sum to zero: not a generator.
    assert!(matches!(
        ArrivalProcess::map(1, &[-1.0], &[2.0]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        ArrivalProcess::mmpp(&[-1.0, 2.0, 1.0, -1.0], &[1.0, 1.0]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(ArrivalProcess::mmpp(&[-1.0, 1.0, 1.0, -1.0], &[0.0, 0.0]).is_err());
    let batches = crate::dist::Bmap::new(1, &[&[-2.0], &[1.0], &[1.0]]).unwrap();
    assert!(matches!(
        ArrivalProcess::from_bmap(batches),
        Err(Error::InvalidArgument(_))
    ));
    let p = ArrivalProcess::poisson(1.0).unwrap();
    assert!(RoutingSystem::new(p.clone(), &[], None, Objective::Losses).is_err());
    assert!(RoutingSystem::new(p.clone(), &[1.0, -1.0], None, Objective::Losses).is_err());
    assert!(RoutingSystem::new(p.clone(), &[1.0, 0.0], None, Objective::Losses).is_err());
    assert!(RoutingSystem::new(p.clone(), &[1.0], Some(&[1.0, 2.0]), Objective::Losses).is_err());
    let sys = RoutingSystem::new(p, &[1.0, 2.0], None, Objective::Losses).unwrap();
    assert!(matches!(
        evaluate(&sys, &[]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        evaluate(&sys, &[0, 2]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        evaluate(&sys, &vec![0; system::MAX_PERIOD + 1]),
        Err(Error::TooLarge(_))
    ));
    assert!(matches!(exhaustive(&sys, 1, 40), Err(Error::TooLarge(_))));
    assert!(matches!(
        exhaustive(&sys, 3, 2),
        Err(Error::InvalidArgument(_))
    ));
    let t = sys.table(30).unwrap();
    assert!(matches!(
        local_search(&sys, &t, &[0; 30], Neighbourhood::Multimodular),
        Err(Error::TooLarge(_))
    ));
    assert!(matches!(sys.immediate_cost(5, 1), Err(Error::NotFound(_))));
    assert!(two_server::switch_point(1).is_err());
    assert!(two_server::cost(3, 0.0).is_err());
    assert!(Router::new(&[], 2).is_err());
    assert!(simulate::simulate(&sys, &[0, 1], 0, 1).is_err());
}

#[test]
fn router_repeats_the_period() {
    let r = Router::new(&[0, 1, 1, 2], 3).unwrap();
    let first: Vec<u32> = (0..6).map(|_| r.next()).collect();
    assert_eq!(first, vec![0, 1, 1, 2, 0, 1]);
    let mut b = [9u32; 7];
    r.next_batch(&mut b);
    assert_eq!(b, [1, 2, 0, 1, 1, 2, 0]);
    assert_eq!(r.next(), 1);
}

#[test]
fn control_caps_and_cancels_the_searches_and_simulation() {
    use super::search::{exhaustive_with, local_search_with, optimize_local_with};
    let sys = poisson_system(1.0, &[1.0, 0.7, 0.4], None, Objective::Losses);
    let control = Control::new();
    // Without limits: identical results.
    let ex = exhaustive(&sys, 1, 8).unwrap();
    assert_eq!(exhaustive_with(&sys, 1, 8, &control).unwrap(), ex);
    let loc = optimize_local(&sys, 1, 8).unwrap();
    assert_eq!(optimize_local_with(&sys, 1, 8, &control).unwrap(), loc);
    let sim = simulate::simulate(&sys, &ex.period, 1000, 5).unwrap();
    assert_eq!(
        simulate::simulate_with(&sys, &ex.period, 1000, 5, &control).unwrap(),
        sim
    );
    // Exhaustive: the cap counts sequences; one short of all is refused.
    control.set_max_iterations(Some(ex.evaluations));
    assert_eq!(exhaustive_with(&sys, 1, 8, &control).unwrap(), ex);
    control.set_max_iterations(Some(ex.evaluations - 1));
    let e = exhaustive_with(&sys, 1, 8, &control).unwrap_err();
    assert!(
        matches!(&e, Error::NotConverged(m) if m.contains(&format!("cap of {}", ex.evaluations - 1))),
        "{e:?}"
    );
    // Local search: the cap counts moves. From (0 0 0 0 0 1) the
    // multimodular search of two servers needs at least one.
    let two = poisson_system(1.0, &[1.0, 0.4], None, Objective::Losses);
    let table = two.table(6).unwrap();
    let start = [0usize, 0, 0, 0, 0, 1];
    let full = local_search(&two, &table, &start, Neighbourhood::Multimodular).unwrap();
    assert_ne!(full.period, start);
    let mut moves = 1;
    loop {
        control.set_max_iterations(Some(moves));
        match local_search_with(&two, &table, &start, Neighbourhood::Multimodular, &control) {
            Ok(r) => break assert_eq!(r, full),
            Err(Error::NotConverged(_)) => moves += 1,
            Err(e) => panic!("{e:?}"),
        }
        assert!(moves < 100);
    }
    assert!(
        moves >= 2,
        "a move was needed, so one step cannot end the search"
    );
    control.set_max_iterations(Some(1));
    assert!(matches!(
        optimize_local_with(&sys, 1, 8, &control),
        Err(Error::NotConverged(_))
    ));
    control.set_max_iterations(None);
    // Memory: the cost table is 3 servers x 8 periods of 8 bytes.
    control.set_memory_limit(Some(191));
    assert!(
        matches!(exhaustive_with(&sys, 1, 8, &control), Err(Error::TooLarge(m)) if m.contains("192 bytes"))
    );
    control.set_memory_limit(None);
    control.cancel();
    assert!(matches!(
        exhaustive_with(&sys, 1, 8, &control),
        Err(Error::Cancelled(_))
    ));
    assert!(matches!(
        optimize_local_with(&sys, 1, 8, &control),
        Err(Error::Cancelled(_))
    ));
    assert!(matches!(
        local_search_with(&two, &table, &start, Neighbourhood::Pairs, &control),
        Err(Error::Cancelled(_))
    ));
    assert!(matches!(
        simulate::simulate_with(&sys, &ex.period, 1000, 5, &control),
        Err(Error::Cancelled(_))
    ));
}

#[test]
fn cancel_from_another_thread_stops_a_long_search_and_simulation() {
    use super::search::exhaustive_with;
    use crate::limits::Control;
    // About 4.9e7 sequences (the largest allowed) and 10^10 packets: far
    // longer than the cancel takes to arrive.
    let sys = poisson_system(1.0, &[1.0, 0.7, 0.4], None, Objective::Losses);
    for run in 0..2 {
        let control = Control::new();
        let c2 = control.clone();
        let canceller = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            c2.cancel();
        });
        let r = if run == 0 {
            exhaustive_with(&sys, 1, 18, &control).map(|_| ())
        } else {
            simulate::simulate_with(&sys, &[0, 1, 2], 3_000_000_000, 1, &control).map(|_| ())
        };
        canceller.join().unwrap();
        assert!(matches!(r, Err(Error::Cancelled(_))), "{r:?}");
    }
}

/// The multimodular search checks its start sequence, M = 2 and the period
/// before it builds a table, for a Rust caller as for C.
#[test]
fn multimodular_search_checks_before_the_table() {
    let two = poisson_system(1.0, &[1.0, 4.0], None, Objective::Losses);
    let three = poisson_system(1.0, &[1.0, 2.0, 4.0], None, Objective::Losses);
    let c = Control::default();
    let err = |sys: &RoutingSystem, start: &[usize]| {
        search::multimodular_search(sys, start, &c).unwrap_err()
    };
    assert_eq!(
        err(&two, &[]),
        Error::InvalidArgument("the routing sequence is empty".into())
    );
    assert_eq!(
        err(&two, &[0, 5]),
        Error::InvalidArgument("seq[1] = 5 but there are only 2 servers".into())
    );
    assert_eq!(
        err(&three, &[0, 1, 2]),
        Error::InvalidArgument("the multimodular neighbourhood needs M = 2 servers, got 3".into())
    );
    assert!(matches!(err(&two, &[0; 21]), Error::TooLarge(_)));
    assert!(matches!(
        err(&two, &vec![0; system::MAX_PERIOD + 1]),
        Error::TooLarge(_)
    ));
}

/// f_m(k) alone: k = 0 and k beyond the period limit are refused; inside,
/// Poisson(λ) at an exponential server of rate μ gives (λ/(λ+μ))^k.
#[test]
fn single_transform_checks_k() {
    let p = ArrivalProcess::poisson(1.0).unwrap();
    assert_eq!(
        p.transform(3.0, 0).unwrap_err(),
        Error::InvalidArgument("k must be >= 1".into())
    );
    assert_eq!(
        p.transform(3.0, system::MAX_PERIOD + 1).unwrap_err(),
        Error::TooLarge(format!(
            "k = {} exceeds the period limit",
            system::MAX_PERIOD + 1
        ))
    );
    for k in [1usize, 2, 7] {
        let want = 0.25f64.powi(k as i32);
        assert!((p.transform(3.0, k).unwrap() - want).abs() <= 1e-15 * want);
    }
}
