//! Passes over the pages in fixed chunks, spread over a bounded number of
//! threads. Each chunk is processed sequentially and the chunk results are
//! combined in chunk order, so a pass returns the same bits whatever the
//! thread count.

use std::ops::Range;

/// Pages per chunk (the unit of work and of the fixed summation order).
pub(crate) const CHUNK: usize = 1 << 13;

/// Below this many pages a pass runs on the calling thread.
pub(crate) const PARALLEL_MIN: usize = 1 << 16;

/// Most worker threads a pass uses (the library runs inside crawlers).
pub(crate) const MAX_THREADS: usize = 4;

/// Threads for a pass over `n` pages: 1 below [`PARALLEL_MIN`], else the
/// machine's parallelism capped at [`MAX_THREADS`].
pub(crate) fn threads_for(n: usize) -> usize {
    #[cfg(test)]
    {
        let forced = FORCE_THREADS.load(std::sync::atomic::Ordering::Relaxed);
        if forced > 0 {
            return forced.min(n.div_ceil(CHUNK)).max(1);
        }
    }
    if n < PARALLEL_MIN {
        return 1;
    }
    std::thread::available_parallelism()
        .map_or(1, |p| p.get())
        .min(MAX_THREADS)
        .min(n.div_ceil(CHUNK))
}

/// Tests set a thread count here (0: the normal rule). Results do not
/// depend on it, so tests running concurrently are unaffected.
#[cfg(test)]
pub(crate) static FORCE_THREADS: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// Splits every buffer at `mid`.
fn split<'a, const K: usize>(
    bufs: [&'a mut [f64]; K],
    mid: usize,
) -> ([&'a mut [f64]; K], [&'a mut [f64]; K]) {
    let mut right: [&'a mut [f64]; K] = std::array::from_fn(|_| -> &'a mut [f64] { &mut [] });
    let mut k = 0;
    let left = bufs.map(|b| {
        let (l, r) = b.split_at_mut(mid);
        right[k] = r;
        k += 1;
        l
    });
    (left, right)
}

/// Folds `step` over `f(pages, buffers restricted to pages)` for the
/// chunks of `start..start + len(bufs)`, in order.
pub(crate) fn fold_run<T, A, F, const K: usize>(
    bufs: [&mut [f64]; K],
    start: usize,
    acc: A,
    f: &F,
    step: impl Fn(A, T) -> A,
) -> A
where
    F: Fn(Range<usize>, [&mut [f64]; K]) -> T,
{
    fold_pieces(bufs, start, CHUNK, acc, f, step)
}

/// [`fold_run`] over pieces of `piece` pages.
fn fold_pieces<T, A, F, const K: usize>(
    mut bufs: [&mut [f64]; K],
    start: usize,
    piece: usize,
    mut acc: A,
    f: &F,
    step: impl Fn(A, T) -> A,
) -> A
where
    F: Fn(Range<usize>, [&mut [f64]; K]) -> T,
{
    let mut lo = start;
    while !bufs[0].is_empty() {
        let take = bufs[0].len().min(piece);
        let (head, tail) = split(bufs, take);
        acc = step(acc, f(lo..lo + take, head));
        bufs = tail;
        lo += take;
    }
    acc
}

/// Calls `f(pages, chunks of bufs)` on every [`CHUNK`] of the pages
/// (all buffers have one entry per page) and folds the results with
/// `combine` in chunk order, starting from `init`; the chunks are shared
/// among [`threads_for`] threads in contiguous runs.
pub(crate) fn fold_chunks<T, F, C, const K: usize>(
    bufs: [&mut [f64]; K],
    init: T,
    f: F,
    combine: C,
) -> T
where
    T: Send,
    F: Fn(Range<usize>, [&mut [f64]; K]) -> T + Sync,
    C: Fn(T, T) -> T,
{
    fold_pieces_par(bufs, CHUNK, init, f, combine)
}

/// [`fold_chunks`] over pieces of `piece` pages (a multiple of [`CHUNK`]):
/// for results too large to keep one per chunk.
pub(crate) fn fold_pieces_par<T, F, C, const K: usize>(
    bufs: [&mut [f64]; K],
    piece: usize,
    init: T,
    f: F,
    combine: C,
) -> T
where
    T: Send,
    F: Fn(Range<usize>, [&mut [f64]; K]) -> T + Sync,
    C: Fn(T, T) -> T,
{
    let n = bufs[0].len();
    debug_assert!(bufs.iter().all(|b| b.len() == n));
    let pieces = n.div_ceil(piece);
    let threads = threads_for(n).min(pieces);
    if threads <= 1 {
        return fold_pieces(bufs, 0, piece, init, &f, combine);
    }
    // Contiguous runs of whole pieces, one per thread; the calling thread
    // takes the last run (one thread fewer to start per pass).
    let per = pieces.div_ceil(threads);
    let mut parts: Vec<Vec<T>> = Vec::with_capacity(threads);
    let run = |head: [&mut [f64]; K], start: usize| {
        let out = Vec::with_capacity(per);
        fold_pieces(head, start, piece, out, &f, |mut v: Vec<T>, t| {
            v.push(t);
            v
        })
    };
    std::thread::scope(|scope| {
        let run = &run;
        let mut rest = bufs;
        let mut lo = 0;
        let mut handles = Vec::with_capacity(threads);
        while n - lo > per * piece {
            let (head, tail) = split(rest, per * piece);
            rest = tail;
            let start = lo;
            handles.push(scope.spawn(move || run(head, start)));
            lo += per * piece;
        }
        let last = run(rest, lo);
        for h in handles {
            // A panic in a worker is re-raised on the caller's thread.
            parts.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        parts.push(last);
    });
    parts.into_iter().flatten().fold(init, combine)
}
