//! Writes the robots MDP (paper 001) in a plain text format for the
//! external comparison in bench/mdp/compare.sh, and times crawlsched on it.
//!
//! Usage: `cargo run --release --example mdp_export -- N K OUT.txt`
//! (λ = 1.5/N, μ = 1, γ = 100, as in benches/mdp.rs). Format: first line
//! `n_states`, then per state one line `n_actions`, and per action one line
//! `cost m j1 p1 ... jm pm`. Prints the crawlsched solve times as JSON on
//! stdout (average cost by policy iteration, and discounted β = 0.99 by
//! policy iteration, the criterion every tool supports).

use crawlsched::mdp::{self, Criterion, Options};
use crawlsched::robots::{Params, RobotsMdp};
use std::io::Write;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.len() != 3 {
        return Err("usage: mdp_export N K OUT.txt".into());
    }
    let (n, k): (usize, usize) = (a[0].parse()?, a[1].parse()?);
    let m = RobotsMdp::new(Params::new(n, k, 1.5 / n as f64, 1.0, 100.0)?)?.mdp;
    let mut f = std::io::BufWriter::new(std::fs::File::create(&a[2])?);
    writeln!(f, "{}", m.n_states())?;
    for s in 0..m.n_states() {
        writeln!(f, "{}", m.n_actions(s))?;
        for act in 0..m.n_actions(s) {
            let (nx, p) = m.transitions(s, act)?;
            write!(f, "{:e} {}", m.cost(s, act)?, nx.len())?;
            for (j, pj) in nx.iter().zip(p) {
                write!(f, " {j} {pj:e}")?;
            }
            writeln!(f)?;
        }
    }
    f.flush()?;
    let t = Instant::now();
    let avg = mdp::solve(&m, &Options::default())?;
    let t_avg = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let disc = mdp::solve(
        &m,
        &Options {
            criterion: Criterion::Discounted(0.99),
            ..Options::default()
        },
    )?;
    let t_disc = t.elapsed().as_secs_f64();
    println!(
        "{{\"states\": {}, \"transitions\": {}, \"average_pi_s\": {t_avg:.6}, \"average_gain\": {:.12e}, \"average_span\": {:.3e}, \"discounted_pi_s\": {t_disc:.6}, \"discounted_v0\": {:.12e}}}",
        m.n_states(),
        m.n_transitions(),
        avg.gain,
        avg.bound_hi - avg.bound_lo,
        disc.values[0]
    );
    Ok(())
}
