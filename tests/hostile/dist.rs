//! Hostile calls: dist (distributions, and the BMAP constructors and fits
//! that live in the dist module).

use super::support::*;
use crawlsched::ffi::*;
use std::ptr::{null, null_mut};

const MIB: u64 = 1 << 20;

/// Runs `f` with the process-wide default memory cap set to `cap` (0: the
/// one in force, the machine's memory unless a test changed it), and puts
/// the previous cap back (also if `f` panics).
pub fn with_default_cap<T>(cap: u64, f: impl FnOnce() -> T) -> T {
    struct Restore(u64);
    impl Drop for Restore {
        fn drop(&mut self) {
            crawlsched_set_default_memory_limit(self.0);
        }
    }
    let _r = Restore(crawlsched_get_default_memory_limit());
    if cap != 0 {
        crawlsched_set_default_memory_limit(cap);
    }
    f()
}

/// A message fit for C: under 255 bytes, no run of 20 digits.
pub fn assert_clean_message(m: &str) {
    assert!(m.len() < 255, "message too long: {m}");
    let mut run = 0;
    for c in m.chars() {
        run = if c.is_ascii_digit() { run + 1 } else { 0 };
        assert!(run < 20, "20-digit run in {m}");
    }
}

fn exponential(rate: f64) -> (crawlsched_status_t, *mut crawlsched_dist_t) {
    let mut d = null_mut();
    let st = unsafe { crawlsched_dist_exponential_new(rate, &mut d, null_mut()) };
    (st, d)
}

fn free(d: *mut crawlsched_dist_t) {
    unsafe { crawlsched_dist_free(d) }
}

#[test]
fn coxian_of_100k_phases_is_refused_before_allocating() {
    let _g = serial();
    let n = 100_000;
    let rates = vec![1.0; n];
    let cont = vec![0.5; n - 1];
    for cap in [0, 64 * MIB] {
        let mut e = err();
        let mut d = null_mut();
        let (st, peak) = with_default_cap(cap, || {
            peak_during(|| unsafe {
                crawlsched_dist_coxian_new(rates.as_ptr(), n, cont.as_ptr(), n - 1, &mut d, &mut e)
            })
        });
        assert_eq!(st, CRAWLSCHED_TOO_LARGE, "{}", message(&e));
        assert!(d.is_null());
        assert!(peak < 8 * MIB as usize, "peak {peak}");
        assert_clean_message(&message(&e));
        assert!(
            message(&e).contains("Coxian of 100000 phases"),
            "{}",
            message(&e)
        );
    }
}

#[test]
fn phase_type_constructors_respect_the_cap() {
    let _g = serial();
    // Order 1000: 16 x 8 MB of working matrices, over a 64 MiB cap, under 1 GiB.
    let n = 1000;
    let rates = vec![1.0; n];
    let cont = vec![0.5; n - 1];
    let probs = vec![1.0 / n as f64; n];
    for (cap, ok) in [(64 * MIB, false), (1024 * MIB, true)] {
        with_default_cap(cap, || {
            let mut d = null_mut();
            let mut e = err();
            let (st, peak) = peak_during(|| unsafe {
                crawlsched_dist_coxian_new(rates.as_ptr(), n, cont.as_ptr(), n - 1, &mut d, &mut e)
            });
            assert_eq!(st == CRAWLSCHED_OK, ok, "{st} {}", message(&e));
            assert!(peak as u64 <= cap, "peak {peak} over cap {cap}");
            free(d);
            // A hyperexponential turned into a dense PH by the threshold model.
            let mut h = null_mut();
            assert_eq!(
                unsafe {
                    crawlsched_dist_hyperexponential_new(
                        probs.as_ptr(),
                        rates.as_ptr(),
                        n,
                        &mut h,
                        null_mut(),
                    )
                },
                CRAWLSCHED_OK
            );
            let mut b = null_mut();
            assert_eq!(
                unsafe { crawlsched_bmap_poisson_new(1.0, &mut b, null_mut()) },
                CRAWLSCHED_OK
            );
            let mut m = null_mut();
            let mut e = err();
            let arr = [b as *const _];
            let (st, peak) = peak_during(|| unsafe {
                crawlsched_threshold_model_new(arr.as_ptr(), 1, h, null(), 2, &mut m, &mut e)
            });
            assert!(
                st == CRAWLSCHED_OK || st == CRAWLSCHED_TOO_LARGE,
                "{st} {}",
                message(&e)
            );
            if !ok {
                assert_eq!(st, CRAWLSCHED_TOO_LARGE);
            }
            assert!(peak as u64 <= cap, "peak {peak} over cap {cap}");
            unsafe {
                crawlsched_threshold_model_free(m);
                crawlsched_bmap_free(b);
            }
            free(h);
        });
    }
}

#[test]
fn threshold_model_with_100k_branch_hyperexponential_service_is_refused() {
    let _g = serial();
    let n = 100_000;
    let probs = vec![1.0 / n as f64; n];
    let rates = vec![1.0; n];
    let mut h = null_mut();
    assert_eq!(
        unsafe {
            crawlsched_dist_hyperexponential_new(
                probs.as_ptr(),
                rates.as_ptr(),
                n,
                &mut h,
                null_mut(),
            )
        },
        CRAWLSCHED_OK
    );
    let mut b = null_mut();
    assert_eq!(
        unsafe { crawlsched_bmap_poisson_new(1.0, &mut b, null_mut()) },
        CRAWLSCHED_OK
    );
    let arr = [b as *const _];
    let mut m = null_mut();
    let mut e = err();
    let (st, peak) = peak_during(|| unsafe {
        crawlsched_threshold_model_new(arr.as_ptr(), 1, h, null(), 2, &mut m, &mut e)
    });
    assert_eq!(st, CRAWLSCHED_TOO_LARGE, "{}", message(&e));
    assert!(peak < 8 * MIB as usize, "peak {peak}");
    assert_clean_message(&message(&e));
    unsafe { crawlsched_bmap_free(b) };
    free(h);
}

/// An order-2 BMAP with `k` batch matrices (D1..Dk all equal).
fn wide_bmap(k: usize) -> *mut crawlsched_bmap_t {
    let rate = 1.0 / k as f64;
    let mut m = vec![-1.0, 0.5, 0.5, -1.0];
    for _ in 0..k {
        m.extend_from_slice(&[0.5 * rate, 0.0, 0.0, 0.5 * rate]);
    }
    let mut b = null_mut();
    let mut e = err();
    let st = unsafe { crawlsched_bmap_new(2, m.as_ptr(), m.len(), &mut b, &mut e) };
    assert_eq!(st, CRAWLSCHED_OK, "{}", message(&e));
    b
}

#[test]
fn independent_composition_is_checked_before_building() {
    let _g = serial();
    let b = wide_bmap(1000);
    for (total, cap) in [(12, 0), (12, 64 * MIB), (8, 64 * MIB), (4, 64 * MIB)] {
        let mut out = null_mut();
        let mut e = err();
        let (st, peak) = with_default_cap(cap, || {
            peak_during(|| unsafe {
                crawlsched_bmap_compose_new(
                    b,
                    CRAWLSCHED_BMAP_COMPOSE_INDEPENDENT,
                    1,
                    total,
                    0.5,
                    &mut out,
                    &mut e,
                )
            })
        });
        assert!(
            st == CRAWLSCHED_OK || st == CRAWLSCHED_TOO_LARGE,
            "{st} {}",
            message(&e)
        );
        if total >= 8 {
            assert_eq!(st, CRAWLSCHED_TOO_LARGE, "total {total}");
        }
        let limit = if cap == 0 { 64 * MIB } else { cap };
        assert!(peak as u64 <= limit, "total {total}: peak {peak}");
        assert_clean_message(&message(&e));
        unsafe { crawlsched_bmap_free(out) };
    }
    unsafe { crawlsched_bmap_free(b) };
}

#[test]
fn threshold_model_shares_one_fitted_bmap_across_modes() {
    let _g = serial();
    let mut b = null_mut();
    let mut e = err();
    let st =
        unsafe { crawlsched_bmap_fit_new(212.03, 51352.38, 0.622, 3.26, 65_536, &mut b, &mut e) };
    assert_eq!(st, CRAWLSCHED_OK, "{}", message(&e));
    let mut s = null_mut();
    assert_eq!(
        unsafe { crawlsched_dist_exponential_new(1.0, &mut s, null_mut()) },
        CRAWLSCHED_OK
    );
    let cap = 256 * MIB;
    for n in [100usize, 1000] {
        let arr = vec![b as *const crawlsched_bmap_t; n];
        let mut m = null_mut();
        let mut e = err();
        let (st, peak) = with_default_cap(cap, || {
            peak_during(|| unsafe {
                crawlsched_threshold_model_new(arr.as_ptr(), n, s, null(), 4, &mut m, &mut e)
            })
        });
        assert!(
            st == CRAWLSCHED_OK || st == CRAWLSCHED_TOO_LARGE,
            "{st} {}",
            message(&e)
        );
        // The processes are shared, not copied: a few bytes per mode.
        assert!(peak < 8 * MIB as usize, "{n} modes: peak {peak}");
        unsafe { crawlsched_threshold_model_free(m) };
    }
    unsafe { crawlsched_bmap_free(b) };
    free(s);
}

#[test]
fn draws_that_overflow_are_numerical_and_leave_out_untouched() {
    let _g = serial();
    let (st, d) = exponential(4.94e-324);
    assert_eq!(st, CRAWLSCHED_OK);
    let mut h = null_mut();
    let (p, r) = ([0.5, 0.5], [1.0, 1e-310]);
    assert_eq!(
        unsafe {
            crawlsched_dist_hyperexponential_new(p.as_ptr(), r.as_ptr(), 2, &mut h, null_mut())
        },
        CRAWLSCHED_OK
    );
    for dist in [d, h] {
        let mut out = [7.0; 64];
        let mut e = err();
        let st = unsafe { crawlsched_dist_sample(dist, 1, out.as_mut_ptr(), 64, &mut e) };
        assert_eq!(st, CRAWLSCHED_NUMERICAL, "{}", message(&e));
        assert!(out.iter().all(|&x| x == 7.0));
        assert_clean_message(&message(&e));
        let mut x = 0.0;
        for st in [
            unsafe { crawlsched_dist_mean(dist, &mut x, null_mut()) },
            unsafe { crawlsched_dist_variance(dist, &mut x, null_mut()) },
        ] {
            assert_eq!(st, CRAWLSCHED_NUMERICAL);
        }
    }
    free(d);
    free(h);
}

#[test]
fn a_phase_type_draw_that_never_ends_is_refused() {
    let _g = serial();
    // Two phases swapping at rate 1, leaving at rate 1e-12: ~1e12 jumps a draw.
    let alpha = [1.0, 0.0];
    let s = [-1.0, 1.0, 1.0, -(1.0 + 1e-12)];
    let mut d = null_mut();
    assert_eq!(
        unsafe {
            crawlsched_dist_phase_type_new(alpha.as_ptr(), 2, s.as_ptr(), 4, &mut d, null_mut())
        },
        CRAWLSCHED_OK
    );
    let mut out = [0.0; 1];
    let mut e = err();
    let (st, t) = timed(|| unsafe { crawlsched_dist_sample(d, 3, out.as_mut_ptr(), 1, &mut e) });
    assert_eq!(st, CRAWLSCHED_NUMERICAL, "{}", message(&e));
    assert!(t.as_secs() < 60, "{t:?}");
    free(d);
}

fn laplace(d: *const crawlsched_dist_t, s: f64) -> f64 {
    let mut x = f64::NAN;
    let mut e = err();
    let st = unsafe { crawlsched_dist_laplace(d, s, &mut x, &mut e) };
    assert_eq!(st, CRAWLSCHED_OK, "s = {s}: {}", message(&e));
    x
}

/// |got − want| within `ulps` (times the condition number `cond`, at least
/// 1) relative; both zero also matches.
fn close(got: f64, want: f64, cond: f64, what: &str) {
    if want.abs() < f64::MIN_POSITIVE {
        assert!(
            got.abs() <= f64::MIN_POSITIVE,
            "{what}: got {got}, want {want}"
        );
        return;
    }
    let rel = ((got - want) / want).abs();
    assert!(
        rel <= 1e-14 * cond.max(1.0),
        "{what}: got {got}, want {want}, rel {rel}"
    );
}

#[test]
fn deterministic_laplace_is_exp_minus_sx_not_one_minus_the_complement() {
    let _g = serial();
    let mut d = null_mut();
    assert_eq!(
        unsafe { crawlsched_dist_deterministic_new(2.394, &mut d, null_mut()) },
        CRAWLSCHED_OK
    );
    let h = laplace(d, 16.71);
    close(h, (-16.71f64 * 2.394).exp(), 40.0, "e^-40");
    assert!(h > 4e-18 && h < 4.4e-18);
    free(d);
}

/// Every distribution's transform against its closed form, s over
/// 1e-300..1e300, including the phase-type (LU) representations of the
/// same laws.
#[test]
fn laplace_matches_closed_forms_over_the_whole_range() {
    let _g = serial();
    let ss: Vec<f64> = (-300..=300)
        .step_by(7)
        .map(|e| 10f64.powi(e) * 1.37)
        .collect();
    let new_ph = |alpha: &[f64], s: &[f64]| {
        let mut d = null_mut();
        let st = unsafe {
            crawlsched_dist_phase_type_new(
                alpha.as_ptr(),
                alpha.len(),
                s.as_ptr(),
                s.len(),
                &mut d,
                null_mut(),
            )
        };
        assert_eq!(st, CRAWLSCHED_OK);
        d
    };
    for mu in [1e-200, 3e-5, 1.0, 7e4, 1e200] {
        let (_, e) = exponential(mu);
        let ph = new_ph(&[1.0], &[-mu]);
        let mut er = null_mut();
        assert_eq!(
            unsafe { crawlsched_dist_erlang_new(3, mu, &mut er, null_mut()) },
            CRAWLSCHED_OK
        );
        let erph = new_ph(
            &[1.0, 0.0, 0.0],
            &[-mu, mu, 0.0, 0.0, -mu, mu, 0.0, 0.0, -mu],
        );
        let (p, r) = ([0.3, 0.7], [mu, 1e3 * mu]);
        let mut hy = null_mut();
        assert_eq!(
            unsafe {
                crawlsched_dist_hyperexponential_new(p.as_ptr(), r.as_ptr(), 2, &mut hy, null_mut())
            },
            CRAWLSCHED_OK
        );
        let hyph = new_ph(&p, &[-r[0], 0.0, 0.0, -r[1]]);
        for &s in &ss {
            // mu/(mu+s) without overflow: 1/(1 + s/mu).
            let q = s / mu;
            let h1 = if q.is_finite() { 1.0 / (1.0 + q) } else { 0.0 };
            let ln1 = if q.is_finite() {
                -q.ln_1p()
            } else {
                mu.ln() - s.ln()
            };
            close(laplace(e, s), h1, 1.0, &format!("exp({mu}) at {s}"));
            close(laplace(ph, s), h1, 4.0, &format!("PH exp({mu}) at {s}"));
            let h3 = (3.0 * ln1).exp();
            close(
                laplace(er, s),
                h3,
                -3.0 * ln1,
                &format!("Erlang({mu}) at {s}"),
            );
            close(
                laplace(erph, s),
                h3,
                -3.0 * ln1 + 8.0,
                &format!("PH Erlang({mu}) at {s}"),
            );
            let hh: f64 = p.iter().zip(r).map(|(p, r)| p / (1.0 + s / r)).sum();
            close(laplace(hy, s), hh, 2.0, &format!("H2({mu}) at {s}"));
            close(laplace(hyph, s), hh, 8.0, &format!("PH H2({mu}) at {s}"));
        }
        for d in [e, ph, er, erph, hy, hyph] {
            free(d);
        }
    }
    // Deterministic and empirical: e^{-sx}, including far below 1e-300.
    for x in [1e-300, 0.37, 2.394, 1e250] {
        let mut d = null_mut();
        assert_eq!(
            unsafe { crawlsched_dist_deterministic_new(x, &mut d, null_mut()) },
            CRAWLSCHED_OK
        );
        let mut em = null_mut();
        let xs = [x, x];
        assert_eq!(
            unsafe { crawlsched_dist_empirical_new(xs.as_ptr(), 2, &mut em, null_mut()) },
            CRAWLSCHED_OK
        );
        for &s in &ss {
            let want = (-s * x).exp();
            close(laplace(d, s), want, s * x, &format!("det({x}) at {s}"));
            close(laplace(em, s), want, s * x, &format!("emp({x}) at {s}"));
        }
        free(d);
        free(em);
    }
}

/// The complement and ln(1/h) that freshness uses, from the Rust API, for
/// the distributions that have no closed form of ln h.
#[test]
fn complement_and_log_transform_keep_relative_precision() {
    let _g = serial();
    use crawlsched::dist::{Distribution, PhaseType};
    let (p, r) = (vec![0.3, 0.7], vec![1.0, 1e3]);
    let hy = Distribution::hyperexponential(p.clone(), r.clone()).unwrap();
    let hyph = Distribution::PhaseType(PhaseType::hyperexponential(&p, &r).unwrap());
    let emp = Distribution::empirical(vec![2.0, 3.0]).unwrap();
    for e in (-300..=300).step_by(3) {
        let s = 10f64.powi(e) * 1.37;
        let c: f64 = p.iter().zip(&r).map(|(p, r)| p / (1.0 + r / s)).sum();
        close(hy.laplace_complement(s), c, 2.0, &format!("H2 1-h at {s}"));
        close(
            hyph.laplace_complement(s),
            c,
            8.0,
            &format!("PH H2 1-h at {s}"),
        );
        // ln h: log-sum-exp of the branches, finite far below h = 1e-308.
        let terms: Vec<f64> = p
            .iter()
            .zip(&r)
            .map(|(p, &r): (&f64, &f64)| {
                let q = s / r;
                p.ln()
                    - if q.is_finite() {
                        q.ln_1p()
                    } else {
                        s.ln() - r.ln()
                    }
            })
            .collect();
        let mx = terms.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let lh = mx + terms.iter().map(|t| (t - mx).exp()).sum::<f64>().ln();
        let lh = if c <= 0.5 { (-c).ln_1p() } else { lh };
        for (d, what) in [(&hy, "H2"), (&hyph, "PH H2")] {
            let got = d.log_laplace(s);
            assert!(got.is_finite(), "{what} ln h at {s}: {got}");
            close(got, lh, 16.0, &format!("{what} ln h at {s}"));
        }
        let le = {
            let (a, b) = (-2.0 * s, -3.0 * s);
            a + (b - a).exp().ln_1p() - 2f64.ln()
        };
        let got = emp.log_laplace(s);
        if le.is_finite() && c > 0.5 {
            close(got, le, 4.0, &format!("emp ln h at {s}"));
        }
    }
}

#[test]
fn fit_messages_name_the_parameter_and_stay_short() {
    let _g = serial();
    let mut b = null_mut();
    let mut e = err();
    let st = unsafe { crawlsched_bmap_fit_new(212.0, 51352.0, 0.6, f64::NAN, 8, &mut b, &mut e) };
    assert_eq!(st, CRAWLSCHED_INVALID_ARGUMENT);
    assert!(
        message(&e).contains("batch_mean must be finite"),
        "{}",
        message(&e)
    );
    for (m1, m2, m3) in [
        (1e300, 1e300, 1e300),
        (1e-300, 1e300, f64::MAX),
        (f64::MIN_POSITIVE, 1.0, 1.0),
        (1.0, 1e-300, 1e300),
        (1e300, 3e300, f64::MAX),
    ] {
        let mut d = null_mut();
        let mut e = err();
        for f in [crawlsched_dist_fit_aph2_new, crawlsched_dist_fit_h2_new] {
            let st = unsafe { f(m1, m2, m3, &mut d, &mut e) };
            assert_ne!(st, CRAWLSCHED_PANIC);
            if st == CRAWLSCHED_OK {
                free(d);
            } else {
                assert_clean_message(&message(&e));
            }
        }
    }
}

const EXTREMES: [f64; 12] = [
    0.0,
    4.94e-324,
    2.2e-308,
    1e-300,
    1e-9,
    0.999_999_999_999_999_9,
    1.0,
    1e9,
    1e300,
    f64::MAX,
    f64::INFINITY,
    f64::NAN,
];

/// Every query on `d` at extreme arguments: no PANIC, finite value or a
/// clear non-OK status.
fn probe_all(d: *const crawlsched_dist_t, what: &str) {
    let check = |st: crawlsched_status_t, x: f64, e: &crawlsched_error_t, q: &str| {
        assert_ne!(st, CRAWLSCHED_PANIC, "{what} {q}: {}", message(e));
        if st == CRAWLSCHED_OK {
            assert!(x.is_finite(), "{what} {q}: {x} with OK");
        } else {
            assert_clean_message(&message(e));
        }
    };
    let mut x = f64::NAN;
    let mut e = err();
    check(
        unsafe { crawlsched_dist_mean(d, &mut x, &mut e) },
        x,
        &e,
        "mean",
    );
    check(
        unsafe { crawlsched_dist_variance(d, &mut x, &mut e) },
        x,
        &e,
        "variance",
    );
    for k in [0, 1, 2, 7, 200, u32::MAX] {
        let (st, t) = timed(|| unsafe { crawlsched_dist_moment(d, k, &mut x, &mut e) });
        check(st, x, &e, &format!("moment {k}"));
        assert!(t.as_secs() < 5, "{what} moment {k}: {t:?}");
    }
    for s in EXTREMES {
        let st = unsafe { crawlsched_dist_laplace(d, s, &mut x, &mut e) };
        check(st, x, &e, &format!("laplace {s}"));
        if st == CRAWLSCHED_OK {
            assert!((0.0..=1.0).contains(&x), "{what} laplace {s} = {x}");
        }
        check(
            unsafe { crawlsched_dist_cdf(d, s, &mut x, &mut e) },
            x,
            &e,
            &format!("cdf {s}"),
        );
        check(
            unsafe { crawlsched_dist_cdf(d, -s, &mut x, &mut e) },
            x,
            &e,
            &format!("cdf -{s}"),
        );
    }
    let mut out = [0.0; 16];
    let st = unsafe { crawlsched_dist_sample(d, 9, out.as_mut_ptr(), 16, &mut e) };
    assert_ne!(st, CRAWLSCHED_PANIC);
    if st == CRAWLSCHED_OK {
        assert!(
            out.iter().all(|x| x.is_finite() && *x >= 0.0),
            "{what} samples {out:?}"
        );
    }
}

#[test]
fn every_distribution_at_extreme_parameters_gives_finite_values_or_a_status() {
    let _g = serial();
    let ok = |st: crawlsched_status_t, e: &crawlsched_error_t| {
        assert_ne!(st, CRAWLSCHED_PANIC, "{}", message(e));
        if st != CRAWLSCHED_OK {
            assert_clean_message(&message(e));
        }
        st == CRAWLSCHED_OK
    };
    for a in EXTREMES {
        for b in EXTREMES {
            let mut e = err();
            let mut d = null_mut();
            let each = |st: crawlsched_status_t,
                        d: *mut crawlsched_dist_t,
                        what: &str,
                        e: &crawlsched_error_t| {
                if ok(st, e) {
                    probe_all(d, what);
                    free(d);
                }
            };
            let st = unsafe { crawlsched_dist_deterministic_new(a, &mut d, &mut e) };
            each(st, d, &format!("det({a})"), &e);
            let st = unsafe { crawlsched_dist_exponential_new(a, &mut d, &mut e) };
            each(st, d, &format!("exp({a})"), &e);
            for k in [1u32, 2, 1000, u32::MAX] {
                let st = unsafe { crawlsched_dist_erlang_new(k, a, &mut d, &mut e) };
                each(st, d, &format!("erlang({k}, {a})"), &e);
            }
            let st = unsafe { crawlsched_dist_gamma_new(a, b, &mut d, &mut e) };
            each(st, d, &format!("gamma({a}, {b})"), &e);
            let (p, r) = ([0.5, 0.5], [a, b]);
            let st = unsafe {
                crawlsched_dist_hyperexponential_new(p.as_ptr(), r.as_ptr(), 2, &mut d, &mut e)
            };
            each(st, d, &format!("H2({a}, {b})"), &e);
            let sm = [-a, a * 0.5, 0.0, -b];
            let st = unsafe {
                crawlsched_dist_phase_type_new(
                    [1.0, 0.0].as_ptr(),
                    2,
                    sm.as_ptr(),
                    4,
                    &mut d,
                    &mut e,
                )
            };
            each(st, d, &format!("PH({a}, {b})"), &e);
            let (cr, cc) = ([a, b], [0.5]);
            let st = unsafe {
                crawlsched_dist_coxian_new(cr.as_ptr(), 2, cc.as_ptr(), 1, &mut d, &mut e)
            };
            each(st, d, &format!("coxian({a}, {b})"), &e);
            let xs = [a, b];
            let st = unsafe { crawlsched_dist_empirical_new(xs.as_ptr(), 2, &mut d, &mut e) };
            each(st, d, &format!("emp({a}, {b})"), &e);
            let mut d = null_mut();
            for f in [crawlsched_dist_fit_aph2_new, crawlsched_dist_fit_h2_new] {
                let st = unsafe { f(a, b, b * 10.0, &mut d, &mut e) };
                each(st, d, &format!("fit({a}, {b})"), &e);
            }
        }
    }
}

#[test]
fn bmap_exports_at_extreme_values_give_finite_values_or_a_status() {
    let _g = serial();
    let q = |st: crawlsched_status_t, x: f64, e: &crawlsched_error_t, what: &str| {
        assert_ne!(st, CRAWLSCHED_PANIC, "{what}: {}", message(e));
        if st == CRAWLSCHED_OK {
            assert!(x.is_finite(), "{what}: {x} with OK");
        } else {
            assert_clean_message(&message(e));
        }
    };
    with_default_cap(256 * MIB, || {
        for a in EXTREMES {
            for b in EXTREMES {
                let mut e = err();
                let mut h = null_mut();
                let m = [-a, a, b, -b, a, 0.0, 0.0, b];
                let st = unsafe { crawlsched_bmap_new(2, m.as_ptr(), 8, &mut h, &mut e) };
                q(st, 0.0, &e, &format!("bmap_new({a}, {b})"));
                let mut fitted = null_mut();
                let st = unsafe { crawlsched_bmap_fit_new(a, b, 0.5, 2.0, 8, &mut fitted, &mut e) };
                q(st, 0.0, &e, &format!("fit({a}, {b})"));
                let mut po = null_mut();
                let st = unsafe { crawlsched_bmap_poisson_new(a, &mut po, &mut e) };
                q(st, 0.0, &e, &format!("poisson({a})"));
                for bm in [h, fitted, po] {
                    if bm.is_null() {
                        continue;
                    }
                    let mut x = f64::NAN;
                    let st = unsafe { crawlsched_bmap_fundamental_rate(bm, &mut x, &mut e) };
                    q(st, x, &e, "rate");
                    for k in [0, 1, 2, 64, 65, u32::MAX] {
                        let st =
                            unsafe { crawlsched_bmap_interarrival_moment(bm, k, &mut x, &mut e) };
                        q(st, x, &e, &format!("moment {k}"));
                        let st = unsafe { crawlsched_bmap_lag_correlation(bm, k, &mut x, &mut e) };
                        q(st, x, &e, &format!("lag {k}"));
                    }
                    for (how, act, tot) in [
                        (1, 1, 2),
                        (1, 2, 2),
                        (1, 1, 64),
                        (1, 0, u32::MAX),
                        (2, 1, 1),
                        (3, u32::MAX, u32::MAX),
                        (7, 1, 1),
                    ] {
                        let mut c = null_mut();
                        let st = unsafe {
                            crawlsched_bmap_compose_new(bm, how, act, tot, b, &mut c, &mut e)
                        };
                        q(st, 0.0, &e, &format!("compose {how} {act} {tot} {b}"));
                        unsafe { crawlsched_bmap_free(c) };
                    }
                    unsafe { crawlsched_bmap_free(bm) };
                }
            }
        }
        // Sizes: the largest batch the fit allows, and beyond.
        for mb in [0, 1, 65_536, 65_537, u32::MAX] {
            let mut e = err();
            let mut f = null_mut();
            let (st, peak) = peak_during(|| unsafe {
                crawlsched_bmap_fit_new(212.03, 51352.38, 0.622, 3.26, mb, &mut f, &mut e)
            });
            q(st, 0.0, &e, &format!("fit max_batch {mb}"));
            assert!(peak as u64 <= 256 * MIB, "max_batch {mb}: peak {peak}");
            unsafe { crawlsched_bmap_free(f) };
        }
    });
}

#[test]
fn lag_correlation_of_a_large_lag_stops_once_the_powers_converge() {
    let _g = serial();
    // Two-phase MMPP robots, 8 independent copies: 256 joint phases.
    let m = [-1.5, 1.0, 1.0, -3.0, 0.5, 0.0, 0.0, 2.0];
    let mut b = null_mut();
    assert_eq!(
        unsafe { crawlsched_bmap_new(2, m.as_ptr(), 8, &mut b, null_mut()) },
        CRAWLSCHED_OK
    );
    let mut c = null_mut();
    let mut e = err();
    let st = unsafe {
        crawlsched_bmap_compose_new(
            b,
            CRAWLSCHED_BMAP_COMPOSE_INDEPENDENT,
            8,
            8,
            0.0,
            &mut c,
            &mut e,
        )
    };
    assert_eq!(st, CRAWLSCHED_OK, "{}", message(&e));
    let (mut x, mut y) = (f64::NAN, f64::NAN);
    let (st, t) =
        timed(|| unsafe { crawlsched_bmap_lag_correlation(c, 1_000_000, &mut x, &mut e) });
    assert!(
        st == CRAWLSCHED_OK || st == CRAWLSCHED_TOO_LARGE,
        "{}",
        message(&e)
    );
    assert!(t.as_secs() < 60, "{t:?}");
    if st == CRAWLSCHED_OK {
        // Converged: the lag-10^6 correlation is the limit, as at lag 10^5.
        let st = unsafe { crawlsched_bmap_lag_correlation(c, 100_000, &mut y, &mut e) };
        assert_eq!(st, CRAWLSCHED_OK);
        assert!((x - y).abs() <= 1e-12, "{x} {y}");
    }
    unsafe {
        crawlsched_bmap_free(c);
        crawlsched_bmap_free(b);
    }
}

#[test]
fn copies_of_input_arrays_are_checked_against_the_cap() {
    let _g = serial();
    let n = 100_000;
    let probs = vec![1.0 / n as f64; n];
    let rates = vec![1.0; n];
    with_default_cap(MIB, || {
        let mut d = null_mut();
        let mut e = err();
        let (st, peak) = peak_during(|| unsafe {
            crawlsched_dist_hyperexponential_new(probs.as_ptr(), rates.as_ptr(), n, &mut d, &mut e)
        });
        assert_eq!(st, CRAWLSCHED_TOO_LARGE, "{}", message(&e));
        assert!(peak < MIB as usize, "peak {peak}");
        let (st, peak) = peak_during(|| unsafe {
            crawlsched_dist_empirical_new(rates.as_ptr(), n, &mut d, &mut e)
        });
        assert_eq!(st, CRAWLSCHED_OK, "800 KB fit: {}", message(&e));
        assert!(peak <= MIB as usize, "peak {peak}");
        free(d);
    });
}

/// The complements of the closed forms keep relative precision where they
/// are tiny (s -> 0) and the transforms where those are (s -> infinity).
#[test]
fn complements_of_closed_forms_keep_relative_precision() {
    let _g = serial();
    use crawlsched::dist::Distribution;
    let ex = Distribution::exponential(2.0).unwrap();
    let er = Distribution::erlang(3, 2.0).unwrap();
    let det = Distribution::deterministic(2.394).unwrap();
    for e in (-300..=300).step_by(3) {
        let s = 10f64.powi(e) * 1.37;
        let q = s / 2.0;
        let c1 = if q.is_finite() {
            1.0 / (1.0 + 1.0 / q)
        } else {
            1.0
        };
        close(
            ex.laplace_complement(s),
            c1,
            1.0,
            &format!("exp 1-h at {s}"),
        );
        let l3 = -3.0
            * if q.is_finite() {
                q.ln_1p()
            } else {
                s.ln() - 2f64.ln()
            };
        close(
            er.laplace_complement(s),
            -l3.exp_m1(),
            -l3,
            &format!("Erlang 1-h at {s}"),
        );
        close(er.log_laplace(s), l3, 1.0, &format!("Erlang ln h at {s}"));
        close(
            det.laplace_complement(s),
            -(-s * 2.394).exp_m1(),
            s,
            &format!("det 1-h at {s}"),
        );
        for d in [&ex, &er, &det] {
            let (h, c) = (d.laplace(s).unwrap(), d.laplace_complement(s));
            assert!((h + c - 1.0).abs() <= 4e-16, "{d:?} at {s}: {h} + {c}");
        }
    }
}
