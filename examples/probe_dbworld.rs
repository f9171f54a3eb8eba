//! Plans a week of probes for the DBWorld bulletin board (paper 004,
//! Table 2; importance 3 in weekday work hours) and prints the gain of the
//! optimal schedule over uniform, threshold and first-arrival probing.
//!
//! `cargo run --release --example probe_dbworld`

use crawlsched::probe::baselines::{self, Policy};
use crawlsched::probe::improve::{ImproverParams, improve};
use crawlsched::probe::planner::Planner;
use crawlsched::probe::{Profile, expected_cost};

fn main() -> Result<(), crawlsched::Error> {
    let days = 7.0;
    let profile = Profile::dbworld(3.0, days)?;
    // One candidate per minute over the week.
    let planner = Planner::new(profile.clone(), 7 * 24 * 60, 0.0, None)?;
    let updates = profile.expected_updates(0.0, days);
    println!("DBWorld, one week, {updates:.1} expected updates, candidates every minute\n");
    println!(
        "{:>7} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9}",
        "probes", "optimal", "+Alg. 10", "uniform", "threshold", "first-arr", "gain"
    );
    for n in [2, 4, 7, 14, 28, 56] {
        let best = planner.plan(n)?;
        let improved = improve(&profile, &best.times, 0.0, &ImproverParams::default())?;
        let uni = expected_cost(&profile, &baselines::uniform(&profile, n)?)?;
        let thr = expected_cost(
            &profile,
            &baselines::with_budget(&profile, Policy::Threshold, n)?.1,
        )?;
        let fa = expected_cost(
            &profile,
            &baselines::with_budget(&profile, Policy::FirstArrival, n)?.1,
        )?;
        println!(
            "{n:>7} {:>10.3} {:>10.3} {uni:>10.3} {thr:>10.3} {fa:>10.3} {:>8.1}%",
            best.cost,
            improved.cost,
            100.0 * (1.0 - best.cost / uni)
        );
    }
    let week = planner.plan(14)?;
    let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    println!("\n14 probes (expected cost in update-days weighted by importance):");
    for t in &week.times[..week.times.len() - 1] {
        let d = (*t as usize).min(6);
        let mins = ((t - d as f64) * 24.0 * 60.0).round() as usize;
        print!("{} {:02}:{:02}  ", names[d], mins / 60, mins % 60);
    }
    print!("and Mon 00:00 (end of the week, p_n = T)");
    println!("\n\ngain = 1 - optimal / uniform (expected cost, eq. 6).");
    Ok(())
}
