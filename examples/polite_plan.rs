//! Times the per-host politeness plan (`freshness::polite`) and measures
//! its gain over scaling each host down proportionally; prints one JSON
//! object.
//!
//! Usage: polite_plan [PAGES] [HOSTS] [SKEW_BIG] [SKEW_SMALL]
//! (defaults 10^7, 10^5, 10^5, 10^4), or
//! polite_plan solve MEAN MU_FILE C_FILE HOST_FILE RATE_FILE OUT: the
//! randomized plan with exponential crawl time of mean MEAN for the pages
//! and hosts in the files (raw little-endian f64; host ids as f64), the
//! frequencies written to OUT (bench/freshness/polite_compare.py).
//!
//! - Timing: PAGES pages over HOSTS hosts (change rates log-uniform on
//!   [1e−3, 10], weights on [0.1, 10], exponential crawl time with
//!   1/E\[X\] = 0.2·PAGES; host sizes skewed, host h's cap
//!   (0.7 + u_h)·R·pages_h/PAGES with u_h uniform on [0, 1]); `Model::new`
//!   and each objective's plan timed separately (wall seconds, and on
//!   Linux the CPU seconds of all threads).
//! - Gain: one host of SKEW_BIG pages capped at 20% of the robot's rate
//!   (it would take about half) and SKEW_SMALL hosts of 10 pages each with
//!   caps of three times their page share of the rest. The baseline takes
//!   the unconstrained optimum, scales every host over its cap down to it
//!   and gives the freed share to the other hosts in proportion to their
//!   frequencies (repeated until no cap is exceeded).

use crawlsched::dist::Distribution;
use crawlsched::freshness::polite::{PoliteObjective, PoliteOptions, polite_frequencies};
use crawlsched::freshness::{Model, frequencies, randomized};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

fn log_uniform<R: rand::Rng>(rng: &mut R, lo: f64, hi: f64) -> f64 {
    (rng.random_range(lo.ln()..hi.ln())).exp()
}

fn pages(rng: &mut Xoshiro256PlusPlus, n: usize) -> (Vec<f64>, Vec<f64>) {
    let mu = (0..n).map(|_| log_uniform(rng, 1e-3, 10.0)).collect();
    let c = (0..n).map(|_| log_uniform(rng, 0.1, 10.0)).collect();
    (mu, c)
}

/// This process's CPU seconds (all threads; user + system) from
/// /proc/self/stat, or None off Linux: on a shared machine the work done
/// is steadier than the wall time.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name: utime and stime are the 12th and 13th.
    let rest = stat.rsplit(')').next()?;
    let mut fields = rest.split_whitespace().skip(11);
    let ticks: f64 = fields.next()?.parse::<f64>().ok()? + fields.next()?.parse::<f64>().ok()?;
    // The kernel's USER_HZ is 100 on every Linux architecture Rust targets.
    Some(ticks / 100.0)
}

const BOTH: [(PoliteObjective, &str); 2] = [
    (PoliteObjective::EvenlySpaced, "evenly_spaced"),
    (PoliteObjective::Randomized, "randomized"),
];

/// The timing instance: (model build s, [(name, solve s, saturated hosts)]).
fn timing(n: usize, hosts: usize) -> String {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let (mu, c) = pages(&mut rng, n);
    // Hosts 0..H each get one page, the rest go to host ⌊H u²⌋ (skewed sizes).
    let host: Vec<u32> = (0..n)
        .map(|i| {
            if i < hosts {
                i as u32
            } else {
                let u: f64 = rng.random();
                ((hosts as f64 * u * u) as usize).min(hosts - 1) as u32
            }
        })
        .collect();
    let mut count = vec![0usize; hosts];
    for &h in &host {
        count[h as usize] += 1;
    }
    let rate = 0.2 * n as f64;
    let rates: Vec<f64> = count
        .iter()
        .map(|&k| (0.7 + rng.random::<f64>()) * rate * k as f64 / n as f64)
        .collect();
    let d = Distribution::exponential(rate).expect("distribution");
    let t = Instant::now();
    let m = Model::new(d, &mu, Some(&c)).expect("model");
    let build = t.elapsed().as_secs_f64();
    let mut rows = Vec::new();
    for (obj, name) in BOTH {
        let (t, cpu0) = (Instant::now(), cpu_seconds());
        let p =
            polite_frequencies(&m, &host, &rates, obj, &PoliteOptions::default()).expect("plan");
        let solve = t.elapsed().as_secs_f64();
        let cpu = match (cpu0, cpu_seconds()) {
            (Some(a), Some(b)) => format!("{:.2}", b - a),
            _ => "null".into(),
        };
        let sat = p.saturated.iter().filter(|&&s| s).count();
        let total: f64 = p.frequencies.iter().sum();
        rows.push(format!(
            "{{\"objective\": \"{name}\", \"solve_s\": {solve:.3}, \"solve_cpu_s\": {cpu}, \"saturated_hosts\": {sat}, \
             \"sum_f\": {total:.17}, \"cost\": {:.10e}}}",
            p.objective
        ));
    }
    format!(
        "{{\"pages\": {n}, \"hosts\": {hosts}, \"model_new_s\": {build:.3}, \"plans\": [{}]}}",
        rows.join(", ")
    )
}

/// The baseline: the unconstrained plan, hosts over their cap scaled to it,
/// the freed share spread over the others ∝ their frequencies, repeated.
fn scale_down(free: &[f64], host: &[u32], caps: &[f64]) -> Vec<f64> {
    let mut f = free.to_vec();
    let mut fixed = vec![false; caps.len()];
    loop {
        let mut sums = vec![0.0; caps.len()];
        for (&h, &x) in host.iter().zip(&f) {
            sums[h as usize] += x;
        }
        let over: Vec<bool> = (0..caps.len())
            .map(|h| !fixed[h] && sums[h] > caps[h])
            .collect();
        if !over.contains(&true) {
            return f;
        }
        let freed: f64 = (0..caps.len())
            .filter(|&h| over[h])
            .map(|h| sums[h] - caps[h])
            .sum();
        let rest: f64 = (0..caps.len())
            .filter(|&h| !over[h] && !fixed[h])
            .map(|h| sums[h])
            .sum();
        for (&h, x) in host.iter().zip(f.iter_mut()) {
            let h = h as usize;
            if over[h] {
                *x *= caps[h] / sums[h];
            } else if !fixed[h] {
                *x *= 1.0 + freed / rest;
            }
        }
        for h in 0..caps.len() {
            fixed[h] |= over[h];
        }
    }
}

/// An objective of the library: frequencies → Σ c_i r_i.
type CostFn = fn(&Model, &[f64]) -> crawlsched::error::Result<f64>;

fn gain(big: usize, small_hosts: usize) -> String {
    let n = big + 10 * small_hosts;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let (mu, c) = pages(&mut rng, n);
    let host: Vec<u32> = (0..n)
        .map(|i| {
            if i < big {
                0
            } else {
                (1 + (i - big) / 10) as u32
            }
        })
        .collect();
    let rate = 0.2 * n as f64;
    let mut rates = vec![0.2 * rate];
    rates.extend(std::iter::repeat_n(
        3.0 * rate * 10.0 / (n - big) as f64,
        small_hosts,
    ));
    let d = Distribution::exponential(rate).expect("distribution");
    let m = Model::new(d, &mu, Some(&c)).expect("model");
    let caps: Vec<f64> = rates.iter().map(|b| b / rate).collect();
    let mut rows = Vec::new();
    for (obj, name) in BOTH {
        let (free, cost): (Vec<f64>, CostFn) = match obj {
            PoliteObjective::EvenlySpaced => (
                frequencies::optimal_frequencies_general(&m).expect("free"),
                frequencies::cost,
            ),
            PoliteObjective::Randomized => (
                randomized::optimal_frequencies_general(&m).expect("free"),
                randomized::cost,
            ),
        };
        let big_share: f64 = free[..big].iter().sum();
        let base = scale_down(&free, &host, &caps);
        let p =
            polite_frequencies(&m, &host, &rates, obj, &PoliteOptions::default()).expect("plan");
        let (c_free, c_base, c_opt) = (
            cost(&m, &free).expect("cost"),
            cost(&m, &base).expect("cost"),
            cost(&m, &p.frequencies).expect("cost"),
        );
        // Cost is the weighted rate of staleness; Σ c_i is its maximum.
        let c_all: f64 = c.iter().sum();
        rows.push(format!(
            "{{\"objective\": \"{name}\", \"big_host_unconstrained_share\": {big_share:.4}, \
             \"cost_unconstrained\": {c_free:.8e}, \"cost_scaled_down\": {c_base:.8e}, \
             \"cost_constrained_optimum\": {c_opt:.8e}, \
             \"cost_reduction_vs_scaled_down\": {:.6}, \
             \"weighted_freshness_scaled_down\": {:.6}, \"weighted_freshness_optimum\": {:.6}, \
             \"saturated_hosts\": {}}}",
            (c_base - c_opt) / c_base,
            1.0 - c_base / c_all,
            1.0 - c_opt / c_all,
            p.saturated.iter().filter(|&&s| s).count()
        ));
    }
    format!(
        "{{\"pages\": {n}, \"big_host_pages\": {big}, \"small_hosts\": {small_hosts}, \
         \"big_host_cap_share\": 0.2, \"rows\": [{}]}}",
        rows.join(", ")
    )
}

fn read_f64s(path: &str) -> Vec<f64> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

fn solve(a: &[String]) {
    assert!(
        a.len() == 7,
        "usage: solve MEAN MU_FILE C_FILE HOST_FILE RATE_FILE OUT"
    );
    let mean: f64 = a[1].parse().expect("MEAN");
    let (mu, c) = (read_f64s(&a[2]), read_f64s(&a[3]));
    let host: Vec<u32> = read_f64s(&a[4]).iter().map(|&h| h as u32).collect();
    let rates = read_f64s(&a[5]);
    let d = Distribution::exponential(1.0 / mean).expect("distribution");
    let m = Model::new(d, &mu, Some(&c)).expect("model");
    let p = polite_frequencies(
        &m,
        &host,
        &rates,
        PoliteObjective::Randomized,
        &PoliteOptions::default(),
    )
    .expect("plan");
    let bytes: Vec<u8> = p.frequencies.iter().flat_map(|x| x.to_le_bytes()).collect();
    std::fs::write(&a[6], bytes).expect("OUT");
    let sat = p.saturated.iter().filter(|&&s| s).count();
    println!(
        "{{\"objective\": {:.17e}, \"saturated_hosts\": {sat}}}",
        p.objective
    );
}

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    if all.first().is_some_and(|s| s == "solve") {
        return solve(&all);
    }
    let arg = |k: usize, default: usize| {
        std::env::args()
            .nth(k)
            .map_or(default, |s| s.parse().expect("a count"))
    };
    let (n, hosts) = (arg(1, 10_000_000), arg(2, 100_000));
    let (big, small) = (arg(3, 100_000), arg(4, 10_000));
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load.split_whitespace().next().unwrap_or("null");
    let timing = timing(n, hosts);
    let gain = gain(big, small);
    println!("{{\"load_average_1min\": {load}, \"timing\": {timing}, \"gain\": {gain}}}");
}
