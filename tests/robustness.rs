//! Numerical robustness through the C API: extreme but valid inputs (rates
//! from 1e-9 to 1e9, tiny and large buffers, near-singular chains) give
//! results that are finite and agree with an independent closed form, or a
//! clear failure status (NOT_CONVERGED, NUMERICAL, INVALID_ARGUMENT,
//! TOO_LARGE) with a message. Never a silent NaN or infinity.
//!
//! Deterministic (fixed seed, see `config`). Search harder locally with
//! `PROPTEST_CASES=10000 cargo test --release --test robustness`, or another
//! seed with `PROPTEST_RNG_SEED=<u64>`. Ranges, tolerances, the bugs found
//! and the known limits: docs/reliability.md, "Numerical robustness". The
//! plain #[test]s are the minimized cases of those bugs.

use crawlsched::ffi::*;
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, RngSeed};
use std::ptr::{null, null_mut};

/// The seed CI uses, so every run draws the same cases (override with
/// PROPTEST_RNG_SEED=<u64>; more cases with PROPTEST_CASES=<n>).
const SEED: u64 = 0x5eed_c0ffee;

/// Deterministic config: `cases` per property unless PROPTEST_CASES is set,
/// the fixed SEED unless PROPTEST_RNG_SEED is set, ChaCha (portable), and
/// no regression files written into the source tree.
fn config(cases: u32) -> ProptestConfig {
    let env = ProptestConfig::default(); // already reads the PROPTEST_* variables
    let set = |v: &str| std::env::var_os(v).is_some();
    ProptestConfig {
        cases: if set("PROPTEST_CASES") {
            env.cases
        } else {
            cases
        },
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: if set("PROPTEST_RNG_SEED") {
            env.rng_seed
        } else {
            RngSeed::Fixed(SEED)
        },
        failure_persistence: None,
        ..env
    }
}

fn new_err() -> crawlsched_error_t {
    crawlsched_error_t {
        status: 0,
        message: [0; CRAWLSCHED_ERROR_MESSAGE_SIZE],
    }
}

/// Statuses that clearly say "no trustworthy result" for a valid input.
const CLEAR_FAILURES: [i32; 4] = [
    CRAWLSCHED_NOT_CONVERGED,
    CRAWLSCHED_NUMERICAL,
    CRAWLSCHED_INVALID_ARGUMENT,
    CRAWLSCHED_TOO_LARGE,
];

/// OK -> true; a clear failure with a message -> false; anything else fails.
fn outcome(what: &str, st: i32, err: &crawlsched_error_t) -> bool {
    if st == CRAWLSCHED_OK {
        return true;
    }
    assert!(
        CLEAR_FAILURES.contains(&st),
        "{what}: unexpected status {st}: {}",
        msg(err)
    );
    assert!(err.message[0] != 0, "{what}: status {st} without a message");
    false
}

fn msg(err: &crawlsched_error_t) -> String {
    let b: Vec<u8> = err
        .message
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&b).into_owned()
}

fn close(what: &str, got: f64, want: f64, rel: f64) {
    assert!(got.is_finite(), "{what}: {got} is not finite (want {want})");
    assert!(
        (got - want).abs() <= rel * want.abs().max(f64::MIN_POSITIVE),
        "{what}: got {got}, want {want} (rel {rel})"
    );
}

/// 10^e for e drawn uniformly: log-uniform rates.
fn rate(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo..=hi).prop_map(|e: f64| 10f64.powf(e))
}

struct Dist(*mut crawlsched_dist_t);
impl Drop for Dist {
    fn drop(&mut self) {
        unsafe { crawlsched_dist_free(self.0) }
    }
}

fn exponential(r: f64) -> Dist {
    let mut d = null_mut();
    let mut err = new_err();
    let st = unsafe { crawlsched_dist_exponential_new(r, &mut d, &mut err) };
    assert_eq!(st, CRAWLSCHED_OK, "exponential({r}): {}", msg(&err));
    Dist(d)
}

fn phase_type(alpha: &[f64], s: &[f64]) -> Result<Dist, i32> {
    let mut d = null_mut();
    let mut err = new_err();
    let st = unsafe {
        crawlsched_dist_phase_type_new(
            alpha.as_ptr(),
            alpha.len(),
            s.as_ptr(),
            s.len(),
            &mut d,
            &mut err,
        )
    };
    if outcome("phase_type_new", st, &err) {
        Ok(Dist(d))
    } else {
        Err(st)
    }
}

/// (status, value) of a one-result query.
fn query(f: impl FnOnce(*mut f64, *mut crawlsched_error_t) -> i32) -> Option<f64> {
    let mut x = f64::NAN;
    let mut err = new_err();
    let st = f(&mut x, &mut err);
    if outcome("query", st, &err) {
        assert!(x.is_finite(), "success with a non-finite result {x}");
        Some(x)
    } else {
        None
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Exponential: mean 1/r, variance 1/r^2, F(1/r) = 1 - 1/e, E[e^{-rX}] = 1/2.
    #[test]
    fn exponential_any_rate(r in rate(-9.0, 9.0)) {
        let d = exponential(r);
        unsafe {
            close("mean", query(|o, e| crawlsched_dist_mean(d.0, o, e)).unwrap(), 1.0 / r, 1e-14);
            close("variance", query(|o, e| crawlsched_dist_variance(d.0, o, e)).unwrap(), 1.0 / (r * r), 1e-14);
            close("cdf", query(|o, e| crawlsched_dist_cdf(d.0, 1.0 / r, o, e)).unwrap(), 1.0 - (-1f64).exp(), 1e-14);
            close("laplace", query(|o, e| crawlsched_dist_laplace(d.0, r, o, e)).unwrap(), 0.5, 1e-14);
        }
    }

    /// Phase-type Erlang-2 and a stiff two-rate hyperexponential (rates
    /// up to 1e18 apart) against their closed forms.
    #[test]
    fn phase_type_extreme_rates(r1 in rate(-9.0, 9.0), r2 in rate(-9.0, 9.0), p in 0.01f64..0.99, xs in -2.0f64..2.0) {
        let erl = phase_type(&[1.0, 0.0], &[-r1, r1, 0.0, -r1]).expect("Erlang-2 as PH");
        let x = 10f64.powf(xs) / r1;
        unsafe {
            close("Erlang mean", query(|o, e| crawlsched_dist_mean(erl.0, o, e)).unwrap(), 2.0 / r1, 1e-12);
            close("Erlang variance", query(|o, e| crawlsched_dist_variance(erl.0, o, e)).unwrap(), 2.0 / (r1 * r1), 1e-12);
            let want = 1.0 - (-r1 * x).exp() * (1.0 + r1 * x);
            let got = query(|o, e| crawlsched_dist_cdf(erl.0, x, o, e)).unwrap();
            prop_assert!((got - want).abs() < 1e-12, "Erlang cdf({x}) = {got}, want {want}");
        }
        let hyp = phase_type(&[p, 1.0 - p], &[-r1, 0.0, 0.0, -r2]).expect("H2 as PH");
        unsafe {
            close("H2 mean", query(|o, e| crawlsched_dist_mean(hyp.0, o, e)).unwrap(), p / r1 + (1.0 - p) / r2, 1e-12);
            let want = p * (1.0 - (-r1 * x).exp()) + (1.0 - p) * (1.0 - (-r2 * x).exp());
            let got = query(|o, e| crawlsched_dist_cdf(hyp.0, x, o, e)).unwrap();
            prop_assert!((got - want).abs() < 1e-13, "H2 cdf({x}) = {got}, want {want} (r1 {r1}, r2 {r2})");
            let want = p * r1 / (r1 + r2) + (1.0 - p) * r2 / (2.0 * r2);
            close("H2 laplace", query(|o, e| crawlsched_dist_laplace(hyp.0, r2, o, e)).unwrap(), want, 1e-12);
        }
    }

    /// A near-singular sub-generator: two phases that swap at rate r and
    /// leave at rate r*eps. The time to absorption is exponential with rate
    /// r*eps whatever the phase: mean 1/(r eps), F(1/(r eps)) = 1 - 1/e.
    #[test]
    fn near_singular_phase_type(r in rate(-6.0, 6.0), k in 1u32..13) {
        let eps = 10f64.powi(-(k as i32));
        let s = [-r, r * (1.0 - eps), r * (1.0 - eps), -r];
        let Ok(d) = phase_type(&[1.0, 0.0], &s) else { return Ok(()) };
        // Cancellation in -r + r(1 - eps) loses about log10(1/eps) digits.
        let tol = (1e-13 / eps).max(1e-13);
        unsafe {
            if let Some(m) = query(|o, e| crawlsched_dist_mean(d.0, o, e)) {
                close("mean", m, 1.0 / (r * eps), tol);
            }
            if let Some(c) = query(|o, e| crawlsched_dist_cdf(d.0, 1.0 / (r * eps), o, e)) {
                prop_assert!((c - (1.0 - (-1f64).exp())).abs() < tol.max(1e-9), "cdf {c} (eps {eps})");
            }
        }
    }

    /// Freshness with change rates and crawl rates from 1e-9 to 1e9: the
    /// optimal frequencies are finite, >= 0, sum to 1, cost no more than
    /// uniform crawling and no less than the lower bound.
    #[test]
    fn freshness_extreme_rates(access in rate(-9.0, 9.0), mu in prop::collection::vec(rate(-9.0, 9.0), 1..7)) {
        let d = exponential(access);
        let n = mu.len();
        let mut m = null_mut();
        let mut err = new_err();
        let st = unsafe { crawlsched_freshness_model_new(d.0, mu.as_ptr(), null(), n, &mut m, &mut err) };
        if !outcome("model_new", st, &err) { return Ok(()) }
        let mut f = vec![f64::NAN; n];
        let st = unsafe { crawlsched_freshness_optimal_frequencies(m, f.as_mut_ptr(), n, &mut err) };
        if outcome("optimal_frequencies", st, &err) {
            prop_assert!(f.iter().all(|x| x.is_finite() && *x >= 0.0), "frequencies {f:?}");
            let sum: f64 = f.iter().sum();
            prop_assert!((sum - 1.0).abs() < 1e-9, "frequencies sum to {sum}");
            let uniform = vec![1.0 / n as f64; n];
            unsafe {
                let c_opt = query(|o, e| crawlsched_freshness_cost(m, f.as_ptr(), n, o, e));
                let c_uni = query(|o, e| crawlsched_freshness_cost(m, uniform.as_ptr(), n, o, e));
                let lb = query(|o, e| crawlsched_freshness_lower_bound(m, o, e));
                if let (Some(c_opt), Some(c_uni)) = (c_opt, c_uni) {
                    prop_assert!(c_opt <= c_uni * (1.0 + 1e-9) + 1e-300, "optimal {c_opt} > uniform {c_uni}");
                    if let Some(lb) = lb {
                        prop_assert!(lb <= c_opt * (1.0 + 1e-9) + 1e-300, "bound {lb} > optimal {c_opt}");
                        prop_assert!(lb >= 0.0);
                    }
                }
                query(|o, e| crawlsched_freshness_randomized_optimal_cost(m, o, e));
                query(|o, e| crawlsched_freshness_golden_ratio_bound(m, o, e));
            }
        }
        unsafe { crawlsched_freshness_model_free(m) };
    }

    /// The change-rate estimator with intervals from 1e-9 to 1e9.
    #[test]
    fn estimator_extreme_intervals(obs in prop::collection::vec((rate(-9.0, 9.0), any::<bool>()), 1..40)) {
        let mut est = null_mut();
        let mut err = new_err();
        unsafe {
            prop_assert_eq!(crawlsched_estimator_new(&mut est, &mut err), CRAWLSCHED_OK);
            for &(iv, ch) in &obs {
                prop_assert_eq!(crawlsched_estimator_observe(est, iv, i32::from(ch), &mut err), CRAWLSCHED_OK);
            }
            let mut x = f64::NAN;
            let st = crawlsched_estimator_estimate(est, &mut x, &mut err);
            if st == CRAWLSCHED_OK {
                prop_assert!(x.is_finite() && x >= 0.0, "estimate {}", x);
            } else {
                prop_assert!(st == CRAWLSCHED_NOT_FOUND || CLEAR_FAILURES.contains(&st), "status {} {}", st, msg(&err));
            }
            crawlsched_estimator_free(est);
        }
    }

    /// Poisson arrivals at rate lambda routed periodically to bufferless
    /// exponential servers: a server whose arrivals are renewal with
    /// interarrival LST phi loses phi(mu) of them (after any arrival it is
    /// busy). Alternating between two servers: phi = (lambda/(lambda+mu))^2.
    #[test]
    fn routing_loss_closed_form(lambda in rate(-9.0, 9.0), mu1 in rate(-9.0, 9.0), mu2 in rate(-9.0, 9.0)) {
        let mut a = null_mut();
        let mut s = null_mut();
        let mut err = new_err();
        unsafe {
            prop_assert_eq!(crawlsched_routing_arrivals_poisson_new(lambda, &mut a, &mut err), CRAWLSCHED_OK);
            let rates = [mu1, mu2];
            let st = crawlsched_routing_servers_new(a, rates.as_ptr(), null(), 2, CRAWLSCHED_ROUTING_LOSSES, &mut s, &mut err);
            prop_assert_eq!(st, CRAWLSCHED_OK, "{}", msg(&err));
            let phi = |mu: f64| lambda / (lambda + mu);
            for (seq, want) in [
                (vec![0u32], phi(mu1)),
                (vec![0u32, 1], 0.5 * phi(mu1).powi(2) + 0.5 * phi(mu2).powi(2)),
            ] {
                let (mut pp, mut pu) = (f64::NAN, f64::NAN);
                let st = crawlsched_routing_cost(s, seq.as_ptr(), seq.len(), &mut pp, &mut pu, &mut err);
                if outcome("routing_cost", st, &err) {
                    prop_assert!(pp.is_finite() && pu.is_finite(), "{} {}", pp, pu);
                    prop_assert!((pp - want).abs() <= 1e-12 + 1e-9 * want, "seq {:?}: {} vs {}", seq, pp, want);
                }
            }
            crawlsched_routing_servers_free(s);
            crawlsched_routing_arrivals_free(a);
        }
    }

    /// Probing a constant intensity lambda with importance 1: an interval of
    /// length L costs lambda L^2 / 2, n uniform probes over [0, T] cost
    /// lambda T^2 / (2n), and the planner's optimum is finite and no worse.
    #[test]
    fn probe_constant_intensity(lambda in rate(-9.0, 9.0), t in rate(-3.0, 3.0), n in 1u64..6) {
        let lb = [0.0, t];
        let lv = [lambda];
        let av = [1.0];
        let mut p = null_mut();
        let mut err = new_err();
        unsafe {
            let st = crawlsched_probe_profile_new(lb.as_ptr(), lv.as_ptr(), 1, 0, lb.as_ptr(), av.as_ptr(), 1, 0, t, &mut p, &mut err);
            prop_assert_eq!(st, CRAWLSCHED_OK, "{}", msg(&err));
            let c = query(|o, e| crawlsched_probe_interval_cost(p, 0.25 * t, 0.75 * t, o, e)).unwrap();
            close("interval cost", c, lambda * (0.5 * t).powi(2) / 2.0, 1e-12);
            let mut u = vec![f64::NAN; n as usize];
            prop_assert_eq!(crawlsched_probe_uniform(p, n, u.as_mut_ptr(), u.len(), &mut err), CRAWLSCHED_OK);
            let cu = query(|o, e| crawlsched_probe_expected_cost(p, u.as_ptr(), u.len(), o, e)).unwrap();
            close("uniform cost", cu, lambda * t * t / (2.0 * n as f64), 1e-12);
            let mut pl = null_mut();
            prop_assert_eq!(crawlsched_probe_planner_new(p, 60, 0.0, &mut pl, &mut err), CRAWLSCHED_OK);
            let mut out = vec![f64::NAN; n as usize];
            let mut cost = f64::NAN;
            let st = crawlsched_probe_planner_plan(pl, n, CRAWLSCHED_PROBE_METHOD_HULL, out.as_mut_ptr(), out.len(), &mut cost, &mut err);
            if outcome("plan", st, &err) {
                prop_assert!(cost.is_finite() && cost <= cu * (1.0 + 1e-9), "plan {} vs uniform {}", cost, cu);
                // 60 grid points: n in 1..6 divides 60, so uniform is on the grid.
                close("plan = uniform", cost, cu, 1e-9);
            }
            crawlsched_probe_planner_free(pl);
            crawlsched_probe_profile_free(p);
        }
    }

    /// Threshold model with Poisson arrivals (one robot), exponential
    /// service and no obsolescence is the M/M/1/(B+1) queue:
    /// P(i) proportional to rho^i, i = 0..B+1 (B = buffer, 0 to 60).
    #[test]
    fn threshold_mm1_queue(lambda in rate(-9.0, 9.0), mu in rate(-9.0, 9.0), b in prop_oneof![Just(0u32), Just(1u32), 2u32..8, Just(60u32)]) {
        let mut arr = null_mut();
        let mut m = null_mut();
        let mut err = new_err();
        let service = exponential(mu);
        unsafe {
            prop_assert_eq!(crawlsched_bmap_poisson_new(lambda, &mut arr, &mut err), CRAWLSCHED_OK);
            let arrivals = [arr as *const crawlsched_bmap_t];
            let st = crawlsched_threshold_model_new(arrivals.as_ptr(), 1, service.0, null(), b, &mut m, &mut err);
            prop_assert_eq!(st, CRAWLSCHED_OK, "{}", msg(&err));
            let modes = [1u32];
            let mut p = vec![f64::NAN; b as usize + 2];
            let mut len = 0usize;
            let st = crawlsched_threshold_level_distribution(m, modes.as_ptr(), 1, null(), 0, std::ptr::null(), p.as_mut_ptr(), p.len(), &mut len, &mut err);
            if outcome("level_distribution", st, &err) {
                // Closed form in logs (rho^61 overflows for rho = 1e18).
                let lr = (lambda / mu).ln();
                let logs: Vec<f64> = (0..p.len()).map(|i| i as f64 * lr).collect();
                let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let z: f64 = logs.iter().map(|x| (x - top).exp()).sum();
                for (i, (&got, &l)) in p.iter().zip(&logs).enumerate() {
                    let want = (l - top).exp() / z;
                    prop_assert!((got - want).abs() < 1e-9, "P({}) = {} want {} (rho {})", i, got, want, lambda / mu);
                }
                let mut meas = vec![f64::NAN; CRAWLSCHED_THRESHOLD_MEASURE_COUNT];
                let st = crawlsched_threshold_measures(m, modes.as_ptr(), 1, null(), 0, std::ptr::null(), meas.as_mut_ptr(), meas.len(), &mut err);
                if outcome("measures", st, &err) {
                    prop_assert!(meas.iter().all(|x| x.is_finite()), "measures {:?}", meas);
                    let loss = meas[CRAWLSCHED_THRESHOLD_MEASURE_LOSS];
                    let want = p[p.len() - 1];
                    prop_assert!((loss - want).abs() < 1e-9, "loss {} vs P(B+1) {}", loss, want);
                }
            }
            crawlsched_threshold_model_free(m);
            crawlsched_bmap_free(arr);
        }
    }
}

// ---------------------------------------------------------------------------
// Independent closed forms used below.

/// ln Σ exp(x_i), without overflow.
fn log_sum_exp(xs: &[f64]) -> f64 {
    let top = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return top;
    }
    top + xs.iter().map(|x| (x - top).exp()).sum::<f64>().ln()
}

/// ln j! by summation (j is small here).
fn ln_factorial(j: u32) -> f64 {
    (2..=j).map(|i| f64::from(i).ln()).sum()
}

/// Erlang(k, r) tail P(X > x) = Σ_{j<k} e^{-rx}(rx)^j/j!, terms in logs.
fn erlang_tail(k: u32, r: f64, x: f64) -> f64 {
    let rx = r * x;
    (0..k)
        .map(|j| (-rx + f64::from(j) * rx.ln() - ln_factorial(j)).exp())
        .sum()
}

/// 1 - (1 - e^{-x})/x: the fraction of time out of date between evenly
/// spaced visits (x = changes per visit interval), series for small x.
fn stale_fraction(x: f64) -> f64 {
    if x < 1e-3 {
        x * (0.5 - x * (1.0 / 6.0 - x * (1.0 / 24.0 - x * (1.0 / 120.0 - x / 720.0))))
    } else {
        1.0 + (-x).exp_m1() / x
    }
}

fn dist_new(
    f: impl FnOnce(*mut *mut crawlsched_dist_t, *mut crawlsched_error_t) -> i32,
) -> Result<Dist, i32> {
    let mut d = null_mut();
    let mut err = new_err();
    let st = f(&mut d, &mut err);
    if outcome("dist_new", st, &err) {
        Ok(Dist(d))
    } else {
        Err(st)
    }
}

fn mean_of(d: &Dist) -> Option<f64> {
    query(|o, e| unsafe { crawlsched_dist_mean(d.0, o, e) })
}
fn variance_of(d: &Dist) -> Option<f64> {
    query(|o, e| unsafe { crawlsched_dist_variance(d.0, o, e) })
}
fn moment_of(d: &Dist, k: u32) -> Option<f64> {
    query(|o, e| unsafe { crawlsched_dist_moment(d.0, k, o, e) })
}
fn cdf_of(d: &Dist, x: f64) -> Option<f64> {
    query(|o, e| unsafe { crawlsched_dist_cdf(d.0, x, o, e) })
}
fn laplace_of(d: &Dist, s: f64) -> Option<f64> {
    query(|o, e| unsafe { crawlsched_dist_laplace(d.0, s, o, e) })
}

proptest! {
    #![proptest_config(config(256))]

    /// Exponential raw moments k!/r^k (k = 1..8) at any rate: equal to the
    /// closed form, or NUMERICAL when it overflows a double.
    #[test]
    fn exponential_moments(r in rate(-9.0, 9.0), k in 1u32..9) {
        let d = exponential(r);
        let want = (ln_factorial(k) - f64::from(k) * r.ln()).exp();
        match moment_of(&d, k) {
            Some(m) => close("moment", m, want, 1e-12),
            None => prop_assert!(!want.is_finite() || want > 1e300, "moment {} refused, want {}", k, want),
        }
    }

    /// Erlang(k, r): mean k/r, variance k/r^2, E[X^3], the LST
    /// (r/(r+s))^k and the CDF against the Poisson sum in logs.
    #[test]
    fn erlang_any_rate(k in 1u32..40, r in rate(-9.0, 9.0), xs in -2.0f64..1.0, ss in -3.0f64..3.0) {
        let d = dist_new(|o, e| unsafe { crawlsched_dist_erlang_new(k, r, o, e) }).expect("Erlang");
        let kf = f64::from(k);
        close("mean", mean_of(&d).unwrap(), kf / r, 1e-13);
        close("variance", variance_of(&d).unwrap(), kf / (r * r), 1e-13);
        let m3 = (kf.ln() + (kf + 1.0).ln() + (kf + 2.0).ln() - 3.0 * r.ln()).exp();
        close("E[X^3]", moment_of(&d, 3).unwrap(), m3, 1e-12);
        let s = r * 10f64.powf(ss);
        let want = (-kf * (s / r).ln_1p()).exp();
        let got = laplace_of(&d, s).unwrap();
        prop_assert!((got - want).abs() <= 1e-13 + 1e-12 * want, "LST({}) = {} want {}", s, got, want);
        let x = kf * 10f64.powf(xs) / r;
        let want = 1.0 - erlang_tail(k, r, x);
        let got = cdf_of(&d, x).unwrap();
        prop_assert!((got - want).abs() < 1e-12, "cdf({}) = {} want {}", x, got, want);
    }

    /// Erlang(k, r) built as a k-phase PH(alpha, S): the matrix exponential
    /// and LU solves agree with the scalar Erlang at any rate.
    #[test]
    fn erlang_as_phase_type(k in 1usize..8, r in rate(-9.0, 9.0), xs in -2.0f64..1.0) {
        let mut alpha = vec![0.0; k];
        alpha[0] = 1.0;
        let mut s = vec![0.0; k * k];
        for i in 0..k {
            s[i * k + i] = -r;
            if i + 1 < k { s[i * k + i + 1] = r; }
        }
        let ph = phase_type(&alpha, &s).expect("Erlang as PH");
        let kf = k as f64;
        close("mean", mean_of(&ph).unwrap(), kf / r, 1e-12);
        close("variance", variance_of(&ph).unwrap(), kf / (r * r), 1e-9);
        close("LST", laplace_of(&ph, r).unwrap(), 0.5f64.powi(k as i32), 1e-12);
        let x = kf * 10f64.powf(xs) / r;
        let want = 1.0 - erlang_tail(k as u32, r, x);
        let got = cdf_of(&ph, x).unwrap();
        prop_assert!((got - want).abs() < 1e-10, "PH cdf({}) = {} want {} (k {}, r {})", x, got, want, k, r);
    }

    /// Hyperexponential with rates spread over 1e-9..1e9: moments, the
    /// variance in its cancellation-free form, CDF and LST.
    #[test]
    fn hyperexponential_spread(branches in prop::collection::vec((rate(-9.0, 9.0), 0.01f64..1.0), 1..6), xs in -9.0f64..9.0) {
        let total: f64 = branches.iter().map(|b| b.1).sum();
        let p: Vec<f64> = branches.iter().map(|b| b.1 / total).collect();
        let r: Vec<f64> = branches.iter().map(|b| b.0).collect();
        let d = dist_new(|o, e| unsafe { crawlsched_dist_hyperexponential_new(p.as_ptr(), r.as_ptr(), p.len(), o, e) })
            .expect("hyperexponential");
        let m1: f64 = p.iter().zip(&r).map(|(p, r)| p / r).sum();
        close("mean", mean_of(&d).unwrap(), m1, 1e-12);
        // Var = Σ p_i/r_i^2 + ½ Σ_ij p_i p_j (1/r_i - 1/r_j)^2: no cancellation.
        let mut var: f64 = p.iter().zip(&r).map(|(p, r)| p / (r * r)).sum();
        for i in 0..p.len() {
            for j in 0..p.len() {
                var += 0.5 * p[i] * p[j] * (1.0 / r[i] - 1.0 / r[j]).powi(2);
            }
        }
        close("variance", variance_of(&d).unwrap(), var, 1e-9);
        let x = 10f64.powf(xs);
        let want: f64 = p.iter().zip(&r).map(|(p, r)| -p * (-r * x).exp_m1()).sum();
        let got = cdf_of(&d, x).unwrap();
        prop_assert!((got - want).abs() < 1e-13, "cdf({}) = {} want {}", x, got, want);
        let want: f64 = p.iter().zip(&r).map(|(p, r)| p * r / (r + x)).sum();
        let got = laplace_of(&d, x).unwrap();
        prop_assert!((got - want).abs() < 1e-13, "LST({}) = {} want {}", x, got, want);
    }

    /// Two-phase Coxian X = X1 + B X2: mean 1/r1 + p/r2, variance
    /// 1/r1^2 + p(2-p)/r2^2, LST r1/(r1+s) (1 - p + p r2/(r2+s)); the CDF
    /// is a probability, nondecreasing in x.
    #[test]
    fn coxian_two_phases(r1 in rate(-9.0, 9.0), r2 in rate(-9.0, 9.0), p in 0.0f64..=1.0, xs in -9.0f64..9.0) {
        let rates = [r1, r2];
        let cont = [p];
        let d = dist_new(|o, e| unsafe { crawlsched_dist_coxian_new(rates.as_ptr(), 2, cont.as_ptr(), 1, o, e) }).expect("Coxian");
        close("mean", mean_of(&d).unwrap(), 1.0 / r1 + p / r2, 1e-12);
        close("variance", variance_of(&d).unwrap(), 1.0 / (r1 * r1) + p * (2.0 - p) / (r2 * r2), 1e-8);
        let s = 10f64.powf(xs);
        let want = r1 / (r1 + s) * (1.0 - p + p * r2 / (r2 + s));
        let got = laplace_of(&d, s).unwrap();
        prop_assert!((got - want).abs() < 1e-12, "LST({}) = {} want {}", s, got, want);
        let (c1, c2) = (cdf_of(&d, s).unwrap(), cdf_of(&d, 2.0 * s).unwrap());
        prop_assert!((0.0..=1.0).contains(&c1) && c1 <= c2 + 1e-12, "cdf {} then {}", c1, c2);
        // X >= X1 and X <= X1 + X2: the CDF lies between theirs.
        let upper = -(-r1 * s).exp_m1();
        prop_assert!(c1 <= upper + 1e-12, "cdf {} above the first phase's {}", c1, upper);
    }

    /// Empirical distribution of samples over 1e-9..1e9: mean, variance
    /// (two-pass), CDF counts exactly, LST in [0, 1] and decreasing.
    #[test]
    fn empirical_spread(xs in prop::collection::vec(rate(-9.0, 9.0), 1..50), probe in rate(-9.0, 9.0)) {
        let d = dist_new(|o, e| unsafe { crawlsched_dist_empirical_new(xs.as_ptr(), xs.len(), o, e) }).expect("empirical");
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        close("mean", mean_of(&d).unwrap(), mean, 1e-12);
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
        let got = variance_of(&d).unwrap();
        prop_assert!((got - var).abs() <= 1e-12 * var + 1e-300, "variance {} want {}", got, var);
        let count = xs.iter().filter(|&&x| x <= probe).count() as f64;
        prop_assert_eq!(cdf_of(&d, probe).unwrap(), count / n);
        let l1 = laplace_of(&d, probe).unwrap();
        let l2 = laplace_of(&d, 2.0 * probe).unwrap();
        prop_assert!((0.0..=1.0).contains(&l1) && l2 <= l1, "LST {} then {}", l1, l2);
        let want = xs.iter().map(|x| (-probe * x).exp()).sum::<f64>() / n;
        prop_assert!((l1 - want).abs() < 1e-13, "LST {} want {}", l1, want);
    }
}

struct Model(*mut crawlsched_freshness_model_t);
impl Drop for Model {
    fn drop(&mut self) {
        unsafe { crawlsched_freshness_model_free(self.0) }
    }
}

fn freshness_model(access: &Dist, mu: &[f64], w: Option<&[f64]>) -> Option<Model> {
    let mut m = null_mut();
    let mut err = new_err();
    let wp = w.map_or(null(), |w| w.as_ptr());
    let st = unsafe {
        crawlsched_freshness_model_new(access.0, mu.as_ptr(), wp, mu.len(), &mut m, &mut err)
    };
    outcome("freshness_model_new", st, &err).then_some(Model(m))
}

/// An array result: Some(values) on OK (every value finite), None on a
/// clear failure.
fn array(
    n: usize,
    f: impl FnOnce(*mut f64, usize, *mut crawlsched_error_t) -> i32,
) -> Option<Vec<f64>> {
    let mut v = vec![f64::NAN; n];
    let mut err = new_err();
    let st = f(v.as_mut_ptr(), n, &mut err);
    if outcome("array", st, &err) {
        assert!(
            v.iter().all(|x| x.is_finite()),
            "success with non-finite values {v:?}"
        );
        Some(v)
    } else {
        None
    }
}

/// -ln(1 - X/n)/I: the MLE for n visits I apart, X of them changed.
fn equal_interval_mle(x: u64, n: u64, i: f64) -> f64 {
    -(-(x as f64) / n as f64).ln_1p() / i
}

proptest! {
    #![proptest_config(config(256))]

    /// Deterministic crawl time d: a page with change rate mu visited with
    /// frequency f is out of date a fraction 1 - (1 - e^{-x})/x of the
    /// time, x = mu d / f (the freshness (1 - e^{-x})/x), for x from 1e-18
    /// to 1e18; round robin attains it exactly.
    #[test]
    fn freshness_deterministic_closed_form(d in rate(-9.0, 9.0), mu in prop::collection::vec(rate(-9.0, 9.0), 1..6)) {
        let access = dist_new(|o, e| unsafe { crawlsched_dist_deterministic_new(d, o, e) }).expect("deterministic");
        let Some(m) = freshness_model(&access, &mu, None) else { return Ok(()) };
        let n = mu.len();
        let f = vec![1.0 / n as f64; n];
        let Some(r) = array(n, |o, c, e| unsafe { crawlsched_freshness_obsolescence_bound(m.0, f.as_ptr(), n, o, c, e) }) else { return Ok(()) };
        let mut want_cost = 0.0;
        for i in 0..n {
            let want = stale_fraction(mu[i] * d * n as f64);
            prop_assert!((r[i] - want).abs() <= 1e-12 * want + 1e-300, "r[{}] = {} want {} (x = {})", i, r[i], want, mu[i] * d * n as f64);
            want_cost += mu[i] * want;
        }
        if let Some(c) = query(|o, e| unsafe { crawlsched_freshness_cost(m.0, f.as_ptr(), n, o, e) }) {
            close("cost", c, want_cost, 1e-12);
        }
        let seq: Vec<u32> = (0..n as u32).collect();
        if let Some(c) = query(|o, e| unsafe { crawlsched_freshness_cyclic_cost(m.0, seq.as_ptr(), n, o, e) }) {
            close("round-robin cost", c, want_cost, 1e-9);
        }
    }

    /// Exponential crawl times and proportional weights: Theorem 3.4's
    /// f_i = ln(1 + mu_i/r) / sum_j ln(1 + mu_j/r) for rates over 1e-9..1e9.
    #[test]
    fn freshness_theorem_3_4(r in rate(-9.0, 9.0), mu in prop::collection::vec(rate(-9.0, 9.0), 1..7)) {
        let access = exponential(r);
        let Some(m) = freshness_model(&access, &mu, None) else { return Ok(()) };
        let n = mu.len();
        let Some(f) = array(n, |o, c, e| unsafe { crawlsched_freshness_optimal_frequencies(m.0, o, c, e) }) else { return Ok(()) };
        // Ratios to the largest term, so nothing overflows or underflows early.
        let a: Vec<f64> = mu.iter().map(|m| (m / r).ln_1p()).collect();
        let top = a.iter().copied().fold(0.0, f64::max);
        let total: f64 = a.iter().map(|x| x / top).sum();
        for i in 0..n {
            let want = a[i] / top / total;
            prop_assert!((f[i] - want).abs() <= 1e-13 + 1e-12 * want, "f[{}] = {} want {}", i, f[i], want);
        }
    }

    /// Arbitrary weights 1e-9..1e9 (the KKT root find): the optimum is a
    /// probability vector costing no more than uniform, proportional or a
    /// perturbed vector.
    #[test]
    fn freshness_general_weights(r in rate(-9.0, 9.0), pages in prop::collection::vec((rate(-9.0, 9.0), rate(-9.0, 9.0)), 2..7), shift in 0.0f64..1.0) {
        let access = exponential(r);
        let mu: Vec<f64> = pages.iter().map(|p| p.0).collect();
        let w: Vec<f64> = pages.iter().map(|p| p.1).collect();
        let n = mu.len();
        let Some(m) = freshness_model(&access, &mu, Some(&w)) else { return Ok(()) };
        let Some(f) = array(n, |o, c, e| unsafe { crawlsched_freshness_optimal_frequencies(m.0, o, c, e) }) else { return Ok(()) };
        let sum: f64 = f.iter().sum();
        prop_assert!(f.iter().all(|&x| x >= 0.0) && (sum - 1.0).abs() < 1e-9, "frequencies {:?}", f);
        let cost = |g: &[f64]| query(|o, e| unsafe { crawlsched_freshness_cost(m.0, g.as_ptr(), n, o, e) });
        let Some(c_opt) = cost(&f) else { return Ok(()) };
        // Move a fraction of the first page's share to the second.
        let mut g = f.clone();
        let moved = g[0] * shift;
        g[0] -= moved;
        g[1] += moved;
        for (name, other) in [("uniform", vec![1.0 / n as f64; n]), ("perturbed", g)] {
            if let Some(c) = cost(&other) {
                prop_assert!(c_opt <= c * (1.0 + 1e-9) + 1e-300, "optimal {} > {} {}", c_opt, name, c);
            }
        }
        if let Some(lb) = query(|o, e| unsafe { crawlsched_freshness_lower_bound(m.0, o, e) }) {
            prop_assert!(lb >= 0.0 && lb <= c_opt * (1.0 + 1e-9) + 1e-300, "bound {} vs optimal {}", lb, c_opt);
        }
        // Randomized policy: its optimum beats its uniform choice.
        if let Some(f_rand) = array(n, |o, c, e| unsafe { crawlsched_freshness_randomized_optimal_frequencies(m.0, o, c, e) }) {
            let rc = |g: &[f64]| query(|o, e| unsafe { crawlsched_freshness_randomized_cost(m.0, g.as_ptr(), n, o, e) });
            if let (Some(a), Some(b)) = (rc(&f_rand), rc(&vec![1.0 / n as f64; n])) {
                prop_assert!(a <= b * (1.0 + 1e-9) + 1e-300, "randomized optimum {} > uniform {}", a, b);
            }
        }
    }

    /// Equal intervals I from 1e-6 to 1e9: the estimate is Cho and
    /// Garcia-Molina's closed form -ln(1 - X/n)/I (0 < X < n), 0 for X = 0,
    /// ln(2n + 1)/I for X = n.
    #[test]
    fn estimator_equal_intervals(i in rate(-6.0, 9.0), n in 1u64..60, frac in 0.0f64..=1.0) {
        let x = ((n as f64) * frac).round() as u64;
        let mut est = null_mut();
        let mut err = new_err();
        unsafe {
            prop_assert_eq!(crawlsched_estimator_new(&mut est, &mut err), CRAWLSCHED_OK);
            for k in 0..n {
                prop_assert_eq!(crawlsched_estimator_observe(est, i, i32::from(k < x), &mut err), CRAWLSCHED_OK);
            }
            let got = query(|o, e| crawlsched_estimator_estimate(est, o, e));
            crawlsched_estimator_free(est);
            let want = if x == 0 { 0.0 } else if x == n { (2.0 * n as f64 + 1.0).ln() / i } else { equal_interval_mle(x, n, i) };
            if let Some(got) = got {
                prop_assert!((got - want).abs() <= 1e-9 * want, "estimate {} want {} (X {} of {}, I {})", got, want, x, n, i);
            }
        }
    }

    /// Irregular intervals spanning 1e-6..1e9, with and without a prior: the
    /// estimate is finite, >= 0, and zeroes the score of the likelihood
    /// sum_changed t/(e^{mu t} - 1) - sum_unchanged t (+ alpha/mu - beta).
    #[test]
    fn estimator_score_is_zero(obs in prop::collection::vec((rate(-6.0, 9.0), any::<bool>()), 1..40),
                               prior in prop::option::of((rate(-9.0, 9.0), rate(-6.0, 9.0)))) {
        let mut est = null_mut();
        let mut err = new_err();
        unsafe {
            let st = match prior {
                Some((g, w)) => crawlsched_estimator_new_with_prior(g, w, &mut est, &mut err),
                None => crawlsched_estimator_new(&mut est, &mut err),
            };
            if !outcome("estimator_new", st, &err) { return Ok(()) }
            for &(t, c) in &obs {
                prop_assert_eq!(crawlsched_estimator_observe(est, t, i32::from(c), &mut err), CRAWLSCHED_OK);
            }
            let got = query(|o, e| crawlsched_estimator_estimate(est, o, e));
            crawlsched_estimator_free(est);
            let Some(mu) = got else { return Ok(()) };
            prop_assert!(mu >= 0.0);
            let changed = obs.iter().filter(|o| o.1).count();
            if mu == 0.0 || (prior.is_none() && (changed == 0 || changed == obs.len())) {
                return Ok(()); // boundary cases with their own closed forms (above)
            }
            let gain: f64 = obs.iter().filter(|o| o.1).map(|o| o.0 / (mu * o.0).exp_m1()).sum();
            let mut loss: f64 = obs.iter().filter(|o| !o.1).map(|o| o.0).sum();
            let mut gain = gain;
            if let Some((g, w)) = prior {
                gain += g * w / mu;
                loss += w;
            }
            prop_assert!((gain - loss).abs() <= 1e-6 * loss.max(gain), "score {} - {} at mu = {}", gain, loss, mu);
        }
    }

    /// The scheduler with change rates 1e-9..1e9 and crawl reports whose
    /// intervals span 1e-6..1e9: it keeps returning known pages, rates stay
    /// finite and > 0, frequencies are a probability vector.
    #[test]
    fn scheduler_extreme_reports(access in rate(-9.0, 9.0), golden in any::<bool>(),
                                 pages in prop::collection::vec(rate(-9.0, 9.0), 1..6),
                                 reports in prop::collection::vec((0usize..6, rate(-6.0, 9.0), any::<bool>()), 0..30)) {
        let d = exponential(access);
        let mut s = null_mut();
        let mut err = new_err();
        let mode = if golden { CRAWLSCHED_SCHEDULER_GOLDEN_RATIO } else { CRAWLSCHED_SCHEDULER_STRIDE };
        unsafe {
            prop_assert_eq!(crawlsched_scheduler_new(d.0, mode, &mut s, &mut err), CRAWLSCHED_OK);
            for (id, &mu) in pages.iter().enumerate() {
                prop_assert_eq!(crawlsched_scheduler_add_page(s, id as u64, mu, &mut err), CRAWLSCHED_OK, "{}", msg(&err));
            }
            for &(id, t, c) in &reports {
                let st = crawlsched_scheduler_observe(s, (id % pages.len()) as u64, t, i32::from(c), &mut err);
                outcome("scheduler_observe", st, &err);
            }
            let mut ids = vec![u64::MAX; 3 * pages.len()];
            let st = crawlsched_scheduler_next_batch(s, ids.as_mut_ptr(), ids.len(), &mut err);
            if outcome("next_batch", st, &err) {
                prop_assert!(ids.iter().all(|&i| (i as usize) < pages.len()), "ids {:?}", ids);
            }
            let mut total = 0.0;
            let mut all = true;
            for id in 0..pages.len() as u64 {
                if let Some(r) = query(|o, e| crawlsched_scheduler_change_rate(s, id, o, e)) {
                    prop_assert!(r >= 0.0, "rate {}", r);
                }
                match query(|o, e| crawlsched_scheduler_frequency(s, id, o, e)) {
                    Some(f) => { prop_assert!(f >= 0.0); total += f; }
                    None => all = false,
                }
            }
            if all {
                prop_assert!((total - 1.0).abs() < 1e-9, "frequencies sum to {}", total);
            }
            crawlsched_scheduler_free(s);
        }
    }
}

// ---------------------------------------------------------------------------
// Minimized cases of the bugs these properties found (kept as plain tests).

/// PH with rates 1e-9 and 1e9: scaling and squaring of e^{Sx} lost the slow
/// phase, P(X <= 1e10) came out 0.5 instead of 1 - e^{-10}/2.
#[test]
fn stiff_phase_type_cdf() {
    let d = phase_type(&[0.5, 0.5], &[-1e-9, 0.0, 0.0, -1e9]).unwrap();
    let want = 1.0 - 0.5 * (-10f64).exp();
    close("cdf", cdf_of(&d, 1e10).unwrap(), want, 1e-15);
    // Rates 1 and 1e12: was off by 3e-6.
    let d = phase_type(&[0.5, 0.5], &[-1.0, 0.0, 0.0, -1e12]).unwrap();
    close(
        "cdf",
        cdf_of(&d, 3.0).unwrap(),
        1.0 - 0.5 * (-3f64).exp(),
        1e-15,
    );
    // A small CDF keeps its relative precision (was 2e-5 off).
    let d = phase_type(&[1.0, 0.0], &[-1.2913457349443916e-9, 0.0, 0.0, -1670.0]).unwrap();
    let x = 60.75;
    close(
        "cdf",
        cdf_of(&d, x).unwrap(),
        -(-1.2913457349443916e-9 * x).exp_m1(),
        1e-12,
    );
}

/// Robots with lambda/mu = 4e-15: policy iteration's warm start was a
/// multichain policy and the solve failed with INFEASIBLE.
#[test]
fn robots_tiny_load_is_solved() {
    let (lambda, mu, gamma) = (2.499183368528548e-9, 660345.7702029069, 0.0490677943445491);
    let mut r = null_mut();
    let mut err = new_err();
    unsafe {
        assert_eq!(
            crawlsched_robots_solve(2, 1, lambda, mu, gamma, std::ptr::null(), &mut r, &mut err),
            CRAWLSCHED_OK,
            "{}",
            msg(&err)
        );
        let (mut c, mut s, mut l) = (f64::NAN, f64::NAN, f64::NAN);
        assert_eq!(
            crawlsched_robots_cost(r, &mut c, &mut s, &mut l, &mut err),
            CRAWLSCHED_OK
        );
        // Nearly always starving: cost = gamma P(q = 0) ~ gamma.
        let best_static = query(|o, e| crawlsched_robots_evaluate_static(r, 2, o, e)).unwrap();
        assert!(
            c <= best_static * (1.0 + 1e-9) && (c - gamma).abs() < 1e-6 * gamma,
            "cost {c}, static {best_static}"
        );
        crawlsched_robots_free(r);
    }
}

/// C_s(rho, gamma, K) of eq. (9), independently: M/M/1/K with
/// pi_i = rho^i / sum_j rho^j in logs, cost gamma pi_0 + mu rho pi_K.
fn static_cost_closed_form(rho: f64, gamma: f64, k: u64, mu: f64) -> f64 {
    let lr = rho.ln();
    let logs: Vec<f64> = (0..=k).map(|i| i as f64 * lr).collect();
    let lz = log_sum_exp(&logs);
    gamma * (-lz).exp() + mu * (lr + k as f64 * lr - lz).exp()
}

/// Two-state chain: 0 -> 1 with probability a, 1 -> 0 with b, costs c0, c1.
fn two_state_mdp(a: f64, b: f64, c0: f64, c1: f64) -> *mut crawlsched_mdp_t {
    let mut bld = null_mut();
    let mut m = null_mut();
    let mut err = new_err();
    let mut act = 0u32;
    unsafe {
        assert_eq!(
            crawlsched_mdp_builder_new(2, &mut bld, &mut err),
            CRAWLSCHED_OK
        );
        let next = [0u32, 1];
        for (s, p, c) in [(0u32, [1.0 - a, a], c0), (1, [b, 1.0 - b], c1)] {
            let st = crawlsched_mdp_builder_add_action(
                bld,
                s,
                next.as_ptr(),
                p.as_ptr(),
                2,
                c,
                &mut act,
                &mut err,
            );
            assert_eq!(st, CRAWLSCHED_OK, "{}", msg(&err));
        }
        assert_eq!(crawlsched_mdp_build(bld, &mut m, &mut err), CRAWLSCHED_OK);
        crawlsched_mdp_builder_free(bld);
    }
    m
}

/// Probability 10^-e, or exactly 0 for e = 13 (near-multichain and multichain).
fn small_prob() -> impl Strategy<Value = f64> {
    (0u32..14).prop_map(|e| {
        if e == 13 {
            0.0
        } else {
            10f64.powi(-(e as i32)) * 0.5
        }
    })
}

proptest! {
    #![proptest_config(config(256))]

    /// Static cost C_s over loads 1e-18..1e18, rho = 1 +- 1e-12 and buffers
    /// 1..10^4 against the M/M/1/K closed form in logs.
    #[test]
    fn robots_static_cost_closed_form(lr in prop_oneof![(-18.0f64..18.0).prop_map(|e| 10f64.powf(e)),
                                                        (-1.0f64..1.0).prop_map(|d| 1.0 + d * 1e-12),
                                                        (-1.0f64..1.0).prop_map(|d| 1.0 + d * 1e-5)],
                                      gamma in prop_oneof![Just(0.0), rate(-9.0, 9.0)], k in prop_oneof![1u64..4, 4u64..10_001],
                                      mu in rate(-9.0, 9.0)) {
        let got = query(|o, e| unsafe { crawlsched_robots_static_cost(lr, gamma, k, mu, o, e) });
        let want = static_cost_closed_form(lr, gamma, k, mu);
        if let Some(got) = got {
            prop_assert!((got - want).abs() <= 1e-9 * want + 1e-300, "C_s({}, {}, {}, {}) = {} want {}", lr, gamma, k, mu, got, want);
        }
    }

    /// Proposition 3 over lambda/mu from 1e-12 to 1e9: the chosen N_s is no
    /// worse than its neighbours and its cost is C_s(N_s lambda/mu).
    #[test]
    fn robots_optimal_static(lambda in rate(-9.0, 9.0), ratio in rate(-12.0, 9.0), gamma in rate(-9.0, 9.0), k in 1u64..50) {
        let mu = lambda / ratio;
        let (mut n, mut c) = (0u64, f64::NAN);
        let mut err = new_err();
        let st = unsafe { crawlsched_robots_optimal_static(lambda, mu, gamma, k, &mut n, &mut c, &mut err) };
        if !outcome("optimal_static", st, &err) { return Ok(()) }
        prop_assert!(n >= 1 && c.is_finite() && c >= 0.0, "N_s {} cost {}", n, c);
        let at = |n: u64| static_cost_closed_form(n as f64 * lambda / mu, gamma, k, mu);
        prop_assert!((c - at(n)).abs() <= 1e-9 * c + 1e-300, "cost {} vs C_s({}) {}", c, n, at(n));
        prop_assert!(c <= at(n + 1) * (1.0 + 1e-9) && (n == 1 || c <= at(n - 1) * (1.0 + 1e-9)), "N_s {} not a local optimum", n);
    }

    /// A near-singular two-state chain (leaving probabilities down to 5e-13,
    /// or 0: multichain) with costs 1e-9..1e9. Average cost: the gain is
    /// (b c0 + a c1)/(a + b); discounted: the 2x2 solve in its
    /// cancellation-free form. Every method either converges to it, or
    /// says NOT_CONVERGED / INFEASIBLE with a certificate that still holds.
    #[test]
    fn mdp_near_singular_chain(a in small_prob(), b in small_prob(), c0 in rate(-9.0, 9.0), c1 in rate(-9.0, 9.0),
                               method in 0i32..4, discounted in any::<bool>(), beta in prop_oneof![Just(0.5), Just(0.99), Just(1.0 - 1e-9)]) {
        let m = two_state_mdp(a, b, c0, c1);
        let mut s = null_mut();
        let mut err = new_err();
        unsafe {
            prop_assert_eq!(crawlsched_mdp_solver_new(method, &mut s, &mut err), CRAWLSCHED_OK);
            let crit = if discounted { CRAWLSCHED_MDP_DISCOUNTED } else { CRAWLSCHED_MDP_AVERAGE };
            prop_assert_eq!(crawlsched_mdp_solver_set_criterion(s, crit, beta, 0.0, &mut err), CRAWLSCHED_OK);
            // Few iterations: a slowly mixing chain must say NOT_CONVERGED, not lie.
            prop_assert_eq!(crawlsched_mdp_solver_set_limits(s, 1e-9, 2000, CRAWLSCHED_MDP_STOP_SPAN, &mut err), CRAWLSCHED_OK);
            let st = crawlsched_mdp_solver_run(s, m, &mut err);
            let ok = st == CRAWLSCHED_OK;
            prop_assert!(ok || st == CRAWLSCHED_NOT_CONVERGED || st == CRAWLSCHED_INFEASIBLE || st == CRAWLSCHED_NUMERICAL,
                         "status {} {}", st, msg(&err));
            prop_assert!(ok || err.message[0] != 0);
            if ok || st == CRAWLSCHED_NOT_CONVERGED {
                let (mut g, mut lo, mut hi) = (f64::NAN, f64::NAN, f64::NAN);
                prop_assert_eq!(crawlsched_mdp_solver_gain(s, &mut g, &mut lo, &mut hi, &mut err), CRAWLSCHED_OK, "{}", msg(&err));
                let mut v = [f64::NAN; 2];
                prop_assert_eq!(crawlsched_mdp_solver_values(s, v.as_mut_ptr(), 2, &mut err), CRAWLSCHED_OK);
                prop_assert!(g.is_finite() && lo.is_finite() && hi.is_finite() && lo <= hi && v.iter().all(|x| x.is_finite()));
                let scale = c0.max(c1);
                if discounted {
                    let d = 1.0 - beta;
                    let det = d * (d + beta * (a + b));
                    let want = [((d + beta * b) * c0 + beta * a * c1) / det, (beta * b * c0 + (d + beta * a) * c1) / det];
                    for i in 0..2 {
                        let gap = want[i] - v[i];
                        // Known limit (docs/reliability.md): I - beta P is formed
                        // entry by entry, each rounded by ~1.1e-16, and the solve
                        // amplifies that by up to 1/(1 - beta); the certificate
                        // of an exact evaluation ([0, 0]) does not include it.
                        let slack = (1e-9 + 2.3e-16 / d) * want[0].max(want[1]);
                        prop_assert!(lo - slack <= gap && gap <= hi + slack, "v[{}] = {} want {}, certificate [{}, {}]", i, v[i], want[i], lo, hi);
                    }
                } else if a + b > 0.0 {
                    let want = (b * c0 + a * c1) / (a + b);
                    // Known limit (docs/reliability.md): 1 - p_ss is formed from
                    // the stored p_ss, whose rounding (1.1e-16) is a relative
                    // error 1.1e-16/a in a leaving probability a.
                    let small = [a, b].into_iter().filter(|&x| x > 0.0).fold(1.0, f64::min);
                    let slack = 1e-9 * scale + 2.3e-16 / small * (c0 - c1).abs();
                    prop_assert!(lo - slack <= want && want <= hi + slack, "gain {} in [{}, {}]? (a {}, b {})", want, lo, hi, a, b);
                    if ok {
                        prop_assert!((g - want).abs() <= (hi - lo) + slack, "gain {} want {}", g, want);
                    }
                }
            }
            crawlsched_mdp_solver_free(s);
            crawlsched_mdp_free(m);
        }
    }
}

/// Level distribution and measures of a one-mode threshold model (None if
/// a call failed clearly).
fn threshold_levels(
    arrivals: *mut crawlsched_bmap_t,
    service: &Dist,
    obs: Option<&Dist>,
    b: u32,
) -> Option<(Vec<f64>, Vec<f64>)> {
    let mut m = null_mut();
    let mut err = new_err();
    let arr = [arrivals as *const crawlsched_bmap_t];
    let st = unsafe {
        crawlsched_threshold_model_new(
            arr.as_ptr(),
            1,
            service.0,
            obs.map_or(null(), |d| d.0),
            b,
            &mut m,
            &mut err,
        )
    };
    if !outcome("threshold_model_new", st, &err) {
        return None;
    }
    let modes = [1u32];
    let mut p = vec![f64::NAN; b as usize + 2];
    let mut len = 0usize;
    let mut meas = vec![f64::NAN; CRAWLSCHED_THRESHOLD_MEASURE_COUNT];
    let ok = unsafe {
        let st = crawlsched_threshold_level_distribution(
            m,
            modes.as_ptr(),
            1,
            null(),
            0,
            std::ptr::null(),
            p.as_mut_ptr(),
            p.len(),
            &mut len,
            &mut err,
        );
        outcome("level_distribution", st, &err) && {
            let st = crawlsched_threshold_measures(
                m,
                modes.as_ptr(),
                1,
                null(),
                0,
                std::ptr::null(),
                meas.as_mut_ptr(),
                meas.len(),
                &mut err,
            );
            outcome("measures", st, &err)
        }
    };
    unsafe { crawlsched_threshold_model_free(m) };
    if ok {
        assert!(
            p.iter().chain(&meas).all(|x| x.is_finite()),
            "non-finite output: {p:?} {meas:?}"
        );
    }
    ok.then_some((p, meas))
}

proptest! {
    #![proptest_config(config(128))]

    /// Poisson pages, exponential service and exponential obsolescence of
    /// waiting pages at rate theta (from 1e-9 to 1e9 relative to mu): the
    /// birth-death chain with death rate mu + (i-1) theta, in logs; loss
    /// = P(B+1) (PASTA) and P_obs = theta E[waiting] / lambda.
    #[test]
    fn threshold_obsolescence_closed_form(lambda in rate(-9.0, 9.0), mu in rate(-9.0, 9.0), rel in rate(-9.0, 9.0),
                                          b in prop_oneof![Just(0u32), Just(1u32), 2u32..10, Just(200u32)]) {
        let theta = mu * rel;
        let service = exponential(mu);
        let obs = exponential(theta);
        let mut arr = null_mut();
        let mut err = new_err();
        unsafe { prop_assert_eq!(crawlsched_bmap_poisson_new(lambda, &mut arr, &mut err), CRAWLSCHED_OK) };
        let got = threshold_levels(arr, &service, Some(&obs), b);
        unsafe { crawlsched_bmap_free(arr) };
        let Some((p, meas)) = got else { return Ok(()) };
        let mut logs = vec![0.0];
        for i in 1..p.len() {
            let prev = logs[i - 1];
            logs.push(prev + lambda.ln() - (mu + (i - 1) as f64 * theta).ln());
        }
        let lz = log_sum_exp(&logs);
        let want: Vec<f64> = logs.iter().map(|l| (l - lz).exp()).collect();
        for i in 0..p.len() {
            prop_assert!((p[i] - want[i]).abs() < 1e-9, "P({}) = {} want {} (rho {}, theta/mu {})", i, p[i], want[i], lambda / mu, rel);
        }
        let loss = meas[CRAWLSCHED_THRESHOLD_MEASURE_LOSS];
        prop_assert!((loss - want[want.len() - 1]).abs() < 1e-9, "loss {} want {}", loss, want[want.len() - 1]);
        // theta E[waiting]/lambda = sum_i (i-1) pi_i theta/lambda, in logs.
        let terms: Vec<f64> = (2..want.len()).map(|i| logs[i] - lz + ((i - 1) as f64 * theta / lambda).ln()).collect();
        let p_obs = log_sum_exp(&terms).exp();
        let got = meas[CRAWLSCHED_THRESHOLD_MEASURE_OBSOLESCENCE];
        prop_assert!((got - p_obs).abs() < 1e-9, "P_obs {} want {}", got, p_obs);
        let success = meas[CRAWLSCHED_THRESHOLD_MEASURE_SUCCESS];
        prop_assert!((success + loss + got - 1.0).abs() < 1e-9, "success {} + loss {} + obs {} != 1", success, loss, got);
    }

    /// A two-phase MMPP with phase rates and switching rates over
    /// 1e-9..1e9 as a BMAP: fundamental rate (q21 l1 + q12 l2)/(q12 + q21),
    /// the level distribution is a probability vector and the measures are
    /// finite (or a clear failure).
    #[test]
    fn threshold_stiff_mmpp(l1 in rate(-9.0, 9.0), l2 in rate(-9.0, 9.0), q12 in rate(-9.0, 9.0), q21 in rate(-9.0, 9.0),
                            mu in rate(-9.0, 9.0), b in prop_oneof![Just(0u32), Just(1u32), 2u32..20]) {
        // D0 = Q - diag(l), D1 = diag(l).
        let mats = [-q12 - l1, q12, q21, -q21 - l2, l1, 0.0, 0.0, l2];
        let mut arr = null_mut();
        let mut err = new_err();
        let st = unsafe { crawlsched_bmap_new(2, mats.as_ptr(), mats.len(), &mut arr, &mut err) };
        if !outcome("bmap_new", st, &err) { return Ok(()) }
        let want = (q21 * l1 + q12 * l2) / (q12 + q21);
        if let Some(r) = query(|o, e| unsafe { crawlsched_bmap_fundamental_rate(arr, o, e) }) {
            close("fundamental rate", r, want, 1e-9);
        }
        let service = exponential(mu);
        let got = threshold_levels(arr, &service, None, b);
        unsafe { crawlsched_bmap_free(arr) };
        let Some((p, meas)) = got else { return Ok(()) };
        let total: f64 = p.iter().sum();
        prop_assert!(p.iter().all(|&x| x >= -1e-12) && (total - 1.0).abs() < 1e-9, "levels {:?}", p);
        let loss = meas[CRAWLSCHED_THRESHOLD_MEASURE_LOSS];
        prop_assert!((-1e-12..=1.0 + 1e-12).contains(&loss), "loss {}", loss);
    }

    /// Poisson arrivals: E exp(-mu (tau_1 + ... + tau_k)) = (lambda/(lambda+mu))^k;
    /// M servers of one rate visited in turn each lose a fraction
    /// (lambda/(lambda+mu))^M; one server alone loses lambda/(lambda+mu).
    #[test]
    fn routing_one_vs_many(lambda in rate(-9.0, 9.0), mu in rate(-9.0, 9.0), k in 1u32..60, m in 1usize..9) {
        let mut a = null_mut();
        let mut s = null_mut();
        let mut err = new_err();
        let log_phi = -(mu / lambda).ln_1p();
        unsafe {
            prop_assert_eq!(crawlsched_routing_arrivals_poisson_new(lambda, &mut a, &mut err), CRAWLSCHED_OK);
            let want = (f64::from(k) * log_phi).exp();
            if let Some(t) = query(|o, e| crawlsched_routing_arrivals_transform(a, mu, k, o, e)) {
                prop_assert!((t - want).abs() <= 1e-12 * want + 1e-300, "transform {} want {}", t, want);
            }
            let rates = vec![mu; m];
            let st = crawlsched_routing_servers_new(a, rates.as_ptr(), null(), m, CRAWLSCHED_ROUTING_LOSSES, &mut s, &mut err);
            prop_assert_eq!(st, CRAWLSCHED_OK, "{}", msg(&err));
            let seq: Vec<u32> = (0..m as u32).collect();
            let (mut pp, mut pu) = (f64::NAN, f64::NAN);
            let st = crawlsched_routing_cost(s, seq.as_ptr(), m, &mut pp, &mut pu, &mut err);
            if outcome("routing_cost", st, &err) {
                let want = (m as f64 * log_phi).exp();
                prop_assert!((pp - want).abs() <= 1e-12 * want + 1e-300, "per packet {} want {} (M {})", pp, want, m);
                prop_assert!((pu - lambda * pp).abs() <= 1e-12 * lambda * pp + 1e-300, "per unit time {} vs {}", pu, lambda * pp);
            }
            crawlsched_routing_servers_free(s);
            crawlsched_routing_arrivals_free(a);
        }
    }

    /// Routing with service rates spread over 1e-9..1e9: the exhaustive
    /// optimum over periods 1..4 is finite, a probability of loss, and no
    /// worse than round robin or sending everything to the fastest server.
    #[test]
    fn routing_spread_rates_optimum(lambda in rate(-9.0, 9.0), rates in prop::collection::vec(rate(-9.0, 9.0), 1..4)) {
        let mut a = null_mut();
        let mut s = null_mut();
        let mut err = new_err();
        unsafe {
            prop_assert_eq!(crawlsched_routing_arrivals_poisson_new(lambda, &mut a, &mut err), CRAWLSCHED_OK);
            let m = rates.len();
            prop_assert_eq!(crawlsched_routing_servers_new(a, rates.as_ptr(), null(), m, CRAWLSCHED_ROUTING_LOSSES, &mut s, &mut err), CRAWLSCHED_OK);
            let mut out = [u32::MAX; 8];
            let (mut len, mut cost, mut evals) = (0usize, f64::NAN, 0u64);
            let st = crawlsched_routing_optimize_exhaustive(s, 1, 4, std::ptr::null(), out.as_mut_ptr(), out.len(), &mut len, &mut cost, &mut evals, &mut err);
            if outcome("optimize_exhaustive", st, &err) {
                prop_assert!((0.0..=1.0).contains(&cost), "cost {}", cost);
                let fastest = (0..m).max_by(|&i, &j| rates[i].total_cmp(&rates[j])).unwrap();
                let rr: Vec<u32> = (0..m as u32).collect();
                for seq in [vec![fastest as u32], rr] {
                    let (mut pp, mut pu) = (f64::NAN, f64::NAN);
                    if outcome("routing_cost", crawlsched_routing_cost(s, seq.as_ptr(), seq.len(), &mut pp, &mut pu, &mut err), &err) {
                        prop_assert!(cost <= pp * (1.0 + 1e-9) + 1e-300, "optimum {} > {:?} {}", cost, seq, pp);
                    }
                }
            }
            crawlsched_routing_servers_free(s);
            crawlsched_routing_arrivals_free(a);
        }
    }

    /// Probing over horizons 1e-9..1e9 with a minimum spacing near T/n
    /// (1 +- 1e-12, 1 +- 1e-6): OK with a schedule respecting the spacing
    /// and costing at least lambda T^2/(2n) (the even split), or INFEASIBLE
    /// with a message.
    #[test]
    fn probe_spacing_near_horizon(lambda in rate(-9.0, 9.0), t in rate(-9.0, 9.0), n in 1u64..6,
                                  rel in prop_oneof![Just(0.0), Just(-1e-12), Just(1e-12), Just(-1e-6), Just(1e-6), Just(0.5)]) {
        let lb = [0.0, t];
        let lv = [lambda];
        let av = [1.0];
        let mut p = null_mut();
        let mut err = new_err();
        unsafe {
            let st = crawlsched_probe_profile_new(lb.as_ptr(), lv.as_ptr(), 1, 0, lb.as_ptr(), av.as_ptr(), 1, 0, t, &mut p, &mut err);
            prop_assert_eq!(st, CRAWLSCHED_OK, "{}", msg(&err));
            let delta = t / n as f64 * (1.0 + rel);
            let mut pl = null_mut();
            let st = crawlsched_probe_planner_new(p, 60, delta, &mut pl, &mut err);
            if outcome("planner_new", st, &err) {
                let mut out = vec![f64::NAN; n as usize];
                let mut cost = f64::NAN;
                let st = crawlsched_probe_planner_plan(pl, n, CRAWLSCHED_PROBE_METHOD_HULL, out.as_mut_ptr(), out.len(), &mut cost, &mut err);
                if st == CRAWLSCHED_INFEASIBLE {
                    prop_assert!(err.message[0] != 0);
                } else if outcome("plan", st, &err) {
                    let even = lambda * t * t / (2.0 * n as f64);
                    prop_assert!(cost.is_finite() && cost >= even * (1.0 - 1e-9), "cost {} below the even split {}", cost, even);
                    prop_assert!(out.iter().all(|x| x.is_finite()) && (out[out.len() - 1] - t).abs() <= 1e-12 * t, "{:?}", out);
                    let mut prev = 0.0;
                    for &x in &out {
                        prop_assert!(x - prev >= delta * (1.0 - 1e-9), "spacing {} < delta {} in {:?}", x - prev, delta, out);
                        prev = x;
                    }
                    let c = query(|o, e| crawlsched_probe_expected_cost(p, out.as_ptr(), out.len(), o, e)).unwrap();
                    close("plan cost", cost, c, 1e-9);
                }
                crawlsched_probe_planner_free(pl);
            }
            crawlsched_probe_profile_free(p);
        }
    }
}

/// Two-state chain leaving each state with probability 5e-11 (not fixed,
/// see docs/reliability.md): policy evaluation forms 1 - p_ss from the
/// stored p_ss = 1 - 5e-11, rounded by 1.1e-16, so the gain is off by
/// about 2e-8 (relative bound 2.2e-16/5e-11 = 4.4e-6); the certificate
/// [0.5, 0.50000004] misses the exact 0.50000006 by that much.
#[test]
fn near_singular_chain_gain_within_documented_bound() {
    let (a, c1) = (5e-11, 1.2184538738513036e-7);
    let m = two_state_mdp(a, a, 1.0, c1);
    let mut s = null_mut();
    let mut err = new_err();
    unsafe {
        assert_eq!(
            crawlsched_mdp_solver_new(CRAWLSCHED_MDP_POLICY_ITERATION, &mut s, &mut err),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_mdp_solver_run(s, m, &mut err),
            CRAWLSCHED_OK,
            "{}",
            msg(&err)
        );
        let (mut g, mut lo, mut hi) = (f64::NAN, f64::NAN, f64::NAN);
        assert_eq!(
            crawlsched_mdp_solver_gain(s, &mut g, &mut lo, &mut hi, &mut err),
            CRAWLSCHED_OK
        );
        let want = (1.0 + c1) / 2.0;
        let bound = 2.3e-16 / a;
        assert!(
            (g - want).abs() <= bound && lo - bound <= want && want <= hi + bound,
            "gain {g} in [{lo}, {hi}], want {want}"
        );
        crawlsched_mdp_solver_free(s);
        crawlsched_mdp_free(m);
    }
}

/// MMPP switching 1 -> 2 at rate 3.6e-9 next to an arrival rate of 1 in
/// phase 1: the stationary phase vector came from the diagonal -q12 - l1
/// + l1 and the fundamental rate was 2e-9 off.
#[test]
fn stiff_mmpp_fundamental_rate() {
    let (l1, l2, q12, q21) = (
        1.0,
        49160.25009969294,
        3.6406996911915195e-9,
        0.0009041291761783142,
    );
    let mats = [-q12 - l1, q12, q21, -q21 - l2, l1, 0.0, 0.0, l2];
    let mut arr = null_mut();
    let mut err = new_err();
    unsafe {
        assert_eq!(
            crawlsched_bmap_new(2, mats.as_ptr(), mats.len(), &mut arr, &mut err),
            CRAWLSCHED_OK
        );
        let r = query(|o, e| crawlsched_bmap_fundamental_rate(arr, o, e)).unwrap();
        close(
            "fundamental rate",
            r,
            (q21 * l1 + q12 * l2) / (q12 + q21),
            1e-14,
        );
        crawlsched_bmap_free(arr);
    }
}

/// Stationary distribution of a small CTMC by GTH (Grassmann, Taksar,
/// Heyman): only off-diagonal rates, no subtraction, so every entry keeps
/// its relative precision however stiff the chain. `q[i][j]` is the rate
/// i -> j (the diagonal is ignored).
fn gth(mut q: Vec<Vec<f64>>) -> Vec<f64> {
    let n = q.len();
    for k in (1..n).rev() {
        let s: f64 = q[k][..k].iter().sum();
        for i in 0..k {
            let f = q[i][k] / s;
            for j in (0..k).filter(|&j| j != i) {
                q[i][j] += f * q[k][j];
            }
        }
    }
    let mut pi = vec![1.0; n];
    for k in 1..n {
        let s: f64 = q[k][..k].iter().sum();
        pi[k] = (0..k).map(|i| pi[i] * q[i][k]).sum::<f64>() / s;
        if pi[k] > 1e200 {
            // Heavy load: rescale so the later entries cannot overflow.
            pi[..=k].iter_mut().for_each(|x| *x *= 1e-200);
        }
    }
    let total: f64 = pi.iter().sum();
    pi.iter().map(|x| x / total).collect()
}

/// P(i pages), i = 0..=B+1, of the M/PH/1/(B+1) queue (Poisson lambda,
/// service PH(alpha, S) of order m) by GTH on its 1 + m(B+1) states.
fn mph1k_levels(lambda: f64, alpha: &[f64], s: &[f64], b: usize) -> Vec<f64> {
    let m = alpha.len();
    let exit: Vec<f64> = (0..m)
        .map(|k| -(0..m).map(|j| s[k * m + j]).sum::<f64>())
        .collect();
    let top = b + 1;
    let id = |i: usize, k: usize| 1 + (i - 1) * m + k;
    let n = 1 + m * top;
    let mut q = vec![vec![0.0; n]; n];
    for k in 0..m {
        q[0][id(1, k)] += lambda * alpha[k];
    }
    for i in 1..=top {
        for k in 0..m {
            if i < top {
                q[id(i, k)][id(i + 1, k)] += lambda;
            }
            for j in (0..m).filter(|&j| j != k) {
                q[id(i, k)][id(i, j)] += s[k * m + j];
            }
            if i == 1 {
                q[id(1, k)][0] += exit[k];
            } else {
                for j in 0..m {
                    q[id(i, k)][id(i - 1, j)] += exit[k] * alpha[j];
                }
            }
        }
    }
    let pi = gth(q);
    let mut levels = vec![pi[0]; 1];
    for i in 1..=top {
        levels.push((0..m).map(|k| pi[id(i, k)]).sum());
    }
    levels
}

proptest! {
    #![proptest_config(config(128))]

    /// Poisson pages and a hyperexponential service whose two rates spread
    /// over 1e-9..1e9: served pages per unit time = lambda (1 - P_loss) =
    /// (1 - P(empty)) / E[S] (Little at the server), and the levels sum to 1.
    #[test]
    fn threshold_stiff_service(lambda in rate(-9.0, 9.0), r1 in rate(-9.0, 9.0), r2 in rate(-9.0, 9.0), p in 0.01f64..0.99,
                               b in prop_oneof![Just(0u32), Just(1u32), 2u32..12, Just(100u32)]) {
        let service = phase_type(&[p, 1.0 - p], &[-r1, 0.0, 0.0, -r2]).expect("H2");
        let mean_s = p / r1 + (1.0 - p) / r2;
        let mut arr = null_mut();
        let mut err = new_err();
        unsafe { prop_assert_eq!(crawlsched_bmap_poisson_new(lambda, &mut arr, &mut err), CRAWLSCHED_OK) };
        let got = threshold_levels(arr, &service, None, b);
        unsafe { crawlsched_bmap_free(arr) };
        let Some((levels, meas)) = got else { return Ok(()) };
        let total: f64 = levels.iter().sum();
        prop_assert!(levels.iter().all(|&x| x >= -1e-12) && (total - 1.0).abs() < 1e-9, "levels {:?}", levels);
        let want = mph1k_levels(lambda, &[p, 1.0 - p], &[-r1, 0.0, 0.0, -r2], b as usize);
        // The block level reduction is GTH throughout, so relative accuracy
        // does not depend on how far apart the rates are.
        let (hi, lo) = (lambda.max(r1).max(r2), lambda.min(r1).min(r2));
        let rel = 1e-12 * f64::from(b + 2);
        for i in 0..want.len() {
            prop_assert!((levels[i] - want[i]).abs() <= rel * want[i] + 1e-13, "P({}) = {} want {} (GTH; rates {} .. {})", i, levels[i], want[i], lo, hi);
        }
        let loss = meas[CRAWLSCHED_THRESHOLD_MEASURE_LOSS];
        let empty = meas[CRAWLSCHED_THRESHOLD_MEASURE_STARVATION];
        let thr = meas[CRAWLSCHED_THRESHOLD_MEASURE_THROUGHPUT];
        prop_assert!((empty - levels[0]).abs() < 1e-12, "starvation {} vs P(0) {}", empty, levels[0]);
        let by_loss = lambda * (1.0 - loss);
        // 1 - loss cancels when nearly every page is lost: allow its rounding.
        prop_assert!((thr - by_loss).abs() <= rel * by_loss.max(thr) + 4e-16 * lambda, "throughput {} vs lambda(1 - loss) {}", thr, by_loss);
        // (1 - P(0)) loses digits when P(0) ~ 1, so compare in absolute terms there.
        let busy = 1.0 - levels[0];
        prop_assert!((thr * mean_s - busy).abs() <= rel * busy + 4e-16, "throughput x E[S] {} vs P(busy) {}", thr * mean_s, busy);
    }

    /// Golden-ratio schedules (paper §5) for pages changing at rates
    /// 1e-9..1e9: the exact cost of the cyclic sequence is finite and no
    /// lower than Theorem 3.3's bound at the sequence's own frequencies.
    #[test]
    fn freshness_golden_ratio_schedule(r in rate(-9.0, 9.0), mu in prop::collection::vec(rate(-9.0, 9.0), 1..6), total in 5u64..60) {
        let access = exponential(r);
        let Some(m) = freshness_model(&access, &mu, None) else { return Ok(()) };
        let n = mu.len();
        let Some(f) = array(n, |o, c, e| unsafe { crawlsched_freshness_optimal_frequencies(m.0, o, c, e) }) else { return Ok(()) };
        let mut counts = vec![0u64; n];
        let mut err = new_err();
        let st = unsafe { crawlsched_freshness_integer_counts(f.as_ptr(), n, total, 1, counts.as_mut_ptr(), n, &mut err) };
        if !outcome("integer_counts", st, &err) { return Ok(()) }
        prop_assert_eq!(counts.iter().sum::<u64>(), total);
        let mut seq = vec![u32::MAX; total as usize];
        let mut len = 0usize;
        let st = unsafe { crawlsched_freshness_golden_ratio_sequence(counts.as_ptr(), n, seq.as_mut_ptr(), seq.len(), &mut len, &mut err) };
        prop_assert_eq!(st, CRAWLSCHED_OK, "{}", msg(&err));
        prop_assert_eq!(len, total as usize);
        let Some(c) = query(|o, e| unsafe { crawlsched_freshness_cyclic_cost(m.0, seq.as_ptr(), len, o, e) }) else { return Ok(()) };
        let own: Vec<f64> = counts.iter().map(|&k| k as f64 / total as f64).collect();
        if let Some(bound) = query(|o, e| unsafe { crawlsched_freshness_cost(m.0, own.as_ptr(), n, o, e) }) {
            prop_assert!(c >= bound * (1.0 - 1e-9), "cyclic cost {} below the even-spacing bound {}", c, bound);
        }
    }
}

/// Levels and measures of the M/H2/1/(b + 1) queue: Poisson(lambda)
/// arrivals, service rate r1 with probability p, else r2.
fn mh2_levels(lambda: f64, r1: f64, r2: f64, p: f64, b: u32) -> (Vec<f64>, Vec<f64>) {
    let service = phase_type(&[p, 1.0 - p], &[-r1, 0.0, 0.0, -r2]).unwrap();
    let mut arr = null_mut();
    let mut err = new_err();
    unsafe {
        assert_eq!(
            crawlsched_bmap_poisson_new(lambda, &mut arr, &mut err),
            CRAWLSCHED_OK
        )
    };
    let out = threshold_levels(arr, &service, None, b).unwrap();
    unsafe { crawlsched_bmap_free(arr) };
    out
}

/// M/H2/1/7 with service rates 7.9e-4 and 8.4e7: the block level
/// reduction gave P(empty) = 8.74e-11 (1.2% off) where GTH and exact
/// rational arithmetic give 8.637559125512677e-11.
#[test]
fn threshold_stiff_service_relative_accuracy() {
    let (lambda, r1, r2, p, b) = (
        1.0,
        0.0007895446407616755,
        84345760.46111755,
        0.9324247244813397,
        6u32,
    );
    let (levels, _) = mh2_levels(lambda, r1, r2, p, b);
    close("P(0)", levels[0], 8.637559125512677e-11, 1e-12);
}

/// M/H2/1/3 with rates 1.8e-9 .. 2.1e7: P(busy) was 0.9595 and the
/// throughput times E[S] 0.8345; exact (rational arithmetic) 0.9150749.
#[test]
fn threshold_widest_spread() {
    let (lambda, r1, r2, p, b) = (
        6.706456580743457e-9,
        1.777676857709487e-9,
        21243490.938740376,
        0.6826175665365394,
        2u32,
    );
    let (levels, meas) = mh2_levels(lambda, r1, r2, p, b);
    close("P(0)", levels[0], 0.08492507985081203, 1e-12);
    let mean_s = p / r1 + (1.0 - p) / r2;
    close(
        "throughput x E[S]",
        meas[CRAWLSCHED_THRESHOLD_MEASURE_THROUGHPUT] * mean_s,
        0.915074920149188,
        1e-12,
    );
}

/// M/H2/1/101, rates 1.3e-8 .. 0.089: the block solve gave P(empty) =
/// 1.37e-9 where GTH and exact rational arithmetic give 7.83e-12.
#[test]
fn threshold_long_buffer_stiff_service() {
    let (lambda, r1, r2, p, b) = (
        2.327835965305992e-8,
        1.3371324690911752e-8,
        0.08884243929319144,
        0.7873919880906807,
        100u32,
    );
    let (levels, _) = mh2_levels(lambda, r1, r2, p, b);
    close("P(0)", levels[0], 7.828031939353819e-12, 1e-12);
}

proptest! {
    // Each case is an exact MDP solve (up to 3 x 31 x 4 states, policy
    // iteration): fewer cases keep the debug run short.
    #![proptest_config(config(64))]

    /// Robots with lambda, mu from 1e-9 to 1e9, buffer K tiny or large: the
    /// optimal cost is finite, no worse than any static policy, and the
    /// starvation probability is a probability.
    #[test]
    fn robots_extremes(lambda in rate(-9.0, 9.0), mu in rate(-9.0, 9.0), gamma in prop_oneof![Just(0.0), rate(-3.0, 3.0)],
                       n in 1u64..4, k in prop_oneof![Just(1u64), Just(2u64), Just(30u64)]) {
        let mut r = null_mut();
        let mut err = new_err();
        unsafe {
            let st = crawlsched_robots_solve(n, k, lambda, mu, gamma, std::ptr::null(), &mut r, &mut err);
            if !outcome("robots_solve", st, &err) { return Ok(()) }
            let (mut c, mut s, mut l) = (f64::NAN, f64::NAN, f64::NAN);
            prop_assert_eq!(crawlsched_robots_cost(r, &mut c, &mut s, &mut l, &mut err), CRAWLSCHED_OK);
            prop_assert!(c.is_finite() && c >= -1e-12 * (1.0 + lambda), "cost {}", c);
            prop_assert!((-1e-9..=1.0 + 1e-9).contains(&s), "starvation {}", s);
            prop_assert!(l.is_finite() && l >= -1e-9 * lambda, "loss rate {}", l);
            for m in 1..=n {
                if let Some(cs) = query(|o, e| crawlsched_robots_evaluate_static(r, m, o, e)) {
                    prop_assert!(c <= cs * (1.0 + 1e-6) + 1e-12, "optimal {} > static({}) {}", c, m, cs);
                }
            }
            crawlsched_robots_free(r);
        }
    }
}

/// (P(obsolete), E[sojourn | obsolete]) of an admitted page in the M/M/1
/// queue with B waiting places whose waiting pages become obsolete at rate
/// theta each: a tagged page with j pages ahead leaves that state at
/// mu + j theta (the head's service, the j - 1 others' and its own
/// obsolescence). Sums of positive terms only.
fn tagged_obsolete(lambda: f64, mu: f64, theta: f64, b: usize) -> (f64, f64) {
    // Levels seen on arrival (PASTA), admitted: i = 0..=b.
    let mut logs = vec![0.0];
    for i in 1..=b + 1 {
        let prev = logs[i - 1];
        logs.push(prev + lambda.ln() - (mu + (i - 1) as f64 * theta).ln());
    }
    let lz = log_sum_exp(&logs[..=b]);
    let (mut a, mut m) = (0.0, 0.0); // j = 0: in service, served for sure
    let (mut pa, mut pm) = (0.0, 0.0); // arrivals to an empty system are served
    for (j, l) in logs.iter().enumerate().take(b + 1).skip(1) {
        let out = mu + j as f64 * theta;
        a = (theta + (mu + (j - 1) as f64 * theta) * a) / out;
        m = a / out + (mu + (j - 1) as f64 * theta) / out * m;
        let w = (l - lz).exp();
        pa += w * a;
        pm += w * m;
    }
    (pa, if pa > 0.0 { pm / pa } else { 0.0 })
}

proptest! {
    #![proptest_config(config(128))]

    /// Obsolescence rates down to 1e-15 of the service rate: the probability
    /// that an admitted page becomes obsolete and its mean sojourn given
    /// that, against the tagged-page chain summed without cancellation.
    #[test]
    fn threshold_response_rare_obsolescence(lambda in rate(-9.0, 9.0), ratio in rate(-2.0, 2.0), k in 0i32..16, b in 1u32..20) {
        let mu = lambda / ratio;
        let theta = mu * 10f64.powi(-k);
        let service = exponential(mu);
        let obs = exponential(theta);
        let mut arr = null_mut();
        let mut m = null_mut();
        let mut err = new_err();
        unsafe {
            prop_assert_eq!(crawlsched_bmap_poisson_new(lambda, &mut arr, &mut err), CRAWLSCHED_OK);
            let arrivals = [arr as *const crawlsched_bmap_t];
            let st = crawlsched_threshold_model_new(arrivals.as_ptr(), 1, service.0, obs.0, b, &mut m, &mut err);
            prop_assert_eq!(st, CRAWLSCHED_OK, "{}", msg(&err));
            let modes = [1u32];
            let mut r = [f64::NAN; CRAWLSCHED_THRESHOLD_RESPONSE_COUNT];
            let st = crawlsched_threshold_response_time(m, modes.as_ptr(), 1, null(), 0, std::ptr::null(), r.as_mut_ptr(), r.len(), &mut err);
            crawlsched_threshold_model_free(m);
            crawlsched_bmap_free(arr);
            if !outcome("response_time", st, &err) { return Ok(()) }
            let (p_obs, mean_obs) = tagged_obsolete(lambda, mu, theta, b as usize);
            let served = r[CRAWLSCHED_THRESHOLD_RESPONSE_SERVED_PROBABILITY];
            prop_assert!(((1.0 - served) - p_obs).abs() <= 1e-9 * p_obs + 4e-15, "P(obsolete) {} want {}", 1.0 - served, p_obs);
            let got = r[CRAWLSCHED_THRESHOLD_RESPONSE_MEAN_OBSOLETE];
            prop_assert!((got - mean_obs).abs() <= 1e-6 * mean_obs, "E[sojourn | obsolete] {} want {} (P(obsolete) {})", got, mean_obs, p_obs);
        }
    }
}

/// M/M/1 with 3 waiting places, obsolescence at 1e-11 of the service rate:
/// E[sojourn | obsolete] was (mean - ps mean_served)/(1 - ps) = 1.666637
/// instead of 1.6666667 (and 0 once ps rounded to 1).
#[test]
fn rare_obsolescence_conditional_mean() {
    let (lambda, mu, theta, b) = (1.0, 1.0, 1e-11, 3u32);
    let service = exponential(mu);
    let obs = exponential(theta);
    let mut arr = null_mut();
    let mut m = null_mut();
    let mut err = new_err();
    let mut r = [f64::NAN; CRAWLSCHED_THRESHOLD_RESPONSE_COUNT];
    unsafe {
        assert_eq!(
            crawlsched_bmap_poisson_new(lambda, &mut arr, &mut err),
            CRAWLSCHED_OK
        );
        let arrivals = [arr as *const crawlsched_bmap_t];
        assert_eq!(
            crawlsched_threshold_model_new(
                arrivals.as_ptr(),
                1,
                service.0,
                obs.0,
                b,
                &mut m,
                &mut err
            ),
            CRAWLSCHED_OK
        );
        let modes = [1u32];
        let st = crawlsched_threshold_response_time(
            m,
            modes.as_ptr(),
            1,
            null(),
            0,
            std::ptr::null(),
            r.as_mut_ptr(),
            r.len(),
            &mut err,
        );
        assert_eq!(st, CRAWLSCHED_OK, "{}", msg(&err));
        crawlsched_threshold_model_free(m);
        crawlsched_bmap_free(arr);
    }
    let (_, want) = tagged_obsolete(lambda, mu, theta, b as usize);
    close(
        "E[sojourn | obsolete]",
        r[CRAWLSCHED_THRESHOLD_RESPONSE_MEAN_OBSOLETE],
        want,
        1e-9,
    );
}

/// Robots with lambda/mu = 3.3e-16, N = 3, K = 30: policy iteration from
/// "always activate" still met a multichain policy (INFEASIBLE); relative
/// value iteration now takes over.
#[test]
fn robots_tiny_load_many_robots() {
    let (lambda, mu, gamma) = (5.1158062238314585e-9, 15306978.379735803, 1.0);
    let mut r = null_mut();
    let mut err = new_err();
    unsafe {
        let st =
            crawlsched_robots_solve(3, 30, lambda, mu, gamma, std::ptr::null(), &mut r, &mut err);
        assert!(outcome("robots_solve", st, &err), "{}", msg(&err));
        let (mut c, mut s, mut l) = (f64::NAN, f64::NAN, f64::NAN);
        assert_eq!(
            crawlsched_robots_cost(r, &mut c, &mut s, &mut l, &mut err),
            CRAWLSCHED_OK
        );
        let best_static = query(|o, e| crawlsched_robots_evaluate_static(r, 3, o, e)).unwrap();
        assert!(
            c <= best_static * (1.0 + 1e-6) && (s - 1.0).abs() < 1e-6,
            "cost {c}, static {best_static}, starvation {s}"
        );
        crawlsched_robots_free(r);
    }
}
