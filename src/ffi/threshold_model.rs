//! C API of [`crate::threshold`] (Avrachenkov et al., paper 002) and of the
//! BMAP building block it uses: arrival processes, phase-type fits, the
//! threshold model, its measures, cost and optimal thresholds.
//!
//! Phase-type inputs are `crawlsched_dist_t` handles; exponential, Erlang,
//! hyperexponential and phase-type distributions are accepted, others give
//! CRAWLSCHED_INVALID_ARGUMENT.

#![allow(non_camel_case_types)]

use super::bmap::crawlsched_bmap_t;
use super::common::*;
use super::control::{control_in, crawlsched_control_t};
use super::dist::crawlsched_dist_t;
use crate::threshold::{
    CostWeights, Measures, Policy, ThresholdModel, evaluate_with, optimize_with, phase_type_of,
    sojourn_with,
};

/// The threshold model: arrival processes per number of active robots,
/// PH service, PH obsolescence, buffer. Immutable: one handle may be used
/// from any number of threads at once. Free with
/// crawlsched_threshold_model_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_threshold_model_t {
    magic: u64,
    pub(super) inner: ThresholdModel,
}
impl_handle!(
    crawlsched_threshold_model_t,
    ThresholdModel,
    "threshold model",
    0x6372_6177_6c74_6872
);

/// Index in the measures array: pages offered per unit time (lambda).
pub const CRAWLSCHED_THRESHOLD_MEASURE_FUNDAMENTAL_RATE: usize = 0;
/// Index in the measures array: probability that an offered page is lost.
pub const CRAWLSCHED_THRESHOLD_MEASURE_LOSS: usize = 1;
/// Index in the measures array: probability that an offered page becomes obsolete.
pub const CRAWLSCHED_THRESHOLD_MEASURE_OBSOLESCENCE: usize = 2;
/// Index in the measures array: probability that an offered page is served.
pub const CRAWLSCHED_THRESHOLD_MEASURE_SUCCESS: usize = 3;
/// Index in the measures array: probability that the system is empty.
pub const CRAWLSCHED_THRESHOLD_MEASURE_STARVATION: usize = 4;
/// Index in the measures array: pages served per unit time.
pub const CRAWLSCHED_THRESHOLD_MEASURE_THROUGHPUT: usize = 5;
/// Index in the measures array: mean number of pages in the system.
pub const CRAWLSCHED_THRESHOLD_MEASURE_MEAN_PAGES: usize = 6;
/// Index in the measures array: mean number of waiting pages.
pub const CRAWLSCHED_THRESHOLD_MEASURE_MEAN_QUEUE: usize = 7;
/// Index in the measures array: mean sojourn time of an admitted page.
pub const CRAWLSCHED_THRESHOLD_MEASURE_RESPONSE_TIME: usize = 8;
/// Index in the measures array: mean time an admitted page waits in the buffer.
pub const CRAWLSCHED_THRESHOLD_MEASURE_WAITING_TIME: usize = 9;
/// Index in the measures array: mean number of active robots.
pub const CRAWLSCHED_THRESHOLD_MEASURE_MEAN_ROBOTS: usize = 10;
/// Index in the measures array: residual max|pi Q| / max|q_ii| of the solution.
pub const CRAWLSCHED_THRESHOLD_MEASURE_RESIDUAL: usize = 11;
/// Length of the measures array.
pub const CRAWLSCHED_THRESHOLD_MEASURE_COUNT: usize = 12;

/// Index in the response array: mean sojourn of an admitted page, served or
/// obsolete (equals CRAWLSCHED_THRESHOLD_MEASURE_RESPONSE_TIME).
pub const CRAWLSCHED_THRESHOLD_RESPONSE_MEAN: usize = 0;
/// Index in the response array: probability that an admitted page is served.
pub const CRAWLSCHED_THRESHOLD_RESPONSE_SERVED_PROBABILITY: usize = 1;
/// Index in the response array: mean time from admission to the end of
/// service of a served page.
pub const CRAWLSCHED_THRESHOLD_RESPONSE_MEAN_SERVED: usize = 2;
/// Index in the response array: mean time from admission to obsolescence
/// of a page that becomes obsolete (0 when no page ever does).
pub const CRAWLSCHED_THRESHOLD_RESPONSE_MEAN_OBSOLETE: usize = 3;
/// Length of the response array.
pub const CRAWLSCHED_THRESHOLD_RESPONSE_COUNT: usize = 4;

/// crawlsched_threshold_response_cdf: P(sojourn <= t) over all admitted pages.
pub const CRAWLSCHED_THRESHOLD_SOJOURN_ALL: i32 = 0;
/// crawlsched_threshold_response_cdf: P(sojourn <= t | the page is served).
pub const CRAWLSCHED_THRESHOLD_SOJOURN_SERVED: i32 = 1;

/// Index in the weights array: weight of the loss rate lambda*P_loss.
pub const CRAWLSCHED_THRESHOLD_WEIGHT_LOSS: usize = 0;
/// Index in the weights array: weight of the obsolescence rate lambda*P_obs.
pub const CRAWLSCHED_THRESHOLD_WEIGHT_OBSOLESCENCE: usize = 1;
/// Index in the weights array: weight of the response time.
pub const CRAWLSCHED_THRESHOLD_WEIGHT_RESPONSE: usize = 2;
/// Index in the weights array: weight of the mean number of active robots.
pub const CRAWLSCHED_THRESHOLD_WEIGHT_ROBOTS: usize = 3;
/// Index in the weights array: weight of the starvation probability.
pub const CRAWLSCHED_THRESHOLD_WEIGHT_STARVATION: usize = 4;
/// Length of the weights array.
pub const CRAWLSCHED_THRESHOLD_WEIGHT_COUNT: usize = 5;

/// The model and the policy every threshold evaluation starts from, read in
/// this order.
unsafe fn model_policy_in<'a>(
    model: *const crawlsched_threshold_model_t,
    modes: *const u32,
    n_modes: usize,
    thresholds: *const u32,
    n_thresholds: usize,
) -> FfiResult<(&'a ThresholdModel, Policy)> {
    let m = unsafe { handle(model, "model")? };
    let md = unsafe { slice_in(modes, n_modes, "modes")? };
    let t = unsafe { slice_in(thresholds, n_thresholds, "thresholds")? };
    Ok((&m.inner, Policy::new(indices(md), indices(t))?))
}

unsafe fn weights_in(weights: *const f64, n: usize) -> FfiResult<CostWeights> {
    let w = unsafe { slice_in(weights, n, "weights")? };
    if w.len() != CRAWLSCHED_THRESHOLD_WEIGHT_COUNT {
        return Err(FfiError::invalid(format!(
            "weights must have {CRAWLSCHED_THRESHOLD_WEIGHT_COUNT} entries, got {}",
            w.len()
        )));
    }
    let cw = CostWeights {
        loss: w[0],
        obsolescence: w[1],
        response: w[2],
        robots: w[3],
        starvation: w[4],
    };
    cw.check()?;
    Ok(cw)
}

fn measures_array(m: &Measures) -> [f64; CRAWLSCHED_THRESHOLD_MEASURE_COUNT] {
    [
        m.fundamental_rate,
        m.loss_probability,
        m.obsolescence_probability,
        m.success_probability,
        m.starvation_probability,
        m.throughput,
        m.mean_pages,
        m.mean_queue,
        m.response_time,
        m.waiting_time,
        m.mean_robots,
        m.residual,
    ]
}

/// A threshold model. arrivals[r-1] (r = 1..n_arrivals) is the arrival
/// process with r active robots (all of the same order); service is the PH
/// service time; obsolescence the PH time a waiting page stays valid (NULL:
/// pages never become obsolete); buffer the number of waiting places.
/// The distributions are copied; the arrival processes are shared with
/// their handles (which may be freed at any time), so n_arrivals pointers
/// to one process cost one pointer each. A hyperexponential or Erlang
/// service is converted to a dense phase-type, refused with
/// CRAWLSCHED_TOO_LARGE before the conversion when its working matrices
/// (16 n^2 doubles) exceed the memory cap. CRAWLSCHED_TOO_LARGE (with the state count) when
/// the chain would exceed 50,000,000 states, or when evaluating it would
/// need more memory than the process-wide cap
/// (crawlsched_set_default_memory_limit(); message: states, bytes, limit),
/// checked before anything is allocated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_threshold_model_new(
    arrivals: *const *const crawlsched_bmap_t,
    n_arrivals: usize,
    service: *const crawlsched_dist_t,
    obsolescence: *const crawlsched_dist_t,
    buffer: u32,
    out: *mut *mut crawlsched_threshold_model_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let list = unsafe { slice_in(arrivals, n_arrivals, "arrivals")? };
        // One shared pointer per mode (the processes are not copied).
        crate::limits::check_memory(
            crate::limits::bytes(list.len(), 8),
            &format!("a list of {} arrival processes", list.len()),
        )?;
        let mut procs = Vec::with_capacity(list.len());
        for (i, &p) in list.iter().enumerate() {
            procs.push(std::sync::Arc::clone(
                &unsafe { handle(p, &format!("arrivals[{i}]"))? }.inner,
            ));
        }
        let s = phase_type_of(&unsafe { handle(service, "service")? }.inner)?;
        let ob = if obsolescence.is_null() {
            None
        } else {
            Some(phase_type_of(
                &unsafe { handle(obsolescence, "obsolescence")? }.inner,
            )?)
        };
        let model = ThresholdModel::new(procs, s, ob, buffer as usize)?;
        publish(Ok(model), out)
    })
}

/// Releases a threshold model. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_threshold_model_free(model: *mut crawlsched_threshold_model_t) {
    guard_value((), || unsafe { free_handle(model) })
}

/// Number of states of the model's Markov chain.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_threshold_model_state_count(
    model: *const crawlsched_threshold_model_t,
    out: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        out.write(unsafe { handle(model, "model")? }.inner.space().len() as u64);
        Ok(())
    })
}

/// Stationary measures under the policy (modes r_1 > ... > r_J, thresholds
/// t_1 <= ... <= t_{J-1}: r_1 robots while pages <= t_1, ..., r_J above
/// t_{J-1}). out receives CRAWLSCHED_THRESHOLD_MEASURE_COUNT values indexed
/// by the CRAWLSCHED_THRESHOLD_MEASURE_* constants. Under the control ctl
/// (NULL: none), its memory cap (else the process-wide one) is checked
/// against the chain and its solve before anything is built
/// (CRAWLSCHED_TOO_LARGE), and cancelling it, also from another thread
/// during the stationary solve, gives CRAWLSCHED_CANCELLED; its iteration
/// cap does not apply. A chain whose levels exceed 512 states is solved
/// iteratively, with dense level LUs as the fallback for a stiff one:
/// seconds or more for tens of thousands of states. The other
/// threshold evaluations take ctl the same way.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_threshold_measures(
    model: *const crawlsched_threshold_model_t,
    modes: *const u32,
    n_modes: usize,
    thresholds: *const u32,
    n_thresholds: usize,
    ctl: *const crawlsched_control_t,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let dst = unsafe { out_exact(out, out_cap, CRAWLSCHED_THRESHOLD_MEASURE_COUNT, "out")? };
        let (m, policy) =
            unsafe { model_policy_in(model, modes, n_modes, thresholds, n_thresholds)? };
        let control = unsafe { control_in(ctl)? };
        let values = measures_array(&evaluate_with(m, &policy, &control)?);
        write_finite(dst, &values, "measure")
    })
}

/// P(i pages in the system), i = 0..buffer+1, under the policy and the
/// control ctl (as in crawlsched_threshold_measures). Variable size:
/// *out_len receives buffer + 2 (also on CRAWLSCHED_BUFFER_TOO_SMALL).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_threshold_level_distribution(
    model: *const crawlsched_threshold_model_t,
    modes: *const u32,
    n_modes: usize,
    thresholds: *const u32,
    n_thresholds: usize,
    ctl: *const crawlsched_control_t,
    out: *mut f64,
    out_cap: usize,
    out_len: *mut usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let buf = unsafe { OutBuffer::new(out, out_cap, out_len, "out")? };
        let (m, policy) =
            unsafe { model_policy_in(model, modes, n_modes, thresholds, n_thresholds)? };
        let control = unsafe { control_in(ctl)? };
        buf.write(&evaluate_with(m, &policy, &control)?.level_distribution)
    })
}

/// Cost criterion (paper eq. 2) of the policy: weights[0..5] indexed by
/// CRAWLSCHED_THRESHOLD_WEIGHT_*, all finite and >= 0:
/// w_loss*lambda*P_loss + w_obs*lambda*P_obs + w_resp*V + w_robots*R + w_starv*P_starv.
/// Under the control ctl as in crawlsched_threshold_measures.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_threshold_cost(
    model: *const crawlsched_threshold_model_t,
    modes: *const u32,
    n_modes: usize,
    thresholds: *const u32,
    n_thresholds: usize,
    weights: *const f64,
    n_weights: usize,
    ctl: *const crawlsched_control_t,
    out: *mut f64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        write_value(out, "cost", || {
            let (m, policy) =
                unsafe { model_policy_in(model, modes, n_modes, thresholds, n_thresholds)? };
            let w = unsafe { weights_in(weights, n_weights)? };
            let control = unsafe { control_in(ctl)? };
            let measures = evaluate_with(m, &policy, &control)?;
            Ok(measures.cost(&w))
        })
    })
}

/// Optimal thresholds for the given modes (strictly decreasing) by
/// enumeration of every t_1 <= ... <= t_{J-1} in 0..buffer: n_modes - 1
/// thresholds go to out_thresholds (capacity out_cap), the optimal cost to
/// *out_cost and the number of vectors evaluated to *out_evaluated.
/// CRAWLSCHED_TOO_LARGE (with the count) when more than max_evaluations
/// vectors would be needed. Under the control ctl (NULL: none), its
/// iteration cap lowers max_evaluations (one iteration = one threshold
/// vector), its memory cap (else the process-wide default) applies to each
/// evaluation, and cancelling it from another thread makes the call return
/// CRAWLSCHED_CANCELLED between two evaluations. An interrupted search
/// writes no output: the best vector of an unfinished enumeration is not
/// the optimum.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_threshold_optimize(
    model: *const crawlsched_threshold_model_t,
    modes: *const u32,
    n_modes: usize,
    weights: *const f64,
    n_weights: usize,
    max_evaluations: u64,
    ctl: *const crawlsched_control_t,
    out_thresholds: *mut u32,
    out_cap: usize,
    out_cost: *mut f64,
    out_evaluated: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let control = unsafe { control_in(ctl)? };
        let cost_out = Out::new(out_cost, "out_cost")?;
        let eval_out = Out::new(out_evaluated, "out_evaluated")?;
        let need = n_modes.saturating_sub(1);
        let dst = unsafe { out_exact(out_thresholds, out_cap, need, "out_thresholds")? };
        let m = unsafe { handle(model, "model")? };
        let md = unsafe { slice_in(modes, n_modes, "modes")? };
        let w = unsafe { weights_in(weights, n_weights)? };
        let opt = optimize_with(&m.inner, &indices(md), &w, max_evaluations, &control)?;
        let cost = finite("cost", opt.cost)?;
        let mut thresholds = Vec::with_capacity(need);
        for &t in opt.policy.thresholds() {
            thresholds.push(
                u32::try_from(t).map_err(|_| {
                    FfiError::new(CRAWLSCHED_TOO_LARGE, "threshold exceeds uint32_t")
                })?,
            );
        }
        // Written only now that every check passed.
        dst.copy_from_slice(&thresholds);
        cost_out.write(cost);
        eval_out.write(opt.evaluated);
        Ok(())
    })
}

/// Response time of an admitted page under the policy (as in
/// crawlsched_threshold_measures), from the absorbing chain of a tagged
/// page: out receives CRAWLSCHED_THRESHOLD_RESPONSE_COUNT values indexed by
/// the CRAWLSCHED_THRESHOLD_RESPONSE_* constants (mean, probability of
/// being served, mean conditional on service, mean conditional on
/// obsolescence). CRAWLSCHED_TOO_LARGE, before anything is built, when the
/// chain's evaluation plus the tagged page's chain and its sparse LU (48
/// bytes per entry of its level blocks, which grow like R^level with R
/// obsolescence phases) exceed the memory cap of the control ctl (NULL:
/// none), else the process-wide one. Cancelling the control returns
/// CRAWLSCHED_CANCELLED within 4,096 states of either chain.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_threshold_response_time(
    model: *const crawlsched_threshold_model_t,
    modes: *const u32,
    n_modes: usize,
    thresholds: *const u32,
    n_thresholds: usize,
    ctl: *const crawlsched_control_t,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let dst = unsafe { out_exact(out, out_cap, CRAWLSCHED_THRESHOLD_RESPONSE_COUNT, "out")? };
        let (m, policy) =
            unsafe { model_policy_in(model, modes, n_modes, thresholds, n_thresholds)? };
        let control = unsafe { control_in(ctl)? };
        let r = sojourn_with(m, &policy, &control)?.means();
        let values = [r.mean, r.served_probability, r.mean_served, r.mean_obsolete];
        write_finite(dst, &values, "response time")
    })
}

/// Distribution function of the sojourn of an admitted page under the
/// policy (as in crawlsched_threshold_measures) at the n_times times (each
/// finite and >= 0, any order): which = CRAWLSCHED_THRESHOLD_SOJOURN_ALL
/// gives P(sojourn <= t), CRAWLSCHED_THRESHOLD_SOJOURN_SERVED gives
/// P(sojourn <= t | served) (CRAWLSCHED_INVALID_ARGUMENT if no page is
/// served). out (capacity out_cap >= n_times) receives n_times values.
/// CRAWLSCHED_TOO_LARGE as for crawlsched_threshold_response_time (memory),
/// and when the largest t needs more than 2e10
/// multiply-adds (about 3 x the largest rate of the tagged page's chain x t
/// vector-matrix products, uniformization). Under the control ctl (NULL:
/// none) as crawlsched_threshold_response_time; a cancel also stops the
/// uniformization within one vector-matrix product.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_threshold_response_cdf(
    model: *const crawlsched_threshold_model_t,
    modes: *const u32,
    n_modes: usize,
    thresholds: *const u32,
    n_thresholds: usize,
    which: i32,
    times: *const f64,
    n_times: usize,
    ctl: *const crawlsched_control_t,
    out: *mut f64,
    out_cap: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let dst = unsafe { out_exact(out, out_cap, n_times, "out")? };
        let (m, policy) =
            unsafe { model_policy_in(model, modes, n_modes, thresholds, n_thresholds)? };
        let t = unsafe { slice_in(times, n_times, "times")? };
        if which != CRAWLSCHED_THRESHOLD_SOJOURN_ALL && which != CRAWLSCHED_THRESHOLD_SOJOURN_SERVED
        {
            return Err(FfiError::invalid(format!(
                "unknown sojourn selection {which}"
            )));
        }
        let control = unsafe { control_in(ctl)? };
        let s = sojourn_with(m, &policy, &control)?;
        let values = if which == CRAWLSCHED_THRESHOLD_SOJOURN_ALL {
            s.cdf(t)?
        } else {
            s.cdf_served(t)?
        };
        dst.copy_from_slice(&values);
        Ok(())
    })
}
