//! Hostile calls: probe.

use super::support::*;
use crawlsched::ffi::*;
use std::ptr::null_mut;
use std::time::Duration;

fn dbworld(ratio: f64, days: f64) -> *mut crawlsched_probe_profile_t {
    let mut p = null_mut();
    let mut e = err();
    // SAFETY: valid out-pointers.
    let st = unsafe { crawlsched_probe_profile_dbworld(ratio, days, &mut p, &mut e) };
    assert_eq!(st, CRAWLSCHED_OK, "{}", message(&e));
    p
}

/// The largest double below x > 0.
fn below(x: f64) -> f64 {
    f64::from_bits(x.to_bits() - 1)
}

/// The schedule crawlsched_probe_policy_schedule gives, or its status.
fn schedule(
    p: *const crawlsched_probe_profile_t,
    policy: i32,
    x: f64,
) -> Result<Vec<f64>, (i32, String)> {
    let mut e = err();
    let mut len = 0usize;
    // SAFETY: size query (NULL, 0), then a buffer of that size.
    unsafe {
        let st = crawlsched_probe_policy_schedule(p, policy, x, null_mut(), 0, &mut len, &mut e);
        if st != CRAWLSCHED_BUFFER_TOO_SMALL && st != CRAWLSCHED_OK {
            return Err((st, message(&e)));
        }
        let mut out = vec![0.0; len];
        let st =
            crawlsched_probe_policy_schedule(p, policy, x, out.as_mut_ptr(), len, &mut len, &mut e);
        if st != CRAWLSCHED_OK {
            return Err((st, message(&e)));
        }
        out.truncate(len);
        Ok(out)
    }
}

/// Issue item: rho = nextafter(1, 0) made Algorithm 10 halve mu about
/// 5·10^16 times (rho = 0.9999999: 41 s). The number of mu levels times the
/// moves scanned per level is now checked up front.
#[test]
fn improve_with_rho_just_below_one_is_refused_at_once() {
    let _g = serial();
    let p = dbworld(3.0, 28.0);
    let probes: Vec<f64> = (1..=8).map(|i| 3.5 * i as f64).collect();
    for rho in [below(1.0), 0.9999999, 1.0 - 1e-12] {
        let mut out = [0.0; 8];
        let mut moves = 0u64;
        let mut e = err();
        let (st, t) = timed(|| unsafe {
            crawlsched_probe_improve(
                p,
                probes.as_ptr(),
                8,
                0.0,
                0.5,
                1.0 / 512.0,
                rho,
                1e-9,
                out.as_mut_ptr(),
                8,
                &mut moves,
                &mut e,
            )
        });
        assert_eq!(st, CRAWLSCHED_TOO_LARGE, "rho = {rho}: {}", message(&e));
        assert!(message(&e).contains("rho"), "{}", message(&e));
        assert!(t < Duration::from_secs(5), "rho = {rho}: {t:?}");
    }
    // A single probe has no move to scan, but the levels still count.
    let mut out = [0.0; 1];
    let (mut moves, mut e) = (0u64, err());
    let st = unsafe {
        crawlsched_probe_improve(
            p,
            [28.0].as_ptr(),
            1,
            0.0,
            0.5,
            1e-300,
            0.5,
            1e-9,
            out.as_mut_ptr(),
            1,
            &mut moves,
            &mut e,
        )
    };
    // 0.5 · 0.5^j >= 1e-300 for j <= 995: 996 levels, fine.
    assert_eq!(st, CRAWLSCHED_OK, "{}", message(&e));
    assert_eq!(out[0], 28.0);
    // The paper's parameters are unaffected: the result never costs more.
    let mut out = [0.0; 8];
    let st = unsafe {
        crawlsched_probe_improve(
            p,
            probes.as_ptr(),
            8,
            0.0,
            0.5,
            1.0 / 512.0,
            0.5,
            1e-9,
            out.as_mut_ptr(),
            8,
            &mut moves,
            &mut e,
        )
    };
    assert_eq!(st, CRAWLSCHED_OK, "{}", message(&e));
    let mut cost = |v: &[f64]| {
        let mut c = 0.0;
        assert_eq!(
            unsafe { crawlsched_probe_expected_cost(p, v.as_ptr(), v.len(), &mut c, &mut e) },
            CRAWLSCHED_OK
        );
        c
    };
    assert!(cost(&out) < cost(&probes));
    unsafe { crawlsched_probe_profile_free(p) };
}

/// Issue item: with_budget returned a first-arrival probability 1.0 (n = 2
/// on DBWorld, ratio 3, 28 days) that policy_schedule refuses, or one that
/// rounds to a schedule of another length. Now the parameter returned gives
/// exactly the schedule written when fed back, or the status is
/// NOT_CONVERGED.
#[test]
fn with_budget_parameter_round_trips_through_policy_schedule() {
    let _g = serial();
    for (ratio, days) in [(3.0, 28.0), (1.0, 7.0), (10.0, 1.0), (3.0, 365.0)] {
        let p = dbworld(ratio, days);
        for policy in [
            CRAWLSCHED_PROBE_POLICY_THRESHOLD,
            CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL,
        ] {
            for n in 1..=12usize {
                let mut x = 0.0;
                let mut out = vec![0.0; n];
                let mut e = err();
                let st = unsafe {
                    crawlsched_probe_policy_with_budget(
                        p,
                        policy,
                        n as u64,
                        &mut x,
                        out.as_mut_ptr(),
                        n,
                        &mut e,
                    )
                };
                let m = message(&e);
                match st {
                    CRAWLSCHED_OK => {
                        let again = schedule(p, policy, x);
                        assert_eq!(
                            again.as_deref(),
                            Ok(&out[..]),
                            "ratio {ratio}, {days} days, policy {policy}, n = {n}: parameter {x:e}"
                        );
                    }
                    CRAWLSCHED_NOT_CONVERGED => {
                        // Only where no double gives n: the largest
                        // probability below 1 then gives more than n.
                        assert_eq!(policy, CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL, "{m}");
                        let most = schedule(p, policy, below(1.0)).unwrap();
                        assert!(most.len() > n || m.contains("next double"), "n = {n}: {m}");
                    }
                    _ => panic!("ratio {ratio}, policy {policy}, n = {n}: status {st}: {m}"),
                }
            }
        }
        unsafe { crawlsched_probe_profile_free(p) };
    }
    // The case: about 55 expected updates per interval are needed
    // for 2 probes, so π = 1 − e^−55 rounds to 1: no double gives 2.
    let p = dbworld(3.0, 28.0);
    let mut x = 0.0;
    let mut out = [0.0; 2];
    let mut e = err();
    let st = unsafe {
        crawlsched_probe_policy_with_budget(
            p,
            CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL,
            2,
            &mut x,
            out.as_mut_ptr(),
            2,
            &mut e,
        )
    };
    assert_eq!(st, CRAWLSCHED_NOT_CONVERGED, "{x}: {}", message(&e));
    unsafe { crawlsched_probe_profile_free(p) };
}

/// Issue item: a level or probability of 1e-300, DBL_MIN or a subnormal
/// (1e-7 for first arrival: 25.7 s) ran the policy to 10^7 probes, 53-59 s,
/// before TOO_LARGE, even for the size query. A lower bound on the length
/// (Λ/need; per piece h√(λa/2Π)) now refuses it before any probe.
#[test]
fn policy_schedule_with_tiny_parameters_is_refused_at_once() {
    let _g = serial();
    let p = dbworld(3.0, 28.0);
    let sub = f64::from_bits(1);
    for policy in [
        CRAWLSCHED_PROBE_POLICY_THRESHOLD,
        CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL,
    ] {
        // Level 1e-7 is fine (154,552 probes); probability 1e-7 is not.
        let small = if policy == CRAWLSCHED_PROBE_POLICY_THRESHOLD {
            1e-14
        } else {
            1e-7
        };
        for x in [1e-300, f64::MIN_POSITIVE, sub, small] {
            let (mut len, mut e) = (0usize, err());
            let (st, t) = timed(|| unsafe {
                crawlsched_probe_policy_schedule(p, policy, x, null_mut(), 0, &mut len, &mut e)
            });
            assert_eq!(
                st,
                CRAWLSCHED_TOO_LARGE,
                "policy {policy}, {x:e}: {}",
                message(&e)
            );
            assert!(t < Duration::from_secs(1), "policy {policy}, {x:e}: {t:?}");
            assert!(message(&e).len() < 200, "{}", message(&e));
        }
    }
    unsafe { crawlsched_probe_profile_free(p) };
}

/// The policies' chains (piece walk, then false position and bisection
/// over the doubles inside one piece) place each probe where the measure
/// since the last probe first reaches the target: the interval's expected
/// updates equal −ln(1 − π) and its cost equals the level (eq. 5), and the
/// double just before each probe falls short.
#[test]
fn policy_schedule_places_each_probe_where_the_level_is_first_reached() {
    let _g = serial();
    let p = dbworld(3.0, 28.0);
    let mut e = err();
    let cost = |s: f64, f: f64| {
        let mut c = 0.0;
        let mut e = err();
        assert_eq!(
            unsafe { crawlsched_probe_interval_cost(p, s, f, &mut c, &mut e) },
            CRAWLSCHED_OK
        );
        c
    };
    for level in [0.05, 1.0, 20.0] {
        let s = schedule(p, CRAWLSCHED_PROBE_POLICY_THRESHOLD, level).unwrap();
        let mut last = 0.0;
        for &x in &s[..s.len() - 1] {
            assert!(
                (cost(last, x) - level).abs() <= 1e-9 * level,
                "level {level}: {}",
                cost(last, x)
            );
            assert!(cost(last, below(x)) < level);
            last = x;
        }
        assert!(cost(last, 28.0) < level);
    }
    // Constant λ = 4 on [0, 10]: probes exactly −ln(1 − π)/4 apart.
    let lb = [0.0, 1.0];
    let mut q = null_mut();
    let st = unsafe {
        crawlsched_probe_profile_new(
            lb.as_ptr(),
            [4.0].as_ptr(),
            1,
            1,
            lb.as_ptr(),
            [1.0].as_ptr(),
            1,
            1,
            10.0,
            &mut q,
            &mut e,
        )
    };
    assert_eq!(st, CRAWLSCHED_OK, "{}", message(&e));
    for pi in [0.1_f64, 0.5, 0.99] {
        let s = schedule(q, CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL, pi).unwrap();
        let len = -(-pi).ln_1p() / 4.0;
        assert_eq!(s.len(), (10.0 / len).ceil() as usize, "pi {pi}");
        for (i, &x) in s[..s.len() - 1].iter().enumerate() {
            assert!(
                (x - (i + 1) as f64 * len).abs() <= 1e-12 * 10.0,
                "pi {pi}, probe {i}: {x}"
            );
        }
    }
    unsafe {
        crawlsched_probe_profile_free(q);
        crawlsched_probe_profile_free(p);
    }
}

/// Extreme doubles for the sweeps.
pub(crate) const EXTREMES: [f64; 13] = [
    0.0,
    -0.0,
    5e-324,
    f64::MIN_POSITIVE,
    1e-300,
    1e-7,
    0.9999999999999999,
    1.0,
    1e300,
    f64::MAX,
    -1.0,
    f64::INFINITY,
    f64::NAN,
];

/// One hostile call: no PANIC, a bounded time, a short message without
/// 20-digit runs (doubles through Num), and, when OK, the finite outputs
/// the caller checks in `ok`.
pub(crate) fn hostile_call(
    what: &str,
    limit: Duration,
    f: impl FnOnce(&mut crawlsched_error_t) -> i32,
) -> i32 {
    let mut e = err();
    let (st, t) = timed(|| f(&mut e));
    let m = message(&e);
    assert_ne!(st, CRAWLSCHED_PANIC, "{what}: {m}");
    assert_ne!(st, CRAWLSCHED_INTERNAL, "{what}: {m}");
    assert!(t < limit, "{what}: {t:?} (status {st}: {m})");
    assert!(m.len() < 255, "{what}: {} bytes: {m}", m.len());
    let digits = m
        .split(|c: char| !c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0);
    // 20 digits is UINT64_MAX; a double in full runs longer.
    assert!(digits <= 20, "{what}: {m}");
    st
}

/// Class search for the probe exports: every double parameter over the
/// extremes (others at ordinary values) and sizes 0, 1, huge: no PANIC,
/// each call within seconds, finite outputs or a clear status, short
/// messages. (The planner's plan and all_costs take a control through
/// crawlsched_probe_planner_set_control, so only sizes are swept there.)
#[test]
fn probe_exports_survive_extreme_doubles_and_sizes() {
    let _g = serial();
    // Against hangs, not for speed: improve's longest call here (10^6
    // moves) takes 12 s in a debug build on an idle core, twice that on
    // a loaded one.
    let lim = Duration::from_secs(60);
    let p = dbworld(3.0, 28.0);
    let fin = |v: &[f64]| v.iter().all(|x| x.is_finite());
    unsafe {
        for &x in &EXTREMES {
            for &y in &[1.0, 28.0, x] {
                let mut q = null_mut();
                let st = hostile_call(&format!("dbworld({x:e}, {y:e})"), lim, |e| {
                    crawlsched_probe_profile_dbworld(x, y, &mut q, e)
                });
                if st == CRAWLSCHED_OK {
                    crawlsched_probe_profile_free(q);
                }
                let st = hostile_call(&format!("micronet({y:e}, {x:e})"), lim, |e| {
                    crawlsched_probe_profile_micronet(y, x, &mut q, e)
                });
                if st == CRAWLSCHED_OK {
                    crawlsched_probe_profile_free(q);
                }
            }
            // profile_new: a break, a value and the horizon extreme.
            let lb = [0.0, 1.0, 1.0 + x.abs().min(1e300)];
            for (b, v, h) in [
                ([0.0, x, f64::MAX], [1.0, 1.0], 2.0),
                (lb, [x, 1.0], 1.5),
                ([0.0, 1.0, 2.0], [1.0, 1.0], x),
            ] {
                let mut q = null_mut();
                let st = hostile_call(&format!("profile_new({b:?}, {v:?}, {h:e})"), lim, |e| {
                    crawlsched_probe_profile_new(
                        b.as_ptr(),
                        v.as_ptr(),
                        2,
                        1,
                        b.as_ptr(),
                        v.as_ptr(),
                        2,
                        1,
                        h,
                        &mut q,
                        e,
                    )
                });
                if st == CRAWLSCHED_OK {
                    crawlsched_probe_profile_free(q);
                }
            }
            let mut c = 0.0;
            for (s, f) in [(x, 28.0), (0.0, x), (x, x)] {
                if hostile_call("interval_cost", lim, |e| {
                    crawlsched_probe_interval_cost(p, s, f, &mut c, e)
                }) == CRAWLSCHED_OK
                {
                    assert!(c.is_finite());
                }
            }
            let probes = [x, 28.0];
            hostile_call("expected_cost", lim, |e| {
                crawlsched_probe_expected_cost(p, probes.as_ptr(), 2, &mut c, e)
            });
            hostile_call("realized_cost", lim, |e| {
                crawlsched_probe_realized_cost(
                    p,
                    [14.0, 28.0].as_ptr(),
                    2,
                    [x].as_ptr(),
                    1,
                    &mut c,
                    e,
                )
            });
            let mut out = [0.0; 2];
            for (w, sm, t) in [(x, 0.0, 0.5), (10.0, x, 0.5), (1e300, 0.0, x), (x, x, x)] {
                for periodic in [0, 1] {
                    let st = hostile_call(
                        &format!("estimate_intensity({w:e}, {sm:e}, {t:e})"),
                        lim,
                        |e| {
                            crawlsched_probe_estimate_intensity(
                                [t, 0.7].as_ptr(),
                                2,
                                w,
                                [0.0, 0.5, 1.0].as_ptr(),
                                2,
                                periodic,
                                sm,
                                out.as_mut_ptr(),
                                2,
                                e,
                            )
                        },
                    );
                    if st == CRAWLSCHED_OK {
                        assert!(fin(&out));
                    }
                }
            }
            for policy in [
                CRAWLSCHED_PROBE_POLICY_THRESHOLD,
                CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL,
                7,
            ] {
                let mut len = 0usize;
                hostile_call(&format!("policy_schedule({policy}, {x:e})"), lim, |e| {
                    crawlsched_probe_policy_schedule(p, policy, x, null_mut(), 0, &mut len, e)
                });
            }
            let good = [3.5, 7.0, 10.5, 14.0, 17.5, 21.0, 24.5, 28.0];
            for (d, mu0, mu_min, rho, iota) in [
                (x, 0.5, 1.0 / 512.0, 0.5, 1e-9),
                (0.0, x, 1.0 / 512.0, 0.5, 1e-9),
                (0.0, 0.5, x, 0.5, 1e-9),
                (0.0, 0.5, 1.0 / 512.0, x, 1e-9),
                (0.0, 0.5, 1.0 / 512.0, 0.5, x),
                (0.0, 1.0, x, x, x),
            ] {
                let mut out = [0.0; 8];
                let mut moves = 0u64;
                let st = hostile_call(
                    &format!("improve({d:e}, {mu0:e}, {mu_min:e}, {rho:e}, {iota:e})"),
                    lim,
                    |e| {
                        crawlsched_probe_improve(
                            p,
                            good.as_ptr(),
                            8,
                            d,
                            mu0,
                            mu_min,
                            rho,
                            iota,
                            out.as_mut_ptr(),
                            8,
                            &mut moves,
                            e,
                        )
                    },
                );
                if st == CRAWLSCHED_OK {
                    assert!(fin(&out));
                }
            }
            let mut pl = null_mut();
            let st = hostile_call(&format!("planner_new(delta {x:e})"), lim, |e| {
                crawlsched_probe_planner_new(p, 100, x, &mut pl, e)
            });
            if st == CRAWLSCHED_OK {
                hostile_call("planner_set_constraints", lim, |e| {
                    crawlsched_probe_planner_set_constraints(
                        pl,
                        x,
                        [x, 1.0].as_ptr(),
                        [2.0, x].as_ptr(),
                        2,
                        e,
                    )
                });
                let mut out = [0.0; 4];
                let mut c = 0.0;
                for m in 0..4 {
                    hostile_call("planner_plan", lim, |e| {
                        crawlsched_probe_planner_plan(pl, 4, m, out.as_mut_ptr(), 4, &mut c, e)
                    });
                }
                crawlsched_probe_planner_free(pl);
            }
        }
        // Sizes.
        for n in [0u64, 1, 2, 1 << 24, 1 << 40, u64::MAX] {
            let mut x = 0.0;
            let mut one = [0.0; 1];
            let ptr = one.as_mut_ptr();
            hostile_call(&format!("uniform({n})"), lim, |e| {
                crawlsched_probe_uniform(p, n, ptr, 1.min(n as usize), e)
            });
            for policy in [
                CRAWLSCHED_PROBE_POLICY_THRESHOLD,
                CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL,
            ] {
                hostile_call(&format!("with_budget({policy}, {n})"), lim, |e| {
                    crawlsched_probe_policy_with_budget(
                        p,
                        policy,
                        n,
                        &mut x,
                        ptr,
                        1.min(n as usize),
                        e,
                    )
                });
            }
            let mut pl = null_mut();
            let st = hostile_call(&format!("planner_new({n})"), lim, |e| {
                crawlsched_probe_planner_new(p, n, 0.0, &mut pl, e)
            });
            if st == CRAWLSCHED_OK {
                let mut c = 0.0;
                for m in [n, 1 << 20, u64::MAX] {
                    hostile_call(&format!("planner_plan({m})"), lim, |e| {
                        crawlsched_probe_planner_plan(
                            pl,
                            m,
                            CRAWLSCHED_PROBE_METHOD_LAGRANGIAN,
                            ptr,
                            1,
                            &mut c,
                            e,
                        )
                    });
                    hostile_call(&format!("all_costs({m})"), lim, |e| {
                        crawlsched_probe_planner_all_costs(pl, m, ptr, 1, e)
                    });
                }
                crawlsched_probe_planner_free(pl);
            }
        }
        // with_budget on a long horizon: each call bounded.
        let long = dbworld(3.0, 3650.0);
        for n in [1u64, 2, 3, 10, 100, 1000, 100_000] {
            let mut x = 0.0;
            let mut out = vec![0.0; n as usize];
            for policy in [
                CRAWLSCHED_PROBE_POLICY_THRESHOLD,
                CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL,
            ] {
                let st = hostile_call(
                    &format!("with_budget({policy}, {n}) on 10 years"),
                    lim,
                    |e| {
                        crawlsched_probe_policy_with_budget(
                            long,
                            policy,
                            n,
                            &mut x,
                            out.as_mut_ptr(),
                            n as usize,
                            e,
                        )
                    },
                );
                if st == CRAWLSCHED_OK {
                    assert!(fin(&out) && x.is_finite());
                }
            }
        }
        crawlsched_probe_profile_free(long);
        crawlsched_probe_profile_free(p);
    }
}
