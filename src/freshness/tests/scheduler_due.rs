//! The scheduler's due-time view and page state (`scheduler/due.rs`),
//! against the closed forms of the remark after Theorem 3.4 (paper 000).

use crate::dist::Distribution;
use crate::error::Error;
use crate::freshness::scheduler::*;
use crate::numeric::tolerance::rel;

fn scheduler(access: Distribution, ids: &[u64], mu: &[f64]) -> Scheduler {
    let mut s = Scheduler::new(access, SchedulerMode::Stride).unwrap();
    for (&id, &m) in ids.iter().zip(mu) {
        s.add_page(id, m, None).unwrap();
    }
    s
}

/// X constant = d ⇒ f_i = μ_i/Σμ, so I_i = d Σμ / μ_i.
#[test]
fn constant_crawl_time_gives_intervals_inverse_to_rates() {
    let (ids, mu) = ([30u64, 10, 20], [5.0, 1.0, 2.0]);
    let s = scheduler(Distribution::deterministic(0.5).unwrap(), &ids, &mu);
    assert_eq!(s.crawl_rate(), 2.0);
    for (&id, want) in ids.iter().zip([0.8, 4.0, 2.0]) {
        let i = s.revisit_interval(id).unwrap().unwrap();
        assert!(rel(i, want) < 1e-13, "page {id}: {i} vs {want}");
        let due = s.next_due(id, 100.0).unwrap().unwrap();
        assert!(rel(due, 100.0 + want) < 1e-15, "{due}");
    }
    let all = s.revisit_intervals().unwrap();
    let got: Vec<u64> = all.iter().map(|e| e.0).collect();
    assert_eq!(got, [10, 20, 30]);
    for ((_, i), want) in all.iter().zip([4.0, 2.0, 0.8]) {
        assert!(rel(i.unwrap(), want) < 1e-13);
    }
    // The intervals spend exactly the budget R = 1/E[X] = 2 crawls per
    // unit time.
    let spent: f64 = all.iter().map(|e| 1.0 / e.1.unwrap()).sum();
    assert!(rel(spent, 2.0) < 1e-14);
}

/// X exponential of mean m ⇒ h_i = 1/(1 + mμ_i), f_i ∝ ln(1 + mμ_i), so
/// I_i = m Σ_j ln(1 + mμ_j) / ln(1 + mμ_i).
#[test]
fn exponential_crawl_time_gives_the_log_closed_form() {
    let m = 2.0;
    let mu = [0.05, 0.3, 1.0, 4.0];
    let ids = [1u64, 2, 3, 4];
    let s = scheduler(Distribution::exponential(1.0 / m).unwrap(), &ids, &mu);
    let total: f64 = mu.iter().map(|x| (m * x).ln_1p()).sum();
    for (&id, &x) in ids.iter().zip(&mu) {
        let want = m * total / (m * x).ln_1p();
        let got = s.revisit_interval(id).unwrap().unwrap();
        assert!(rel(got, want) < 1e-12, "page {id}: {got} vs {want}");
        // The interval is the frequency's reciprocal over the crawl rate.
        let f = s.frequency(id).unwrap();
        assert!(rel(got, 1.0 / (f * s.crawl_rate())) < 1e-15);
    }
}

/// A page whose weight is too small for the optimum to visit it
/// (constraint x_i ≥ 0 active) is never due.
#[test]
fn never_visited_pages_are_never_due() {
    let mut s = Scheduler::new(
        Distribution::exponential(1.0).unwrap(),
        SchedulerMode::Stride,
    )
    .unwrap();
    s.add_page(1, 1.0, Some(1.0)).unwrap();
    s.add_page(2, 1.0, Some(1.0)).unwrap();
    s.add_page(3, 1.0, Some(0.02)).unwrap();
    assert_eq!(s.frequency(3).unwrap(), 0.0);
    assert_eq!(s.revisit_interval(3).unwrap(), None);
    assert_eq!(s.next_due(3, 5.0).unwrap(), None);
    let all = s.revisit_intervals().unwrap();
    assert_eq!(all[2], (3, None));
    // Pages 1 and 2 split every crawl: each is due every 2 E[X].
    assert!(rel(all[0].1.unwrap(), 2.0) < 1e-12);
}

#[test]
fn due_view_errors() {
    let mut s = scheduler(Distribution::deterministic(1.0).unwrap(), &[7], &[1.0]);
    assert!(matches!(s.revisit_interval(8), Err(Error::NotFound(_))));
    assert!(matches!(s.next_due(8, 0.0), Err(Error::NotFound(_))));
    for bad in [f64::NAN, f64::INFINITY] {
        match s.next_due(7, bad) {
            Err(Error::InvalidArgument(m)) => assert!(m.contains("last_visit"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
    // One page: interval E[X] = 1; f64::MAX + 1 rounds to f64::MAX, so
    // overflow needs a longer interval.
    assert_eq!(s.next_due(7, -3.0).unwrap(), Some(-2.0));
    let mut big = scheduler(
        Distribution::deterministic(1e300).unwrap(),
        &[1, 2],
        &[1e-301, 1e-301],
    );
    assert!(matches!(big.next_due(1, f64::MAX), Err(Error::TooLarge(_))));
    big.remove_page(1).unwrap();
    big.remove_page(2).unwrap();
    assert!(matches!(big.revisit_intervals(), Err(Error::NotFound(_))));
    s.remove_page(7).unwrap();
    assert!(matches!(s.page_state(7), Err(Error::NotFound(_))));
}

/// A new run that adds its pages and imports their saved states continues
/// exactly where the old run stopped.
#[test]
fn page_state_carries_a_page_across_runs() {
    let access = Distribution::exponential(1.0).unwrap();
    let (ids, mu) = ([1u64, 2, 3], [0.2, 1.0, 3.0]);
    let mut old = scheduler(access.clone(), &ids, &mu);
    let visit = |k: usize| (0.3 + 0.11 * (k % 13) as f64, k % 3 != 1);
    for k in 0..90 {
        let (t, c) = visit(k);
        old.observe(ids[k % 3], t, c).unwrap();
    }
    let mut new = scheduler(access, &ids, &mu);
    for &id in &ids {
        let state = old.page_state(id).unwrap();
        assert!(state.len() <= crate::freshness::estimator::MAX_STATE_BYTES);
        new.set_page_state(id, &state).unwrap();
        assert_eq!(
            new.change_rate(id).unwrap().to_bits(),
            old.change_rate(id).unwrap().to_bits()
        );
        assert_eq!(new.page_state(id).unwrap(), state);
    }
    assert_eq!(
        new.revisit_intervals().unwrap(),
        old.revisit_intervals().unwrap()
    );
    for k in 90..200 {
        let (t, c) = visit(k);
        old.observe(ids[k % 3], t, c).unwrap();
        new.observe(ids[k % 3], t, c).unwrap();
        let id = ids[k % 3];
        assert_eq!(
            new.change_rate(id).unwrap().to_bits(),
            old.change_rate(id).unwrap().to_bits()
        );
    }
    // The learnt rates differ from the initial guesses, so the import did
    // carry information.
    assert!(new.change_rate(3).unwrap() != 3.0);
}

#[test]
fn bad_page_state_changes_nothing() {
    let mut s = scheduler(Distribution::exponential(1.0).unwrap(), &[5], &[0.5]);
    s.observe(5, 1.0, true).unwrap();
    let before = s.page_state(5).unwrap();
    let rate = s.change_rate(5).unwrap();
    let mut bad = before.clone();
    bad[1] = 9;
    match s.set_page_state(5, &bad) {
        Err(Error::InvalidArgument(m)) => assert!(m.contains("version 9"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        s.set_page_state(5, &[]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        s.set_page_state(6, &before),
        Err(Error::NotFound(_))
    ));
    assert_eq!(s.page_state(5).unwrap(), before);
    assert_eq!(s.change_rate(5).unwrap(), rate);
    // A state with no estimate (no prior, no visit) keeps the page's rate.
    let empty = crate::freshness::estimator::ChangeRateEstimator::new().to_bytes();
    s.set_page_state(5, &empty).unwrap();
    assert_eq!(s.change_rate(5).unwrap(), rate);
}

/// A crawler that never picks and asks one page's interval after every
/// visit: the due-time view computes its plan once per batch of N calls
/// (not once per call), and the bulk form is always current.
#[test]
fn due_view_recomputes_once_per_batch() {
    let n = 500;
    let ids: Vec<u64> = (0..n as u64).collect();
    let mu: Vec<f64> = (0..n).map(|i| 0.01 + 0.002 * i as f64).collect();
    let mut s = scheduler(Distribution::exponential(1.0).unwrap(), &ids, &mu);
    // N observes (each moves its page's estimate), then N calls: one plan.
    for &id in &ids {
        s.observe(id, 1.0, true).unwrap();
    }
    for &id in &ids {
        s.revisit_interval(id).unwrap();
    }
    assert_eq!(s.due_recomputations(), 1);
    // Interleaved over 3N visits: one plan per N calls, at most 4 in all.
    for k in 0..3 * n {
        let id = ids[k % n];
        s.observe(id, 2.0, k % 3 == 0).unwrap();
        s.next_due(id, k as f64).unwrap();
    }
    assert!(s.due_recomputations() <= 5, "{}", s.due_recomputations());
    // The bulk form is the current plan: E[X]/f_i with f_i the optimum.
    let f = s.frequencies().unwrap();
    for ((id, iv), (id2, fi)) in s.revisit_intervals().unwrap().into_iter().zip(f) {
        assert_eq!(id, id2);
        assert_eq!(iv, Some(1.0 / fi));
    }
    // A structure change is seen at once.
    s.set_change_rate(0, 5.0).unwrap();
    let fresh = s.frequency(0).unwrap();
    assert_eq!(s.revisit_interval(0).unwrap(), Some(1.0 / fresh));
}
