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
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into `ts`.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
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
        for _ in 0..reps {
            let c0 = cpu_seconds();
            let t0 = Instant::now();
            let m = Model::new(dist.clone(), &mu, Some(&w)).expect("model");
            let t1 = Instant::now();
            let f = frequencies::optimal_frequencies_general(&m).expect("solve");
            let t2 = Instant::now();
            let cpu = cpu_seconds() - c0;
            std::hint::black_box(&f);
            best_new = best_new.min((t1 - t0).as_secs_f64());
            best_solve = best_solve.min((t2 - t1).as_secs_f64());
            if (t2 - t0).as_secs_f64() < best_total {
                best_total = (t2 - t0).as_secs_f64();
                best_cpu = cpu;
            }
        }
        println!(
            "{{\"law\": \"{name}\", \"n\": {}, \"new_s\": {best_new:.4}, \"solve_s\": {best_solve:.4}, \"total_s\": {best_total:.4}, \"cpu_s\": {best_cpu:.4}}}",
            mu.len()
        );
    }
}
