//! Per-host politeness of the streaming scheduler: gaps, shares, waits.

use std::collections::HashMap;

use super::scheduler::{exp1, rates};
use crate::dist::{Distribution, exp_sample};
use crate::error::Error;
use crate::freshness::polite::{PoliteObjective, PoliteOptions, PolitePlan, polite_frequencies};
use crate::freshness::scheduler::*;
use crate::freshness::{Model, frequencies};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn optimum(mu: &[f64]) -> Vec<f64> {
    frequencies::optimal_frequencies(&Model::new(exp1(), mu, None).unwrap()).unwrap()
}

/// Pages 0..n with rates `mu`; page i on host `host[i]` (`None`: no host).
fn hosted(mode: SchedulerMode, mu: &[f64], host: &[Option<u32>]) -> Scheduler {
    let mut s = Scheduler::new(exp1(), mode).unwrap();
    for (i, &m) in mu.iter().enumerate() {
        s.add_page(i as u64, m, None).unwrap();
        if let Some(h) = host[i] {
            s.set_host(i as u64, h).unwrap();
        }
    }
    s
}

/// A crawl from time `start` whose every visit takes one time unit: `picks` pages from
/// `next_at`, the clock advanced by the wait when told to wait. Asserts
/// that no host is picked before its delay has passed (gap measured as the
/// caller would, in floating point); returns each page's count, each pick's
/// (time, page) and the number of waits.
struct Crawl {
    counts: Vec<u64>,
    picks: Vec<(f64, u64)>,
    waits: u64,
}

fn crawl(s: &mut Scheduler, picks: usize, host: &[Option<u32>], start: f64) -> Crawl {
    let mut c = Crawl {
        counts: vec![0; host.len()],
        picks: Vec::with_capacity(picks),
        waits: 0,
    };
    let mut last: HashMap<u32, f64> = HashMap::new();
    let mut now = start;
    while c.picks.len() < picks {
        match s.next_at(now).unwrap() {
            Pick::Page(id) => {
                if let Some(h) = host[id as usize] {
                    if let Some(&t) = last.get(&h) {
                        let d = s.host_delay(h);
                        assert!(now - t >= d, "host {h}: gap {} < {d}", now - t);
                    }
                    last.insert(h, now);
                }
                c.counts[id as usize] += 1;
                c.picks.push((now, id));
                now += 1.0;
            }
            Pick::Wait(w) => {
                assert!(w > 0.0);
                c.waits += 1;
                now += w;
            }
        }
    }
    c
}

/// Sum of the plan's frequencies per host.
fn host_shares(f: &[f64], host: &[Option<u32>]) -> HashMap<u32, f64> {
    let mut total = HashMap::new();
    for (fi, h) in f.iter().zip(host) {
        if let Some(h) = h {
            *total.entry(*h).or_insert(0.0) += fi;
        }
    }
    total
}

/// Feasible delays (each host's share times one pick per time unit stays
/// below 1/d_h, by a margin from 0.95 down to 0.5; without the delays the
/// same order would break them): no gap below its delay over 2·10^5
/// picks, and every page's count within 3 of f_i times the picks (as
/// Stride without hosts; measured worst 1.6), i.e. shares within 1.5·10^-5
/// of the plan.
#[test]
fn feasible_delays_keep_the_plan_and_the_gaps() {
    let n = 300;
    let mu = rates(n, 1e-3, 1.0);
    let f = optimum(&mu);
    // 30 hosts of 9 pages (mixed rates), 30 pages without a host.
    let host: Vec<Option<u32>> = (0..n)
        .map(|i| (i % 10 != 0).then_some((i % 30) as u32 * 1000 + 7))
        .collect();
    let shares = host_shares(&f, &host);
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut s = hosted(mode, &mu, &host);
        for (k, (&h, &fh)) in shares.iter().enumerate() {
            let margin = 0.95 - 0.45 * (k as f64 / shares.len() as f64);
            s.set_host_delay(h, margin / fh).unwrap();
        }
        let picks = 200_000;
        let c = crawl(&mut s, picks, &host, 0.0);
        assert_eq!(c.waits, 0, "pages without a host are always ready");
        for (i, (&fi, &count)) in f.iter().zip(&c.counts).enumerate() {
            let expected = fi * picks as f64;
            assert!(
                (count as f64 - expected).abs() <= 3.0,
                "{mode:?} page {i}: {count} vs {expected}"
            );
        }
    }
}

/// A host whose unconstrained share exceeds what its delay allows: the
/// scheduler follows the polite plan (problem (7) with the host capped at
/// 1/d_h, its pages at their own multiplier, the others re-optimised for
/// the rest), so the host gets one pick per delay in the long run and
/// every page's count is within [`count_bound`] of its constrained
/// optimum f_i times the picks, in fact within 3 as Stride without hosts
/// (measured worst 1.0).
#[test]
fn infeasible_host_gets_its_max_rate() {
    let n = 40;
    let mu = rates(n, 0.01, 1.0);
    let f = optimum(&mu);
    // The 10 fastest-changing pages on host 3, with a delay of 4 units:
    // their plan share is above 1/4.
    let host: Vec<Option<u32>> = (0..n).map(|i| (i >= 30).then_some(3)).collect();
    let fa: f64 = f[30..].iter().sum();
    assert!(fa * 4.0 > 1.2, "share {fa}");
    // The plan's host 0 is the scheduler's host 3.
    let plan_host: Vec<Option<u32>> = host.iter().map(|h| h.map(|_| 0)).collect();
    let plan = polite_plan(&mu, &plan_host, &[4.0]);
    assert!(plan.saturated[0]);
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut s = hosted(mode, &mu, &host);
        s.set_host_delay(3, 4.0).unwrap();
        for (i, &fi) in plan.frequencies.iter().enumerate() {
            let got = s.frequency(i as u64).unwrap();
            assert!(
                (got - fi).abs() <= 1e-12,
                "{mode:?} page {i}: {got} vs {fi}"
            );
        }
        let picks = 100_000;
        let c = crawl(&mut s, picks, &host, 0.0);
        let on_host = c.picks.iter().filter(|p| host[p.1 as usize].is_some());
        let p = picks as f64;
        let k = on_host.count() as f64;
        assert!(
            (k - p / 4.0).abs() <= 5.0,
            "{mode:?}: host 3 picked {k} times"
        );
        assert_plan_counts(&plan.frequencies, &c.counts, mode);
    }
}

/// When every host is in its delay the answer is the exact wait; a pick
/// at `now + wait` is ready.
#[test]
fn wait_is_exact() {
    let mut s = Scheduler::new(exp1(), SchedulerMode::Stride).unwrap();
    s.add_page(10, 0.5, None).unwrap();
    s.add_page(20, 0.5, None).unwrap();
    s.set_host(10, 1).unwrap();
    s.set_host(20, 2).unwrap();
    s.set_host_delay(1, 2.0).unwrap();
    s.set_host_delay(2, 3.0).unwrap();
    let mut got = vec![s.next_at(0.0).unwrap(), s.next_at(0.0).unwrap()];
    got.sort_by_key(|p| format!("{p:?}"));
    assert_eq!(got, [Pick::Page(10), Pick::Page(20)]);
    assert_eq!(s.next_at(0.0).unwrap(), Pick::Wait(2.0));
    assert_eq!(s.next_at(0.5).unwrap(), Pick::Wait(1.5));
    assert_eq!(s.next_at(2.0).unwrap(), Pick::Page(10));
    assert_eq!(s.next_at(2.0).unwrap(), Pick::Wait(1.0));
    assert_eq!(s.next_at(3.25).unwrap(), Pick::Page(20));
    assert_eq!(s.next_at(3.25).unwrap(), Pick::Wait(0.75));
    // Delays that are not binary fractions: the gap as computed is never
    // below the delay, and waiting as told is enough.
    s.set_host_delay(1, 0.1).unwrap();
    s.set_host_delay(2, 0.7).unwrap();
    let mut now: f64 = 4.3;
    let mut last = HashMap::new();
    for _ in 0..1000 {
        match s.next_at(now).unwrap() {
            Pick::Page(id) => {
                let d = if id == 10 { 0.1 } else { 0.7 };
                if let Some(&t) = last.get(&id) {
                    assert!(now - t >= d, "gap {} < {d}", now - t);
                }
                last.insert(id, now);
                now += 0.03;
            }
            Pick::Wait(w) => {
                assert!(w > 0.0);
                now += w;
                assert!(matches!(s.next_at(now).unwrap(), Pick::Page(_)));
            }
        }
    }
}

#[test]
fn bad_clock_and_delay() {
    let mut s = Scheduler::new(exp1(), SchedulerMode::Stride).unwrap();
    assert!(matches!(s.next_at(0.0), Err(Error::NotFound(_))));
    s.add_page(1, 0.5, None).unwrap();
    for bad in [f64::NAN, -1.0, f64::INFINITY] {
        let Err(Error::InvalidArgument(m)) = s.set_host_delay(4, bad) else {
            panic!("delay {bad} accepted");
        };
        assert!(m.starts_with("delay must be"), "{m}");
    }
    assert_eq!(s.host_delay(4), 0.0);
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let Err(Error::InvalidArgument(m)) = s.next_at(bad) else {
            panic!("now {bad} accepted");
        };
        assert!(m.starts_with("now must be"), "{m}");
    }
    assert_eq!(s.next_at(5.0).unwrap(), Pick::Page(1));
    let Err(Error::InvalidArgument(m)) = s.next_at(4.0) else {
        panic!("clock went back");
    };
    assert!(
        m.contains("now = 4 is before the previous call's now = 5"),
        "{m}"
    );
    // Same with a host (the host path).
    s.set_host(1, u32::MAX).unwrap();
    assert!(matches!(s.next_at(4.5), Err(Error::InvalidArgument(_))));
    assert_eq!(s.next_at(5.0).unwrap(), Pick::Page(1));
    assert_eq!(s.host(1).unwrap(), Some(u32::MAX));
    assert!(matches!(s.set_host(9, 1), Err(Error::NotFound(_))));
    assert!(matches!(s.host(9), Err(Error::NotFound(_))));
    assert!(matches!(s.clear_host(9), Err(Error::NotFound(_))));
    // One clock per scheduler with hosts: next after next_at is refused.
    let Err(Error::InvalidArgument(m)) = s.next() else {
        panic!("next after next_at accepted");
    };
    assert!(m.starts_with("next after next_at"), "{m}");
    let mut t = Scheduler::new(exp1(), SchedulerMode::Stride).unwrap();
    t.add_page(1, 0.5, None).unwrap();
    t.set_host(1, 3).unwrap();
    t.set_host_delay(3, 2.0).unwrap();
    assert_eq!(t.next().unwrap(), 1);
    let Err(Error::InvalidArgument(m)) = t.next_at(100.0) else {
        panic!("next_at after next accepted");
    };
    assert!(m.starts_with("now: next_at after next"), "{m}");
    // Still refused once no page has a host (the delays keep next's slots).
    t.clear_host(1).unwrap();
    assert!(matches!(t.next_at(100.0), Err(Error::InvalidArgument(_))));
    assert_eq!(t.next().unwrap(), 1);
}

/// A delay of more slots than a double counts exactly (2^60 slots of
/// 1e-10, or +∞ slots): next serves the host once, then only the pages
/// without a host; with every page on such a host, the second pick is at
/// slot 2^60, or there is none (`NotFound`) rather than a wait forever.
#[test]
fn next_with_delays_beyond_the_slot_count() {
    for d in [1e-10 * 2f64.powi(60), 1e300] {
        let access = Distribution::exponential(1e10).unwrap();
        let mut s = Scheduler::new(access.clone(), SchedulerMode::Stride).unwrap();
        s.add_page(1, 1e9, None).unwrap();
        s.add_page(2, 1e9, None).unwrap();
        s.set_host(1, 7).unwrap();
        s.set_host_delay(7, d).unwrap();
        let seq = s.next_batch(50).unwrap();
        assert!(
            seq.iter().filter(|&&id| id == 1).count() <= 1,
            "{d}: {seq:?}"
        );
        let mut lone = Scheduler::new(access, SchedulerMode::Stride).unwrap();
        lone.add_page(1, 1e9, None).unwrap();
        lone.set_host(1, 7).unwrap();
        lone.set_host_delay(7, d).unwrap();
        // 2^60 slots: picked at slot 0, then at slot 2^60. 10^310 slots:
        // a cap of 10^-310 of the picks, which the plan rounds to 0.
        let picks = [lone.next(), lone.next()];
        if d < 1e200 {
            assert!(picks.iter().all(|p| matches!(p, Ok(1))), "{picks:?}");
        } else {
            assert!(
                picks.iter().all(|p| matches!(p, Err(Error::NotFound(_)))),
                "{picks:?}"
            );
        }
    }
}

/// While no page has a host, `next_at` is `next`, and recorded delays
/// change nothing.
#[test]
fn no_host_path_unchanged() {
    let mu = rates(30, 0.01, 1.0);
    let none = vec![None; 30];
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut a = hosted(mode, &mu, &none);
        let mut b = hosted(mode, &mu, &none);
        b.set_host_delay(0, 5.0).unwrap();
        for k in 0..3000 {
            let id = a.next().unwrap();
            assert_eq!(b.next_at(k as f64 * 0.5).unwrap(), Pick::Page(id));
            if k % 7 == 0 {
                a.observe(id, 1.0, k % 3 == 0).unwrap();
                b.observe(id, 1.0, k % 3 == 0).unwrap();
            }
        }
    }
}

/// `next` with hosts advances its clock by E[X] per pick (here E[X] = 1):
/// with always-ready pages beside, a host of delay 5 is 5 or more picks
/// apart; with only delayed hosts, idle slots are skipped.
#[test]
fn next_counts_slots() {
    let mu = rates(20, 0.05, 1.0);
    let host: Vec<Option<u32>> = (0..20).map(|i| (i < 10).then_some(1)).collect();
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut s = hosted(mode, &mu, &host);
        s.set_host_delay(1, 5.0).unwrap();
        let seq = s.next_batch(20_000).unwrap();
        let on_host: Vec<usize> = (0..seq.len()).filter(|&k| seq[k] < 10).collect();
        assert!(on_host.windows(2).all(|w| w[1] - w[0] >= 5));
        assert!(on_host.len() >= 3900, "{}", on_host.len());
    }
    let mut s = Scheduler::new(exp1(), SchedulerMode::Stride).unwrap();
    for (id, h) in [(1, 1), (2, 2)] {
        s.add_page(id, 0.5, None).unwrap();
        s.set_host(id, h).unwrap();
        s.set_host_delay(h, 3.0).unwrap();
    }
    let seq = s.next_batch(100).unwrap();
    assert!(seq.windows(2).all(|w| w[0] != w[1]), "{seq:?}");
}

/// With E[X] = 1/4 a pick of `next` is a quarter of a time unit: a host of
/// delay 2 (in the crawl times' unit) is at least 8 picks apart, and it
/// gets its cap, E[X]/d = 1/8 of the picks, when its pages would want more.
#[test]
fn next_clock_is_the_mean_crawl_time() {
    let mu = rates(20, 0.05, 1.0);
    let mut s = Scheduler::new(
        Distribution::exponential(4.0).unwrap(),
        SchedulerMode::Stride,
    )
    .unwrap();
    for (i, &m) in mu.iter().enumerate() {
        s.add_page(i as u64, m, None).unwrap();
        if i < 10 {
            s.set_host(i as u64, 1).unwrap();
        }
    }
    let free: f64 = s
        .frequencies()
        .unwrap()
        .iter()
        .filter(|p| p.0 < 10)
        .map(|p| p.1)
        .sum();
    assert!(
        free > 0.15,
        "the host's unconstrained share {free} (18%) exceeds the cap 1/8"
    );
    s.set_host_delay(1, 2.0).unwrap();
    let seq = s.next_batch(16_000).unwrap();
    let on_host: Vec<usize> = (0..seq.len()).filter(|&k| seq[k] < 10).collect();
    assert!(on_host.windows(2).all(|w| w[1] - w[0] >= 8));
    assert!((1950..=2000).contains(&on_host.len()), "{}", on_host.len());
}

/// observe() and set_change_rate() on pages of hosts: the rates are learnt,
/// the frequencies follow, and the gaps hold throughout.
#[test]
fn rates_learnt_on_hosts() {
    let truth = [0.05, 0.1, 0.2, 0.4, 0.8, 0.3];
    let guess = [0.15, 0.03, 0.6, 0.13, 2.4, 0.3];
    let host = [Some(1), Some(1), Some(2), Some(2), None, Some(3)];
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut s = hosted(mode, &guess, &host);
        s.set_host_delay(1, 1.5).unwrap();
        s.set_host_delay(2, 2.0).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
        let mut now = 0.0;
        let mut last = [None::<f64>; 6];
        let mut host_last: HashMap<u32, f64> = HashMap::new();
        for _ in 0..40_000 {
            let id = match s.next_at(now).unwrap() {
                Pick::Page(id) => id as usize,
                Pick::Wait(w) => {
                    now += w;
                    continue;
                }
            };
            if let Some(h) = host[id] {
                if let Some(&t) = host_last.get(&h) {
                    assert!(now - t >= s.host_delay(h));
                }
                host_last.insert(h, now);
            }
            if let Some(t) = last[id] {
                let u: f64 = rng.random();
                let changed = u < -(-truth[id] * (now - t)).exp_m1();
                s.observe(id as u64, now - t, changed).unwrap();
            }
            last[id] = Some(now);
            now += exp_sample(&mut rng, 1.0);
        }
        for (i, &mu) in truth.iter().enumerate() {
            let r = s.change_rate(i as u64).unwrap();
            assert!(
                (r / mu - 1.0).abs() < 0.15,
                "{mode:?} page {i}: {r} vs {mu}"
            );
        }
        let f = optimum(&truth);
        for (i, &fo) in f.iter().enumerate() {
            let fi = s.frequency(i as u64).unwrap();
            assert!((fi / fo - 1.0).abs() < 0.15, "{mode:?} page {i}");
        }
        // An explicit rate: the frequency follows at once, the share from
        // the next pick.
        s.set_change_rate(5, 2.0).unwrap();
        let mut mu2: Vec<f64> = (0..6).map(|i| s.change_rate(i).unwrap()).collect();
        mu2[5] = 2.0;
        let f2 = optimum(&mu2);
        assert!((s.frequency(5).unwrap() - f2[5]).abs() < 1e-12);
        let c = crawl(&mut s, 20_000, &host, now);
        let expected = 20_000.0 * f2[5];
        assert!(
            (c.counts[5] as f64 - expected).abs() <= 2.0 + 2e-2 * expected,
            "{mode:?}: {} vs {expected}",
            c.counts[5]
        );
    }
}

/// A host keeps its delay and last pick when its last page leaves; when no
/// page has a host any more the scheduler goes back to its mode's path.
#[test]
fn removing_the_last_page_of_a_host() {
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mu = rates(5, 0.1, 1.0);
        let mut s = hosted(mode, &mu, &[None; 5]);
        s.set_host(0, 7).unwrap();
        s.set_host_delay(7, 50.0).unwrap();
        let mut now = 0.0;
        while s.next_at(now).unwrap() != Pick::Page(0) {
            now += 1.0;
        }
        let t0 = now;
        s.remove_page(0).unwrap();
        assert_eq!(s.host_delay(7), 50.0);
        // Back on the mode's own path: every page still served.
        let seen: Vec<u64> = (0..400).map(|_| s.next().unwrap()).collect();
        assert!((1..5).all(|id| seen.contains(&id)));
        s.add_page(0, 0.5, None).unwrap();
        s.set_host(0, 7).unwrap();
        now += 1.0;
        let mut first = None;
        for _ in 0..200 {
            if let Pick::Page(0) = s.next_at(now).unwrap() {
                first.get_or_insert(now);
            }
            now += 1.0;
        }
        // Ready at t0 + 50, then served within a few picks of the
        // always-ready pages (its period 1/f_i is below 20).
        let first = first.expect("page 0 served");
        assert!(first >= t0 + 50.0 && first < t0 + 70.0, "{mode:?}: {first}");
        // clear_host: the page is an ordinary page again.
        s.clear_host(0).unwrap();
        assert_eq!(s.host(0).unwrap(), None);
        let seq = s.next_batch(200).unwrap();
        // Its delay would allow 4 picks in 200 slots.
        let zeros = seq.iter().filter(|&&i| i == 0).count();
        assert!(zeros > 10, "{mode:?}: {zeros}");
    }
}

/// Pages added, removed and re-added under the same id between picks on
/// the host path: a removed page is never returned, slots are reused, and
/// the frequencies sum to one.
#[test]
fn dynamic_pages_on_hosts() {
    let mu = rates(30, 0.01, 1.0);
    let host: Vec<Option<u32>> = (0..30)
        .map(|i| (i % 3 != 0).then_some(i as u32 % 4))
        .collect();
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut s = hosted(mode, &mu, &host);
        s.set_host_delay(1, 3.0).unwrap();
        let mut now = 0.0;
        for round in 0..20u64 {
            let gone = (round * 7) % 30;
            s.remove_page(gone).unwrap();
            for _ in 0..200 {
                match s.next_at(now).unwrap() {
                    Pick::Page(id) => assert_ne!(id, gone, "{mode:?}"),
                    Pick::Wait(w) => now += w,
                }
                now += 1.0;
            }
            s.add_page(gone, mu[gone as usize], None).unwrap();
            if let Some(h) = host[gone as usize] {
                s.set_host(gone, h).unwrap();
            }
        }
        let total: f64 = s.frequencies().unwrap().iter().map(|p| p.1).sum();
        assert!((total - 1.0).abs() < 1e-12);
        let c = crawl(&mut s, 30_000, &host, now);
        assert!(c.counts.iter().all(|&k| k > 0), "{mode:?}: {:?}", c.counts);
    }
}

/// 10^6 picks per mode on a caller clock advancing by random visit times
/// (exponential, mean 1), over 12 hosts with delays from feasible to
/// infeasible (host 11 at 8 units while its plan share asks ~1 pick in
/// 3), pages without a host, a delay changed and a page moved between
/// hosts midway: every gap between two picks of a host, measured on the
/// caller's clock in floating point, is at least the host's delay at the
/// time, and every wait ends with a page when the clock advances by it.
#[test]
fn gaps_never_below_the_delay_over_a_million_picks() {
    let n = 120;
    let mu = rates(n, 1e-2, 1.0);
    let host: Vec<Option<u32>> = (0..n)
        .map(|i| (i % 11 != 0).then_some((i % 12) as u32))
        .collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20);
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut s = hosted(mode, &mu, &host);
        for h in 0..12u32 {
            s.set_host_delay(h, 0.5 + 0.625 * f64::from(h)).unwrap();
        }
        let mut last = [f64::NEG_INFINITY; 12];
        let (mut now, mut picks, mut waited, mut changed) = (0.0, 0u64, false, false);
        while picks < 1_000_000 {
            if picks == 500_000 && !changed {
                s.set_host_delay(3, 9.0).unwrap();
                s.set_host(5, 7).unwrap();
                changed = true;
            }
            match s.next_at(now).unwrap() {
                Pick::Page(id) => {
                    if let Some(h) = s.host(id).unwrap() {
                        let d = s.host_delay(h);
                        let gap = now - last[h as usize];
                        assert!(
                            gap >= d,
                            "{mode:?} host {h}: gap {gap} < {d} at pick {picks}"
                        );
                        last[h as usize] = now;
                    }
                    picks += 1;
                    waited = false;
                    now += exp_sample(&mut rng, 1.0);
                }
                Pick::Wait(w) => {
                    assert!(w > 0.0 && !waited, "{mode:?}: wait {w} after a wait");
                    waited = true;
                    now += w;
                }
            }
        }
    }
}

/// The polite plan of the scheduler's pages (unit weights, exp(1) access:
/// one pick per time unit) with host h capped at 1/d_h picks per unit and
/// the pages without a host on an uncapped host of their own.
fn polite_plan(mu: &[f64], host: &[Option<u32>], delays: &[f64]) -> PolitePlan {
    weighted_polite_plan(mu, None, host, delays)
}

/// [`polite_plan`] with cost weights `c` (`None`: c_i = μ_i).
fn weighted_polite_plan(
    mu: &[f64],
    c: Option<&[f64]>,
    host: &[Option<u32>],
    delays: &[f64],
) -> PolitePlan {
    let m = Model::new(exp1(), mu, c).unwrap();
    let extra = delays.len() as u32;
    let hosts: Vec<u32> = host.iter().map(|h| h.unwrap_or(extra)).collect();
    let mut caps: Vec<f64> = delays.iter().map(|d| 1.0 / d).collect();
    caps.push(f64::INFINITY);
    let opts = PoliteOptions::default();
    polite_frequencies(&m, &hosts, &caps, PoliteObjective::EvenlySpaced, &opts).unwrap()
}

/// Six-sigma binomial bound on a count over `picks` with share `p`, plus
/// the 3 picks of Stride's order: as if every pick drew page i with
/// probability p (the scheduler is more regular than that), a count
/// outside it has probability below 2·10⁻⁹.
fn count_bound(picks: f64, p: f64) -> f64 {
    3.0 + 6.0 * (picks * p * (1.0 - p)).sqrt()
}

/// Asserts that every page's count over the crawl (`counts.len()` pages,
/// Σ counts picks) is its plan frequency times the picks within
/// [`count_bound`], and in fact within 3 picks, as Stride without hosts.
fn assert_plan_counts(f: &[f64], counts: &[u64], mode: SchedulerMode) {
    let p = counts.iter().sum::<u64>() as f64;
    for (i, (&fi, &count)) in f.iter().zip(counts).enumerate() {
        let dev = (count as f64 - fi * p).abs();
        assert!(dev <= count_bound(p, fi), "{mode:?} page {i}: {dev}");
        assert!(dev <= 3.0, "{mode:?} page {i}: {dev} picks off");
    }
}

/// Long-run shares against the polite plan (problem (7) with each host's
/// cap 1/d_h), 2·10⁵ picks one time unit apart. (a) Delays that do not
/// bind (the plan saturates no host): every page's count is its
/// constrained optimum f_i times the picks within [`count_bound`]. (b) One
/// host whose delay binds: its total is its cap and every page's count is
/// its constrained optimum times the picks, within the bound.
#[test]
fn long_run_shares_match_the_polite_plan() {
    let n = 60;
    let mu = rates(n, 1e-2, 1.0);
    let f = optimum(&mu);
    let host: Vec<Option<u32>> = (0..n)
        .map(|i| (i % 6 != 5).then_some((i % 6) as u32))
        .collect();
    let shares = host_shares(&f, &host);
    let picks = 200_000;
    let p = picks as f64;
    // (a) Caps of 1.6 to 3 times each host's plan share.
    let loose: Vec<f64> = (0..5u32)
        .map(|h| 1.0 / ((1.6 + 0.35 * f64::from(h)) * shares[&h]))
        .collect();
    let plan = polite_plan(&mu, &host, &loose);
    assert!(plan.saturated.iter().all(|&s| !s));
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut s = hosted(mode, &mu, &host);
        for (h, &d) in loose.iter().enumerate() {
            s.set_host_delay(h as u32, d).unwrap();
        }
        let c = crawl(&mut s, picks, &host, 0.0);
        assert_plan_counts(&plan.frequencies, &c.counts, mode);
    }
    // (b) Host 4 capped at half its plan share.
    let mut tight = loose.clone();
    // A whole delay: picks come one time unit apart (see below).
    tight[4] = (2.0 / shares[&4]).round();
    let plan = polite_plan(&mu, &host, &tight);
    assert!(plan.saturated[4] && plan.saturated.iter().filter(|&&s| s).count() == 1);
    let cap: f64 = (0..n)
        .filter(|&i| host[i] == Some(4))
        .map(|i| plan.frequencies[i])
        .sum();
    assert!((cap - 1.0 / tight[4]).abs() < 1e-12);
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut s = hosted(mode, &mu, &host);
        for (h, &d) in tight.iter().enumerate() {
            s.set_host_delay(h as u32, d).unwrap();
        }
        let c = crawl(&mut s, picks, &host, 0.0);
        let count: u64 = (0..n)
            .filter(|&i| host[i] == Some(4))
            .map(|i| c.counts[i])
            .sum();
        let dev = (count as f64 - cap * p).abs();
        assert!(
            dev <= count_bound(p, cap),
            "{mode:?}: host 4 {count} vs {}",
            cap * p
        );
        // Per page: the constrained optimum.
        assert_plan_counts(&plan.frequencies, &c.counts, mode);
    }
}

/// Slots host h needs between two picks of `next` when a slot is `e`
/// time units: the least whole k with k·e ≥ d_h as computed.
fn slots_needed(d: f64, e: f64) -> u64 {
    (1..).find(|&k| k as f64 * e >= d).unwrap()
}

/// A scheduler of pages with rates `mu` on hosts `host` with `delays`,
/// after `picks` picks of `next`: the scheduler and each page's count.
/// Asserts that no host h is picked twice within `slots[h]` picks.
fn slot_crawl(
    access: &Distribution,
    mode: SchedulerMode,
    mu: &[f64],
    host: &[Option<u32>],
    delays: &[f64],
    slots: &[u64],
    picks: usize,
) -> (Scheduler, Vec<u64>) {
    let mut s = Scheduler::new(access.clone(), mode).unwrap();
    for (i, &m) in mu.iter().enumerate() {
        s.add_page(i as u64, m, None).unwrap();
        if let Some(h) = host[i] {
            s.set_host(i as u64, h).unwrap();
        }
    }
    for (h, &d) in delays.iter().enumerate() {
        s.set_host_delay(h as u32, d).unwrap();
    }
    let mut counts = vec![0u64; mu.len()];
    let mut last: HashMap<u32, usize> = HashMap::new();
    for (t, &id) in s.next_batch(picks).unwrap().iter().enumerate() {
        counts[id as usize] += 1;
        if let Some(h) = host[id as usize]
            && let Some(l) = last.insert(h, t)
        {
            assert!(
                (t - l) as u64 >= slots[h as usize],
                "{mode:?} host {h}: {} picks",
                t - l
            );
        }
    }
    (s, counts)
}

/// `next` picks once per slot of E[X], so a host of delay d_h takes at most
/// one pick in k_h slots (`slots_needed`): delays that are not whole slots
/// (k − 1/2 slots at E[X] = 1; k/10 at E[X] = 0.1, where k·0.1 can round
/// below k/10 and a clock summing 0.1 per pick drifts off the grid) give
/// every page its count under the polite plan with caps 1/(k_h E[X]),
/// within 3 picks over 2·10^5, the tight host exactly its 1/k_h of the
/// picks (within 3), no gap below k_h picks, and `frequencies` is that
/// plan. A plan capped at 1/d_h gives the tight host more than it can
/// take (hundreds of picks here).
#[test]
fn next_plans_with_whole_slots() {
    let n = 60;
    let mu = rates(n, 1e-2, 1.0);
    let host: Vec<Option<u32>> = (0..n)
        .map(|i| (i % 6 != 5).then_some((i % 6) as u32))
        .collect();
    let picks = 200_000usize;
    let p = picks as f64;
    for e in [1.0, 0.1] {
        let access = Distribution::exponential(1.0 / e).unwrap();
        let plan_with = |delays: &[f64]| {
            let m = Model::new(access.clone(), &mu, None).unwrap();
            let hosts: Vec<u32> = host.iter().map(|h| h.unwrap_or(5)).collect();
            let mut caps: Vec<f64> = delays.iter().map(|d| 1.0 / d).collect();
            caps.push(f64::INFINITY);
            let opts = PoliteOptions::default();
            polite_frequencies(&m, &hosts, &caps, PoliteObjective::EvenlySpaced, &opts).unwrap()
        };
        let free =
            frequencies::optimal_frequencies(&Model::new(access.clone(), &mu, None).unwrap())
                .unwrap();
        let shares = host_shares(&free, &host);
        // Host 4 at about half its free share; the others loose.
        let k: Vec<f64> = (0..5u32)
            .map(|h| match h {
                4 => (2.0 / shares[&h]).ceil(),
                _ => (1.0 / (1.6 * shares[&h])).floor(),
            })
            .collect();
        let delays: Vec<f64> = k
            .iter()
            .map(|&k| if e == 1.0 { k - 0.5 } else { k / 10.0 })
            .collect();
        let slots: Vec<u64> = delays.iter().map(|&d| slots_needed(d, e)).collect();
        let whole: Vec<f64> = slots.iter().map(|&k| k as f64 * e).collect();
        let plan = plan_with(&whole);
        assert!(plan.saturated[4] && plan.saturated.iter().filter(|&&s| s).count() == 1);
        let over = plan_with(&delays);
        let on4 = |f: &[f64]| -> f64 { (0..n).filter(|&i| host[i] == Some(4)).map(|i| f[i]).sum() };
        if e == 1.0 {
            assert!((on4(&over.frequencies) - on4(&plan.frequencies)) * p > 300.0);
        }
        for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
            let (s, counts) = slot_crawl(&access, mode, &mu, &host, &delays, &slots, picks);
            // The scheduler reports the plan it realises.
            for (id, f) in s.frequencies().unwrap() {
                let want = plan.frequencies[id as usize];
                assert!(
                    (f - want).abs() <= 1e-12 * want,
                    "{mode:?} e {e} page {id}: {f} vs {want}"
                );
            }
            let count4: u64 = (0..n)
                .filter(|&i| host[i] == Some(4))
                .map(|i| counts[i])
                .sum();
            let want = p / slots[4] as f64;
            assert!(
                (count4 as f64 - want).abs() <= 3.0,
                "{mode:?} e {e}: {count4} vs {want}"
            );
            assert_plan_counts(&plan.frequencies, &counts, mode);
        }
    }
}

/// Random slot lengths E[X] (10^-3 to 10^3), delays of 0.3 to 40 slots
/// (some whole) or, one case in four, 50 to 400, and pages of random rates
/// on up to 5 hosts with some pages without a host, over 60,000 picks of
/// `next`: no gap of host h below its k_h slots (`slots_needed`), and each
/// group's pages split its picks as the polite plan (caps 1/(k_h E[X]))
/// splits its share (within [`count_bound`]). One pick stream cannot
/// serve two hosts ready at once: a host served after m_h others (for a
/// saturated host, the saturated ones with fewer slots; otherwise every
/// other host; their caps summing to ρ_h < 1) waits at most m_h/(1 − ρ_h)
/// slots past its delay, so it gets at least its plan share or
/// picks/(k_h + m_h/(1 − ρ_h)), and the pages without a host at least
/// theirs. The plan itself can be out of reach with few slots per delay
/// (a host of 2 slots next to a saturated one of 5 can take 2 picks in 5,
/// not its planned 0.49); with 50 slots or more every page's count is its
/// plan share within the bound.
#[test]
fn next_follows_the_whole_slot_plan_for_random_slots() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(47);
    let picks = 60_000usize;
    for case in 0..16 {
        // The slot is the scheduler's E[X] (1/(1/e) may differ from e).
        let access = Distribution::exponential(10f64.powf(rng.random_range(-3.0..3.0))).unwrap();
        let e = access.mean();
        let n = rng.random_range(8..40usize);
        let hn = rng.random_range(1..6usize);
        let mu: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.random_range(-2.0..1.0)) / e)
            .collect();
        // Hosts 0..hn each get a page (every capped host needs one).
        let host: Vec<Option<u32>> = (0..n)
            .map(|i| match i {
                i if i < hn => Some(i as u32),
                i => (i % 4 != 3).then(|| rng.random_range(0..hn as u32)),
            })
            .collect();
        // One case in four: delays of 50 to 400 slots (a crawler making
        // many picks per Crawl-delay).
        let long = case % 4 == 3;
        let delays: Vec<f64> = (0..hn)
            .map(|_| match rng.random_range(0..3) {
                _ if long => rng.random_range(50.0..400.0) * e,
                0 => f64::from(rng.random_range(1..12u32)) * e,
                _ => rng.random_range(0.3..40.0) * e,
            })
            .collect();
        let slots: Vec<u64> = delays.iter().map(|&d| slots_needed(d, e)).collect();
        let m = Model::new(access.clone(), &mu, None).unwrap();
        let groups: Vec<u32> = host.iter().map(|h| h.unwrap_or(hn as u32)).collect();
        let mut caps: Vec<f64> = slots.iter().map(|&k| 1.0 / (k as f64 * e)).collect();
        caps.push(f64::INFINITY);
        let opts = PoliteOptions::default();
        let plan =
            polite_frequencies(&m, &groups, &caps, PoliteObjective::EvenlySpaced, &opts).unwrap();
        let mode = if case % 2 == 0 {
            SchedulerMode::Stride
        } else {
            SchedulerMode::GoldenRatio
        };
        let (_, counts) = slot_crawl(&access, mode, &mu, &host, &delays, &slots, picks);
        assert_slot_shares(&plan, &counts, &groups, &slots, case);
        if long {
            assert_plan_counts_within_bound(&plan.frequencies, &counts, case);
        }
    }
}

/// The bounds of [`next_follows_the_whole_slot_plan_for_random_slots`] for
/// one crawl: `counts` per page, `groups` per page (hosts 0..slots.len(),
/// then the pages without a host), `slots` k_h per host.
fn assert_slot_shares(
    plan: &PolitePlan,
    counts: &[u64],
    groups: &[u32],
    slots: &[u64],
    case: usize,
) {
    let (n, hn) = (counts.len(), slots.len());
    let p = counts.iter().sum::<u64>() as f64;
    let on = |h: usize| (0..n).filter(move |&i| groups[i] == h as u32);
    let sat: Vec<usize> = (0..hn).filter(|&h| plan.saturated[h]).collect();
    for h in 0..=hn {
        let share: f64 = on(h).map(|i| plan.frequencies[i]).sum();
        let got: u64 = on(h).map(|i| counts[i]).sum();
        // Pages of a group split its picks as the plan splits its share.
        for i in on(h) {
            let q = plan.frequencies[i] / share;
            let dev = (counts[i] as f64 - q * got as f64).abs();
            assert!(dev <= count_bound(got as f64, q), "case {case} page {i}");
        }
        let mut least = share * p - count_bound(p, share);
        if h < hn {
            let ahead: Vec<usize> = if plan.saturated[h] {
                sat.iter()
                    .copied()
                    .filter(|&j| (slots[j], j) < (slots[h], h))
                    .collect()
            } else {
                (0..hn).filter(|&j| j != h).collect()
            };
            let rho: f64 = ahead.iter().map(|&j| 1.0 / slots[j] as f64).sum();
            // No bound when the hosts ahead could fill every slot.
            let bound = if rho < 1.0 {
                p / (slots[h] as f64 + ahead.len() as f64 / (1.0 - rho)) - 1.0
            } else {
                0.0
            };
            least = least.min(bound);
            assert!(
                got as f64 <= p / slots[h] as f64 + 1.0,
                "case {case} host {h}: {got}"
            );
        }
        assert!(
            got as f64 >= least,
            "case {case} group {h}: {got} < {least}"
        );
    }
}

/// Every page's count within [`count_bound`] of its plan share.
fn assert_plan_counts_within_bound(f: &[f64], counts: &[u64], case: usize) {
    let p = counts.iter().sum::<u64>() as f64;
    for (i, (&fi, &c)) in f.iter().zip(counts).enumerate() {
        let dev = (c as f64 - fi * p).abs();
        assert!(
            dev <= count_bound(p, fi),
            "case {case} page {i}: {c} vs {}",
            fi * p
        );
    }
}

/// General weights, one host whose delay binds: with c_i ≠ μ_i, scaling
/// the unconstrained plan per host to the caps is not the optimum (some
/// page's scaled count differs from the optimum's by more than 100 picks
/// here); the scheduler's counts are the constrained optimum's within
/// [`count_bound`], in fact within 3 as Stride without hosts (measured
/// worst 1.03).
#[test]
fn weighted_shares_are_the_constrained_optimum() {
    let n = 60;
    let mu = rates(n, 1e-2, 1.0);
    let c: Vec<f64> = (0..n).map(|i| 1.0 + (i % 7) as f64).collect();
    let host: Vec<Option<u32>> = (0..n)
        .map(|i| (i % 3 != 2).then_some((i % 3) as u32))
        .collect();
    let m = Model::new(exp1(), &mu, Some(&c)).unwrap();
    let f = frequencies::optimal_frequencies(&m).unwrap();
    let shares = host_shares(&f, &host);
    // Whole delays: picks come one time unit apart, so a host ready
    // between two picks would wait for the next (a cap of 1/⌈d_h⌉).
    let delays = [(2.0 / shares[&0]).round(), 1.0 / (2.0 * shares[&1])];
    let plan = weighted_polite_plan(&mu, Some(&c), &host, &delays);
    assert!(plan.saturated[0] && !plan.saturated[1] && !plan.saturated[2]);
    let cap = 1.0 / delays[0];
    let p = 200_000.0;
    let scaled_off = (0..n)
        .map(|i| {
            let scale = if host[i] == Some(0) {
                cap / shares[&0]
            } else {
                (1.0 - cap) / (1.0 - shares[&0])
            };
            (f[i] * scale - plan.frequencies[i]).abs() * p
        })
        .fold(0.0, f64::max);
    assert!(scaled_off > 100.0, "{scaled_off}");
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut s = Scheduler::new(exp1(), mode).unwrap();
        for i in 0..n {
            s.add_page(i as u64, mu[i], Some(c[i])).unwrap();
            if let Some(h) = host[i] {
                s.set_host(i as u64, h).unwrap();
            }
        }
        for (h, &d) in delays.iter().enumerate() {
            s.set_host_delay(h as u32, d).unwrap();
        }
        let counts = crawl(&mut s, p as usize, &host, 0.0).counts;
        assert_plan_counts(&plan.frequencies, &counts, mode);
    }
}

/// Rates learnt online on a host whose delay binds (its unconstrained
/// share is 10 times its cap): a crawl that reports every visit (observe
/// after each pick, changes drawn from the true rates) picks every page
/// its final plan visits more than 5 times in 30N picks, and no such page
/// waits more than 8/f_i + 4N picks between two picks (frequencies move
/// with the estimates; a recomputation every N picks may delay a page by
/// about one epoch). Fails when a recomputation moves every overdue page
/// to the virtual clock (gaps of 4664 and 6080 picks here).
#[test]
fn online_rates_on_a_tight_host_starve_no_page() {
    let n = 400;
    let truth = rates(n, 1e-2, 1.0);
    let host: Vec<Option<u32>> = (0..n)
        .map(|i| (i % 4 < 2).then_some((i % 4) as u32))
        .collect();
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut s = Scheduler::new(exp1(), mode).unwrap();
        for (i, &mu) in truth.iter().enumerate() {
            s.add_page(i as u64, mu, Some(1.0)).unwrap();
            if let Some(h) = host[i] {
                s.set_host(i as u64, h).unwrap();
            }
        }
        let f = s.frequencies().unwrap();
        let shares = host_shares(&f.iter().map(|e| e.1).collect::<Vec<_>>(), &host);
        s.set_host_delay(0, (10.0 / shares[&0]).round()).unwrap();
        s.set_host_delay(1, (0.5 / shares[&1]).round()).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let picks = 30 * n;
        let (mut now, mut done) = (0.0, 0);
        let mut last = vec![None::<f64>; n];
        let mut last_pick = vec![0usize; n];
        let mut longest = vec![0usize; n];
        let mut counts = vec![0u64; n];
        while done < picks {
            let id = match s.next_at(now).unwrap() {
                Pick::Page(id) => id as usize,
                Pick::Wait(w) => {
                    now += w;
                    continue;
                }
            };
            if let Some(t) = last[id] {
                let u: f64 = rng.random();
                let changed = u < -(-truth[id] * (now - t)).exp_m1();
                s.observe(id as u64, now - t, changed).unwrap();
            }
            longest[id] = longest[id].max(done - last_pick[id]);
            (last[id], last_pick[id], counts[id]) = (Some(now), done, counts[id] + 1);
            done += 1;
            now += 1.0;
        }
        let f = s.frequencies().unwrap();
        let mut starved = 0;
        for (i, &(_, fi)) in f.iter().enumerate() {
            let gap = longest[i].max(picks - last_pick[i]) as f64;
            if fi * picks as f64 > 5.0 && (counts[i] == 0 || gap > 8.0 / fi + 4.0 * n as f64) {
                starved += 1;
                eprintln!(
                    "{mode:?} page {i} host {:?}: {} picks, gap {gap}, f {fi}",
                    host[i], counts[i]
                );
            }
        }
        assert_eq!(starved, 0, "{mode:?}");
    }
}

#[test]
fn a_host_given_a_delay_after_the_host_path_started_is_served_without_a_panic() {
    // The fuzzer's sequence: host 2 with a delay, page 1 on it and then on
    // host 3, two picks, then a delay for host 126, which has no page (a
    // record whose queue was never started): the next pick looks at every
    // host's queue, that one included.
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut s = Scheduler::new(exp1(), mode).unwrap();
        s.add_page(7, 3.4e205, None).unwrap();
        s.set_host_delay(2, 14.25).unwrap();
        s.add_page(1, 12.5, Some(2.5e-15)).unwrap();
        s.set_host(1, 3).unwrap();
        s.next().unwrap();
        s.next().unwrap();
        s.set_host_delay(126, 16.5).unwrap();
        s.add_pages(&[]).unwrap();
        let mut seen = [0u32; 8];
        for _ in 0..100 {
            seen[s.next().unwrap() as usize] += 1;
        }
        assert!(seen[7] > 0, "{mode:?}: {seen:?}");
    }
}
