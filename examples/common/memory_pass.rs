//! The physical limit the freshness benchmarks compare against: one pass
//! over the pages reading μ and c and writing one output, shared by
//! `freshness_solve` and `freshness_memory_pass` so both measure the same.

use std::time::Instant;

fn triad(mu: &[f64], w: &[f64], out: &mut [f64]) {
    for ((o, m), c) in out.iter_mut().zip(mu).zip(w) {
        *o = m * c;
    }
}

/// Seconds for out_i = μ_i·c_i over every page on `threads` threads
/// (contiguous equal parts; thread start-up included, as in the library).
pub fn memory_pass(mu: &[f64], w: &[f64], out: &mut [f64], threads: usize) -> f64 {
    let t = Instant::now();
    if threads <= 1 {
        triad(mu, w, out);
    } else {
        let per = mu.len().div_ceil(threads);
        std::thread::scope(|s| {
            for ((o, m), c) in out.chunks_mut(per).zip(mu.chunks(per)).zip(w.chunks(per)) {
                s.spawn(move || triad(m, c, o));
            }
        });
    }
    std::hint::black_box(&out);
    t.elapsed().as_secs_f64()
}
