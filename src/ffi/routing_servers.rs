//! C API of [`crate::routing`] (Altman, Bhulai, Gaujal, Hordijk): arrival
//! processes, server sets with an objective, exact costs, optimal periodic
//! policies, the two-server analysis of Figure 1, simulation, and a
//! streaming router.
//!
//! Server indices in sequences are `uint32_t`, 0-based positions in the
//! server set's arrays.

#![allow(non_camel_case_types)]

use super::common::*;
use super::control::{control_in, crawlsched_control_t};
use super::routing_arrivals::crawlsched_routing_arrivals_t;
use crate::routing::search;
use crate::routing::{Objective, RoutingSystem, cost, simulate, two_server};

/// Objective: expected weighted number of packets lost (preempted) per
/// packet, weight c_m per loss at server m (paper §5).
pub const CRAWLSCHED_ROUTING_LOSSES: i32 = 0;
/// Objective: robot scheduling (paper §6, Remark 6.1): server m is a page
/// changing at rate mu_m; the cost is the weighted time pages are stale.
pub const CRAWLSCHED_ROUTING_ROBOT: i32 = 1;

/// M servers (exponential service rates, cost weights) fed by one arrival
/// process, with an objective. Immutable: shareable between threads.
/// Free with crawlsched_routing_servers_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_routing_servers_t {
    magic: u64,
    pub(super) inner: RoutingSystem,
}
impl_handle!(
    crawlsched_routing_servers_t,
    RoutingSystem,
    "routing server set",
    0x6372_6177_6c72_7376
);

/// A server set of m >= 1 servers: service rates[i] > 0, weights[i] > 0
/// (NULL: all 1), objective CRAWLSCHED_ROUTING_LOSSES or _ROBOT. The
/// arrival process is copied.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_servers_new(
    arrivals: *const crawlsched_routing_arrivals_t,
    rates: *const f64,
    weights: *const f64,
    m: usize,
    objective: i32,
    out: *mut *mut crawlsched_routing_servers_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let a = unsafe { handle(arrivals, "arrivals")? };
        let r = unsafe { slice_in(rates, m, "rates")? };
        let w = if weights.is_null() {
            None
        } else {
            Some(unsafe { slice_in(weights, m, "weights")? })
        };
        let objective = match objective {
            CRAWLSCHED_ROUTING_LOSSES => Objective::Losses,
            CRAWLSCHED_ROUTING_ROBOT => Objective::RobotScheduling,
            o => return Err(FfiError::invalid(format!("unknown routing objective {o}"))),
        };
        let sys = RoutingSystem::new(a.inner.clone(), r, w, objective)?;
        publish(Ok(sys), out)
    })
}

/// Releases a server set. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_servers_free(s: *mut crawlsched_routing_servers_t) {
    guard_value((), || unsafe { free_handle(s) })
}

/// Number of servers M.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_servers_len(
    s: *const crawlsched_routing_servers_t,
    out: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let s = unsafe { handle(s, "servers")? };
        Out::new(out, "out")?.write(s.inner.len());
        Ok(())
    })
}

/// The immediate cost f_m(k) = c(x, m) of routing to server m when k >= 1
/// arrivals have passed since its last packet (losses: c_m E exp(-mu_m sum
/// tau); robot: Remark 6.1). CRAWLSCHED_NOT_FOUND if m >= M.
/// CRAWLSCHED_TOO_LARGE, before any work, when k * 2d^2 > 2^31 (arrivals
/// of order d).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_immediate_cost(
    s: *const crawlsched_routing_servers_t,
    server: u32,
    k: u32,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let s = unsafe { handle(s, "servers")? };
        write_value(out, "cost", || {
            Ok(s.inner.immediate_cost(server as usize, k as usize)?)
        })
    })
}

/// Exact cost of repeating the period seq[0..len] (server indices) forever,
/// eq. (6): per packet into *out_per_packet and per unit time (times
/// lambda) into *out_per_unit_time. A server absent from the period costs
/// lim f_m(k)/k per packet (0 for losses; c_m E tau for robot scheduling,
/// the page being always stale). len must be in 1..=2^20 (TOO_LARGE above),
/// and M * len * 2d^2 <= 2^31 for arrivals of order d (the cost table;
/// TOO_LARGE above, before any work).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_cost(
    s: *const crawlsched_routing_servers_t,
    seq: *const u32,
    len: usize,
    out_per_packet: *mut f64,
    out_per_unit_time: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let s = unsafe { handle(s, "servers")? };
        let o1 = Out::new(out_per_packet, "out_per_packet")?;
        let o2 = Out::new(out_per_unit_time, "out_per_unit_time")?;
        let seq = unsafe { slice_in(seq, len, "seq")? };
        let e = cost::evaluate(&s.inner, &indices(seq))?;
        let (a, b) = (
            finite("cost", e.per_packet)?,
            finite("cost", e.per_unit_time)?,
        );
        o1.write(a);
        o2.write(b);
        Ok(())
    })
}

/// Which search [`optimize`] runs.
#[derive(Clone, Copy)]
enum Method {
    Exhaustive,
    Local,
}

/// The outputs of a period search: the period ((out, out_cap, out_len)),
/// its cost per packet and the number of sequences evaluated, checked
/// before the search and written after it.
struct SearchOut<'a> {
    period: OutBuffer<'a, u32>,
    cost: Out<f64>,
    evaluations: Out<u64>,
}

impl SearchOut<'_> {
    /// # Safety
    /// Pointers as documented on the exports.
    unsafe fn new(
        (out, out_cap, out_len): (*mut u32, usize, *mut usize),
        (out_cost, out_evaluations): (*mut f64, *mut u64),
    ) -> FfiResult<Self> {
        Ok(SearchOut {
            period: unsafe { OutBuffer::new(out, out_cap, out_len, "out")? },
            cost: Out::new(out_cost, "out_cost")?,
            evaluations: Out::new(out_evaluations, "out_evaluations")?,
        })
    }

    fn write(self, r: &search::SearchResult) -> FfiResult<()> {
        let c = finite("cost", r.evaluation.per_packet)?;
        self.period.write(&to_u32(&r.period, "server")?)?;
        self.cost.write(c);
        self.evaluations.write(r.evaluations);
        Ok(())
    }
}

/// The search of crawlsched_routing_optimize_exhaustive() or _local() and
/// its outputs ((out, out_cap, out_len), (out_cost, out_evaluations)).
///
/// # Safety
/// Pointers as documented on the exports.
unsafe fn optimize(
    s: *const crawlsched_routing_servers_t,
    min_period: u64,
    max_period: u64,
    method: Method,
    ctl: *const crawlsched_control_t,
    period: (*mut u32, usize, *mut usize),
    scalars: (*mut f64, *mut u64),
) -> FfiResult<()> {
    // No control: the documented work bounds (nothing could cancel the call).
    let control = if ctl.is_null() {
        None
    } else {
        Some(unsafe { control_in(ctl)? })
    };
    let s = unsafe { handle(s, "servers")? };
    let outs = unsafe { SearchOut::new(period, scalars)? };
    let (lo, hi) = (
        usize_from(min_period, "min_period")?,
        usize_from(max_period, "max_period")?,
    );
    let r = match (method, &control) {
        (Method::Exhaustive, None) => search::exhaustive(&s.inner, lo, hi)?,
        (Method::Exhaustive, Some(c)) => search::exhaustive_with(&s.inner, lo, hi, c)?,
        (Method::Local, None) => search::optimize_local(&s.inner, lo, hi)?,
        (Method::Local, Some(c)) => search::optimize_local_with(&s.inner, lo, hi, c)?,
    };
    outs.write(&r)
}

/// The exact optimal periodic policy over all periods of length
/// min_period..=max_period (enumeration up to rotation, about
/// sum M^n / n sequences; TOO_LARGE beyond 5e7). The period goes to out
/// (variable size: see docs/c-api.md), its cost per packet to *out_cost and
/// the number of sequences evaluated to *out_evaluations. A server may be
/// absent from the optimum (Remark 6.1): check the period. Without a
/// control (ctl NULL) the cost table must take at most 2^31 multiply-adds
/// (M * max_period * 2d^2 for arrivals of order d; TOO_LARGE above, before
/// any work). Under a control that bound is lifted: its memory cap (else
/// the process-wide default) applies to the cost table, its iteration cap
/// to the sequences evaluated (CRAWLSCHED_NOT_CONVERGED when reached: a
/// partial enumeration proves nothing, so nothing is written), and
/// cancelling it from another thread returns CRAWLSCHED_CANCELLED within
/// 65,536 sequences or 2^20 multiply-adds of the cost table. An
/// interrupted search writes no output.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_optimize_exhaustive(
    s: *const crawlsched_routing_servers_t,
    min_period: u64,
    max_period: u64,
    ctl: *const crawlsched_control_t,
    out: *mut u32,
    out_cap: usize,
    out_len: *mut usize,
    out_cost: *mut f64,
    out_evaluations: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        optimize(
            s,
            min_period,
            max_period,
            Method::Exhaustive,
            ctl,
            (out, out_cap, out_len),
            (out_cost, out_evaluations),
        )
    })
}

/// Local search (neighbourhood of Theorem 4.2 restricted to relabelling one
/// position or exchanging two) from the balanced (billiard) sequence of
/// each period length in min_period..=max_period (<= 2^20); the best
/// period found. Outputs as crawlsched_routing_optimize_exhaustive, with
/// *out_evaluations the number of neighbours evaluated. Exact for the
/// instances tested against enumeration; a heuristic in general.
/// Without a control (ctl NULL) its cost is bounded (a few seconds): at
/// most 2^27 neighbour evaluations in all (each scan of a period n's
/// neighbourhood is about n^2/2 + nM of them); CRAWLSCHED_TOO_LARGE,
/// before any work, when one scan of every period in the range already
/// exceeds that (sum of n(n-1)/2 + 2nM; e.g. max_period near 2^20), or
/// when the cost table takes more than 2^31 multiply-adds
/// (M * max_period * 2d^2 for arrivals of order d);
/// CRAWLSCHED_NOT_CONVERGED, with nothing written, when the search reaches
/// the bound. A control lifts both
/// bounds: its memory cap applies to the cost table and the search
/// tables, its iteration cap to the neighbourhood scans (one per move,
/// plus the final one) of all periods together (CRAWLSCHED_NOT_CONVERGED
/// when reached: the period is then not known to be a local optimum, so
/// nothing is written), and cancelling it returns CRAWLSCHED_CANCELLED
/// within one position's neighbours (O(max_period + M)), 65,536 steps of
/// the balanced start counts or 2^20 multiply-adds of the cost table. An
/// interrupted search writes no output.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_optimize_local(
    s: *const crawlsched_routing_servers_t,
    min_period: u64,
    max_period: u64,
    ctl: *const crawlsched_control_t,
    out: *mut u32,
    out_cap: usize,
    out_len: *mut usize,
    out_cost: *mut f64,
    out_evaluations: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        optimize(
            s,
            min_period,
            max_period,
            Method::Local,
            ctl,
            (out, out_cap, out_len),
            (out_cost, out_evaluations),
        )
    })
}

/// Local search from a given period seq[0..len] with the full
/// neighbourhood of Theorem 4.2 (2^(len+1) - 2 points; M = 2 servers,
/// len <= 20): by Theorems 4.2 and 4.4 the result is optimal among all
/// periods of that length. Outputs as crawlsched_routing_optimize_exhaustive.
/// Under the control ctl (NULL: none), its iteration cap bounds the
/// neighbourhood scans (one per move, plus the final one;
/// CRAWLSCHED_NOT_CONVERGED when reached), and cancelling it returns
/// CRAWLSCHED_CANCELLED within 65,536 neighbours. An interrupted search
/// writes no output.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_local_search_multimodular(
    s: *const crawlsched_routing_servers_t,
    seq: *const u32,
    len: usize,
    ctl: *const crawlsched_control_t,
    out: *mut u32,
    out_cap: usize,
    out_len: *mut usize,
    out_cost: *mut f64,
    out_evaluations: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let control = unsafe { control_in(ctl)? };
        let s = unsafe { handle(s, "servers")? };
        let outs = unsafe { SearchOut::new((out, out_cap, out_len), (out_cost, out_evaluations))? };
        let start = indices(unsafe { slice_in(seq, len, "seq")? });
        outs.write(&search::multimodular_search(&s.inner, &start, &control)?)
    })
}

/// The balanced (billiard) sequence with counts[m] visits of server m
/// (n = sum counts <= 2^20): visit k of m at ideal time (k + 1/2) n /
/// counts[m]. Writes server indices to out (variable size).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_balanced_sequence(
    counts: *const u64,
    m: usize,
    out: *mut u32,
    out_cap: usize,
    out_len: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let buf = unsafe { OutBuffer::new(out, out_cap, out_len, "out")? };
        let c = unsafe { slice_in(counts, m, "counts")? };
        let c: Vec<usize> = c
            .iter()
            .map(|&x| usize_from(x, "count"))
            .collect::<FfiResult<_>>()?;
        let seq = search::balanced_sequence(&c)?;
        buf.write(&to_u32(&seq, "server")?)
    })
}

/// Monte Carlo of `periods` repetitions of seq[0..len] (after one warm-up
/// period) with the server set's arrivals and exponential services,
/// seeded: the cost per packet, its batch-means standard error, and the
/// cost per unit time. Validates crawlsched_routing_cost. Cost: len times
/// (periods + 1) packets, each about Sum theta_i r_i / lambda phase
/// transitions of an MMPP/MAP (theta stationary, r_i the phase's total
/// rate; one for Poisson); CRAWLSCHED_TOO_LARGE, before any work, beyond
/// 10^10 of them (e.g. arrival rates tiny against the phase changes).
/// Under the control ctl (NULL: none), cancelling it from another thread
/// returns CRAWLSCHED_CANCELLED within 65,536 packets, with no output
/// written; its iteration cap does not apply (periods already bounds the
/// run).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_simulate(
    s: *const crawlsched_routing_servers_t,
    seq: *const u32,
    len: usize,
    periods: u64,
    seed: u64,
    ctl: *const crawlsched_control_t,
    out_per_packet: *mut f64,
    out_std_error: *mut f64,
    out_per_unit_time: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let control = unsafe { control_in(ctl)? };
        let s = unsafe { handle(s, "servers")? };
        let o1 = Out::new(out_per_packet, "out_per_packet")?;
        let o2 = Out::new(out_std_error, "out_std_error")?;
        let o3 = Out::new(out_per_unit_time, "out_per_unit_time")?;
        let seq = unsafe { slice_in(seq, len, "seq")? };
        let r = simulate::simulate_with(&s.inner, &indices(seq), periods, seed, &control)?;
        let v = (
            finite("cost", r.per_packet)?,
            finite("std_error", r.std_error)?,
            finite("cost", r.per_unit_time)?,
        );
        o1.write(v.0);
        o2.write(v.1);
        o3.write(v.2);
        Ok(())
    })
}

/// g(n, mu2) of paper §5 (Figure 1; lambda = mu1 = 1): the cost per packet
/// of the period (1, 2, ..., 2) of length n (2 <= n <= 60), mu2 > 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_two_server_cost(
    n: u32,
    mu2: f64,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        write_value(out, "cost", || Ok(two_server::cost(n, mu2)?))
    })
}

/// The rate mu2 at which the optimal period of Figure 1 grows from length
/// n to n + 1 (2 <= n < 60): the root of g(n, mu2) = g(n + 1, mu2);
/// 1 + sqrt(2) for n = 2.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_switch_point(
    n: u32,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        write_value(out, "switch point", || Ok(two_server::switch_point(n)?))
    })
}
