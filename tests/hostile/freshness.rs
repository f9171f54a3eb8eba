//! Hostile calls: freshness (models, optimal frequencies, estimator,
//! scheduler).

#[allow(unused_imports)]
use super::support::*;

use crawlsched::ffi::common::*;
use crawlsched::ffi::dist::*;
use crawlsched::ffi::freshness::*;
use std::ptr::{null, null_mut};

const STRIDE: i32 = CRAWLSCHED_SCHEDULER_STRIDE;
const GOLDEN: i32 = CRAWLSCHED_SCHEDULER_GOLDEN_RATIO;
const MODES: [i32; 2] = [STRIDE, GOLDEN];

/// Owned distribution handle.
struct Dist(*mut crawlsched_dist_t);
impl Drop for Dist {
    fn drop(&mut self) {
        // SAFETY: a live handle from a constructor.
        unsafe { crawlsched_dist_free(self.0) }
    }
}

fn exp1() -> Dist {
    let mut d = null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(
        unsafe { crawlsched_dist_exponential_new(1.0, &mut d, null_mut()) },
        CRAWLSCHED_OK
    );
    Dist(d)
}

fn deterministic(v: f64) -> Dist {
    let mut d = null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(
        unsafe { crawlsched_dist_deterministic_new(v, &mut d, null_mut()) },
        CRAWLSCHED_OK
    );
    Dist(d)
}

/// A status and the message written with it.
type Outcome = (crawlsched_status_t, String);

/// Owned scheduler handle with one method per export.
struct Sched(*mut crawlsched_scheduler_t);
impl Drop for Sched {
    fn drop(&mut self) {
        // SAFETY: a live handle from crawlsched_scheduler_new.
        unsafe { crawlsched_scheduler_free(self.0) }
    }
}

fn call(f: impl FnOnce(*mut crawlsched_error_t) -> crawlsched_status_t) -> Outcome {
    let mut e = err();
    let st = f(&mut e);
    let m = message(&e);
    assert_ne!(st, CRAWLSCHED_PANIC, "PANIC: {m}");
    assert!(m.len() < 255, "message of {} bytes: {m}", m.len());
    assert!(!has_long_digit_run(&m), "a double printed in full: {m}");
    (st, m)
}

/// 20 consecutive digits: a double printed without `Num`.
fn has_long_digit_run(m: &str) -> bool {
    let mut run = 0;
    for c in m.chars() {
        run = if c.is_ascii_digit() { run + 1 } else { 0 };
        if run >= 20 {
            return true;
        }
    }
    false
}

impl Sched {
    fn new(d: &Dist, mode: i32) -> Sched {
        let mut s = null_mut();
        // SAFETY: live distribution, valid out-pointer.
        assert_eq!(
            unsafe { crawlsched_scheduler_new(d.0, mode, &mut s, null_mut()) },
            CRAWLSCHED_OK
        );
        Sched(s)
    }
    fn add(&self, id: u64, rate: f64) -> Outcome {
        // SAFETY: live handle.
        call(|e| unsafe { crawlsched_scheduler_add_page(self.0, id, rate, e) })
    }
    fn add_w(&self, id: u64, rate: f64, w: f64) -> Outcome {
        // SAFETY: live handle.
        call(|e| unsafe { crawlsched_scheduler_add_weighted_page(self.0, id, rate, w, e) })
    }
    fn remove(&self, id: u64) -> Outcome {
        // SAFETY: live handle.
        call(|e| unsafe { crawlsched_scheduler_remove_page(self.0, id, e) })
    }
    fn set_rate(&self, id: u64, rate: f64) -> Outcome {
        // SAFETY: live handle.
        call(|e| unsafe { crawlsched_scheduler_set_change_rate(self.0, id, rate, e) })
    }
    fn observe(&self, id: u64, interval: f64, changed: bool) -> Outcome {
        // SAFETY: live handle.
        call(|e| unsafe {
            crawlsched_scheduler_observe(self.0, id, interval, i32::from(changed), e)
        })
    }
    fn next(&self) -> Result<u64, Outcome> {
        let mut id = u64::MAX;
        // SAFETY: live handle, valid out-pointer.
        let r = call(|e| unsafe { crawlsched_scheduler_next(self.0, &mut id, e) });
        if r.0 == CRAWLSCHED_OK { Ok(id) } else { Err(r) }
    }
    fn next_batch(&self, n: usize) -> Result<Vec<u64>, Outcome> {
        let mut ids = vec![u64::MAX; n];
        // SAFETY: live handle, n writable elements.
        let r =
            call(|e| unsafe { crawlsched_scheduler_next_batch(self.0, ids.as_mut_ptr(), n, e) });
        if r.0 == CRAWLSCHED_OK {
            Ok(ids)
        } else {
            Err(r)
        }
    }
    fn frequency(&self, id: u64) -> Result<f64, Outcome> {
        let mut f = f64::NAN;
        // SAFETY: live handle, valid out-pointer.
        let r = call(|e| unsafe { crawlsched_scheduler_frequency(self.0, id, &mut f, e) });
        if r.0 == CRAWLSCHED_OK { Ok(f) } else { Err(r) }
    }
    fn change_rate(&self, id: u64) -> Result<f64, Outcome> {
        let mut f = f64::NAN;
        // SAFETY: live handle, valid out-pointer.
        let r = call(|e| unsafe { crawlsched_scheduler_change_rate(self.0, id, &mut f, e) });
        if r.0 == CRAWLSCHED_OK { Ok(f) } else { Err(r) }
    }
    fn frequencies(&self) -> Result<Vec<(u64, f64)>, Outcome> {
        let mut len = 0usize;
        // SAFETY: live handle; size query with NULL buffers and cap 0.
        let r = call(|e| unsafe {
            crawlsched_scheduler_frequencies(self.0, null_mut(), null_mut(), 0, &mut len, e)
        });
        if r.0 != CRAWLSCHED_OK && r.0 != CRAWLSCHED_BUFFER_TOO_SMALL {
            return Err(r);
        }
        let (mut ids, mut fs) = (vec![0u64; len], vec![0f64; len]);
        // SAFETY: buffers of len elements.
        let r = call(|e| unsafe {
            crawlsched_scheduler_frequencies(
                self.0,
                ids.as_mut_ptr(),
                fs.as_mut_ptr(),
                len,
                &mut len,
                e,
            )
        });
        if r.0 == CRAWLSCHED_OK {
            Ok(ids.into_iter().zip(fs).collect())
        } else {
            Err(r)
        }
    }
    fn len(&self) -> usize {
        let mut n = usize::MAX;
        // SAFETY: live handle, valid out-pointer.
        assert_eq!(
            unsafe { crawlsched_scheduler_len(self.0, &mut n, null_mut()) },
            CRAWLSCHED_OK
        );
        n
    }
}

/// Every query works and is consistent: next/next_batch return live pages,
/// the frequencies are finite, in [0, 1], sum to one and agree between
/// `frequency` and `frequencies`.
fn assert_healthy(s: &Sched, live: &[u64]) {
    if live.is_empty() {
        assert_eq!(s.next().unwrap_err().0, CRAWLSCHED_NOT_FOUND);
        assert_eq!(s.frequencies().unwrap_err().0, CRAWLSCHED_NOT_FOUND);
        return;
    }
    let all = s
        .frequencies()
        .unwrap_or_else(|e| panic!("frequencies: {e:?}"));
    assert_eq!(all.len(), live.len());
    let mut sum = 0.0;
    for &(id, f) in &all {
        assert!(live.contains(&id), "unknown id {id}");
        assert!(f.is_finite() && (0.0..=1.0).contains(&f), "page {id}: {f}");
        sum += f;
        let one = s
            .frequency(id)
            .unwrap_or_else(|e| panic!("frequency({id}): {e:?}"));
        assert!((one - f).abs() <= 1e-12, "page {id}: {one} vs {f}");
        let r = s
            .change_rate(id)
            .unwrap_or_else(|e| panic!("change_rate({id}): {e:?}"));
        assert!(r.is_finite() && r > 0.0);
    }
    assert!((sum - 1.0).abs() < 1e-9, "sum {sum}");
    let id = s.next().unwrap_or_else(|e| panic!("next: {e:?}"));
    assert!(live.contains(&id));
    for id in s
        .next_batch(3)
        .unwrap_or_else(|e| panic!("next_batch: {e:?}"))
    {
        assert!(live.contains(&id));
    }
}

/// ln G(s), G(s) = 1 − (1 + s)e^{−s} (the bracket of eq. 8 at y = e^{−s}),
/// independent of the library: series below 1/2.
fn ln_big_g(s: f64) -> f64 {
    if s < 0.5 {
        let (mut term, mut sum, mut k) = (0.5_f64, 0.0_f64, 0.0_f64);
        while term.abs() > 1e-18 * sum.abs() || k < 2.0 {
            sum += term;
            term *= -s * (k + 2.0) / ((k + 1.0) * (k + 3.0));
            k += 1.0;
        }
        2.0 * s.ln() + sum.ln()
    } else {
        (-(-s).exp_m1() - s * (-s).exp()).ln()
    }
}

/// KKT conditions (8)-(9) of the optimal frequencies `f` for pages
/// (change rate, weight) with exponential(1) crawl times, where
/// a = −ln h = ln(1 + mu) and w = c/(mu E[X]) = c/mu (in logs: w may
/// overflow): w_i G(a_i/f_i) equal on visited pages to 1e-12, w_i ≤ λ on
/// the others.
fn assert_kkt_exp1(pages: &[(f64, f64)], f: &[f64]) {
    let ln_w: Vec<f64> = pages.iter().map(|&(m, c)| c.ln() - m.ln()).collect();
    let a: Vec<f64> = pages.iter().map(|&(m, _)| m.ln_1p()).collect();
    let ln_lam: Vec<f64> = (0..f.len())
        .filter(|&i| f[i] > 0.0)
        .map(|i| ln_w[i] + ln_big_g(a[i] / f[i]))
        .collect();
    let hi = ln_lam.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let lo = ln_lam.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(
        hi - lo < 1e-12,
        "multipliers {ln_lam:?} for {pages:?}, f = {f:?}"
    );
    for i in 0..f.len() {
        if f[i] == 0.0 {
            assert!(
                ln_w[i] <= hi + 1e-12,
                "page {i} unvisited: {pages:?}, f = {f:?}"
            );
        }
    }
}

/// Issue reproducer: a page of weight DBL_MAX was accepted, then every
/// next/next_batch/frequency/frequencies failed with INVALID_ARGUMENT.
#[test]
fn huge_weight_does_not_poison_the_scheduler() {
    let _g = serial();
    let d = exp1();
    for mode in MODES {
        for (rate, weight) in [
            (1.0, f64::MAX),
            (1e-200, 1e200),
            (1e-300, 1e300),
            (5.0, 1e-300),
        ] {
            let s = Sched::new(&d, mode);
            assert_eq!(s.add(10, 0.5).0, CRAWLSCHED_OK);
            assert_eq!(s.add(11, 0.05).0, CRAWLSCHED_OK);
            let r = s.add_w(1, rate, weight);
            assert_eq!(r.0, CRAWLSCHED_OK, "({rate}, {weight}): {}", r.1);
            assert_healthy(&s, &[1, 10, 11]);
            let f: Vec<f64> = s.frequencies().unwrap().iter().map(|p| p.1).collect();
            assert_kkt_exp1(&[(rate, weight), (0.5, 0.5), (0.05, 0.05)], &f);
            if weight == f64::MAX {
                // c_1/(mu_1 E[X]) dwarfs the others' (1): even at f_1 = 1
                // page 1's marginal value exceeds theirs at f = 0.
                assert_eq!(f[0], 1.0);
            }
            assert_eq!(s.remove(1).0, CRAWLSCHED_OK);
            assert_healthy(&s, &[10, 11]);
        }
    }
}

/// Issue reproducer: the same through observe() alone: weight 1e300, then
/// 20 unchanged visits 1e10 apart pull the rate to ~5e-12, and
/// c/(mu E[X]) overflowed.
#[test]
fn observed_rate_does_not_poison_the_scheduler() {
    let _g = serial();
    let d = exp1();
    for mode in MODES {
        let s = Sched::new(&d, mode);
        assert_eq!(s.add(10, 0.5).0, CRAWLSCHED_OK);
        assert_eq!(s.add_w(1, 1.0, 1e300).0, CRAWLSCHED_OK);
        for _ in 0..20 {
            let r = s.observe(1, 1e10, false);
            assert_eq!(r.0, CRAWLSCHED_OK, "{}", r.1);
            assert_healthy(&s, &[1, 10]);
        }
        assert!(s.change_rate(1).unwrap() < 1e-10);
    }
}

/// Issue reproducer: frequencies on an empty scheduler is NOT_FOUND (as
/// docs/c-api.md says for a scheduler with no pages), before and after
/// pages come and go.
#[test]
fn frequencies_of_an_empty_scheduler_is_not_found() {
    let _g = serial();
    let d = exp1();
    for mode in MODES {
        let s = Sched::new(&d, mode);
        assert_healthy(&s, &[]);
        assert_eq!(s.add(1, 0.5).0, CRAWLSCHED_OK);
        assert_healthy(&s, &[1]);
        assert_eq!(s.remove(1).0, CRAWLSCHED_OK);
        let (st, m) = s.frequencies().unwrap_err();
        assert_eq!(st, CRAWLSCHED_NOT_FOUND, "{m}");
        assert!(m.contains("no pages"), "{m}");
        assert_eq!(s.frequency(1).unwrap_err().0, CRAWLSCHED_NOT_FOUND);
        assert_eq!(s.next_batch(0).unwrap(), Vec::<u64>::new());
    }
}

/// Issue reproducer: a subnormal rate that the access time cannot use was
/// printed with hundreds of digits; the message names `change_rate`.
#[test]
fn refused_rate_messages_are_short_and_name_the_parameter() {
    let _g = serial();
    let d = deterministic(1e-300);
    let s = Sched::new(&d, STRIDE);
    for rate in [5e-324, 1e-310, f64::MIN_POSITIVE, 1e-30] {
        let (st, m) = s.add(1, rate);
        assert_eq!(st, CRAWLSCHED_INVALID_ARGUMENT);
        assert!(m.contains("change_rate"), "{m}");
        assert!(m.len() < 160, "{m}");
    }
    let (st, m) = s.add(1, -1.0);
    assert_eq!(st, CRAWLSCHED_INVALID_ARGUMENT);
    assert!(m.contains("change_rate"), "{m}");
    assert_eq!(s.len(), 0);
}

fn fibonacci_at_least(n: u64) -> u64 {
    let (mut a, mut b) = (1u64, 1u64);
    while a < n {
        (a, b) = (b, a + b);
    }
    a
}

/// Share of each id in `picks`, for ids 0..n.
fn shares(picks: &[u64], n: usize) -> Vec<f64> {
    let mut c = vec![0u64; n];
    for &id in picks {
        c[id as usize] += 1;
    }
    c.iter().map(|&x| x as f64 / picks.len() as f64).collect()
}

/// Issue reproducer: the golden-ratio documentation promises each page's
/// share within 2/F_k of f_i, but with rates log-uniform on [1e-3, 3.2]
/// (300 pages, F_k = 2584) every page was forced to one crawl per cycle,
/// taken from the busiest pages (the issue: 49 crawls per cycle instead of
/// 64.6). Deterministic crawl times here: f_i ∝ mu_i (Theorem 3.4), the
/// busiest page's target is 68.8 per cycle, 143 pages are below one.
#[test]
fn golden_ratio_keeps_the_busiest_page_share() {
    let _g = serial();
    let d = deterministic(1.0);
    let s = Sched::new(&d, GOLDEN);
    let n = 300usize;
    let mu: Vec<f64> = (0..n)
        .map(|i| 1e-3 * (3.2f64 / 1e-3).powf(i as f64 / (n - 1) as f64))
        .collect();
    for (i, &m) in mu.iter().enumerate() {
        assert_eq!(s.add(i as u64, m).0, CRAWLSCHED_OK);
    }
    let big_f = fibonacci_at_least(8 * n as u64) as usize;
    assert_eq!(big_f, 2584);
    let f: Vec<f64> = s.frequencies().unwrap().iter().map(|p| p.1).collect();
    let total: f64 = mu.iter().sum();
    for i in 0..n {
        assert!((f[i] - mu[i] / total).abs() < 1e-12 * f[i].max(1e-3));
    }
    let target = f[n - 1] * big_f as f64;
    assert!((target - 68.84).abs() < 0.01, "{target}");
    assert_eq!(f.iter().filter(|&&x| x * (big_f as f64) < 1.0).count(), 143);
    for _ in 0..3 {
        let cycle = s.next_batch(big_f).unwrap();
        let busiest = cycle.iter().filter(|&&id| id == n as u64 - 1).count();
        assert!(busiest == 68 || busiest == 69, "{busiest}");
    }
    let picks = s.next_batch(20 * big_f).unwrap();
    for (i, share) in shares(&picks, n).iter().enumerate() {
        assert!(
            (share - f[i]).abs() <= 2.0 / big_f as f64,
            "page {i}: {share} vs {}",
            f[i]
        );
    }
}

/// The class: over random instances (sizes, rate spans, weights, crawl
/// times), the long-run share of every page in golden-ratio mode is within
/// 2/F_k of its target frequency (plus one visit over the measured cycles).
#[test]
fn golden_ratio_shares_within_two_over_f() {
    let _g = serial();
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut unif = move || {
        // xorshift64*: a fixed, dependency-free stream.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    };
    for case in 0..12 {
        let d = if case % 2 == 0 {
            exp1()
        } else {
            deterministic(0.5 + unif())
        };
        let s = Sched::new(&d, GOLDEN);
        let n = 2 + (unif() * 120.0) as usize;
        let span = 1.0 + unif() * 6.0;
        let weighted = case % 3 == 2;
        for i in 0..n {
            let mu = 10f64.powf(-span + unif() * (span + 0.5));
            let r = if weighted {
                s.add_w(i as u64, mu, 10f64.powf(-2.0 + 4.0 * unif()))
            } else {
                s.add(i as u64, mu)
            };
            assert_eq!(r.0, CRAWLSCHED_OK, "{}", r.1);
        }
        let big_f = fibonacci_at_least(8 * n as u64) as usize;
        let f: Vec<f64> = s.frequencies().unwrap().iter().map(|p| p.1).collect();
        let cycles = 30;
        let picks = s.next_batch(cycles * big_f).unwrap();
        let tol = 2.0 / big_f as f64 + 1.0 / (cycles * big_f) as f64;
        for (i, share) in shares(&picks, n).iter().enumerate() {
            assert!(
                (share - f[i]).abs() <= tol,
                "case {case}, n {n}, page {i}: {share} vs {} (F {big_f})",
                f[i]
            );
            if f[i] == 0.0 {
                assert_eq!(*share, 0.0);
            }
        }
    }
}
