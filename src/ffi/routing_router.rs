//! C API of [`crate::routing::Router`]: a streaming router that follows
//! a periodic routing sequence.

#![allow(non_camel_case_types)]

use super::common::*;
use crate::routing::Router;

/// A streaming router repeating a period: next() gives the server for each
/// request in O(1). Its position is an atomic counter, so threads may share
/// one handle without a lock; each call takes the next request(s) of the
/// single stream. Free with crawlsched_routing_router_free().
#[cfg_attr(all(), repr(C))]
pub struct crawlsched_routing_router_t {
    magic: u64,
    pub(super) inner: Router,
}
impl_handle!(
    crawlsched_routing_router_t,
    Router,
    "router",
    0x6372_6177_6c72_7274
);

/// A router repeating seq[0..len] (indices < servers, len in 1..=2^20;
/// TOO_LARGE above). The sequence is copied.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_router_new(
    seq: *const u32,
    len: usize,
    servers: u32,
    out: *mut *mut crawlsched_routing_router_t,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let out = Out::new(out, "out")?;
        if len > crate::routing::system::MAX_PERIOD {
            return Err(FfiError::new(
                CRAWLSCHED_TOO_LARGE,
                format!("period {len} exceeds the limit 2^20"),
            ));
        }
        let seq = unsafe { slice_in(seq, len, "seq")? };
        let r = Router::new(&indices(seq), servers as usize)?;
        publish(Ok(r), out)
    })
}

/// Releases a router. NULL is a no-op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_router_free(r: *mut crawlsched_routing_router_t) {
    guard_value((), || unsafe { free_handle(r) })
}

/// The server for the next request (O(1)).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_router_next(
    r: *const crawlsched_routing_router_t,
    out_server: *mut u32,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let r = unsafe { handle(r, "router")? };
        let out = Out::new(out_server, "out_server")?;
        out.write(r.inner.next());
        Ok(())
    })
}

/// The servers for the next n requests, in order, into out[0..n] (one
/// contiguous block of the stream, even with other threads calling).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crawlsched_routing_router_next_batch(
    r: *const crawlsched_routing_router_t,
    out: *mut u32,
    n: usize,
    err: *mut crawlsched_error_t,
) -> crawlsched_status_t {
    guard(err, || {
        let r = unsafe { handle(r, "router")? };
        let dst = unsafe { slice_out(out, n, "out")? };
        r.inner.next_batch(dst);
        Ok(())
    })
}
