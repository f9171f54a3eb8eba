//! How far the closed form (Theorem 3.4) and the randomized plan (eq. 15,
//! Poisson crawls) are from one memory pass (issue 20), in one process:
//! at 10^5, 10^6 and 10^7 pages of bench/freshness's instance family (μ
//! log-uniform on [1e-3, 10], c on [0.1, 10], E\[X\] = 5/n), the best of
//! `reps` rounds of one memory pass (out_i = μ_i·c_i into an array already
//! faulted in; on one thread and split over the library's threads) and of
//! `Model::new` + each solve, and of the API's floor for each (`api_floor`:
//! the model's copies of μ, and c for the randomized plan, into fresh
//! arrays and a fresh output written from them), measured in turn within
//! every round; and the closed form with no copy (`Model::from_vecs`
//! handed the caller's own μ, the plan written into the caller's buffer,
//! already faulted in as the memory pass's output). Prints the times, their ratios to the faster memory pass
//! and to the floor, a hash of each plan's bits (to compare builds), and
//! the load average.
//!
//! Usage: freshness_memory_pass [REPS] [MAX_N]

use crawlsched::dist::Distribution;
use crawlsched::freshness::{Model, frequencies, randomized};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

#[path = "common/memory_pass.rs"]
mod common_memory_pass;
use common_memory_pass::{api_floor, memory_pass};

/// CPU seconds used so far by every thread of the process.
fn process_cpu_s() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Seconds for `Model::new`, for `Model::new` + `solve`, its CPU seconds
/// (all threads), and the plan.
fn timed(
    dist: &Distribution,
    mu: &[f64],
    w: Option<&[f64]>,
    solve: fn(&Model) -> crawlsched::error::Result<Vec<f64>>,
) -> (f64, f64, f64, Vec<f64>) {
    let c0 = process_cpu_s();
    let t0 = Instant::now();
    let m = Model::new(dist.clone(), mu, w).expect("model");
    let t1 = Instant::now();
    let f = solve(&m).expect("solve");
    let t2 = Instant::now();
    let cpu = process_cpu_s() - c0;
    drop(m);
    ((t1 - t0).as_secs_f64(), (t2 - t0).as_secs_f64(), cpu, f)
}

/// Seconds for `Model::from_vecs` (handed a copy of `mu` made before the
/// clock starts, as a caller that owns its arrays would) + the closed form
/// written into `out` (the caller's buffer, already faulted in, as the
/// memory pass's), and its CPU seconds.
fn timed_owned(dist: &Distribution, mu: &[f64], out: &mut [f64]) -> (f64, f64) {
    let mine = mu.to_vec();
    let c0 = process_cpu_s();
    let t0 = Instant::now();
    let m = Model::from_vecs(dist.clone(), mine, None).expect("model");
    frequencies::optimal_frequencies_into(&m, out).expect("solve");
    let t = t0.elapsed().as_secs_f64();
    let cpu = process_cpu_s() - c0;
    drop(m);
    (t, cpu)
}

/// FNV-1a over the bits of `f`.
fn hash(f: &[f64]) -> u64 {
    f.iter().fold(0xcbf29ce484222325, |h, x| {
        (h ^ x.to_bits()).wrapping_mul(0x100000001b3)
    })
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let reps: usize = args.first().map_or(10, |s| s.parse().expect("REPS"));
    let max_n: f64 = args.get(1).map_or(1e7, |s| s.parse().expect("MAX_N"));
    // FMP_SKIP=closed|randomized: leave that case out (for profiles).
    let skip = std::env::var("FMP_SKIP").unwrap_or_default();
    let threads = std::thread::available_parallelism()
        .map_or(1, |p| p.get())
        .min(4);
    println!("load {} threads {threads}", load());
    for n in [100_000usize, 1_000_000, 10_000_000] {
        if n as f64 > max_n {
            break;
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(20);
        let mu: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.random_range(-3.0..1.0)))
            .collect();
        let c: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.random_range(-1.0..1.0)))
            .collect();
        let mean = 5.0 / n as f64;
        let dist = Distribution::exponential(1.0 / mean).expect("exponential");
        let mut out = vec![1.0; n];
        let mut plan = vec![1.0; n];
        let (mut ot, mut oc) = (f64::MAX, f64::MAX);
        let (mut p1, mut pn) = (f64::MAX, f64::MAX);
        let (mut cn, mut ct, mut rn, mut rt) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
        let (mut cc, mut rc) = (f64::MAX, f64::MAX);
        let (mut hc, mut hr) = (0, 0);
        let (mut fc, mut fr) = (f64::MAX, f64::MAX);
        for _ in 0..reps {
            p1 = p1.min(memory_pass(&mu, &c, &mut out, 1));
            pn = pn.min(memory_pass(&mu, &c, &mut out, threads));
            for t in [1, threads] {
                fc = fc.min(api_floor(&[&mu], t));
                fr = fr.min(api_floor(&[&mu, &c], t));
            }
            if skip != "closed" {
                let (new, total, cpu, f) =
                    timed(&dist, &mu, None, frequencies::optimal_frequencies);
                (cn, ct, cc, hc) = (cn.min(new), ct.min(total), cc.min(cpu), hash(&f));
                let (t, cpu) = timed_owned(&dist, &mu, &mut plan);
                (ot, oc) = (ot.min(t), oc.min(cpu));
                assert_eq!(
                    hash(&plan),
                    hc,
                    "the owned route gives the closed form's bits"
                );
            }
            if skip == "randomized" {
                continue;
            }
            let (new, total, cpu, f) = timed(&dist, &mu, Some(&c), randomized::optimal_frequencies);
            (rn, rt, rc, hr) = (rn.min(new), rt.min(total), rc.min(cpu), hash(&f));
        }
        let limit = p1.min(pn);
        let ms = |s: f64| s * 1e3;
        println!(
            "n {n:>9}  pass 1t {:7.3} ms  {threads}t {:7.3} ms | closed {:7.3} ms (new {:6.3}, cpu {:7.3}) {:5.2}x, \
             floor {:6.3} ms {:4.2}x | owned+into {:7.3} ms (cpu {:7.3}) {:5.2}x | randomized {:7.3} ms (new {:6.3}, cpu {:7.3}) {:5.2}x, floor {:6.3} ms {:4.2}x \
             | hash {:08x} {:08x} | load {}",
            ms(p1),
            ms(pn),
            ms(ct),
            ms(cn),
            ms(cc),
            ct / limit,
            ms(fc),
            ct / fc,
            ms(ot),
            ms(oc),
            ot / limit,
            ms(rt),
            ms(rn),
            ms(rc),
            rt / limit,
            ms(fr),
            rt / fr,
            hc >> 32,
            hr >> 32,
            load()
        );
    }
}
