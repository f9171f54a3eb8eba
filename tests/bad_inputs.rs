//! The bad-input table: for each function family, inputs the C API must
//! refuse, with the status and (a substring of) the message they get. Each
//! row is one call of the `extern "C"` function, checked here; the same
//! table renders `docs/errors.md`, which this test compares with the
//! committed file so the two cannot drift. After changing a row, rewrite
//! the document with `CRAWLSCHED_BLESS=1 cargo test --test bad_inputs`.

use crawlsched::ffi::*;
use std::ffi::CStr;
use std::ptr::{null, null_mut};

type Call = Box<dyn Fn(*mut crawlsched_error_t) -> crawlsched_status_t>;

struct Row {
    family: &'static str,
    function: &'static str,
    input: &'static str,
    status: crawlsched_status_t,
    message: &'static str,
    call: Call,
}

fn row(
    family: &'static str,
    function: &'static str,
    input: &'static str,
    status: crawlsched_status_t,
    message: &'static str,
    call: impl Fn(*mut crawlsched_error_t) -> crawlsched_status_t + 'static,
) -> Row {
    Row {
        family,
        function,
        input,
        status,
        message,
        call: Box::new(call),
    }
}

/// Live handles the rows use (leaked: the process ends with the test).
struct Fixtures {
    ex: *mut crawlsched_dist_t,
    model: *mut crawlsched_freshness_model_t,
    est: *mut crawlsched_estimator_t,
    sched: *mut crawlsched_scheduler_t,
    builder: *mut crawlsched_mdp_builder_t,
    solver: *mut crawlsched_mdp_solver_t,
    profile: *mut crawlsched_probe_profile_t,
    pois: *mut crawlsched_routing_arrivals_t,
    bpois: *mut crawlsched_bmap_t,
    robots: *mut crawlsched_robots_t,
    tmodel: *mut crawlsched_threshold_model_t,
    shard: *mut crawlsched_freshness_shard_t,
    search: *mut crawlsched_freshness_multiplier_search_t,
}

fn fixtures() -> Fixtures {
    let e = null_mut();
    let mut f = Fixtures {
        ex: null_mut(),
        model: null_mut(),
        est: null_mut(),
        sched: null_mut(),
        builder: null_mut(),
        solver: null_mut(),
        profile: null_mut(),
        pois: null_mut(),
        bpois: null_mut(),
        robots: null_mut(),
        tmodel: null_mut(),
        shard: null_mut(),
        search: null_mut(),
    };
    let mu = [1.0, 2.0];
    let (lb, lv, av) = ([0.0, 1.0], [2.0], [1.0]);
    // SAFETY: valid pointers and lengths throughout.
    unsafe {
        assert_eq!(
            crawlsched_dist_exponential_new(1.0, &mut f.ex, e),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_freshness_model_new(f.ex, mu.as_ptr(), null(), 2, &mut f.model, e),
            CRAWLSCHED_OK
        );
        assert_eq!(crawlsched_estimator_new(&mut f.est, e), CRAWLSCHED_OK);
        assert_eq!(
            crawlsched_scheduler_new(f.ex, 0, &mut f.sched, e),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_mdp_builder_new(2, &mut f.builder, e),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_mdp_solver_new(0, &mut f.solver, e),
            CRAWLSCHED_OK
        );
        let p = crawlsched_probe_profile_new(
            lb.as_ptr(),
            lv.as_ptr(),
            1,
            1,
            lb.as_ptr(),
            av.as_ptr(),
            1,
            1,
            4.0,
            &mut f.profile,
            e,
        );
        assert_eq!(p, CRAWLSCHED_OK);
        assert_eq!(
            crawlsched_routing_arrivals_poisson_new(1.0, &mut f.pois, e),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_bmap_poisson_new(1.0, &mut f.bpois, e),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_robots_solve(2, 1, 1.0, 1.0, 1.0, std::ptr::null(), &mut f.robots, e),
            CRAWLSCHED_OK
        );
        let a = [f.bpois as *const crawlsched_bmap_t];
        assert_eq!(
            crawlsched_threshold_model_new(a.as_ptr(), 1, f.ex, f.ex, 3, &mut f.tmodel, e),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_freshness_shard_new(f.model, &mut f.shard, e),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_freshness_multiplier_search_new(1.0, -1.0, 1.0, &mut f.search, e),
            CRAWLSCHED_OK
        );
    }
    f
}

#[rustfmt::skip]
fn table(f: &Fixtures) -> Vec<Row> {
    const INVALID: i32 = CRAWLSCHED_INVALID_ARGUMENT;
    const NULLARG: i32 = CRAWLSCHED_NULL_ARGUMENT;
    let Fixtures { ex, model, est, sched, builder, solver, profile, pois, bpois, robots, tmodel, shard, search } = *f;
    let (ex, model, est, sched, builder, solver, profile, pois, bpois, robots, tmodel) =
        (ex as usize, model as usize, est as usize, sched as usize, builder as usize, solver as usize,
         profile as usize, pois as usize, bpois as usize, robots as usize, tmodel as usize);
    let (shard, search) = (shard as usize, search as usize);
    let mut d: *mut crawlsched_dist_t = null_mut();
    let dp = &mut d as *mut *mut crawlsched_dist_t as usize;
    let outd = move || dp as *mut *mut crawlsched_dist_t;
    let mut x = 0.0f64;
    let xp = &mut x as *mut f64 as usize;
    let outx = move || xp as *mut f64;
    // SAFETY (all rows): the pointers are valid or deliberately NULL, and
    // lengths match the arrays, except where the row tests a length.
    unsafe {
        vec![
        // ---- dist ----
        row("dist", "crawlsched_dist_exponential_new", "rate = NaN", INVALID, "rate must be finite and > 0",
            move |e| crawlsched_dist_exponential_new(f64::NAN, outd(), e)),
        row("dist", "crawlsched_dist_exponential_new", "rate = +inf", INVALID, "rate must be finite and > 0",
            move |e| crawlsched_dist_exponential_new(f64::INFINITY, outd(), e)),
        row("dist", "crawlsched_dist_exponential_new", "rate = -1 (negative rate)", INVALID, "rate must be finite and > 0",
            move |e| crawlsched_dist_exponential_new(-1.0, outd(), e)),
        row("dist", "crawlsched_dist_exponential_new", "rate = 0", INVALID, "rate must be finite and > 0",
            move |e| crawlsched_dist_exponential_new(0.0, outd(), e)),
        row("dist", "crawlsched_dist_exponential_new", "out = NULL", NULLARG, "out must not be NULL",
            move |e| crawlsched_dist_exponential_new(1.0, null_mut(), e)),
        row("dist", "crawlsched_dist_deterministic_new", "value = -inf", INVALID, "",
            move |e| crawlsched_dist_deterministic_new(f64::NEG_INFINITY, outd(), e)),
        row("dist", "crawlsched_dist_erlang_new", "k = 0 (zero size)", INVALID, "",
            move |e| crawlsched_dist_erlang_new(0, 1.0, outd(), e)),
        row("dist", "crawlsched_dist_hyperexponential_new", "n = 0 (zero size)", INVALID, "",
            move |e| crawlsched_dist_hyperexponential_new(null(), null(), 0, outd(), e)),
        row("dist", "crawlsched_dist_hyperexponential_new", "probs = {0.5, 0.6} (do not sum to 1)", INVALID, "",
            move |e| crawlsched_dist_hyperexponential_new([0.5, 0.6].as_ptr(), [1.0, 2.0].as_ptr(), 2, outd(), e)),
        row("dist", "crawlsched_dist_hyperexponential_new", "probs = NULL with n = 2", NULLARG, "must not be NULL",
            move |e| crawlsched_dist_hyperexponential_new(null(), [1.0, 2.0].as_ptr(), 2, outd(), e)),
        row("dist", "crawlsched_dist_hyperexponential_new", "n = SIZE_MAX (byte size overflows size_t)", CRAWLSCHED_TOO_LARGE, "overflows",
            move |e| crawlsched_dist_hyperexponential_new([0.5].as_ptr(), [1.0].as_ptr(), usize::MAX, outd(), e)),
        row("dist", "crawlsched_dist_phase_type_new", "s_len != n * n", INVALID, "",
            move |e| crawlsched_dist_phase_type_new([1.0].as_ptr(), 1, [-1.0, 0.0].as_ptr(), 2, outd(), e)),
        row("dist", "crawlsched_dist_phase_type_new", "S = {-1, 1; 1, -1} (rows sum to 0: absorption never happens, S singular)", INVALID, "",
            move |e| crawlsched_dist_phase_type_new([1.0, 0.0].as_ptr(), 2, [-1.0, 1.0, 1.0, -1.0].as_ptr(), 4, outd(), e)),
        row("dist", "crawlsched_dist_phase_type_new", "S has a negative off-diagonal rate", INVALID, "",
            move |e| crawlsched_dist_phase_type_new([1.0, 0.0].as_ptr(), 2, [-1.0, -0.5, 0.0, -1.0].as_ptr(), 4, outd(), e)),
        row("dist", "crawlsched_dist_phase_type_new", "n = SIZE_MAX / 2 (n * n overflows size_t)", CRAWLSCHED_TOO_LARGE, "",
            move |e| crawlsched_dist_phase_type_new([1.0].as_ptr(), usize::MAX / 2, [-1.0].as_ptr(), 1, outd(), e)),
        row("dist", "crawlsched_dist_empirical_new", "a sample is NaN", INVALID, "",
            move |e| crawlsched_dist_empirical_new([1.0, f64::NAN].as_ptr(), 2, outd(), e)),
        row("dist", "crawlsched_dist_mean", "dist = NULL", NULLARG, "must not be NULL",
            move |e| crawlsched_dist_mean(null(), outx(), e)),
        row("dist", "crawlsched_dist_mean", "a handle of another type", INVALID, "not a live distribution handle",
            move |e| crawlsched_dist_mean(model as *const crawlsched_dist_t, outx(), e)),
        row("dist", "crawlsched_dist_cdf", "x = NaN", INVALID, "",
            move |e| crawlsched_dist_cdf(ex as *const _, f64::NAN, outx(), e)),
        row("dist", "crawlsched_dist_sample", "exponential(5e-324): draws overflow to +inf", CRAWLSCHED_NUMERICAL, "a draw overflowed",
            move |e| { let mut d = null_mut(); crawlsched_dist_exponential_new(4.94e-324, &mut d, null_mut()); let mut o = [0.0; 4]; let st = crawlsched_dist_sample(d, 1, o.as_mut_ptr(), 4, e); crawlsched_dist_free(d); st }),
        row("dist", "crawlsched_dist_variance", "hyperexponential with a rate of 1e-310 (variance overflows)", CRAWLSCHED_NUMERICAL, "not finite",
            move |e| { let mut d = null_mut(); crawlsched_dist_hyperexponential_new([0.5, 0.5].as_ptr(), [1.0, 1e-310].as_ptr(), 2, &mut d, null_mut()); let st = crawlsched_dist_variance(d, outx(), e); crawlsched_dist_free(d); st }),
        // ---- freshness ----
        row("freshness", "crawlsched_freshness_model_new", "a change rate is negative", INVALID, "",
            move |e| { let mut m = null_mut(); crawlsched_freshness_model_new(ex as *const _, [1.0, -1.0].as_ptr(), null(), 2, &mut m, e) }),
        row("freshness", "crawlsched_freshness_model_new", "a change rate is +inf", INVALID, "",
            move |e| { let mut m = null_mut(); crawlsched_freshness_model_new(ex as *const _, [1.0, f64::INFINITY].as_ptr(), null(), 2, &mut m, e) }),
        row("freshness", "crawlsched_freshness_model_new", "a weight is NaN", INVALID, "",
            move |e| { let mut m = null_mut(); crawlsched_freshness_model_new(ex as *const _, [1.0, 1.0].as_ptr(), [1.0, f64::NAN].as_ptr(), 2, &mut m, e) }),
        row("freshness", "crawlsched_freshness_model_new", "n = 0 (zero size)", INVALID, "",
            move |e| { let mut m = null_mut(); crawlsched_freshness_model_new(ex as *const _, null(), null(), 0, &mut m, e) }),
        row("freshness", "crawlsched_freshness_model_new", "n = SIZE_MAX (byte size overflows size_t)", CRAWLSCHED_TOO_LARGE, "overflows",
            move |e| { let mut m = null_mut(); crawlsched_freshness_model_new(ex as *const _, [1.0].as_ptr(), null(), usize::MAX, &mut m, e) }),
        row("freshness", "crawlsched_freshness_model_h", "out_cap = 1 < n = 2", CRAWLSCHED_BUFFER_TOO_SMALL, "needed",
            move |e| { let mut h = [0.0; 1]; crawlsched_freshness_model_h(model as *const _, h.as_mut_ptr(), 1, e) }),
        row("freshness", "crawlsched_estimator_observe", "interval = -1", INVALID, "",
            move |e| crawlsched_estimator_observe(est as *const _, -1.0, 1, e)),
        row("freshness", "crawlsched_estimator_observe", "interval = NaN", INVALID, "",
            move |e| crawlsched_estimator_observe(est as *const _, f64::NAN, 0, e)),
        row("freshness", "crawlsched_scheduler_new", "mode = 7 (unknown constant)", INVALID, "",
            move |e| { let mut s = null_mut(); crawlsched_scheduler_new(ex as *const _, 7, &mut s, e) }),
        row("freshness", "crawlsched_scheduler_add_page", "change_rate = NaN", INVALID, "",
            move |e| crawlsched_scheduler_add_page(sched as *const _, 1, f64::NAN, e)),
        // The add_pages rows run on the empty fixture scheduler before the
        // "no pages yet" rows, which then show that nothing was added.
        row("freshness", "crawlsched_scheduler_add_pages", "ids = NULL with n = 2", NULLARG, "ids must not be NULL",
            move |e| crawlsched_scheduler_add_pages(sched as *const _, null(), [0.1, 0.2].as_ptr(), null(), 2, e)),
        row("freshness", "crawlsched_scheduler_add_pages", "change_rates = NULL with n = 2", NULLARG, "change_rates must not be NULL",
            move |e| crawlsched_scheduler_add_pages(sched as *const _, [1, 2].as_ptr(), null(), null(), 2, e)),
        row("freshness", "crawlsched_scheduler_add_pages", "change_rates[1] = NaN", INVALID, "change_rates[1] must be finite and > 0",
            move |e| crawlsched_scheduler_add_pages(sched as *const _, [1, 2].as_ptr(), [0.1, f64::NAN].as_ptr(), null(), 2, e)),
        row("freshness", "crawlsched_scheduler_add_pages", "change_rates[2] = -1 (negative rate)", INVALID, "change_rates[2] must be finite and > 0",
            move |e| crawlsched_scheduler_add_pages(sched as *const _, [1, 2, 3].as_ptr(), [0.1, 0.2, -1.0].as_ptr(), null(), 3, e)),
        row("freshness", "crawlsched_scheduler_add_pages", "weights[0] = 0", INVALID, "weights[0] must be finite and > 0",
            move |e| crawlsched_scheduler_add_pages(sched as *const _, [1, 2].as_ptr(), [0.1, 0.2].as_ptr(), [0.0, 1.0].as_ptr(), 2, e)),
        row("freshness", "crawlsched_scheduler_add_pages", "ids = {1, 2, 1} (an id repeated within the batch)", INVALID, "ids[2] = 1 repeats ids[0]",
            move |e| crawlsched_scheduler_add_pages(sched as *const _, [1, 2, 1].as_ptr(), [0.1, 0.2, 0.3].as_ptr(), null(), 3, e)),
        row("freshness", "crawlsched_scheduler_add_pages", "ids = {6, 5} with page 5 already scheduled", INVALID, "ids[1] = 5 is already scheduled",
            move |e| with_scheduler_page(5, |s| crawlsched_scheduler_add_pages(s, [6, 5].as_ptr(), [0.1, 0.2].as_ptr(), null(), 2, e))),
        row("freshness", "crawlsched_scheduler_add_pages", "n = 2^22 + 1 pages (beyond the page limit; refused before reading them)", CRAWLSCHED_TOO_LARGE, "at most 4194304 pages",
            move |e| { let n = (1 << 22) + 1; let (ids, mu) = (vec![0u64; n], vec![0.0; n]); crawlsched_scheduler_add_pages(sched as *const _, ids.as_ptr(), mu.as_ptr(), null(), n, e) }),
        row("freshness", "crawlsched_scheduler_add_pages", "n = 2000 pages with a default memory cap of 1 MiB", CRAWLSCHED_TOO_LARGE, "a scheduler of 2000 pages needs",
            move |e| with_default_memory_limit(1 << 20, || { let ids: Vec<u64> = (0..2000).collect(); crawlsched_scheduler_add_pages(sched as *const _, ids.as_ptr(), vec![0.1; 2000].as_ptr(), null(), 2000, e) })),
        row("freshness", "crawlsched_scheduler_add_pages", "n = SIZE_MAX (byte size overflows size_t)", CRAWLSCHED_TOO_LARGE, "overflows",
            move |e| crawlsched_scheduler_add_pages(sched as *const _, [1].as_ptr(), [0.1].as_ptr(), null(), usize::MAX, e)),
        row("freshness", "crawlsched_scheduler_next", "no pages yet", CRAWLSCHED_NOT_FOUND, "",
            move |e| { let mut id = 0u64; crawlsched_scheduler_next(sched as *const _, &mut id, e) }),
        row("freshness", "crawlsched_scheduler_frequencies", "no pages yet", CRAWLSCHED_NOT_FOUND, "no pages",
            move |e| { let (mut i, mut f, mut n) = ([0u64; 1], [0f64; 1], 0usize); crawlsched_scheduler_frequencies(sched as *const _, i.as_mut_ptr(), f.as_mut_ptr(), 1, &mut n, e) }),
        row("freshness", "crawlsched_estimator_new_with_prior", "weight_time = 0", INVALID, "weight_time",
            move |e| { let mut p = null_mut(); crawlsched_estimator_new_with_prior(0.5, 0.0, &mut p, e) }),
        row("freshness", "crawlsched_scheduler_frequencies", "out_len = NULL", CRAWLSCHED_NULL_ARGUMENT, "",
            move |e| { let (mut i, mut f) = ([0u64; 1], [0f64; 1]); crawlsched_scheduler_frequencies(sched as *const _, i.as_mut_ptr(), f.as_mut_ptr(), 1, null_mut(), e) }),
        row("freshness", "crawlsched_scheduler_remove_page", "unknown page id", CRAWLSCHED_NOT_FOUND, "",
            move |e| crawlsched_scheduler_remove_page(sched as *const _, 12345, e)),
        row("freshness", "crawlsched_scheduler_set_host", "unknown page id", CRAWLSCHED_NOT_FOUND, "page 12345 is not scheduled",
            move |e| crawlsched_scheduler_set_host(sched as *const _, 12345, 0, e)),
        row("freshness", "crawlsched_scheduler_host", "unknown page id (a page without a host is not an error)", CRAWLSCHED_NOT_FOUND, "page 12345 is not scheduled",
            move |e| { let (mut h, mut has) = (0u32, 0i32); crawlsched_scheduler_host(sched as *const _, 12345, &mut h, &mut has, e) }),
        row("freshness", "crawlsched_scheduler_set_host_delay", "delay = NaN", INVALID, "delay",
            move |e| crawlsched_scheduler_set_host_delay(sched as *const _, 0, f64::NAN, e)),
        row("freshness", "crawlsched_scheduler_set_host_delay", "delay = -1", INVALID, "delay",
            move |e| crawlsched_scheduler_set_host_delay(sched as *const _, 0, -1.0, e)),
        row("freshness", "crawlsched_scheduler_set_host_delay", "delay = +inf", INVALID, "delay",
            move |e| crawlsched_scheduler_set_host_delay(sched as *const _, 0, f64::INFINITY, e)),
        row("freshness", "crawlsched_scheduler_next_at", "now = NaN", INVALID, "now",
            move |e| { let (mut id, mut w, mut r) = (0u64, 0.0, 0i32); crawlsched_scheduler_next_at(sched as *const _, f64::NAN, &mut id, &mut w, &mut r, e) }),
        row("freshness", "crawlsched_scheduler_next_at", "now = 9 after a call at now = 10 (clock backwards)", INVALID, "before the previous call's now = 10",
            move |e| with_scheduler_page(5, |s| { let (mut id, mut w, mut r) = (0u64, 0.0, 0i32); crawlsched_scheduler_next_at(s, 10.0, &mut id, &mut w, &mut r, e); crawlsched_scheduler_next_at(s, 9.0, &mut id, &mut w, &mut r, e) })),
        row("freshness", "crawlsched_scheduler_next_at", "after crawlsched_scheduler_next picked with hosts (one clock per scheduler)", INVALID, "next_at after next",
            move |e| with_scheduler_page(5, |s| { let (mut id, mut w, mut r) = (0u64, 0.0, 0i32); crawlsched_scheduler_set_host(s, 5, 1, e); crawlsched_scheduler_next(s, &mut id, e); crawlsched_scheduler_next_at(s, 10.0, &mut id, &mut w, &mut r, e) })),
        row("freshness", "crawlsched_scheduler_next", "after crawlsched_scheduler_next_at picked with hosts (one clock per scheduler)", INVALID, "next after next_at",
            move |e| with_scheduler_page(5, |s| { let (mut id, mut w, mut r) = (0u64, 0.0, 0i32); crawlsched_scheduler_set_host(s, 5, 1, e); crawlsched_scheduler_next_at(s, 10.0, &mut id, &mut w, &mut r, e); crawlsched_scheduler_next(s, &mut id, e) })),
        row("freshness", "crawlsched_scheduler_next_at", "no pages yet", CRAWLSCHED_NOT_FOUND, "no pages",
            move |e| { let (mut id, mut w, mut r) = (0u64, 0.0, 0i32); crawlsched_scheduler_next_at(sched as *const _, 0.0, &mut id, &mut w, &mut r, e) }),
        row("freshness", "crawlsched_scheduler_next_at", "out_wait = NULL", NULLARG, "out_wait must not be NULL",
            move |e| { let (mut id, mut r) = (0u64, 0i32); crawlsched_scheduler_next_at(sched as *const _, 0.0, &mut id, null_mut(), &mut r, e) }),
        row("freshness", "crawlsched_freshness_polite_frequencies", "hosts = {0, 2} with 2 hosts (host id out of range)", INVALID, "hosts[1] = 2 is out of range",
            move |e| polite(model, [0, 2].as_ptr(), [f64::INFINITY; 2].as_ptr(), 0, 0, 2, e)),
        row("freshness", "crawlsched_freshness_polite_frequencies", "hosts = {0, 0} with 2 hosts (host 1 has no pages)", INVALID, "host 1 has no pages",
            move |e| polite(model, [0, 0].as_ptr(), [f64::INFINITY; 2].as_ptr(), 0, 0, 2, e)),
        row("freshness", "crawlsched_freshness_polite_frequencies", "max_rates[1] = NaN", INVALID, "max_rates[1] must be > 0",
            move |e| polite(model, [0, 1].as_ptr(), [1.0, f64::NAN].as_ptr(), 0, 0, 2, e)),
        row("freshness", "crawlsched_freshness_polite_frequencies", "max_rates[1] = 0", INVALID, "max_rates[1] must be > 0",
            move |e| polite(model, [0, 1].as_ptr(), [1.0, 0.0].as_ptr(), 0, 0, 2, e)),
        row("freshness", "crawlsched_freshness_polite_frequencies", "max_rates[0] = -1", INVALID, "max_rates[0] must be > 0",
            move |e| polite(model, [0, 1].as_ptr(), [-1.0, 1.0].as_ptr(), 0, 0, 2, e)),
        row("freshness", "crawlsched_freshness_polite_frequencies", "hosts = NULL with n = 2", NULLARG, "hosts must not be NULL",
            move |e| polite(model, null(), [f64::INFINITY; 2].as_ptr(), 0, 0, 2, e)),
        row("freshness", "crawlsched_freshness_polite_frequencies", "max_rates = NULL with n_hosts = 2", NULLARG, "max_rates must not be NULL",
            move |e| polite(model, [0, 1].as_ptr(), null(), 0, 0, 2, e)),
        row("freshness", "crawlsched_freshness_polite_frequencies", "max_rates = {0.25, 0.25} with 1/E[X] = 1 (infeasible caps, no slack flag)", CRAWLSCHED_INFEASIBLE, "short of",
            move |e| polite(model, [0, 1].as_ptr(), [0.25; 2].as_ptr(), 0, 0, 2, e)),
        row("freshness", "crawlsched_freshness_polite_frequencies", "objective = 7 (unknown constant)", INVALID, "unknown polite objective 7",
            move |e| polite(model, [0, 1].as_ptr(), [f64::INFINITY; 2].as_ptr(), 7, 0, 2, e)),
        row("freshness", "crawlsched_freshness_polite_frequencies", "flags = 2 (unknown bit)", INVALID, "unknown polite flags",
            move |e| polite(model, [0, 1].as_ptr(), [f64::INFINITY; 2].as_ptr(), 0, 2, 2, e)),
        row("freshness", "crawlsched_freshness_polite_frequencies", "out_cap = 1 < n = 2", CRAWLSCHED_BUFFER_TOO_SMALL, "needed",
            move |e| polite(model, [0, 1].as_ptr(), [f64::INFINITY; 2].as_ptr(), 0, 0, 1, e)),
        row("freshness", "crawlsched_freshness_shard_sum_at", "ln_lambda = NaN", INVALID, "ln_lambda must be finite",
            move |e| { let (mut s, mut d, mut h, mut l) = (0.0, 0.0, 0, 0); crawlsched_freshness_shard_sum_at(shard as *const _, f64::NAN, &mut s, &mut d, &mut h, &mut l, e) }),
        row("freshness", "crawlsched_freshness_shard_frequencies_at", "ln_lambda = +inf", INVALID, "ln_lambda must be finite",
            move |e| { let mut o = [0.0; 2]; crawlsched_freshness_shard_frequencies_at(shard as *const _, f64::INFINITY, o.as_mut_ptr(), 2, e) }),
        row("freshness", "crawlsched_freshness_shard_frequencies_at", "out_cap = 1 < n = 2", CRAWLSCHED_BUFFER_TOO_SMALL, "needed",
            move |e| { let mut o = [0.0; 1]; crawlsched_freshness_shard_frequencies_at(shard as *const _, 0.0, o.as_mut_ptr(), 1, e) }),
        row("freshness", "crawlsched_freshness_multiplier_search_new", "sum_a = 0 (no pages)", INVALID, "sum_a must be > 0",
            move |e| { let mut m = null_mut(); crawlsched_freshness_multiplier_search_new(0.0, -1.0, 1.0, &mut m, e) }),
        row("freshness", "crawlsched_freshness_multiplier_search_new", "ln_w_min > ln_w_max", INVALID, "ln_w_min <= ln_w_max",
            move |e| { let mut m = null_mut(); crawlsched_freshness_multiplier_search_new(1.0, 2.0, 1.0, &mut m, e) }),
        row("freshness", "crawlsched_freshness_multiplier_search_update", "sum = -1", INVALID, "sum must be finite and >= 0",
            move |e| crawlsched_freshness_multiplier_search_update(search as *const _, -1.0, -1.0, 0, 0, e)),
        row("freshness", "crawlsched_freshness_multiplier_search_update", "sum = NaN", INVALID, "sum must be finite and >= 0",
            move |e| crawlsched_freshness_multiplier_search_update(search as *const _, f64::NAN, -1.0, 0, 0, e)),
        row("freshness", "crawlsched_freshness_multiplier_search_update", "dsum = 1 (a sum rising with the multiplier)", INVALID, "dsum must be finite and <= 0",
            move |e| crawlsched_freshness_multiplier_search_update(search as *const _, 1.0, 1.0, 0, 0, e)),
        row("freshness", "crawlsched_estimator_new_from_state", "bytes truncated to 10 of 30", INVALID, "bytes: truncated: 10 bytes end inside the unchanged time at offset 5",
            move |e| from_state(&state_bytes(|_| {})[..10], e)),
        row("freshness", "crawlsched_estimator_new_from_state", "version byte 2", INVALID, "unsupported estimator state version 2",
            move |e| from_state(&state_bytes(|b| b[1] = 2), e)),
        row("freshness", "crawlsched_estimator_new_from_state", "first byte not the magic 0xC5", INVALID, "not an estimator state",
            move |e| from_state(&state_bytes(|b| b[0] = b'{'), e)),
        row("freshness", "crawlsched_estimator_new_from_state", "unchanged time NaN", INVALID, "unchanged time at offset 5 must be finite and >= 0, got NaN",
            move |e| from_state(&state_bytes(|b| b[5..13].copy_from_slice(&f64::NAN.to_le_bytes())), e)),
        row("freshness", "crawlsched_estimator_new_from_state", "bucket intervals {2, 1} (unsorted)", INVALID, "bucket 1's interval 1 does not exceed bucket 0's 2",
            move |e| from_state(&state_bytes(|b| { b[3] = 2; b[21..29].copy_from_slice(&2f64.to_le_bytes()); b.extend(1f64.to_le_bytes()); b.push(1); b[4] = 3; }), e)),
        row("freshness", "crawlsched_estimator_new_from_state", "65 buckets", INVALID, "65 buckets, at most 64 allowed",
            move |e| from_state(&state_bytes(|b| b[3] = 65), e)),
        row("freshness", "crawlsched_estimator_new_from_state", "bucket count sum 2 > n = 1 visits", INVALID, "sum to 2 changed visits, more than n = 1",
            move |e| from_state(&state_bytes(|b| { b[4] = 1; b[29] = 2; }), e)),
        row("freshness", "crawlsched_estimator_new_from_state", "one byte after the last bucket", INVALID, "1 bytes follow the last bucket",
            move |e| from_state(&state_bytes(|b| b.push(0)), e)),
        row("freshness", "crawlsched_estimator_new_from_state", "len = SIZE_MAX (byte size overflows the address space)", CRAWLSCHED_TOO_LARGE, "bytes: length",
            move |e| { let mut p = null_mut(); crawlsched_estimator_new_from_state([0xC5u8].as_ptr(), usize::MAX, &mut p, e) }),
        row("freshness", "crawlsched_estimator_new_from_state", "bytes = NULL with len = 30", NULLARG, "bytes must not be NULL",
            move |e| { let mut p = null_mut(); crawlsched_estimator_new_from_state(null(), 30, &mut p, e) }),
        row("freshness", "crawlsched_estimator_export_state", "out_cap = 4 < 30 bytes", CRAWLSCHED_BUFFER_TOO_SMALL, "output buffer holds 4 elements, 30 needed",
            move |e| with_estimator_state(|est| { let (mut o, mut n) = ([0u8; 4], 0usize); crawlsched_estimator_export_state(est, o.as_mut_ptr(), 4, &mut n, e) })),
        row("freshness", "crawlsched_estimator_export_state", "out_len = NULL", NULLARG, "out_len must not be NULL",
            move |e| { let mut o = [0u8; 64]; crawlsched_estimator_export_state(est as *const _, o.as_mut_ptr(), 64, null_mut(), e) }),
        row("freshness", "crawlsched_scheduler_page_state", "unknown page id", CRAWLSCHED_NOT_FOUND, "page 12345 is not scheduled",
            move |e| { let (mut o, mut n) = ([0u8; 64], 0usize); crawlsched_scheduler_page_state(sched as *const _, 12345, o.as_mut_ptr(), 64, &mut n, e) }),
        row("freshness", "crawlsched_scheduler_page_state", "out_cap = 0 (size query)", CRAWLSCHED_BUFFER_TOO_SMALL, "output buffer holds 0 elements, 37 needed",
            move |e| with_scheduler_page(5, |s| { let mut n = 0usize; crawlsched_scheduler_page_state(s, 5, null_mut(), 0, &mut n, e) })),
        row("freshness", "crawlsched_scheduler_set_page_state", "unknown page id", CRAWLSCHED_NOT_FOUND, "page 12345 is not scheduled",
            move |e| { let b = state_bytes(|_| {}); crawlsched_scheduler_set_page_state(sched as *const _, 12345, b.as_ptr(), b.len(), e) }),
        row("freshness", "crawlsched_scheduler_set_page_state", "version byte 2 (the page keeps its state)", INVALID, "unsupported estimator state version 2",
            move |e| with_scheduler_page(5, |s| { let b = state_bytes(|b| b[1] = 2); crawlsched_scheduler_set_page_state(s, 5, b.as_ptr(), b.len(), e) })),
        row("freshness", "crawlsched_scheduler_set_page_state", "bytes = NULL with len = 30", NULLARG, "bytes must not be NULL",
            move |e| with_scheduler_page(5, |s| crawlsched_scheduler_set_page_state(s, 5, null(), 30, e))),
        row("freshness", "crawlsched_scheduler_revisit_interval", "unknown page id", CRAWLSCHED_NOT_FOUND, "page 12345 is not scheduled",
            move |e| crawlsched_scheduler_revisit_interval(sched as *const _, 12345, outx(), e)),
        row("freshness", "crawlsched_scheduler_next_due", "last_visit = NaN", INVALID, "last_visit",
            move |e| with_scheduler_page(5, |s| { let (mut d, mut h) = (0.0, 0i32); crawlsched_scheduler_next_due(s, 5, f64::NAN, &mut d, &mut h, e) })),
        row("freshness", "crawlsched_scheduler_next_due", "unknown page id", CRAWLSCHED_NOT_FOUND, "page 12345 is not scheduled",
            move |e| { let (mut d, mut h) = (0.0, 0i32); crawlsched_scheduler_next_due(sched as *const _, 12345, 0.0, &mut d, &mut h, e) }),
        row("freshness", "crawlsched_scheduler_next_due", "out_has_due = NULL", NULLARG, "out_has_due must not be NULL",
            move |e| with_scheduler_page(5, |s| { let mut d = 0.0; crawlsched_scheduler_next_due(s, 5, 0.0, &mut d, null_mut(), e) })),
        row("freshness", "crawlsched_scheduler_revisit_intervals", "out_cap = 0 with one page", CRAWLSCHED_BUFFER_TOO_SMALL, "output buffers hold 0 elements, 1 needed",
            move |e| with_scheduler_page(5, |s| { let mut n = 0usize; crawlsched_scheduler_revisit_intervals(s, null_mut(), null_mut(), 0, &mut n, e) })),
        // ---- limits ----
        row("limits", "crawlsched_control_new", "out = NULL", NULLARG, "out must not be NULL",
            move |e| crawlsched_control_new(null_mut(), e)),
        row("limits", "crawlsched_control_set_memory_limit", "ctl = NULL", NULLARG, "control must not be NULL",
            move |e| crawlsched_control_set_memory_limit(null(), 1 << 20, e)),
        row("limits", "crawlsched_control_set_max_iterations", "a handle of another type", INVALID, "not a live control handle",
            move |e| crawlsched_control_set_max_iterations(solver as *const crawlsched_control_t, 10, e)),
        row("limits", "crawlsched_control_cancel", "ctl = NULL", NULLARG, "control must not be NULL",
            move |e| crawlsched_control_cancel(null(), e)),
        row("limits", "crawlsched_control_reset", "a handle of another type", INVALID, "not a live control handle",
            move |e| crawlsched_control_reset(model as *const crawlsched_control_t, e)),
        row("limits", "crawlsched_control_is_cancelled", "out = NULL", NULLARG, "out must not be NULL",
            move |e| { let c = control(|_| {}); let st = crawlsched_control_is_cancelled(c, null_mut(), e); crawlsched_control_free(c); st }),
        row("limits", "crawlsched_mdp_solver_set_control", "ctl is a handle of another type", INVALID, "not a live control handle",
            move |e| crawlsched_mdp_solver_set_control(solver as *const _, model as *const crawlsched_control_t, e)),
        row("limits", "crawlsched_mdp_solver_run", "the solver's control is cancelled", CRAWLSCHED_CANCELLED, "best answer kept",
            move |e| with_solver(|s, m| { let c = control(|c| { crawlsched_control_cancel(c, null_mut()); });
                crawlsched_mdp_solver_set_control(s, c, null_mut()); crawlsched_control_free(c); crawlsched_mdp_solver_run(s, m, e) })),
        row("limits", "crawlsched_mdp_solver_run", "the control's memory limit (10 bytes) is below the need", CRAWLSCHED_TOO_LARGE, "memory limit",
            move |e| with_solver(|s, m| { let c = control(|c| { crawlsched_control_set_memory_limit(c, 10, null_mut()); });
                crawlsched_mdp_solver_set_control(s, c, null_mut()); crawlsched_control_free(c); crawlsched_mdp_solver_run(s, m, e) })),
        row("limits", "crawlsched_robots_solve", "the control is cancelled", CRAWLSCHED_CANCELLED, "",
            move |e| { let c = control(|c| { crawlsched_control_cancel(c, null_mut()); }); let mut r = null_mut();
                let st = crawlsched_robots_solve(2, 1, 1.0, 1.0, 1.0, c, &mut r, e); crawlsched_control_free(c); st }),
        row("limits", "crawlsched_robots_solve", "the control's memory limit (1000 bytes) is below the need", CRAWLSCHED_TOO_LARGE, "state slots",
            move |e| { let c = control(|c| { crawlsched_control_set_memory_limit(c, 1000, null_mut()); }); let mut r = null_mut();
                let st = crawlsched_robots_solve(2, 1, 1.0, 1.0, 1.0, c, &mut r, e); crawlsched_control_free(c); st }),
        row("limits", "crawlsched_threshold_optimize", "the control's iteration cap (1) is below the search space", CRAWLSCHED_TOO_LARGE, "threshold vectors",
            move |e| { let c = control(|c| { crawlsched_control_set_max_iterations(c, 1, null_mut()); });
                let st = with_threshold(|m| { let (mut t, mut cost, mut n) = (0u32, 0.0, 0u64);
                    crawlsched_threshold_optimize(m, [2u32, 1].as_ptr(), 2, [1.0; 5].as_ptr(), 5, 100, c, &mut t, 1, &mut cost, &mut n, e) });
                crawlsched_control_free(c); st }),
        row("limits", "crawlsched_threshold_measures", "the control's memory limit (1000 bytes) is below the chain", CRAWLSCHED_TOO_LARGE, "memory limit",
            move |e| { let c = control(|c| { crawlsched_control_set_memory_limit(c, 1000, null_mut()); });
                let st = with_threshold(|m| { let mut out = [0.0; CRAWLSCHED_THRESHOLD_MEASURE_COUNT];
                    crawlsched_threshold_measures(m, [1u32].as_ptr(), 1, null(), 0, c, out.as_mut_ptr(), out.len(), e) });
                crawlsched_control_free(c); st }),
        row("limits", "crawlsched_threshold_response_cdf", "the control is cancelled", CRAWLSCHED_CANCELLED, "sojourn of a page cancelled",
            move |e| { let c = control(|c| { crawlsched_control_cancel(c, null_mut()); });
                let st = with_threshold(|m| { let mut out = [0.0];
                    crawlsched_threshold_response_cdf(m, [1u32].as_ptr(), 1, null(), 0, CRAWLSCHED_THRESHOLD_SOJOURN_ALL, [1.0].as_ptr(), 1, c, out.as_mut_ptr(), 1, e) });
                crawlsched_control_free(c); st }),
        row("limits", "crawlsched_threshold_cost", "ctl is a handle of another type", INVALID, "not a live control handle",
            move |e| with_threshold(|m| { let mut out = 0.0;
                crawlsched_threshold_cost(m, [1u32].as_ptr(), 1, null(), 0, [1.0; 5].as_ptr(), 5, model as *const crawlsched_control_t, &mut out, e) })),
        row("limits", "crawlsched_probe_planner_set_control", "ctl is a handle of another type", INVALID, "not a live control handle",
            move |e| with_planner(profile as *const _, |p| crawlsched_probe_planner_set_control(p, model as *const crawlsched_control_t, e))),
        row("limits", "crawlsched_probe_planner_set_control", "planner = NULL", NULLARG, "planner must not be NULL",
            move |e| crawlsched_probe_planner_set_control(null(), null(), e)),
        row("limits", "crawlsched_probe_planner_plan", "the planner's control is cancelled", CRAWLSCHED_CANCELLED, "probe schedule cancelled",
            move |e| with_planner(profile as *const _, |p| { let c = control(|c| { crawlsched_control_cancel(c, null_mut()); });
                crawlsched_probe_planner_set_control(p, c, null_mut()); crawlsched_control_free(c);
                let (mut t, mut cost) = ([0.0; 2], 0.0);
                crawlsched_probe_planner_plan(p, 2, CRAWLSCHED_PROBE_METHOD_HULL, t.as_mut_ptr(), 2, &mut cost, e) })),
        row("limits", "crawlsched_probe_planner_all_costs", "the control's iteration cap (1) is below the passes needed", CRAWLSCHED_NOT_CONVERGED, "iteration cap of 1",
            move |e| with_planner(profile as *const _, |p| { let c = control(|c| { crawlsched_control_set_max_iterations(c, 1, null_mut()); });
                crawlsched_probe_planner_set_control(p, c, null_mut()); crawlsched_control_free(c);
                let mut g = [0.0; 3];
                crawlsched_probe_planner_all_costs(p, 3, g.as_mut_ptr(), 3, e) })),
        row("limits", "crawlsched_routing_optimize_exhaustive", "ctl is a handle of another type", INVALID, "not a live control handle",
            move |e| with_servers(pois as *const _, |s| { let (mut o, mut n, mut c, mut ev) = ([0u32; 4], 0usize, 0.0, 0u64);
                crawlsched_routing_optimize_exhaustive(s, 1, 4, model as *const crawlsched_control_t, o.as_mut_ptr(), 4, &mut n, &mut c, &mut ev, e) })),
        row("limits", "crawlsched_routing_optimize_exhaustive", "the control's iteration cap (1) is below the sequences", CRAWLSCHED_NOT_CONVERGED, "iteration cap of 1",
            move |e| with_servers(pois as *const _, |s| { let c = control(|c| { crawlsched_control_set_max_iterations(c, 1, null_mut()); });
                let (mut o, mut n, mut cost, mut ev) = ([0u32; 4], 0usize, 0.0, 0u64);
                let st = crawlsched_routing_optimize_exhaustive(s, 1, 4, c, o.as_mut_ptr(), 4, &mut n, &mut cost, &mut ev, e);
                crawlsched_control_free(c); st })),
        row("limits", "crawlsched_routing_optimize_local", "the control is cancelled", CRAWLSCHED_CANCELLED, "routing local search cancelled",
            move |e| with_servers(pois as *const _, |s| { let c = control(|c| { crawlsched_control_cancel(c, null_mut()); });
                let (mut o, mut n, mut cost, mut ev) = ([0u32; 4], 0usize, 0.0, 0u64);
                let st = crawlsched_routing_optimize_local(s, 1, 4, c, o.as_mut_ptr(), 4, &mut n, &mut cost, &mut ev, e);
                crawlsched_control_free(c); st })),
        row("limits", "crawlsched_routing_local_search_multimodular", "ctl is a handle of another type", INVALID, "not a live control handle",
            move |e| with_servers(pois as *const _, |s| { let (mut o, mut n, mut c, mut ev) = ([0u32; 4], 0usize, 0.0, 0u64);
                crawlsched_routing_local_search_multimodular(s, [0u32, 1].as_ptr(), 2, model as *const crawlsched_control_t, o.as_mut_ptr(), 4, &mut n, &mut c, &mut ev, e) })),
        row("limits", "crawlsched_routing_simulate", "the control is cancelled", CRAWLSCHED_CANCELLED, "routing simulation cancelled",
            move |e| with_servers(pois as *const _, |s| { let c = control(|c| { crawlsched_control_cancel(c, null_mut()); });
                let (mut a, mut b, mut d) = (0.0, 0.0, 0.0);
                let st = crawlsched_routing_simulate(s, [0u32, 1].as_ptr(), 2, 10, 1, c, &mut a, &mut b, &mut d, e);
                crawlsched_control_free(c); st })),
        row("limits", "crawlsched_robots_solve_unlimited", "the control's memory limit (1000 bytes) is below the first model", CRAWLSCHED_TOO_LARGE, "state slots",
            move |e| { let c = control(|c| { crawlsched_control_set_memory_limit(c, 1000, null_mut()); }); let mut r = null_mut();
                let st = crawlsched_robots_solve_unlimited(5, 0.1, 1.0, 0.4, c, &mut r, e); crawlsched_control_free(c); st }),
        row("limits", "crawlsched_freshness_simulate_cyclic", "the control is cancelled", CRAWLSCHED_CANCELLED, "freshness simulation cancelled",
            move |e| { let c = control(|c| { crawlsched_control_cancel(c, null_mut()); }); let (mut a, mut b) = (0.0, 0.0);
                let st = crawlsched_freshness_simulate_cyclic(model as *const _, [0u32, 1].as_ptr(), 2, 10, 1, c, &mut a, &mut b, e);
                crawlsched_control_free(c); st }),
        row("limits", "crawlsched_robots_solve_unlimited", "ctl is a handle of another type", INVALID, "not a live control handle",
            move |e| { let mut r = null_mut();
                crawlsched_robots_solve_unlimited(5, 0.1, 1.0, 0.4, model as *const crawlsched_control_t, &mut r, e) }),
        // ---- mdp ----
        row("mdp", "crawlsched_mdp_builder_new", "n_states = 0 (zero size)", INVALID, "",
            move |e| { let mut b = null_mut(); crawlsched_mdp_builder_new(0, &mut b, e) }),
        row("mdp", "crawlsched_mdp_builder_add_action", "probabilities {0.5, 0.6} (row not stochastic)", INVALID, "",
            move |e| { let mut a = 0u32; crawlsched_mdp_builder_add_action(builder as *const _, 0, [0u32, 1].as_ptr(), [0.5, 0.6].as_ptr(), 2, 1.0, &mut a, e) }),
        row("mdp", "crawlsched_mdp_builder_add_action", "a probability is negative", INVALID, "",
            move |e| { let mut a = 0u32; crawlsched_mdp_builder_add_action(builder as *const _, 0, [0u32, 1].as_ptr(), [1.5, -0.5].as_ptr(), 2, 1.0, &mut a, e) }),
        row("mdp", "crawlsched_mdp_builder_add_action", "next state out of range", INVALID, "",
            move |e| { let mut a = 0u32; crawlsched_mdp_builder_add_action(builder as *const _, 0, [5u32].as_ptr(), [1.0].as_ptr(), 1, 1.0, &mut a, e) }),
        row("mdp", "crawlsched_mdp_builder_add_action", "cost = NaN", INVALID, "",
            move |e| { let mut a = 0u32; crawlsched_mdp_builder_add_action(builder as *const _, 0, [1u32].as_ptr(), [1.0].as_ptr(), 1, f64::NAN, &mut a, e) }),
        row("mdp", "crawlsched_mdp_build", "a state without actions", INVALID, "",
            move |e| { let mut m = null_mut(); crawlsched_mdp_build(builder as *const _, &mut m, e) }),
        row("mdp", "crawlsched_mdp_solver_new", "method = 7 (unknown constant)", INVALID, "",
            move |e| { let mut s = null_mut(); crawlsched_mdp_solver_new(7, &mut s, e) }),
        row("mdp", "crawlsched_mdp_solver_set_limits", "tolerance = -1", INVALID, "",
            move |e| crawlsched_mdp_solver_set_limits(solver as *const _, -1.0, 100, 0, e)),
        row("mdp", "crawlsched_mdp_solver_set_criterion", "discount = 1.5", INVALID, "",
            move |e| crawlsched_mdp_solver_set_criterion(solver as *const _, 1, 1.5, 1.0, e)),
        row("mdp", "crawlsched_mdp_solver_set_criterion", "tau = 2", INVALID, "tau must be in (0, 1], got 2",
            move |e| crawlsched_mdp_solver_set_criterion(solver as *const _, 0, 0.0, 2.0, e)),
        row("mdp", "crawlsched_mdp_solver_size", "solver not run yet (no result)", CRAWLSCHED_NOT_FOUND, "run it first",
            move |e| { let mut n = 0u64; crawlsched_mdp_solver_size(solver as *const _, &mut n, e) }),
        // ---- probe ----
        row("probe", "crawlsched_probe_profile_new", "lambda value = -1 (negative rate)", INVALID, "",
            move |e| { let mut p = null_mut(); crawlsched_probe_profile_new([0.0, 1.0].as_ptr(), [-1.0].as_ptr(), 1, 1, [0.0, 1.0].as_ptr(), [1.0].as_ptr(), 1, 1, 4.0, &mut p, e) }),
        row("probe", "crawlsched_probe_profile_new", "lambda breaks = {1, 0} (must start at 0 and increase)", INVALID, "",
            move |e| { let mut p = null_mut(); crawlsched_probe_profile_new([1.0, 0.0].as_ptr(), [1.0].as_ptr(), 1, 1, [0.0, 1.0].as_ptr(), [1.0].as_ptr(), 1, 1, 4.0, &mut p, e) }),
        row("probe", "crawlsched_probe_profile_new", "lambda_pieces = 0 (zero size)", INVALID, "",
            move |e| { let mut p = null_mut(); crawlsched_probe_profile_new([0.0].as_ptr(), null(), 0, 1, [0.0, 1.0].as_ptr(), [1.0].as_ptr(), 1, 1, 4.0, &mut p, e) }),
        row("probe", "crawlsched_probe_profile_new", "horizon = +inf", INVALID, "",
            move |e| { let mut p = null_mut(); crawlsched_probe_profile_new([0.0, 1.0].as_ptr(), [1.0].as_ptr(), 1, 1, [0.0, 1.0].as_ptr(), [1.0].as_ptr(), 1, 1, f64::INFINITY, &mut p, e) }),
        row("probe", "crawlsched_probe_interval_cost", "s > f", INVALID, "",
            move |e| crawlsched_probe_interval_cost(profile as *const _, 3.0, 1.0, outx(), e)),
        row("probe", "crawlsched_probe_planner_new", "grid = 0 (zero size)", INVALID, "",
            move |e| { let mut p = null_mut(); crawlsched_probe_planner_new(profile as *const _, 0, 0.0, &mut p, e) }),
        row("probe", "crawlsched_probe_estimate_intensity", "a timestamp is NaN", INVALID, "",
            move |e| { let mut o = [0.0; 1]; crawlsched_probe_estimate_intensity([0.5, f64::NAN].as_ptr(), 2, 4.0, [0.0, 1.0].as_ptr(), 1, 1, 0.0, o.as_mut_ptr(), 1, e) }),
        row("probe", "crawlsched_probe_improve", "rho = nextafter(1, 0) (about 5e16 levels of mu)", CRAWLSCHED_TOO_LARGE, "rho",
            move |e| { let (mut o, mut m) = ([0.0; 2], 0u64); crawlsched_probe_improve(profile as *const _, [2.0, 4.0].as_ptr(), 2, 0.0, 0.5, 1.0 / 512.0, f64::from_bits(1.0f64.to_bits() - 1), 1e-9, o.as_mut_ptr(), 2, &mut m, e) }),
        row("probe", "crawlsched_probe_policy_schedule", "threshold level = 1e-300 (over 10^7 probes)", CRAWLSCHED_TOO_LARGE, "at least",
            move |e| { let mut n = 0usize; crawlsched_probe_policy_schedule(profile as *const _, CRAWLSCHED_PROBE_POLICY_THRESHOLD, 1e-300, null_mut(), 0, &mut n, e) }),
        row("probe", "crawlsched_probe_policy_with_budget", "first arrival, n = 2 on DBWorld (ratio 3, 28 days): needs a probability above 1 - 2^-53", CRAWLSCHED_NOT_CONVERGED, "no probability",
            move |e| { let (mut p, mut x, mut o) = (null_mut(), 0.0, [0.0; 2]); assert_eq!(crawlsched_probe_profile_dbworld(3.0, 28.0, &mut p, null_mut()), CRAWLSCHED_OK);
                let st = crawlsched_probe_policy_with_budget(p, CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL, 2, &mut x, o.as_mut_ptr(), 2, e); crawlsched_probe_profile_free(p); st }),
        // ---- robots ----
        row("robots", "crawlsched_robots_solve", "lambda = -1 (negative rate)", INVALID, "",
            move |e| { let mut r = null_mut(); crawlsched_robots_solve(2, 1, -1.0, 1.0, 1.0, std::ptr::null(), &mut r, e) }),
        row("robots", "crawlsched_robots_solve", "mu = NaN", INVALID, "",
            move |e| { let mut r = null_mut(); crawlsched_robots_solve(2, 1, 1.0, f64::NAN, 1.0, std::ptr::null(), &mut r, e) }),
        row("robots", "crawlsched_robots_solve", "n = 2^40 (state space over the limit)", CRAWLSCHED_TOO_LARGE, "",
            move |e| { let mut r = null_mut(); crawlsched_robots_solve(1 << 40, 1, 1.0, 1.0, 1.0, std::ptr::null(), &mut r, e) }),
        row("robots", "crawlsched_robots_solve", "n = UINT64_MAX (state count overflows)", CRAWLSCHED_TOO_LARGE, "state space exceeds",
            move |e| { let mut r = null_mut(); crawlsched_robots_solve(u64::MAX, 1, 1.0, 1.0, 1.0, std::ptr::null(), &mut r, e) }),
        row("robots", "crawlsched_robots_solve_unlimited", "k = UINT64_MAX (state count overflows)", CRAWLSCHED_TOO_LARGE, "state space exceeds",
            move |e| { let mut r = null_mut(); crawlsched_robots_solve_unlimited(u64::MAX, 0.1, 1.0, 0.4, std::ptr::null(), &mut r, e) }),
        row("robots", "crawlsched_robots_actions", "out_cap = 11 < 2(K+1)(N+1) = 12", CRAWLSCHED_BUFFER_TOO_SMALL, "needed",
            move |e| { let mut o = [0u8; 11]; crawlsched_robots_actions(robots as *const _, o.as_mut_ptr(), 11, e) }),
        row("robots", "crawlsched_robots_certificate", "out_hi = NULL", NULLARG, "out_hi",
            move |e| { let (mut lo, mut it) = (0.0, 0u64); crawlsched_robots_certificate(robots as *const _, &mut lo, null_mut(), &mut it, e) }),
        // ---- routing ----
        row("routing", "crawlsched_routing_arrivals_poisson_new", "rate = -inf", INVALID, "",
            move |e| { let mut a = null_mut(); crawlsched_routing_arrivals_poisson_new(f64::NEG_INFINITY, &mut a, e) }),
        row("routing", "crawlsched_routing_arrivals_mmpp_new", "Q rows do not sum to 0 (not a generator)", INVALID, "",
            move |e| { let mut a = null_mut(); crawlsched_routing_arrivals_mmpp_new([-1.0, 2.0, 1.0, -1.0].as_ptr(), 4, [1.0, 2.0].as_ptr(), 2, &mut a, e) }),
        row("routing", "crawlsched_routing_arrivals_map_new", "D0 + D1 rows do not sum to 0", INVALID, "",
            move |e| { let mut a = null_mut(); crawlsched_routing_arrivals_map_new(1, [-1.0].as_ptr(), 1, [2.0].as_ptr(), 1, &mut a, e) }),
        row("routing", "crawlsched_routing_arrivals_mmpp_new", "q[0] = NaN", INVALID, "q[0]",
            move |e| { let mut a = null_mut(); crawlsched_routing_arrivals_mmpp_new([f64::NAN, 1.0, 1.0, -1.0].as_ptr(), 4, [1.0, 2.0].as_ptr(), 2, &mut a, e) }),
        row("routing", "crawlsched_routing_optimize_local", "min_period = max_period = 2^20 (beyond the work bound)", CRAWLSCHED_TOO_LARGE, "pass a control",
            move |e| with_servers(pois as *const _, |s| { let (mut n, mut c, mut ev) = (0usize, 0.0, 0u64);
                crawlsched_routing_optimize_local(s, 1 << 20, 1 << 20, std::ptr::null(), null_mut(), 0, &mut n, &mut c, &mut ev, e) })),
        row("routing", "crawlsched_routing_servers_new", "a service rate is 0", INVALID, "",
            move |e| { let mut s = null_mut(); crawlsched_routing_servers_new(pois as *const _, [1.0, 0.0].as_ptr(), null(), 2, 0, &mut s, e) }),
        row("routing", "crawlsched_routing_servers_new", "m = 0 (zero size)", INVALID, "",
            move |e| { let mut s = null_mut(); crawlsched_routing_servers_new(pois as *const _, null(), null(), 0, 0, &mut s, e) }),
        row("routing", "crawlsched_routing_router_new", "a server index >= servers", INVALID, "",
            move |e| { let mut r = null_mut(); crawlsched_routing_router_new([0u32, 5].as_ptr(), 2, 2, &mut r, e) }),
        // ---- threshold / bmap ----
        row("threshold", "crawlsched_bmap_new", "rows of D0 + D1 do not sum to 0", INVALID, "",
            move |e| { let mut b = null_mut(); crawlsched_bmap_new(1, [-1.0, 2.0].as_ptr(), 2, &mut b, e) }),
        row("threshold", "crawlsched_bmap_new", "len not a multiple of n * n", INVALID, "",
            move |e| { let mut b = null_mut(); crawlsched_bmap_new(2, [-1.0, 1.0, 0.0].as_ptr(), 3, &mut b, e) }),
        row("threshold", "crawlsched_bmap_new", "n = 2^32 (n * n * 8 bytes overflows size_t)", CRAWLSCHED_TOO_LARGE, "",
            move |e| { let mut b = null_mut(); crawlsched_bmap_new(1 << 32, [-1.0, 1.0].as_ptr(), 2, &mut b, e) }),
        row("threshold", "crawlsched_bmap_poisson_new", "rate = NaN", INVALID, "",
            move |e| { let mut b = null_mut(); crawlsched_bmap_poisson_new(f64::NAN, &mut b, e) }),
        row("threshold", "crawlsched_dist_fit_h2_new", "moments (1, 1.5, 3): no H2 has them", CRAWLSCHED_INFEASIBLE, "",
            move |e| crawlsched_dist_fit_h2_new(1.0, 1.5, 3.0, outd(), e)),
        row("threshold", "crawlsched_dist_fit_aph2_new", "moments (1e-300, 1, 1): m3/m1^3 overflows", CRAWLSCHED_NUMERICAL, "differ too much in scale",
            move |e| crawlsched_dist_fit_aph2_new(1e-300, 1.0, 1.0, outd(), e)),
        row("threshold", "crawlsched_bmap_fit_new", "batch_mean = NaN", INVALID, "batch_mean must be finite",
            move |e| { let mut b = null_mut(); crawlsched_bmap_fit_new(212.0, 51352.0, 0.6, f64::NAN, 8, &mut b, e) }),
        row("threshold", "crawlsched_threshold_model_new", "n_arrivals = 0 (zero size)", INVALID, "",
            move |e| { let mut m = null_mut(); crawlsched_threshold_model_new(null(), 0, ex as *const _, null(), 3, &mut m, e) }),
        row("threshold", "crawlsched_threshold_model_new", "service = NULL", NULLARG, "must not be NULL",
            move |e| { let mut m = null_mut(); let a = [bpois as *const crawlsched_bmap_t]; crawlsched_threshold_model_new(a.as_ptr(), 1, null(), null(), 3, &mut m, e) }),
        row("threshold", "crawlsched_threshold_response_time", "out_cap = 3 (needs CRAWLSCHED_THRESHOLD_RESPONSE_COUNT = 4)", CRAWLSCHED_BUFFER_TOO_SMALL, "",
            move |e| { let mut o = [0.0; 4]; crawlsched_threshold_response_time(tmodel as *const _, [1u32].as_ptr(), 1, null(), 0, std::ptr::null(), o.as_mut_ptr(), 3, e) }),
        row("threshold", "crawlsched_threshold_response_time", "modes = {2} with one arrival process", INVALID, "",
            move |e| { let mut o = [0.0; 4]; crawlsched_threshold_response_time(tmodel as *const _, [2u32].as_ptr(), 1, null(), 0, std::ptr::null(), o.as_mut_ptr(), 4, e) }),
        row("threshold", "crawlsched_threshold_response_time", "model = NULL", NULLARG, "must not be NULL",
            move |e| { let mut o = [0.0; 4]; crawlsched_threshold_response_time(null(), [1u32].as_ptr(), 1, null(), 0, std::ptr::null(), o.as_mut_ptr(), 4, e) }),
        row("threshold", "crawlsched_threshold_response_cdf", "which = 7 (unknown selection)", INVALID, "",
            move |e| { let mut o = [0.0; 1]; crawlsched_threshold_response_cdf(tmodel as *const _, [1u32].as_ptr(), 1, null(), 0, 7, [1.0].as_ptr(), 1, std::ptr::null(), o.as_mut_ptr(), 1, e) }),
        row("threshold", "crawlsched_threshold_response_cdf", "times = {-1} (negative time)", INVALID, "",
            move |e| { let mut o = [0.0; 1]; crawlsched_threshold_response_cdf(tmodel as *const _, [1u32].as_ptr(), 1, null(), 0, CRAWLSCHED_THRESHOLD_SOJOURN_ALL, [-1.0].as_ptr(), 1, std::ptr::null(), o.as_mut_ptr(), 1, e) }),
        row("threshold", "crawlsched_threshold_response_cdf", "times = {NaN}", INVALID, "",
            move |e| { let mut o = [0.0; 1]; crawlsched_threshold_response_cdf(tmodel as *const _, [1u32].as_ptr(), 1, null(), 0, CRAWLSCHED_THRESHOLD_SOJOURN_SERVED, [f64::NAN].as_ptr(), 1, std::ptr::null(), o.as_mut_ptr(), 1, e) }),
        row("threshold", "crawlsched_threshold_response_cdf", "times = {1e12} (too many uniformization steps)", CRAWLSCHED_TOO_LARGE, "uniformization",
            move |e| { let mut o = [0.0; 1]; crawlsched_threshold_response_cdf(tmodel as *const _, [1u32].as_ptr(), 1, null(), 0, CRAWLSCHED_THRESHOLD_SOJOURN_ALL, [1e12].as_ptr(), 1, std::ptr::null(), o.as_mut_ptr(), 1, e) }),
        row("threshold", "crawlsched_threshold_response_cdf", "out_cap = 1 for n_times = 2", CRAWLSCHED_BUFFER_TOO_SMALL, "",
            move |e| { let mut o = [0.0; 2]; crawlsched_threshold_response_cdf(tmodel as *const _, [1u32].as_ptr(), 1, null(), 0, CRAWLSCHED_THRESHOLD_SOJOURN_ALL, [1.0, 2.0].as_ptr(), 2, std::ptr::null(), o.as_mut_ptr(), 1, e) }),
        ]
    }
}

/// A fresh control, configured by `set`.
unsafe fn control(set: impl Fn(*const crawlsched_control_t)) -> *mut crawlsched_control_t {
    let mut c = null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(
        unsafe { crawlsched_control_new(&mut c, null_mut()) },
        CRAWLSCHED_OK
    );
    set(c);
    c
}

/// Runs `f` with a fresh value-iteration solver and a one-state MDP.
unsafe fn with_solver(
    f: impl FnOnce(*const crawlsched_mdp_solver_t, *const crawlsched_mdp_t) -> i32,
) -> i32 {
    let e = null_mut();
    let (mut b, mut m, mut s, mut a) = (null_mut(), null_mut(), null_mut(), 0u32);
    // SAFETY: valid pointers throughout; every handle is freed.
    unsafe {
        assert_eq!(crawlsched_mdp_builder_new(1, &mut b, e), CRAWLSCHED_OK);
        assert_eq!(
            crawlsched_mdp_builder_add_action(
                b,
                0,
                [0u32].as_ptr(),
                [1.0].as_ptr(),
                1,
                1.0,
                &mut a,
                e
            ),
            CRAWLSCHED_OK
        );
        assert_eq!(crawlsched_mdp_build(b, &mut m, e), CRAWLSCHED_OK);
        assert_eq!(
            crawlsched_mdp_solver_new(CRAWLSCHED_MDP_VALUE_ITERATION, &mut s, e),
            CRAWLSCHED_OK
        );
        let st = f(s, m);
        crawlsched_mdp_solver_free(s);
        crawlsched_mdp_free(m);
        crawlsched_mdp_builder_free(b);
        st
    }
}

/// Runs `f` with a 16-candidate planner on `profile`.
unsafe fn with_planner(
    profile: *const crawlsched_probe_profile_t,
    f: impl FnOnce(*const crawlsched_probe_planner_t) -> i32,
) -> i32 {
    let mut p = null_mut();
    // SAFETY: valid pointers; the planner is freed.
    unsafe {
        assert_eq!(
            crawlsched_probe_planner_new(profile, 16, 0.0, &mut p, null_mut()),
            CRAWLSCHED_OK
        );
        let st = f(p);
        crawlsched_probe_planner_free(p);
        st
    }
}

/// Runs `f` with two exponential servers (rates 1 and 0.4) fed by `pois`.
unsafe fn with_servers(
    pois: *const crawlsched_routing_arrivals_t,
    f: impl FnOnce(*const crawlsched_routing_servers_t) -> i32,
) -> i32 {
    let mut s = null_mut();
    // SAFETY: valid pointers; the servers are freed.
    unsafe {
        let st = crawlsched_routing_servers_new(
            pois,
            [1.0, 0.4].as_ptr(),
            null(),
            2,
            CRAWLSCHED_ROUTING_LOSSES,
            &mut s,
            null_mut(),
        );
        assert_eq!(st, CRAWLSCHED_OK);
        let st = f(s);
        crawlsched_routing_servers_free(s);
        st
    }
}

/// crawlsched_freshness_polite_frequencies on the 2-page fixture model with
/// 2 hosts, the frequencies into a buffer of `out_cap`, no other output.
///
/// # Safety
/// `model` is the fixture model; `hosts` and `max_rates` are NULL or hold 2.
unsafe fn polite(
    model: usize,
    hosts: *const u32,
    max_rates: *const f64,
    objective: i32,
    flags: u32,
    out_cap: usize,
    e: *mut crawlsched_error_t,
) -> i32 {
    let (mut out, mut len) = ([0.0; 2], 0usize);
    // SAFETY: forwarded contract; the buffer holds out_cap <= 2.
    unsafe {
        crawlsched_freshness_polite_frequencies(
            model as *const _,
            hosts,
            2,
            max_rates,
            2,
            objective,
            flags,
            null(),
            out.as_mut_ptr(),
            out_cap,
            &mut len,
            null_mut(),
            null_mut(),
            null_mut(),
            null_mut(),
            null_mut(),
            e,
        )
    }
}

/// Runs `f` with a stride scheduler holding page `id` (rate 0.5).
unsafe fn with_scheduler_page(
    id: u64,
    f: impl FnOnce(*const crawlsched_scheduler_t) -> i32,
) -> i32 {
    let e = null_mut();
    let (mut ex, mut s) = (null_mut(), null_mut());
    // SAFETY: valid pointers throughout; every handle is freed.
    unsafe {
        assert_eq!(
            crawlsched_dist_exponential_new(1.0, &mut ex, e),
            CRAWLSCHED_OK
        );
        assert_eq!(crawlsched_scheduler_new(ex, 0, &mut s, e), CRAWLSCHED_OK);
        assert_eq!(crawlsched_scheduler_add_page(s, id, 0.5, e), CRAWLSCHED_OK);
        let st = f(s);
        crawlsched_scheduler_free(s);
        crawlsched_dist_free(ex);
        st
    }
}

/// A valid estimator state (docs/c-api.md's example: n = 2 visits, one
/// changed after 1 time unit, one unchanged after 2; 30 bytes), edited.
fn state_bytes(edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut b = vec![0xC5, 1, 0, 1, 2];
    for x in [2.0f64, 3.0, 1.0] {
        b.extend(x.to_le_bytes());
    }
    b.push(1);
    edit(&mut b);
    b
}

/// crawlsched_estimator_new_from_state of `bytes`, freeing any estimator.
unsafe fn from_state(bytes: &[u8], e: *mut crawlsched_error_t) -> i32 {
    let mut p = null_mut();
    // SAFETY: a valid slice and out-pointer.
    unsafe {
        let st = crawlsched_estimator_new_from_state(bytes.as_ptr(), bytes.len(), &mut p, e);
        crawlsched_estimator_free(p);
        st
    }
}

/// Runs `f` with the estimator of [`state_bytes`] (30 bytes).
unsafe fn with_estimator_state(f: impl FnOnce(*const crawlsched_estimator_t) -> i32) -> i32 {
    let b = state_bytes(|_| {});
    let mut p = null_mut();
    // SAFETY: valid pointers; the handle is freed.
    unsafe {
        assert_eq!(
            crawlsched_estimator_new_from_state(b.as_ptr(), b.len(), &mut p, null_mut()),
            CRAWLSCHED_OK
        );
        let st = f(p);
        crawlsched_estimator_free(p);
        st
    }
}

/// Runs `f` with the process-wide default memory cap set to `bytes`, then
/// restores it (the rows run one at a time, in this file's only test).
fn with_default_memory_limit(bytes: u64, f: impl FnOnce() -> i32) -> i32 {
    let before = crawlsched_get_default_memory_limit();
    crawlsched_set_default_memory_limit(bytes);
    let st = f();
    crawlsched_set_default_memory_limit(before);
    st
}

/// Runs `f` with a two-robot Poisson threshold model, buffer 3.
unsafe fn with_threshold(f: impl FnOnce(*const crawlsched_threshold_model_t) -> i32) -> i32 {
    let e = null_mut();
    let (mut p1, mut p2, mut sv, mut m) = (null_mut(), null_mut(), null_mut(), null_mut());
    // SAFETY: valid pointers throughout; every handle is freed.
    unsafe {
        assert_eq!(crawlsched_bmap_poisson_new(0.5, &mut p1, e), CRAWLSCHED_OK);
        assert_eq!(crawlsched_bmap_poisson_new(1.0, &mut p2, e), CRAWLSCHED_OK);
        assert_eq!(
            crawlsched_dist_exponential_new(2.0, &mut sv, e),
            CRAWLSCHED_OK
        );
        let arr = [p1 as *const crawlsched_bmap_t, p2 as *const _];
        assert_eq!(
            crawlsched_threshold_model_new(arr.as_ptr(), 2, sv, null(), 3, &mut m, e),
            CRAWLSCHED_OK
        );
        let st = f(m);
        crawlsched_threshold_model_free(m);
        crawlsched_dist_free(sv);
        crawlsched_bmap_free(p1);
        crawlsched_bmap_free(p2);
        st
    }
}

fn message(e: &crawlsched_error_t) -> String {
    // SAFETY: the library NUL-terminates the message.
    unsafe { CStr::from_ptr(e.message.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

fn status_name(s: crawlsched_status_t) -> String {
    // SAFETY: static NUL-terminated string.
    unsafe { CStr::from_ptr(crawlsched_status_string(s)) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn every_bad_input_is_refused_as_documented() {
    let f = fixtures();
    let rows = table(&f);
    let mut wrong = Vec::new();
    let mut doc = String::from(
        "# Inputs the C API refuses\n\n\
         Generated from the table in `tests/bad_inputs.rs`, where every row is a call\n\
         that must return the status shown with a message containing the text shown\n\
         (the test fails otherwise, and fails if this file differs from the table:\n\
         regenerate it with `CRAWLSCHED_BLESS=1 cargo test --test bad_inputs`).\n\
         The message column is the full message of the current release; messages may\n\
         change in a minor release, statuses may not (see `docs/c-api.md`).\n\n\
         Rules that hold for every function, beyond the rows below: a NULL required\n\
         pointer gives `CRAWLSCHED_NULL_ARGUMENT`; an array pointer may be NULL only with\n\
         length 0; a length whose byte size overflows gives `CRAWLSCHED_TOO_LARGE`\n\
         before anything is read or allocated; a handle of another type is refused\n\
         with `CRAWLSCHED_INVALID_ARGUMENT` by its tag; out-parameters keep their\n\
         values on failure.\n",
    );
    let mut family = "";
    for r in &rows {
        let mut e = crawlsched_error_t {
            status: -1,
            message: [0; CRAWLSCHED_ERROR_MESSAGE_SIZE],
        };
        let st = (r.call)(&mut e);
        let msg = message(&e);
        if st != r.status || e.status != st || msg.is_empty() || !msg.contains(r.message) {
            wrong.push(format!(
                "{} [{}]: got {} \"{}\", want {} containing \"{}\"",
                r.function,
                r.input,
                status_name(st),
                msg,
                status_name(r.status),
                r.message
            ));
        }
        if r.family != family {
            family = r.family;
            doc.push_str(&format!(
                "\n## {family}\n\n| function | input | status | message |\n|---|---|---|---|\n"
            ));
        }
        doc.push_str(&format!(
            "| `{}` | {} | `{}` | {} |\n",
            r.function,
            r.input.replace('|', "\\|"),
            status_name(r.status),
            msg.replace('|', "\\|")
        ));
    }
    doc.push_str(&format!("\n{} rows.\n", rows.len()));
    assert!(
        wrong.is_empty(),
        "{} of {} rows differ:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/errors.md");
    if std::env::var("CRAWLSCHED_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(path, &doc).expect("write docs/errors.md");
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == doc,
        "docs/errors.md differs from the table: run CRAWLSCHED_BLESS=1 cargo test --test bad_inputs"
    );
}
