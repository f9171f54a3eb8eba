//! The fuzz harness: drives the `extern "C"` entry points that take arrays
//! or matrices with fuzzer-chosen lengths and values, and checks the C
//! contract on every call. Shared, unchanged, by the cargo-fuzz targets
//! (`fuzz/fuzz_targets/*.rs`, nightly or `RUSTC_BOOTSTRAP`) and by the
//! stable test `tests/fuzz_regressions.rs`, which replays every input kept
//! in `fuzz/regressions/<target>/`, so a crash found once stays a test.
//!
//! Checked on every call (a violation panics, which libFuzzer reports as a
//! crash and the regression test as a failure):
//! - the status is one of the documented codes and is neither
//!   `CRAWLSCHED_PANIC` (a bug caught at the boundary) nor
//!   `CRAWLSCHED_INTERNAL`;
//! - the error struct and the per-thread last error agree with the status,
//!   and the message is NUL-terminated (empty on success, not on failure);
//! - out-parameters and output buffers are untouched on failure (except the
//!   needed length on `CRAWLSCHED_BUFFER_TOO_SMALL`);
//! - a successful call never reports NaN or an infinity in a floating-point
//!   result;
//! - a failure's whole message fits the error struct (255 bytes) and prints
//!   no number digit by digit (no run of more than 21 digits: u64s have 20,
//!   `Num` prints at most 21).
//!
//! Lengths passed to C never exceed the buffers actually supplied (the C
//! contract); everything else (values, mismatched lengths, NULL, huge
//! sizes) is the fuzzer's choice. Parameters that scale the work (sample
//! counts, horizons, iteration limits) are kept small so that one input runs
//! in milliseconds; an oversized one is still offered now and then, which
//! must be refused quickly.

#![allow(clippy::too_many_lines, clippy::missing_safety_doc, dead_code)]

use crawlsched::ffi::*;
use std::ffi::CStr;
use std::ptr::{null, null_mut};

/// The fuzz targets, one per family of entry points.
pub const TARGETS: &[&str] = &["dist", "freshness", "mdp", "arrivals", "probe"];

/// Runs one input through the family named `target`.
pub fn run(target: &str, data: &[u8]) {
    // The library's process-wide memory cap (default: the machine's
    // memory) at 1 GiB, below libFuzzer's -rss_limit_mb=2048: a model or
    // profile too large for it must be refused with TOO_LARGE, as a C
    // caller setting a cap would see (a ten-year DBWorld profile otherwise
    // takes 2.3 GB).
    crawlsched_set_default_memory_limit(1 << 30);
    assert_eq!(
        crawlsched_get_default_memory_limit(),
        1 << 30,
        "the process-wide memory cap did not stick"
    );
    // SAFETY: the library's version is a static NUL-terminated string.
    let version = unsafe { std::ffi::CStr::from_ptr(crawlsched_version()) };
    assert!(
        version
            .to_str()
            .is_ok_and(|v| v.starts_with(|c: char| c.is_ascii_digit())),
        "crawlsched_version: {version:?}"
    );
    let mut h = Harness::new(data);
    // SAFETY: every pointer handed to C below is NULL or valid for the
    // length passed with it, and every handle is live until freed once.
    unsafe {
        match target {
            "dist" => dist(&mut h),
            "freshness" => freshness(&mut h),
            "mdp" => mdp(&mut h),
            "arrivals" => arrivals(&mut h),
            "probe" => probe(&mut h),
            _ => panic!("unknown fuzz target {target}"),
        }
    }
}

// ---------------------------------------------------------------- input

/// Decodes the fuzzer's bytes into lengths and values; past the end it
/// reads zeros, so every input is a complete program.
pub struct Harness<'a> {
    data: &'a [u8],
    err: crawlsched_error_t,
    /// Calls checked so far (for the regression test's summary).
    pub calls: u64,
}

/// Values worth trying at any floating-point parameter.
const SPECIAL: [f64; 20] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    0.0,
    -0.0,
    f64::MIN_POSITIVE,
    5e-324,
    f64::MAX,
    -f64::MAX,
    1e-9,
    1e9,
    1e-300,
    1e300,
    -1.0,
    1.0,
    0.5,
    2.0,
    1e-15,
    1e15,
    0.999_999_999_999,
];

impl<'a> Harness<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Harness {
            data,
            err: crawlsched_error_t {
                status: -1,
                message: [0; CRAWLSCHED_ERROR_MESSAGE_SIZE],
            },
            calls: 0,
        }
    }

    fn e(&mut self) -> *mut crawlsched_error_t {
        // A stale, non-NUL-terminated message: every call must rewrite it.
        self.err.status = -1;
        self.err.message = [b'x' as _; CRAWLSCHED_ERROR_MESSAGE_SIZE];
        &mut self.err
    }

    pub fn done(&self) -> bool {
        self.data.is_empty()
    }

    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    fn u16(&mut self) -> u16 {
        u16::from(self.byte()) | (u16::from(self.byte()) << 8)
    }

    fn bool(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// A count in 0..=max, mostly small.
    fn small(&mut self, max: usize) -> usize {
        usize::from(self.byte()) % (max + 1)
    }

    /// A u64 size: small mostly, sometimes huge.
    fn size(&mut self, max: u64) -> u64 {
        match self.byte() % 8 {
            0 => u64::MAX,
            1 => u64::from(u32::MAX) + 1,
            2 => 1u64 << (self.byte() % 64),
            _ => u64::from(self.byte()) % (max + 1),
        }
    }

    /// A u32 index: small mostly, sometimes out of any range.
    fn index(&mut self, max: u32) -> u32 {
        match self.byte() % 8 {
            0 => u32::MAX,
            1 => u32::from(self.byte()),
            _ => u32::from(self.byte()) % (max + 1),
        }
    }

    /// Any f64: small exact values, special values, log-uniform magnitudes
    /// from 1e-16 to 1e16, or raw bit patterns (NaN payloads, subnormals).
    pub fn f64(&mut self) -> f64 {
        let tag = self.byte();
        match tag % 8 {
            0..=2 => f64::from(self.byte() as i8) / 4.0,
            3 => SPECIAL[usize::from(self.byte()) % SPECIAL.len()],
            4 => {
                let mut raw = [0u8; 8];
                for r in &mut raw {
                    *r = self.byte();
                }
                f64::from_le_bytes(raw)
            }
            _ => {
                let x = 10f64.powf(f64::from(self.u16()) / 65535.0 * 32.0 - 16.0);
                if tag & 0x80 != 0 { -x } else { x }
            }
        }
    }

    /// A positive value of moderate size, or now and then anything.
    fn pos(&mut self, max: f64) -> f64 {
        if self.byte().is_multiple_of(8) {
            return self.f64();
        }
        f64::from(self.u16()) / 65535.0 * max
    }

    fn vec(&mut self, n: usize) -> Vec<f64> {
        (0..n).map(|_| self.f64()).collect()
    }

    /// A length to pass with a buffer of `n` elements: usually `n`,
    /// sometimes shorter (never longer: that would break the C contract).
    fn len_for(&mut self, n: usize) -> usize {
        if self.byte().is_multiple_of(8) {
            self.small(n)
        } else {
            n
        }
    }

    /// A pointer to `v`, or NULL now and then.
    fn ptr<T>(&mut self, v: &[T]) -> *const T {
        if self.byte().is_multiple_of(16) {
            null()
        } else {
            v.as_ptr()
        }
    }

    // ------------------------------------------------------- the checks

    /// Checks one call's status and error reporting; `untouched` says
    /// whether its out-parameters still hold their sentinels.
    fn check(&mut self, name: &str, st: crawlsched_status_t, untouched: bool) -> bool {
        self.calls += 1;
        if std::env::var_os("CRAWLSCHED_FUZZ_TRACE").is_some() {
            eprintln!("{name}: status {st}: {}", message(&self.err));
        }
        assert!((0..=11).contains(&st), "{name}: undocumented status {st}");
        // SAFETY: a static NUL-terminated string for every status.
        let text = unsafe { CStr::from_ptr(crawlsched_status_string(st)) };
        assert!(
            !text.to_bytes().is_empty(),
            "{name}: status {st} has no name"
        );
        let msg = message(&self.err);
        assert!(st != CRAWLSCHED_PANIC, "{name}: caught panic: {msg}");
        assert!(st != CRAWLSCHED_INTERNAL, "{name}: internal error: {msg}");
        assert_eq!(
            self.err.status, st,
            "{name}: err.status differs from the return value"
        );
        if st == CRAWLSCHED_OK {
            assert!(msg.is_empty(), "{name}: success with a message: {msg}");
        } else {
            assert!(!msg.is_empty(), "{name}: status {st} without a message");
            assert!(
                untouched,
                "{name}: status {st} ({msg}) but an out-parameter was written"
            );
            assert_eq!(
                crawlsched_last_error_status(),
                st,
                "{name}: last error status"
            );
            // SAFETY: the library returns a NUL-terminated thread-local string.
            let last = unsafe { CStr::from_ptr(crawlsched_last_error_message()) };
            // err.message holds the first 255 bytes of the same message.
            let last = last.to_string_lossy();
            assert!(
                last.starts_with(&msg),
                "{name}: last error {last:?} vs {msg:?}"
            );
            // The whole reason reaches a C caller: it fits the struct, and
            // no double is printed digit by digit.
            assert!(
                last.len() < CRAWLSCHED_ERROR_MESSAGE_SIZE,
                "{name}: message of {} bytes is truncated: {last:?}",
                last.len()
            );
            assert!(
                longest_digit_run(&last) <= 21,
                "{name}: message prints a number in full: {last:?}"
            );
        }
        st == CRAWLSCHED_OK
    }

    /// `check`, plus: on success no NaN among `results`.
    fn check_f(
        &mut self,
        name: &str,
        st: crawlsched_status_t,
        untouched: bool,
        results: &[f64],
    ) -> bool {
        let ok = self.check(name, st, untouched);
        if ok {
            for (i, x) in results.iter().enumerate() {
                assert!(x.is_finite(), "{name}: success with {x} in result {i}");
            }
        }
        ok
    }
}

fn longest_digit_run(s: &str) -> usize {
    s.split(|c: char| !c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0)
}

fn message(err: &crawlsched_error_t) -> String {
    let bytes: Vec<u8> = err.message.iter().map(|&c| c as u8).collect();
    let nul = bytes
        .iter()
        .position(|&b| b == 0)
        .expect("error message not NUL-terminated");
    String::from_utf8_lossy(&bytes[..nul]).into_owned()
}

/// Out-parameter values that no call returns: a write shows as a change.
pub trait Sentinel: Copy {
    const S: Self;
    fn is_s(&self) -> bool;
}
impl Sentinel for f64 {
    const S: f64 = f64::from_bits(0x7ff4_dead_beef_0001);
    fn is_s(&self) -> bool {
        self.to_bits() == Self::S.to_bits()
    }
}
macro_rules! int_sentinel {
    ($($t:ty = $v:expr),*) => {$(
        impl Sentinel for $t {
            const S: $t = $v;
            fn is_s(&self) -> bool { *self == Self::S }
        }
    )*};
}
int_sentinel!(
    u8 = 0xa5,
    u64 = 0xdead_beef_dead_beef,
    usize = 0xdead_beef_dead_beef,
    u32 = 0xdead_beef,
    i32 = 0x5eed_5eed,
    i64 = -0x5eed_5eed_5eed
);

fn all_s<T: Sentinel>(v: &[T]) -> bool {
    v.iter().all(Sentinel::is_s)
}

/// An output buffer of `cap` sentinels; its pointer is NULL when cap is 0
/// and the fuzzer says so.
struct Buf<T: Sentinel> {
    v: Vec<T>,
    null: bool,
}
impl<T: Sentinel> Buf<T> {
    fn new(h: &mut Harness, max: usize) -> Self {
        let cap = h.small(max);
        let null = cap == 0 && h.bool();
        Buf {
            v: vec![T::S; cap],
            null,
        }
    }
    fn ptr(&mut self) -> *mut T {
        if self.null {
            null_mut()
        } else {
            self.v.as_mut_ptr()
        }
    }
    fn cap(&self) -> usize {
        self.v.len()
    }
    fn untouched(&self) -> bool {
        all_s(&self.v)
    }
}

/// Handles, freed on every exit path (a failed assertion included).
macro_rules! owned {
    ($name:ident, $t:ty, $free:ident) => {
        struct $name(*mut $t);
        impl Drop for $name {
            fn drop(&mut self) {
                // SAFETY: a live handle or NULL, freed once.
                unsafe { $free(self.0) }
            }
        }
    };
}
owned!(Dist, crawlsched_dist_t, crawlsched_dist_free);
owned!(
    Model,
    crawlsched_freshness_model_t,
    crawlsched_freshness_model_free
);
owned!(Est, crawlsched_estimator_t, crawlsched_estimator_free);
owned!(
    Shard,
    crawlsched_freshness_shard_t,
    crawlsched_freshness_shard_free
);
owned!(
    Search,
    crawlsched_freshness_multiplier_search_t,
    crawlsched_freshness_multiplier_search_free
);
owned!(Sched, crawlsched_scheduler_t, crawlsched_scheduler_free);
owned!(
    Builder,
    crawlsched_mdp_builder_t,
    crawlsched_mdp_builder_free
);
owned!(Mdp, crawlsched_mdp_t, crawlsched_mdp_free);
owned!(Solver, crawlsched_mdp_solver_t, crawlsched_mdp_solver_free);
owned!(Robots, crawlsched_robots_t, crawlsched_robots_free);
owned!(
    Arrivals,
    crawlsched_routing_arrivals_t,
    crawlsched_routing_arrivals_free
);
owned!(
    Servers,
    crawlsched_routing_servers_t,
    crawlsched_routing_servers_free
);
owned!(
    Router,
    crawlsched_routing_router_t,
    crawlsched_routing_router_free
);
owned!(Bmap, crawlsched_bmap_t, crawlsched_bmap_free);
owned!(
    Thresh,
    crawlsched_threshold_model_t,
    crawlsched_threshold_model_free
);
owned!(
    Profile,
    crawlsched_probe_profile_t,
    crawlsched_probe_profile_free
);
owned!(
    Planner,
    crawlsched_probe_planner_t,
    crawlsched_probe_planner_free
);
owned!(Control, crawlsched_control_t, crawlsched_control_free);

/// Calls a constructor `f(..., &mut out, err)`; returns the handle (or NULL
/// on failure, after checking that `out` was left alone).
macro_rules! make {
    ($h:ident, $f:ident ( $($a:expr),* )) => {{
        let mut out = std::ptr::null_mut();
        let e = $h.e();
        let st = $f($($a,)* &mut out, e);
        if $h.check(stringify!($f), st, out.is_null()) {
            assert!(!out.is_null(), "{}: success without a handle", stringify!($f));
            out
        } else {
            std::ptr::null_mut()
        }
    }};
}

/// Calls `f(..., &mut x, err)` for one f64 result.
macro_rules! get_f {
    ($h:ident, $f:ident ( $($a:expr),* )) => {{
        let mut x = f64::S;
        let e = $h.e();
        let st = $f($($a,)* &mut x, e);
        $h.check_f(stringify!($f), st, x.is_s(), &[x]);
    }};
}

// ---------------------------------------------------------------- dist

unsafe fn new_dist(h: &mut Harness) -> *mut crawlsched_dist_t {
    unsafe {
        match h.byte() % 11 {
            0 => make!(h, crawlsched_dist_deterministic_new(h.f64())),
            1 => make!(h, crawlsched_dist_exponential_new(h.f64())),
            2 => make!(h, crawlsched_dist_erlang_new(h.index(40), h.f64())),
            3 => make!(h, crawlsched_dist_gamma_new(h.f64(), h.f64())),
            4 => {
                let n = h.small(6);
                let p = h.vec(n);
                let r = h.vec(n);
                let len = h.len_for(n);
                make!(
                    h,
                    crawlsched_dist_hyperexponential_new(h.ptr(&p), h.ptr(&r), len)
                )
            }
            5 => {
                let n = h.small(5);
                let a = h.vec(n);
                let s = h.vec(n * n);
                let (la, ls) = (h.len_for(n), h.len_for(n * n));
                make!(
                    h,
                    crawlsched_dist_phase_type_new(h.ptr(&a), la, h.ptr(&s), ls)
                )
            }
            6 => {
                let n = h.small(6);
                let r = h.vec(n);
                let c = h.vec(n.saturating_sub(1));
                let (lr, lc) = (h.len_for(n), h.len_for(c.len()));
                make!(h, crawlsched_dist_coxian_new(h.ptr(&r), lr, h.ptr(&c), lc))
            }
            7 => {
                let n = h.small(24);
                let s = h.vec(n);
                let len = h.len_for(n);
                make!(h, crawlsched_dist_empirical_new(h.ptr(&s), len))
            }
            8 => make!(h, crawlsched_dist_fit_aph2_new(h.f64(), h.f64(), h.f64())),
            9 => make!(h, crawlsched_dist_fit_h2_new(h.f64(), h.f64(), h.f64())),
            _ => {
                // A valid phase-type with fuzzer-scaled rates (extreme but legal).
                let scale = h.pos(1e9).max(1e-9);
                let a = [0.5, 0.5];
                let s = [-scale, scale * 0.5, 0.0, -scale * h.pos(2.0).max(1e-9)];
                make!(
                    h,
                    crawlsched_dist_phase_type_new(a.as_ptr(), 2, s.as_ptr(), 4)
                )
            }
        }
    }
}

unsafe fn use_dist(h: &mut Harness, d: *const crawlsched_dist_t) {
    unsafe {
        match h.byte() % 6 {
            0 => get_f!(h, crawlsched_dist_mean(d)),
            1 => get_f!(h, crawlsched_dist_variance(d)),
            2 => get_f!(h, crawlsched_dist_moment(d, h.index(12))),
            3 => get_f!(h, crawlsched_dist_laplace(d, h.f64())),
            4 => get_f!(h, crawlsched_dist_cdf(d, h.f64())),
            _ => {
                let mut b = Buf::<f64>::new(h, 32);
                let seed = u64::from(h.byte());
                let n = h.len_for(b.cap());
                let e = h.e();
                let st = crawlsched_dist_sample(d, seed, b.ptr(), n, e);
                let written = b.v[..n].to_vec();
                h.check_f("crawlsched_dist_sample", st, b.untouched(), &written);
            }
        }
    }
}

unsafe fn dist(h: &mut Harness) {
    unsafe {
        let d = Dist(new_dist(h));
        for _ in 0..8 {
            if h.done() {
                break;
            }
            use_dist(h, d.0);
        }
    }
}

// ----------------------------------------------------------- freshness

unsafe fn freshness(h: &mut Harness) {
    unsafe {
        match h.byte() % 4 {
            0 => freshness_model(h),
            1 => estimator(h),
            2 => scheduler(h),
            _ => sequences(h),
        }
    }
}

unsafe fn freshness_model(h: &mut Harness) {
    unsafe {
        let d = Dist(new_dist(h));
        let n = h.small(8);
        let mu = h.vec(n);
        let w = h.vec(n);
        let wp = if h.bool() { null() } else { w.as_ptr() };
        let len = h.len_for(n);
        let m = Model(make!(
            h,
            crawlsched_freshness_model_new(d.0, h.ptr(&mu), wp, len)
        ));
        let m = m.0 as *const crawlsched_freshness_model_t;
        for _ in 0..8 {
            if h.done() {
                break;
            }
            // Bytes from 240 select the entry points added after the
            // first regression inputs (which decode as before below it).
            let pick = h.byte();
            if pick >= 240 {
                if pick.is_multiple_of(2) {
                    polite(h, m, len);
                } else {
                    shards(h, m);
                }
                continue;
            }
            match pick % 12 {
                0 => {
                    let mut x = usize::S;
                    let e = h.e();
                    let st = crawlsched_freshness_model_len(m, &mut x, e);
                    h.check("crawlsched_freshness_model_len", st, x.is_s());
                }
                k @ 1..=3 => {
                    let mut b = Buf::<f64>::new(h, 10);
                    let e = h.e();
                    let (name, st) = match k {
                        1 => (
                            "crawlsched_freshness_model_h",
                            crawlsched_freshness_model_h(m, b.ptr(), b.cap(), e),
                        ),
                        2 => (
                            "crawlsched_freshness_optimal_frequencies",
                            crawlsched_freshness_optimal_frequencies(m, b.ptr(), b.cap(), e),
                        ),
                        _ => (
                            "crawlsched_freshness_randomized_optimal_frequencies",
                            crawlsched_freshness_randomized_optimal_frequencies(
                                m,
                                b.ptr(),
                                b.cap(),
                                e,
                            ),
                        ),
                    };
                    let written: Vec<f64> = b.v.iter().copied().take(len).collect();
                    h.check_f(name, st, b.untouched(), &written);
                }
                4 => get_f!(h, crawlsched_freshness_lower_bound(m)),
                5 => get_f!(h, crawlsched_freshness_randomized_optimal_cost(m)),
                6 => get_f!(h, crawlsched_freshness_golden_ratio_bound(m)),
                k @ 7..=8 => {
                    let nf = h.small(10);
                    let f = h.vec(nf);
                    let lf = h.len_for(nf);
                    if k == 7 {
                        get_f!(h, crawlsched_freshness_cost(m, h.ptr(&f), lf));
                    } else {
                        get_f!(h, crawlsched_freshness_randomized_cost(m, h.ptr(&f), lf));
                    }
                }
                9 => {
                    let nf = h.small(10);
                    let f = h.vec(nf);
                    let lf = h.len_for(nf);
                    let mut b = Buf::<f64>::new(h, 10);
                    let e = h.e();
                    let st = crawlsched_freshness_obsolescence_bound(
                        m,
                        h.ptr(&f),
                        lf,
                        b.ptr(),
                        b.cap(),
                        e,
                    );
                    let written: Vec<f64> = b.v.iter().copied().take(len).collect();
                    h.check_f(
                        "crawlsched_freshness_obsolescence_bound",
                        st,
                        b.untouched(),
                        &written,
                    );
                }
                _ => {
                    let ns = h.small(16);
                    let seq: Vec<u32> = (0..ns).map(|_| h.index(9)).collect();
                    let ls = h.len_for(ns);
                    match h.byte() % 3 {
                        0 => get_f!(h, crawlsched_freshness_cyclic_cost(m, h.ptr(&seq), ls)),
                        1 => {
                            let mut b = Buf::<f64>::new(h, 10);
                            let e = h.e();
                            let st = crawlsched_freshness_cyclic_obsolescence(
                                m,
                                h.ptr(&seq),
                                ls,
                                b.ptr(),
                                b.cap(),
                                e,
                            );
                            let written: Vec<f64> = b.v.iter().copied().take(len).collect();
                            h.check_f(
                                "crawlsched_freshness_cyclic_obsolescence",
                                st,
                                b.untouched(),
                                &written,
                            );
                        }
                        _ => {
                            let cycles = h.size(50);
                            let cycles = if cycles > 1000 && h.bool() {
                                50
                            } else {
                                cycles.min(1 << 12)
                            };
                            let (mut c, mut se) = (f64::S, f64::S);
                            let seed = u64::from(h.byte());
                            let e = h.e();
                            let st = crawlsched_freshness_simulate_cyclic(
                                m,
                                h.ptr(&seq),
                                ls,
                                cycles,
                                seed,
                                std::ptr::null(),
                                &mut c,
                                &mut se,
                                e,
                            );
                            h.check_f(
                                "crawlsched_freshness_simulate_cyclic",
                                st,
                                c.is_s() && se.is_s(),
                                &[c, se],
                            );
                        }
                    }
                }
            }
        }
    }
}

/// crawlsched_freshness_polite_frequencies on a model of (nominally) `n`
/// pages: host indices and caps of the fuzzer's choosing (out of range,
/// NaN, 0, +∞), any objective and flags, every optional output present or
/// NULL. On success: a frequency vector summing to 1, saturation flags 0
/// or 1, and finite values where they are documented finite.
unsafe fn polite(h: &mut Harness, m: *const crawlsched_freshness_model_t, n: usize) {
    unsafe {
        let np = h.len_for(n);
        let n_hosts = h.small(4);
        let hosts: Vec<u32> = (0..np).map(|_| h.index(n_hosts as u32)).collect();
        let caps: Vec<f64> = (0..n_hosts)
            .map(|_| if h.bool() { f64::INFINITY } else { h.f64() })
            .collect();
        let nh = h.len_for(n_hosts);
        let objective = i32::from(h.byte() % 4) - 1;
        let flags = u32::from(h.byte() % 3);
        let ctl = new_control(h);
        let mut out = Buf::<f64>::new(h, 10);
        let mut out_len = usize::S;
        let mut sat = vec![u8::S; n_hosts];
        let mut lnh = vec![f64::S; n_hosts];
        let (want_sat, want_lnh) = (h.bool(), h.bool());
        let (mut lnm, mut obj, mut rate) = (f64::S, f64::S, f64::S);
        let wants = [h.bool(), h.bool(), h.bool()];
        let opt = |want: bool, x: &mut f64| if want { x as *mut f64 } else { null_mut() };
        let e = h.e();
        let st = crawlsched_freshness_polite_frequencies(
            m,
            h.ptr(&hosts),
            np,
            h.ptr(&caps),
            nh,
            objective,
            flags,
            ctl.0,
            out.ptr(),
            out.cap(),
            &mut out_len,
            if want_sat {
                sat.as_mut_ptr()
            } else {
                null_mut()
            },
            if want_lnh {
                lnh.as_mut_ptr()
            } else {
                null_mut()
            },
            opt(wants[0], &mut lnm),
            opt(wants[1], &mut obj),
            opt(wants[2], &mut rate),
            e,
        );
        let untouched = out.untouched()
            && all_s(&sat)
            && all_s(&lnh)
            && lnm.is_s()
            && obj.is_s()
            && rate.is_s();
        if st == CRAWLSCHED_BUFFER_TOO_SMALL {
            h.check("crawlsched_freshness_polite_frequencies", st, untouched);
            assert!(
                out_len > out.cap(),
                "polite: too small for {out_len} with {}",
                out.cap()
            );
            return;
        }
        if !h.check(
            "crawlsched_freshness_polite_frequencies",
            st,
            untouched && out_len.is_s(),
        ) {
            return;
        }
        if out.cap() == 0 {
            // A query of N: nothing else is written.
            assert!(
                all_s(&sat) && all_s(&lnh) && lnm.is_s(),
                "polite: a length query wrote results"
            );
            return;
        }
        let f = &out.v[..out_len];
        assert!(
            f.iter().all(|x| x.is_finite() && *x >= 0.0),
            "polite: frequencies {f:?}"
        );
        // Σ f = 1, or less with slack (the crawler idles the rest).
        let total: f64 = f.iter().sum();
        let slack = flags & CRAWLSCHED_POLITE_ALLOW_SLACK != 0;
        assert!(
            total < 1.0 + 1e-9 && (slack || total > 1.0 - 1e-9),
            "polite: frequencies sum to {total} (flags {flags})"
        );
        if want_sat {
            assert!(
                sat[..nh].iter().all(|&b| b <= 1),
                "polite: saturated {sat:?}"
            );
        }
        if wants[1] {
            assert!(obj.is_finite(), "polite: objective {obj}");
        }
        if wants[2] {
            assert!(rate.is_finite() && rate > 0.0, "polite: crawl rate {rate}");
        }
        if want_lnh {
            assert!(
                lnh[..nh].iter().all(|x| !x.is_nan()),
                "polite: ln multipliers {lnh:?}"
            );
        }
    }
}

/// The distributed solve's entry points on one shard of the model: its
/// summary, its sums and frequencies at fuzzer-chosen multipliers, and a
/// multiplier search driven by the shard's own sums or by arbitrary values.
unsafe fn shards(h: &mut Harness, m: *const crawlsched_freshness_model_t) {
    unsafe {
        let shard = Shard(make!(h, crawlsched_freshness_shard_new(m)));
        let sh = shard.0 as *const crawlsched_freshness_shard_t;
        let (mut a, mut lo, mut hi) = (f64::S, f64::S, f64::S);
        let e = h.e();
        let st = crawlsched_freshness_shard_summary(sh, &mut a, &mut lo, &mut hi, e);
        let summary = h.check_f(
            "crawlsched_freshness_shard_summary",
            st,
            a.is_s() && lo.is_s() && hi.is_s(),
            &[a, lo, hi],
        );
        let search = if summary && !h.byte().is_multiple_of(4) {
            Search(make!(
                h,
                crawlsched_freshness_multiplier_search_new(a, lo, hi)
            ))
        } else {
            Search(make!(
                h,
                crawlsched_freshness_multiplier_search_new(h.f64(), h.f64(), h.f64())
            ))
        };
        for _ in 0..12 {
            if h.done() {
                break;
            }
            match h.byte() % 4 {
                0 => {
                    let (mut s, mut ds, mut ehi, mut elo) = (f64::S, f64::S, u64::S, u64::S);
                    let e = h.e();
                    let st = crawlsched_freshness_shard_sum_at(
                        sh,
                        h.f64(),
                        &mut s,
                        &mut ds,
                        &mut ehi,
                        &mut elo,
                        e,
                    );
                    let untouched = s.is_s() && ds.is_s() && ehi.is_s() && elo.is_s();
                    h.check_f("crawlsched_freshness_shard_sum_at", st, untouched, &[s, ds]);
                }
                1 => {
                    let mut b = Buf::<f64>::new(h, 10);
                    let e = h.e();
                    let st =
                        crawlsched_freshness_shard_frequencies_at(sh, h.f64(), b.ptr(), b.cap(), e);
                    let written: Vec<f64> = b.v.iter().copied().filter(|x| !x.is_s()).collect();
                    if h.check_f(
                        "crawlsched_freshness_shard_frequencies_at",
                        st,
                        b.untouched(),
                        &written,
                    ) {
                        assert!(
                            written.iter().all(|x| *x >= 0.0),
                            "shard frequencies {written:?}"
                        );
                    }
                }
                _ => {
                    // One step of the driver: where to evaluate next, then
                    // the shard's sums there (or arbitrary ones).
                    let (mut done, mut ln) = (i32::S, f64::S);
                    let e = h.e();
                    let st = crawlsched_freshness_multiplier_search_next(
                        search.0, &mut done, &mut ln, e,
                    );
                    if !h.check_f(
                        "crawlsched_freshness_multiplier_search_next",
                        st,
                        done.is_s() && ln.is_s(),
                        &[ln],
                    ) {
                        continue;
                    }
                    assert!(
                        done == 0 || done == 1,
                        "multiplier_search_next: done {done}"
                    );
                    let (mut s, mut ds, mut ehi, mut elo) = (0.0, 0.0, 0u64, 0u64);
                    if h.bool() {
                        let e = h.e();
                        let st = crawlsched_freshness_shard_sum_at(
                            sh, ln, &mut s, &mut ds, &mut ehi, &mut elo, e,
                        );
                        h.check("crawlsched_freshness_shard_sum_at", st, true);
                    } else {
                        (s, ds, ehi, elo) = (h.f64(), h.f64(), h.size(1 << 20), h.size(1 << 20));
                    }
                    let e = h.e();
                    let st =
                        crawlsched_freshness_multiplier_search_update(search.0, s, ds, ehi, elo, e);
                    h.check("crawlsched_freshness_multiplier_search_update", st, true);
                }
            }
        }
    }
}

unsafe fn estimator(h: &mut Harness) {
    unsafe {
        let est = if h.bool() {
            Est(make!(h, crawlsched_estimator_new()))
        } else {
            Est(make!(
                h,
                crawlsched_estimator_new_with_prior(h.f64(), h.f64())
            ))
        };
        for _ in 0..32 {
            if h.done() {
                break;
            }
            match h.byte() % 6 {
                0 | 1 => {
                    let (iv, ch) = (h.f64(), i32::from(h.byte() as i8));
                    let e = h.e();
                    let st = crawlsched_estimator_observe(est.0, iv, ch, e);
                    h.check("crawlsched_estimator_observe", st, true);
                }
                2 => get_f!(h, crawlsched_estimator_estimate(est.0)),
                4 => state_round_trip(h, est.0),
                5 => state_mutated(h, est.0),
                _ => {
                    let mut x = u64::S;
                    let e = h.e();
                    let st = crawlsched_estimator_observations(est.0, &mut x, e);
                    h.check("crawlsched_estimator_observations", st, x.is_s());
                }
            }
        }
    }
}

/// `est`'s state into a fuzzer-sized buffer; `None` when the export
/// failed (a buffer too small).
unsafe fn export_state(h: &mut Harness, est: *const crawlsched_estimator_t) -> Option<Vec<u8>> {
    unsafe {
        let mut b = Buf::<u8>::new(h, CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES);
        let mut len = usize::S;
        let e = h.e();
        let st = crawlsched_estimator_export_state(est, b.ptr(), b.cap(), &mut len, e);
        if !h.check("crawlsched_estimator_export_state", st, b.untouched()) {
            return None;
        }
        assert!(
            len <= CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES,
            "a state of {len} bytes"
        );
        Some(b.v[..len].to_vec())
    }
}

/// An exported state imports and exports back to the same bytes.
unsafe fn state_round_trip(h: &mut Harness, est: *const crawlsched_estimator_t) {
    unsafe {
        let Some(state) = export_state(h, est) else {
            return;
        };
        let back = Est(make!(
            h,
            crawlsched_estimator_new_from_state(state.as_ptr(), state.len())
        ));
        assert!(!back.0.is_null(), "an exported state does not import");
        let mut again = vec![0u8; CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES];
        let mut len = 0usize;
        let e = h.e();
        let st =
            crawlsched_estimator_export_state(back.0, again.as_mut_ptr(), again.len(), &mut len, e);
        h.check("crawlsched_estimator_export_state", st, true);
        assert_eq!(
            again[..len],
            state[..],
            "import then export changed the state"
        );
    }
}

/// `est`'s state with fuzzer-chosen bytes changed, cut or appended:
/// refused with a message, or accepted and then canonical.
unsafe fn state_mutated(h: &mut Harness, est: *const crawlsched_estimator_t) {
    unsafe {
        let mut b = vec![0u8; CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES];
        let mut len = 0usize;
        let e = h.e();
        let st = crawlsched_estimator_export_state(est, b.as_mut_ptr(), b.len(), &mut len, e);
        if !h.check("crawlsched_estimator_export_state", st, true) {
            return;
        }
        b.truncate(len);
        for _ in 0..h.small(4) {
            match h.byte() % 3 {
                0 if !b.is_empty() => {
                    let at = h.small(b.len() - 1);
                    b[at] = h.byte();
                }
                1 => b.truncate(h.small(b.len())),
                _ => b.push(h.byte()),
            }
        }
        let ln = h.len_for(b.len());
        let x = Est(make!(h, crawlsched_estimator_new_from_state(h.ptr(&b), ln)));
        if !x.0.is_null() {
            state_round_trip(h, x.0);
        }
    }
}

unsafe fn scheduler(h: &mut Harness) {
    unsafe {
        let d = Dist(new_dist(h));
        let s = Sched(make!(
            h,
            crawlsched_scheduler_new(d.0, i32::from(h.byte() % 3))
        ));
        for _ in 0..32 {
            if h.done() {
                break;
            }
            let id = u64::from(h.byte() % 8);
            let pick = h.byte();
            if pick >= 247 {
                scheduler_hosts(h, s.0, id, pick % 8);
                continue;
            }
            let e = h.e();
            match pick % 13 {
                0 => {
                    let st = crawlsched_scheduler_add_page(s.0, id, h.f64(), e);
                    h.check("crawlsched_scheduler_add_page", st, true);
                }
                1 if h.bool() => {
                    let n = h.small(4);
                    let ids: Vec<u64> = (0..n).map(|_| u64::from(h.byte() % 8)).collect();
                    let rates = h.vec(n);
                    let w = h.vec(n);
                    let wp = if h.bool() { null() } else { h.ptr(&w) };
                    let ln = h.len_for(n);
                    let e = h.e();
                    let st =
                        crawlsched_scheduler_add_pages(s.0, h.ptr(&ids), h.ptr(&rates), wp, ln, e);
                    h.check("crawlsched_scheduler_add_pages", st, true);
                }
                1 => {
                    let st = crawlsched_scheduler_add_weighted_page(s.0, id, h.f64(), h.f64(), e);
                    h.check("crawlsched_scheduler_add_weighted_page", st, true);
                }
                2 => {
                    let st = crawlsched_scheduler_remove_page(s.0, id, e);
                    h.check("crawlsched_scheduler_remove_page", st, true);
                }
                3 => {
                    let st = crawlsched_scheduler_set_change_rate(s.0, id, h.f64(), e);
                    h.check("crawlsched_scheduler_set_change_rate", st, true);
                }
                4 => {
                    let st =
                        crawlsched_scheduler_observe(s.0, id, h.f64(), i32::from(h.byte() % 2), e);
                    h.check("crawlsched_scheduler_observe", st, true);
                }
                5 => {
                    let mut x = u64::S;
                    let st = crawlsched_scheduler_next(s.0, &mut x, e);
                    h.check("crawlsched_scheduler_next", st, x.is_s());
                }
                6 => {
                    let mut b = Buf::<u64>::new(h, 16);
                    let e = h.e();
                    let st = crawlsched_scheduler_next_batch(s.0, b.ptr(), b.cap(), e);
                    h.check("crawlsched_scheduler_next_batch", st, b.untouched());
                }
                7 => {
                    let mut x = f64::S;
                    let st = crawlsched_scheduler_change_rate(s.0, id, &mut x, e);
                    h.check_f("crawlsched_scheduler_change_rate", st, x.is_s(), &[x]);
                }
                8 => {
                    let mut x = f64::S;
                    let st = crawlsched_scheduler_frequency(s.0, id, &mut x, e);
                    h.check_f("crawlsched_scheduler_frequency", st, x.is_s(), &[x]);
                }
                10 => scheduler_state(h, s.0, id),
                11 => {
                    let (mut due, mut has) = (f64::S, i32::S);
                    let st = crawlsched_scheduler_next_due(s.0, id, h.f64(), &mut due, &mut has, e);
                    if h.check_f(
                        "crawlsched_scheduler_next_due",
                        st,
                        due.is_s() && has.is_s(),
                        &[due],
                    ) {
                        assert!(
                            has == 1 || (has == 0 && due == 0.0),
                            "next_due: has {has}, due {due}"
                        );
                    }
                }
                12 => id_values(
                    h,
                    "crawlsched_scheduler_revisit_intervals",
                    |ids, v, cap, len, e| {
                        crawlsched_scheduler_revisit_intervals(s.0, ids, v, cap, len, e)
                    },
                ),
                _ => {
                    let mut x = usize::S;
                    let st = crawlsched_scheduler_len(s.0, &mut x, e);
                    if h.check("crawlsched_scheduler_len", st, x.is_s()) {
                        assert!(
                            x <= 8,
                            "crawlsched_scheduler_len: {x} pages, at most 8 ids were added"
                        );
                    }
                }
            }
        }
    }
}

/// The per-host entry points (hosts 0..3 mostly, any u32 now and then).
unsafe fn scheduler_hosts(h: &mut Harness, s: *const crawlsched_scheduler_t, id: u64, which: u8) {
    unsafe {
        let host = h.index(3);
        let e = h.e();
        match which {
            0 => {
                let st = crawlsched_scheduler_set_host(s, id, host, e);
                h.check("crawlsched_scheduler_set_host", st, true);
            }
            1 => {
                let st = crawlsched_scheduler_clear_host(s, id, e);
                h.check("crawlsched_scheduler_clear_host", st, true);
            }
            2 => {
                let (mut x, mut has) = (u32::S, i32::S);
                let st = crawlsched_scheduler_host(s, id, &mut x, &mut has, e);
                if h.check("crawlsched_scheduler_host", st, x.is_s() && has.is_s()) {
                    assert!(has == 0 || has == 1, "scheduler_host: has {has}");
                }
            }
            3 => {
                let st = crawlsched_scheduler_set_host_delay(s, host, h.f64(), e);
                h.check("crawlsched_scheduler_set_host_delay", st, true);
            }
            4 => {
                let mut x = f64::S;
                let st = crawlsched_scheduler_host_delay(s, host, &mut x, e);
                if h.check_f("crawlsched_scheduler_host_delay", st, x.is_s(), &[x]) {
                    assert!(x >= 0.0, "host_delay {x}");
                }
            }
            5 => {
                let (mut x, mut wait, mut ready) = (u64::S, f64::S, i32::S);
                let st = crawlsched_scheduler_next_at(s, h.f64(), &mut x, &mut wait, &mut ready, e);
                let untouched = x.is_s() && wait.is_s() && ready.is_s();
                if h.check_f("crawlsched_scheduler_next_at", st, untouched, &[wait]) {
                    assert!(ready == 0 || ready == 1, "next_at: ready {ready}");
                    assert!(wait >= 0.0, "next_at: wait {wait}");
                }
            }
            6 => {
                let mut x = f64::S;
                let st = crawlsched_scheduler_revisit_interval(s, id, &mut x, e);
                if h.check_f("crawlsched_scheduler_revisit_interval", st, x.is_s(), &[x]) {
                    assert!(x >= 0.0, "revisit_interval {x}");
                }
            }
            _ => id_values(
                h,
                "crawlsched_scheduler_frequencies",
                |ids, v, cap, len, e| crawlsched_scheduler_frequencies(s, ids, v, cap, len, e),
            ),
        }
    }
}

/// A scheduler call filling (ids, values) pairs into buffers of `cap`
/// with their count in `len`: both buffers untouched on failure (`len`
/// aside: the needed count on BUFFER_TOO_SMALL), values finite and ≥ 0 on
/// success.
unsafe fn id_values(
    h: &mut Harness,
    name: &str,
    call: impl FnOnce(
        *mut u64,
        *mut f64,
        usize,
        *mut usize,
        *mut crawlsched_error_t,
    ) -> crawlsched_status_t,
) {
    let mut ids = Buf::<u64>::new(h, 10);
    let mut values = vec![f64::S; ids.cap()];
    let mut len = usize::S;
    let e = h.e();
    let st = call(ids.ptr(), values.as_mut_ptr(), ids.cap(), &mut len, e);
    let untouched = ids.untouched() && all_s(&values);
    if h.check(name, st, untouched) {
        assert!(
            values[..len].iter().all(|x| x.is_finite() && *x >= 0.0),
            "{name}: values {values:?}"
        );
    }
}

/// A page's state exported and set back, possibly with one byte changed:
/// refused with a message, or accepted and read back unchanged.
unsafe fn scheduler_state(h: &mut Harness, s: *const crawlsched_scheduler_t, id: u64) {
    unsafe {
        let mut b = Buf::<u8>::new(h, CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES);
        let mut len = usize::S;
        let e = h.e();
        let st = crawlsched_scheduler_page_state(s, id, b.ptr(), b.cap(), &mut len, e);
        if !h.check("crawlsched_scheduler_page_state", st, b.untouched()) {
            return;
        }
        let mut state = b.v[..len].to_vec();
        if h.bool() && !state.is_empty() {
            let at = h.small(state.len() - 1);
            state[at] = h.byte();
        }
        let e = h.e();
        let st = crawlsched_scheduler_set_page_state(s, id, state.as_ptr(), state.len(), e);
        if h.check("crawlsched_scheduler_set_page_state", st, true) {
            let mut again = vec![0u8; CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES];
            let mut n = 0usize;
            let e = h.e();
            let st =
                crawlsched_scheduler_page_state(s, id, again.as_mut_ptr(), again.len(), &mut n, e);
            h.check("crawlsched_scheduler_page_state", st, true);
            assert_eq!(
                again[..n],
                state[..],
                "set_page_state then page_state changed the state"
            );
        }
    }
}

unsafe fn sequences(h: &mut Harness) {
    unsafe {
        let n = h.small(6);
        match h.byte() % 5 {
            0 => {
                let f = h.vec(n);
                let ln = h.len_for(n);
                let total = h.size(64);
                let mut b = Buf::<u64>::new(h, 8);
                let e = h.e();
                let st = crawlsched_freshness_integer_counts(
                    h.ptr(&f),
                    ln,
                    total,
                    i32::from(h.byte() % 3),
                    b.ptr(),
                    b.cap(),
                    e,
                );
                h.check("crawlsched_freshness_integer_counts", st, b.untouched());
            }
            k @ 1..=3 => {
                let counts: Vec<u64> = (0..n).map(|_| h.size(12)).collect();
                let ln = h.len_for(n);
                let mut b = Buf::<u32>::new(h, 64);
                let mut len = usize::S;
                let e = h.e();
                let (name, st) = match k {
                    1 => (
                        "crawlsched_freshness_golden_ratio_sequence",
                        crawlsched_freshness_golden_ratio_sequence(
                            h.ptr(&counts),
                            ln,
                            b.ptr(),
                            b.cap(),
                            &mut len,
                            e,
                        ),
                    ),
                    2 => (
                        "crawlsched_freshness_round_robin_sequence",
                        crawlsched_freshness_round_robin_sequence(
                            h.ptr(&counts),
                            ln,
                            b.ptr(),
                            b.cap(),
                            &mut len,
                            e,
                        ),
                    ),
                    _ => (
                        "crawlsched_routing_balanced_sequence",
                        crawlsched_routing_balanced_sequence(
                            h.ptr(&counts),
                            ln,
                            b.ptr(),
                            b.cap(),
                            &mut len,
                            e,
                        ),
                    ),
                };
                let too_small = st == CRAWLSCHED_BUFFER_TOO_SMALL;
                h.check(name, st, b.untouched() && (too_small || len.is_s()));
                if st == CRAWLSCHED_OK {
                    assert!(len <= b.cap(), "{name}: out_len {len} > cap {}", b.cap());
                    assert!(all_s(&b.v[len..]), "{name}: wrote past out_len");
                } else if too_small {
                    assert!(
                        len > b.cap(),
                        "{name}: BUFFER_TOO_SMALL but needs {len} <= cap {}",
                        b.cap()
                    );
                }
            }
            _ => {
                let mut x = u64::S;
                let e = h.e();
                let st = crawlsched_freshness_fibonacci_at_least(h.size(1000), &mut x, e);
                h.check("crawlsched_freshness_fibonacci_at_least", st, x.is_s());
                get_f!(h, crawlsched_freshness_bound_ratio(h.f64()));
            }
        }
    }
}

// ----------------------------------------------------------------- mdp

unsafe fn mdp(h: &mut Harness) {
    unsafe {
        if h.byte().is_multiple_of(4) {
            return robots(h);
        }
        let states = h.small(6);
        let b = Builder(make!(h, crawlsched_mdp_builder_new(states)));
        for _ in 0..h.byte() % 12 {
            let s = h.index(states as u32);
            let len = h.small(4);
            let next: Vec<u32> = (0..len).map(|_| h.index(states as u32)).collect();
            let prob = h.vec(len);
            let (pn, pp) = (h.ptr(&next), h.ptr(&prob));
            let cost = h.f64();
            let mut act = u32::S;
            let e = h.e();
            let st = crawlsched_mdp_builder_add_action(b.0, s, pn, pp, len, cost, &mut act, e);
            h.check("crawlsched_mdp_builder_add_action", st, act.is_s());
        }
        let m = Mdp(make!(h, crawlsched_mdp_build(b.0)));
        if !m.0.is_null() {
            let (mut a, mut b2, mut c) = (u64::S, u64::S, u64::S);
            let e = h.e();
            let st = crawlsched_mdp_size(m.0, &mut a, &mut b2, &mut c, e);
            h.check("crawlsched_mdp_size", st, a.is_s() && b2.is_s() && c.is_s());
        }
        let s = Solver(make!(h, crawlsched_mdp_solver_new(i32::from(h.byte() % 5))));
        if s.0.is_null() {
            return;
        }
        // Iterations are bounded so that an input runs in milliseconds.
        let (tol, iters, stop) = (h.f64(), h.size(300).min(300), i32::from(h.byte() % 3));
        let e = h.e();
        let st = crawlsched_mdp_solver_set_limits(s.0, tol, iters, stop, e);
        h.check("crawlsched_mdp_solver_set_limits", st, true);
        if h.bool() {
            let (crit, disc, tau) = (i32::from(h.byte() % 3), h.f64(), h.f64());
            let e = h.e();
            let st = crawlsched_mdp_solver_set_criterion(s.0, crit, disc, tau, e);
            h.check("crawlsched_mdp_solver_set_criterion", st, true);
        }
        if h.bool() {
            let ctl = new_control(h);
            let e = h.e();
            let st = crawlsched_mdp_solver_set_control(s.0, ctl.0, e);
            h.check("crawlsched_mdp_solver_set_control", st, true);
            // The solver keeps its own reference: the control is freed here.
        }
        let e = h.e();
        let st = crawlsched_mdp_solver_run(s.0, m.0, e);
        h.check("crawlsched_mdp_solver_run", st, true);
        let mut ns = u64::S;
        let e = h.e();
        let st = crawlsched_mdp_solver_size(s.0, &mut ns, e);
        h.check("crawlsched_mdp_solver_size", st, ns.is_s());
        let (mut g, mut lo, mut hi) = (f64::S, f64::S, f64::S);
        let e = h.e();
        let st = crawlsched_mdp_solver_gain(s.0, &mut g, &mut lo, &mut hi, e);
        h.check_f(
            "crawlsched_mdp_solver_gain",
            st,
            g.is_s() && lo.is_s() && hi.is_s(),
            &[g, lo, hi],
        );
        let (mut it, mut conv, mut rc) = (u64::S, i32::S, u64::S);
        let e = h.e();
        let st = crawlsched_mdp_solver_stats(s.0, &mut it, &mut conv, &mut rc, e);
        h.check(
            "crawlsched_mdp_solver_stats",
            st,
            it.is_s() && conv.is_s() && rc.is_s(),
        );
        let mut tau = f64::S;
        let e = h.e();
        let st = crawlsched_mdp_solver_tau(s.0, &mut tau, e);
        h.check_f("crawlsched_mdp_solver_tau", st, tau.is_s(), &[tau]);
        let mut p = Buf::<u32>::new(h, 8);
        let e = h.e();
        let st = crawlsched_mdp_solver_policy(s.0, p.ptr(), p.cap(), e);
        h.check("crawlsched_mdp_solver_policy", st, p.untouched());
        let mut v = Buf::<f64>::new(h, 8);
        let e = h.e();
        let st = crawlsched_mdp_solver_values(s.0, v.ptr(), v.cap(), e);
        let written: Vec<f64> = v.v.iter().copied().take(states).collect();
        h.check_f("crawlsched_mdp_solver_values", st, v.untouched(), &written);
    }
}

unsafe fn robots(h: &mut Harness) {
    unsafe {
        // Sizes stay small: each solve is an exact MDP solve.
        let (n, k) = (u64::from(h.byte() % 10), u64::from(h.byte() % 10));
        let (lambda, mu, gamma) = (h.f64(), h.f64(), h.f64());
        let mut one = f64::S;
        let e = h.e();
        let st = crawlsched_robots_static_cost(lambda / mu, gamma, k, mu, &mut one, e);
        h.check_f("crawlsched_robots_static_cost", st, one.is_s(), &[one]);
        let (mut nn, mut c) = (u64::S, f64::S);
        let e = h.e();
        let st = crawlsched_robots_optimal_static(lambda, mu, gamma, k, &mut nn, &mut c, e);
        h.check_f(
            "crawlsched_robots_optimal_static",
            st,
            nn.is_s() && c.is_s(),
            &[c],
        );
        // The unlimited model starts from twice the static optimum's robots
        // and doubles until the optimum leaves robots idle, which takes
        // about sqrt(gamma/mu) robots: extreme rates or costs ask for 10^6+
        // states and minutes (a resource limit, not a contract violation;
        // fuzz/regressions/mdp/unlimited-huge-gamma-over-mu), so keep it small.
        let small_static =
            st == CRAWLSCHED_OK && nn <= 16 && lambda / mu <= 8.0 && gamma / mu <= 1e4;
        let r = match h.byte() % 4 {
            0 | 1 => Robots(make!(
                h,
                crawlsched_robots_solve(n, k, lambda, mu, gamma, std::ptr::null())
            )),
            2 => {
                let ctl = new_control(h);
                Robots(make!(
                    h,
                    crawlsched_robots_solve(n, k, lambda, mu, gamma, ctl.0)
                ))
            }
            _ if small_static => Robots(make!(
                h,
                crawlsched_robots_solve_unlimited(k, lambda, mu, gamma, std::ptr::null())
            )),
            _ => Robots(make!(
                h,
                crawlsched_robots_solve(n, k, lambda, mu, gamma, std::ptr::null())
            )),
        };
        if r.0.is_null() {
            return;
        }
        let (mut rn, mut rk) = (u64::S, u64::S);
        let e = h.e();
        let st = crawlsched_robots_size(r.0, &mut rn, &mut rk, e);
        assert!(
            h.check("crawlsched_robots_size", st, rn.is_s() && rk.is_s()),
            "crawlsched_robots_size failed on a live handle"
        );
        let (mut lo, mut hi, mut it) = (f64::S, f64::S, u64::S);
        let e = h.e();
        let st = crawlsched_robots_certificate(r.0, &mut lo, &mut hi, &mut it, e);
        h.check_f(
            "crawlsched_robots_certificate",
            st,
            lo.is_s() && hi.is_s() && it.is_s(),
            &[lo, hi],
        );
        let (mut nmin, mut nmean, mut nmax) = (u64::S, f64::S, i64::S);
        let e = h.e();
        let st = crawlsched_robots_counts(r.0, &mut nmin, &mut nmean, &mut nmax, e);
        h.check_f(
            "crawlsched_robots_counts",
            st,
            nmin.is_s() && nmean.is_s() && nmax.is_s(),
            &[nmean],
        );
        let mut acts = Buf::<u8>::new(h, 240);
        let e = h.e();
        let st = crawlsched_robots_actions(r.0, acts.ptr(), acts.cap(), e);
        if h.check("crawlsched_robots_actions", st, acts.untouched()) {
            // 2 (K+1) (N+1) actions, each 0 or 1; nothing written past them.
            let len = (2 * (rk + 1) * (rn + 1)) as usize;
            assert!(
                len <= acts.cap(),
                "crawlsched_robots_actions: {len} actions in a buffer of {}",
                acts.cap()
            );
            assert!(
                acts.v[..len].iter().all(|&a| a <= 1),
                "crawlsched_robots_actions: an action other than 0 or 1"
            );
            assert!(
                all_s(&acts.v[len..]),
                "crawlsched_robots_actions: wrote past 2 (K+1) (N+1)"
            );
        }
        let (mut c, mut s, mut l) = (f64::S, f64::S, f64::S);
        let e = h.e();
        let st = crawlsched_robots_cost(r.0, &mut c, &mut s, &mut l, e);
        h.check_f(
            "crawlsched_robots_cost",
            st,
            c.is_s() && s.is_s() && l.is_s(),
            &[c, s, l],
        );
        let mut curve = Buf::<i64>::new(h, 12);
        let mut is_curve = i32::S;
        let e = h.e();
        let st = crawlsched_robots_switching_curve(
            r.0,
            i32::from(h.byte() % 3),
            curve.ptr(),
            curve.cap(),
            &mut is_curve,
            e,
        );
        h.check(
            "crawlsched_robots_switching_curve",
            st,
            curve.untouched() && is_curve.is_s(),
        );
        let mut pi = Buf::<f64>::new(h, 128);
        let e = h.e();
        let st = crawlsched_robots_stationary(r.0, pi.ptr(), pi.cap(), e);
        h.check("crawlsched_robots_stationary", st, pi.untouched());
        let len = h.small(12);
        let f0: Vec<i64> = (0..len).map(|_| i64::from(h.byte() as i8)).collect();
        let f1: Vec<i64> = (0..len).map(|_| i64::from(h.byte() as i8)).collect();
        let ln = h.len_for(len);
        let mut x = f64::S;
        let e = h.e();
        let st = crawlsched_robots_evaluate_curve(r.0, h.ptr(&f0), h.ptr(&f1), ln, &mut x, e);
        h.check_f("crawlsched_robots_evaluate_curve", st, x.is_s(), &[x]);
        get_f!(h, crawlsched_robots_evaluate_static(r.0, h.size(8)));
    }
}

// ------------------------------------------- arrivals: BMAP, routing, threshold

unsafe fn new_bmap(h: &mut Harness) -> *mut crawlsched_bmap_t {
    unsafe {
        match h.byte() % 4 {
            0 | 1 => {
                let n = h.small(3);
                let k = 1 + h.small(2);
                let m = h.vec((k + 1) * n * n);
                let len = h.len_for(m.len());
                make!(h, crawlsched_bmap_new(n, h.ptr(&m), len))
            }
            2 => make!(h, crawlsched_bmap_poisson_new(h.f64())),
            _ => make!(
                h,
                crawlsched_bmap_fit_new(h.f64(), h.f64(), h.f64(), h.f64(), h.index(4))
            ),
        }
    }
}

unsafe fn use_bmap(h: &mut Harness, b: *const crawlsched_bmap_t) {
    unsafe {
        match h.byte() % 4 {
            0 => {
                let mut x = usize::S;
                let e = h.e();
                let st = crawlsched_bmap_order(b, &mut x, e);
                h.check("crawlsched_bmap_order", st, x.is_s());
            }
            1 => get_f!(h, crawlsched_bmap_fundamental_rate(b)),
            2 => get_f!(h, crawlsched_bmap_interarrival_moment(b, h.index(6))),
            _ => get_f!(h, crawlsched_bmap_lag_correlation(b, h.index(6))),
        }
    }
}

unsafe fn arrivals(h: &mut Harness) {
    unsafe {
        match h.byte() % 3 {
            0 => bmap_and_threshold(h),
            1 => routing(h),
            _ => {
                let b = Bmap(new_bmap(h));
                let (how, active, total, prob) =
                    (i32::from(h.byte() % 5), h.index(3), h.index(3), h.f64());
                // Independent robots have order^total joint phases, dense:
                // up to the library's 4096 that is seconds per call (open,
                // docs/reliability.md). Beyond it is refused at once.
                let mut order = usize::S;
                let e = h.e();
                let st = crawlsched_bmap_order(b.0, &mut order, e);
                h.check("crawlsched_bmap_order", st, order.is_s());
                let joint = if st == CRAWLSCHED_OK {
                    order.checked_pow(total)
                } else {
                    None
                };
                let slow = how == CRAWLSCHED_BMAP_COMPOSE_INDEPENDENT
                    && joint.is_some_and(|j| j > 256 && j <= 4096);
                let c = if slow {
                    Bmap(null_mut())
                } else {
                    Bmap(make!(
                        h,
                        crawlsched_bmap_compose_new(b.0, how, active, total, prob)
                    ))
                };
                for _ in 0..6 {
                    if h.done() {
                        break;
                    }
                    use_bmap(h, b.0);
                    use_bmap(h, c.0);
                }
            }
        }
    }
}

unsafe fn bmap_and_threshold(h: &mut Harness) {
    unsafe {
        let na = h.small(3);
        let bs: Vec<Bmap> = (0..na).map(|_| Bmap(new_bmap(h))).collect();
        let ptrs: Vec<*const crawlsched_bmap_t> = bs.iter().map(|b| b.0 as *const _).collect();
        let service = Dist(new_dist(h));
        let obs = if h.bool() {
            Dist(null_mut())
        } else {
            Dist(new_dist(h))
        };
        let buffer = h.index(6);
        let buffer = if buffer > 64 && h.bool() { 6 } else { buffer };
        let lp = h.len_for(na);
        let m = Thresh(make!(
            h,
            crawlsched_threshold_model_new(h.ptr(&ptrs), lp, service.0, obs.0, buffer)
        ));
        if m.0.is_null() {
            return;
        }
        let mut x = u64::S;
        let e = h.e();
        let st = crawlsched_threshold_model_state_count(m.0, &mut x, e);
        h.check("crawlsched_threshold_model_state_count", st, x.is_s());
        // Evaluating a chain of more than a few thousand states is seconds
        // (a stiff one falls back to dense level LUs); such chains are
        // tested in src/threshold/tests.rs, cancellation in tests/hostile.
        if st != CRAWLSCHED_OK || x > 4_000 {
            return;
        }
        for _ in 0..4 {
            if h.done() {
                break;
            }
            let nm = h.small(3);
            let modes: Vec<u32> = (0..nm).map(|_| h.index(3)).collect();
            let nt = h.small(3);
            let th: Vec<u32> = (0..nt).map(|_| h.index(7)).collect();
            let (lm, lt) = (h.len_for(nm), h.len_for(nt));
            let (pm, pt) = (h.ptr(&modes), h.ptr(&th));
            match h.byte() % 7 {
                0 => {
                    let mut b = Buf::<f64>::new(h, CRAWLSCHED_THRESHOLD_MEASURE_COUNT);
                    let e = h.e();
                    let st = crawlsched_threshold_measures(
                        m.0,
                        pm,
                        lm,
                        pt,
                        lt,
                        std::ptr::null(),
                        b.ptr(),
                        b.cap(),
                        e,
                    );
                    let written = b.v.clone();
                    h.check_f("crawlsched_threshold_measures", st, b.untouched(), &written);
                }
                1 => {
                    let mut b = Buf::<f64>::new(h, 12);
                    let mut len = usize::S;
                    let e = h.e();
                    let st = crawlsched_threshold_level_distribution(
                        m.0,
                        pm,
                        lm,
                        pt,
                        lt,
                        std::ptr::null(),
                        b.ptr(),
                        b.cap(),
                        &mut len,
                        e,
                    );
                    let too_small = st == CRAWLSCHED_BUFFER_TOO_SMALL;
                    h.check(
                        "crawlsched_threshold_level_distribution",
                        st,
                        b.untouched() && (too_small || len.is_s()),
                    );
                    if st == CRAWLSCHED_OK {
                        let written = b.v[..len].to_vec();
                        h.check_f(
                            "crawlsched_threshold_level_distribution",
                            st,
                            true,
                            &written,
                        );
                    }
                }
                2 => {
                    let nw = h.small(6);
                    let w = h.vec(nw);
                    let lw = h.len_for(nw);
                    get_f!(
                        h,
                        crawlsched_threshold_cost(
                            m.0,
                            pm,
                            lm,
                            pt,
                            lt,
                            h.ptr(&w),
                            lw,
                            std::ptr::null()
                        )
                    );
                }
                3 => {
                    let nw = h.small(6);
                    let w = h.vec(nw);
                    let lw = h.len_for(nw);
                    let mut b = Buf::<u32>::new(h, 3);
                    let (mut c, mut ev) = (f64::S, u64::S);
                    let max_ev = h.size(40).min(200);
                    let e = h.e();
                    let st = crawlsched_threshold_optimize(
                        m.0,
                        pm,
                        lm,
                        h.ptr(&w),
                        lw,
                        max_ev,
                        std::ptr::null(),
                        b.ptr(),
                        b.cap(),
                        &mut c,
                        &mut ev,
                        e,
                    );
                    h.check_f(
                        "crawlsched_threshold_optimize",
                        st,
                        b.untouched() && c.is_s() && ev.is_s(),
                        &[c],
                    );
                }
                4 => {
                    let mut b = Buf::<f64>::new(h, CRAWLSCHED_THRESHOLD_RESPONSE_COUNT);
                    let e = h.e();
                    let st = crawlsched_threshold_response_time(
                        m.0,
                        pm,
                        lm,
                        pt,
                        lt,
                        std::ptr::null(),
                        b.ptr(),
                        b.cap(),
                        e,
                    );
                    let written = b.v.clone();
                    h.check_f(
                        "crawlsched_threshold_response_time",
                        st,
                        b.untouched(),
                        &written,
                    );
                }
                5 => {
                    let which = i32::from(h.byte() % 3);
                    // The work grows with (largest rate) x t: first learn the
                    // largest time that stays cheap, then stay below it.
                    let Some(t_cap) = cheap_horizon(h, m.0, pm, lm, pt, lt, which) else {
                        continue;
                    };
                    let n = h.small(6);
                    let mut t: Vec<f64> = (0..n)
                        .map(|_| f64::from(h.u16()) / 65535.0 * t_cap)
                        .collect();
                    if n > 0 && h.byte().is_multiple_of(8) {
                        // Refused values: negative, NaN, infinite.
                        t[0] = [-1.0, f64::NAN, f64::INFINITY, -0.0][usize::from(h.byte() % 4)];
                    }
                    let ln = h.len_for(n);
                    let mut b = Buf::<f64>::new(h, 8);
                    let e = h.e();
                    let st = crawlsched_threshold_response_cdf(
                        m.0,
                        pm,
                        lm,
                        pt,
                        lt,
                        which,
                        h.ptr(&t),
                        ln,
                        std::ptr::null(),
                        b.ptr(),
                        b.cap(),
                        e,
                    );
                    let written: Vec<f64> = b.v.iter().copied().take(ln).collect();
                    if h.check_f(
                        "crawlsched_threshold_response_cdf",
                        st,
                        b.untouched(),
                        &written,
                    ) {
                        for x in &written {
                            assert!(
                                (0.0..=1.0).contains(x),
                                "crawlsched_threshold_response_cdf: {x} outside [0, 1]"
                            );
                        }
                    }
                }
                _ => {
                    let nw = h.small(6);
                    let w = h.vec(nw);
                    let lw = h.len_for(nw);
                    let mut b = Buf::<u32>::new(h, 3);
                    let (mut c, mut ev) = (f64::S, u64::S);
                    let max_ev = h.size(40).min(200);
                    let ctl = new_control(h);
                    let e = h.e();
                    let st = crawlsched_threshold_optimize(
                        m.0,
                        pm,
                        lm,
                        h.ptr(&w),
                        lw,
                        max_ev,
                        ctl.0,
                        b.ptr(),
                        b.cap(),
                        &mut c,
                        &mut ev,
                        e,
                    );
                    h.check_f(
                        "crawlsched_threshold_optimize",
                        st,
                        b.untouched() && c.is_s() && ev.is_s(),
                        &[c],
                    );
                }
            }
        }
    }
}

/// The largest time t for which crawlsched_threshold_response_cdf costs
/// about 10^7 multiply-adds at most, or None if the call fails for another
/// reason (among them a tagged chain too large for the memory cap). The library refuses work above 2e10 (seconds) with TOO_LARGE,
/// naming the chain's largest rate and nonzero count: a probe at t = 1e300
/// reads them.
unsafe fn cheap_horizon(
    h: &mut Harness,
    m: *const crawlsched_threshold_model_t,
    pm: *const u32,
    lm: usize,
    pt: *const u32,
    lt: usize,
    which: i32,
) -> Option<f64> {
    let t = [1e300];
    let mut out = [f64::S];
    let e = h.e();
    let st = unsafe {
        crawlsched_threshold_response_cdf(
            m,
            pm,
            lm,
            pt,
            lt,
            which,
            t.as_ptr(),
            1,
            std::ptr::null(),
            out.as_mut_ptr(),
            1,
            e,
        )
    };
    h.check_f("crawlsched_threshold_response_cdf", st, all_s(&out), &out);
    match st {
        // No rate at all: every t is cheap.
        CRAWLSCHED_OK => Some(1e6),
        CRAWLSCHED_TOO_LARGE => {
            // SAFETY: a NUL-terminated thread-local string.
            let msg = unsafe { CStr::from_ptr(crawlsched_last_error_message()) }
                .to_string_lossy()
                .into_owned();
            // Refused for memory (the tagged chain does not fit the cap):
            // no t is cheap enough.
            if msg.contains("memory limit") {
                return None;
            }
            let field = |after: &str, until: &str| -> Option<f64> {
                let rest = &msg[msg.find(after)? + after.len()..];
                rest[..rest.find(until)?].parse().ok()
            };
            let (Some(rate), Some(nnz)) =
                (field("largest rate ", ")"), field(" over ", " entries"))
            else {
                panic!(
                    "crawlsched_threshold_response_cdf: TOO_LARGE message without rate and size: {msg}"
                );
            };
            Some(((1e7 / nnz.max(1.0) - 600.0) / (3.0 * rate)).max(0.0))
        }
        _ => None,
    }
}

/// A control with fuzzer-chosen limits, sometimes cancelled; or NULL.
unsafe fn new_control(h: &mut Harness) -> Control {
    unsafe {
        if h.byte().is_multiple_of(4) {
            return Control(null_mut());
        }
        let c = Control(make!(h, crawlsched_control_new()));
        for _ in 0..h.byte() % 4 {
            let e = h.e();
            let (name, st) = match h.byte() % 4 {
                0 => (
                    "crawlsched_control_set_memory_limit",
                    crawlsched_control_set_memory_limit(c.0, h.size(1 << 20) << 10, e),
                ),
                1 => (
                    "crawlsched_control_set_max_iterations",
                    crawlsched_control_set_max_iterations(c.0, h.size(50), e),
                ),
                2 => (
                    "crawlsched_control_cancel",
                    crawlsched_control_cancel(c.0, e),
                ),
                _ => ("crawlsched_control_reset", crawlsched_control_reset(c.0, e)),
            };
            h.check(name, st, true);
        }
        let mut x = i32::S;
        let e = h.e();
        let st = crawlsched_control_is_cancelled(c.0, &mut x, e);
        if h.check("crawlsched_control_is_cancelled", st, x.is_s()) {
            assert!(x == 0 || x == 1, "crawlsched_control_is_cancelled: {x}");
        }
        c
    }
}

unsafe fn new_arrivals(h: &mut Harness) -> *mut crawlsched_routing_arrivals_t {
    unsafe {
        match h.byte() % 3 {
            0 => make!(h, crawlsched_routing_arrivals_poisson_new(h.f64())),
            1 => {
                let n = h.small(3);
                let q = h.vec(n * n);
                let r = h.vec(n);
                let (lq, lr) = (h.len_for(n * n), h.len_for(n));
                make!(
                    h,
                    crawlsched_routing_arrivals_mmpp_new(h.ptr(&q), lq, h.ptr(&r), lr)
                )
            }
            _ => {
                let n = h.small(3);
                let d0 = h.vec(n * n);
                let d1 = h.vec(n * n);
                let (l0, l1) = (h.len_for(n * n), h.len_for(n * n));
                make!(
                    h,
                    crawlsched_routing_arrivals_map_new(n, h.ptr(&d0), l0, h.ptr(&d1), l1)
                )
            }
        }
    }
}

/// A (out, out_cap, out_len, out_cost, out_evaluations) search result.
fn check_search(
    h: &mut Harness,
    name: &str,
    st: crawlsched_status_t,
    b: &Buf<u32>,
    len: usize,
    c: f64,
    ev: u64,
) {
    let too_small = st == CRAWLSCHED_BUFFER_TOO_SMALL;
    h.check_f(
        name,
        st,
        b.untouched() && (too_small || len.is_s()) && c.is_s() && ev.is_s(),
        &[c],
    );
    if st == CRAWLSCHED_OK {
        assert!(
            len <= b.cap() && all_s(&b.v[len..]),
            "{name}: out_len {len} vs cap {}",
            b.cap()
        );
    }
}

unsafe fn routing(h: &mut Harness) {
    unsafe {
        let a = Arrivals(new_arrivals(h));
        if !a.0.is_null() {
            get_f!(h, crawlsched_routing_arrivals_rate(a.0));
            get_f!(
                h,
                crawlsched_routing_arrivals_transform(a.0, h.f64(), h.index(8))
            );
        }
        let m = h.small(4);
        let rates = h.vec(m);
        let w = h.vec(m);
        let wp = if h.bool() { null() } else { w.as_ptr() };
        let lm = h.len_for(m);
        let s = Servers(make!(
            h,
            crawlsched_routing_servers_new(a.0, h.ptr(&rates), wp, lm, i32::from(h.byte() % 3))
        ));
        let ns = h.small(10);
        let seq: Vec<u32> = (0..ns).map(|_| h.index(4)).collect();
        let ls = h.len_for(ns);
        let r = Router(make!(
            h,
            crawlsched_routing_router_new(h.ptr(&seq), ls, h.index(5))
        ));
        if !r.0.is_null() {
            let mut x = u32::S;
            let e = h.e();
            let st = crawlsched_routing_router_next(r.0, &mut x, e);
            h.check("crawlsched_routing_router_next", st, x.is_s());
            let mut b = Buf::<u32>::new(h, 16);
            let e = h.e();
            let st = crawlsched_routing_router_next_batch(r.0, b.ptr(), b.cap(), e);
            h.check("crawlsched_routing_router_next_batch", st, b.untouched());
        }
        get_f!(h, crawlsched_routing_two_server_cost(h.index(20), h.f64()));
        get_f!(h, crawlsched_routing_switch_point(h.index(20)));
        if s.0.is_null() {
            return;
        }
        let mut x = usize::S;
        let e = h.e();
        let st = crawlsched_routing_servers_len(s.0, &mut x, e);
        h.check("crawlsched_routing_servers_len", st, x.is_s());
        for _ in 0..4 {
            if h.done() {
                break;
            }
            match h.byte() % 5 {
                0 => get_f!(
                    h,
                    crawlsched_routing_immediate_cost(s.0, h.index(4), h.index(12))
                ),
                1 => {
                    let (mut pp, mut pu) = (f64::S, f64::S);
                    let e = h.e();
                    let st = crawlsched_routing_cost(s.0, h.ptr(&seq), ls, &mut pp, &mut pu, e);
                    h.check_f(
                        "crawlsched_routing_cost",
                        st,
                        pp.is_s() && pu.is_s(),
                        &[pp, pu],
                    );
                }
                2 => {
                    let (mut pp, mut se, mut pu) = (f64::S, f64::S, f64::S);
                    let periods = h.size(20).min(200);
                    let seed = u64::from(h.byte());
                    let e = h.e();
                    let st = crawlsched_routing_simulate(
                        s.0,
                        h.ptr(&seq),
                        ls,
                        periods,
                        seed,
                        std::ptr::null(),
                        &mut pp,
                        &mut se,
                        &mut pu,
                        e,
                    );
                    h.check_f(
                        "crawlsched_routing_simulate",
                        st,
                        pp.is_s() && se.is_s() && pu.is_s(),
                        &[pp, se, pu],
                    );
                }
                k @ 3..=4 => {
                    // Periods stay small: the exhaustive search is exponential in them.
                    let (lo, hi) = (u64::from(h.byte() % 6), u64::from(h.byte() % 7));
                    let mut b = Buf::<u32>::new(h, 8);
                    let (mut len, mut c, mut ev) = (usize::S, f64::S, u64::S);
                    let e = h.e();
                    let (name, st) = match (k, h.byte() % 2) {
                        (3, 0) => (
                            "crawlsched_routing_optimize_exhaustive",
                            crawlsched_routing_optimize_exhaustive(
                                s.0,
                                lo,
                                hi,
                                std::ptr::null(),
                                b.ptr(),
                                b.cap(),
                                &mut len,
                                &mut c,
                                &mut ev,
                                e,
                            ),
                        ),
                        (3, _) => (
                            "crawlsched_routing_optimize_local",
                            crawlsched_routing_optimize_local(
                                s.0,
                                lo,
                                hi,
                                std::ptr::null(),
                                b.ptr(),
                                b.cap(),
                                &mut len,
                                &mut c,
                                &mut ev,
                                e,
                            ),
                        ),
                        _ => (
                            "crawlsched_routing_local_search_multimodular",
                            crawlsched_routing_local_search_multimodular(
                                s.0,
                                h.ptr(&seq),
                                ls,
                                std::ptr::null(),
                                b.ptr(),
                                b.cap(),
                                &mut len,
                                &mut c,
                                &mut ev,
                                e,
                            ),
                        ),
                    };
                    check_search(h, name, st, &b, len, c, ev);
                }
                _ => unreachable!(),
            }
        }
    }
}

// --------------------------------------------------------------- probe

/// Piecewise-constant breaks from 0: fuzzer-chosen gaps.
fn breaks(h: &mut Harness, pieces: usize) -> Vec<f64> {
    let mut b = vec![0.0];
    for _ in 0..pieces {
        let gap = if h.byte().is_multiple_of(8) {
            h.f64()
        } else {
            h.pos(10.0)
        };
        b.push(b.last().copied().unwrap_or(0.0) + gap);
    }
    if h.byte().is_multiple_of(16) {
        b[0] = h.f64();
    }
    b
}

/// A profile, and whether its intensity and importance are at most 1e3
/// (then the policy schedules below have a moderate number of probes).
unsafe fn new_profile(h: &mut Harness) -> (*mut crawlsched_probe_profile_t, bool) {
    unsafe {
        match h.byte() % 5 {
            0 => {
                let ratio = h.f64();
                (
                    make!(h, crawlsched_probe_profile_dbworld(ratio, h.pos(14.0))),
                    ratio.abs() <= 1e3,
                )
            }
            1 => {
                let ratio = h.f64();
                (
                    make!(h, crawlsched_probe_profile_micronet(ratio, h.pos(14.0))),
                    ratio.abs() <= 1e3,
                )
            }
            _ => {
                let (lp, ap) = (h.small(5), h.small(5));
                let lb = breaks(h, lp);
                let lv = h.vec(lp);
                let ab = breaks(h, ap);
                let av = h.vec(ap);
                let (lper, aper) = (i32::from(h.byte() % 3), i32::from(h.byte() % 3));
                let mut horizon = h.pos(50.0);
                // A periodic profile stores its pieces over the whole horizon
                // (memory caps are issue 10's "resource limits", not this
                // harness's): keep horizon/period moderate.
                for (per, b) in [(lper, &lb), (aper, &ab)] {
                    let period = b.last().copied().unwrap_or(0.0);
                    if per != 0 && period > 0.0 && horizon / period > 1e4 {
                        horizon = period * 1e4;
                    }
                }
                let (nl, na) = (h.len_for(lp), h.len_for(ap));
                let tame = lv.iter().chain(&av).all(|x| x.abs() <= 1e3);
                let p = make!(
                    h,
                    crawlsched_probe_profile_new(
                        h.ptr(&lb),
                        h.ptr(&lv),
                        nl,
                        lper,
                        h.ptr(&ab),
                        h.ptr(&av),
                        na,
                        aper,
                        horizon
                    )
                );
                (p, tame)
            }
        }
    }
}

/// Probe times: sorted fuzzer values or raw ones.
fn times(h: &mut Harness, max: usize) -> Vec<f64> {
    let n = h.small(max);
    let mut t: Vec<f64> = (0..n).map(|_| h.pos(50.0)).collect();
    if !h.byte().is_multiple_of(4) {
        t.sort_by(f64::total_cmp);
    }
    t
}

unsafe fn probe(h: &mut Harness) {
    unsafe {
        if h.byte().is_multiple_of(5) {
            // Intensity estimation from timestamps (no profile).
            let t = times(h, 16);
            let lt = h.len_for(t.len());
            let pieces = h.small(5);
            let b = breaks(h, pieces);
            let lb = h.len_for(pieces);
            let mut out = Buf::<f64>::new(h, 6);
            let (window, per, smooth) = (h.f64(), i32::from(h.byte() % 3), h.f64());
            let e = h.e();
            let st = crawlsched_probe_estimate_intensity(
                h.ptr(&t),
                lt,
                window,
                h.ptr(&b),
                lb,
                per,
                smooth,
                out.ptr(),
                out.cap(),
                e,
            );
            let written: Vec<f64> = out.v.iter().copied().take(lb).collect();
            h.check_f(
                "crawlsched_probe_estimate_intensity",
                st,
                out.untouched(),
                &written,
            );
            return;
        }
        let (p, tame) = new_profile(h);
        let p = Profile(p);
        if p.0.is_null() {
            return;
        }
        let grid = match h.byte() % 16 {
            0 => u64::MAX,
            1 => 0,
            _ => u64::from(h.byte() % 48),
        };
        let pl = Planner(make!(h, crawlsched_probe_planner_new(p.0, grid, h.f64())));
        for _ in 0..6 {
            if h.done() {
                break;
            }
            // Selector bytes from 250 are new (set_control): the older
            // inputs keep their decoding.
            let selector = h.byte();
            if selector >= 250 {
                if !pl.0.is_null() {
                    let ctl = new_control(h);
                    let e = h.e();
                    let st = crawlsched_probe_planner_set_control(pl.0, ctl.0, e);
                    h.check("crawlsched_probe_planner_set_control", st, true);
                    // The planner keeps its own reference: the control is
                    // freed here.
                }
                continue;
            }
            match selector % 10 {
                0 => get_f!(h, crawlsched_probe_interval_cost(p.0, h.f64(), h.f64())),
                1 => {
                    let t = times(h, 12);
                    let lt = h.len_for(t.len());
                    get_f!(h, crawlsched_probe_expected_cost(p.0, h.ptr(&t), lt));
                }
                2 => {
                    let t = times(h, 12);
                    let u = times(h, 12);
                    let (lt, lu) = (h.len_for(t.len()), h.len_for(u.len()));
                    get_f!(
                        h,
                        crawlsched_probe_realized_cost(p.0, h.ptr(&t), lt, h.ptr(&u), lu)
                    );
                }
                3 => {
                    let n = h.size(16).min(64);
                    let mut out = Buf::<f64>::new(h, 20);
                    let e = h.e();
                    let st = crawlsched_probe_uniform(p.0, n, out.ptr(), out.cap(), e);
                    let written: Vec<f64> = out.v.iter().copied().take(n as usize).collect();
                    h.check_f("crawlsched_probe_uniform", st, out.untouched(), &written);
                }
                4 => {
                    let mut out = Buf::<f64>::new(h, 32);
                    let mut len = usize::S;
                    let (pol, par) = (i32::from(h.byte() % 3), h.f64());
                    // A schedule can have up to 10^7 probes (the library's
                    // bound): seconds per input. Keep it to tame cases.
                    if !tame || (par.abs() < 1e-2 && par != 0.0) {
                        continue;
                    }
                    let e = h.e();
                    let st = crawlsched_probe_policy_schedule(
                        p.0,
                        pol,
                        par,
                        out.ptr(),
                        out.cap(),
                        &mut len,
                        e,
                    );
                    let too_small = st == CRAWLSCHED_BUFFER_TOO_SMALL;
                    h.check(
                        "crawlsched_probe_policy_schedule",
                        st,
                        out.untouched() && (too_small || len.is_s()),
                    );
                    if st == CRAWLSCHED_OK {
                        assert!(len <= out.cap(), "policy_schedule: out_len {len} > cap");
                        let written = out.v[..len].to_vec();
                        h.check_f("crawlsched_probe_policy_schedule", st, true, &written);
                    }
                }
                5 => {
                    let n = h.size(8).min(32);
                    let mut out = Buf::<f64>::new(h, 12);
                    let mut par = f64::S;
                    let pol = i32::from(h.byte() % 3);
                    if !tame {
                        continue;
                    }
                    let e = h.e();
                    let st = crawlsched_probe_policy_with_budget(
                        p.0,
                        pol,
                        n,
                        &mut par,
                        out.ptr(),
                        out.cap(),
                        e,
                    );
                    let written: Vec<f64> = out.v.iter().copied().take(n as usize).collect();
                    let mut all = vec![par];
                    all.extend(written);
                    h.check_f(
                        "crawlsched_probe_policy_with_budget",
                        st,
                        out.untouched() && par.is_s(),
                        &all,
                    );
                }
                6 => {
                    let t = times(h, 8);
                    let lt = h.len_for(t.len());
                    let (delta, mu0, mu_min, rho, iota) =
                        (h.f64(), h.f64(), h.f64(), h.f64(), h.f64());
                    // mu_min bounds the number of steps: keep it from vanishing.
                    let mu_min = if mu_min.abs() < 1e-6 && h.bool() {
                        1e-3
                    } else {
                        mu_min
                    };
                    let mut out = Buf::<f64>::new(h, 10);
                    let mut moves = u64::S;
                    let e = h.e();
                    let st = crawlsched_probe_improve(
                        p.0,
                        h.ptr(&t),
                        lt,
                        delta,
                        mu0,
                        mu_min,
                        rho,
                        iota,
                        out.ptr(),
                        out.cap(),
                        &mut moves,
                        e,
                    );
                    let written: Vec<f64> = out.v.iter().copied().take(lt).collect();
                    h.check_f(
                        "crawlsched_probe_improve",
                        st,
                        out.untouched() && moves.is_s(),
                        &written,
                    );
                }
                7 if !pl.0.is_null() => {
                    let k = h.small(4);
                    let s = times(h, k);
                    let en: Vec<f64> = s.iter().map(|x| x + h.pos(5.0)).collect();
                    let ln = h.len_for(s.len().min(en.len()));
                    let e = h.e();
                    let st = crawlsched_probe_planner_set_constraints(
                        pl.0,
                        h.f64(),
                        h.ptr(&s),
                        h.ptr(&en),
                        ln,
                        e,
                    );
                    h.check("crawlsched_probe_planner_set_constraints", st, true);
                }
                8 if !pl.0.is_null() => {
                    let q = Profile(new_profile(h).0);
                    let e = h.e();
                    let st = crawlsched_probe_planner_set_profile(pl.0, q.0, e);
                    h.check("crawlsched_probe_planner_set_profile", st, true);
                }
                _ if !pl.0.is_null() => {
                    if h.bool() {
                        let n = h.size(6).min(50);
                        let mut out = Buf::<f64>::new(h, 12);
                        let mut c = f64::S;
                        let method = i32::from(h.byte() % 5);
                        let e = h.e();
                        let st = crawlsched_probe_planner_plan(
                            pl.0,
                            n,
                            method,
                            out.ptr(),
                            out.cap(),
                            &mut c,
                            e,
                        );
                        let written: Vec<f64> = out.v.iter().copied().take(n as usize).collect();
                        let mut all = vec![c];
                        all.extend(written);
                        h.check_f(
                            "crawlsched_probe_planner_plan",
                            st,
                            out.untouched() && c.is_s(),
                            &all,
                        );
                    } else {
                        let n = h.size(6).min(50);
                        let mut out = Buf::<f64>::new(h, 12);
                        let e = h.e();
                        let st =
                            crawlsched_probe_planner_all_costs(pl.0, n, out.ptr(), out.cap(), e);
                        h.check("crawlsched_probe_planner_all_costs", st, out.untouched());
                    }
                }
                _ => {}
            }
        }
    }
}
