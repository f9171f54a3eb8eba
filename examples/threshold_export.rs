//! Scaling driver for the threshold chain: builds the benchmark model
//! (bench/threshold/model.rs), solves it with the crate's exact solvers,
//! prints states, times, residual and peak memory (VmHWM), and optionally
//! writes the generator as CSR arrays for the SciPy comparison
//! (bench/threshold/run.sh).
//!
//! Run: cargo run --release --example threshold_export -- W K R BUFFER [METHOD] [OUT]
//!   METHOD: auto (default), block, sparse, iterative, none (build/export only)
//!   OUT: file for the CSR arrays (little-endian: u64 n, u64 nnz,
//!        u64 indptr[n+1], u64 indices[nnz], f64 data[nnz], f64 pi[n]);
//!        pi is this crate's solution (zeros with METHOD none).

#[path = "../bench/threshold/model.rs"]
mod model;

use crawlsched::threshold::generator::generator;
use crawlsched::threshold::iterative::iterative_solve;
use crawlsched::threshold::solve::{
    ITERATIVE_TOLERANCE, block_solve, evaluation_bytes, residual, sparse_solve, stationary,
};
use std::io::Write;
use std::time::Instant;

fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        return Err(
            "usage: threshold_export W K R BUFFER [auto|block|sparse|iterative|none] [OUT]".into(),
        );
    }
    let num = |i: usize| args[i].parse::<usize>();
    let (w, k, r, buffer) = (num(0)?, num(1)?, num(2)?, num(3)?);
    let method = args.get(4).map(String::as_str).unwrap_or("auto");
    let t0 = Instant::now();
    let (model, policy) = model::bench_model(w, k, r, buffer)?;
    let q = generator(&model, &policy)?;
    let t_build = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let (pi, used) = match method {
        "block" => (block_solve(model.space(), &q)?, "block".to_string()),
        "sparse" => (sparse_solve(&q)?, "sparse".to_string()),
        "iterative" => {
            let (pi, info) = iterative_solve(&q, ITERATIVE_TOLERANCE, &Default::default())?;
            let s: f64 = pi.iter().sum();
            (
                pi.iter().map(|x| x / s).collect(),
                format!("iterative ({} iterations)", info.iterations),
            )
        }
        "none" => (vec![0.0; q.rows()], "none".to_string()),
        _ => {
            let (pi, m) = stationary(model.space(), &q)?;
            (pi, format!("{m:?}"))
        }
    };
    let t_solve = t1.elapsed().as_secs_f64();
    let res = if method == "none" {
        f64::NAN
    } else {
        residual(&q, &pi)
    };
    // The memory the library's cap compares against, before building.
    let sp = model.space();
    let (pw, pm, pr) = sp.phases();
    let max_batch = (1..=model.max_robots())
        .map(|i| model.arrivals(i).max_batch())
        .max()
        .unwrap_or(1);
    let estimate = evaluation_bytes(pw, pm, pr, sp.max_level(), max_batch, &model.row_pattern())
        .unwrap_or(u128::MAX);
    println!(
        "{{\"states\": {}, \"nnz\": {}, \"levels\": {}, \"method\": \"{used}\", \"build_s\": {t_build:.4}, \"solve_s\": {t_solve:.4}, \"residual\": {res:.3e}, \"peak_rss_mib\": {:.1}, \"estimate_mib\": {:.1}}}",
        q.rows(),
        q.nnz(),
        sp.max_level() + 1,
        peak_rss_kib() as f64 / 1024.0,
        estimate as f64 / 1048576.0
    );
    if let Some(out) = args.get(5) {
        let mut f = std::io::BufWriter::new(std::fs::File::create(out)?);
        f.write_all(&(q.rows() as u64).to_le_bytes())?;
        f.write_all(&(q.nnz() as u64).to_le_bytes())?;
        for &p in q.indptr().raw_storage() {
            f.write_all(&(p as u64).to_le_bytes())?;
        }
        for &c in q.indices() {
            f.write_all(&(c as u64).to_le_bytes())?;
        }
        for &v in q.data() {
            f.write_all(&v.to_le_bytes())?;
        }
        for &v in &pi {
            f.write_all(&v.to_le_bytes())?;
        }
    }
    Ok(())
}
