//! Feeds fuzzer-chosen lengths and values to the C entry points that take
//! arrays or matrices: phase-type (alpha, S), BMAP matrices, MAP/MMPP
//! generators, MDP rows, probe profiles and timestamps, freshness rates.
//! Every call must return a status (never crash, hang or leak); on success
//! the handle is used once and freed. Lengths passed to C never exceed the
//! buffers actually supplied, as the C contract requires.
#![no_main]

use crawlsched::ffi::common::*;
use crawlsched::ffi::dist::*;
use crawlsched::ffi::freshness::*;
use crawlsched::ffi::mdp::*;
use crawlsched::ffi::probe::*;
use crawlsched::ffi::routing::*;
use crawlsched::ffi::threshold::*;
use libfuzzer_sys::fuzz_target;
use std::ptr::{null, null_mut};

/// Reads small integers and doubles (any bit pattern: NaN, inf, subnormal).
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn f64(&mut self) -> f64 {
        // Half the time a "nice" value, so valid inputs are reached too.
        let tag = self.byte();
        if tag & 1 == 0 {
            let b = self.byte() as i8;
            return f64::from(b) / 4.0;
        }
        let mut raw = [0u8; 8];
        for r in &mut raw {
            *r = self.byte();
        }
        f64::from_le_bytes(raw)
    }
    fn vec(&mut self, n: usize) -> Vec<f64> {
        (0..n).map(|_| self.f64()).collect()
    }
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input(data);
    let which = inp.byte() % 7;
    let n = usize::from(inp.byte() % 6);
    let mut err = crawlsched_error_t { status: 0, message: [0; CRAWLSCHED_ERROR_MESSAGE_SIZE] };
    let e = &mut err as *mut crawlsched_error_t;
    // SAFETY: every pointer is valid for the length passed with it.
    unsafe {
        match which {
            0 => {
                let alpha = inp.vec(n);
                let s = inp.vec(n * n);
                let mut d = null_mut();
                if crawlsched_dist_phase_type_new(alpha.as_ptr(), n, s.as_ptr(), n * n, &mut d, e) == CRAWLSCHED_OK {
                    let mut x = 0.0;
                    crawlsched_dist_mean(d, &mut x, e);
                    crawlsched_dist_cdf(d, inp.f64(), &mut x, e);
                    crawlsched_dist_free(d);
                }
            }
            1 => {
                let k = 2 + usize::from(inp.byte() % 3);
                let m = inp.vec(k * n * n);
                let mut b = null_mut();
                if crawlsched_bmap_new(n, m.as_ptr(), m.len(), &mut b, e) == CRAWLSCHED_OK {
                    crawlsched_bmap_free(b);
                }
            }
            2 => {
                let d0 = inp.vec(n * n);
                let d1 = inp.vec(n * n);
                let mut a = null_mut();
                if crawlsched_routing_arrivals_map_new(n, d0.as_ptr(), d0.len(), d1.as_ptr(), d1.len(), &mut a, e)
                    == CRAWLSCHED_OK
                {
                    let mut x = 0.0;
                    crawlsched_routing_arrivals_rate(a, &mut x, e);
                    crawlsched_routing_arrivals_free(a);
                }
                let q = inp.vec(n * n);
                let rates = inp.vec(n);
                let mut a = null_mut();
                if crawlsched_routing_arrivals_mmpp_new(q.as_ptr(), q.len(), rates.as_ptr(), n, &mut a, e)
                    == CRAWLSCHED_OK
                {
                    crawlsched_routing_arrivals_free(a);
                }
            }
            3 => {
                let states = 1 + n;
                let mut b = null_mut();
                if crawlsched_mdp_builder_new(states, &mut b, e) != CRAWLSCHED_OK {
                    return;
                }
                for _ in 0..inp.byte() % 8 {
                    let s = u32::from(inp.byte()) % (states as u32 + 1);
                    let len = usize::from(inp.byte() % 4);
                    let next: Vec<u32> = (0..len).map(|_| u32::from(inp.byte()) % (states as u32 + 1)).collect();
                    let prob = inp.vec(len);
                    let mut act = 0u32;
                    crawlsched_mdp_builder_add_action(b, s, next.as_ptr(), prob.as_ptr(), len, inp.f64(), &mut act, e);
                }
                let mut m = null_mut();
                if crawlsched_mdp_build(b, &mut m, e) == CRAWLSCHED_OK {
                    let mut s = null_mut();
                    if crawlsched_mdp_solver_new(i32::from(inp.byte() % 5), &mut s, e) == CRAWLSCHED_OK {
                        crawlsched_mdp_solver_set_limits(s, 1e-9, 200, 0, e);
                        crawlsched_mdp_solver_run(s, m, e);
                        crawlsched_mdp_solver_free(s);
                    }
                    crawlsched_mdp_free(m);
                }
                crawlsched_mdp_builder_free(b);
            }
            4 => {
                let pieces = n;
                let lb = inp.vec(pieces + 1);
                let lv = inp.vec(pieces);
                let ab = inp.vec(2);
                let av = inp.vec(1);
                let per = i32::from(inp.byte() % 3);
                let mut p = null_mut();
                let st = crawlsched_probe_profile_new(
                    lb.as_ptr(), lv.as_ptr(), pieces, per, ab.as_ptr(), av.as_ptr(), 1, per, inp.f64(), &mut p, e,
                );
                if st == CRAWLSCHED_OK {
                    let mut c = 0.0;
                    crawlsched_probe_interval_cost(p, inp.f64(), inp.f64(), &mut c, e);
                    let mut pl = null_mut();
                    let grid = u64::from(inp.byte() % 16);
                    if crawlsched_probe_planner_new(p, grid, inp.f64(), &mut pl, e) == CRAWLSCHED_OK {
                        let mut out = [0.0; 16];
                        let mut cost = 0.0;
                        let k = u64::from(inp.byte() % 5);
                        crawlsched_probe_planner_plan(pl, k, i32::from(inp.byte() % 5), out.as_mut_ptr(), 16, &mut cost, e);
                        crawlsched_probe_planner_free(pl);
                    }
                    crawlsched_probe_profile_free(p);
                }
            }
            5 => {
                let times = inp.vec(n * 2);
                let breaks = inp.vec(n + 1);
                let mut out = [0.0; 8];
                crawlsched_probe_estimate_intensity(
                    times.as_ptr(), times.len(), inp.f64(), breaks.as_ptr(), n, i32::from(inp.byte() % 3),
                    inp.f64(), out.as_mut_ptr(), 8, e,
                );
            }
            _ => {
                let mut d = null_mut();
                if crawlsched_dist_exponential_new(1.0, &mut d, e) != CRAWLSCHED_OK {
                    return;
                }
                let mu = inp.vec(n);
                let w = inp.vec(n);
                let wp = if inp.byte() & 1 == 0 { null() } else { w.as_ptr() };
                let mut m = null_mut();
                if crawlsched_freshness_model_new(d, mu.as_ptr(), wp, n, &mut m, e) == CRAWLSCHED_OK {
                    let mut f = [0.0; 8];
                    crawlsched_freshness_optimal_frequencies(m, f.as_mut_ptr(), 8, e);
                    crawlsched_freshness_model_free(m);
                }
                crawlsched_dist_free(d);
            }
        }
    }
    // A failure must say why.
    if err.status != CRAWLSCHED_OK {
        assert!(err.message[0] != 0, "status {} without a message", err.status);
        assert!(err.status != CRAWLSCHED_PANIC, "caught panic: {:?}", err.message);
    }
});
