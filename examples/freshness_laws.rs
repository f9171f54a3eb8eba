//! Times the general-weights freshness solve (`Model::new` + the solve) for
//! each crawl-time law on the instance of bench/freshness/compare.py (raw
//! little-endian f64 files of change rates and weights), every law with
//! mean E\[X\] = MEAN. Prints one JSON line per law: the best wall times of
//! `Model::new`, the solve and their sum, and the process CPU time (user +
//! system, all threads) of the best repetition.
//!
//! Usage: freshness_laws MEAN MU_FILE W_FILE REPS [LAW ...]
//!   LAW  det exp erlang3 gamma0.5 gamma2.5 hyper2 ph3 emp100 emp1000
//!        (default: all)
//! With KKT_CHECK set, also the spread max/min − 1 of λ_i = w_i G(a_i/f_i)
//! over the visited pages (the multiplier condition (8); NaN otherwise).

use crawlsched::dist::{Distribution, PhaseType};
use crawlsched::freshness::{Model, frequencies};
use std::time::Instant;

fn read_f64s(path: &str) -> Vec<f64> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

/// Seconds of CPU time (user + system) of the whole process so far.
fn cpu_seconds() -> f64 {
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Samples of mean `mean`: m evenly spread quantiles of an exponential.
fn samples(m: usize, mean: f64) -> Vec<f64> {
    let raw: Vec<f64> = (0..m)
        .map(|j| -(1.0 - (j as f64 + 0.5) / m as f64).ln())
        .collect();
    let avg = raw.iter().sum::<f64>() / m as f64;
    raw.iter().map(|x| x * mean / avg).collect()
}

/// ln G(s), G(s) = 1 − (1 + s)e^{−s} (the bracket of (8) at y = e^{−s}):
/// by its series Σ_{n≥2} (−1)^n (n − 1) s^n/n! below s = 1.
fn ln_big_g(s: f64) -> f64 {
    if s < 1.0 {
        let (mut term, mut sum) = (s * s / 2.0, 0.0);
        for n in 2..30 {
            sum += (n - 1) as f64 * term;
            term *= -s / (n + 1) as f64;
        }
        sum.ln()
    } else {
        (-(1.0 + s) * (-s).exp()).ln_1p()
    }
}

/// The spread of λ_i = w_i G(a_i/f_i) over the pages with f_i > 0,
/// max/min − 1 (the multiplier condition (8) holds when it is ~1e−15).
fn kkt_spread(m: &Model, f: &[f64]) -> f64 {
    let ln_e = m.mean_access().ln();
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (i, &fi) in f.iter().enumerate().filter(|(_, fi)| **fi > 0.0) {
        let ln_w = m.weights()[i].ln() - m.change_rates()[i].ln() - ln_e;
        let l = ln_w + ln_big_g(-m.log_h()[i] / fi);
        lo = lo.min(l);
        hi = hi.max(l);
    }
    (hi - lo).exp_m1()
}

fn law(name: &str, mean: f64) -> Distribution {
    let r = 1.0 / mean;
    match name {
        "det" => Distribution::deterministic(mean),
        "exp" => Distribution::exponential(r),
        "erlang3" => Distribution::erlang(3, 3.0 * r),
        "gamma0.5" => Distribution::gamma(0.5, 0.5 * r),
        "gamma2.5" => Distribution::gamma(2.5, 2.5 * r),
        // Means 0.5 E[X] and 2 E[X] with probabilities 2/3, 1/3.
        "hyper2" => {
            Distribution::hyperexponential(vec![2.0 / 3.0, 1.0 / 3.0], vec![2.0 * r, 0.5 * r])
        }
        // A Coxian of three phases with mean E[X].
        "ph3" => {
            let (a, b) = (1.0 / 3.0, 0.5);
            // Phases of rates k r, continuing with probabilities a, b: mean
            // (1 + a + a b)/(k r) = E[X].
            let k = 1.0 + a + a * b;
            PhaseType::coxian(&[k * r, k * r, k * r], &[a, b]).map(Distribution::PhaseType)
        }
        "emp100" => Distribution::empirical(samples(100, mean)),
        "emp1000" => Distribution::empirical(samples(1000, mean)),
        l => panic!("unknown law {l}"),
    }
    .expect("distribution")
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    assert!(a.len() >= 4, "usage: MEAN MU_FILE W_FILE REPS [LAW ...]");
    let mean: f64 = a[0].parse().expect("MEAN");
    let mu = read_f64s(&a[1]);
    let w = read_f64s(&a[2]);
    let reps: usize = a[3].parse().expect("REPS");
    // KKT_CHECK=1: also the spread of the multiplier condition.
    let check = std::env::var_os("KKT_CHECK").is_some();
    let all = [
        "det", "exp", "erlang3", "gamma0.5", "gamma2.5", "hyper2", "ph3", "emp100", "emp1000",
    ];
    let laws: Vec<&str> = if a.len() > 4 {
        a[4..].iter().map(String::as_str).collect()
    } else {
        all.to_vec()
    };
    for name in laws {
        let dist = law(name, mean);
        let (mut best_new, mut best_solve, mut best_total, mut best_cpu) =
            (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
        let mut spread = f64::NAN;
        for _ in 0..reps {
            let c0 = cpu_seconds();
            let t0 = Instant::now();
            let m = Model::new(dist.clone(), &mu, Some(&w)).expect("model");
            let t1 = Instant::now();
            let f = frequencies::optimal_frequencies_general(&m).expect("solve");
            let t2 = Instant::now();
            let cpu = cpu_seconds() - c0;
            if check {
                spread = kkt_spread(&m, &f);
            }
            best_new = best_new.min((t1 - t0).as_secs_f64());
            best_solve = best_solve.min((t2 - t1).as_secs_f64());
            if (t2 - t0).as_secs_f64() < best_total {
                best_total = (t2 - t0).as_secs_f64();
                best_cpu = cpu;
            }
        }
        println!(
            "{{\"law\": \"{name}\", \"n\": {}, \"new_s\": {best_new:.4}, \"solve_s\": {best_solve:.4}, \"total_s\": {best_total:.4}, \"cpu_s\": {best_cpu:.4}, \"kkt_spread\": {spread:.2e}}}",
            mu.len()
        );
    }
}
