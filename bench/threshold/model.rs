// Benchmark model family shared by benches/threshold.rs and
// examples/threshold_export.rs (included with #[path]): W-phase batch
// arrivals (batches 1..=k), Erlang-2 service (M = 2), Erlang-R obsolescence
// (R = 1: exponential), two robots below a threshold at half the buffer,
// one above. Level i has W·2·R^{i−1} states.

use crawlsched::dist::{Bmap, PhaseType, compose};
use crawlsched::threshold::{Policy, ThresholdModel};

/// The model and its policy; `Err` only if the sizes are refused.
pub fn bench_model(
    w: usize,
    k: usize,
    r: usize,
    buffer: usize,
) -> crawlsched::Result<(ThresholdModel, Policy)> {
    let n = w;
    // Cyclic phase switching at rate 0.5; batch rate grows with the phase.
    let mut d = vec![vec![0.0; n * n]; k + 1];
    let norm: f64 = (1..=k).map(|j| 0.5f64.powi(j as i32)).sum();
    let mean_batch: f64 = (1..=k)
        .map(|j| j as f64 * 0.5f64.powi(j as i32))
        .sum::<f64>()
        / norm;
    for p in 0..n {
        let rate = 0.45 / mean_batch * (0.5 + p as f64 / (n.max(2) - 1) as f64);
        if n > 1 {
            d[0][p * n + (p + 1) % n] = 0.5;
        }
        for (j, dj) in d.iter_mut().enumerate().skip(1) {
            dj[p * n + p] = rate * 0.5f64.powi(j as i32) / norm;
        }
        let out: f64 = (0..=k)
            .map(|j| d[j][p * n..(p + 1) * n].iter().sum::<f64>())
            .sum();
        d[0][p * n + p] = -out;
    }
    let refs: Vec<&[f64]> = d.iter().map(|m| m.as_slice()).collect();
    let robot = Bmap::new(n, &refs)?;
    let arrivals = compose::scaled(&robot, 2)?;
    let service = PhaseType::erlang(2, 2.0)?;
    let obsolescence = PhaseType::erlang(r, 0.02 * r as f64)?;
    let model = ThresholdModel::new(arrivals, service, Some(obsolescence), buffer)?;
    let policy = Policy::new(vec![2, 1], vec![buffer / 2])?;
    Ok((model, policy))
}
