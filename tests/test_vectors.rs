//! The shared test vectors: cases of inputs and expected outputs that the
//! Go, Java and Python bindings replay through their own wrappers and
//! compare exactly (`==` on doubles), proving the languages agree to the
//! last digit. The cases are listed here as inputs only; this test computes
//! every expected output through the C API (the same calls the bindings
//! make), renders `bindings/testdata/vectors.json` and fails if the
//! committed file differs. After changing a case or the library, rewrite it
//! with `CRAWLSCHED_BLESS=1 cargo test --test test_vectors`.
//!
//! The format (each kind's input and expected fields) is documented in
//! `bindings/testdata/README.md`; `run` below is its reference reader.

use crawlsched::ffi::*;
use serde_json::{Map, Value, json};
use std::ffi::CStr;
use std::ptr::{null, null_mut};

/// A failed call: status name and full message.
type Failure = (String, String);
type R<T> = Result<T, Failure>;

fn new_err() -> crawlsched_error_t {
    crawlsched_error_t {
        status: -1,
        message: [0; CRAWLSCHED_ERROR_MESSAGE_SIZE],
    }
}

fn status_name(s: crawlsched_status_t) -> String {
    // SAFETY: static NUL-terminated string.
    unsafe { CStr::from_ptr(crawlsched_status_string(s)) }
        .to_string_lossy()
        .into_owned()
}

fn check(st: crawlsched_status_t, e: &crawlsched_error_t) -> R<()> {
    if st == CRAWLSCHED_OK {
        return Ok(());
    }
    // SAFETY: the library NUL-terminates the message.
    let msg = unsafe { CStr::from_ptr(e.message.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    Err((status_name(st), msg))
}

/// One C call with a fresh error struct as its last argument; `?` on failure.
macro_rules! c {
    ($f:ident($($a:expr),* $(,)?)) => {{
        let mut e = new_err();
        // SAFETY: every pointer passed points to live memory of the right
        // length (vectors sized by the caller) or is NULL where allowed.
        let st = unsafe { $f($($a,)* &mut e) };
        check(st, &e)?
    }};
}

// ---- reading inputs ----

fn get<'a>(v: &'a Value, k: &str) -> &'a Value {
    v.get(k)
        .unwrap_or_else(|| panic!("missing field {k} in {v}"))
}
fn f(v: &Value, k: &str) -> f64 {
    get(v, k)
        .as_f64()
        .unwrap_or_else(|| panic!("{k} is not a number"))
}
fn u(v: &Value, k: &str) -> u64 {
    get(v, k)
        .as_u64()
        .unwrap_or_else(|| panic!("{k} is not an unsigned integer"))
}
fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    get(v, k)
        .as_str()
        .unwrap_or_else(|| panic!("{k} is not a string"))
}
fn b(v: &Value, k: &str) -> bool {
    get(v, k)
        .as_bool()
        .unwrap_or_else(|| panic!("{k} is not a boolean"))
}
fn fa(v: &Value, k: &str) -> Vec<f64> {
    let a = get(v, k)
        .as_array()
        .unwrap_or_else(|| panic!("{k} is not an array"));
    a.iter().map(|x| x.as_f64().expect("number")).collect()
}
/// An array of numbers, or None for null.
fn fa_opt(v: &Value, k: &str) -> Option<Vec<f64>> {
    if get(v, k).is_null() {
        None
    } else {
        Some(fa(v, k))
    }
}
fn ua(v: &Value, k: &str) -> Vec<u64> {
    let a = get(v, k)
        .as_array()
        .unwrap_or_else(|| panic!("{k} is not an array"));
    a.iter()
        .map(|x| x.as_u64().expect("unsigned integer"))
        .collect()
}
fn u32a(v: &Value, k: &str) -> Vec<u32> {
    ua(v, k).into_iter().map(|x| x as u32).collect()
}
fn ptr_or_null(a: &Option<Vec<f64>>) -> *const f64 {
    a.as_ref().map_or(null(), |a| a.as_ptr())
}

/// Calls a variable-size-output function `(out, cap, *out_len)` with a
/// first guess, then again with the length it asked for.
fn variable<T: Copy + Default>(
    guess: usize,
    mut call: impl FnMut(*mut T, usize, *mut usize, *mut crawlsched_error_t) -> crawlsched_status_t,
) -> R<Vec<T>> {
    let mut out = vec![T::default(); guess];
    let mut len = 0usize;
    let mut e = new_err();
    let mut st = call(out.as_mut_ptr(), out.len(), &mut len, &mut e);
    if st == CRAWLSCHED_BUFFER_TOO_SMALL {
        out = vec![T::default(); len];
        e = new_err();
        st = call(out.as_mut_ptr(), out.len(), &mut len, &mut e);
    }
    check(st, &e)?;
    out.truncate(len);
    Ok(out)
}

// ---- building handles from specs (leaked: the test process is short) ----

fn dist(spec: &Value) -> R<*mut crawlsched_dist_t> {
    let mut d = null_mut();
    match s(spec, "type") {
        "deterministic" => c!(crawlsched_dist_deterministic_new(f(spec, "value"), &mut d)),
        "exponential" => c!(crawlsched_dist_exponential_new(f(spec, "rate"), &mut d)),
        "erlang" => c!(crawlsched_dist_erlang_new(
            u(spec, "k") as u32,
            f(spec, "rate"),
            &mut d
        )),
        "gamma" => c!(crawlsched_dist_gamma_new(
            f(spec, "shape"),
            f(spec, "rate"),
            &mut d
        )),
        "hyperexponential" => {
            let (p, r) = (fa(spec, "probs"), fa(spec, "rates"));
            assert_eq!(p.len(), r.len());
            c!(crawlsched_dist_hyperexponential_new(
                p.as_ptr(),
                r.as_ptr(),
                p.len(),
                &mut d
            ))
        }
        "phase_type" => {
            let (a, m) = (fa(spec, "alpha"), fa(spec, "s"));
            c!(crawlsched_dist_phase_type_new(
                a.as_ptr(),
                a.len(),
                m.as_ptr(),
                m.len(),
                &mut d
            ))
        }
        "coxian" => {
            let (r, k) = (fa(spec, "rates"), fa(spec, "cont"));
            c!(crawlsched_dist_coxian_new(
                r.as_ptr(),
                r.len(),
                k.as_ptr(),
                k.len(),
                &mut d
            ))
        }
        "empirical" => {
            let x = fa(spec, "samples");
            c!(crawlsched_dist_empirical_new(x.as_ptr(), x.len(), &mut d))
        }
        "aph2" => c!(crawlsched_dist_fit_aph2_new(
            f(spec, "m1"),
            f(spec, "m2"),
            f(spec, "m3"),
            &mut d
        )),
        "h2" => c!(crawlsched_dist_fit_h2_new(
            f(spec, "m1"),
            f(spec, "m2"),
            f(spec, "m3"),
            &mut d
        )),
        t => panic!("unknown dist type {t}"),
    }
    Ok(d)
}

fn bmap(spec: &Value) -> R<*mut crawlsched_bmap_t> {
    let mut m = null_mut();
    match s(spec, "type") {
        "poisson" => c!(crawlsched_bmap_poisson_new(f(spec, "rate"), &mut m)),
        "matrices" => {
            let x = fa(spec, "matrices");
            c!(crawlsched_bmap_new(
                u(spec, "n") as usize,
                x.as_ptr(),
                x.len(),
                &mut m
            ))
        }
        "fit" => c!(crawlsched_bmap_fit_new(
            f(spec, "mean"),
            f(spec, "variance"),
            f(spec, "lag1"),
            f(spec, "batch_mean"),
            u(spec, "max_batch") as u32,
            &mut m
        )),
        "compose" => {
            let robot = bmap(get(spec, "robot"))?;
            let how = match s(spec, "how") {
                "independent" => CRAWLSCHED_BMAP_COMPOSE_INDEPENDENT,
                "thinning" => CRAWLSCHED_BMAP_COMPOSE_THINNING,
                "scaled" => CRAWLSCHED_BMAP_COMPOSE_SCALED,
                h => panic!("unknown compose {h}"),
            };
            let (active, total) = (u(spec, "active") as u32, u(spec, "total") as u32);
            c!(crawlsched_bmap_compose_new(
                robot,
                how,
                active,
                total,
                f(spec, "prob"),
                &mut m
            ))
        }
        t => panic!("unknown bmap type {t}"),
    }
    Ok(m)
}

fn freshness_model(input: &Value) -> R<*mut crawlsched_freshness_model_t> {
    let access = dist(get(input, "access"))?;
    let rates = fa(input, "change_rates");
    let weights = fa_opt(input, "weights");
    let mut m = null_mut();
    c!(crawlsched_freshness_model_new(
        access,
        rates.as_ptr(),
        ptr_or_null(&weights),
        rates.len(),
        &mut m
    ));
    Ok(m)
}

fn arrivals(spec: &Value) -> R<*mut crawlsched_routing_arrivals_t> {
    let mut a = null_mut();
    match s(spec, "type") {
        "poisson" => c!(crawlsched_routing_arrivals_poisson_new(
            f(spec, "rate"),
            &mut a
        )),
        "mmpp" => {
            let (q, r) = (fa(spec, "q"), fa(spec, "rates"));
            c!(crawlsched_routing_arrivals_mmpp_new(
                q.as_ptr(),
                q.len(),
                r.as_ptr(),
                r.len(),
                &mut a
            ))
        }
        "map" => {
            let (d0, d1) = (fa(spec, "d0"), fa(spec, "d1"));
            c!(crawlsched_routing_arrivals_map_new(
                u(spec, "n") as usize,
                d0.as_ptr(),
                d0.len(),
                d1.as_ptr(),
                d1.len(),
                &mut a
            ))
        }
        t => panic!("unknown arrivals type {t}"),
    }
    Ok(a)
}

fn servers(input: &Value) -> R<*mut crawlsched_routing_servers_t> {
    let a = arrivals(get(input, "arrivals"))?;
    let rates = fa(input, "rates");
    let weights = fa_opt(input, "weights");
    let objective = match s(input, "objective") {
        "losses" => CRAWLSCHED_ROUTING_LOSSES,
        "robot" => CRAWLSCHED_ROUTING_ROBOT,
        o => panic!("unknown objective {o}"),
    };
    let mut sv = null_mut();
    c!(crawlsched_routing_servers_new(
        a,
        rates.as_ptr(),
        ptr_or_null(&weights),
        rates.len(),
        objective,
        &mut sv
    ));
    Ok(sv)
}

fn profile(spec: &Value) -> R<*mut crawlsched_probe_profile_t> {
    let mut p = null_mut();
    match s(spec, "type") {
        "dbworld" => c!(crawlsched_probe_profile_dbworld(
            f(spec, "ratio"),
            f(spec, "horizon_days"),
            &mut p
        )),
        "micronet" => c!(crawlsched_probe_profile_micronet(
            f(spec, "ratio"),
            f(spec, "horizon_days"),
            &mut p
        )),
        "piecewise" => {
            let (lb, lv) = (fa(spec, "lambda_breaks"), fa(spec, "lambda_values"));
            let (ab, av) = (fa(spec, "a_breaks"), fa(spec, "a_values"));
            c!(crawlsched_probe_profile_new(
                lb.as_ptr(),
                lv.as_ptr(),
                lv.len(),
                b(spec, "lambda_periodic") as i32,
                ab.as_ptr(),
                av.as_ptr(),
                av.len(),
                b(spec, "a_periodic") as i32,
                f(spec, "horizon"),
                &mut p
            ))
        }
        t => panic!("unknown profile type {t}"),
    }
    Ok(p)
}

fn threshold_model(input: &Value) -> R<*mut crawlsched_threshold_model_t> {
    let specs = get(input, "arrivals").as_array().expect("arrivals array");
    let mut arr = Vec::new();
    for sp in specs {
        arr.push(bmap(sp)? as *const crawlsched_bmap_t);
    }
    let service = dist(get(input, "service"))?;
    let obs = if get(input, "obsolescence").is_null() {
        null_mut()
    } else {
        dist(get(input, "obsolescence"))?
    };
    let mut m = null_mut();
    c!(crawlsched_threshold_model_new(
        arr.as_ptr(),
        arr.len(),
        service,
        obs,
        u(input, "buffer") as u32,
        &mut m
    ));
    Ok(m)
}

// ---- the kinds ----

/// Runs one case: its expected outputs, or the first failure.
/// The empty scheduler of a `scheduler.*` input (`access`, `mode`).
fn scheduler(i: &Value) -> R<*mut crawlsched_scheduler_t> {
    let access = dist(get(i, "access"))?;
    let mode = match s(i, "mode") {
        "stride" => CRAWLSCHED_SCHEDULER_STRIDE,
        "golden_ratio" => CRAWLSCHED_SCHEDULER_GOLDEN_RATIO,
        m => panic!("unknown mode {m}"),
    };
    let mut sc = null_mut();
    c!(crawlsched_scheduler_new(access, mode, &mut sc));
    Ok(sc)
}

/// The rest of a `scheduler.*` case once its pages (`ids`) are added: the
/// observations, `n` picks, the length, each page's frequency and rate.
fn scheduler_picks(sc: *mut crawlsched_scheduler_t, i: &Value, pages: &[u64]) -> R<Value> {
    for v in get(i, "observe").as_array().expect("observe array") {
        c!(crawlsched_scheduler_observe(
            sc,
            u(v, "id"),
            f(v, "interval"),
            b(v, "changed") as i32
        ));
    }
    let mut ids = vec![0u64; u(i, "n") as usize];
    c!(crawlsched_scheduler_next_batch(
        sc,
        ids.as_mut_ptr(),
        ids.len()
    ));
    let mut len = 0usize;
    c!(crawlsched_scheduler_len(sc, &mut len));
    let (mut freqs, mut rates) = (Vec::new(), Vec::new());
    for &id in pages {
        let (mut fq, mut r) = (0.0, 0.0);
        c!(crawlsched_scheduler_frequency(sc, id, &mut fq));
        c!(crawlsched_scheduler_change_rate(sc, id, &mut r));
        freqs.push(fq);
        rates.push(r);
    }
    Ok(json!({ "ids": ids, "len": len, "frequencies": freqs, "change_rates": rates }))
}

/// Adds the `pages` of a `scheduler.*` input one by one (`_add_page` when
/// the weight is null, else `_add_weighted_page`); their ids in order.
fn scheduler_add_each(sc: *mut crawlsched_scheduler_t, i: &Value) -> R<Vec<u64>> {
    let pages = get(i, "pages").as_array().expect("pages array");
    for p in pages {
        if get(p, "weight").is_null() {
            c!(crawlsched_scheduler_add_page(
                sc,
                u(p, "id"),
                f(p, "change_rate")
            ));
        } else {
            c!(crawlsched_scheduler_add_weighted_page(
                sc,
                u(p, "id"),
                f(p, "change_rate"),
                f(p, "weight")
            ));
        }
    }
    Ok(pages.iter().map(|p| u(p, "id")).collect())
}

/// A double that may be infinite where the C API documents it: a number,
/// or the string `"inf"` / `"-inf"` (JSON has no infinity).
fn f_or_inf(x: &Value) -> f64 {
    match x.as_str() {
        Some("inf") => f64::INFINITY,
        Some("-inf") => f64::NEG_INFINITY,
        _ => x.as_f64().expect("number, \"inf\" or \"-inf\""),
    }
}
fn inf_or_f(x: f64) -> Value {
    match x {
        f64::INFINITY => json!("inf"),
        f64::NEG_INFINITY => json!("-inf"),
        _ => json!(x),
    }
}

/// `freshness.polite_frequencies`: the model, then one
/// `_freshness_polite_frequencies` call with every optional output.
fn polite_plan(i: &Value) -> R<Value> {
    let m = freshness_model(i)?;
    let hosts = u32a(i, "hosts");
    let caps: Vec<f64> = get(i, "max_rates")
        .as_array()
        .expect("max_rates array")
        .iter()
        .map(f_or_inf)
        .collect();
    let objective = match s(i, "objective") {
        "evenly_spaced" => CRAWLSCHED_POLITE_EVENLY_SPACED,
        "randomized" => CRAWLSCHED_POLITE_RANDOMIZED,
        o => panic!("unknown objective {o}"),
    };
    let flags = if b(i, "allow_slack") {
        CRAWLSCHED_POLITE_ALLOW_SLACK
    } else {
        0
    };
    let (mut sat, mut lnh) = (vec![0u8; caps.len()], vec![0.0; caps.len()]);
    let (mut lnl, mut obj, mut rate) = (0.0, 0.0, 0.0);
    let freq = variable::<f64>(hosts.len(), |o, cap, len, e| unsafe {
        // SAFETY: o has cap elements; hosts, caps, sat and lnh are live
        // with the lengths passed.
        crawlsched_freshness_polite_frequencies(
            m,
            hosts.as_ptr(),
            hosts.len(),
            caps.as_ptr(),
            caps.len(),
            objective,
            flags,
            null(),
            o,
            cap,
            len,
            sat.as_mut_ptr(),
            lnh.as_mut_ptr(),
            &mut lnl,
            &mut obj,
            &mut rate,
            e,
        )
    })?;
    let saturated: Vec<bool> = sat.iter().map(|&x| x != 0).collect();
    Ok(json!({
        "frequencies": freq, "saturated": saturated, "ln_host_multipliers": lnh,
        "ln_multiplier": inf_or_f(lnl), "objective": obj, "crawl_rate": rate
    }))
}

/// `scheduler.hosts`: pages added one by one, hosts set and cleared, host
/// delays set, then `_next_at` at each `now`; each page's host and each
/// delay read back.
fn scheduler_hosts(i: &Value) -> R<Value> {
    let sc = scheduler(i)?;
    let ids = scheduler_add_each(sc, i)?;
    for v in get(i, "hosts").as_array().expect("hosts array") {
        c!(crawlsched_scheduler_set_host(
            sc,
            u(v, "id"),
            u(v, "host") as u32
        ));
    }
    for id in ua(i, "clear") {
        c!(crawlsched_scheduler_clear_host(sc, id));
    }
    let delays = get(i, "delays").as_array().expect("delays array");
    for v in delays {
        c!(crawlsched_scheduler_set_host_delay(
            sc,
            u(v, "host") as u32,
            f(v, "delay")
        ));
    }
    let (mut ready, mut picked, mut waits) = (Vec::new(), Vec::new(), Vec::new());
    for now in fa(i, "now") {
        let (mut id, mut wait, mut r) = (0u64, 0.0, 0i32);
        c!(crawlsched_scheduler_next_at(
            sc, now, &mut id, &mut wait, &mut r
        ));
        ready.push(r != 0);
        picked.push(id);
        waits.push(wait);
    }
    let (mut has, mut host_of) = (Vec::new(), Vec::new());
    for &id in &ids {
        let (mut h, mut y) = (0u32, 0i32);
        c!(crawlsched_scheduler_host(sc, id, &mut h, &mut y));
        has.push(y != 0);
        host_of.push(h);
    }
    let mut delay_of = Vec::new();
    for v in delays {
        let mut d = 0.0;
        c!(crawlsched_scheduler_host_delay(
            sc,
            u(v, "host") as u32,
            &mut d
        ));
        delay_of.push(d);
    }
    Ok(json!({
        "ready": ready, "ids": picked, "waits": waits,
        "has_host": has, "host": host_of, "delays": delay_of
    }))
}

/// The rest of a `scheduler.due` case: the observations, the imported page
/// states, the bulk revisit intervals, then per page in input order its
/// interval, next due time after `last_visit` and state.
fn scheduler_due(sc: *mut crawlsched_scheduler_t, i: &Value, pages: &[u64]) -> R<Value> {
    for v in get(i, "observe").as_array().expect("observe array") {
        c!(crawlsched_scheduler_observe(
            sc,
            u(v, "id"),
            f(v, "interval"),
            b(v, "changed") as i32
        ));
    }
    for v in get(i, "import").as_array().expect("import array") {
        let bytes = unhex(s(v, "state_hex"));
        c!(crawlsched_scheduler_set_page_state(
            sc,
            u(v, "id"),
            bytes.as_ptr(),
            bytes.len()
        ));
    }
    let mut n = 0usize;
    c!(crawlsched_scheduler_len(sc, &mut n));
    let (mut ids, mut all) = (vec![0u64; n], vec![0.0; n]);
    let mut len = 0usize;
    c!(crawlsched_scheduler_revisit_intervals(
        sc,
        ids.as_mut_ptr(),
        all.as_mut_ptr(),
        n,
        &mut len
    ));
    let (mut one, mut due, mut has, mut states) = (vec![], vec![], vec![], vec![]);
    for &id in pages {
        let (mut iv, mut d, mut h) = (0.0, 0.0, 0i32);
        c!(crawlsched_scheduler_revisit_interval(sc, id, &mut iv));
        c!(crawlsched_scheduler_next_due(
            sc,
            id,
            f(i, "last_visit"),
            &mut d,
            &mut h
        ));
        let state = variable(64, |o, cap, l, e| unsafe {
            crawlsched_scheduler_page_state(sc, id, o, cap, l, e)
        })?;
        one.push(iv);
        due.push(d);
        has.push(h != 0);
        states.push(hex(&state));
    }
    Ok(json!({
        "ids": ids, "revisit_intervals": all, "revisit_interval": one,
        "next_due": due, "has_due": has, "page_states_hex": states
    }))
}

/// The estimator of an `estimator.*` input: `prior` (`null` or
/// `{rate_guess, weight_time}`), then `visits` (`[{interval, changed}]`).
fn estimator(i: &Value) -> R<*mut crawlsched_estimator_t> {
    let mut x = null_mut();
    let prior = get(i, "prior");
    if prior.is_null() {
        c!(crawlsched_estimator_new(&mut x));
    } else {
        c!(crawlsched_estimator_new_with_prior(
            f(prior, "rate_guess"),
            f(prior, "weight_time"),
            &mut x
        ));
    }
    for v in get(i, "visits").as_array().expect("visits array") {
        c!(crawlsched_estimator_observe(
            x,
            f(v, "interval"),
            b(v, "changed") as i32
        ));
    }
    Ok(x)
}

/// `_estimator_export_state`, asking for the size first.
fn export_state(x: *mut crawlsched_estimator_t) -> R<Vec<u8>> {
    variable(0, |o, cap, l, e| unsafe {
        crawlsched_estimator_export_state(x, o, cap, l, e)
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|k| u8::from_str_radix(&text[k..k + 2], 16).expect("hex"))
        .collect()
}

/// The text form the bindings give (unpadded base64url), from the Rust API.
fn state_text(bytes: &[u8]) -> String {
    crawlsched::freshness::estimator::ChangeRateEstimator::from_bytes(bytes)
        .expect("an exported state")
        .to_text()
}

fn run(kind: &str, i: &Value) -> R<Value> {
    Ok(match kind {
        "status_string" => {
            let codes = get(i, "statuses").as_array().expect("array");
            let names: Vec<String> = codes
                .iter()
                .map(|c| status_name(c.as_i64().unwrap() as i32))
                .collect();
            json!({ "names": names })
        }
        "dist.moment" => {
            let d = dist(get(i, "dist"))?;
            let (mut mean, mut var) = (0.0, 0.0);
            c!(crawlsched_dist_mean(d, &mut mean));
            c!(crawlsched_dist_variance(d, &mut var));
            let mut moments = Vec::new();
            for k in u32a(i, "k") {
                let mut x = 0.0;
                c!(crawlsched_dist_moment(d, k, &mut x));
                moments.push(x);
            }
            json!({ "mean": mean, "variance": var, "moments": moments })
        }
        "dist.transform" => {
            let d = dist(get(i, "dist"))?;
            let (mut lap, mut cdf) = (Vec::new(), Vec::new());
            for sv in fa(i, "s") {
                let mut x = 0.0;
                c!(crawlsched_dist_laplace(d, sv, &mut x));
                lap.push(x);
            }
            for xv in fa(i, "x") {
                let mut x = 0.0;
                c!(crawlsched_dist_cdf(d, xv, &mut x));
                cdf.push(x);
            }
            json!({ "laplace": lap, "cdf": cdf })
        }
        "dist.sample" => {
            let d = dist(get(i, "dist"))?;
            let mut out = vec![0.0; u(i, "n") as usize];
            c!(crawlsched_dist_sample(
                d,
                u(i, "seed"),
                out.as_mut_ptr(),
                out.len()
            ));
            json!({ "samples": out })
        }
        "bmap.measures" => {
            let m = bmap(get(i, "bmap"))?;
            let (mut order, mut rate) = (0usize, 0.0);
            c!(crawlsched_bmap_order(m, &mut order));
            c!(crawlsched_bmap_fundamental_rate(m, &mut rate));
            let (mut moments, mut lags) = (Vec::new(), Vec::new());
            for k in u32a(i, "moments") {
                let mut x = 0.0;
                c!(crawlsched_bmap_interarrival_moment(m, k, &mut x));
                moments.push(x);
            }
            for k in u32a(i, "lags") {
                let mut x = 0.0;
                c!(crawlsched_bmap_lag_correlation(m, k, &mut x));
                lags.push(x);
            }
            json!({ "order": order, "fundamental_rate": rate, "moments": moments, "lag_correlations": lags })
        }
        "freshness.optimal_frequencies" => {
            let m = freshness_model(i)?;
            let mut n = 0usize;
            c!(crawlsched_freshness_model_len(m, &mut n));
            let (mut h, mut freq, mut obs) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
            c!(crawlsched_freshness_model_h(m, h.as_mut_ptr(), n));
            c!(crawlsched_freshness_optimal_frequencies(
                m,
                freq.as_mut_ptr(),
                n
            ));
            let (mut lb, mut cost) = (0.0, 0.0);
            c!(crawlsched_freshness_lower_bound(m, &mut lb));
            c!(crawlsched_freshness_cost(m, freq.as_ptr(), n, &mut cost));
            c!(crawlsched_freshness_obsolescence_bound(
                m,
                freq.as_ptr(),
                n,
                obs.as_mut_ptr(),
                n
            ));
            json!({ "len": n, "h": h, "frequencies": freq, "lower_bound": lb, "cost": cost, "obsolescence_bound": obs })
        }
        "freshness.randomized" => {
            let m = freshness_model(i)?;
            let n = fa(i, "change_rates").len();
            let mut freq = vec![0.0; n];
            let (mut opt, mut cost) = (0.0, 0.0);
            c!(crawlsched_freshness_randomized_optimal_frequencies(
                m,
                freq.as_mut_ptr(),
                n
            ));
            c!(crawlsched_freshness_randomized_optimal_cost(m, &mut opt));
            let uniform = fa(i, "freq");
            c!(crawlsched_freshness_randomized_cost(
                m,
                uniform.as_ptr(),
                uniform.len(),
                &mut cost
            ));
            json!({ "frequencies": freq, "optimal_cost": opt, "cost": cost })
        }
        "freshness.integer_counts" => {
            let freq = fa(i, "freq");
            let mut out = vec![0u64; freq.len()];
            let one = b(i, "at_least_one") as i32;
            c!(crawlsched_freshness_integer_counts(
                freq.as_ptr(),
                freq.len(),
                u(i, "total"),
                one,
                out.as_mut_ptr(),
                out.len()
            ));
            json!({ "counts": out })
        }
        "freshness.fibonacci_at_least" => {
            let mut x = 0u64;
            c!(crawlsched_freshness_fibonacci_at_least(u(i, "n"), &mut x));
            json!({ "value": x })
        }
        "freshness.golden_ratio_sequence"
        | "freshness.round_robin_sequence"
        | "routing.balanced_sequence" => {
            let counts = ua(i, "counts");
            let seq = variable::<u32>(4, |o, cap, len, e| unsafe {
                // SAFETY: o has cap elements; counts is live.
                match kind {
                    "freshness.golden_ratio_sequence" => {
                        crawlsched_freshness_golden_ratio_sequence(
                            counts.as_ptr(),
                            counts.len(),
                            o,
                            cap,
                            len,
                            e,
                        )
                    }
                    "freshness.round_robin_sequence" => crawlsched_freshness_round_robin_sequence(
                        counts.as_ptr(),
                        counts.len(),
                        o,
                        cap,
                        len,
                        e,
                    ),
                    _ => crawlsched_routing_balanced_sequence(
                        counts.as_ptr(),
                        counts.len(),
                        o,
                        cap,
                        len,
                        e,
                    ),
                }
            })?;
            json!({ "sequence": seq })
        }
        "freshness.cyclic_cost" => {
            let m = freshness_model(i)?;
            let n = fa(i, "change_rates").len();
            let seq = u32a(i, "sequence");
            let mut cost = 0.0;
            let mut obs = vec![0.0; n];
            c!(crawlsched_freshness_cyclic_cost(
                m,
                seq.as_ptr(),
                seq.len(),
                &mut cost
            ));
            c!(crawlsched_freshness_cyclic_obsolescence(
                m,
                seq.as_ptr(),
                seq.len(),
                obs.as_mut_ptr(),
                n
            ));
            json!({ "cost": cost, "obsolescence": obs })
        }
        "freshness.golden_ratio_bound" => {
            let m = freshness_model(i)?;
            let mut x = 0.0;
            c!(crawlsched_freshness_golden_ratio_bound(m, &mut x));
            json!({ "value": x })
        }
        "freshness.bound_ratio" => {
            let mut x = 0.0;
            c!(crawlsched_freshness_bound_ratio(f(i, "q"), &mut x));
            json!({ "value": x })
        }
        "freshness.simulate_cyclic" => {
            let m = freshness_model(i)?;
            let seq = u32a(i, "sequence");
            let (mut cost, mut se) = (0.0, 0.0);
            c!(crawlsched_freshness_simulate_cyclic(
                m,
                seq.as_ptr(),
                seq.len(),
                u(i, "cycles"),
                u(i, "seed"),
                std::ptr::null(),
                &mut cost,
                &mut se
            ));
            json!({ "cost": cost, "std_error": se })
        }
        "estimator.estimate" => {
            let x = estimator(i)?;
            let (mut est, mut n) = (0.0, 0u64);
            c!(crawlsched_estimator_observations(x, &mut n));
            c!(crawlsched_estimator_estimate(x, &mut est));
            json!({ "estimate": est, "observations": n })
        }
        "estimator.export_state" => {
            let x = estimator(i)?;
            let state = export_state(x)?;
            let mut est = 0.0;
            c!(crawlsched_estimator_estimate(x, &mut est));
            json!({ "state_hex": hex(&state), "state_text": state_text(&state), "estimate": est })
        }
        "estimator.import_state" => {
            let bytes = unhex(s(i, "state_hex"));
            let mut x = null_mut();
            c!(crawlsched_estimator_new_from_state(
                bytes.as_ptr(),
                bytes.len(),
                &mut x
            ));
            let (mut est, mut n) = (0.0, 0u64);
            c!(crawlsched_estimator_observations(x, &mut n));
            c!(crawlsched_estimator_estimate(x, &mut est));
            json!({ "estimate": est, "observations": n, "state_hex": hex(&export_state(x)?) })
        }
        "scheduler.sequence" => {
            let sc = scheduler(i)?;
            let ids = scheduler_add_each(sc, i)?;
            scheduler_picks(sc, i, &ids)?
        }
        "scheduler.hosts" => scheduler_hosts(i)?,
        "freshness.polite_frequencies" => polite_plan(i)?,
        "scheduler.due" => {
            let sc = scheduler(i)?;
            let pages = scheduler_add_each(sc, i)?;
            scheduler_due(sc, i, &pages)?
        }
        "scheduler.add_pages" => {
            let sc = scheduler(i)?;
            let (ids, rates, weights) = (ua(i, "ids"), fa(i, "change_rates"), fa_opt(i, "weights"));
            c!(crawlsched_scheduler_add_pages(
                sc,
                ids.as_ptr(),
                rates.as_ptr(),
                ptr_or_null(&weights),
                ids.len()
            ));
            scheduler_picks(sc, i, &ids)?
        }
        "mdp.solve" => {
            let n = u(i, "n_states") as usize;
            let mut bld = null_mut();
            c!(crawlsched_mdp_builder_new(n, &mut bld));
            for a in get(i, "actions").as_array().expect("actions array") {
                let (next, prob) = (u32a(a, "next"), fa(a, "prob"));
                let mut idx = 0u32;
                c!(crawlsched_mdp_builder_add_action(
                    bld,
                    u(a, "state") as u32,
                    next.as_ptr(),
                    prob.as_ptr(),
                    next.len(),
                    f(a, "cost"),
                    &mut idx
                ));
            }
            let mut m = null_mut();
            c!(crawlsched_mdp_build(bld, &mut m));
            let (mut ns, mut na, mut nt) = (0u64, 0u64, 0u64);
            c!(crawlsched_mdp_size(m, &mut ns, &mut na, &mut nt));
            let method = match s(i, "method") {
                "relative_value_iteration" => CRAWLSCHED_MDP_RELATIVE_VALUE_ITERATION,
                "value_iteration" => CRAWLSCHED_MDP_VALUE_ITERATION,
                "gauss_seidel" => CRAWLSCHED_MDP_GAUSS_SEIDEL,
                "policy_iteration" => CRAWLSCHED_MDP_POLICY_ITERATION,
                x => panic!("unknown method {x}"),
            };
            let mut sv = null_mut();
            c!(crawlsched_mdp_solver_new(method, &mut sv));
            let stopping = match s(i, "stopping") {
                "span" => CRAWLSCHED_MDP_STOP_SPAN,
                "relative_change" => CRAWLSCHED_MDP_STOP_RELATIVE_CHANGE,
                x => panic!("unknown stopping {x}"),
            };
            c!(crawlsched_mdp_solver_set_limits(
                sv,
                f(i, "tolerance"),
                u(i, "max_iterations"),
                stopping
            ));
            let criterion = match s(i, "criterion") {
                "average" => CRAWLSCHED_MDP_AVERAGE,
                "discounted" => CRAWLSCHED_MDP_DISCOUNTED,
                x => panic!("unknown criterion {x}"),
            };
            c!(crawlsched_mdp_solver_set_criterion(
                sv,
                criterion,
                f(i, "discount"),
                f(i, "tau")
            ));
            c!(crawlsched_mdp_solver_run(sv, m));
            let (mut g, mut lo, mut hi) = (0.0, 0.0, 0.0);
            c!(crawlsched_mdp_solver_gain(sv, &mut g, &mut lo, &mut hi));
            let (mut it, mut conv, mut rc) = (0u64, 0i32, 0u64);
            c!(crawlsched_mdp_solver_stats(sv, &mut it, &mut conv, &mut rc));
            let (mut pol, mut val) = (vec![0u32; n], vec![0.0; n]);
            c!(crawlsched_mdp_solver_policy(sv, pol.as_mut_ptr(), n));
            c!(crawlsched_mdp_solver_values(sv, val.as_mut_ptr(), n));
            json!({
                "states": ns, "actions": na, "transitions": nt,
                "gain": g, "lo": lo, "hi": hi,
                "iterations": it, "converged": conv != 0, "recurrent_classes": rc,
                "policy": pol, "values": val,
            })
        }
        "robots.solve" => {
            let mut r = null_mut();
            let (k, lam, mu, gam) = (u(i, "k"), f(i, "lambda"), f(i, "mu"), f(i, "gamma"));
            if get(i, "n").is_null() {
                c!(crawlsched_robots_solve_unlimited(
                    k,
                    lam,
                    mu,
                    gam,
                    std::ptr::null(),
                    &mut r
                ));
            } else {
                c!(crawlsched_robots_solve(
                    u(i, "n"),
                    k,
                    lam,
                    mu,
                    gam,
                    std::ptr::null(),
                    &mut r
                ));
            }
            let (mut n, mut kk) = (0u64, 0u64);
            c!(crawlsched_robots_size(r, &mut n, &mut kk));
            let (mut cost, mut starv, mut loss) = (0.0, 0.0, 0.0);
            c!(crawlsched_robots_cost(r, &mut cost, &mut starv, &mut loss));
            let (mut nmin, mut nmean, mut nmax) = (0u64, 0.0, 0i64);
            c!(crawlsched_robots_counts(
                r, &mut nmin, &mut nmean, &mut nmax
            ));
            let mut curves = Vec::new();
            let mut is_curve = Vec::new();
            for ev in 0..2 {
                let mut out = vec![0i64; n as usize + 1];
                let mut ic = 0i32;
                c!(crawlsched_robots_switching_curve(
                    r,
                    ev,
                    out.as_mut_ptr(),
                    out.len(),
                    &mut ic
                ));
                curves.push(out);
                is_curve.push(ic != 0);
            }
            let mut stat = Vec::new();
            for sn in ua(i, "static_n") {
                let mut x = 0.0;
                c!(crawlsched_robots_evaluate_static(r, sn, &mut x));
                stat.push(x);
            }
            json!({
                "n": n, "k": kk, "cost": cost, "starvation": starv, "loss_rate": loss,
                "n_min": nmin, "n_mean": nmean, "n_max": nmax,
                "curve_departure": curves[0], "curve_arrival": curves[1],
                "is_curve_departure": is_curve[0], "is_curve_arrival": is_curve[1],
                "static_costs": stat,
            })
        }
        "robots.static" => {
            let (lam, mu, gam, k) = (f(i, "lambda"), f(i, "mu"), f(i, "gamma"), u(i, "k"));
            let mut sc = 0.0;
            c!(crawlsched_robots_static_cost(lam / mu, gam, k, mu, &mut sc));
            let (mut n, mut cost) = (0u64, 0.0);
            c!(crawlsched_robots_optimal_static(
                lam, mu, gam, k, &mut n, &mut cost
            ));
            json!({ "static_cost": sc, "optimal_n": n, "optimal_cost": cost })
        }
        "threshold.measures" => {
            let m = threshold_model(i)?;
            let (modes, th, w) = (u32a(i, "modes"), u32a(i, "thresholds"), fa(i, "weights"));
            let mut count = 0u64;
            c!(crawlsched_threshold_model_state_count(m, &mut count));
            let mut meas = vec![0.0; CRAWLSCHED_THRESHOLD_MEASURE_COUNT];
            c!(crawlsched_threshold_measures(
                m,
                modes.as_ptr(),
                modes.len(),
                th.as_ptr(),
                th.len(),
                std::ptr::null(),
                meas.as_mut_ptr(),
                meas.len()
            ));
            let levels = variable::<f64>(4, |o, cap, len, e| unsafe {
                // SAFETY: o has cap elements; the arrays are live.
                crawlsched_threshold_level_distribution(
                    m,
                    modes.as_ptr(),
                    modes.len(),
                    th.as_ptr(),
                    th.len(),
                    std::ptr::null(),
                    o,
                    cap,
                    len,
                    e,
                )
            })?;
            let mut cost = 0.0;
            c!(crawlsched_threshold_cost(
                m,
                modes.as_ptr(),
                modes.len(),
                th.as_ptr(),
                th.len(),
                w.as_ptr(),
                w.len(),
                std::ptr::null(),
                &mut cost
            ));
            json!({ "state_count": count, "measures": meas, "level_distribution": levels, "cost": cost })
        }
        "threshold.optimize" => {
            let m = threshold_model(i)?;
            let (modes, w) = (u32a(i, "modes"), fa(i, "weights"));
            let mut th = vec![0u32; modes.len().saturating_sub(1)];
            let (mut cost, mut evals) = (0.0, 0u64);
            c!(crawlsched_threshold_optimize(
                m,
                modes.as_ptr(),
                modes.len(),
                w.as_ptr(),
                w.len(),
                u(i, "max_evaluations"),
                std::ptr::null(),
                th.as_mut_ptr(),
                th.len(),
                &mut cost,
                &mut evals
            ));
            json!({ "thresholds": th, "cost": cost, "evaluated": evals })
        }
        "routing.cost" => {
            let sv = servers(i)?;
            let seq = u32a(i, "sequence");
            let (mut m, mut rate) = (0usize, 0.0);
            c!(crawlsched_routing_servers_len(sv, &mut m));
            let a = arrivals(get(i, "arrivals"))?;
            c!(crawlsched_routing_arrivals_rate(a, &mut rate));
            let (mut pp, mut put) = (0.0, 0.0);
            c!(crawlsched_routing_cost(
                sv,
                seq.as_ptr(),
                seq.len(),
                &mut pp,
                &mut put
            ));
            json!({ "servers": m, "rate": rate, "per_packet": pp, "per_unit_time": put })
        }
        "routing.optimize_exhaustive" => {
            let sv = servers(i)?;
            let (lo, hi) = (u(i, "min_period"), u(i, "max_period"));
            let (mut cost, mut evals) = (0.0, 0u64);
            let period = variable::<u32>(hi as usize, |o, cap, len, e| unsafe {
                // SAFETY: o has cap elements.
                crawlsched_routing_optimize_exhaustive(
                    sv,
                    lo,
                    hi,
                    std::ptr::null(),
                    o,
                    cap,
                    len,
                    &mut cost,
                    &mut evals,
                    e,
                )
            })?;
            json!({ "period": period, "cost": cost, "evaluations": evals })
        }
        "routing.switch_point" => {
            let mut x = 0.0;
            c!(crawlsched_routing_switch_point(u(i, "n") as u32, &mut x));
            json!({ "value": x })
        }
        "routing.two_server_cost" => {
            let mut x = 0.0;
            c!(crawlsched_routing_two_server_cost(
                u(i, "n") as u32,
                f(i, "mu2"),
                &mut x
            ));
            json!({ "value": x })
        }
        "routing.router" => {
            let seq = u32a(i, "sequence");
            let mut r = null_mut();
            c!(crawlsched_routing_router_new(
                seq.as_ptr(),
                seq.len(),
                u(i, "servers") as u32,
                &mut r
            ));
            let mut out = vec![0u32; u(i, "n") as usize];
            c!(crawlsched_routing_router_next_batch(
                r,
                out.as_mut_ptr(),
                out.len()
            ));
            json!({ "next": out })
        }
        "probe.optimal" => {
            let p = profile(get(i, "profile"))?;
            let mut pl = null_mut();
            c!(crawlsched_probe_planner_new(
                p,
                u(i, "grid"),
                f(i, "delta"),
                &mut pl
            ));
            let method = match s(i, "method") {
                "reference" => CRAWLSCHED_PROBE_METHOD_REFERENCE,
                "divide_conquer" => CRAWLSCHED_PROBE_METHOD_DIVIDE_CONQUER,
                "hull" => CRAWLSCHED_PROBE_METHOD_HULL,
                "lagrangian" => CRAWLSCHED_PROBE_METHOD_LAGRANGIAN,
                x => panic!("unknown method {x}"),
            };
            let n = u(i, "n");
            let mut probes = vec![0.0; n as usize];
            let mut cost = 0.0;
            c!(crawlsched_probe_planner_plan(
                pl,
                n,
                method,
                probes.as_mut_ptr(),
                probes.len(),
                &mut cost
            ));
            json!({ "probes": probes, "cost": cost })
        }
        "probe.cost" => {
            let p = profile(get(i, "profile"))?;
            let (probes, updates) = (fa(i, "probes"), fa(i, "updates"));
            let (mut ic, mut ec, mut rc) = (0.0, 0.0, 0.0);
            c!(crawlsched_probe_interval_cost(
                p,
                f(i, "s"),
                f(i, "f"),
                &mut ic
            ));
            c!(crawlsched_probe_expected_cost(
                p,
                probes.as_ptr(),
                probes.len(),
                &mut ec
            ));
            c!(crawlsched_probe_realized_cost(
                p,
                probes.as_ptr(),
                probes.len(),
                updates.as_ptr(),
                updates.len(),
                &mut rc
            ));
            json!({ "interval_cost": ic, "expected_cost": ec, "realized_cost": rc })
        }
        "probe.policy" => {
            let p = profile(get(i, "profile"))?;
            let policy = match s(i, "policy") {
                "threshold" => CRAWLSCHED_PROBE_POLICY_THRESHOLD,
                "first_arrival" => CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL,
                x => panic!("unknown policy {x}"),
            };
            let par = f(i, "parameter");
            let probes = variable::<f64>(16, |o, cap, len, e| unsafe {
                // SAFETY: o has cap elements.
                crawlsched_probe_policy_schedule(p, policy, par, o, cap, len, e)
            })?;
            json!({ "probes": probes })
        }
        k => panic!("unknown kind {k}"),
    })
}

// ---- the cases ----

fn cases() -> Vec<(&'static str, &'static str, Value)> {
    let exp5 = json!({ "type": "exponential", "rate": 5.0 });
    let exp1 = json!({ "type": "exponential", "rate": 1.0 });
    let exp2 = json!({ "type": "exponential", "rate": 2.0 });
    let polite_rates = json!([0.1, 0.3, 0.5, 1.0, 2.0, 4.0]);
    let polite_hosts = json!([0, 0, 1, 1, 2, 2]);
    let two_state_mmpp =
        json!({ "type": "mmpp", "q": [-1.0, 1.0, 2.0, -2.0], "rates": [3.0, 0.5] });
    let dbworld = json!({ "type": "dbworld", "ratio": 4.0, "horizon_days": 7.0 });
    let flat = json!({
        "type": "piecewise",
        "lambda_breaks": [0.0, 1.0, 2.0], "lambda_values": [2.0, 0.5], "lambda_periodic": true,
        "a_breaks": [0.0, 4.0], "a_values": [1.0], "a_periodic": false, "horizon": 4.0
    });
    let robot_poisson = json!({ "type": "poisson", "rate": 1.0 });
    vec![
        (
            "status names 0..=12",
            "status_string",
            json!({ "statuses": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }),
        ),
        // ---- dist ----
        (
            "exponential rate 5: moments",
            "dist.moment",
            json!({ "dist": exp5, "k": [1, 2, 3] }),
        ),
        (
            "erlang k=3 rate 2: moments",
            "dist.moment",
            json!({ "dist": { "type": "erlang", "k": 3, "rate": 2.0 }, "k": [1, 2, 3, 4] }),
        ),
        (
            "gamma shape 0.5 rate 0.5: moments",
            "dist.moment",
            json!({ "dist": { "type": "gamma", "shape": 0.5, "rate": 0.5 }, "k": [1, 2] }),
        ),
        (
            "hyperexponential: transform",
            "dist.transform",
            json!({
            "dist": { "type": "hyperexponential", "probs": [0.3, 0.7], "rates": [0.5, 4.0] },
            "s": [0.0, 0.1, 1.0, 10.0], "x": [0.0, 0.25, 1.0, 5.0] }),
        ),
        (
            "phase type order 2: moments",
            "dist.moment",
            json!({
            "dist": { "type": "phase_type", "alpha": [0.6, 0.4], "s": [-3.0, 1.0, 0.5, -2.0] }, "k": [1, 2, 3] }),
        ),
        (
            "coxian 3 phases: transform",
            "dist.transform",
            json!({
            "dist": { "type": "coxian", "rates": [2.0, 3.0, 1.5], "cont": [0.5, 0.25] },
            "s": [0.5, 2.0], "x": [0.1, 1.0, 3.0] }),
        ),
        (
            "deterministic 0.75: transform",
            "dist.transform",
            json!({
            "dist": { "type": "deterministic", "value": 0.75 }, "s": [1.0], "x": [0.5, 0.75, 1.0] }),
        ),
        (
            "empirical: moments",
            "dist.moment",
            json!({ "dist": { "type": "empirical", "samples": [0.5, 1.5, 1.0, 4.0] }, "k": [1, 2] }),
        ),
        (
            "exponential rate 5: seeded samples",
            "dist.sample",
            json!({ "dist": exp5, "seed": 42, "n": 5 }),
        ),
        (
            "gamma: seeded samples",
            "dist.sample",
            json!({ "dist": { "type": "gamma", "shape": 2.5, "rate": 1.5 }, "seed": 7, "n": 4 }),
        ),
        (
            "aph2 fit: moments",
            "dist.moment",
            json!({ "dist": { "type": "aph2", "m1": 1.0, "m2": 3.0, "m3": 15.0 }, "k": [1, 2, 3] }),
        ),
        (
            "h2 fit: moments",
            "dist.moment",
            json!({ "dist": { "type": "h2", "m1": 1.0, "m2": 4.0, "m3": 30.0 }, "k": [1, 2, 3] }),
        ),
        (
            "error: exponential rate 0",
            "dist.moment",
            json!({ "dist": { "type": "exponential", "rate": 0.0 }, "k": [1] }),
        ),
        (
            "error: hyperexponential probs do not sum to 1",
            "dist.moment",
            json!({
            "dist": { "type": "hyperexponential", "probs": [0.5, 0.6], "rates": [1.0, 2.0] }, "k": [1] }),
        ),
        (
            "error: h2 fit infeasible (cv^2 < 1)",
            "dist.moment",
            json!({ "dist": { "type": "h2", "m1": 1.0, "m2": 1.5, "m3": 3.0 }, "k": [1] }),
        ),
        // ---- bmap ----
        (
            "bmap poisson",
            "bmap.measures",
            json!({ "bmap": { "type": "poisson", "rate": 2.0 }, "moments": [1, 2], "lags": [1] }),
        ),
        (
            "bmap from matrices (batches of 1 and 2)",
            "bmap.measures",
            json!({
            "bmap": { "type": "matrices", "n": 2, "matrices": [-3.0, 1.0, 0.5, -1.5, 1.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.5] },
            "moments": [1, 2, 3], "lags": [1, 2] }),
        ),
        (
            "bmap fit",
            "bmap.measures",
            json!({
            "bmap": { "type": "fit", "mean": 1.0, "variance": 2.0, "lag1": 0.2, "batch_mean": 1.5, "max_batch": 4 },
            "moments": [1, 2], "lags": [1] }),
        ),
        (
            "bmap 2 of 3 independent poisson robots",
            "bmap.measures",
            json!({
            "bmap": { "type": "compose", "robot": robot_poisson, "how": "independent", "active": 2, "total": 3, "prob": 1.0 },
            "moments": [1], "lags": [1] }),
        ),
        // ---- freshness ----
        (
            "README example: exponential crawl time, three pages",
            "freshness.optimal_frequencies",
            json!({
            "access": exp5, "change_rates": [0.1, 0.5, 2.0], "weights": null }),
        ),
        (
            "weighted pages, gamma crawl time",
            "freshness.optimal_frequencies",
            json!({
            "access": { "type": "gamma", "shape": 0.5, "rate": 0.5 }, "change_rates": [0.05, 0.2, 1.0, 3.0], "weights": [1.0, 4.0, 1.0, 0.5] }),
        ),
        (
            "randomized policy",
            "freshness.randomized",
            json!({
            "access": exp5, "change_rates": [0.1, 0.5, 2.0], "weights": null, "freq": [0.25, 0.25, 0.5] }),
        ),
        (
            "integer counts, total 13",
            "freshness.integer_counts",
            json!({ "freq": [0.5, 0.3, 0.15, 0.05], "total": 13, "at_least_one": true }),
        ),
        (
            "fibonacci at least 100",
            "freshness.fibonacci_at_least",
            json!({ "n": 100 }),
        ),
        (
            "golden ratio sequence, counts 2,1,1 (N=4 example)",
            "freshness.golden_ratio_sequence",
            json!({ "counts": [2, 1, 1] }),
        ),
        (
            "golden ratio sequence, 13 slots",
            "freshness.golden_ratio_sequence",
            json!({ "counts": [5, 3, 3, 1, 1] }),
        ),
        (
            "round robin sequence",
            "freshness.round_robin_sequence",
            json!({ "counts": [3, 2, 1] }),
        ),
        (
            "cyclic cost of a sequence",
            "freshness.cyclic_cost",
            json!({
            "access": exp5, "change_rates": [0.1, 0.5, 2.0], "weights": null, "sequence": [2, 1, 2, 0, 2, 1] }),
        ),
        (
            "golden ratio bound",
            "freshness.golden_ratio_bound",
            json!({ "access": exp5, "change_rates": [0.1, 0.5, 2.0], "weights": null }),
        ),
        (
            "bound ratio H(1)",
            "freshness.bound_ratio",
            json!({ "q": 1.0 }),
        ),
        (
            "simulated cyclic cost, seeded",
            "freshness.simulate_cyclic",
            json!({
            "access": exp5, "change_rates": [0.1, 0.5, 2.0], "weights": null, "sequence": [2, 1, 2, 0], "cycles": 200, "seed": 3 }),
        ),
        (
            "error: cyclic sequence index out of range",
            "freshness.cyclic_cost",
            json!({
            "access": exp5, "change_rates": [0.1, 0.5], "weights": null, "sequence": [0, 1, 2] }),
        ),
        (
            "error: negative change rate",
            "freshness.optimal_frequencies",
            json!({
            "access": exp1, "change_rates": [1.0, -1.0], "weights": null }),
        ),
        // ---- per-host politeness (E[X] = 1/2: the crawler wants rate 2) ----
        (
            "polite plan, loose caps: the unconstrained plan",
            "freshness.polite_frequencies",
            json!({
            "access": exp2, "change_rates": polite_rates, "weights": null, "hosts": polite_hosts,
            "max_rates": ["inf", 100.0, "inf"], "objective": "evenly_spaced", "allow_slack": false }),
        ),
        (
            "polite plan, one tight host, evenly spaced",
            "freshness.polite_frequencies",
            json!({
            "access": exp2, "change_rates": polite_rates, "weights": null, "hosts": polite_hosts,
            "max_rates": ["inf", "inf", 0.6], "objective": "evenly_spaced", "allow_slack": false }),
        ),
        (
            "polite plan, one tight host, randomized",
            "freshness.polite_frequencies",
            json!({
            "access": exp2, "change_rates": polite_rates, "weights": null, "hosts": polite_hosts,
            "max_rates": ["inf", "inf", 0.6], "objective": "randomized", "allow_slack": false }),
        ),
        (
            "polite plan, weighted pages, gamma crawl time, two tight hosts of four (slack allowed, unused)",
            "freshness.polite_frequencies",
            json!({
            "access": { "type": "gamma", "shape": 2.0, "rate": 4.0 },
            "change_rates": [0.05, 0.2, 1.0, 3.0, 0.5, 0.7, 2.5, 0.1],
            "weights": [1.0, 4.0, 1.0, 0.5, 2.0, 1.0, 3.0, 1.0], "hosts": [3, 0, 1, 1, 2, 0, 1, 3],
            "max_rates": [0.5, 0.25, "inf", 0.5], "objective": "evenly_spaced", "allow_slack": true }),
        ),
        (
            "polite plan, caps below the crawl rate, allow slack",
            "freshness.polite_frequencies",
            json!({
            "access": exp2, "change_rates": polite_rates, "weights": null, "hosts": polite_hosts,
            "max_rates": [0.2, 0.3, 0.1], "objective": "randomized", "allow_slack": true }),
        ),
        (
            "error: polite plan, caps below the crawl rate",
            "freshness.polite_frequencies",
            json!({
            "access": exp2, "change_rates": polite_rates, "weights": null, "hosts": polite_hosts,
            "max_rates": [0.2, 0.3, 0.1], "objective": "evenly_spaced", "allow_slack": false }),
        ),
        (
            "error: polite plan, host id out of range",
            "freshness.polite_frequencies",
            json!({
            "access": exp2, "change_rates": [0.1, 0.3], "weights": null, "hosts": [0, 2],
            "max_rates": [1.0, 1.0], "objective": "evenly_spaced", "allow_slack": false }),
        ),
        // ---- estimator, scheduler ----
        (
            "estimator, no prior, five visits",
            "estimator.estimate",
            json!({ "prior": null, "visits": [
            { "interval": 1.0, "changed": true }, { "interval": 2.0, "changed": false }, { "interval": 0.5, "changed": true },
            { "interval": 3.0, "changed": true }, { "interval": 1.0, "changed": false } ] }),
        ),
        (
            "estimator with prior",
            "estimator.estimate",
            json!({ "prior": { "rate_guess": 0.5, "weight_time": 4.0 }, "visits": [
            { "interval": 1.0, "changed": true } ] }),
        ),
        (
            "error: estimator without information",
            "estimator.estimate",
            json!({ "prior": null, "visits": [] }),
        ),
        (
            "estimator state, no prior, irregular visits",
            "estimator.export_state",
            json!({ "prior": null, "visits": [
            { "interval": 1.0, "changed": true }, { "interval": 2.0, "changed": false }, { "interval": 0.5, "changed": true },
            { "interval": 3.0, "changed": true }, { "interval": 1.0, "changed": false }, { "interval": 0.5, "changed": true } ] }),
        ),
        (
            "estimator state with prior, no visit",
            "estimator.export_state",
            json!({ "prior": { "rate_guess": 0.5, "weight_time": 4.0 }, "visits": [] }),
        ),
        (
            "estimator state with prior, 200 visits",
            "estimator.export_state",
            json!({ "prior": { "rate_guess": 0.3, "weight_time": 2.0 }, "visits": (0..200).map(|k| json!({
                "interval": 0.25 * (1 + k % 9) as f64, "changed": k % 3 != 0 })).collect::<Vec<_>>() }),
        ),
        (
            "estimator state imported",
            "estimator.import_state",
            json!({ "state_hex": "c50100010200000000000000400000000000000840000000000000f03f01" }),
        ),
        (
            "error: estimator state truncated",
            "estimator.import_state",
            json!({ "state_hex": "c50100010200000000" }),
        ),
        (
            "error: estimator state of version 2",
            "estimator.import_state",
            json!({ "state_hex": "c50200010200000000000000400000000000000840000000000000f03f01" }),
        ),
        (
            "error: estimator state with a NaN time",
            "estimator.import_state",
            json!({ "state_hex": "c501000102000000000000f87f0000000000000840000000000000f03f01" }),
        ),
        (
            "scheduler due times, constant crawl time",
            "scheduler.due",
            json!({
            "access": { "type": "deterministic", "value": 0.5 }, "mode": "stride", "last_visit": 100.0, "observe": [], "import": [],
            "pages": [ { "id": 30, "change_rate": 5.0, "weight": null }, { "id": 10, "change_rate": 1.0, "weight": null },
                       { "id": 20, "change_rate": 2.0, "weight": null } ] }),
        ),
        (
            "scheduler due times with observations, an import and a page never due",
            "scheduler.due",
            json!({
            "access": exp1, "mode": "stride", "last_visit": -2.5,
            "observe": [ { "id": 1, "interval": 0.5, "changed": true }, { "id": 1, "interval": 2.0, "changed": false },
                         { "id": 2, "interval": 1.0, "changed": true } ],
            "import": [ { "id": 2, "state_hex": "c50100010200000000000000400000000000000840000000000000f03f01" } ],
            "pages": [ { "id": 1, "change_rate": 1.0, "weight": 1.0 }, { "id": 2, "change_rate": 1.0, "weight": 1.0 },
                       { "id": 3, "change_rate": 1.0, "weight": 0.02 } ] }),
        ),
        (
            "error: scheduler due time of an unknown page state",
            "scheduler.due",
            json!({
            "access": exp1, "mode": "stride", "last_visit": 0.0, "observe": [],
            "import": [ { "id": 9, "state_hex": "c50100010200000000000000400000000000000840000000000000f03f01" } ],
            "pages": [ { "id": 1, "change_rate": 1.0, "weight": null } ] }),
        ),
        (
            "stride scheduler, three pages",
            "scheduler.sequence",
            json!({
            "access": exp5, "mode": "stride", "n": 12, "observe": [],
            "pages": [ { "id": 10, "change_rate": 0.1, "weight": null }, { "id": 20, "change_rate": 0.5, "weight": null },
                       { "id": 30, "change_rate": 2.0, "weight": 3.0 } ] }),
        ),
        (
            "golden-ratio scheduler with observations",
            "scheduler.sequence",
            json!({
            "access": exp1, "mode": "golden_ratio", "n": 10,
            "observe": [ { "id": 1, "interval": 2.0, "changed": true }, { "id": 2, "interval": 2.0, "changed": false } ],
            "pages": [ { "id": 1, "change_rate": 0.2, "weight": null }, { "id": 2, "change_rate": 0.4, "weight": null } ] }),
        ),
        (
            "error: scheduler duplicate page",
            "scheduler.sequence",
            json!({
            "access": exp1, "mode": "stride", "n": 1, "observe": [],
            "pages": [ { "id": 7, "change_rate": 0.2, "weight": null }, { "id": 7, "change_rate": 0.4, "weight": null } ] }),
        ),
        (
            "stride scheduler, eight pages added in one batch",
            "scheduler.add_pages",
            json!({
            "access": exp5, "mode": "stride", "n": 40, "observe": [ { "id": 13, "interval": 1.5, "changed": true } ],
            "ids": [ 11, 12, 13, 14, 15, 16, 17, 18 ],
            "change_rates": [ 0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4 ], "weights": null }),
        ),
        (
            "golden-ratio scheduler, weighted pages added in one batch",
            "scheduler.add_pages",
            json!({
            "access": exp1, "mode": "golden_ratio", "n": 30, "observe": [],
            "ids": [ 5, 3, 9, 1, 7 ], "change_rates": [ 0.2, 0.4, 0.1, 0.8, 0.3 ],
            "weights": [ 1.0, 0.5, 2.0, 1.0, 0.3 ] }),
        ),
        (
            "error: scheduler batch repeats an id",
            "scheduler.add_pages",
            json!({
            "access": exp1, "mode": "stride", "n": 1, "observe": [],
            "ids": [ 7, 8, 7 ], "change_rates": [ 0.2, 0.4, 0.3 ], "weights": null }),
        ),
        (
            "error: scheduler batch with a negative weight",
            "scheduler.add_pages",
            json!({
            "access": exp1, "mode": "golden_ratio", "n": 1, "observe": [],
            "ids": [ 1, 2 ], "change_rates": [ 0.2, 0.4 ], "weights": [ 1.0, -2.0 ] }),
        ),
        (
            "scheduler hosts: every page on a host, waits on the caller's clock",
            "scheduler.hosts",
            json!({
            "access": exp1, "mode": "stride",
            "pages": [ { "id": 10, "change_rate": 0.4, "weight": null }, { "id": 11, "change_rate": 0.2, "weight": null },
                       { "id": 12, "change_rate": 1.0, "weight": 2.0 }, { "id": 13, "change_rate": 0.3, "weight": null },
                       { "id": 14, "change_rate": 0.8, "weight": null } ],
            "hosts": [ { "id": 10, "host": 0 }, { "id": 11, "host": 0 }, { "id": 12, "host": 1 },
                       { "id": 13, "host": 1 }, { "id": 14, "host": 4000000000u64 } ],
            "clear": [],
            "delays": [ { "host": 0, "delay": 1.0 }, { "host": 1, "delay": 0.5 }, { "host": 4000000000u64, "delay": 2.5 },
                        { "host": 9, "delay": 0.0 } ],
            "now": [0.0, 0.0, 0.0, 0.0, 0.25, 0.5, 0.5, 0.75, 1.0, 1.0, 1.25, 1.5, 2.0, 2.0, 2.5, 2.5, 2.5, 3.0, 3.0, 4.0] }),
        ),
        (
            "scheduler hosts: golden ratio, a page moved and one cleared (always ready)",
            "scheduler.hosts",
            json!({
            "access": exp5, "mode": "golden_ratio",
            "pages": [ { "id": 1, "change_rate": 0.5, "weight": null }, { "id": 2, "change_rate": 0.5, "weight": null },
                       { "id": 3, "change_rate": 2.0, "weight": null }, { "id": 4, "change_rate": 0.1, "weight": null } ],
            "hosts": [ { "id": 1, "host": 7 }, { "id": 2, "host": 7 }, { "id": 3, "host": 7 }, { "id": 4, "host": 8 },
                       { "id": 3, "host": 8 }, { "id": 2, "host": 9 } ],
            "clear": [2, 4],
            "delays": [ { "host": 7, "delay": 0.3 }, { "host": 8, "delay": 0.2 } ],
            "now": [0.0, 0.0, 0.0, 0.1, 0.1, 0.2, 0.3, 0.3, 0.4, 0.5, 0.6, 0.6] }),
        ),
        (
            "error: scheduler host delay negative",
            "scheduler.hosts",
            json!({
            "access": exp1, "mode": "stride", "pages": [ { "id": 1, "change_rate": 0.5, "weight": null } ],
            "hosts": [ { "id": 1, "host": 0 } ], "clear": [], "delays": [ { "host": 0, "delay": -1.0 } ], "now": [0.0] }),
        ),
        (
            "error: scheduler next_at before the previous call",
            "scheduler.hosts",
            json!({
            "access": exp1, "mode": "stride", "pages": [ { "id": 1, "change_rate": 0.5, "weight": null } ],
            "hosts": [ { "id": 1, "host": 0 } ], "clear": [], "delays": [ { "host": 0, "delay": 1.0 } ],
            "now": [2.0, 3.0, 2.5] }),
        ),
        // ---- mdp ----
        (
            "two-state mdp, relative value iteration",
            "mdp.solve",
            json!({
            "n_states": 2, "method": "relative_value_iteration", "criterion": "average", "discount": 0.0, "tau": 0.0,
            "tolerance": 1e-9, "max_iterations": 100000, "stopping": "span",
            "actions": [
                { "state": 0, "next": [0, 1], "prob": [0.5, 0.5], "cost": 1.0 },
                { "state": 0, "next": [1], "prob": [1.0], "cost": 3.0 },
                { "state": 1, "next": [0], "prob": [1.0], "cost": 0.0 },
                { "state": 1, "next": [1, 0], "prob": [0.9, 0.1], "cost": 2.0 } ] }),
        ),
        (
            "two-state mdp, discounted value iteration",
            "mdp.solve",
            json!({
            "n_states": 2, "method": "value_iteration", "criterion": "discounted", "discount": 0.9, "tau": 0.0,
            "tolerance": 1e-10, "max_iterations": 100000, "stopping": "span",
            "actions": [
                { "state": 0, "next": [0, 1], "prob": [0.5, 0.5], "cost": 1.0 },
                { "state": 1, "next": [0], "prob": [1.0], "cost": 2.0 },
                { "state": 1, "next": [1], "prob": [1.0], "cost": 1.5 } ] }),
        ),
        (
            "error: mdp probabilities do not sum to 1",
            "mdp.solve",
            json!({
            "n_states": 1, "method": "relative_value_iteration", "criterion": "average", "discount": 0.0, "tau": 0.0,
            "tolerance": 1e-9, "max_iterations": 1000, "stopping": "span",
            "actions": [ { "state": 0, "next": [0], "prob": [0.5], "cost": 1.0 } ] }),
        ),
        // ---- robots ----
        (
            "robots Table 1: N=7 K=5 lambda=0.1 gamma=0.4 (C_d 0.15239)",
            "robots.solve",
            json!({
            "n": 7, "k": 5, "lambda": 0.1, "mu": 1.0, "gamma": 0.4, "static_n": [1, 4, 7] }),
        ),
        (
            "robots Table 2: unlimited, K=5 (C_d 0.11097)",
            "robots.solve",
            json!({
            "n": null, "k": 5, "lambda": 0.1, "mu": 1.0, "gamma": 0.4, "static_n": [1] }),
        ),
        (
            "robots static policy",
            "robots.static",
            json!({ "lambda": 1.0, "mu": 2.0, "gamma": 5.0, "k": 10 }),
        ),
        (
            "error: robots mu = 0",
            "robots.solve",
            json!({ "n": 2, "k": 2, "lambda": 1.0, "mu": 0.0, "gamma": 1.0, "static_n": [] }),
        ),
        // ---- threshold ----
        (
            "threshold: 2 poisson robots, exponential service and obsolescence",
            "threshold.measures",
            json!({
            "arrivals": [ { "type": "poisson", "rate": 1.0 }, { "type": "poisson", "rate": 2.0 } ],
            "service": { "type": "exponential", "rate": 1.5 }, "obsolescence": { "type": "exponential", "rate": 0.2 },
            "buffer": 6, "modes": [2, 1], "thresholds": [3], "weights": [1.0, 1.0, 0.1, 0.2, 1.0] }),
        ),
        (
            "threshold: optimal thresholds, ph service, no obsolescence",
            "threshold.optimize",
            json!({
            "arrivals": [ { "type": "poisson", "rate": 0.8 }, { "type": "poisson", "rate": 1.6 }, { "type": "poisson", "rate": 2.4 } ],
            "service": { "type": "erlang", "k": 2, "rate": 3.0 }, "obsolescence": null,
            "buffer": 5, "modes": [3, 2, 1], "weights": [1.0, 0.0, 0.1, 0.3, 2.0], "max_evaluations": 1000 }),
        ),
        (
            "error: threshold modes not decreasing",
            "threshold.measures",
            json!({
            "arrivals": [ { "type": "poisson", "rate": 1.0 }, { "type": "poisson", "rate": 2.0 } ],
            "service": exp1, "obsolescence": null,
            "buffer": 3, "modes": [1, 2], "thresholds": [1], "weights": [1.0, 1.0, 0.0, 0.0, 0.0] }),
        ),
        // ---- routing ----
        (
            "routing: poisson to two servers, losses",
            "routing.cost",
            json!({
            "arrivals": { "type": "poisson", "rate": 1.0 }, "rates": [1.0, 2.0], "weights": null, "objective": "losses",
            "sequence": [0, 1, 1] }),
        ),
        (
            "routing: mmpp, robot objective",
            "routing.cost",
            json!({
            "arrivals": two_state_mmpp, "rates": [0.3, 1.0, 0.5], "weights": [1.0, 2.0, 1.0], "objective": "robot",
            "sequence": [1, 0, 1, 2] }),
        ),
        (
            "routing: map arrivals",
            "routing.cost",
            json!({
            "arrivals": { "type": "map", "n": 2, "d0": [-2.0, 1.0, 0.0, -1.0], "d1": [1.0, 0.0, 0.5, 0.5] },
            "rates": [1.0, 1.0], "weights": null, "objective": "losses", "sequence": [0, 1] }),
        ),
        (
            "routing: exhaustive optimum, 3 servers",
            "routing.optimize_exhaustive",
            json!({
            "arrivals": { "type": "poisson", "rate": 1.0 }, "rates": [1.0, 2.0, 4.0], "weights": null, "objective": "losses",
            "min_period": 1, "max_period": 6 }),
        ),
        (
            "routing: Figure 1 switch point n=2 (1 + sqrt 2)",
            "routing.switch_point",
            json!({ "n": 2 }),
        ),
        (
            "routing: Figure 1 switch point n=5",
            "routing.switch_point",
            json!({ "n": 5 }),
        ),
        (
            "routing: g(3, 4)",
            "routing.two_server_cost",
            json!({ "n": 3, "mu2": 4.0 }),
        ),
        (
            "routing: balanced sequence",
            "routing.balanced_sequence",
            json!({ "counts": [3, 2, 1] }),
        ),
        (
            "routing: router",
            "routing.router",
            json!({ "sequence": [0, 1, 1, 2], "servers": 3, "n": 10 }),
        ),
        (
            "error: routing server index out of range",
            "routing.cost",
            json!({
            "arrivals": { "type": "poisson", "rate": 1.0 }, "rates": [1.0, 2.0], "weights": null, "objective": "losses",
            "sequence": [0, 2] }),
        ),
        // ---- probe ----
        (
            "probe: DBWorld week, 14 probes, Lagrangian",
            "probe.optimal",
            json!({
            "profile": dbworld, "grid": 168, "delta": 0.0, "n": 14, "method": "lagrangian" }),
        ),
        (
            "probe: DBWorld week, 14 probes, reference DP",
            "probe.optimal",
            json!({
            "profile": dbworld, "grid": 168, "delta": 0.0, "n": 14, "method": "reference" }),
        ),
        (
            "probe: piecewise profile costs",
            "probe.cost",
            json!({
            "profile": flat, "s": 0.5, "f": 2.5, "probes": [1.0, 2.0, 3.0, 4.0], "updates": [0.2, 0.4, 1.5, 2.2, 3.9] }),
        ),
        (
            "probe: threshold policy on MicroNet",
            "probe.policy",
            json!({
            "profile": { "type": "micronet", "ratio": 2.0, "horizon_days": 2.0 }, "policy": "threshold", "parameter": 0.5 }),
        ),
        (
            "probe: first-arrival policy",
            "probe.policy",
            json!({ "profile": flat, "policy": "first_arrival", "parameter": 0.6 }),
        ),
        (
            "error: probe more probes than grid points",
            "probe.optimal",
            json!({
            "profile": flat, "grid": 4, "delta": 0.0, "n": 5, "method": "lagrangian" }),
        ),
    ]
}

#[test]
fn shared_test_vectors_match_the_committed_file() {
    let mut out = Vec::new();
    let mut names = std::collections::HashSet::new();
    for (name, kind, input) in cases() {
        assert!(names.insert(name), "duplicate case name {name}");
        let expected = match run(kind, &input) {
            Ok(v) => v,
            Err((status, message)) => {
                assert!(
                    name.starts_with("error:"),
                    "case {name} failed: {status} {message}"
                );
                json!({ "error": { "status": status, "message": message } })
            }
        };
        assert!(
            !name.starts_with("error:") || expected.get("error").is_some(),
            "case {name} should fail but succeeded: {expected}"
        );
        // JSON has no NaN or infinity: serde_json would write null.
        assert!(
            !expected.to_string().contains("null"),
            "case {name}: non-finite output {expected}"
        );
        let mut case = Map::new();
        case.insert("name".into(), json!(name));
        case.insert("kind".into(), json!(kind));
        case.insert("input".into(), input);
        case.insert("expected".into(), expected);
        out.push(Value::Object(case));
    }
    let doc = json!({
        "about": "Generated by tests/test_vectors.rs from the C API (format: bindings/testdata/README.md). \
                  Regenerate with CRAWLSCHED_BLESS=1 cargo test --test test_vectors.",
        "abi_version": crawlsched_abi_version(),
        "cases": out,
    });
    let text = serde_json::to_string_pretty(&doc).expect("render") + "\n";
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/bindings/testdata/vectors.json"
    );
    if std::env::var("CRAWLSCHED_BLESS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(std::path::Path::new(path).parent().unwrap()).expect("mkdir");
        std::fs::write(path, &text).expect("write bindings/testdata/vectors.json");
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == text,
        "bindings/testdata/vectors.json differs from the cases: run CRAWLSCHED_BLESS=1 cargo test --test test_vectors"
    );
}

/// Every `scheduler.add_pages` case gives what the same pages added one by
/// one give (`scheduler.sequence`: `_add_page` when weights is null, else
/// `_add_weighted_page`), so a binding that replays it checks the batch
/// against the one-by-one adds.
#[test]
fn add_pages_cases_equal_one_by_one_adds() {
    let mut checked = 0;
    for (name, kind, input) in cases() {
        if kind != "scheduler.add_pages" {
            continue;
        }
        let (ids, rates, weights) = (
            ua(&input, "ids"),
            fa(&input, "change_rates"),
            fa_opt(&input, "weights"),
        );
        let pages: Vec<Value> = (0..ids.len())
            .map(|k| json!({ "id": ids[k], "change_rate": rates[k], "weight": weights.as_ref().map(|w| w[k]) }))
            .collect();
        let mut one_by_one = input.clone();
        one_by_one["pages"] = json!(pages);
        let (batch, single) = (run(kind, &input), run("scheduler.sequence", &one_by_one));
        match (&batch, &single) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{name}"),
            (Err(_), Err(_)) => assert!(name.starts_with("error:"), "{name}"),
            _ => panic!("{name}: batch {batch:?}, one by one {single:?}"),
        }
        checked += 1;
    }
    assert!(checked >= 2);
}
