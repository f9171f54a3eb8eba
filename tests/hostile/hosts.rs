//! Hostile calls: the scheduler's hosts (politeness records).

use super::dist::with_default_cap;
use super::freshness::call;
use super::support::*;
use crawlsched::ffi::*;
use std::ptr::null_mut;

const MIB: u64 = 1 << 20;

/// Owned scheduler of `n` pages (ids 0..n, rates 0.1..) over exp(1).
struct Sched(*mut crawlsched_scheduler_t, *mut crawlsched_dist_t);
impl Drop for Sched {
    fn drop(&mut self) {
        // SAFETY: live handles from their constructors.
        unsafe {
            crawlsched_scheduler_free(self.0);
            crawlsched_dist_free(self.1);
        }
    }
}

fn sched(n: u64) -> Sched {
    sched_with(n, 1.0, |i| 0.1 * (i + 1) as f64)
}

/// Owned scheduler of `n` pages (ids 0..n, page i changing at `rate(i)`)
/// over exponential crawl times of rate `crawl_rate`.
fn sched_with(n: u64, crawl_rate: f64, rate: impl Fn(u64) -> f64) -> Sched {
    let (mut d, mut s) = (null_mut(), null_mut());
    // SAFETY: valid out-pointers, live handles.
    unsafe {
        assert_eq!(
            crawlsched_dist_exponential_new(crawl_rate, &mut d, null_mut()),
            CRAWLSCHED_OK
        );
        assert_eq!(
            crawlsched_scheduler_new(d, CRAWLSCHED_SCHEDULER_STRIDE, &mut s, null_mut()),
            CRAWLSCHED_OK
        );
        for i in 0..n {
            assert_eq!(
                crawlsched_scheduler_add_page(s, i, rate(i), null_mut()),
                CRAWLSCHED_OK
            );
        }
    }
    Sched(s, d)
}

/// Host ids spread over all of u32 (0, u32::MAX, and between).
fn spread(k: u32) -> u32 {
    match k {
        0 => u32::MAX,
        1 => 0,
        _ => k.wrapping_mul(2_654_435_761) ^ 0x8000_0001,
    }
}

/// Host records are estimated against the memory cap before they are
/// made, whatever the ids: under a 1 MiB cap, delays for hosts spread over
/// u32 (u32::MAX first) are accepted until the records' estimate (1024
/// bytes each) would pass the cap, then TOO_LARGE naming the hosts; the
/// memory held over the whole sequence stays below the cap (no table sized
/// by the largest id), and putting pages on new hosts is refused the same
/// way. The scheduler then still picks, never within a host's delay.
#[test]
fn host_records_are_capped_before_they_are_made() {
    let _g = serial();
    let s = sched(4);
    let ((accepted, refused), peak) = with_default_cap(MIB, || {
        peak_during(|| {
            let mut accepted = 0u32;
            let mut refused = None;
            for k in 0..4096u32 {
                // SAFETY: live handle.
                let r = call(|e| unsafe {
                    crawlsched_scheduler_set_host_delay(s.0, spread(k), 2.0, e)
                });
                if r.0 == CRAWLSCHED_OK {
                    accepted += 1;
                } else {
                    refused = Some(r);
                    break;
                }
            }
            (accepted, refused)
        })
    });
    let refused = refused.expect("a delay refused before 4096 hosts");
    assert_eq!(refused.0, CRAWLSCHED_TOO_LARGE, "{}", refused.1);
    assert!(refused.1.contains("hosts"), "{}", refused.1);
    // 4 pages of 768 bytes and `accepted` records of 1024 fit in 1 MiB.
    assert!(
        accepted >= 1 && u64::from(accepted) * 1024 <= MIB,
        "{accepted}"
    );
    assert!((peak as u64) < MIB, "held {peak} bytes");
    // A page on a new host is refused too; on a recorded one it is not.
    with_default_cap(MIB, || {
        // SAFETY: live handle.
        let r = call(|e| unsafe { crawlsched_scheduler_set_host(s.0, 0, spread(accepted), e) });
        assert_eq!(r.0, CRAWLSCHED_TOO_LARGE, "{}", r.1);
        for id in 0..4 {
            // SAFETY: live handle.
            let r = call(|e| unsafe { crawlsched_scheduler_set_host(s.0, id, u32::MAX, e) });
            assert_eq!(r.0, CRAWLSCHED_OK, "{}", r.1);
        }
    });
    // All four pages on host u32::MAX (delay 2): picks 2 time units apart.
    let mut now = 0.0;
    let mut last = None;
    for _ in 0..20 {
        let (mut id, mut wait, mut ready) = (0u64, 0.0, 0i32);
        // SAFETY: live handle, valid out-pointers.
        let st = unsafe {
            crawlsched_scheduler_next_at(s.0, now, &mut id, &mut wait, &mut ready, null_mut())
        };
        assert_eq!(st, CRAWLSCHED_OK);
        if ready == 1 {
            if let Some(t) = last {
                assert!(now - t >= 2.0, "gap {}", now - t);
            }
            last = Some(now);
            now += 0.5;
        } else {
            now += wait;
        }
    }
}

/// One record per distinct host, not per id's size: a delay on u32::MAX
/// and a page on it hold a few KiB (about 1.1 KiB measured). The counter
/// is process-wide and the test harness's own threads allocate too (a
/// fresh-clone run once saw 24 KiB), so the least of three tries counts.
#[test]
fn the_largest_host_id_costs_one_record() {
    let _g = serial();
    let mut least = usize::MAX;
    for _ in 0..3 {
        let s = sched(1);
        let (st, peak) = peak_during(|| {
            // SAFETY: live handle.
            unsafe {
                crawlsched_scheduler_set_host_delay(s.0, u32::MAX, 1.0, null_mut());
                crawlsched_scheduler_set_host(s.0, 0, u32::MAX, null_mut())
            }
        });
        assert_eq!(st, CRAWLSCHED_OK);
        least = least.min(peak);
    }
    assert!(least < 16 << 10, "held {least} bytes");
}

/// The bounds the scheduler checks at add time (768 bytes per page, 1024
/// per host record) cover a recomputation through the polite plan: pages
/// spread over hosts whose delays cap a third of them below their share,
/// the whole life (pages, hosts, delays, the first pick's recomputation)
/// peaks below the bounds, and so does what the recomputation holds on
/// top of the scheduler. The robot crawls at R = n pages per unit time,
/// the change rates spread over [0.01, 10]; the plan sums to 1 with some
/// hosts saturated. `CRAWLSCHED_POLITE_PEAK=PAGES,HOSTS` sets the
/// size (default 2^16 + 1 pages over 2^9 hosts).
#[test]
fn polite_recompute_stays_within_the_per_page_bound() {
    let _g = serial();
    let (n, hosts) = std::env::var("CRAWLSCHED_POLITE_PEAK")
        .ok()
        .and_then(|v| {
            let (a, b) = v.split_once(',')?;
            Some((a.parse::<u64>().ok()?, b.parse::<u32>().ok()?))
        })
        .unwrap_or(((1 << 16) + 1, 1 << 9));
    let (s, build, held) = peak_and_held(|| {
        // 0.01·10^{3u}, u the fractional part of i/φ.
        let spread = |i: u64| 0.01 * 1e3_f64.powf((i as f64 * 0.618_033_988_749_895).fract());
        let s = sched_with(n, n as f64, spread);
        for id in 0..n {
            // SAFETY: live handle.
            let r = call(|e| unsafe {
                crawlsched_scheduler_set_host(s.0, id, (id % u64::from(hosts)) as u32, e)
            });
            assert_eq!(r.0, CRAWLSCHED_OK, "{}", r.1);
        }
        // Host h's fair share is R/hosts crawls per unit time; delays of
        // 0.5, 1 and 1.5 times hosts/R cap every third host below it.
        for h in 0..hosts {
            let delay = f64::from(hosts) / n as f64 * 0.5 * f64::from(1 + h % 3);
            // SAFETY: live handle.
            let r = call(|e| unsafe { crawlsched_scheduler_set_host_delay(s.0, h, delay, e) });
            assert_eq!(r.0, CRAWLSCHED_OK, "{}", r.1);
        }
        s
    });
    let (st, recompute) = peak_during(|| {
        let (mut id, mut wait, mut ready) = (0u64, 0.0, 0i32);
        // SAFETY: live handle, valid out-pointers.
        unsafe {
            crawlsched_scheduler_next_at(s.0, 0.0, &mut id, &mut wait, &mut ready, null_mut())
        }
    });
    assert_eq!(st, CRAWLSCHED_OK);
    let bound = 768 * n + 1024 * u64::from(hosts);
    let total = held as u64 + recompute as u64;
    let life = total.max(build as u64);
    eprintln!(
        "{n} pages, {hosts} hosts: held {:.1} B/page, polite recompute {:.1} B/page on top, \
         total {:.1} of {:.1} charged",
        held as f64 / n as f64,
        recompute as f64 / n as f64,
        total as f64 / n as f64,
        bound as f64 / n as f64
    );
    assert!(life <= bound, "peak {life} bytes > {bound}");
    drop(s);
}
