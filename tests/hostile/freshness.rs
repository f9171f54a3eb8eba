//! Hostile calls: freshness (models, optimal frequencies, estimator,
//! scheduler).

#[allow(unused_imports)]
use super::support::*;

use crawlsched::ffi::*;
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
pub(super) type Outcome = (crawlsched_status_t, String);

/// Owned scheduler handle with one method per export.
struct Sched(*mut crawlsched_scheduler_t);
impl Drop for Sched {
    fn drop(&mut self) {
        // SAFETY: a live handle from crawlsched_scheduler_new.
        unsafe { crawlsched_scheduler_free(self.0) }
    }
}

pub(super) fn call(f: impl FnOnce(*mut crawlsched_error_t) -> crawlsched_status_t) -> Outcome {
    let mut e = err();
    let st = f(&mut e);
    let m = message(&e);
    assert_ne!(st, CRAWLSCHED_PANIC, "PANIC: {m}");
    assert!(m.len() < 255, "message of {} bytes: {m}", m.len());
    assert!(!has_long_digit_run(&m), "a double printed in full: {m}");
    (st, m)
}

/// More than 20 consecutive digits: a double printed without `Num` (an
/// integer up to UINT64_MAX has at most 20).
fn has_long_digit_run(m: &str) -> bool {
    let mut run = 0;
    for c in m.chars() {
        run = if c.is_ascii_digit() { run + 1 } else { 0 };
        if run > 20 {
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

/// Extreme doubles for every double parameter of the sweeps.
const EXTREMES: [f64; 22] = [
    0.0,
    5e-324,
    1e-310,
    2.2250738585072014e-308,
    1e-300,
    1e-200,
    1e-30,
    1e-6,
    0.5,
    0.9999999999999999,
    1.0,
    3.0,
    1e6,
    1e30,
    1e200,
    1e300,
    f64::MAX,
    -1.0,
    -0.0,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
];

#[derive(Debug, Clone)]
enum Op {
    Add(u64, usize, Option<usize>),
    Remove(u64),
    SetRate(u64, usize),
    Observe(u64, usize, bool),
    Next(usize),
}

fn op() -> impl proptest::strategy::Strategy<Value = Op> {
    use proptest::prelude::*;
    let x = 0..EXTREMES.len();
    prop_oneof![
        3 => (0u64..6, x.clone(), proptest::option::of(x.clone())).prop_map(|(i, r, w)| Op::Add(i, r, w)),
        1 => (0u64..6).prop_map(Op::Remove),
        2 => (0u64..6, x.clone()).prop_map(|(i, r)| Op::SetRate(i, r)),
        3 => (0u64..6, x, any::<bool>()).prop_map(|(i, t, c)| Op::Observe(i, t, c)),
        1 => (0usize..40).prop_map(Op::Next),
    ]
}

/// Crawl times for the sweeps: ordinary, and extreme means.
fn sweep_dists() -> Vec<Dist> {
    vec![
        exp1(),
        deterministic(1.0),
        deterministic(1e-300),
        deterministic(1e300),
        {
            let mut d = null_mut();
            // SAFETY: valid arrays and out-pointer.
            let st = unsafe {
                crawlsched_dist_hyperexponential_new(
                    [0.9, 0.1].as_ptr(),
                    [100.0, 1e-3].as_ptr(),
                    2,
                    &mut d,
                    null_mut(),
                )
            };
            assert_eq!(st, CRAWLSCHED_OK);
            Dist(d)
        },
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 400,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5c4ed),
        ..proptest::prelude::ProptestConfig::default()
    })]
    /// The class of item 1: random sequences of add / remove /
    /// set_change_rate / observe / next with extreme doubles, in both
    /// modes and for several crawl times. No call reaches PANIC, a refused
    /// call leaves the page set unchanged, and after every call next,
    /// next_batch, frequency, frequencies and change_rate work for the pages
    /// that are there.
    #[test]
    fn no_accepted_call_poisons_the_scheduler(
        dist in 0usize..5,
        golden in proptest::prelude::any::<bool>(),
        ops in proptest::collection::vec(op(), 1..40),
    ) {
        let _g = serial();
        let dists = sweep_dists();
        let s = Sched::new(&dists[dist], if golden { GOLDEN } else { STRIDE });
        let mut live: Vec<u64> = Vec::new();
        for op in ops {
            let before = s.len();
            let (st, m) = match op {
                Op::Add(id, r, w) => {
                    let out = match w {
                        None => s.add(id, EXTREMES[r]),
                        Some(w) => s.add_w(id, EXTREMES[r], EXTREMES[w]),
                    };
                    if out.0 == CRAWLSCHED_OK {
                        live.push(id);
                    }
                    out
                }
                Op::Remove(id) => {
                    let out = s.remove(id);
                    if out.0 == CRAWLSCHED_OK {
                        live.retain(|&x| x != id);
                    }
                    out
                }
                Op::SetRate(id, r) => {
                    let out = s.set_rate(id, EXTREMES[r]);
                    if out.0 == CRAWLSCHED_OK {
                        proptest::prop_assert_eq!(s.change_rate(id).unwrap(), EXTREMES[r]);
                    }
                    out
                }
                Op::Observe(id, t, c) => s.observe(id, EXTREMES[t], c),
                Op::Next(k) => match s.next_batch(k) {
                    Ok(ids) => {
                        for id in ids {
                            proptest::prop_assert!(live.contains(&id));
                        }
                        (CRAWLSCHED_OK, String::new())
                    }
                    Err(e) => e,
                },
            };
            proptest::prop_assert!(
                [CRAWLSCHED_OK, CRAWLSCHED_INVALID_ARGUMENT, CRAWLSCHED_NOT_FOUND, CRAWLSCHED_TOO_LARGE].contains(&st),
                "{:?}: status {} {}", op, st, m
            );
            if st != CRAWLSCHED_OK {
                proptest::prop_assert_eq!(s.len(), before, "refused {:?} changed the page set", op);
                // The message names the caller's parameter (or the page).
                let names: &[&str] = match op {
                    Op::Add(..) => &["change_rate", "weight", "already scheduled"],
                    Op::SetRate(..) => &["change_rate", "not scheduled"],
                    Op::Observe(..) => &["interval", "not scheduled"],
                    Op::Remove(..) => &["not scheduled"],
                    Op::Next(..) => &["no pages"],
                };
                proptest::prop_assert!(names.iter().any(|n| m.contains(n)), "{:?}: {}", op, m);
            }
            proptest::prop_assert_eq!(s.len(), live.len());
            assert_healthy(&s, &live);
        }
    }
}

/// The class for the model exports: two-page models with extreme rates and
/// weights, for several crawl times. Every export either succeeds with
/// finite outputs (frequencies summing to one) or returns a clear status
/// (INVALID_ARGUMENT for an unusable rate or a bound that needs
/// proportional weights, NUMERICAL for a result beyond the doubles); never
/// PANIC or NOT_CONVERGED.
#[test]
fn model_exports_with_extreme_doubles() {
    let _g = serial();
    let dists = sweep_dists();
    let ok_or_clear = |what: &str, r: &Outcome, allowed: &[crawlsched_status_t]| {
        assert!(
            r.0 == CRAWLSCHED_OK || allowed.contains(&r.0),
            "{what}: status {} {}",
            r.0,
            r.1
        );
    };
    let mut accepted = 0;
    for (di, d) in dists.iter().enumerate() {
        for &r0 in &EXTREMES {
            for r1 in [0.5, 1e-6, 1e30] {
                let weights: Vec<Option<[f64; 2]>> = std::iter::once(None)
                    .chain(EXTREMES.iter().map(|&w| Some([w, 1.0])))
                    .collect();
                for w in weights {
                    let mu = [r0, r1];
                    let mut m = null_mut();
                    let wp = w.as_ref().map_or(null(), |w| w.as_ptr());
                    // SAFETY: two-element arrays, valid out-pointer.
                    let r = call(|e| unsafe {
                        crawlsched_freshness_model_new(d.0, mu.as_ptr(), wp, 2, &mut m, e)
                    });
                    let ctx = format!("dist {di} mu {mu:?} w {w:?}");
                    ok_or_clear(&ctx, &r, &[CRAWLSCHED_INVALID_ARGUMENT]);
                    if r.0 != CRAWLSCHED_OK {
                        assert!(
                            r.1.contains("change_rates") || r.1.contains("weights"),
                            "{ctx}: {}",
                            r.1
                        );
                        continue;
                    }
                    accepted += 1;
                    let mut f = [f64::NAN; 2];
                    let mut out = [f64::NAN; 2];
                    let mut x = f64::NAN;
                    let numerical = [CRAWLSCHED_NUMERICAL];
                    let invalid_or_numerical = [CRAWLSCHED_INVALID_ARGUMENT, CRAWLSCHED_NUMERICAL];
                    // SAFETY (all calls below): live model, arrays of 2.
                    let r = call(|e| unsafe {
                        crawlsched_freshness_model_h(m, out.as_mut_ptr(), 2, e)
                    });
                    ok_or_clear(&ctx, &r, &numerical);
                    let r = call(|e| unsafe {
                        crawlsched_freshness_optimal_frequencies(m, f.as_mut_ptr(), 2, e)
                    });
                    assert_eq!(r.0, CRAWLSCHED_OK, "{ctx}: optimal frequencies: {}", r.1);
                    assert!(f.iter().all(|x| x.is_finite() && *x >= 0.0), "{ctx}: {f:?}");
                    assert!((f[0] + f[1] - 1.0).abs() < 1e-14, "{ctx}: {f:?}");
                    let r =
                        call(|e| unsafe { crawlsched_freshness_cost(m, f.as_ptr(), 2, &mut x, e) });
                    ok_or_clear(&ctx, &r, &numerical);
                    let r = call(|e| unsafe {
                        crawlsched_freshness_obsolescence_bound(
                            m,
                            f.as_ptr(),
                            2,
                            out.as_mut_ptr(),
                            2,
                            e,
                        )
                    });
                    assert_eq!(r.0, CRAWLSCHED_OK, "{ctx}: {}", r.1);
                    assert!(
                        out.iter().all(|r| (0.0..=1.0).contains(r)),
                        "{ctx}: {out:?}"
                    );
                    let r = call(|e| unsafe { crawlsched_freshness_lower_bound(m, &mut x, e) });
                    ok_or_clear(&ctx, &r, &numerical);
                    let r = call(|e| unsafe {
                        crawlsched_freshness_randomized_optimal_frequencies(
                            m,
                            out.as_mut_ptr(),
                            2,
                            e,
                        )
                    });
                    assert_eq!(r.0, CRAWLSCHED_OK, "{ctx}: randomized frequencies: {}", r.1);
                    assert!((out[0] + out[1] - 1.0).abs() < 1e-14, "{ctx}: {out:?}");
                    let r = call(|e| unsafe {
                        crawlsched_freshness_randomized_optimal_cost(m, &mut x, e)
                    });
                    ok_or_clear(&ctx, &r, &numerical);
                    let r = call(|e| unsafe {
                        crawlsched_freshness_randomized_cost(m, [0.5, 0.5].as_ptr(), 2, &mut x, e)
                    });
                    ok_or_clear(&ctx, &r, &numerical);
                    let r =
                        call(|e| unsafe { crawlsched_freshness_golden_ratio_bound(m, &mut x, e) });
                    ok_or_clear(&ctx, &r, &invalid_or_numerical);
                    let r = call(|e| unsafe {
                        crawlsched_freshness_cyclic_cost(m, [0u32, 1].as_ptr(), 2, &mut x, e)
                    });
                    ok_or_clear(&ctx, &r, &numerical);
                    let r = call(|e| unsafe {
                        crawlsched_freshness_cyclic_obsolescence(
                            m,
                            [0u32, 1, 1].as_ptr(),
                            3,
                            out.as_mut_ptr(),
                            2,
                            e,
                        )
                    });
                    ok_or_clear(&ctx, &r, &numerical);
                    let (mut c, mut se) = (f64::NAN, f64::NAN);
                    let r = call(|e| unsafe {
                        crawlsched_freshness_simulate_cyclic(
                            m,
                            [0u32, 1].as_ptr(),
                            2,
                            5,
                            1,
                            std::ptr::null(),
                            &mut c,
                            &mut se,
                            e,
                        )
                    });
                    ok_or_clear(&ctx, &r, &numerical);
                    // SAFETY: live handle, freed once.
                    unsafe { crawlsched_freshness_model_free(m) };
                }
            }
        }
    }
    assert!(accepted > 1000, "{accepted}");
}

/// The class for the estimator exports: priors and intervals from the
/// extreme doubles. No PANIC; a refusal names the parameter; an estimate
/// is finite and >= 0, or NUMERICAL (not representable), or NOT_FOUND only
/// while there is no prior and no visit.
#[test]
fn estimator_exports_with_extreme_doubles() {
    let _g = serial();
    let positive: Vec<f64> = EXTREMES
        .iter()
        .copied()
        .filter(|x| *x > 0.0 && x.is_finite())
        .collect();
    let estimate = |est: *mut crawlsched_estimator_t, has_data: bool, ctx: &str| {
        let mut x = f64::NAN;
        // SAFETY: live handle, valid out-pointer.
        let r = call(|e| unsafe { crawlsched_estimator_estimate(est, &mut x, e) });
        match r.0 {
            CRAWLSCHED_OK => assert!(x.is_finite() && x >= 0.0, "{ctx}: {x}"),
            CRAWLSCHED_NUMERICAL => {}
            CRAWLSCHED_NOT_FOUND => assert!(!has_data, "{ctx}: {}", r.1),
            s => panic!("{ctx}: status {s} {}", r.1),
        }
    };
    let mut priors: Vec<Option<(f64, f64)>> = vec![None];
    for &g in &EXTREMES {
        for &w in &EXTREMES {
            priors.push(Some((g, w)));
        }
    }
    for prior in priors {
        for &t in &positive {
            for pattern in 0..4u32 {
                let mut est = null_mut();
                // SAFETY: valid out-pointer.
                let r = match prior {
                    None => call(|e| unsafe { crawlsched_estimator_new(&mut est, e) }),
                    Some((g, w)) => {
                        call(|e| unsafe { crawlsched_estimator_new_with_prior(g, w, &mut est, e) })
                    }
                };
                let ctx = format!("prior {prior:?} interval {t} pattern {pattern}");
                if r.0 != CRAWLSCHED_OK {
                    assert_eq!(r.0, CRAWLSCHED_INVALID_ARGUMENT, "{ctx}: {}", r.1);
                    assert!(
                        r.1.contains("rate_guess") || r.1.contains("weight_time"),
                        "{ctx}: {}",
                        r.1
                    );
                    break;
                }
                estimate(est, prior.is_some(), &ctx);
                let mut visits = 0;
                for (k, &u) in [t, 1.0, t, f64::MAX, t].iter().enumerate() {
                    let changed = (pattern >> (k % 2)) & 1 == 1;
                    // SAFETY: live handle.
                    let r = call(|e| unsafe {
                        crawlsched_estimator_observe(est, u, i32::from(changed), e)
                    });
                    if r.0 == CRAWLSCHED_OK {
                        visits += 1;
                    } else {
                        assert_eq!(r.0, CRAWLSCHED_TOO_LARGE, "{ctx}: {}", r.1);
                        assert!(r.1.contains("interval"), "{ctx}: {}", r.1);
                    }
                    estimate(est, prior.is_some() || visits > 0, &ctx);
                }
                for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
                    // SAFETY: live handle.
                    let r = call(|e| unsafe { crawlsched_estimator_observe(est, bad, 1, e) });
                    assert_eq!(r.0, CRAWLSCHED_INVALID_ARGUMENT);
                    assert!(r.1.contains("interval"), "{}", r.1);
                }
                let mut n = 0u64;
                // SAFETY: live handle.
                assert_eq!(
                    unsafe { crawlsched_estimator_observations(est, &mut n, null_mut()) },
                    CRAWLSCHED_OK
                );
                assert_eq!(n, visits);
                // SAFETY: live handle, freed once.
                unsafe { crawlsched_estimator_free(est) };
            }
        }
    }
}

/// The class for sizes: 0, 1, huge, SIZE_MAX, UINT64_MAX in the sized
/// freshness and scheduler exports. Clear statuses, nothing written on
/// failure, and a batch beyond the memory cap is refused before the ids
/// are collected.
#[test]
fn sizes_in_freshness_exports() {
    let _g = serial();
    let d = exp1();
    let s = Sched::new(&d, STRIDE);
    assert_eq!(s.next_batch(0).unwrap(), Vec::<u64>::new());
    // SAFETY (whole test): live handles; NULL only with the sizes shown.
    let r = call(|e| unsafe { crawlsched_scheduler_next_batch(s.0, null_mut(), 3, e) });
    assert_eq!(r.0, CRAWLSCHED_NULL_ARGUMENT, "{}", r.1);
    for i in 0..5 {
        assert_eq!(s.add(i, 0.1 * (i + 1) as f64).0, CRAWLSCHED_OK);
    }
    let r = call(|e| unsafe { crawlsched_scheduler_next_batch(s.0, null_mut(), usize::MAX, e) });
    assert_eq!(r.0, CRAWLSCHED_NULL_ARGUMENT, "{}", r.1);
    let old = crawlsched_get_default_memory_limit();
    crawlsched_set_default_memory_limit(4096);
    let mut ids = vec![u64::MAX; 1000];
    let (r, peak) = peak_during(|| {
        call(|e| unsafe { crawlsched_scheduler_next_batch(s.0, ids.as_mut_ptr(), 1000, e) })
    });
    crawlsched_set_default_memory_limit(old);
    assert_eq!(r.0, CRAWLSCHED_TOO_LARGE, "{}", r.1);
    assert!(r.1.contains("n = 1000"), "{}", r.1);
    assert!(peak < 4096, "{peak}");
    assert!(ids.iter().all(|&x| x == u64::MAX));
    assert_eq!(s.next_batch(1000).unwrap().len(), 1000);
    let mut len = 0usize;
    let r = call(|e| unsafe {
        crawlsched_scheduler_frequencies(s.0, null_mut(), null_mut(), usize::MAX, &mut len, e)
    });
    assert_eq!(r.0, CRAWLSCHED_NULL_ARGUMENT, "{}", r.1);

    let f = [0.25, 0.75];
    let mut out = [7u64; 2];
    for (total, want) in [
        (0u64, CRAWLSCHED_INVALID_ARGUMENT),
        (1, CRAWLSCHED_OK),
        (1 << 52, CRAWLSCHED_OK),
        ((1 << 52) + 1, CRAWLSCHED_TOO_LARGE),
        (u64::MAX, CRAWLSCHED_TOO_LARGE),
    ] {
        for at_least_one in [0, 1] {
            let r = call(|e| unsafe {
                crawlsched_freshness_integer_counts(
                    f.as_ptr(),
                    2,
                    total,
                    at_least_one,
                    out.as_mut_ptr(),
                    2,
                    e,
                )
            });
            let want = if total == 1 && at_least_one == 1 {
                CRAWLSCHED_INFEASIBLE
            } else {
                want
            };
            assert_eq!(r.0, want, "total {total}: {}", r.1);
        }
    }
    let r = call(|e| unsafe {
        crawlsched_freshness_integer_counts(null(), usize::MAX, 5, 0, out.as_mut_ptr(), 2, e)
    });
    assert!(
        r.0 == CRAWLSCHED_NULL_ARGUMENT || r.0 == CRAWLSCHED_TOO_LARGE,
        "{}",
        r.1
    );
    let mut fib = 0u64;
    let r = call(|e| unsafe { crawlsched_freshness_fibonacci_at_least(u64::MAX, &mut fib, e) });
    assert_eq!(r.0, CRAWLSCHED_TOO_LARGE, "{}", r.1);
    let r = call(|e| unsafe { crawlsched_freshness_fibonacci_at_least(0, &mut fib, e) });
    assert_eq!((r.0, fib), (CRAWLSCHED_OK, 1));
    let mut got = 0usize;
    for counts in [[u64::MAX, 1], [1 << 27, 1], [0, 0]] {
        let (r, peak) = peak_during(|| {
            call(|e| unsafe {
                crawlsched_freshness_golden_ratio_sequence(
                    counts.as_ptr(),
                    2,
                    null_mut(),
                    0,
                    &mut got,
                    e,
                )
            })
        });
        assert!(
            r.0 == CRAWLSCHED_TOO_LARGE || r.0 == CRAWLSCHED_INVALID_ARGUMENT,
            "{counts:?}: {}",
            r.1
        );
        assert!(peak < 1 << 16, "{peak}");
    }
}

/// The model constructor and the general-weights optimum check their
/// arrays against the process-wide memory cap before allocating them.
#[test]
fn model_and_optimum_respect_the_memory_cap() {
    let _g = serial();
    let d = exp1();
    let n = 20_000usize;
    let mu: Vec<f64> = (0..n).map(|i| 1e-3 * (1.0 + i as f64)).collect();
    let w: Vec<f64> = (0..n).map(|i| 1.0 + (i % 7) as f64).collect();
    let old = crawlsched_get_default_memory_limit();
    // The model needs 40 bytes per page (800 kB): refused under 256 kB.
    crawlsched_set_default_memory_limit(256 << 10);
    let mut m = null_mut();
    // SAFETY: arrays of n, valid out-pointer.
    let (r, peak) = peak_during(|| {
        call(|e| unsafe {
            crawlsched_freshness_model_new(d.0, mu.as_ptr(), w.as_ptr(), n, &mut m, e)
        })
    });
    assert_eq!(r.0, CRAWLSCHED_TOO_LARGE, "{}", r.1);
    assert!(r.1.contains("20000 pages"), "{}", r.1);
    assert!(peak < 256 << 10, "{peak}");
    assert!(m.is_null());
    // Under 1.2 MB the model fits, the optimum (96 bytes per page) does not.
    crawlsched_set_default_memory_limit(1_200_000);
    // SAFETY: as above.
    let r = call(|e| unsafe {
        crawlsched_freshness_model_new(d.0, mu.as_ptr(), w.as_ptr(), n, &mut m, e)
    });
    assert_eq!(r.0, CRAWLSCHED_OK, "{}", r.1);
    let mut f = vec![f64::NAN; n];
    // SAFETY: live model, n outputs.
    let (r, peak) = peak_during(|| {
        call(|e| unsafe { crawlsched_freshness_optimal_frequencies(m, f.as_mut_ptr(), n, e) })
    });
    crawlsched_set_default_memory_limit(old);
    assert_eq!(r.0, CRAWLSCHED_TOO_LARGE, "{}", r.1);
    assert!(peak < 1_200_000, "{peak}");
    assert!(f.iter().all(|x| x.is_nan()));
    // SAFETY: as above.
    let r = call(|e| unsafe { crawlsched_freshness_optimal_frequencies(m, f.as_mut_ptr(), n, e) });
    assert_eq!(r.0, CRAWLSCHED_OK, "{}", r.1);
    assert!((f.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    // SAFETY: live handle, freed once.
    unsafe { crawlsched_freshness_model_free(m) };
}

/// The randomized optimum (general and proportional weights) checks its
/// 16 bytes per page against the memory cap before allocating them.
#[test]
fn randomized_optimum_respects_the_memory_cap() {
    let _g = serial();
    let d = exp1();
    let n = 20_000usize;
    let mu: Vec<f64> = (0..n).map(|i| 1e-3 * (1.0 + i as f64)).collect();
    let w: Vec<f64> = (0..n).map(|i| 1.0 + (i % 7) as f64).collect();
    let old = crawlsched_get_default_memory_limit();
    for weights in [w.as_ptr(), null()] {
        let mut m = null_mut();
        // SAFETY: arrays of n (or NULL weights), valid out-pointer.
        let r = call(|e| unsafe {
            crawlsched_freshness_model_new(d.0, mu.as_ptr(), weights, n, &mut m, e)
        });
        assert_eq!(r.0, CRAWLSCHED_OK, "{}", r.1);
        // 320 kB needed: refused under 256 kB, without allocating it.
        crawlsched_set_default_memory_limit(256 << 10);
        let mut f = vec![f64::NAN; n];
        // SAFETY: live model, n outputs.
        let (r, peak) = peak_during(|| {
            call(|e| unsafe {
                crawlsched_freshness_randomized_optimal_frequencies(m, f.as_mut_ptr(), n, e)
            })
        });
        crawlsched_set_default_memory_limit(old);
        assert_eq!(r.0, CRAWLSCHED_TOO_LARGE, "{}", r.1);
        assert!(r.1.contains("randomized optimum of 20000 pages"), "{}", r.1);
        assert!(peak < 256 << 10, "{peak}");
        assert!(f.iter().all(|x| x.is_nan()));
        // SAFETY: as above.
        let r = call(|e| unsafe {
            crawlsched_freshness_randomized_optimal_frequencies(m, f.as_mut_ptr(), n, e)
        });
        assert_eq!(r.0, CRAWLSCHED_OK, "{}", r.1);
        assert!((f.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // SAFETY: live handle, freed once.
        unsafe { crawlsched_freshness_model_free(m) };
    }
}

/// The per-page bound the scheduler checks at add time (768 bytes) covers
/// what it really holds at its peak, in both modes: page and index storage
/// just past a power of two pages (capacity doubled), recomputations,
/// GoldenRatio's template rebuilds and removals.
#[test]
fn scheduler_peak_memory_stays_within_its_per_page_bound() {
    let _g = serial();
    let d = exp1();
    let n = (1u64 << 14) + 1;
    for mode in MODES {
        let ((), peak) = peak_during(|| {
            let s = Sched::new(&d, mode);
            for i in 0..n {
                assert_eq!(
                    s.add(i, 0.001 * (1 + (i * 7919) % 10_000) as f64).0,
                    CRAWLSCHED_OK
                );
            }
            let picks = |count: u64| {
                for _ in 0..count / 1024 {
                    s.next_batch(1024).unwrap();
                }
            };
            picks(20 * n);
            for i in 0..n / 10 {
                assert_eq!(s.remove(i).0, CRAWLSCHED_OK);
            }
            picks(20 * n);
        });
        let per_page = peak as f64 / n as f64;
        assert!(per_page <= 768.0, "mode {mode}: {per_page} bytes per page");
    }
}

/// Under a memory cap the scheduler refuses the page that would not fit at
/// add time (768 bytes per page), and the pages it holds keep working.
#[test]
fn scheduler_refuses_pages_beyond_the_memory_cap() {
    let _g = serial();
    let d = exp1();
    for mode in MODES {
        let s = Sched::new(&d, mode);
        let old = crawlsched_get_default_memory_limit();
        crawlsched_set_default_memory_limit(768 * 50);
        let mut added = 0u64;
        let refusal = loop {
            let r = s.add(added, 0.01 * (1 + added % 13) as f64);
            if r.0 != CRAWLSCHED_OK {
                break r;
            }
            added += 1;
        };
        let live: Vec<u64> = (0..added).collect();
        assert_healthy(&s, &live);
        crawlsched_set_default_memory_limit(old);
        assert_eq!(refusal.0, CRAWLSCHED_TOO_LARGE, "{}", refusal.1);
        assert_eq!(added, 50);
        assert_eq!(s.len(), 50);
    }
}

/// A model of `mu`, `c` on `d` through the C API (leaked on failure only).
fn model_of(d: &Dist, mu: &[f64], c: &[f64]) -> *mut crawlsched_freshness_model_t {
    let mut m = null_mut();
    // SAFETY: valid arrays of equal length and out-pointer.
    let st = unsafe {
        crawlsched_freshness_model_new(d.0, mu.as_ptr(), c.as_ptr(), mu.len(), &mut m, null_mut())
    };
    assert_eq!(st, CRAWLSCHED_OK);
    m
}

/// The distributed protocol through the C API (three uneven shards, their
/// models freed before use, the search fed the shards' totals, the exact
/// sums added as 128-bit integers) gives the bits of
/// crawlsched_freshness_optimal_frequencies(); a refused call writes no
/// output.
#[test]
fn shards_and_multiplier_search_reproduce_the_single_call() {
    let _g = serial();
    let n = 600;
    let mu: Vec<f64> = (0..n)
        .map(|i| 10f64.powf(-3.0 + 4.0 * ((i * 37) % n) as f64 / n as f64))
        .collect();
    let c: Vec<f64> = (0..n)
        .map(|i| 10f64.powf(-1.0 + 2.0 * ((i * 91) % n) as f64 / n as f64))
        .collect();
    let d = deterministic(5.0 / n as f64);
    let whole = model_of(&d, &mu, &c);
    let mut single = vec![0.0; n];
    // SAFETY: live handles, buffers of the stated capacity, valid out-pointers.
    unsafe {
        assert_eq!(
            crawlsched_freshness_optimal_frequencies(whole, single.as_mut_ptr(), n, null_mut()),
            CRAWLSCHED_OK
        );
        crawlsched_freshness_model_free(whole);
        let cuts = [0, 1, 250, n];
        let mut shards = Vec::new();
        let (mut sum_a, mut lo, mut hi) = (0.0, f64::INFINITY, f64::NEG_INFINITY);
        for r in cuts.windows(2) {
            let m = model_of(&d, &mu[r[0]..r[1]], &c[r[0]..r[1]]);
            let mut s = null_mut();
            assert_eq!(
                crawlsched_freshness_shard_new(m, &mut s, null_mut()),
                CRAWLSCHED_OK
            );
            crawlsched_freshness_model_free(m);
            let (mut a, mut l, mut h) = (0.0, 0.0, 0.0);
            assert_eq!(
                crawlsched_freshness_shard_summary(s, &mut a, &mut l, &mut h, null_mut()),
                CRAWLSCHED_OK
            );
            (sum_a, lo, hi) = (sum_a + a, lo.min(l), hi.max(h));
            shards.push(s);
        }
        let mut search = null_mut();
        assert_eq!(
            crawlsched_freshness_multiplier_search_new(sum_a, lo, hi, &mut search, null_mut()),
            CRAWLSCHED_OK
        );
        let (mut done, mut x) = (0, 0.0);
        for _ in 0..100 {
            assert_eq!(
                crawlsched_freshness_multiplier_search_next(search, &mut done, &mut x, null_mut()),
                CRAWLSCHED_OK
            );
            if done != 0 {
                break;
            }
            let (mut s, mut ds, mut exact) = (0.0, 0.0, 0u128);
            for &sh in &shards {
                let (mut a, mut b, mut hi, mut lo) = (0.0, 0.0, 0, 0);
                assert_eq!(
                    crawlsched_freshness_shard_sum_at(
                        sh,
                        x,
                        &mut a,
                        &mut b,
                        &mut hi,
                        &mut lo,
                        null_mut()
                    ),
                    CRAWLSCHED_OK
                );
                (s, ds) = (s + a, ds + b);
                exact = exact.saturating_add((u128::from(hi) << 64) | u128::from(lo));
            }
            let (hi, lo) = ((exact >> 64) as u64, exact as u64);
            assert_eq!(
                crawlsched_freshness_multiplier_search_update(search, s, ds, hi, lo, null_mut()),
                CRAWLSCHED_OK
            );
        }
        assert_eq!(done, 1);
        let (mut s, mut ds, mut hi, mut lo) = (7.0, 7.0, 7, 7);
        let (st, _) = call(|e| {
            crawlsched_freshness_shard_sum_at(
                shards[0],
                f64::NAN,
                &mut s,
                &mut ds,
                &mut hi,
                &mut lo,
                e,
            )
        });
        assert_eq!(
            (st, s, ds, hi, lo),
            (CRAWLSCHED_INVALID_ARGUMENT, 7.0, 7.0, 7, 7)
        );
        let mut f = Vec::new();
        for (sh, r) in shards.iter().zip(cuts.windows(2)) {
            let mut part = vec![0.0; r[1] - r[0]];
            assert_eq!(
                crawlsched_freshness_shard_frequencies_at(
                    *sh,
                    x,
                    part.as_mut_ptr(),
                    part.len(),
                    null_mut()
                ),
                CRAWLSCHED_OK
            );
            f.extend(part);
            crawlsched_freshness_shard_free(*sh);
        }
        crawlsched_freshness_multiplier_search_free(search);
        crawlsched_freshness_shard_free(null_mut());
        crawlsched_freshness_multiplier_search_free(null_mut());
        assert!(single.contains(&0.0), "some pages unvisited");
        for (i, (&a, &b)) in f.iter().zip(&single).enumerate() {
            assert_eq!(a.to_bits(), b.to_bits(), "page {i}: {a} vs {b}");
        }
    }
}
