//! C API of [`crate::mdp::Mdp`]: a built, immutable sparse MDP.

#![allow(non_camel_case_types)]

use super::common::*;
use crate::mdp::Mdp;

/// A finished sparse MDP. Immutable: shareable between threads.
/// Free with crawlsched_mdp_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_mdp_t {
    magic: u64,
    pub(super) inner: Mdp,
}
impl_handle!(crawlsched_mdp_t, Mdp, "MDP", 0x6372_6177_6d64_7070);

/// Releases an MDP. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_free(m: *mut crawlsched_mdp_t) {
    guard_value((), || unsafe { free_handle(m) })
}

/// Numbers of states, (state, action) pairs and transitions.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_mdp_size(
    m: *const crawlsched_mdp_t,
    out_states: *mut u64,
    out_actions: *mut u64,
    out_transitions: *mut u64,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let m = unsafe { handle(m, "mdp")? };
        let (s, a, t) = (
            Out::new(out_states, "out_states")?,
            Out::new(out_actions, "out_actions")?,
            Out::new(out_transitions, "out_transitions")?,
        );
        s.write(m.inner.n_states() as u64);
        a.write(m.inner.n_actions_total() as u64);
        t.write(m.inner.n_transitions() as u64);
        Ok(())
    })
}
