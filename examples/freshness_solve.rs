//! The library side of bench/freshness/compare.py: reads change rates and
//! weights (raw little-endian f64 files), builds the freshness model and
//! solves one case `reps` times, and prints one JSON line with the best
//! times (`Model::new`, the solve, their sum) and the time of one memory
//! pass over the same arrays (out_i = μ_i·c_i: two arrays read, one
//! written into an array already faulted in), on one thread and split into
//! contiguous parts across the threads the library's passes use (the
//! machine's parallelism, at most 4; timed before each solve, as the
//! bandwidth of a shared host drifts), and the least CPU time (all threads)
//! of one `Model::new` + solve, which load on the machine inflates less
//! than the wall time; and the API's floor (`api_floor`: the inputs copied
//! into fresh arrays, as `Model::new` must, and a fresh output written
//! from them, as the solve must; best of one thread and all); and the
//! same solve with no copy (`owned_s`: `Model::from_vecs` handed arrays the
//! caller owns, copied before the clock starts, and the plan written into
//! the caller's buffer, already faulted in as the memory pass's output,
//! through each case's `_into` form; checked to give the same bits). The
//! frequencies of the last run go to `out`.
//!
//! Usage: freshness_solve CASE CRAWL MEAN MU_FILE W_FILE OUT REPS
//!   CASE  general | randomized | closed   (closed ignores W_FILE: c = μ)
//!   CRAWL exp | det                        (crawl time, mean MEAN)

use crawlsched::dist::Distribution;
use crawlsched::freshness::{Model, frequencies, randomized};
use std::time::Instant;

/// CPU seconds used so far by every thread of the process.
fn process_cpu_s() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn read_f64s(path: &str) -> Vec<f64> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

/// Most threads a pass of the library uses (`par::MAX_THREADS`).
const LIBRARY_MAX_THREADS: usize = 4;

#[path = "common/memory_pass.rs"]
mod common_memory_pass;
use common_memory_pass::{api_floor, memory_pass};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    assert!(
        a.len() == 7,
        "usage: CASE CRAWL MEAN MU_FILE W_FILE OUT REPS"
    );
    let mean: f64 = a[2].parse().expect("MEAN");
    let dist = match a[1].as_str() {
        "exp" => Distribution::exponential(1.0 / mean),
        "det" => Distribution::deterministic(mean),
        d => panic!("unknown crawl time {d}"),
    }
    .expect("distribution");
    let mu = read_f64s(&a[3]);
    let w = read_f64s(&a[4]);
    let reps: usize = a[6].parse().expect("REPS");
    let weights = (a[0] != "closed").then_some(&w[..]);
    let (mut best_new, mut best_solve, mut best_total) = (f64::MAX, f64::MAX, f64::MAX);
    let mut best_cpu = f64::MAX;
    let mut f = Vec::new();
    // (Not called before the solves of a small model: its allocations
    // alone made them 2x slower at 10^6 pages.)
    let threads = || {
        std::thread::available_parallelism()
            .map_or(1, |p| p.get())
            .min(LIBRARY_MAX_THREADS)
    };
    // The memory pass is timed between the solves, so that both see the
    // same state of the machine's memory bandwidth (it drifts by 2x over
    // seconds on a shared host): best of one thread and all, per solve;
    // only for arrays beyond the caches (the pass would evict what the
    // next solve of a small model finds there), else after the solves.
    // (Allocated only then before the solves, whose allocations it moves.)
    let interleave = mu.len() * 8 * 3 > 64 << 20;
    let mut out = if interleave {
        vec![0.0; mu.len()]
    } else {
        Vec::new()
    };
    let (mut pass, mut pass_all) = (f64::MAX, f64::MAX);
    let mut time_pass = |out: &mut [f64]| {
        pass = pass.min(memory_pass(&mu, &w, out, 1));
        pass_all = pass_all.min(memory_pass(&mu, &w, out, threads()));
    };
    for _ in 0..reps {
        if interleave {
            time_pass(&mut out);
        }
        // The previous plan is freed outside the measured span.
        drop(std::mem::take(&mut f));
        let c0 = process_cpu_s();
        let t0 = Instant::now();
        let m = Model::new(dist.clone(), &mu, weights).expect("model");
        let t1 = Instant::now();
        f = match a[0].as_str() {
            "general" => frequencies::optimal_frequencies_general(&m),
            "randomized" => randomized::optimal_frequencies(&m),
            "closed" => frequencies::optimal_frequencies(&m),
            c => panic!("unknown case {c}"),
        }
        .expect("solve");
        let t2 = Instant::now();
        best_cpu = best_cpu.min(process_cpu_s() - c0);
        best_new = best_new.min((t1 - t0).as_secs_f64());
        best_solve = best_solve.min((t2 - t1).as_secs_f64());
        best_total = best_total.min((t2 - t0).as_secs_f64());
        drop(m);
    }
    // The route with no copy: the caller's arrays handed over, the plan
    // written into the caller's buffer.
    let mut best_owned = f64::MAX;
    let mut buf = vec![1.0; mu.len()];
    for _ in 0..reps {
        if interleave {
            time_pass(&mut out);
        }
        let (mine, my_w) = (mu.clone(), weights.map(<[f64]>::to_vec));
        let t0 = Instant::now();
        let m = Model::from_vecs(dist.clone(), mine, my_w).expect("model");
        match a[0].as_str() {
            "randomized" => randomized::optimal_frequencies_into(&m, &mut buf),
            _ => frequencies::optimal_frequencies_into(&m, &mut buf),
        }
        .expect("solve");
        best_owned = best_owned.min(t0.elapsed().as_secs_f64());
        drop(m);
        assert!(
            buf.iter().zip(&f).all(|(x, y)| x.to_bits() == y.to_bits()),
            "the owned route gives the same plan"
        );
    }
    let trailing = if interleave { reps..5 } else { 0..reps.max(5) };
    out.resize(mu.len(), 0.0);
    for _ in trailing {
        time_pass(&mut out);
    }
    // The model's copies of its inputs and a fresh plan: μ alone when c = μ.
    let inputs: Vec<&[f64]> = weights.map_or(vec![&mu[..]], |w| vec![&mu[..], w]);
    let threads = threads();
    let floor = [1, threads]
        .iter()
        .flat_map(|&t| (0..reps.max(5)).map(move |_| t))
        .map(|t| api_floor(&inputs, t))
        .fold(f64::MAX, f64::min);
    let bytes: Vec<u8> = f.iter().flat_map(|x| x.to_le_bytes()).collect();
    std::fs::write(&a[5], bytes).expect("write frequencies");
    println!(
        "{{\"new_s\": {best_new:.6e}, \"solve_s\": {best_solve:.6e}, \"total_s\": {best_total:.6e}, \"cpu_s\": {best_cpu:.6e}, \"memory_pass_s\": {pass:.6e}, \"memory_pass_all_cores_s\": {pass_all:.6e}, \"api_floor_s\": {floor:.6e}, \"owned_s\": {best_owned:.6e}, \"threads\": {threads}}}"
    );
}
