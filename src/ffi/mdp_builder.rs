//! C API of [`crate::mdp::MdpBuilder`]: build a sparse MDP row by row.

#![allow(non_camel_case_types)]

use super::common::*;
use super::mdp::crawlsched_mdp_t;
use crate::mdp::MdpBuilder;
use std::sync::Mutex;

/// An MDP under construction: add (state, action) rows in any order, then
/// crawlsched_mdp_build(). Mutable: calls are serialised by an internal
/// mutex. Free with crawlsched_mdp_builder_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_mdp_builder_t {
    magic: u64,
    pub(super) inner: Mutex<Option<MdpBuilder>>,
}
impl_handle!(
    crawlsched_mdp_builder_t,
    Mutex<Option<MdpBuilder>>,
    "MDP builder",
    0x6372_6177_6d64_6262
);

/// Starts an MDP with n_states states (1 <= n_states < 2^32) and no action.
/// CRAWLSCHED_TOO_LARGE when even one action per state would exceed the
/// process-wide memory cap (44 bytes per state); add_action checks the
/// cap again as the model grows.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_builder_new(
    n_states: usize,
    out: *mut *mut crawlsched_mdp_builder_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        let b = MdpBuilder::new(n_states)?;
        publish(Ok(Some(b)), out)
    })
}

/// Releases a builder. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_builder_free(b: *mut crawlsched_mdp_builder_t) {
    guard_value((), || unsafe { free_handle(b) })
}

/// Adds an action to `state`: it moves to next[i] with probability prob[i]
/// (i < len; probabilities >= 0 summing to 1 within 1e-9; repeated targets
/// add up) at one-step cost `cost` (finite, any sign). *out_action
/// receives the action's index within the state (0, 1, ... in order).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_builder_add_action(
    b: *const crawlsched_mdp_builder_t,
    state: u32,
    next: *const u32,
    prob: *const f64,
    len: usize,
    cost: f64,
    out_action: *mut u32,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(b, "builder")? };
        let out = Out::new(out_action, "out_action")?;
        let next = unsafe { slice_in(next, len, "next")? };
        let prob = unsafe { slice_in(prob, len, "prob")? };
        let mut g = lock(&h.inner, "MDP builder")?;
        let builder = g
            .as_mut()
            .ok_or_else(|| FfiError::invalid("this builder was already built"))?;
        out.write(builder.add_action(state as usize, next, prob, cost)?);
        Ok(())
    })
}

/// Finishes the MDP (every state needs an action). The builder is emptied:
/// later calls on it give CRAWLSCHED_INVALID_ARGUMENT; free it as usual.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_build(
    b: *const crawlsched_mdp_builder_t,
    out: *mut *mut crawlsched_mdp_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let h = unsafe { handle(b, "builder")? };
        let out = Out::new(out, "out")?;
        let mut g = lock(&h.inner, "MDP builder")?;
        let builder = g
            .as_ref()
            .ok_or_else(|| FfiError::invalid("this builder was already built"))?;
        // Checked before giving the builder up, so the caller can add the
        // missing actions and build again.
        builder.check_complete()?;
        let mdp = g
            .take()
            .ok_or_else(|| FfiError::invalid("this builder was already built"))?
            .build()?;
        publish(Ok(mdp), out)
    })
}
