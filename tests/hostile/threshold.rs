//! Hostile calls: threshold (the model and its measures, cost, optimum and
//! response time).

use super::dist::{assert_clean_message, with_default_cap};
use super::support::*;
use crawlsched::ffi::*;
use std::ptr::{null, null_mut};

const MIB: u64 = 1 << 20;

fn exp_dist(rate: f64) -> *mut crawlsched_dist_t {
    let mut d = null_mut();
    let st = unsafe { crawlsched_dist_exponential_new(rate, &mut d, null_mut()) };
    assert_eq!(st, CRAWLSCHED_OK);
    d
}

fn poisson(rate: f64) -> *mut crawlsched_bmap_t {
    let mut b = null_mut();
    let st = unsafe { crawlsched_bmap_poisson_new(rate, &mut b, null_mut()) };
    assert_eq!(st, CRAWLSCHED_OK);
    b
}

/// A status from a query: no PANIC, OK only with finite outputs, clean message.
fn checked(st: crawlsched_status_t, out: &[f64], e: &crawlsched_error_t, what: &str) {
    assert_ne!(st, CRAWLSCHED_PANIC, "{what}: {}", message(e));
    if st == CRAWLSCHED_OK {
        assert!(out.iter().all(|x| x.is_finite()), "{what}: {out:?} with OK");
    } else {
        assert_clean_message(&message(e));
    }
}

/// Every query of a model under a two-mode policy and a one-mode policy,
/// with extreme weights and times.
fn query_all(m: *const crawlsched_threshold_model_t, robots: u32, what: &str) {
    let policies: Vec<(Vec<u32>, Vec<u32>)> = if robots >= 2 {
        vec![(vec![2, 1], vec![1]), (vec![1], vec![])]
    } else {
        vec![(vec![1], vec![])]
    };
    for (modes, th) in &policies {
        let mut e = err();
        let mut out = [0.0; CRAWLSCHED_THRESHOLD_MEASURE_COUNT];
        let (st, t) = timed(|| unsafe {
            crawlsched_threshold_measures(
                m,
                modes.as_ptr(),
                modes.len(),
                th.as_ptr(),
                th.len(),
                std::ptr::null(),
                out.as_mut_ptr(),
                out.len(),
                &mut e,
            )
        });
        checked(st, &out, &e, &format!("{what} measures"));
        assert!(t.as_secs() < 30, "{what} measures took {t:?}");
        let mut lv = [0.0; 8];
        let mut len = 0;
        let st = unsafe {
            crawlsched_threshold_level_distribution(
                m,
                modes.as_ptr(),
                modes.len(),
                th.as_ptr(),
                th.len(),
                std::ptr::null(),
                lv.as_mut_ptr(),
                lv.len(),
                &mut len,
                &mut e,
            )
        };
        if st != CRAWLSCHED_BUFFER_TOO_SMALL {
            checked(st, &lv[..len.min(8)], &e, &format!("{what} levels"));
        }
        for w in [0.0, 1e-300, 1.0, 1e300, f64::MAX, f64::NAN, f64::INFINITY] {
            let weights = [w, 1.0, w, 1.0, w];
            let mut c = f64::NAN;
            let st = unsafe {
                crawlsched_threshold_cost(
                    m,
                    modes.as_ptr(),
                    modes.len(),
                    th.as_ptr(),
                    th.len(),
                    weights.as_ptr(),
                    5,
                    std::ptr::null(),
                    &mut c,
                    &mut e,
                )
            };
            checked(st, &[c], &e, &format!("{what} cost w = {w}"));
        }
        let mut r = [0.0; CRAWLSCHED_THRESHOLD_RESPONSE_COUNT];
        let (st, t) = timed(|| unsafe {
            crawlsched_threshold_response_time(
                m,
                modes.as_ptr(),
                modes.len(),
                th.as_ptr(),
                th.len(),
                std::ptr::null(),
                r.as_mut_ptr(),
                r.len(),
                &mut e,
            )
        });
        checked(st, &r, &e, &format!("{what} response"));
        assert!(t.as_secs() < 30, "{what} response took {t:?}");
        for times in [
            vec![0.0, 1.0, 1e-300, 4.94e-324],
            vec![1e300],
            vec![f64::NAN],
            vec![-1.0],
        ] {
            for which in [0, 1, 2] {
                let mut o = vec![0.0; times.len()];
                let (st, t) = timed(|| unsafe {
                    crawlsched_threshold_response_cdf(
                        m,
                        modes.as_ptr(),
                        modes.len(),
                        th.as_ptr(),
                        th.len(),
                        which,
                        times.as_ptr(),
                        times.len(),
                        std::ptr::null(),
                        o.as_mut_ptr(),
                        o.len(),
                        &mut e,
                    )
                });
                checked(st, &o, &e, &format!("{what} cdf {times:?}"));
                if st == CRAWLSCHED_OK {
                    assert!(o.iter().all(|p| (0.0..=1.0 + 1e-12).contains(p)), "{o:?}");
                }
                assert!(t.as_secs() < 30, "{what} cdf took {t:?}");
            }
        }
    }
    let modes = if robots >= 2 { vec![2u32, 1] } else { vec![1] };
    let weights = [1.0, 1.0, 1.0, 1.0, 1.0];
    for max_eval in [0, 1, 1000, u64::MAX] {
        let mut th = vec![0u32; modes.len() - 1];
        let (mut c, mut n) = (f64::NAN, 0u64);
        let mut e = err();
        let (st, t) = timed(|| unsafe {
            crawlsched_threshold_optimize(
                m,
                modes.as_ptr(),
                modes.len(),
                weights.as_ptr(),
                5,
                max_eval,
                std::ptr::null(),
                th.as_mut_ptr(),
                th.len(),
                &mut c,
                &mut n,
                &mut e,
            )
        });
        checked(st, &[c], &e, &format!("{what} optimize {max_eval}"));
        assert!(t.as_secs() < 60, "{what} optimize took {t:?}");
    }
}

#[test]
fn every_threshold_export_at_extreme_rates_and_sizes() {
    let _g = serial();
    let rates = [4.94e-324, 1e-300, 1.0, 1e300, f64::MAX];
    with_default_cap(256 * MIB, || {
        for &lam in &rates {
            for &mu in &rates {
                for &(ob, buffer) in &[(None, 3u32), (Some(1.0), 3), (Some(mu), 2)] {
                    let b1 = poisson(lam);
                    let mut b2 = null_mut();
                    let st = unsafe {
                        crawlsched_bmap_compose_new(
                            b1,
                            CRAWLSCHED_BMAP_COMPOSE_SCALED,
                            2,
                            2,
                            0.0,
                            &mut b2,
                            null_mut(),
                        )
                    };
                    let s = exp_dist(mu);
                    let o = ob.map_or(null_mut(), exp_dist);
                    let arr: Vec<*const crawlsched_bmap_t> = if st == CRAWLSCHED_OK {
                        vec![b1, b2]
                    } else {
                        vec![b1]
                    };
                    let mut m = null_mut();
                    let mut e = err();
                    let st = unsafe {
                        crawlsched_threshold_model_new(
                            arr.as_ptr(),
                            arr.len(),
                            s,
                            o,
                            buffer,
                            &mut m,
                            &mut e,
                        )
                    };
                    checked(st, &[], &e, "model_new");
                    if st == CRAWLSCHED_OK {
                        query_all(m, arr.len() as u32, &format!("lam {lam} mu {mu} ob {ob:?}"));
                    }
                    unsafe {
                        crawlsched_threshold_model_free(m);
                        crawlsched_bmap_free(b1);
                        crawlsched_bmap_free(b2);
                        crawlsched_dist_free(s);
                        crawlsched_dist_free(o);
                    }
                }
            }
        }
    });
}

#[test]
fn model_sizes_at_the_extremes_are_refused_within_the_cap() {
    let _g = serial();
    let b = poisson(1.0);
    let s = exp_dist(2.0);
    // Two obsolescence phases: levels double, 2^buffer states at the top.
    let (p, r) = ([0.5, 0.5], [1.0, 3.0]);
    let mut ob = null_mut();
    assert_eq!(
        unsafe {
            crawlsched_dist_hyperexponential_new(p.as_ptr(), r.as_ptr(), 2, &mut ob, null_mut())
        },
        CRAWLSCHED_OK
    );
    let arr = [b as *const _];
    let cap = 64 * MIB;
    with_default_cap(cap, || {
        for (o, buffer) in [
            (null_mut(), u32::MAX),
            (null_mut(), 10_000_000),
            (ob, 64),
            (ob, 20),
            (ob, 16),
            (ob, 14),
            (ob, 12),
            (ob, 10),
        ] {
            let mut m = null_mut();
            let mut e = err();
            let (st, peak) = peak_during(|| unsafe {
                crawlsched_threshold_model_new(arr.as_ptr(), 1, s, o, buffer, &mut m, &mut e)
            });
            checked(st, &[], &e, &format!("buffer {buffer}"));
            assert!(peak as u64 <= cap, "model_new buffer {buffer}: peak {peak}");
            if st != CRAWLSCHED_OK {
                continue;
            }
            // The response time adds the tagged page's chain and its LU.
            let modes = [1u32];
            let mut out = [0.0; CRAWLSCHED_THRESHOLD_RESPONSE_COUNT];
            let (st, peak) = peak_during(|| unsafe {
                crawlsched_threshold_response_time(
                    m,
                    modes.as_ptr(),
                    1,
                    null(),
                    0,
                    std::ptr::null(),
                    out.as_mut_ptr(),
                    out.len(),
                    &mut e,
                )
            });
            checked(st, &out, &e, &format!("response buffer {buffer}"));
            assert!(
                peak as u64 <= cap + cap / 4,
                "response buffer {buffer}: {st} peak {peak}"
            );
            unsafe { crawlsched_threshold_model_free(m) };
        }
    });
    unsafe {
        crawlsched_bmap_free(b);
        crawlsched_dist_free(s);
        crawlsched_dist_free(ob);
    }
}

#[test]
fn huge_search_spaces_are_refused_with_a_short_count() {
    let _g = serial();
    let b = poisson(1.0);
    let s = exp_dist(2.0);
    let arr = vec![b as *const crawlsched_bmap_t; 64];
    let mut m = null_mut();
    let mut e = err();
    let st = unsafe {
        crawlsched_threshold_model_new(arr.as_ptr(), 64, s, null(), 1_000_000, &mut m, &mut e)
    };
    assert_eq!(st, CRAWLSCHED_OK, "{}", message(&e));
    let modes: Vec<u32> = (1..=64).rev().collect();
    let w = [1.0; 5];
    for max_eval in [0, u64::MAX] {
        let mut th = vec![0u32; 63];
        let (mut c, mut n) = (0.0, 0u64);
        let st = unsafe {
            crawlsched_threshold_optimize(
                m,
                modes.as_ptr(),
                64,
                w.as_ptr(),
                5,
                max_eval,
                std::ptr::null(),
                th.as_mut_ptr(),
                63,
                &mut c,
                &mut n,
                &mut e,
            )
        };
        assert_eq!(st, CRAWLSCHED_TOO_LARGE, "{}", message(&e));
        assert_clean_message(&message(&e));
    }
    unsafe {
        crawlsched_threshold_model_free(m);
        crawlsched_bmap_free(b);
        crawlsched_dist_free(s);
    }
}

/// A nearly decomposable chain (obsolescence 10^17 times slower than
/// service, 8,745 states, levels of up to 5,832) defeats the iterative
/// solver, whose fallback is dense LUs of the levels: minutes of work. A
/// control cancelled from another thread stops the evaluation promptly,
/// inside the iterative solve or between two levels of the fallback.
#[test]
fn evaluation_of_a_stiff_chain_is_cancelled_promptly() {
    let _g = serial();
    let erlang = |k: u32, rate: f64| {
        let mut d = null_mut();
        let st = unsafe { crawlsched_dist_erlang_new(k, rate, &mut d, null_mut()) };
        assert_eq!(st, CRAWLSCHED_OK);
        d
    };
    let (a, b) = (poisson(22.5), poisson(22.5));
    let (service, obs) = (erlang(8, 22.5), erlang(3, 3.425122646291365e-16));
    let arrivals = [a as *const _, b as *const _];
    let mut m = null_mut();
    let st = unsafe {
        crawlsched_threshold_model_new(arrivals.as_ptr(), 2, service, obs, 6, &mut m, null_mut())
    };
    assert_eq!(st, CRAWLSCHED_OK);
    let mut ctl = null_mut();
    assert_eq!(
        unsafe { crawlsched_control_new(&mut ctl, null_mut()) },
        CRAWLSCHED_OK
    );
    let c = ctl as usize;
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        // SAFETY: the control outlives the join below.
        unsafe { crawlsched_control_cancel(c as *mut crawlsched_control_t, null_mut()) };
        std::time::Instant::now()
    });
    let modes = [1u32];
    let mut out = vec![0.0; 16];
    let mut len = 0usize;
    let mut e = err();
    let st = unsafe {
        crawlsched_threshold_level_distribution(
            m,
            modes.as_ptr(),
            1,
            null(),
            0,
            ctl,
            out.as_mut_ptr(),
            out.len(),
            &mut len,
            &mut e,
        )
    };
    let returned = std::time::Instant::now();
    let cancelled_at = canceller.join().unwrap();
    assert_eq!(st, CRAWLSCHED_CANCELLED, "{}", message(&e));
    assert_clean_message(&message(&e));
    let late = returned.saturating_duration_since(cancelled_at);
    assert!(
        late < std::time::Duration::from_secs(5),
        "returned {late:?} after the cancel"
    );
    unsafe {
        crawlsched_control_free(ctl);
        crawlsched_threshold_model_free(m);
        crawlsched_dist_free(service);
        crawlsched_dist_free(obs);
        crawlsched_bmap_free(a);
        crawlsched_bmap_free(b);
    }
}
