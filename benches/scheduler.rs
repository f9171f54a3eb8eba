//! Speed of the streaming recrawl scheduler (paper 000, §5–6): picks per
//! second at 10⁴, 10⁵ and 10⁶ pages in both modes and with per-host delays
//! (N/100 hosts, `next_at` on a clock advancing one unit per pick), and the
//! time to add 10⁶
//! pages one by one and in a batch (and serve the first pick, which computes
//! the frequencies), each
//! next to its physical limit measured in the same run: a plain
//! `BinaryHeap<Reverse<(u64, u32)>>` pop/push loop over as many entries,
//! with the same periods (what a pick must at least do), and one pass
//! writing 10⁶ records (what adding pages must at least do).
//!
//! `cargo bench --bench scheduler` also writes the ratios to
//! bench/results/scheduler.json (`SCHEDULER_BENCH_MAX_N=100000` stops at
//! 10⁵ pages). The machine is shared: compare ratios of one run, not
//! absolute times across runs.

use crawlsched::dist::Distribution;
use crawlsched::freshness::scheduler::{Pick, Scheduler, SchedulerMode};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::collections::HashMap;
use std::hint::black_box;
use std::time::Instant;

const PICKS: u64 = 1000;

/// Change rates spread log-uniformly over three decades.
fn rates(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| 1e-3 * 1e3f64.powf(i as f64 / (n.max(2) - 1) as f64))
        .collect()
}

fn scheduler(mode: SchedulerMode) -> Scheduler {
    Scheduler::new(Distribution::exponential(1.0).expect("exp"), mode).expect("scheduler")
}

fn add_one_by_one(mode: SchedulerMode, mu: &[f64]) -> Scheduler {
    let mut s = scheduler(mode);
    for (i, &m) in mu.iter().enumerate() {
        s.add_page(i as u64, m, None).expect("add");
    }
    s
}

fn add_batch(mode: SchedulerMode, pages: &[(u64, f64, Option<f64>)]) -> Scheduler {
    let mut s = scheduler(mode);
    s.add_pages(pages).expect("add");
    s
}

fn batch(mu: &[f64]) -> Vec<(u64, f64, Option<f64>)> {
    mu.iter()
        .enumerate()
        .map(|(i, &m)| (i as u64, m, None))
        .collect()
}

/// A scheduler of n pages that has served its first pick (frequencies and
/// heap or template built).
fn filled(mode: SchedulerMode, n: usize) -> Scheduler {
    let mut s = add_one_by_one(mode, &rates(n));
    s.next().expect("first pick");
    s
}

/// A Stride scheduler of n pages, page i on host i mod (n/100), each host
/// with delay 0.5/F_h (F_h: its pages' total frequency), so that every host
/// can follow the plan at one pick per time unit; first pick served.
fn with_hosts(n: usize) -> Scheduler {
    let mut s = add_one_by_one(SchedulerMode::Stride, &rates(n));
    let hosts = (n / 100).max(1) as u64;
    let mut share: HashMap<u32, f64> = HashMap::new();
    for (id, f) in s.frequencies().expect("frequencies") {
        let h = (id % hosts) as u32;
        s.set_host(id, h).expect("host");
        *share.entry(h).or_insert(0.0) += f;
    }
    for (h, f) in share {
        s.set_host_delay(h, 0.5 / f).expect("delay");
    }
    s.next_at(0.0).expect("first pick");
    s
}

/// `next_at` on a clock that advances one unit per page and by the wait
/// when told to wait (`waits` counts those).
struct Clocked {
    s: Scheduler,
    now: f64,
    waits: u64,
}

impl Clocked {
    fn pick(&mut self) -> u64 {
        loop {
            match self.s.next_at(self.now).expect("pick") {
                Pick::Page(id) => {
                    self.now += 1.0;
                    return id;
                }
                Pick::Wait(w) => {
                    self.waits += 1;
                    self.now += w;
                }
            }
        }
    }
}

/// The baseline heap: one entry per page, keyed by fixed-point due times
/// that advance by the page's period 1/f_i (as in Stride mode).
struct PlainHeap {
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    step: Vec<u64>,
}

impl PlainHeap {
    fn new(s: &Scheduler) -> Self {
        let f = s.frequencies().expect("frequencies");
        let step: Vec<u64> = f.iter().map(|&(_, fi)| (1024.0 / fi) as u64 + 1).collect();
        let heap = step
            .iter()
            .enumerate()
            .map(|(i, &st)| Reverse(((i as u64).wrapping_mul(0x9e37_79b9) % st, i as u32)))
            .collect();
        PlainHeap { heap, step }
    }

    fn pick(&mut self) -> u32 {
        let Reverse((due, i)) = self.heap.pop().expect("entry");
        self.heap.push(Reverse((due + self.step[i as usize], i)));
        i
    }
}

/// Seconds per call of `f`, best of three runs of `reps` calls.
fn per_call(reps: u64, mut f: impl FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let t0 = Instant::now();
            for _ in 0..reps {
                f();
            }
            t0.elapsed().as_secs_f64() / reps as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn seconds<T>(f: impl FnOnce() -> T) -> f64 {
    let t0 = Instant::now();
    black_box(f());
    t0.elapsed().as_secs_f64()
}

/// One timed run per size; the ratios go to bench/results.
fn summary(max_n: usize) {
    let mut rows = Vec::new();
    for n in [10_000usize, 100_000, 1_000_000] {
        if n > max_n {
            continue;
        }
        let mut stride = filled(SchedulerMode::Stride, n);
        let mut golden = filled(SchedulerMode::GoldenRatio, n);
        let mut heap = PlainHeap::new(&stride);
        let reps = 2_000_000;
        let t_heap = per_call(reps, || {
            black_box(heap.pick());
        });
        let t_stride = per_call(reps, || {
            black_box(stride.next().expect("pick"));
        });
        let t_golden = per_call(reps, || {
            black_box(golden.next().expect("pick"));
        });
        let mut hosted = Clocked {
            s: with_hosts(n),
            now: 1.0,
            waits: 0,
        };
        let t_hosts = per_call(reps, || {
            black_box(hosted.pick());
        });
        let wait_share = hosted.waits as f64 / (3 * reps) as f64;
        eprintln!(
            "N={n}: plain heap {:.3e} picks/s; stride {:.3e} picks/s ({:.2}x the heap's time); golden ratio {:.3e} picks/s ({:.2}x); {} hosts with delays {:.3e} picks/s ({:.2}x stride's time, {wait_share:.4} waits per pick)",
            1.0 / t_heap,
            1.0 / t_stride,
            t_stride / t_heap,
            1.0 / t_golden,
            t_golden / t_heap,
            n / 100,
            1.0 / t_hosts,
            t_hosts / t_stride
        );
        rows.push(format!(
            "{{\"pages\": {n}, \"heap_picks_per_s\": {:.4e}, \"stride_picks_per_s\": {:.4e}, \"golden_picks_per_s\": {:.4e}, \"stride_over_heap\": {:.3}, \"golden_over_heap\": {:.3}, \"hosts\": {}, \"hosts_picks_per_s\": {:.4e}, \"hosts_over_stride\": {:.3}, \"hosts_waits_per_pick\": {wait_share:.4}}}",
            1.0 / t_heap,
            1.0 / t_stride,
            1.0 / t_golden,
            t_stride / t_heap,
            t_golden / t_heap,
            n / 100,
            1.0 / t_hosts,
            t_hosts / t_stride
        ));
    }
    let n = max_n.min(1_000_000);
    let mu = rates(n);
    let t_pass = seconds(|| {
        mu.iter()
            .enumerate()
            .map(|(i, &m)| (i as u64, m, 1.0 / m))
            .collect::<Vec<_>>()
    });
    let mut adds = Vec::new();
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        let t_add = seconds(|| add_one_by_one(mode, &mu));
        let pages = batch(&mu);
        let t_batch = seconds(|| add_batch(mode, &pages));
        let t_first = seconds(|| add_batch(mode, &pages).next().expect("pick")) - t_batch;
        eprintln!(
            "{mode:?}: adding {n} pages one by one {t_add:.3}s ({:.1}x one pass), in a batch {t_batch:.3}s ({:.1}x), first pick {t_first:.3}s",
            t_add / t_pass,
            t_batch / t_pass
        );
        adds.push(format!(
            "{{\"mode\": \"{mode:?}\", \"pages\": {n}, \"add_one_by_one_s\": {t_add:.4}, \"add_batch_s\": {t_batch:.4}, \"first_pick_s\": {t_first:.4}, \"one_pass_s\": {t_pass:.5}, \"add_over_pass\": {:.1}, \"batch_over_pass\": {:.1}}}",
            t_add / t_pass,
            t_batch / t_pass
        ));
    }
    let json = format!(
        "{{\n  \"rates\": \"log-uniform 1e-3..1, exponential access time of mean 1\",\n  \"baseline\": \"BinaryHeap<Reverse<(u64, u32)>> pop/push with the stride periods; one pass writing the page records\",\n  \"hosts\": \"Stride, page i on host i mod N/100 with delay 0.5/F_h, next_at on a clock advancing 1 per pick\",\n  \"picks\": [\n    {}\n  ],\n  \"add\": [\n    {}\n  ]\n}}\n",
        rows.join(",\n    "),
        adds.join(",\n    ")
    );
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/results");
    let _ = std::fs::create_dir_all(dir);
    let _ = std::fs::write(format!("{dir}/scheduler.json"), json);
}

fn benches(c: &mut Criterion) {
    // `cargo bench` passes --bench; `cargo test --all-targets` runs this
    // binary as a smoke test, which must stay quick and write nothing.
    let full = std::env::args().any(|a| a == "--bench");
    let max_n = if full {
        std::env::var("SCHEDULER_BENCH_MAX_N")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1_000_000usize)
    } else {
        10_000
    };
    if full {
        summary(max_n);
    }
    let mut g = c.benchmark_group("scheduler picks");
    g.sample_size(10);
    g.throughput(Throughput::Elements(PICKS));
    for n in [10_000usize, 100_000, 1_000_000] {
        if n > max_n {
            continue;
        }
        let mut stride = filled(SchedulerMode::Stride, n);
        let mut golden = filled(SchedulerMode::GoldenRatio, n);
        let mut heap = PlainHeap::new(&stride);
        g.bench_function(format!("plain heap N={n}"), |b| {
            b.iter(|| (0..PICKS).map(|_| heap.pick()).max())
        });
        g.bench_function(format!("stride N={n}"), |b| {
            b.iter(|| (0..PICKS).map(|_| stride.next().expect("pick")).max())
        });
        g.bench_function(format!("golden ratio N={n}"), |b| {
            b.iter(|| (0..PICKS).map(|_| golden.next().expect("pick")).max())
        });
        let mut hosted = Clocked {
            s: with_hosts(n),
            now: 1.0,
            waits: 0,
        };
        g.bench_function(format!("stride with {} hosts N={n}", n / 100), |b| {
            b.iter(|| (0..PICKS).map(|_| hosted.pick()).max())
        });
    }
    g.finish();
    let n = max_n.min(1_000_000);
    let mu = rates(n);
    let mut g = c.benchmark_group("scheduler add");
    g.sample_size(10);
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function(format!("one pass over {n} records"), |b| {
        b.iter(|| {
            mu.iter()
                .enumerate()
                .map(|(i, &m)| (i as u64, m, 1.0 / m))
                .collect::<Vec<_>>()
        })
    });
    for mode in [SchedulerMode::Stride, SchedulerMode::GoldenRatio] {
        g.bench_function(format!("{mode:?} add {n} one by one"), |b| {
            b.iter(|| add_one_by_one(mode, &mu))
        });
        let pages = batch(&mu);
        g.bench_function(format!("{mode:?} add {n} in a batch"), |b| {
            b.iter(|| add_batch(mode, &pages))
        });
    }
    g.finish();
}

criterion_group!(scheduler_bench, benches);
criterion_main!(scheduler_bench);
