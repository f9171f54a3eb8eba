use crate::dist::Distribution;
use crate::dist::exp_sample;
use crate::error::Error;
use crate::freshness::scheduler::*;
use crate::freshness::{Model, cyclic, frequencies};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

pub(super) fn exp1() -> Distribution {
    Distribution::exponential(1.0).unwrap()
}

/// Heterogeneous rates spread log-uniformly over two decades.
pub(super) fn rates(n: usize, lo: f64, hi: f64) -> Vec<f64> {
    (0..n)
        .map(|i| lo * (hi / lo).powf(i as f64 / (n - 1) as f64))
        .collect()
}

fn filled(mode: SchedulerMode, mu: &[f64]) -> Scheduler {
    let mut s = Scheduler::new(exp1(), mode).unwrap();
    for (i, &m) in mu.iter().enumerate() {
        s.add_page(i as u64, m, None).unwrap();
    }
    s
}

fn counts(s: &mut Scheduler, picks: usize, n: usize) -> Vec<u64> {
    let mut c = vec![0u64; n];
    for _ in 0..picks {
        c[s.next().unwrap() as usize] += 1;
    }
    c
}

/// (a) Stride: long-run counts match the optimal frequencies to within
/// a few accesses.
#[test]
fn stride_frequencies_match_optimal() {
    let mu = rates(20, 0.01, 1.0);
    let mut s = filled(SchedulerMode::Stride, &mu);
    let model = Model::new(exp1(), &mu, None).unwrap();
    let f = frequencies::optimal_frequencies(&model).unwrap();
    for (i, &fi) in f.iter().enumerate() {
        assert!((s.frequency(i as u64).unwrap() - fi).abs() < 1e-15);
    }
    let picks = 100_000;
    let c = counts(&mut s, picks, mu.len());
    for i in 0..mu.len() {
        let expected = picks as f64 * f[i];
        assert!(
            (c[i] as f64 - expected).abs() <= 3.0,
            "page {i}: {} vs {expected}",
            c[i]
        );
        assert!((s.frequency(i as u64).unwrap() - f[i]).abs() < 1e-15);
    }
}

/// (a) GoldenRatio: over whole cycles each page's share is within
/// 2/F_k of f_i; a page with f_i F_k ≥ 1 gets the same whole count,
/// within 1 of f_i F_k, every cycle.
#[test]
fn golden_frequencies_match_optimal() {
    // 20 pages: several below one access per cycle. 300 pages: so many
    // pooled pages that one position each per cycle would leave the
    // busiest page 49 of its 64.6 accesses.
    for (n, lo, hi) in [(20, 0.01, 1.0), (300, 1e-3, 3.2)] {
        let mu = rates(n, lo, hi);
        let mut s = filled(SchedulerMode::GoldenRatio, &mu);
        let model = Model::new(exp1(), &mu, None).unwrap();
        let f = frequencies::optimal_frequencies(&model).unwrap();
        s.next().unwrap();
        let k = s.template.len();
        assert_eq!(k, cyclic::fibonacci_at_least(CYCLE_FACTOR * n));
        let big_f = k as f64;
        assert!(
            f.iter().any(|&x| x * big_f < 1.0),
            "the test needs pooled pages"
        );
        // Finish the first cycle, then count whole cycles.
        while s.pos < s.template.len() {
            s.next().unwrap();
        }
        let cycles = 40;
        let mut per_cycle = vec![vec![0u64; n]; cycles];
        for c in per_cycle.iter_mut() {
            for _ in 0..k {
                c[s.next().unwrap() as usize] += 1;
            }
        }
        for i in 0..n {
            let total: u64 = per_cycle.iter().map(|c| c[i]).sum();
            let share = total as f64 / (cycles * k) as f64;
            assert!(
                (share - f[i]).abs() <= 2.0 / big_f,
                "n {n} page {i}: share {share} vs {} ({} per cycle)",
                f[i],
                f[i] * big_f
            );
            if f[i] * big_f >= 1.0 {
                assert!(per_cycle.iter().all(|c| c[i] == per_cycle[0][i]));
                assert!((per_cycle[0][i] as f64 - f[i] * big_f).abs() < 1.0);
            } else {
                // Visited about every 1/(f_i F_k) cycles: the pool's
                // count is within 1 of Σ f_j F_k (sum over pooled
                // pages), page i gets the fraction f_i/Σ f_j of it.
                let pool: f64 = f.iter().filter(|&&x| x * big_f < 1.0).sum();
                let expected = f[i] * big_f * cycles as f64;
                let slack = cycles as f64 * f[i] / pool + 2.0;
                assert!(
                    (total as f64 - expected).abs() <= slack,
                    "page {i}: {total} vs {expected}"
                );
            }
        }
    }
}

/// (b) Stride's picks, as a cyclic sequence, cost within 1% of the
/// lower bound of Theorems 3.3–3.4, and beat round robin by nearly the
/// whole gap the theory predicts between equal and optimal frequencies.
#[test]
fn stride_cost_is_near_the_lower_bound() {
    let n = 50;
    let mu = rates(n, 0.002, 0.2);
    for access in [exp1(), Distribution::deterministic(1.0).unwrap()] {
        let model = Model::new(access.clone(), &mu, None).unwrap();
        let f = frequencies::optimal_frequencies(&model).unwrap();
        let lb = frequencies::lower_bound(&model).unwrap();
        // Theorem 3.4 in its textbook form, as a cross-check:
        // with c_i = μ_i the bound is μ − 1/E[X] + Π h_i / E[X].
        let e = model.mean_access();
        let lb34 =
            model.total_change_rate() - 1.0 / e + model.log_h().iter().sum::<f64>().exp() / e;
        assert!((lb / lb34 - 1.0).abs() < 1e-9, "{lb} vs {lb34}");
        // ... and the Theorem 3.3 bound at the optimal frequencies.
        assert!((frequencies::cost(&model, &f).unwrap() / lb - 1.0).abs() < 1e-9);

        let mut s = Scheduler::new(access, SchedulerMode::Stride).unwrap();
        for (i, &m) in mu.iter().enumerate() {
            s.add_page(i as u64, m, None).unwrap();
        }
        let seq: Vec<usize> = (0..n * 200).map(|_| s.next().unwrap() as usize).collect();
        let cost = cyclic::cost(&model, &seq).unwrap();
        assert!(
            cost >= lb * (1.0 - 1e-9),
            "cost {cost} below the bound {lb}"
        );
        assert!(cost <= 1.01 * lb, "cost {cost} vs bound {lb}");

        let round_robin: Vec<usize> = (0..n).collect();
        let rr = cyclic::cost(&model, &round_robin).unwrap();
        let uniform = vec![1.0 / n as f64; n];
        // Round robin spaces equal frequencies evenly: it attains the
        // bound at f_i = 1/N exactly.
        assert!((rr / frequencies::cost(&model, &uniform).unwrap() - 1.0).abs() < 1e-9);
        let gap = rr - lb;
        assert!(
            gap > 0.05 * lb,
            "the test model should separate the policies"
        );
        assert!(
            rr - cost > 0.9 * gap,
            "stride {cost}, round robin {rr}, bound {lb}"
        );
    }
}

/// (c) Removal is immediate, arrivals are served at their frequency.
#[test]
fn dynamic_pages_stride() {
    let mu = rates(10, 0.05, 0.5);
    let mut s = filled(SchedulerMode::Stride, &mu);
    counts(&mut s, 1000, 10);
    s.remove_page(3).unwrap();
    assert_eq!(s.len(), 9);
    s.add_page(100, 0.3, None).unwrap();
    let target = s.frequency(100).unwrap();
    let picks = 50_000;
    let mut hits = 0;
    for _ in 0..picks {
        let id = s.next().unwrap();
        assert_ne!(id, 3, "removed page returned");
        hits += u64::from(id == 100);
    }
    assert!(
        (hits as f64 - target * picks as f64).abs() <= 3.0,
        "{hits} vs {target}"
    );
    let mut total = 0.0;
    for id in (0..10).filter(|&i| i != 3).chain([100]) {
        total += s.frequency(id).unwrap();
    }
    assert!((total - 1.0).abs() < 1e-12);
    assert!(matches!(s.frequency(3), Err(Error::NotFound(_))));
}

/// (c) GoldenRatio (§6): removal is immediate, a page added mid-cycle
/// waits for the next template, then gets its share.
#[test]
fn dynamic_pages_golden() {
    let mu = rates(10, 0.05, 0.5);
    let mut s = filled(SchedulerMode::GoldenRatio, &mu);
    for _ in 0..7 {
        s.next().unwrap();
    }
    let k = s.template.len();
    s.remove_page(3).unwrap();
    s.add_page(100, 0.3, None).unwrap();
    assert!(s.pos < k);
    // Finish the current cycle (removed positions are skipped, so this
    // takes fewer than k − pos picks).
    while s.pos < s.template.len() {
        let id = s.next().unwrap();
        assert!(id != 3 && id != 100, "page {id} served in the old cycle");
    }
    // Template rebuilt at the start of the new cycle.
    let model_rates: Vec<f64> = (0..10)
        .filter(|&i| i != 3)
        .map(|i| mu[i])
        .chain([0.3])
        .collect();
    let f =
        frequencies::optimal_frequencies(&Model::new(exp1(), &model_rates, None).unwrap()).unwrap();
    assert!((s.frequency(100).unwrap() - f[9]).abs() < 1e-12);
    let first = s.next().unwrap();
    let k2 = s.template.len();
    let per_cycle = cyclic::integer_counts_at_least_one(&f, k2).unwrap();
    let mut hits = u64::from(first == 100);
    for _ in 1..20 * k2 {
        let id = s.next().unwrap();
        assert_ne!(id, 3);
        hits += u64::from(id == 100);
    }
    assert_eq!(hits, 20 * per_cycle[9] as u64);
    // A page removed and re-added under the same id mid-cycle waits for
    // the next cycle too.
    for _ in 0..3 {
        s.next().unwrap();
    }
    s.remove_page(5).unwrap();
    s.add_page(5, 0.1, None).unwrap();
    while s.pos < s.template.len() {
        assert_ne!(s.next().unwrap(), 5);
    }
    let k3 = s.template.len();
    let served: Vec<u64> = (0..k3).map(|_| s.next().unwrap()).collect();
    assert!(served.contains(&5));
}

/// (d) In a simulated crawl, observe() pulls wrong initial rates to
/// the truth.
#[test]
fn observe_learns_rates() {
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let truth = [0.05, 0.1, 0.2, 0.4, 0.8];
        let guess = [0.15, 0.03, 0.6, 0.13, 2.4];
        let mut s = Scheduler::new(exp1(), mode).unwrap();
        for (i, &g) in guess.iter().enumerate() {
            s.add_page(i as u64, g, None).unwrap();
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
        let mut t = 0.0;
        let mut last = [0.0f64; 5];
        for _ in 0..40_000 {
            let id = s.next().unwrap() as usize;
            t += exp_sample(&mut rng, 1.0);
            let interval = t - last[id];
            last[id] = t;
            let u: f64 = rng.random();
            let changed = u < -(-truth[id] * interval).exp_m1();
            s.observe(id as u64, interval, changed).unwrap();
        }
        for (i, &mu) in truth.iter().enumerate() {
            let r = s.change_rate(i as u64).unwrap();
            assert!((r / mu - 1.0).abs() < 0.1, "{mode:?} page {i}: {r} vs {mu}");
        }
        // The frequencies followed: they match the truth's optimum.
        let f =
            frequencies::optimal_frequencies(&Model::new(exp1(), &truth, None).unwrap()).unwrap();
        for (i, &fo) in f.iter().enumerate() {
            let fi = s.frequency(i as u64).unwrap();
            assert!(
                (fi / fo - 1.0).abs() < 0.1,
                "{mode:?} page {i}: {fi} vs {fo}"
            );
        }
    }
}

/// Observations trigger at most one O(N) recomputation per N accesses
/// (Stride) or per cycle (GoldenRatio).
#[test]
fn recomputation_is_amortised() {
    let n = 100;
    let mu = rates(n, 0.01, 1.0);
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut s = filled(mode, &mu);
        let picks = 20_000u64;
        for k in 0..picks {
            let id = s.next().unwrap();
            s.observe(id, 1.0 + (k % 7) as f64 * 0.1, k % 3 == 0)
                .unwrap();
        }
        let limit = match mode {
            SchedulerMode::Stride => picks / n as u64 + 2,
            SchedulerMode::GoldenRatio => picks / s.template.len() as u64 + 2,
        };
        assert!(
            s.recomputations <= limit,
            "{mode:?}: {} > {limit}",
            s.recomputations
        );
        assert!(s.recomputations >= 2);
    }
}

#[test]
fn explicit_weights_and_rate_changes() {
    let mu = rates(8, 0.05, 0.5);
    let w: Vec<f64> = mu
        .iter()
        .enumerate()
        .map(|(i, m)| m * (1.0 + 0.3 * (i % 3) as f64))
        .collect();
    let mut s = Scheduler::new(exp1(), SchedulerMode::Stride).unwrap();
    for i in 0..8 {
        s.add_page(i as u64, mu[i], Some(w[i])).unwrap();
    }
    let f = frequencies::optimal_frequencies(&Model::new(exp1(), &mu, Some(&w)).unwrap()).unwrap();
    let c = counts(&mut s, 40_000, 8);
    for i in 0..8 {
        assert!((s.frequency(i as u64).unwrap() - f[i]).abs() < 1e-12);
        assert!((c[i] as f64 - 40_000.0 * f[i]).abs() <= 3.0, "page {i}");
    }
    // An explicit rate replaces the learnt one; the frequencies follow
    // at once in `frequency` and from the next access in the schedule.
    s.set_change_rate(0, 1.0).unwrap();
    assert_eq!(s.change_rate(0).unwrap(), 1.0);
    let mut mu2 = mu.clone();
    mu2[0] = 1.0;
    let f2 =
        frequencies::optimal_frequencies(&Model::new(exp1(), &mu2, Some(&w)).unwrap()).unwrap();
    assert!((f2[0] - f[0]).abs() > 1e-3);
    assert!((s.frequency(0).unwrap() - f2[0]).abs() < 1e-12);
    let c = counts(&mut s, 40_000, 8);
    for i in 0..8 {
        assert!((s.frequency(i as u64).unwrap() - f2[i]).abs() < 1e-12);
        assert!((c[i] as f64 - 40_000.0 * f2[i]).abs() <= 3.0, "page {i}");
    }
}

#[test]
fn deterministic_and_accessors() {
    let mu = rates(12, 0.02, 0.7);
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut a = filled(mode, &mu);
        let mut b = filled(mode, &mu);
        assert_eq!(a.mode(), mode);
        assert_eq!(a.len(), 12);
        assert!(!a.is_empty());
        let sa: Vec<u64> = (0..500).map(|_| a.next().unwrap()).collect();
        let sb: Vec<u64> = (0..500).map(|_| b.next().unwrap()).collect();
        assert_eq!(sa, sb);
    }
}

/// A batch of equal new pages is staggered, not served back to back in
/// insertion order.
#[test]
fn new_pages_are_staggered() {
    let mut s = Scheduler::new(exp1(), SchedulerMode::Stride).unwrap();
    for id in 0..100 {
        s.add_page(id, 0.1, None).unwrap();
    }
    let first: Vec<u64> = (0..100).map(|_| s.next().unwrap()).collect();
    let mut sorted = first.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        (0..100).collect::<Vec<_>>(),
        "each page once per period"
    );
    assert_ne!(first, sorted, "served in hashed, not insertion, order");
}

/// A batch takes the slots one-by-one adds would take (freed ones
/// first), so the schedule is the same.
#[test]
fn add_pages_schedules_as_add_page() {
    let mu = rates(40, 0.01, 1.0);
    let batch: Vec<(u64, f64, Option<f64>)> = (0..30)
        .map(|i| (100 + i as u64, mu[i], (i % 4 == 1).then(|| 2.0 * mu[i])))
        .collect();
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut a = filled(mode, &mu[..10]);
        let mut b = filled(mode, &mu[..10]);
        for s in [&mut a, &mut b] {
            counts(s, 500, 200);
            s.remove_page(3).unwrap();
            s.remove_page(7).unwrap();
            counts(s, 500, 200);
        }
        for &(id, m, w) in &batch {
            a.add_page(id, m, w).unwrap();
        }
        b.add_pages(&batch).unwrap();
        assert_eq!(b.len(), 38);
        let sa: Vec<u64> = (0..5000).map(|_| a.next().unwrap()).collect();
        let sb: Vec<u64> = (0..5000).map(|_| b.next().unwrap()).collect();
        assert_eq!(sa, sb, "{mode:?}");
    }
}

/// A refused batch adds nothing; the message names the refused page by
/// its index in the C API's arrays.
#[test]
fn add_pages_is_all_or_none() {
    let mut s = Scheduler::new(exp1(), SchedulerMode::Stride).unwrap();
    s.add_page(1, 0.5, None).unwrap();
    type Batch<'a> = &'a [(u64, f64, Option<f64>)];
    let bad: [(Batch, &str); 4] = [
        (
            &[(2, 0.1, None), (1, 0.2, None)],
            "ids[1] = 1 is already scheduled",
        ),
        (
            &[(2, 0.1, None), (3, f64::NAN, None)],
            "change_rates[1] must be finite and > 0, got NaN",
        ),
        (
            &[(2, 0.1, None), (3, 0.1, Some(-1.0))],
            "weights[1] must be finite and > 0, got -1",
        ),
        (
            &[(2, 0.1, None), (3, 0.2, None), (2, 0.3, None)],
            "ids[2] = 2 repeats ids[0]",
        ),
    ];
    for (pages, message) in bad {
        match s.add_pages(pages) {
            Err(Error::InvalidArgument(m)) => assert_eq!(m, message),
            other => panic!("{pages:?}: {other:?}"),
        }
        assert_eq!(s.len(), 1);
        assert!(matches!(s.change_rate(2), Err(Error::NotFound(_))));
    }
    s.add_pages(&[]).unwrap();
    assert_eq!(s.len(), 1);
    s.add_pages(&[(2, 0.1, None), (3, 0.2, None)]).unwrap();
    assert_eq!(s.len(), 3);
    let c = counts(&mut s, 3000, 4);
    assert!(c[1] > 0 && c[2] > 0 && c[3] > 0);
}

/// A batch beyond MAX_PAGES is refused before any of its pages is read
/// (the C API hands the model a caller's length before reading its arrays).
#[test]
fn add_pages_checks_the_size_before_reading() {
    let mut s = Scheduler::new(exp1(), SchedulerMode::Stride).unwrap();
    s.add_page(1, 0.5, None).unwrap();
    let r = s.add_pages_with(MAX_PAGES, |_| panic!("a page was read"));
    assert!(matches!(r, Err(Error::TooLarge(_))), "{r:?}");
    assert_eq!(s.len(), 1);
}

/// The per-page byte bound covers Stride's layout as it describes it.
#[test]
fn bytes_per_page_cover_the_stride_layout() {
    use std::mem::size_of;
    let record = size_of::<Option<Page>>() + size_of::<(u64, u32)>() + 8;
    let queue = 4 + 8 + 8 + 8 + 8;
    let window = 2 * 2 * size_of::<Event>();
    let recompute = 170;
    let need = record + queue + window.max(recompute);
    assert!(need as u128 <= SCHEDULER_BYTES_PER_PAGE, "{need}");
}

#[test]
fn errors() {
    assert!(matches!(
        Scheduler::new(
            Distribution::deterministic(0.0).unwrap(),
            SchedulerMode::Stride
        ),
        Err(Error::InvalidArgument(_))
    ));
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let mut s = Scheduler::new(exp1(), mode).unwrap();
        assert!(s.is_empty());
        assert!(matches!(s.next(), Err(Error::NotFound(_))));
        s.add_page(1, 0.5, None).unwrap();
        assert!(matches!(
            s.add_page(1, 0.2, None),
            Err(Error::InvalidArgument(_))
        ));
        for bad in [f64::NAN, -1.0, 0.0, f64::INFINITY] {
            assert!(matches!(
                s.add_page(2, bad, None),
                Err(Error::InvalidArgument(_))
            ));
            assert!(matches!(
                s.add_page(2, 0.5, Some(bad)),
                Err(Error::InvalidArgument(_))
            ));
            assert!(matches!(
                s.set_change_rate(1, bad),
                Err(Error::InvalidArgument(_))
            ));
            assert!(matches!(
                s.observe(1, bad, true),
                Err(Error::InvalidArgument(_))
            ));
        }
        assert_eq!(s.len(), 1);
        assert_eq!(s.change_rate(1).unwrap(), 0.5);
        assert!(matches!(s.remove_page(9), Err(Error::NotFound(_))));
        assert!(matches!(s.set_change_rate(9, 1.0), Err(Error::NotFound(_))));
        assert!(matches!(s.observe(9, 1.0, true), Err(Error::NotFound(_))));
        assert!(matches!(s.change_rate(9), Err(Error::NotFound(_))));
        assert!(matches!(s.frequency(9), Err(Error::NotFound(_))));
        assert_eq!(s.next().unwrap(), 1);
        assert_eq!(s.frequency(1).unwrap(), 1.0);
        s.remove_page(1).unwrap();
        assert!(matches!(s.remove_page(1), Err(Error::NotFound(_))));
        assert!(matches!(s.next(), Err(Error::NotFound(_))));
        // Works again after refilling.
        s.add_page(1, 0.5, None).unwrap();
        assert_eq!(s.next().unwrap(), 1);
    }
    // A rate the access-time distribution cannot represent (h rounds
    // to 1) is refused.
    let tiny = Distribution::deterministic(1e-300).unwrap();
    let mut s = Scheduler::new(tiny, SchedulerMode::Stride).unwrap();
    assert!(matches!(
        s.add_page(1, 1e-30, None),
        Err(Error::InvalidArgument(_))
    ));
}
