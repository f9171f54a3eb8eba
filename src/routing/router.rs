//! A streaming router: repeats a period forever, one server per request.
//! An atomic counter makes `next` O(1) and lets threads share one router
//! without a lock; a batch takes a contiguous block of the stream.

use super::system::MAX_PERIOD;
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicU64, Ordering};

/// Routes request t to `period[t mod n]`.
#[derive(Debug)]
pub struct Router {
    period: Vec<u32>,
    counter: AtomicU64,
}

impl Router {
    /// A router over `period` (server indices < `servers`).
    pub fn new(period: &[usize], servers: usize) -> Result<Self> {
        super::cost::check_sequence(period, servers)?;
        if period.len() > MAX_PERIOD {
            return Err(Error::TooLarge(format!(
                "period {} exceeds the limit {MAX_PERIOD}",
                period.len()
            )));
        }
        let period = period
            .iter()
            .map(|&s| {
                u32::try_from(s)
                    .map_err(|_| Error::TooLarge(format!("server index {s} exceeds u32")))
            })
            .collect::<Result<_>>()?;
        Ok(Router {
            period,
            counter: AtomicU64::new(0),
        })
    }

    /// The period.
    pub fn period(&self) -> &[u32] {
        &self.period
    }

    /// The server for the next request.
    pub fn next(&self) -> u32 {
        let t = self.counter.fetch_add(1, Ordering::Relaxed);
        self.period[(t % self.period.len() as u64) as usize]
    }

    /// Servers for the next `out.len()` requests, in order.
    pub fn next_batch(&self, out: &mut [u32]) {
        let n = self.period.len() as u64;
        let start = self.counter.fetch_add(out.len() as u64, Ordering::Relaxed);
        let mut pos = (start % n) as usize;
        for o in out.iter_mut() {
            *o = self.period[pos];
            pos += 1;
            if pos == self.period.len() {
                pos = 0;
            }
        }
    }
}
