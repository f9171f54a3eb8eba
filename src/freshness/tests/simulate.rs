use crate::dist::Distribution;
use crate::error::{Error, Result};
use crate::freshness::Model;
use crate::freshness::cyclic;
use crate::freshness::simulate::*;
use crate::limits::Control;

/// Exact cost of a cyclic sequence from eq. (3) and Lemma 3.1, written
/// out independently of `cyclic::cost`:
/// r_i = (1/(K E\[X])) Σ_j (d_j E\[X] − (1 − h_i^{d_j})/μ_i).
fn lemma_3_1_cost(model: &Model, seq: &[usize]) -> (f64, Vec<f64>) {
    let n = model.len();
    let k = seq.len();
    let e = model.mean_access();
    let mut r = vec![0.0; n];
    for (i, ri) in r.iter_mut().enumerate() {
        let pos: Vec<usize> = (0..k).filter(|&p| seq[p] == i).collect();
        let mut s = 0.0;
        for (j, &p) in pos.iter().enumerate() {
            let prev = if j == 0 {
                pos[pos.len() - 1]
            } else {
                pos[j - 1]
            };
            let d = ((p + k - prev - 1) % k + 1) as f64;
            s += d * e - (1.0 - model.h()[i].powf(d)) / model.change_rates()[i];
        }
        *ri = s / (k as f64 * e);
    }
    let c = r.iter().zip(model.weights()).map(|(a, b)| a * b).sum();
    (c, r)
}

fn small_model(access: Distribution) -> Model {
    Model::new(access, &[0.05, 0.2, 0.4, 0.8], Some(&[1.0, 2.0, 0.5, 1.5])).unwrap()
}

/// A cycle with uneven spacing, so the test is not only round robin.
const SEQ: [usize; 9] = [3, 2, 3, 1, 3, 2, 0, 3, 1];

fn check(access: Distribution, seed: u64) {
    let model = small_model(access);
    let sim = simulate_cyclic(&model, &SEQ, 100_000, seed).unwrap();
    let exact = cyclic::cost(&model, &SEQ).unwrap();
    let (mine, r_exact) = lemma_3_1_cost(&model, &SEQ);
    assert!(
        (exact - mine).abs() < 1e-12 * mine.max(1.0),
        "{exact} vs {mine}"
    );
    assert!(
        sim.std_error > 0.0 && sim.std_error < 0.01 * exact,
        "se {}",
        sim.std_error
    );
    assert!(
        (sim.cost - exact).abs() < 4.0 * sim.std_error,
        "sim {} ± {} vs exact {exact}",
        sim.cost,
        sim.std_error
    );
    // Per-page rates too; the batch SE of the cost bounds each page's
    // noise only loosely, so use a relative tolerance there.
    let r_cyc = cyclic::obsolescence(&model, &SEQ).unwrap();
    for i in 0..model.len() {
        assert!((r_cyc[i] - r_exact[i]).abs() < 1e-12);
        assert!(
            (sim.obsolescence[i] - r_exact[i]).abs() < 0.02 * r_exact[i] + 1e-3,
            "page {i}: sim {} exact {}",
            sim.obsolescence[i],
            r_exact[i]
        );
    }
    assert_eq!(sim.accesses, 900_000);
}

#[test]
fn agrees_with_exact_cost_exponential_access() {
    check(Distribution::exponential(1.0).unwrap(), 1);
}

#[test]
fn agrees_with_exact_cost_deterministic_access() {
    check(Distribution::deterministic(1.0).unwrap(), 2);
}

#[test]
fn agrees_with_exact_cost_hyperexponential_access() {
    // High variance X: h_i differs markedly from exp(−μ_i E[X]).
    check(
        Distribution::hyperexponential(vec![0.9, 0.1], vec![2.0, 0.2]).unwrap(),
        3,
    );
}

#[test]
fn deterministic_given_seed() {
    let model = small_model(Distribution::exponential(2.0).unwrap());
    let a = simulate_cyclic(&model, &SEQ, 100, 7).unwrap();
    let b = simulate_cyclic(&model, &SEQ, 100, 7).unwrap();
    let c = simulate_cyclic(&model, &SEQ, 100, 8).unwrap();
    assert_eq!(a, b);
    assert_ne!(a.cost, c.cost);
}

#[test]
fn control_cancels_from_another_thread_and_changes_nothing_otherwise() {
    let model = small_model(Distribution::exponential(2.0).unwrap());
    let control = Control::new();
    let plain = simulate_cyclic(&model, &SEQ, 100, 7).unwrap();
    assert_eq!(
        simulate_cyclic_with(&model, &SEQ, 100, 7, &control).unwrap(),
        plain
    );
    // 10^10 cycles of 9 accesses (hours): only the cancel ends it.
    let c2 = control.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        c2.cancel();
    });
    let r = simulate_cyclic_with(&model, &SEQ, 10_000_000_000, 7, &control);
    canceller.join().unwrap();
    assert!(
        matches!(&r, Err(Error::Cancelled(m)) if m.contains("freshness simulation")),
        "{r:?}"
    );
}

#[test]
fn one_cycle_has_no_standard_error() {
    let model = small_model(Distribution::exponential(1.0).unwrap());
    let r = simulate_cyclic(&model, &SEQ, 1, 0).unwrap();
    assert!(r.std_error.is_infinite());
    assert!(r.cost.is_finite() && r.cost >= 0.0);
    assert_eq!(r.accesses, SEQ.len() as u64);
}

#[test]
fn rejects_bad_input() {
    let model = small_model(Distribution::exponential(1.0).unwrap());
    let inv = |r: Result<SimulationResult>| matches!(r, Err(Error::InvalidArgument(_)));
    assert!(inv(simulate_cyclic(&model, &[], 10, 0)));
    assert!(inv(simulate_cyclic(&model, &SEQ, 0, 0)));
    assert!(inv(simulate_cyclic(&model, &[0, 1, 2, 4], 10, 0)));
    assert!(inv(simulate_cyclic(&model, &[0, 1, 2, 2], 10, 0)));
    assert!(matches!(
        simulate_cyclic(&model, &SEQ, u64::MAX, 0),
        Err(Error::TooLarge(_))
    ));
    assert!(matches!(
        simulate_cyclic(&model, &SEQ, MAX_ACCESSES, 0),
        Err(Error::TooLarge(_))
    ));
}

/// 10^6 accesses must be quick (the bound is loose for debug builds).
#[test]
fn million_accesses_is_fast() {
    let model = small_model(Distribution::exponential(1.0).unwrap());
    let start = std::time::Instant::now();
    let r = simulate_cyclic(&model, &SEQ, 111_112, 4).unwrap();
    assert!(r.accesses >= 1_000_000);
    let limit = if cfg!(debug_assertions) { 20.0 } else { 1.0 };
    assert!(start.elapsed().as_secs_f64() < limit);
}
