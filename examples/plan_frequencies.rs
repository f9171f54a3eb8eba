//! Plans recrawl frequencies for a few thousand pages and shows the gain of
//! crawlsched's optimal schedules over the usual ones.
//!
//! Pages change as Poisson processes with heavy-tailed (log-normal) rates;
//! one crawl takes a random time X (gamma, coefficient of variation 1.4).
//! Two things a crawler may want, each a cost C = Σ c_i r_i of the paper
//! (r_i = fraction of time page i is stale):
//!   freshness   c_i = 1: the average fraction of the index that is fresh;
//!   C(μ)        c_i = μ_i: stale time weighted by change rate (Theorem 3.4),
//!               e.g. user traffic that grows with how lively a page is.
//! Policies, all crawling in an evenly spaced cyclic order:
//!   uniform       every page once per cycle (round robin);
//!   proportional  crawl frequency ∝ change rate;
//!   crawlsched    the frequencies that minimise each cost (Section 3).
//!
//! Run: cargo run --release --example plan_frequencies -- [--pages N] [--seed S]

use crawlsched::dist::Distribution;
use crawlsched::freshness::{Model, cyclic, frequencies};
use rand::SeedableRng;
use rand_distr::{Distribution as _, LogNormal};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

fn usage(msg: &str) -> ! {
    eprintln!("error: {msg}\nusage: plan_frequencies [--pages N (2..=1000000)] [--seed S]");
    std::process::exit(2)
}

fn parse_args() -> (usize, u64) {
    let (mut pages, mut seed) = (5000usize, 1u64);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args
            .next()
            .unwrap_or_else(|| usage(&format!("{a} needs a value")));
        match a.as_str() {
            "--pages" => {
                pages = v
                    .parse()
                    .unwrap_or_else(|_| usage("--pages takes a whole number"))
            }
            "--seed" => {
                seed = v
                    .parse()
                    .unwrap_or_else(|_| usage("--seed takes a whole number"))
            }
            _ => usage(&format!("unknown option {a}")),
        }
    }
    if !(2..=1_000_000).contains(&pages) {
        usage("--pages must be between 2 and 1000000");
    }
    (pages, seed)
}

/// Mean fraction of pages fresh, and the change-weighted cost Σ μ_i r_i.
fn measures(model: &Model, r: &[f64]) -> (f64, f64) {
    let fresh = 1.0 - r.iter().sum::<f64>() / r.len() as f64;
    let cost = model.change_rates().iter().zip(r).map(|(m, r)| m * r).sum();
    (fresh, cost)
}

/// A cycle of 200N crawls realising frequencies `f`, each page evenly spread
/// (a long cycle, so that rare pages get their frequency without rounding).
fn cyclic_schedule(f: &[f64], n: usize) -> crawlsched::Result<Vec<usize>> {
    let counts = cyclic::integer_counts_at_least_one(f, 200 * n)?;
    cyclic::round_robin_sequence(&counts)
}

fn main() -> crawlsched::Result<()> {
    let (n, seed) = parse_args();
    let t0 = Instant::now();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    // Heavy-tailed change rates (σ = 1.5: the top 1% change ~30x the median).
    let lognormal =
        LogNormal::new(0.0, 1.5).map_err(|e| crawlsched::Error::InvalidArgument(e.to_string()))?;
    let raw: Vec<f64> = (0..n).map(|_| lognormal.sample(&mut rng)).collect();
    // One crawl takes 1 s on average; all pages together change 0.8 times per second.
    let access = Distribution::gamma(0.5, 0.5)?;
    let scale = 0.8 / raw.iter().sum::<f64>();
    let mu: Vec<f64> = raw.iter().map(|r| r * scale).collect();
    let total: f64 = mu.iter().sum();
    // Same pages, two objectives: weights c_i = μ_i (default) and c_i = 1.
    let by_changes = Model::new(access.clone(), &mu, None)?;
    let by_freshness = Model::new(access, &mu, Some(&vec![1.0; n]))?;

    let proportional_f: Vec<f64> = mu.iter().map(|m| m / total).collect();
    let policies = [
        ("uniform round robin", (0..n).collect::<Vec<usize>>()),
        (
            "proportional to change rate",
            cyclic_schedule(&proportional_f, n)?,
        ),
        (
            "crawlsched, max freshness",
            cyclic_schedule(&frequencies::optimal_frequencies(&by_freshness)?, n)?,
        ),
        (
            "crawlsched, min C(mu)",
            cyclic_schedule(&frequencies::optimal_frequencies(&by_changes)?, n)?,
        ),
    ];
    let planned = t0.elapsed();

    println!("{n} pages, total change rate {total:.2}/s, crawl time gamma(mean 1 s, cv 1.41)\n");
    println!(
        "{:<30} {:>12} {:>10} {:>12} {:>10}",
        "policy", "fresh pages", "vs unif.", "C(mu)", "vs unif."
    );
    let mut uniform = (0.0, 0.0);
    for (i, (name, seq)) in policies.iter().enumerate() {
        let (fresh, cost) = measures(&by_changes, &cyclic::obsolescence(&by_changes, seq)?);
        if i == 0 {
            uniform = (fresh, cost);
        }
        println!(
            "{name:<30} {:>11.2}% {:>+9.1}% {cost:>12.4} {:>+9.1}%",
            100.0 * fresh,
            100.0 * (fresh / uniform.0 - 1.0),
            100.0 * (cost / uniform.1 - 1.0)
        );
    }
    // Bounds of Theorem 3.3/3.4: no schedule does better on either column.
    let best_fresh = 1.0 - frequencies::lower_bound(&by_freshness)? / n as f64;
    let best_cost = frequencies::lower_bound(&by_changes)?;
    println!(
        "{:<30} {:>11.2}% {:>+9.1}% {best_cost:>12.4} {:>+9.1}%",
        "bound (Theorems 3.3, 3.4)",
        100.0 * best_fresh,
        100.0 * (best_fresh / uniform.0 - 1.0),
        100.0 * (best_cost / uniform.1 - 1.0)
    );
    println!(
        "\nfresh pages: time-average share of the index that is up to date (higher is better)."
    );
    println!("C(mu) = sum of change rate x fraction of time stale (lower is better).");
    println!(
        "planned and evaluated in {:.0} ms",
        planned.as_secs_f64() * 1e3
    );
    Ok(())
}
