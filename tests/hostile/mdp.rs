//! Hostile calls: mdp and robots.

use super::support::*;
use crawlsched::ffi::*;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::ptr::{null, null_mut};
use std::time::Duration;

/// One action: (state, next states, probabilities, cost).
type Row = (u32, Vec<u32>, Vec<f64>, f64);

/// A deterministic cycle case: (next state, cost, gain, bias) per state.
type Case<'a> = (&'a [u32], &'a [f64], f64, &'a [f64]);

/// An MDP built through the C API from rows (state, next, prob, cost).
struct CMdp(*mut crawlsched_mdp_t);

impl Drop for CMdp {
    fn drop(&mut self) {
        // SAFETY: a live handle from crawlsched_mdp_build.
        unsafe { crawlsched_mdp_free(self.0) }
    }
}

fn build(n: usize, rows: &[Row]) -> CMdp {
    let mut e = err();
    let (mut b, mut m, mut a) = (null_mut(), null_mut(), 0u32);
    // SAFETY: valid pointers; the builder is freed.
    unsafe {
        assert_eq!(crawlsched_mdp_builder_new(n, &mut b, &mut e), CRAWLSCHED_OK);
        for (s, next, prob, cost) in rows {
            let st = crawlsched_mdp_builder_add_action(
                b,
                *s,
                next.as_ptr(),
                prob.as_ptr(),
                next.len(),
                *cost,
                &mut a,
                &mut e,
            );
            assert_eq!(st, CRAWLSCHED_OK, "{}", message(&e));
        }
        assert_eq!(crawlsched_mdp_build(b, &mut m, &mut e), CRAWLSCHED_OK);
        crawlsched_mdp_builder_free(b);
    }
    CMdp(m)
}

/// A random MDP: `actions` actions per state, each reaching s + 1, state 0
/// and `fanout` random states (unichain: every state reaches 0 through the
/// cycle), random costs in [-2, 8).
fn random_rows(n: usize, actions: usize, fanout: usize, seed: u64) -> Vec<Row> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut rows = Vec::new();
    for s in 0..n {
        for _ in 0..actions {
            let mut next = vec![((s + 1) % n) as u32, 0];
            let mut w = vec![rng.random::<f64>() + 0.1, 0.05];
            for _ in 0..fanout {
                next.push(rng.random_range(0..n) as u32);
                w.push(rng.random::<f64>());
            }
            let t: f64 = w.iter().sum();
            let p = w.iter().map(|x| x / t).collect();
            rows.push((s as u32, next, p, rng.random::<f64>() * 10.0 - 2.0));
        }
    }
    rows
}

/// A deterministic MDP: one action per state, s -> to[s] at cost c[s].
fn cycle(to: &[u32], c: &[f64]) -> CMdp {
    let rows: Vec<_> = (0..to.len())
        .map(|s| (s as u32, vec![to[s]], vec![1.0], c[s]))
        .collect();
    build(to.len(), &rows)
}

struct Solver(*mut crawlsched_mdp_solver_t);

impl Drop for Solver {
    fn drop(&mut self) {
        // SAFETY: a live handle from crawlsched_mdp_solver_new.
        unsafe { crawlsched_mdp_solver_free(self.0) }
    }
}

fn solver(method: i32) -> Solver {
    let mut s = null_mut();
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { crawlsched_mdp_solver_new(method, &mut s, null_mut()) },
        CRAWLSCHED_OK
    );
    Solver(s)
}

/// Runs the solver; returns the status and message.
fn run(s: &Solver, m: &CMdp) -> (i32, String) {
    let mut e = err();
    // SAFETY: live handles.
    let st = unsafe { crawlsched_mdp_solver_run(s.0, m.0, &mut e) };
    (st, message(&e))
}

/// Gain, certificate and values of the last run.
fn result(s: &Solver, n: usize) -> (f64, f64, f64, Vec<f64>) {
    let (mut g, mut lo, mut hi) = (0.0, 0.0, 0.0);
    let mut v = vec![0.0; n];
    // SAFETY: live handle, arrays of the right length.
    unsafe {
        assert_eq!(
            crawlsched_mdp_solver_gain(s.0, &mut g, &mut lo, &mut hi, null_mut()),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_mdp_solver_values(s.0, v.as_mut_ptr(), n, null_mut()),
            CRAWLSCHED_OK
        );
    }
    (g, lo, hi, v)
}

const METHODS: [i32; 4] = [
    CRAWLSCHED_MDP_RELATIVE_VALUE_ITERATION,
    CRAWLSCHED_MDP_VALUE_ITERATION,
    CRAWLSCHED_MDP_GAUSS_SEIDEL,
    CRAWLSCHED_MDP_POLICY_ITERATION,
];

/// Item: policy iteration's LU fill-in was not counted (20,000 random
/// states under a 64 MB cap held +366 MB). Now the run stays within the
/// cap (falling back to an iterative method) or is refused.
#[test]
fn policy_iteration_lu_fill_stays_within_the_cap() {
    let _g = serial();
    let n = 20_000;
    let m = build(n, &random_rows(n, 2, 2, 1));
    let s = solver(CRAWLSCHED_MDP_POLICY_ITERATION);
    let cap = 64u64 << 20;
    let c = control_with_cap(cap);
    // SAFETY: live handles.
    unsafe {
        assert_eq!(
            crawlsched_mdp_solver_set_control(s.0, c, null_mut()),
            CRAWLSCHED_OK
        );
        crawlsched_control_free(c);
    }
    let (((st, msg), t), peak) = peak_during(|| timed(|| run(&s, &m)));
    eprintln!("status {st} {msg} peak {peak} in {t:?}");
    assert!(
        st == CRAWLSCHED_OK || st == CRAWLSCHED_TOO_LARGE,
        "{st}: {msg}"
    );
    assert!(peak as u64 <= cap + (cap >> 3), "peak {peak} > cap {cap}");
    if st == CRAWLSCHED_OK {
        let (_, lo, hi, _) = result(&s, n);
        assert!(hi - lo <= 1e-6, "[{lo}, {hi}]");
    }
}

/// Item: robots sizes of UINT64_MAX reached PANIC (an unchecked k + 1 or
/// n + 1 in the state count). Every size now overflow-checked: TOO_LARGE.
#[test]
fn robots_extreme_sizes_are_refused_not_panicking() {
    let _g = serial();
    let huge = [u64::MAX, u64::MAX - 1, 1 << 63, u32::MAX as u64, 1 << 40];
    for &n in &huge {
        for k in [1u64, 5, n] {
            let mut e = err();
            let mut r = null_mut();
            // SAFETY: valid out-pointers.
            let st = unsafe {
                crawlsched_robots_solve(n, k, 0.1, 1.0, 0.4, std::ptr::null(), &mut r, &mut e)
            };
            assert_eq!(st, CRAWLSCHED_TOO_LARGE, "n {n} k {k}: {}", message(&e));
            let st = unsafe {
                crawlsched_robots_solve(k, n, 0.1, 1.0, 0.4, std::ptr::null(), &mut r, &mut e)
            };
            assert_eq!(st, CRAWLSCHED_TOO_LARGE, "n {k} k {n}: {}", message(&e));
            let c = control_with_cap(1 << 30);
            let st = unsafe { crawlsched_robots_solve(n, k, 0.1, 1.0, 0.4, c, &mut r, &mut e) };
            unsafe { crawlsched_control_free(c) };
            assert_eq!(st, CRAWLSCHED_TOO_LARGE, "n {n} k {k}: {}", message(&e));
            assert!(r.is_null());
        }
        let mut e = err();
        let mut r = null_mut();
        let st = unsafe {
            crawlsched_robots_solve_unlimited(n, 0.1, 1.0, 0.4, std::ptr::null(), &mut r, &mut e)
        };
        assert_eq!(st, CRAWLSCHED_TOO_LARGE, "k {n}: {}", message(&e));
        assert!(r.is_null());
    }
}

/// Average-cost values of every method: 0 at the reference state (state 0)
/// as the header promises, and equal to the closed form.
#[test]
fn every_method_puts_the_bias_zero_at_the_reference_state() {
    let _g = serial();
    // 0 -> 1 (cost 0), 1 -> 0 (cost 1): g = 1/2, h = [0, 1/2].
    // 0 -> 1 (5), 1 -> 2 (1), 2 -> 1 (3): g = 2, h = [0, -3, -2].
    // 0 -> 1 -> 2 -> 0 (0, 0, 1): g = 1/3, h = [0, 1/3, 2/3] - ... solved below.
    let cases: [Case; 3] = [
        (&[1, 0], &[0.0, 1.0], 0.5, &[0.0, 0.5]),
        (&[1, 2, 1], &[5.0, 1.0, 3.0], 2.0, &[0.0, -3.0, -2.0]),
        // h(s) = c(s) - g + h(s+1): h1 = -1/3 + h2, h2 = 2/3 + h0.
        (
            &[1, 2, 0],
            &[0.0, 0.0, 1.0],
            1.0 / 3.0,
            &[0.0, 1.0 / 3.0, 2.0 / 3.0],
        ),
    ];
    for (to, c, gain, h) in cases {
        let m = cycle(to, c);
        for method in METHODS {
            let s = solver(method);
            let (st, msg) = run(&s, &m);
            assert_eq!(st, CRAWLSCHED_OK, "method {method} on {to:?}: {msg}");
            let (g, lo, hi, v) = result(&s, to.len());
            assert!((g - gain).abs() < 1e-8 && lo <= gain + 1e-9 && hi >= gain - 1e-9);
            for (a, b) in v.iter().zip(h) {
                assert!(
                    (a - b).abs() < 1e-6,
                    "method {method} on {to:?}: {v:?} vs {h:?}"
                );
            }
            assert_eq!(v[0], 0.0, "method {method} on {to:?}: {v:?}");
        }
    }
}

/// Messages: discount and tau are checked by the model (one message, the C
/// parameter's name, doubles in short form).
#[test]
fn criterion_and_limit_messages_name_the_c_parameter() {
    let _g = serial();
    let s = solver(CRAWLSCHED_MDP_GAUSS_SEIDEL);
    let cases: [(f64, f64, &str); 4] = [
        (1.5, 0.5, "discount must be in [0, 1), got 1.5"),
        (1e300, 0.5, "discount must be in [0, 1), got 1e300"),
        (0.5, 2.0, "tau must be in (0, 1], got 2"),
        (0.5, -5e-324, "tau must be in (0, 1], got -5e-324"),
    ];
    for (discount, tau, want) in cases {
        let mut e = err();
        let st = unsafe {
            crawlsched_mdp_solver_set_criterion(
                s.0,
                CRAWLSCHED_MDP_DISCOUNTED,
                discount,
                tau,
                &mut e,
            )
        };
        assert_eq!(st, CRAWLSCHED_INVALID_ARGUMENT);
        assert!(message(&e).contains(want), "{}", message(&e));
    }
    let mut e = err();
    let st = unsafe { crawlsched_mdp_solver_set_limits(s.0, 0.0, 5, 0, &mut e) };
    assert_eq!(st, CRAWLSCHED_INVALID_ARGUMENT);
    assert!(
        message(&e).contains("tolerance must be finite and > 0, got 0"),
        "{}",
        message(&e)
    );
    // A row's doubles through the short form.
    let mut b = null_mut();
    let mut a = 0u32;
    unsafe {
        assert_eq!(
            crawlsched_mdp_builder_new(2, &mut b, null_mut()),
            CRAWLSCHED_OK
        );
        let st = crawlsched_mdp_builder_add_action(
            b,
            0,
            [0u32, 1].as_ptr(),
            [1e300, -1e300].as_ptr(),
            2,
            1.0,
            &mut a,
            &mut e,
        );
        assert_eq!(st, CRAWLSCHED_INVALID_ARGUMENT);
        assert!(
            message(&e).contains("prob[1] must be finite and >= 0, got -1e300"),
            "{}",
            message(&e)
        );
        let st = crawlsched_mdp_builder_add_action(
            b,
            0,
            [0u32].as_ptr(),
            [1.0].as_ptr(),
            1,
            f64::INFINITY,
            &mut a,
            &mut e,
        );
        assert_eq!(st, CRAWLSCHED_INVALID_ARGUMENT);
        assert!(
            message(&e).contains("cost must be finite, got inf"),
            "{}",
            message(&e)
        );
        crawlsched_mdp_builder_free(b);
    }
}

/// Rows of an existing Rust MDP, to rebuild it through the C builder.
fn rows_of(m: &crawlsched::mdp::Mdp) -> Vec<Row> {
    let mut rows = Vec::new();
    for s in 0..m.n_states() {
        for a in 0..m.n_actions(s) {
            let (nx, p) = m.transitions(s, a).unwrap();
            rows.push((s as u32, nx.to_vec(), p.to_vec(), m.cost(s, a).unwrap()));
        }
    }
    rows
}

/// Solves with `method` and the automatic tau; returns status and certificate.
fn solve_gain(method: i32, m: &CMdp, n: usize) -> (i32, String, f64, f64) {
    let s = solver(method);
    let (st, msg) = run(&s, m);
    if st != CRAWLSCHED_OK && st != CRAWLSCHED_NOT_CONVERGED {
        return (st, msg, f64::NAN, f64::NAN);
    }
    let (_, lo, hi, _) = result(&s, n);
    (st, msg, lo, hi)
}

/// Item: average-cost Gauss-Seidel with the automatic tau diverged
/// (NUMERICAL) or stalled (NOT_CONVERGED with wide certificates) on small
/// models. It now converges to the policy-iteration gain: a property over
/// random small unichain models (fixed seed), the 3-cycle and the robots
/// model N = 7, K = 5 built through the generic builder.
#[test]
fn gauss_seidel_average_converges_to_the_policy_iteration_gain() {
    let _g = serial();
    let mut models: Vec<(usize, Vec<Row>)> = Vec::new();
    models.push((
        3,
        (0..3)
            .map(|s| {
                (
                    s as u32,
                    vec![((s + 1) % 3) as u32],
                    vec![1.0],
                    if s == 2 { 1.0 } else { 0.0 },
                )
            })
            .collect(),
    ));
    let robots = crawlsched::robots::RobotsMdp::new(
        crawlsched::robots::Params::new(7, 5, 0.1, 1.0, 0.4).unwrap(),
    )
    .unwrap();
    models.push((robots.n_states(), rows_of(&robots.mdp)));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    for _ in 0..40 {
        let n = rng.random_range(2..20);
        let actions = rng.random_range(1..4);
        let fanout = rng.random_range(0..3);
        models.push((n, random_rows(n, actions, fanout, rng.random())));
    }
    // Deterministic cycles with several actions: periodic chains.
    for _ in 0..20 {
        let n = rng.random_range(2..19);
        let mut rows = Vec::new();
        for s in 0..n {
            for _ in 0..rng.random_range(1..3) {
                let to = if rng.random::<f64>() < 0.5 {
                    (s + 1) % n
                } else {
                    0
                };
                rows.push((
                    s as u32,
                    vec![to as u32],
                    vec![1.0],
                    rng.random_range(0..4) as f64,
                ));
            }
        }
        models.push((n, rows));
    }
    for (i, (n, rows)) in models.iter().enumerate() {
        let m = build(*n, rows);
        let (st, msg, plo, phi) = solve_gain(CRAWLSCHED_MDP_POLICY_ITERATION, &m, *n);
        if st != CRAWLSCHED_OK {
            // Multichain policies: policy iteration may refuse; compare RVI.
            assert_eq!(st, CRAWLSCHED_INFEASIBLE, "model {i}: {msg}");
            continue;
        }
        let (st, msg, lo, hi) = solve_gain(CRAWLSCHED_MDP_GAUSS_SEIDEL, &m, *n);
        assert_eq!(st, CRAWLSCHED_OK, "model {i} (n = {n}): {msg}");
        assert!(hi - lo <= 1e-8, "model {i}: [{lo}, {hi}]");
        let g = 0.5 * (plo + phi);
        assert!(
            lo <= g + 1e-8 && hi >= g - 1e-8,
            "model {i}: GS [{lo}, {hi}] PI [{plo}, {phi}]"
        );
    }
}

/// Item: policy iteration cancelled at 0.2 s on 45,000 states returned OK
/// 6-12 s later (the cancel was read only between evaluations, and one
/// LU took seconds). An LU that could run long without a cancel point is
/// now not attempted under a control; the run returns CANCELLED promptly.
#[test]
fn policy_iteration_cancel_is_seen_within_two_seconds() {
    let _g = serial();
    let n = 45_000;
    let m = build(n, &random_rows(n, 2, 2, 4));
    for method in [CRAWLSCHED_MDP_POLICY_ITERATION, CRAWLSCHED_MDP_GAUSS_SEIDEL] {
        let s = solver(method);
        let c = control_with_cap(0);
        // SAFETY: live handles; a tolerance no run reaches keeps it busy.
        unsafe {
            assert_eq!(
                crawlsched_mdp_solver_set_control(s.0, c, null_mut()),
                CRAWLSCHED_OK
            );
            assert_eq!(
                crawlsched_mdp_solver_set_limits(s.0, 1e-300, 100_000, 0, null_mut()),
                CRAWLSCHED_OK
            );
        }
        let flag = c as usize;
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            // SAFETY: the control outlives this thread (freed after join).
            unsafe { crawlsched_control_cancel(flag as *const _, null_mut()) };
            std::time::Instant::now()
        });
        let (st, msg) = run(&s, &m);
        let done = std::time::Instant::now();
        let cancelled_at = t.join().unwrap();
        unsafe { crawlsched_control_free(c) };
        assert_eq!(st, CRAWLSCHED_CANCELLED, "method {method}: {msg}");
        let late = done.saturating_duration_since(cancelled_at);
        assert!(
            late < Duration::from_secs(2),
            "method {method}: {late:?} after the cancel"
        );
        let (_, lo, hi, v) = result(&s, n);
        assert!(lo <= hi && v.iter().all(|x| x.is_finite()));
    }
}

const DOUBLES: [f64; 12] = [
    0.0,
    -0.0,
    5e-324,
    1e-300,
    0.999_999_999_999_999_9,
    1.0,
    1e300,
    f64::MAX,
    -1.0,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
];
const SIZES: [u64; 7] = [0, 1, 2, 1 << 32, 1 << 62, u64::MAX - 1, u64::MAX];

/// No PANIC, a bounded message without 20-digit runs.
fn sane(st: i32, e: &crawlsched_error_t, what: &str) {
    let m = message(e);
    assert_ne!(st, CRAWLSCHED_PANIC, "{what}: {m}");
    assert_ne!(st, CRAWLSCHED_INTERNAL, "{what}: {m}");
    assert!(m.len() < 255, "{what}: {m}");
    let run = m
        .split(|c: char| !c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0);
    // ffi/common.rs's length check echoes SIZE_MAX (not this area's).
    assert!(
        run < 20 || m.contains("overflows the address space"),
        "{what}: {m}"
    );
}

/// Class search: every mdp and robots export with extreme sizes and
/// doubles: no PANIC, short messages, finite outputs when OK, and the
/// capped solves within their cap.
#[test]
fn mdp_and_robots_exports_survive_extreme_sizes_and_doubles() {
    let _g = serial();
    let cap = 64u64 << 20;
    unsafe {
        for &n in &SIZES {
            let mut e = err();
            let mut b = null_mut();
            let st = crawlsched_mdp_builder_new(n as usize, &mut b, &mut e);
            sane(st, &e, "builder_new");
            crawlsched_mdp_builder_free(b);
        }
        let m2 = build(
            2,
            &[
                (0, vec![1], vec![1.0], 1.0),
                (1, vec![0, 1], vec![0.5, 0.5], 0.0),
            ],
        );
        let mut b = null_mut();
        assert_eq!(
            crawlsched_mdp_builder_new(2, &mut b, null_mut()),
            CRAWLSCHED_OK
        );
        for &x in &DOUBLES {
            for &len in &[0usize, 1, 2, usize::MAX, usize::MAX / 8] {
                for state in [0u32, 2, u32::MAX] {
                    let mut e = err();
                    let mut a = 0u32;
                    let (nx, p) = ([1u32, 0], [x, 1.0 - x]);
                    let st = crawlsched_mdp_builder_add_action(
                        b,
                        state,
                        nx.as_ptr(),
                        p.as_ptr(),
                        len.min(2),
                        x,
                        &mut a,
                        &mut e,
                    );
                    sane(st, &e, "add_action");
                    if len > 2 {
                        let st = crawlsched_mdp_builder_add_action(
                            b,
                            state,
                            nx.as_ptr(),
                            p.as_ptr(),
                            len,
                            1.0,
                            &mut a,
                            &mut e,
                        );
                        sane(st, &e, "add_action len");
                        assert_ne!(st, CRAWLSCHED_OK);
                    }
                }
            }
        }
        crawlsched_mdp_builder_free(b);
        for method in METHODS.into_iter().chain([-1, 4, i32::MAX]) {
            let mut e = err();
            let mut s = null_mut();
            let st = crawlsched_mdp_solver_new(method, &mut s, &mut e);
            sane(st, &e, "solver_new");
            if st != CRAWLSCHED_OK {
                continue;
            }
            let s = Solver(s);
            let c = control_with_cap(cap);
            assert_eq!(
                crawlsched_mdp_solver_set_control(s.0, c, null_mut()),
                CRAWLSCHED_OK
            );
            crawlsched_control_free(c);
            for &tol in &DOUBLES {
                for &it in &[0u64, 1, 1000, u64::MAX] {
                    let st = crawlsched_mdp_solver_set_limits(s.0, tol, it, 0, &mut e);
                    sane(st, &e, "set_limits");
                }
            }
            assert_eq!(
                crawlsched_mdp_solver_set_limits(s.0, 1e-9, 1000, 0, null_mut()),
                CRAWLSCHED_OK
            );
            for &d in &DOUBLES {
                for &tau in &DOUBLES {
                    for crit in [CRAWLSCHED_MDP_AVERAGE, CRAWLSCHED_MDP_DISCOUNTED] {
                        let st = crawlsched_mdp_solver_set_criterion(s.0, crit, d, tau, &mut e);
                        sane(st, &e, "set_criterion");
                        if st != CRAWLSCHED_OK {
                            continue;
                        }
                        let ((st, msg), peak) = peak_during(|| run(&s, &m2));
                        assert_ne!(st, CRAWLSCHED_PANIC, "{msg}");
                        assert!(msg.len() < 255 && peak as u64 <= cap);
                        if st == CRAWLSCHED_OK {
                            let (g, lo, hi, v) = result(&s, 2);
                            assert!(g.is_finite() && lo <= hi && v.iter().all(|x| x.is_finite()));
                        }
                    }
                }
            }
        }
        // Robots: extreme doubles on a small model, extreme sizes on the
        // exports that take one.
        for &x in &DOUBLES {
            for (l, mu, g) in [(x, 1.0, 0.4), (0.1, x, 0.4), (0.1, 1.0, x), (x, x, x)] {
                let mut e = err();
                let mut r = null_mut();
                let c = control_with_cap(cap);
                let (st, peak) =
                    peak_during(|| crawlsched_robots_solve(3, 4, l, mu, g, c, &mut r, &mut e));
                sane(st, &e, "robots_solve");
                assert!(peak as u64 <= cap);
                let st2 = crawlsched_robots_solve_unlimited(4, l, mu, g, c, &mut r, &mut e);
                sane(st2, &e, "robots_solve_unlimited");
                crawlsched_control_free(c);
                let (mut o, mut oc) = (0.0, 0u64);
                for &k in &SIZES {
                    let st = crawlsched_robots_static_cost(l, g, k, mu, &mut o, &mut e);
                    sane(st, &e, "static_cost");
                    let st = crawlsched_robots_optimal_static(l, mu, g, k, &mut oc, &mut o, &mut e);
                    sane(st, &e, "optimal_static");
                }
            }
        }
        let mut r = null_mut();
        assert_eq!(
            crawlsched_robots_solve(3, 4, 0.1, 1.0, 0.4, std::ptr::null(), &mut r, null_mut()),
            CRAWLSCHED_OK
        );
        let mut e = err();
        let mut o = 0.0;
        for &n in &SIZES {
            let st = crawlsched_robots_evaluate_static(r, n, &mut o, &mut e);
            sane(st, &e, "evaluate_static");
        }
        for &len in &[0usize, 4, usize::MAX, usize::MAX / 8] {
            let f = [i64::MIN, -1, i64::MAX, 2];
            let st =
                crawlsched_robots_evaluate_curve(r, f.as_ptr(), f.as_ptr(), len, &mut o, &mut e);
            sane(st, &e, "evaluate_curve");
        }
        for sv in [0, 1, 2, -1, i32::MAX] {
            let mut out = [0i64; 4];
            let mut flag = 0;
            let st = crawlsched_robots_switching_curve(
                r,
                sv,
                out.as_mut_ptr(),
                usize::MAX,
                &mut flag,
                &mut e,
            );
            sane(st, &e, "switching_curve");
        }
        crawlsched_robots_free(r);
    }
    let _ = null::<u8>();
}
