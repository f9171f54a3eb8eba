//! C API of [`crate::freshness`] (Coffman, Liu, Weber): models, optimal
//! frequencies, bounds, cyclic schedules, simulation.
//!
//! Page indices in sequences are `uint32_t` (0-based positions in the
//! model's arrays); counts are `uint64_t`, so the same arrays work from C,
//! Go, Java and Python without `size_t` conversions.

#![allow(non_camel_case_types)]

use super::common::*;
use super::control::{control_in, crawlsched_control_t};
use super::dist::crawlsched_dist_t;
use crate::freshness::polite::{PoliteObjective, PoliteOptions, PolitePlan, polite_frequencies};
use crate::freshness::{Model, cyclic, frequencies, randomized, simulate};

/// N pages (change rates, cost weights) and the access-time distribution.
/// Immutable: one handle may be used from any number of threads at once.
/// Free with crawlsched_freshness_model_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_freshness_model_t {
    magic: u64,
    pub(super) inner: Model,
}
impl_handle!(
    crawlsched_freshness_model_t,
    Model,
    "freshness model",
    0x6372_6177_6c66_7265
);

/// Builds a model of n pages: page i changes at rate change_rates[i] > 0
/// and weighs weights[i] > 0 in the cost C = sum c_i r_i. weights may be
/// NULL, meaning c_i = change_rates[i] (the cost is then the rate of missed
/// changes, the case of Theorem 3.4). The access distribution is copied:
/// `access` may be freed afterwards. The model holds 40 bytes per page,
/// checked against the process-wide memory cap (CRAWLSCHED_TOO_LARGE).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_model_new(
    access: *const crawlsched_dist_t,
    change_rates: *const f64,
    weights: *const f64,
    n: usize,
    out: *mut *mut crawlsched_freshness_model_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let d = unsafe { handle(access, "access")? };
        let mu = unsafe { slice_in(change_rates, n, "change_rates")? };
        let w = if weights.is_null() {
            None
        } else {
            Some(unsafe { slice_in(weights, n, "weights")? })
        };
        let model = Model::new(d.inner.clone(), mu, w)?;
        publish(Ok(model), out)
    })
}

/// Releases a model. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_model_free(model: *mut crawlsched_freshness_model_t) {
    guard_value((), || unsafe { free_handle(model) })
}

/// Number of pages N.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_model_len(
    model: *const crawlsched_freshness_model_t,
    out: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        Out::new(out, "out")?.write(m.inner.len());
        Ok(())
    })
}

/// h_i = E[exp(-mu_i X)] for every page, into out[0..N] (out_cap >= N).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_model_h(
    model: *const crawlsched_freshness_model_t,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let dst = unsafe { out_exact(out, out_cap, m.inner.len(), "out")? };
        write_finite(dst, m.inner.h(), "h")
    })
}

/// The exports "model + frequencies -> cost" (even spacing, randomized):
/// model, out, freq, in this order.
///
/// # Safety
/// Pointers as documented on the exports.
unsafe fn cost_of(
    model: *const crawlsched_freshness_model_t,
    freq: *const f64,
    n: usize,
    out: *mut f64,
    cost: fn(&Model, &[f64]) -> crate::Result<f64>,
) -> FfiResult<()> {
    let m = unsafe { handle(model, "model")? };
    write_value(out, "cost", || {
        let f = unsafe { slice_in(freq, n, "freq")? };
        Ok(cost(&m.inner, f)?)
    })
}

/// The exports "model -> optimal frequencies" into out[0..N] (even
/// spacing, randomized): model, out, then the computation.
///
/// # Safety
/// Pointers as documented on the exports.
unsafe fn frequencies_of(
    model: *const crawlsched_freshness_model_t,
    out: *mut f64,
    out_cap: usize,
    optimal: fn(&Model) -> crate::Result<Vec<f64>>,
) -> FfiResult<()> {
    let m = unsafe { handle(model, "model")? };
    let dst = unsafe { out_exact(out, out_cap, m.inner.len(), "out")? };
    write_finite(dst, &optimal(&m.inner)?, "frequency")
}

/// Optimal access frequencies (they sum to 1) into out[0..N]: Theorem 3.4's
/// closed form f_i ∝ ln(1/h_i) when weights are proportional to change
/// rates, otherwise the Lagrange conditions (8)-(9), solved to about 1e-14
/// relative in the multiplier (O(N) per outer step, a handful of steps;
/// 96 bytes per page checked against the process-wide memory cap). A page
/// may get 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_optimal_frequencies(
    model: *const crawlsched_freshness_model_t,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        let m = handle(model, "model")?;
        let dst = out_exact(out, out_cap, m.inner.len(), "out")?;
        Ok(frequencies::optimal_frequencies_into(&m.inner, dst)?)
    })
}

/// The lower bound on the cost C of every policy (Theorem 3.4, eq. 6, for
/// proportional weights; the minimum of Theorem 3.3's bound otherwise).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_lower_bound(
    model: *const crawlsched_freshness_model_t,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        write_value(out, "lower bound", || {
            Ok(frequencies::lower_bound(&m.inner)?)
        })
    })
}

/// Cost sum c_i r_i of access frequencies `freq` (n = N, summing to 1) with
/// perfectly even spacing: Theorem 3.3's bound, the best any schedule with
/// these frequencies can do.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_cost(
    model: *const crawlsched_freshness_model_t,
    freq: *const f64,
    n: usize,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        cost_of(model, freq, n, out, frequencies::cost)
    })
}

/// Per-page obsolescence bound r_i of Theorem 3.3 for frequencies `freq`,
/// into out[0..N].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_obsolescence_bound(
    model: *const crawlsched_freshness_model_t,
    freq: *const f64,
    n: usize,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let f = unsafe { slice_in(freq, n, "freq")? };
        let dst = unsafe { out_exact(out, out_cap, m.inner.len(), "out")? };
        write_finite(
            dst,
            &frequencies::obsolescence_lower_bound(&m.inner, f)?,
            "obsolescence",
        )
    })
}

/// Cost of the randomized policy that picks page i with probability
/// freq[i] at every access (Lemma 4.1).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_randomized_cost(
    model: *const crawlsched_freshness_model_t,
    freq: *const f64,
    n: usize,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        cost_of(model, freq, n, out, randomized::cost)
    })
}

/// Optimal frequencies of the randomized policy into out[0..N]
/// (Theorem 4.1: f_i ∝ 1/h_i - 1 for proportional weights; eq. 15 else).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_randomized_optimal_frequencies(
    model: *const crawlsched_freshness_model_t,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        frequencies_of(model, out, out_cap, randomized::optimal_frequencies)
    })
}

/// Cost of the randomized policy at its optimal frequencies (eq. 11).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_randomized_optimal_cost(
    model: *const crawlsched_freshness_model_t,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        write_value(out, "cost", || Ok(randomized::optimal_cost(&m.inner)?))
    })
}

/// Integer access counts per cycle of length `total` for frequencies
/// `freq` (largest remainder: floor(f_i total) <= count_i <= ceil(f_i total)).
/// With at_least_one != 0 every page with f_i > 0 gets at least one access
/// (needs total >= number of such pages). Writes out[0..n].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_integer_counts(
    freq: *const f64,
    n: usize,
    total: u64,
    at_least_one: i32,
    out: *mut u64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let f = unsafe { slice_in(freq, n, "freq")? };
        let dst = unsafe { out_exact(out, out_cap, n, "out")? };
        let total = usize_from(total, "total")?;
        let counts = if at_least_one != 0 {
            cyclic::integer_counts_at_least_one(f, total)?
        } else {
            cyclic::integer_counts(f, total)?
        };
        for (d, c) in dst.iter_mut().zip(counts) {
            *d = c as u64;
        }
        Ok(())
    })
}

/// The smallest Fibonacci number >= n (golden-ratio cycles are best with a
/// Fibonacci length, paper §5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_fibonacci_at_least(
    n: u64,
    out: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let n = usize_from(n, "n")?;
        // F_92 is the largest Fibonacci number below 2^63.
        if n > 7_540_113_804_746_346_429 {
            return Err(FfiError::new(
                CRAWLSCHED_TOO_LARGE,
                format!("no Fibonacci number >= {n} fits in 64 bits"),
            ));
        }
        out.write(cyclic::fibonacci_at_least(n) as u64);
        Ok(())
    })
}

/// # Safety
/// `counts` points to `n` values and `out` to `out_cap` (or NULL with 0).
unsafe fn sequence_export(
    counts: *const u64,
    n: usize,
    out: *mut u32,
    out_cap: usize,
    out_len: *mut usize,
    build: fn(&[usize]) -> crate::Result<Vec<usize>>,
) -> FfiResult<()> {
    let buf = unsafe { OutBuffer::new(out, out_cap, out_len, "out")? };
    let c = unsafe { slice_in(counts, n, "counts")? };
    let c: Vec<usize> = c
        .iter()
        .map(|&x| usize_from(x, "count"))
        .collect::<FfiResult<_>>()?;
    // The length is Σ counts: a buffer too small for it (the size query
    // with out_cap 0 included) is answered without building a sequence of
    // up to 2^27 entries (seconds and a gigabyte).
    let buf = buf.reserve(cyclic::cycle_length(&c)?)?;
    let seq = build(&c)?;
    buf.write(&to_u32(&seq, "page")?)
}

/// The golden-ratio cyclic sequence (paper §5) for integer access counts:
/// page i appears counts[i] times in a cycle of sum(counts) accesses.
/// Writes page indices to out (variable size: see docs/c-api.md).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_golden_ratio_sequence(
    counts: *const u64,
    n: usize,
    out: *mut u32,
    out_cap: usize,
    out_len: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        sequence_export(
            counts,
            n,
            out,
            out_cap,
            out_len,
            cyclic::golden_ratio_sequence,
        )
    })
}

/// A generic round robin proportional to the counts: each page's accesses
/// spread evenly over the cycle. Same conventions as the golden-ratio one.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_round_robin_sequence(
    counts: *const u64,
    n: usize,
    out: *mut u32,
    out_cap: usize,
    out_len: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || unsafe {
        sequence_export(
            counts,
            n,
            out,
            out_cap,
            out_len,
            cyclic::round_robin_sequence,
        )
    })
}

/// Exact long-run cost sum c_i r_i of repeating the cyclic sequence `seq`
/// (page indices < N) forever (eq. 3 with Lemma 3.1). A page absent from
/// the sequence is always out of date (r_i = 1).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_cyclic_cost(
    model: *const crawlsched_freshness_model_t,
    seq: *const u32,
    len: usize,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        write_value(out, "cost", || {
            let s = unsafe { slice_in(seq, len, "seq")? };
            Ok(cyclic::cost(&m.inner, &indices(s))?)
        })
    })
}

/// Exact per-page fraction of time out of date r_i of the cyclic sequence,
/// into out[0..N].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_cyclic_obsolescence(
    model: *const crawlsched_freshness_model_t,
    seq: *const u32,
    len: usize,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        let s = unsafe { slice_in(seq, len, "seq")? };
        let dst = unsafe { out_exact(out, out_cap, m.inner.len(), "out")? };
        write_finite(
            dst,
            &cyclic::obsolescence(&m.inner, &indices(s))?,
            "obsolescence",
        )
    })
}

/// Right side of eq. (18): the large-N limit of the golden-ratio policy's
/// cost for this model's total change rate and E[X] (proportional weights).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_golden_ratio_bound(
    model: *const crawlsched_freshness_model_t,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(model, "model")? };
        write_value(out, "bound", || {
            Ok(cyclic::golden_ratio_asymptotic_bound(&m.inner)?)
        })
    })
}

/// H(q) of Corollary 5.1: the asymptotic ratio of the golden-ratio cost to
/// the lower bound, q = mu E[X] >= 0; at most 2 phi^2 / 5 < 1.05.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_bound_ratio(
    q: f64,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        write_value(out, "H(q)", || Ok(cyclic::bound_ratio(q)?))
    })
}

/// Monte Carlo of `cycles` repetitions of the cyclic sequence with random
/// access times and Poisson page changes (seeded): the estimated cost and
/// its standard error (batch means), to validate the exact cost. Under the
/// control ctl (NULL: none), cancelling it from another thread returns
/// CRAWLSCHED_CANCELLED within 65,536 accesses, with no output written;
/// its iteration cap does not apply (cycles already bounds the run).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_simulate_cyclic(
    model: *const crawlsched_freshness_model_t,
    seq: *const u32,
    len: usize,
    cycles: u64,
    seed: u64,
    ctl: *const crawlsched_control_t,
    out_cost: *mut f64,
    out_std_error: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let control = unsafe { control_in(ctl)? };
        let m = unsafe { handle(model, "model")? };
        let out_cost = Out::new(out_cost, "out_cost")?;
        let out_se = Out::new(out_std_error, "out_std_error")?;
        let s = unsafe { slice_in(seq, len, "seq")? };
        let r = simulate::simulate_cyclic_with(&m.inner, &indices(s), cycles, seed, &control)?;
        let (c, se) = (finite("cost", r.cost)?, finite("std_error", r.std_error)?);
        out_cost.write(c);
        out_se.write(se);
        Ok(())
    })
}

/// Polite plan objective: the evenly spaced bound of Theorem 3.3 (eqs. 8-9),
/// as crawlsched_freshness_optimal_frequencies.
pub const CRAWLSCHED_POLITE_EVENLY_SPACED: i32 = 0;
/// Polite plan objective: the randomized policy (eq. 15), as
/// crawlsched_freshness_randomized_optimal_frequencies.
pub const CRAWLSCHED_POLITE_RANDOMIZED: i32 = 1;
/// Polite plan flag: when the hosts' max_rates sum below the crawler's rate
/// 1/E[X], crawl at their sum instead (every host saturated, frequencies
/// summing to sum(max_rates) E[X] < 1, ln multiplier -INFINITY) rather than
/// failing with CRAWLSCHED_INFEASIBLE.
pub const CRAWLSCHED_POLITE_ALLOW_SLACK: u32 = 1;

/// Optimal access frequencies under per-host politeness: page i
/// belongs to host hosts[i] (n = N entries, each < n_hosts) and host h
/// accepts at most max_rates[h] crawls per unit time (finite > 0, or
/// +INFINITY for no limit; e.g. 1 / Crawl-delay). The crawler accesses at
/// rate R = 1/E[X], so the constraints are sum over host h of f_i R <=
/// max_rates[h] and sum f_i = 1; the plan minimises `objective`
/// (CRAWLSCHED_POLITE_EVENLY_SPACED or CRAWLSCHED_POLITE_RANDOMIZED)
/// exactly (one multiplier for the budget, one per saturated host). Every
/// host in 0..n_hosts needs at least one page.
///
/// `flags`: 0 or CRAWLSCHED_POLITE_ALLOW_SLACK. Without it, caps summing
/// below 1/E[X] are CRAWLSCHED_INFEASIBLE, with the shortfall in the
/// message. ctl (NULL: none) gives the memory cap (80 bytes per page and
/// 256 per host), cancel and iteration cap (passes over the pages).
///
/// Outputs, all written only on success: the N frequencies to
/// (out, out_cap, out_len) (variable size: see docs/c-api.md; out = NULL
/// with out_cap = 0 asks for N without solving); then, each NULL when not
/// wanted, saturated[0..n_hosts] (1 where host h's cap binds, else 0),
/// ln_host_multipliers[0..n_hosts] (ln of host h's multiplier, the budget's
/// ln multiplier where not saturated), *out_ln_multiplier (ln of the
/// budget's multiplier; -INFINITY with slack), *out_objective (sum c_i r_i
/// at the plan under `objective`) and *out_crawl_rate (1/E[X], or
/// sum(max_rates) with slack). The arrays are read during the call only.
/// Thread-safe (the model is immutable).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_freshness_polite_frequencies(
    model: *const crawlsched_freshness_model_t,
    hosts: *const u32,
    n: usize,
    max_rates: *const f64,
    n_hosts: usize,
    objective: i32,
    flags: u32,
    ctl: *const crawlsched_control_t,
    out: *mut f64,
    out_cap: usize,
    out_len: *mut usize,
    saturated: *mut u8,
    ln_host_multipliers: *mut f64,
    out_ln_multiplier: *mut f64,
    out_objective: *mut f64,
    out_crawl_rate: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let control = unsafe { control_in(ctl)? };
        let m = unsafe { handle(model, "model")? };
        let outs = PlanOut {
            frequencies: unsafe { OutBuffer::new(out, out_cap, out_len, "out")? }
                .reserve(m.inner.len())?,
            saturated: unsafe { slice_out_optional(saturated, n_hosts, "saturated")? },
            ln_hosts: unsafe {
                slice_out_optional(ln_host_multipliers, n_hosts, "ln_host_multipliers")?
            },
            ln_multiplier: Out::optional(out_ln_multiplier, "out_ln_multiplier")?,
            objective: Out::optional(out_objective, "out_objective")?,
            crawl_rate: Out::optional(out_crawl_rate, "out_crawl_rate")?,
        };
        let hosts = unsafe { slice_in(hosts, n, "hosts")? };
        let caps = unsafe { slice_in(max_rates, n_hosts, "max_rates")? };
        let (objective, options) = polite_options(objective, flags, control)?;
        outs.write(&polite_frequencies(
            &m.inner, hosts, caps, objective, &options,
        )?)
    })
}

/// The C objective and flags of a polite plan as the model's options.
fn polite_options(
    objective: i32,
    flags: u32,
    control: crate::limits::Control,
) -> FfiResult<(PoliteObjective, PoliteOptions)> {
    let objective = match objective {
        CRAWLSCHED_POLITE_EVENLY_SPACED => PoliteObjective::EvenlySpaced,
        CRAWLSCHED_POLITE_RANDOMIZED => PoliteObjective::Randomized,
        o => return Err(FfiError::invalid(format!("unknown polite objective {o}"))),
    };
    if flags & !CRAWLSCHED_POLITE_ALLOW_SLACK != 0 {
        return Err(FfiError::invalid(format!(
            "unknown polite flags {flags:#x}"
        )));
    }
    let allow_slack = flags & CRAWLSCHED_POLITE_ALLOW_SLACK != 0;
    Ok((
        objective,
        PoliteOptions {
            allow_slack,
            control,
        },
    ))
}

/// The outputs of crawlsched_freshness_polite_frequencies, checked before
/// the solve; an empty slice or `None` is an output not wanted.
struct PlanOut<'a> {
    frequencies: OutBuffer<'a, f64>,
    saturated: &'a mut [u8],
    ln_hosts: &'a mut [f64],
    ln_multiplier: Option<Out<f64>>,
    objective: Option<Out<f64>>,
    crawl_rate: Option<Out<f64>>,
}

impl PlanOut<'_> {
    /// Writes the plan once every value is checked representable (ln λ may
    /// be −∞: the slack mode's).
    fn write(self, plan: &PolitePlan) -> FfiResult<()> {
        for &x in plan.frequencies.iter().chain(&plan.ln_host_multipliers) {
            finite("polite plan", x)?;
        }
        finite("objective", plan.objective)?;
        finite("crawl rate", plan.crawl_rate)?;
        if plan.ln_multiplier.is_nan() || plan.ln_multiplier == f64::INFINITY {
            finite("ln multiplier", plan.ln_multiplier)?;
        }
        self.frequencies.write(&plan.frequencies)?;
        for (d, &s) in self.saturated.iter_mut().zip(&plan.saturated) {
            *d = u8::from(s);
        }
        for (d, &x) in self.ln_hosts.iter_mut().zip(&plan.ln_host_multipliers) {
            *d = x;
        }
        let scalars = [
            (self.ln_multiplier, plan.ln_multiplier),
            (self.objective, plan.objective),
            (self.crawl_rate, plan.crawl_rate),
        ];
        for (out, value) in scalars {
            if let Some(out) = out {
                out.write(value);
            }
        }
        Ok(())
    }
}
