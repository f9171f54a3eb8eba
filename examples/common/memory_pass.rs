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

/// n zeros as the library allocates its arrays (`crate::pages`): huge
/// pages advised from 4 MiB, faulted in at once from 64 KiB.
fn fresh(n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n];
    let bytes = std::mem::size_of_val(&v[..]);
    let (page, advice) = if bytes >= 4 << 20 {
        (2 << 20, rustix::mm::Advice::LinuxHugepage)
    } else {
        (4 << 10, rustix::mm::Advice::LinuxPopulateWrite)
    };
    let start = v.as_mut_ptr() as usize;
    let (lo, hi) = (start.next_multiple_of(page), (start + bytes) / page * page);
    if bytes >= 64 << 10 && hi > lo {
        // SAFETY: [lo, hi) lies inside `v`, live and exclusively borrowed;
        // the advice changes how its pages are backed, not their contents.
        let _ = unsafe { rustix::mm::madvise(lo as *mut _, hi - lo, advice) };
    }
    v
}

/// Seconds for the data movement `Model::new` + a solve cannot avoid, on
/// `threads` threads (contiguous equal parts): every input copied into a
/// fresh array of its own (the model's copies), then one fresh output
/// written from the copies (out_i = their product: the plan). Freeing is
/// not timed, as in the benchmarks.
pub fn api_floor(inputs: &[&[f64]], threads: usize) -> f64 {
    let n = inputs[0].len();
    let per = n.div_ceil(threads.max(1)).max(1);
    let t = Instant::now();
    let mut copies: Vec<Vec<f64>> = inputs.iter().map(|_| fresh(n)).collect();
    // parts[k]: thread k's part of every copy.
    let mut parts: Vec<Vec<&mut [f64]>> = (0..n.div_ceil(per)).map(|_| Vec::new()).collect();
    for c in &mut copies {
        parts
            .iter_mut()
            .zip(c.chunks_mut(per))
            .for_each(|(p, c)| p.push(c));
    }
    each_part(parts, |k, p| {
        for (d, src) in p.into_iter().zip(inputs) {
            d.copy_from_slice(&src[k * per..][..d.len()]);
        }
    });
    let mut out = fresh(n);
    let copies = &copies;
    each_part(out.chunks_mut(per).collect(), |k, o| {
        o.copy_from_slice(&copies[0][k * per..][..o.len()]);
        for c in &copies[1..] {
            o.iter_mut().zip(&c[k * per..]).for_each(|(o, c)| *o *= c);
        }
    });
    let secs = t.elapsed().as_secs_f64();
    std::hint::black_box((&out, copies));
    secs
}

/// `f(k, part k)` for every part: the last on the calling thread (as the
/// library's passes), the others on threads of their own.
fn each_part<T: Send>(parts: Vec<T>, f: impl Fn(usize, T) + Sync) {
    let f = &f;
    std::thread::scope(|s| {
        let last = parts.len().saturating_sub(1);
        for (k, p) in parts.into_iter().enumerate() {
            if k == last {
                f(k, p);
            } else {
                s.spawn(move || f(k, p));
            }
        }
    });
}
