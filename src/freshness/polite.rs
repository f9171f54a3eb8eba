//! Per-host politeness in the freshness plan: the optimal frequencies of
//! Coffman, Liu and Weber (paper 000) when each host also caps its own
//! crawl rate.
//!
//! Pages are grouped by host (`hosts[i]` in 0..H); host h accepts at most
//! b_h crawls per unit time (`max_rates[h]`, e.g. 1/Crawl-delay; +∞ = no
//! limit). The robot crawls at R = 1/E\[X\] (one access after another), so
//! page i is crawled f_i R times per unit time. Both objectives of the paper
//! are covered: the evenly spaced bound of Theorem 3.3 (problem (7), any
//! weights) and the randomized policy's cost (problem (12), eq. 15),
//!
//! min Σ_i C_i(f_i) subject to Σ_i f_i = 1, f_i ≥ 0,
//! R Σ_{i∈h} f_i ≤ b_h for every host h.
//!
//! **Optimality conditions.** Write κ_h = b_h/R = b_h E\[X\] (host h's cap as
//! a share of the robot's accesses). With λ for Σ f = 1 and ν_h ≥ 0 for host
//! h's cap (ν_h in cost per unit of crawl rate, so R ν_h is in the units of
//! λ: cost per unit of frequency), the Lagrangian
//! Σ C_i + λ(Σ f_i − 1) + Σ_h ν_h(R Σ_{i∈h} f_i − b_h) of this convex
//! separable problem (Slater holds when Σ κ_h > 1) gives the necessary and
//! sufficient KKT conditions: for page i of host h,
//!
//! −C_i′(f_i) = λ + R ν_h =: λ_h if f_i > 0, and −C_i′(0) ≤ λ_h if f_i = 0,
//!
//! with ν_h (Σ_{i∈h} f_i − κ_h) = 0. −C_i′ is the left side of (8),
//! w_i g(h_i^{1/f_i}) with w_i = c_i/(μ_i E\[X\]), for the evenly spaced
//! bound, and of (13) for the randomized one, so that page i's frequency is
//! x_i(λ_h), the unconstrained solution's page function (see
//! [`super::frequencies::optimal_frequencies_general`] and
//! [`super::randomized::optimal_frequencies_general`]) at the host's own
//! multiplier λ_h ≥ λ. Host h's sum S_h(λ) = Σ_{i∈h} x_i(λ) falls
//! continuously from +∞ (λ → 0) to 0 (λ ≥ max w_i). Hence:
//!
//! - host h unsaturated (ν_h = 0): λ_h = λ and S_h(λ) ≤ κ_h;
//! - host h saturated (ν_h > 0): S_h(λ_h) = κ_h with λ_h > λ, which (S_h
//!   decreasing) is possible exactly when S_h(λ) > κ_h.
//!
//! So every host takes min(S_h(λ), κ_h) and the global multiplier solves
//! T(λ) = Σ_h min(S_h(λ), κ_h) = 1; T is continuous and non-increasing,
//! decreasing from Σ_h κ_h (λ → 0) to 0, so a root exists iff
//! Σ_h κ_h ≥ 1, and the plan it gives is the unique optimum (the objective
//! is strictly convex in the visited pages' frequencies).
//!
//! **Algorithm.** Pages are grouped by host with one counting sort (ln w_i
//! and ln h_i, or β_i for the randomized objective, gathered in host
//! order). A pass evaluates every page at its host's multiplier and sums
//! x_i and dx_i/d ln λ per host, hosts spread over threads in runs of
//! about equal page counts; an evenly spaced page's root starts from the
//! third-order prediction from its previous one. (1) The global
//! multiplier: each pass narrows a bracket on ln λ and moves to the root
//! of a model of T built from its host sums (`HostModel`: each host
//! ln-linear in ln λ, capped at κ_h, its evenly spaced pages near their
//! cutoff evaluated exactly), which follows the kinks where hosts
//! saturate without a pass; a bisection when that root leaves the
//! bracket or the pass makes no progress; roots to about 1e−8 while
//! |ln T| > 1e−6. Large plans start from the multiplier of a sample of
//! about one page in n/2^16 solved the same way (`Groups::sample`), within
//! about 1e−2 of the root. (2) Every host saturated at λ finds its λ_h on
//! its own, over its own pages (in cache, warm-started from the global
//! pass), by safeguarded Newton in [λ, max w_i] (steps taken in ρ =
//! λ^{−1/2}, see `rho_step`), the hosts spread over threads. (3) The
//! frequencies are the pages' values at the last point of each search
//! (the global pass for the unsaturated hosts); rounding leaves each sum
//! off by a few ulps, so the saturated hosts are scaled to κ_h exactly and
//! the others to the remaining 1 − Σ_sat κ_h.
//!
//! **Infeasible caps** (Σ_h κ_h < 1 − 1e−13: the hosts together cannot
//! absorb the robot's rate; caps short of 1 by less, rounding, are scaled
//! up to sum to 1) are `Infeasible` by default, with the shortfall. With
//! [`PoliteOptions::allow_slack`] the robot instead crawls at Σ_h b_h < R,
//! idle the rest of the time: every host is saturated, its pages at the
//! host's own optimum scaled to κ_h, Σ f_i = Σ κ_h < 1, and the global
//! multiplier is 0 (ln λ = −∞). The per-page bounds still hold there: the
//! idle time acts as a page of weight 0 visited 1 − Σ κ_h of the time.

use super::frequencies::{
    COARSE, EXACT, GeneralPages, PagePoint, g_over_s2, invert_g, jensen_gap, ln_p_of, ln_weight,
    x_of,
};
use super::{Model, par};
use crate::error::{Error, Num, Result};
use crate::limits::Control;
use crate::numeric::roots::newton_bisect;
use crate::numeric::special::psi;
use std::ops::Range;

/// Bytes [`polite_frequencies`] holds per page (host order, host of each
/// position, ln w in input order while grouping, ln w and ln h or β in
/// host order, three arrays of the evenly spaced evaluation, the output,
/// and the lazily filled 1 − h of the randomized objective), checked
/// against the memory cap before allocating.
pub const POLITE_BYTES_PER_PAGE: u128 = 80;

/// Bytes [`polite_frequencies`] holds per host (offsets, summaries,
/// multipliers, sums and a root finder per host).
pub const POLITE_BYTES_PER_HOST: u128 = 256;

/// Which objective the plan minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoliteObjective {
    /// The evenly spaced bound of Theorem 3.3 (problem (7), KKT (8)–(9)).
    EvenlySpaced,
    /// The randomized policy of Section 4 (problem (12), eq. 15).
    Randomized,
}

/// Options of [`polite_frequencies`].
#[derive(Debug, Clone, Default)]
pub struct PoliteOptions {
    /// When the hosts' caps cannot absorb the robot's rate (Σ b_h < R):
    /// false (default) → `Infeasible`; true → crawl at Σ b_h, every host
    /// saturated (see the module notes).
    pub allow_slack: bool,
    /// Cancel flag, iteration cap (passes over the pages) and memory cap.
    pub control: Control,
}

/// The optimal plan under per-host caps.
#[derive(Debug, Clone, PartialEq)]
pub struct PolitePlan {
    /// f_i, one per page (input order): Σ f_i = 1, or Σ b_h E\[X\] < 1 in
    /// slack mode.
    pub frequencies: Vec<f64>,
    /// Per host: whether its cap binds (ν_h > 0).
    pub saturated: Vec<bool>,
    /// Per host: ln λ_h, the multiplier of its pages (absolute units of
    /// w_i = c_i/(μ_i E\[X\]), as [`super::shard`]); ln λ when unsaturated.
    pub ln_host_multipliers: Vec<f64>,
    /// ln λ, the multiplier of Σ f_i = 1 (−∞ in slack mode).
    pub ln_multiplier: f64,
    /// Σ c_i r_i at the plan: the Theorem 3.3 bound or the randomized cost.
    pub objective: f64,
    /// The robot's crawl rate: 1/E\[X\], or Σ b_h in slack mode.
    pub crawl_rate: f64,
}

/// The optimal frequencies of `model`'s pages when page i belongs to host
/// `hosts[i]` and host h accepts at most `max_rates[h]` crawls per unit
/// time (finite > 0, or +∞ for no limit); see the module notes.
///
/// Errors: `InvalidArgument` when `hosts` does not have one entry per page,
/// `max_rates` is empty or has an entry that is NaN, ≤ 0 or −∞, a host id
/// is ≥ `max_rates.len()`, or a host has no pages; `TooLarge` beyond the
/// memory cap ([`POLITE_BYTES_PER_PAGE`], [`POLITE_BYTES_PER_HOST`]) or
/// beyond 2^32 − 1 pages; `Infeasible` when Σ b_h E\[X\] < 1 − 1e−13 without
/// `allow_slack`; `Cancelled` / `NotConverged` from the control or a root
/// find.
pub fn polite_frequencies(
    model: &Model,
    hosts: &[u32],
    max_rates: &[f64],
    objective: PoliteObjective,
    options: &PoliteOptions,
) -> Result<PolitePlan> {
    // Setup: validation, grouping, per-host caps and summaries.
    check_inputs(model, hosts, max_rates, &options.control)?;
    let groups = Groups::new(model, hosts, max_rates.len(), objective)?;
    let mut caps: Vec<f64> = max_rates.iter().map(|b| b * model.mean_access()).collect();
    let total_cap: f64 = caps.iter().sum();
    let slack = total_cap < ROUNDED_ONE;
    if !slack && total_cap < 1.0 {
        caps.iter_mut().for_each(|k| *k /= total_cap);
    }
    if slack && !options.allow_slack {
        return Err(Error::Infeasible(format!(
            "the hosts' max_rates sum to {} crawls per unit time, short of the crawler's \
             rate 1/E[X] = {} by {} (a share of {} of its accesses)",
            Num(max_rates.iter().sum::<f64>()),
            Num(1.0 / model.mean_access()),
            Num(1.0 / model.mean_access() - max_rates.iter().sum::<f64>()),
            Num(1.0 - total_cap)
        )));
    }
    let mut solver = Solver::new(&groups, caps, objective, &options.control);
    // Main loop: the global multiplier, then the saturated hosts' own.
    let (ln_lambda, at_lambda) = if slack {
        (f64::NEG_INFINITY, Vec::new())
    } else {
        solver.global_multiplier()?
    };
    let (mut host_ln, mut saturated) = solver.host_multipliers(ln_lambda, &at_lambda)?;
    // Finish: the frequencies at the final multipliers, and the objective.
    let mut frequencies = solver.finish(&mut host_ln, ln_lambda, &mut saturated)?;
    let objective = plan_objective(model, objective, &mut frequencies);
    let crawl_rate = if slack {
        max_rates.iter().sum()
    } else {
        1.0 / model.mean_access()
    };
    Ok(PolitePlan {
        frequencies,
        saturated,
        ln_host_multipliers: host_ln,
        ln_multiplier: ln_lambda,
        objective,
        crawl_rate,
    })
}

/// Σ_h κ_h at or above this is feasible: caps within rounding of the
/// robot's rate (one host at b = 1/E\[X\] gives κ = 1 − 1 ulp) are raised
/// by at most 1e−13 relative to sum to 1.
const ROUNDED_ONE: f64 = 1.0 - 1e-13;

/// The input rules, checked before anything is allocated.
fn check_inputs(model: &Model, hosts: &[u32], max_rates: &[f64], ctl: &Control) -> Result<()> {
    crate::validate::same_len("change_rates", model.len(), "hosts", hosts.len())?;
    crate::validate::non_empty("max_rates", max_rates)?;
    for (h, &b) in max_rates.iter().enumerate() {
        if b.is_nan() || b <= 0.0 {
            return Err(Error::invalid(format!(
                "max_rates[{h}] must be > 0 (+inf for no limit), got {}",
                Num(b)
            )));
        }
    }
    if let Some((i, &h)) = hosts
        .iter()
        .enumerate()
        .find(|&(_, &h)| h as usize >= max_rates.len())
    {
        return Err(Error::invalid(format!(
            "hosts[{i}] = {h} is out of range: max_rates has {} hosts",
            max_rates.len()
        )));
    }
    if u32::try_from(hosts.len()).is_err() {
        return Err(Error::TooLarge(format!(
            "a polite plan takes at most 2^32 - 1 pages, got {}",
            hosts.len()
        )));
    }
    let bytes = crate::limits::bytes(hosts.len(), POLITE_BYTES_PER_PAGE)
        .zip(crate::limits::bytes(max_rates.len(), POLITE_BYTES_PER_HOST))
        .and_then(|(a, b)| a.checked_add(b));
    ctl.check_memory(
        bytes,
        &format!(
            "a polite plan of {} pages over {} hosts",
            hosts.len(),
            max_rates.len()
        ),
    )
}

/// The pages in host order: host h holds positions start\[h\]..start\[h+1\].
struct Groups {
    /// order\[k\]: the page at position k.
    order: Vec<u32>,
    /// The host of position k.
    host_of: Vec<u32>,
    start: Vec<usize>,
    /// In host order: ln w_i (absolute units), and the page's mass source:
    /// ln h_i for the evenly spaced objective (a_i = −ln h_i), β_i for the
    /// randomized one ([`beta`]); the other array is empty.
    ln_w: Vec<f64>,
    log_h: Vec<f64>,
    beta: Vec<f64>,
}

/// start\[h\]: the first position of host h in host order (a prefix sum
/// of the page counts); `InvalidArgument` naming the first host without
/// pages.
fn host_starts(hosts: &[u32], host_count: usize) -> Result<Vec<usize>> {
    let mut start = vec![0usize; host_count + 1];
    for &h in hosts {
        start[h as usize + 1] += 1;
    }
    if let Some(h) = start[1..].iter().position(|&c| c == 0) {
        return Err(Error::invalid(format!(
            "host {h} has no pages (no hosts[i] equals {h}; every host in max_rates needs one)"
        )));
    }
    for h in 0..host_count {
        start[h + 1] += start[h];
    }
    Ok(start)
}

impl Groups {
    /// One counting sort.
    fn new(
        model: &Model,
        hosts: &[u32],
        host_count: usize,
        objective: PoliteObjective,
    ) -> Result<Groups> {
        let start = host_starts(hosts, host_count)?;
        let n = hosts.len();
        // ln w_i in input order (sequential reads), then the page order
        // (one scatter of u32s), then the per-page arrays gathered in host
        // order (two reads per page), spread over threads.
        let mut ln_w_in = crate::pages::zeroed(n);
        par::fold_chunks(
            [&mut ln_w_in[..]],
            (),
            |pages, [lw]| {
                for (k, i) in pages.enumerate() {
                    lw[k] = ln_weight(model, i);
                }
            },
            |(), ()| (),
        );
        let mut next = start.clone();
        let mut order = vec![0u32; n];
        for (i, &h) in hosts.iter().enumerate() {
            // i < 2^32 (checked by the caller).
            order[next[h as usize]] = i as u32;
            next[h as usize] += 1;
        }
        drop(next);
        let mut host_of = vec![0u32; n];
        for (h, w) in start.windows(2).enumerate() {
            // h < max_rates.len() ≤ 2^32 (every host has a page).
            host_of[w[0]..w[1]].fill(h as u32);
        }
        let (mut mass, mut ln_w) = (crate::pages::zeroed(n), crate::pages::zeroed(n));
        let src = model.log_h();
        let randomized = objective == PoliteObjective::Randomized;
        par::fold_chunks(
            [&mut mass[..], &mut ln_w[..]],
            (),
            |pos, [m, lw]| {
                for (k, p) in pos.enumerate() {
                    let i = order[p] as usize;
                    m[k] = src[i];
                    lw[k] = ln_w_in[i];
                }
                if randomized {
                    m.iter_mut().for_each(|v| *v = beta(*v));
                }
            },
            |(), ()| (),
        );
        drop(ln_w_in);
        let (log_h, beta) = if randomized {
            (Vec::new(), mass)
        } else {
            (mass, Vec::new())
        };
        Ok(Groups {
            order,
            host_of,
            start,
            ln_w,
            log_h,
            beta,
        })
    }

    /// Pages.
    fn len(&self) -> usize {
        self.ln_w.len()
    }

    /// Page k's mass: a_i (evenly spaced) or β_i (randomized), which x_i is
    /// proportional to at a fixed multiplier.
    fn mass(&self, k: usize) -> f64 {
        match self.beta.get(k) {
            Some(&b) => b,
            None => -self.log_h[k],
        }
    }

    fn hosts(&self) -> usize {
        self.start.len() - 1
    }

    /// About one page in `stride` as an instance of its own, for the
    /// start of the global search. A host of n_h ≥ 8·stride pages keeps
    /// every stride-th (m_h of them): each kept page's mass (a_i evenly
    /// spaced, β_i randomized, which x_i is proportional to at a fixed
    /// multiplier) times `stride`, its cap κ_h·stride·m_h/n_h, so that its
    /// term estimates (stride·m_h/n_h)·min(S_h, κ_h) ≈ min(S_h, κ_h). The
    /// smaller hosts are kept whole with chance n_h/(8·stride)
    /// (systematic sampling in host order), mass and cap times the inverse
    /// of that chance: no host's sum is estimated from a few of its pages,
    /// where the cap's min would bias it low. Returns the sample and its
    /// caps, or None when it would hold more than 1/4 of the pages (hosts
    /// just below 8·stride pages are nearly all kept whole).
    fn sample(
        &self,
        stride: usize,
        caps: &[f64],
        objective: PoliteObjective,
    ) -> Option<(Groups, Vec<f64>)> {
        let big = 8 * stride;
        let limit = self.len() / 4;
        let mut s = Groups {
            order: Vec::new(),
            host_of: Vec::new(),
            start: vec![0],
            ln_w: Vec::new(),
            log_h: Vec::new(),
            beta: Vec::new(),
        };
        let mut sub_caps = Vec::new();
        let mut acc = 0;
        for (h, &cap) in caps.iter().enumerate() {
            let r = self.pages(h);
            let n = r.len();
            // Kept positions: r.skip(skip).step_by(step); mass scale c.
            let (skip, step, c, cap_scale) = if n >= big {
                let m = (n - stride / 2).div_ceil(stride);
                let c = stride as f64;
                (stride / 2, stride, c, c * m as f64 / n as f64)
            } else {
                acc += n;
                if acc < big {
                    continue;
                }
                acc -= big;
                let w = big as f64 / n as f64;
                (0, 1, w, w)
            };
            for k in r.skip(skip).step_by(step) {
                match objective {
                    PoliteObjective::EvenlySpaced => s.log_h.push(c * self.log_h[k]),
                    PoliteObjective::Randomized => s.beta.push(c * self.beta[k]),
                }
                s.ln_w.push(self.ln_w[k]);
                // Fewer sampled hosts than hosts (< 2^32).
                s.host_of.push(sub_caps.len() as u32);
            }
            if s.len() > limit {
                return None;
            }
            sub_caps.push(cap * cap_scale);
            s.start.push(s.len());
        }
        Some((s, sub_caps))
    }

    fn pages(&self, h: usize) -> Range<usize> {
        self.start[h]..self.start[h + 1]
    }
}

/// `f(h, positions of h)` for every host, hosts split into contiguous runs
/// of about equal page counts over [`par::threads_for`] threads; each
/// host's value is computed on one thread, so results do not depend on the
/// thread count.
fn per_host<T, F>(g: &Groups, f: F) -> Vec<T>
where
    T: Send + Clone + Default,
    F: Fn(usize, Range<usize>) -> T + Sync,
{
    per_host_with::<T, _, 1>(g, None, |h, r, _| f(h, r))
}

/// [`per_host`] with per-page buffers (one entry per position): `f` also
/// gets host h's part of each.
fn per_host_with<T, F, const K: usize>(g: &Groups, bufs: Option<[&mut [f64]; K]>, f: F) -> Vec<T>
where
    T: Send + Clone + Default,
    F: Fn(usize, Range<usize>, Option<[&mut [f64]; K]>) -> T + Sync,
{
    let (hosts, n) = (g.hosts(), g.len());
    let mut out = vec![T::default(); hosts];
    let threads = par::threads_for(n).min(hosts);
    // Hosts h0.. with their values `o` and buffers starting at h0's pages.
    let run = |h0: usize, o: &mut [T], mut bufs: Option<[&mut [f64]; K]>| {
        for (k, v) in o.iter_mut().enumerate() {
            let r = g.pages(h0 + k);
            let mine = bufs.take().map(|b| {
                let (head, tail) = split_bufs(b, r.len());
                bufs = Some(tail);
                head
            });
            *v = f(h0 + k, r, mine);
        }
    };
    if threads <= 1 {
        run(0, &mut out, bufs);
        return out;
    }
    std::thread::scope(|scope| {
        let (mut rest, mut rest_bufs) = (&mut out[..], bufs);
        let mut h0 = 0;
        for t in 1..=threads {
            // The first host starting at or after t·n/threads ends the run.
            let h1 = if t == threads {
                hosts
            } else {
                g.start[..hosts].partition_point(|&s| s < t * n / threads)
            }
            .max(h0);
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(h1 - h0);
            rest = tail;
            let pages = g.start[h1] - g.start[h0];
            let mine = rest_bufs.take().map(|b| {
                let (head, tail) = split_bufs(b, pages);
                rest_bufs = Some(tail);
                head
            });
            let run = &run;
            scope.spawn(move || run(h0, head, mine));
            h0 = h1;
        }
    });
    out
}

/// Every buffer split at `mid`: (heads, tails).
fn split_bufs<const K: usize>(
    bufs: [&mut [f64]; K],
    mid: usize,
) -> ([&mut [f64]; K], [&mut [f64]; K]) {
    let mut parts = bufs.map(|b| b.split_at_mut(mid));
    let heads = parts.each_mut().map(|(head, _)| std::mem::take(head));
    (heads, parts.map(|(_, tail)| tail))
}

/// One host's sums at its multiplier: Σ x_i and dΣ x_i/d ln λ (≤ 0).
#[derive(Debug, Clone, Copy, Default)]
struct HostSum {
    sum: f64,
    dsum: f64,
}

/// What the bracket and start of the global search need from a host.
#[derive(Debug, Clone, Copy, Default)]
struct HostSummary {
    /// Σ a_i (evenly spaced) or Σ β_i (randomized).
    mass: f64,
    ln_w_min: f64,
    ln_w_max: f64,
    /// Σ m_i e^{(ln w_i − ln_w_max)/2} with m_i = a_i or β_i: the host's
    /// part of the small-multiplier start.
    root_sum: f64,
}

/// β_i = h_i^{−1} − 1 (a_i capped at 700, as in [`super::randomized`]).
fn beta(log_h: f64) -> f64 {
    (-log_h).min(700.0).exp_m1()
}

/// ln G(z) for G(s) = 1 − (1 + s)e^{−s}, z > 0.
fn ln_big_g(z: f64) -> f64 {
    if z < 1.0 {
        2.0 * z.ln() + g_over_s2(z).ln()
    } else {
        (-(z.ln_1p() - z).exp()).ln_1p()
    }
}

/// The state of one solve: the grouped pages, the caps κ_h, and the
/// evenly spaced evaluation (its warm starts kept across passes).
struct Solver<'a> {
    g: &'a Groups,
    caps: Vec<f64>,
    objective: PoliteObjective,
    even: Option<GeneralPages<'a>>,
    summaries: Vec<HostSummary>,
    ctl: &'a Control,
    passes: u64,
    /// ln λ of the last global pass (NaN before the first): the evenly
    /// spaced pages' warm starts are predicted from it.
    last_ell: f64,
}

/// A saturated host's search stops once |S_h/κ_h − 1| is below this (the
/// sum's own rounding is near 1e−16·√pages); [`Solver::finish`] then
/// scales the host to κ_h exactly.
const HOST_FTOL: f64 = 1e-13;

/// Most passes of each root find.
const MAX_PASSES: usize = 500;

/// Pages in the sample that starts the global search of large plans (the
/// tests' smaller value puts their 70 000-page plan on that path).
const SAMPLE: usize = if cfg!(test) { 1 << 12 } else { 1 << 16 };

impl<'a> Solver<'a> {
    fn new(g: &'a Groups, caps: Vec<f64>, objective: PoliteObjective, ctl: &'a Control) -> Self {
        let even =
            (objective == PoliteObjective::EvenlySpaced).then(|| GeneralPages::new(&g.log_h));
        let summaries = per_host(g, |_, r| {
            let mut s = HostSummary {
                ln_w_min: f64::INFINITY,
                ln_w_max: f64::NEG_INFINITY,
                ..HostSummary::default()
            };
            for k in r.clone() {
                s.ln_w_min = s.ln_w_min.min(g.ln_w[k]);
                s.ln_w_max = s.ln_w_max.max(g.ln_w[k]);
            }
            for k in r {
                let m = g.mass(k);
                s.mass += m;
                s.root_sum += m * (0.5 * (g.ln_w[k] - s.ln_w_max)).exp();
            }
            s
        });
        Solver {
            g,
            caps,
            objective,
            even,
            summaries,
            ctl,
            passes: 0,
            last_ell: f64::NAN,
        }
    }

    /// ln λ at which host h's sum is at least `target` (> 0): evenly
    /// spaced, every t_i ≤ G(A/target) gives s_i ≤ A/target, x_i ≥
    /// a_i·target/A; randomized, √(w_i/λ) ≥ 1 + target/B gives
    /// x_i ≥ β_i·target/B.
    fn lower_bound(&self, h: usize, target: f64) -> f64 {
        let s = &self.summaries[h];
        match self.objective {
            PoliteObjective::EvenlySpaced => s.ln_w_min + ln_big_g((s.mass / target).min(f64::MAX)),
            PoliteObjective::Randomized => s.ln_w_min - 2.0 * (target / s.mass).ln_1p(),
        }
    }

    /// Every host's sums at ln λ = `ell`: one pass over the pages (the
    /// evenly spaced roots predicted from the last pass's, and only to
    /// about 1e−8 while `coarse`).
    fn pass(&mut self, ell: f64, coarse: bool) -> Result<Vec<HostSum>> {
        self.ctl.step("the polite plan", self.passes)?;
        self.passes += 1;
        let g = self.g;
        let Some(pages) = self.even.as_mut() else {
            return Ok(per_host(g, |_, r| randomized_sum(g, ell, r)));
        };
        let stop = if coarse { COARSE } else { EXACT };
        pages.pass(
            |k| page_point(ell - g.ln_w[k]),
            ell - self.last_ell,
            None,
            stop,
        )?;
        self.last_ell = ell;
        let (x, dlns) = (&pages.x, &pages.dlns);
        Ok(per_host(g, |_, r| even_sum(x, dlns, r)))
    }

    /// ln λ with T(λ) = Σ_h min(S_h(λ), κ_h) = 1 (Σ κ_h ≥ 1), and every
    /// host's sums there. Each pass (at ℓ = ln λ) narrows a bracket and
    /// moves to the root of a model of T built from its host sums
    /// ([`HostModel`]), which places the kinks where hosts saturate
    /// itself; a bisection when that root leaves the bracket or |ln T|
    /// fails to halve away from rounding.
    fn global_multiplier(&mut self) -> Result<(f64, Vec<HostSum>)> {
        let hosts = self.g.hosts();
        let mut lo = (0..hosts)
            .map(|h| self.lower_bound(h, self.caps[h].min(1.0)))
            .fold(f64::INFINITY, f64::min);
        let mut hi = self
            .summaries
            .iter()
            .map(|s| s.ln_w_max)
            .fold(f64::NEG_INFINITY, f64::max);
        let x0 = match self.sample_start()? {
            Some(x0) => x0,
            None => self.capped_start(lo, hi)?,
        };
        let mut ell = if x0 > lo && x0 < hi {
            x0
        } else {
            0.5 * (lo + hi)
        };
        let mut last_v = f64::INFINITY;
        // Converged on a coarse pass: the exact pass at the same ℓ ends.
        let mut last = false;
        for _ in 0..MAX_PASSES {
            let coarse = !last && last_v.abs() > 1e-6;
            let sums = self.pass(ell, coarse)?;
            let t: f64 = sums
                .iter()
                .zip(&self.caps)
                .map(|(s, &c)| s.sum.min(c))
                .sum();
            let v = t.ln();
            if v.is_nan() {
                return Err(Error::NotConverged(format!(
                    "the hosts' total is NaN at ln λ = {}",
                    Num(ell)
                )));
            }
            let tol = (4.0 * f64::EPSILON * ell.abs()).max(1e-15);
            let converged = last || v.abs() <= 1e-15 || {
                if v > 0.0 {
                    lo = ell;
                } else {
                    hi = ell;
                }
                hi - lo <= tol
            };
            // The model's root within rounding of ℓ also ends the search.
            let next = if converged {
                ell
            } else if v == f64::INFINITY {
                // A host without a cap summing past f64: no model.
                0.5 * (lo + hi)
            } else {
                let x = self.even.as_ref().map(|p| (&p.x[..], &p.dlns[..]));
                HostModel::new(self.g, &self.caps, ell, &sums, x).root(v, (lo, hi))?
            };
            // A model without a root (hosts with no visited page at ℓ give
            // it no slope: their pages' cutoffs lie beyond) ends at ℓ with
            // |ln T| far from 0: a bisection then.
            let model_end = (next - ell).abs() <= tol;
            if converged || (model_end && v.abs() <= 1e-6) {
                if !coarse {
                    return Ok((ell, sums));
                }
                last = true;
                continue;
            }
            let stalled = model_end || (v.abs() > 1e-12 && v.abs() > 0.5 * last_v.abs());
            last_v = v;
            ell = if !stalled && next > lo && next < hi {
                next
            } else {
                0.5 * (lo + hi)
            };
        }
        Err(Error::NotConverged(format!(
            "the global multiplier did not converge in {MAX_PASSES} passes"
        )))
    }

    /// The unconstrained small-multiplier start: s_i ≈ √(2λ/w_i) gives
    /// λ = (Σ a_i √w_i)²/2 (evenly spaced); all pages visited in (15)
    /// gives √λ = Σ β_i √w_i/(1 + Σ β_i) (randomized).
    fn start(&self, ln_w_max: f64) -> f64 {
        let (mut root_sum, mut mass) = (0.0, 0.0);
        for s in &self.summaries {
            root_sum += s.root_sum * (0.5 * (s.ln_w_max - ln_w_max)).exp();
            mass += s.mass;
        }
        match self.objective {
            PoliteObjective::EvenlySpaced => {
                ln_w_max + 2.0 * root_sum.ln() - std::f64::consts::LN_2
            }
            PoliteObjective::Randomized => ln_w_max + 2.0 * (root_sum.ln() - mass.ln_1p()),
        }
    }

    /// The global multiplier of the sample of [`Groups::sample`] (about
    /// [`SAMPLE`] pages, a few passes over them), when there are at least
    /// 8 times as many pages, the sample is at most 1/4 of them and its
    /// caps are feasible.
    fn sample_start(&self) -> Result<Option<f64>> {
        let n = self.g.len();
        if n < 8 * SAMPLE {
            return Ok(None);
        }
        let Some((sample, caps)) = self.g.sample(n / SAMPLE, &self.caps, self.objective) else {
            return Ok(None);
        };
        if caps.iter().sum::<f64>() < 1.0 {
            return Ok(None);
        }
        let mut solver = Solver::new(&sample, caps, self.objective, self.ctl);
        Ok(Some(solver.global_multiplier()?.0))
    }

    /// The small-multiplier start with the caps: each host's sum as in
    /// [`Solver::start`] (every page visited, x_i ≈ a_i √(w_i/(2λ)) evenly
    /// spaced, β_i(√(w_i/λ) − 1) randomized) capped at κ_h, and
    /// Σ_h min(S_h, κ_h) = 1 solved on the hosts alone in [lo, hi].
    fn capped_start(&self, lo: f64, hi: f64) -> Result<f64> {
        let even = self.objective == PoliteObjective::EvenlySpaced;
        let f = |ell: f64| {
            let (mut t, mut dt) = (0.0, 0.0);
            for (s, &cap) in self.summaries.iter().zip(&self.caps) {
                // Σ m_i √(w_i/λ) and the host's sum.
                let r = s.root_sum * (0.5 * (s.ln_w_max - ell)).exp();
                let x = if even {
                    r * std::f64::consts::FRAC_1_SQRT_2
                } else {
                    (r - s.mass).max(0.0)
                };
                if x >= cap {
                    t += cap;
                } else if x > 0.0 {
                    t += x;
                    dt -= 0.5 * if even { x } else { r };
                }
            }
            Ok((t.ln(), dt / t))
        };
        let x0 = self.start(hi).clamp(lo, hi);
        newton_bisect(f, lo, hi, x0, false, 1e-12, 1e-12, MAX_PASSES)
    }

    /// ln λ_h for every host: ln λ for the unsaturated ones, the root of
    /// S_h(λ_h) = κ_h for those with S_h(λ) > κ_h (every host when ln λ =
    /// −∞; `at_lambda`: the sums at λ otherwise), each found on its own
    /// over its own pages ([`Solver::host_root`]), hosts spread over
    /// threads; and which hosts are saturated. The evenly spaced pages of
    /// a saturated host are left at its λ_h.
    fn host_multipliers(
        &mut self,
        ln_lambda: f64,
        at_lambda: &[HostSum],
    ) -> Result<(Vec<f64>, Vec<bool>)> {
        let hosts = self.g.hosts();
        let saturated: Vec<bool> = (0..hosts)
            .map(|h| !matches!(at_lambda.get(h), Some(s) if s.sum <= self.caps[h]))
            .collect();
        let mut even = self.even.take();
        let bufs = even
            .as_mut()
            .map(|p| [&mut p.s[..], &mut p.x[..], &mut p.dlns[..]]);
        let this = &*self;
        let roots = per_host_with(self.g, bufs, |h, _, pages| {
            saturated[h].then(|| match at_lambda.get(h) {
                Some(&s) => this.host_root(h, ln_lambda, Some(s), pages),
                None => this.host_root(h, this.lower_bound(h, this.caps[h]), None, pages),
            })
        });
        self.even = even;
        let mut out = vec![ln_lambda; hosts];
        for (h, root) in roots.into_iter().enumerate() {
            if let Some(root) = root {
                out[h] = root?;
            }
        }
        Ok((out, saturated))
    }

    /// Host h's multiplier: the root of S_h = κ_h in [lo, max ln w_i] by
    /// Newton in ρ ([`rho_step`]) from `lo` (its sums there when known),
    /// evaluating only its pages, safeguarded by a bracket: a bisection
    /// when a step leaves it or |S_h/κ_h − 1| fails to halve above 1e−11.
    /// Stops once that is below [`HOST_FTOL`] or a step below 4 ulps.
    /// `pages`: the host's evenly spaced (s_i, x_i, d ln s_i/d ln t_i) at
    /// `lo` when its sums are known (then the warm starts), left at the
    /// root; None for the randomized objective.
    fn host_root(
        &self,
        h: usize,
        lo: f64,
        at_lo: Option<HostSum>,
        pages: Option<[&mut [f64]; 3]>,
    ) -> Result<f64> {
        let (g, cap) = (self.g, self.caps[h]);
        let r = g.pages(h);
        let mut even = pages.map(|out| HostPages::new(g, r.clone(), lo, at_lo.is_some(), out));
        let mut hi = self.summaries[h].ln_w_max;
        let mut lo = lo.min(hi);
        let (mut l, mut last_v) = (lo, f64::INFINITY);
        let mut s = at_lo;
        let found = 'search: {
            for it in 0..MAX_PASSES as u64 {
                let sums = match s {
                    Some(sums) => sums,
                    None => {
                        self.ctl.step("the polite plan", self.passes + it)?;
                        match even.as_mut() {
                            None => randomized_sum(g, l, r.clone()),
                            Some(pages) => pages.eval(g, r.start, l)?,
                        }
                    }
                };
                let v = sums.sum / cap - 1.0;
                if v.is_nan() {
                    return Err(Error::NotConverged(format!(
                        "host {h}'s sum is NaN at ln λ = {}",
                        Num(l)
                    )));
                }
                if v.abs() <= HOST_FTOL {
                    break 'search l;
                }
                if v > 0.0 {
                    lo = l;
                } else {
                    hi = l;
                }
                let next = rho_step(l, sums, cap);
                let tol = (4.0 * f64::EPSILON * l.abs()).max(1e-15);
                // A step within rounding far from the root (a page of
                // β_i ≈ e^700 just visited: dS/d ln λ ≈ −β_i/2 ≫ S) bisects.
                let tiny = (next - l).abs() <= tol;
                if hi - lo <= tol || (tiny && v.abs() <= 1e-6) {
                    break 'search l;
                }
                let stalled = tiny || (v.abs() > 1e-11 && v.abs() > 0.5 * last_v.abs());
                last_v = v;
                l = if !stalled && next > lo && next < hi {
                    next
                } else {
                    0.5 * (lo + hi)
                };
                s = None;
            }
            return Err(Error::NotConverged(format!(
                "host {h}'s multiplier did not converge in {MAX_PASSES} steps"
            )));
        };
        if let Some(pages) = even {
            debug_assert!(pages.at == found);
            pages.store();
        }
        Ok(found)
    }

    /// The frequencies (input order) at the hosts' multipliers: each
    /// saturated host is a group with target κ_h, the unsaturated hosts
    /// together one group with target 1 − Σ_sat κ_h; each group's rounding
    /// residual goes to its pages at the cutoff ([`cutoff_residuals`]),
    /// else the group's pages move along their KKT curves to the target
    /// ([`curve_step`]); what rounding leaves is scaled away. A residual
    /// that would lift an unsaturated host over its cap (pages whose λ_h
    /// equals w_i to every digit, so the passes saw no sum) saturates that
    /// host instead, and the groups are shared out again: water-filling
    /// over hosts, each group's cutoff pages ∝ a_i or β_i as (8) and (15) ask.
    fn finish(
        &mut self,
        host_ln: &mut [f64],
        ln_lambda: f64,
        saturated: &mut [bool],
    ) -> Result<Vec<f64>> {
        let g = self.g;
        unsaturate_at_lambda(g, host_ln, ln_lambda, saturated);
        let (x0, dlns) = self.page_values(host_ln);
        let sums = per_host(g, |_, r| x0[r].iter().sum::<f64>());
        let hosts = g.hosts();
        for round in 0.. {
            self.ctl.step("the polite plan's caps", round)?;
            let (total, target) = group_targets(&sums, &self.caps, saturated);
            let sat = &*saturated;
            let group = |h: usize| if sat[h] { h } else { hosts };
            let residuals = cutoff_residuals(
                g,
                (&x0, dlns.as_deref()),
                host_ln,
                &group,
                (&total, &target),
            );
            let placed = |k: usize| residuals.as_ref().is_some_and(|c| !c.per_m[k].is_nan());
            let x = residuals
                .as_ref()
                .map(|c| c.apply(g, (&x0, dlns.as_deref()), &group));
            let x = x.as_deref().unwrap_or(&x0);
            let x = curve_step(g, (x, dlns.as_deref()), &group, (&total, &target), &placed);
            let sums_now = per_host(g, |_, r| x[r].iter().sum::<f64>());
            // Placing a residual and the step round: the groups are scaled
            // from their sums.
            let total = group_targets(&sums_now, &self.caps, sat).0;
            let scale = group_scales(&total, &target);
            if (0..hosts).any(|h| sat[h] && !(scale[h] > 0.0 && scale[h].is_finite())) {
                return Err(Error::NotConverged(
                    "a saturated host's frequencies do not sum to a positive finite value".into(),
                ));
            }
            let over: Vec<usize> = (0..hosts)
                .filter(|&h| !sat[h] && sums_now[h] * scale[hosts] > self.caps[h] * (1.0 + 1e-13))
                .collect();
            if over.is_empty() {
                let mut f = crate::pages::zeroed(g.order.len());
                for (k, &i) in g.order.iter().enumerate() {
                    f[i as usize] = x[k] * scale[group(g.host_of[k] as usize)];
                }
                return Ok(f);
            }
            for h in over {
                saturated[h] = true;
            }
        }
        unreachable!("each round saturates a host")
    }

    /// x_i in host order at the hosts' multipliers (the evenly spaced ones
    /// as the global pass and the host roots left them, with their
    /// d ln s_i/d ln t_i).
    fn page_values(&mut self, host_ln: &[f64]) -> (Vec<f64>, Option<Vec<f64>>) {
        let g = self.g;
        if let Some(pages) = self.even.take() {
            return (pages.x, Some(pages.dlns));
        }
        let mut x = crate::pages::zeroed(g.len());
        par::fold_chunks(
            [&mut x[..]],
            (),
            |pages, [x]| {
                for (j, k) in pages.enumerate() {
                    let ln_t = host_ln[g.host_of[k] as usize] - g.ln_w[k];
                    x[j] = if ln_t < 0.0 {
                        randomized_page(g.beta[k], ln_t).0
                    } else {
                        0.0
                    };
                }
            },
            |(), ()| (),
        );
        (x, None)
    }
}

/// One saturated host's evenly spaced pages during its root find: its own
/// evaluation at ln λ = `at`, and its part `out` of the shared (s_i, x_i,
/// d ln s_i/d ln t_i).
struct HostPages<'a, 'b> {
    pages: GeneralPages<'a>,
    at: f64,
    out: [&'b mut [f64]; 3],
}

impl<'a, 'b> HostPages<'a, 'b> {
    /// Host positions `r`, warm-started from `out` (the global pass at
    /// `at`) when `warm`.
    fn new(g: &'a Groups, r: Range<usize>, at: f64, warm: bool, out: [&'b mut [f64]; 3]) -> Self {
        let mut pages = GeneralPages::new(&g.log_h[r]);
        if warm {
            pages.s.copy_from_slice(out[0]);
            pages.x.copy_from_slice(out[1]);
            pages.dlns.copy_from_slice(out[2]);
        }
        HostPages { pages, at, out }
    }

    /// The host's sums at ln λ = `l` (its first position `base`), each
    /// root predicted from the last evaluation's.
    fn eval(&mut self, g: &Groups, base: usize, l: f64) -> Result<HostSum> {
        let p = &mut self.pages;
        p.pass(
            |j| page_point(l - g.ln_w[base + j]),
            l - self.at,
            None,
            EXACT,
        )?;
        self.at = l;
        Ok(even_sum(&p.x, &p.dlns, 0..p.x.len()))
    }

    /// The last evaluation written to the shared arrays.
    fn store(self) {
        let [s, x, dlns] = self.out;
        s.copy_from_slice(&self.pages.s);
        x.copy_from_slice(&self.pages.x);
        dlns.copy_from_slice(&self.pages.dlns);
    }
}

/// A saturated host whose root stayed at λ, or within [`CUTOFF_WINDOW`]
/// of it with a page at its cutoff there (a sum that jumps past κ_h
/// within digits of ln λ that ln λ does not resolve), has ν_h = 0 to
/// every digit: it starts unsaturated at ln λ, its cutoff pages taking the
/// group's residual ([`cutoff_residuals`]), and [`Solver::finish`]
/// saturates it again if that lifts it over κ_h.
fn unsaturate_at_lambda(g: &Groups, host_ln: &mut [f64], ln_lambda: f64, saturated: &mut [bool]) {
    if !ln_lambda.is_finite() {
        return;
    }
    for h in 0..g.hosts() {
        let at_cutoff = || {
            near_cutoff(host_ln[h], ln_lambda)
                && g.pages(h).any(|k| near_cutoff(g.ln_w[k], ln_lambda))
        };
        if saturated[h] && (host_ln[h] <= ln_lambda || at_cutoff()) {
            saturated[h] = false;
            host_ln[h] = ln_lambda;
        }
    }
}

/// Half-width in ln λ of the window in which an evenly spaced page counts
/// as at its cutoff (1 − λ/w_i below about 1e−8: s_i ≳ 20, where an ulp of
/// ln λ moves x_i by more than 1e−13 relative).
const CUTOFF_WINDOW: f64 = 1e-8;

/// Per group (k = h for a saturated host, k = hosts for the others):
/// (Σ x_i of its hosts, its target: κ_h, or 1 − Σ_sat κ_h, at least 0).
fn group_targets(sums: &[f64], caps: &[f64], saturated: &[bool]) -> (Vec<f64>, Vec<f64>) {
    let hosts = sums.len();
    let (mut total, mut target) = (vec![0.0; hosts + 1], vec![0.0; hosts + 1]);
    target[hosts] = 1.0;
    for h in 0..hosts {
        let k = if saturated[h] { h } else { hosts };
        total[k] += sums[h];
        if saturated[h] {
            target[k] = caps[h];
            target[hosts] -= caps[h];
        }
    }
    target[hosts] = target[hosts].max(0.0);
    (total, target)
}

/// `x` with each group k that has no cutoff residual (`placed(k)` false)
/// moved along its pages' KKT curves to Σ x = target_k: the root finds
/// stop within ulps of ln λ_k, where a page near its cutoff moves Σ x by
/// far more than a rounding; scaling the whole group would spread that
/// over pages that do not move. Page k moves by slope_k·Δ/Σ slope:
/// randomized, slope = x_k + β_k, exact in ρ = λ^{−1/2} on a fixed active
/// set (x = β(ρ√w − 1)); evenly spaced, slope = x_k d ln s_k/d ln t_k
/// (dx/d ln λ = −slope), to first order. Slopes are taken relative to the
/// group's largest (β_k up to e^700); x stays ≥ 0.
fn curve_step(
    g: &Groups,
    (x, dlns): (&[f64], Option<&[f64]>),
    group: &(dyn Fn(usize) -> usize + Sync),
    (total, target): (&[f64], &[f64]),
    placed: &(dyn Fn(usize) -> bool + Sync),
) -> Vec<f64> {
    let slope = |k: usize| match dlns {
        Some(d) => x[k] * d[k],
        None if x[k] > 0.0 => x[k] + g.beta[k],
        None => 0.0,
    };
    let groups = total.len();
    let mut top = vec![0.0_f64; groups];
    for (h, m) in per_host(g, |_, r| r.map(slope).fold(0.0, f64::max))
        .into_iter()
        .enumerate()
    {
        top[group(h)] = top[group(h)].max(m);
    }
    let mut sum = vec![0.0; groups];
    let top_ref = &top;
    for (h, s) in per_host(g, |h, r| {
        let m = top_ref[group(h)];
        r.map(|k| slope(k) / m).sum::<f64>()
    })
    .into_iter()
    .enumerate()
    {
        sum[group(h)] += s;
    }
    let per_slope: Vec<f64> = (0..groups)
        .map(|k| {
            let d = (target[k] - total[k]) / sum[k];
            if placed(k) || !(top[k] > 0.0 && d.is_finite()) {
                0.0
            } else {
                d
            }
        })
        .collect();
    let mut out = x.to_vec();
    for (k, v) in out.iter_mut().enumerate() {
        let j = group(g.host_of[k] as usize);
        if per_slope[j] != 0.0 {
            *v = (*v + slope(k) / top[j] * per_slope[j]).max(0.0);
        }
    }
    out
}

/// target_k/total_k per group (0 for a group with nothing to scale).
fn group_scales(total: &[f64], target: &[f64]) -> Vec<f64> {
    total
        .iter()
        .zip(target)
        .map(|(&t, &want)| if t > 0.0 { want / t } else { 0.0 })
        .collect()
}

/// A page near its cutoff has its x_i set by digits of λ that ln λ does
/// not resolve: evenly spaced, x_i = a_i/s_i with 1 − t_i ≈ (1 + s_i)e^{−s_i}
/// (at λ = w_i to every digit, any s_i ≳ 37 satisfies (8)); randomized,
/// x_i = β_i(√(w_i/λ) − 1) with β_i up to e^700, so one ulp of ln λ moves
/// x_i from 0 to far beyond any cap. A root find that stops there leaves
/// Σ x off its target; that residual belongs to the cutoff pages, not to
/// the whole group. For each group (`group(h)`: hosts sharing one
/// multiplier and one `target`), the pages within [`CUTOFF_WINDOW`] of
/// their multiplier with the smallest ln w_i (ties to 8 ulps) take what
/// the group's other pages leave of the target, x_i = u m_i with m_i = a_i
/// or β_i (equal t_i, as (8) and (15) ask of equal weights), when that is
/// ≥ 0. When the multiplier is within [`CUTOFF_ULPS`] of that ln w_i (λ =
/// w_i to every digit but for the search's rounding), the other pages are
/// first moved there ([`shifted`]). None when no group has a residual to
/// place.
fn cutoff_residuals(
    g: &Groups,
    (x, dlns): (&[f64], Option<&[f64]>),
    host_ln: &[f64],
    group: &(dyn Fn(usize) -> usize + Sync),
    (total, target): (&[f64], &[f64]),
) -> Option<CutoffResiduals> {
    let nearest = per_host(g, |h, r| {
        r.filter(|&k| near_cutoff(g.ln_w[k], host_ln[h]))
            .map(|k| g.ln_w[k])
            .fold(f64::INFINITY, f64::min)
    });
    let mut cut = vec![f64::INFINITY; total.len()];
    for (h, &v) in nearest.iter().enumerate() {
        cut[group(h)] = cut[group(h)].min(v);
    }
    let shift = (0..host_ln.len())
        .map(|h| {
            let (c, l) = (cut[group(h)], host_ln[h]);
            let d = c - l;
            if d.abs() <= CUTOFF_ULPS * f64::EPSILON * l.abs().max(1.0) {
                d
            } else {
                0.0
            }
        })
        .collect();
    let ties = CutoffResiduals {
        near_ln: host_ln.to_vec(),
        cut,
        shift,
        per_m: Vec::new(),
    };
    // Per host: Σ m_i over its ties and Σ x_i over its other pages.
    let tie_mass = per_host(g, |h, r| {
        r.fold((0.0, 0.0), |(sm, sx), k| {
            if ties.tie(g, group, h, k) {
                (sm + g.mass(k), sx)
            } else {
                (sm, sx + shifted(g, (x, dlns), k, ties.shift[h]))
            }
        })
    });
    let mut mass = vec![(0.0, 0.0); total.len()];
    for (h, &(sm, sx)) in tie_mass.iter().enumerate() {
        let e = &mut mass[group(h)];
        *e = (e.0 + sm, e.1 + sx);
    }
    // Per group: what its ties take per unit of m, when it applies.
    let per_m: Vec<f64> = (0..total.len())
        .map(|k| {
            let (sm, rest) = mass[k];
            let left = target[k] - rest;
            let off = (target[k] - total[k]).abs() > 1e-13 * target[k];
            if sm > 0.0 && off && left >= 0.0 {
                left / sm
            } else {
                f64::NAN
            }
        })
        .collect();
    if per_m.iter().all(|v| v.is_nan()) {
        return None;
    }
    Some(CutoffResiduals { per_m, ..ties })
}

/// Whether a page of ln w_i = `ln_w` is within [`CUTOFF_WINDOW`] of its
/// cutoff at ln λ = `l`.
fn near_cutoff(ln_w: f64, l: f64) -> bool {
    (ln_w - l).abs() <= CUTOFF_WINDOW * l.abs().max(1.0)
}

/// Most ulps of ln λ between a group's multiplier and its cutoff ln w_c
/// at which the other pages are moved to λ = w_c before the cutoff pages
/// take the residual (the root finds stop within 4).
const CUTOFF_ULPS: f64 = 16.0;

/// x_k at ln λ + `d` for a small d: evenly spaced to first order
/// (dx/d ln λ = −x d ln s/d ln t), randomized exactly on its curve
/// (x = β(√(w/λ) − 1)).
fn shifted(g: &Groups, (x, dlns): (&[f64], Option<&[f64]>), k: usize, d: f64) -> f64 {
    if d == 0.0 || x[k] == 0.0 {
        return x[k];
    }
    let moved = match dlns {
        Some(dl) => x[k] * (1.0 - dl[k] * d),
        None => x[k] + (x[k] + g.beta[k]) * (-0.5 * d).exp_m1(),
    };
    moved.max(0.0)
}

/// The residuals [`cutoff_residuals`] places: per group its cutoff ln w
/// (`cut`) and its ties' x_i per unit of m_i (`per_m`, NaN for none); per
/// host the move of its other pages (`shift`, in ln λ).
struct CutoffResiduals {
    near_ln: Vec<f64>,
    cut: Vec<f64>,
    shift: Vec<f64>,
    per_m: Vec<f64>,
}

impl CutoffResiduals {
    /// Whether position k (host h) is one of its group's cutoff pages.
    fn tie(&self, g: &Groups, group: &(dyn Fn(usize) -> usize + Sync), h: usize, k: usize) -> bool {
        let c = self.cut[group(h)];
        c.is_finite()
            && near_cutoff(g.ln_w[k], self.near_ln[h])
            && (g.ln_w[k] - c).abs() <= 8.0 * f64::EPSILON * c.abs().max(1.0)
    }

    /// x with each group's residual placed on its cutoff pages (its other
    /// pages moved by their host's shift).
    fn apply(
        &self,
        g: &Groups,
        (x, dlns): (&[f64], Option<&[f64]>),
        group: &(dyn Fn(usize) -> usize + Sync),
    ) -> Vec<f64> {
        let mut out = x.to_vec();
        for (k, xk) in out.iter_mut().enumerate() {
            let h = g.host_of[k] as usize;
            let u = self.per_m[group(h)];
            if u.is_nan() {
                continue;
            }
            *xk = if self.tie(g, group, h, k) {
                u * g.mass(k)
            } else {
                shifted(g, (x, dlns), k, self.shift[h])
            };
        }
        out
    }
}

/// Newton's step in ρ = λ^{−1/2} for S_h = κ from ln λ = `l` with host
/// h's sums there: ln λ − 2 ln(1 + (S − κ)/(2 dS/d ln λ)). In ρ the
/// randomized S_h is convex and piecewise linear (eq. 15: Σ β_i(ρ√w_i −
/// 1)⁺, so Newton from S > κ is monotone and exact once the active set
/// settles) and the evenly spaced one nearly so (x_i ≈ a_i ρ √(w_i/2)
/// while s_i is small). NaN for a step to ρ ≤ 0 (no logarithm).
fn rho_step(l: f64, s: HostSum, cap: f64) -> f64 {
    // Halved after the division: 2 dS/d ln λ may pass f64 (β_i ≈ e^700).
    l - 2.0 * (1.0 + 0.5 * ((s.sum - cap) / s.dsum)).ln()
}

/// Half-width in ln λ of the window in which [`HostModel`] evaluates an
/// evenly spaced page exactly: its x_i falls to 0 at its cutoff with
/// unbounded slope, which no smooth model of its host follows.
const STEEP: f64 = 1e-2;

/// T(ℓ) = Σ_h min(S_h(ℓ), κ_h) near ℓ₀, the ℓ of a pass: each host's
/// sum over its other pages ln-linear in ℓ from its sums at ℓ₀
/// (S e^{(ℓ − ℓ₀) dS/S}), its evenly spaced pages within [`STEEP`] of their
/// cutoff exactly. A cheap function of ℓ, so the kinks where hosts
/// saturate and the cutoffs cost no pass over the pages.
struct HostModel<'a> {
    ell0: f64,
    caps: &'a [f64],
    smooth: Vec<HostSum>,
    /// The steep pages' (host, ln w_i, a_i), in host order.
    steep: Vec<(usize, f64, f64)>,
}

impl<'a> HostModel<'a> {
    /// The model from a pass at `ell0` (`x`: the evenly spaced pages' x_i
    /// and d ln s_i/d ln t_i there, None for the randomized objective).
    fn new(
        g: &Groups,
        caps: &'a [f64],
        ell0: f64,
        sums: &[HostSum],
        x: Option<(&[f64], &[f64])>,
    ) -> Self {
        let mut smooth = sums.to_vec();
        let mut steep = Vec::new();
        if let Some((x, dlns)) = x {
            for (h, sm) in smooth.iter_mut().enumerate() {
                for k in g.pages(h) {
                    if (g.ln_w[k] - ell0).abs() < STEEP {
                        let one = even_sum(x, dlns, k..k + 1);
                        sm.sum -= one.sum;
                        sm.dsum -= one.dsum;
                        steep.push((h, g.ln_w[k], -g.log_h[k]));
                    }
                }
            }
        }
        HostModel {
            ell0,
            caps,
            smooth,
            steep,
        }
    }

    /// ln T(ℓ) and d ln T/dℓ.
    fn eval(&self, ell: f64) -> Result<(f64, f64)> {
        let d = ell - self.ell0;
        let (mut t, mut dt) = (0.0, 0.0);
        let mut j = 0;
        for (h, (s, &cap)) in self.smooth.iter().zip(self.caps).enumerate() {
            let mut acc = HostSum::default();
            // A sum past f64 (β_i near e^700) is over any cap.
            if s.sum == f64::INFINITY {
                acc.sum = f64::INFINITY;
            } else if s.sum > 0.0 {
                let slope = s.dsum / s.sum;
                // slope may be −∞ (a visited page of β_i ≫ its x_i).
                acc.sum = if d == 0.0 {
                    s.sum
                } else {
                    s.sum * (slope * d).exp()
                };
                acc.dsum = acc.sum * slope;
            }
            while let Some(&(hj, ln_w, a)) = self.steep.get(j)
                && hj == h
            {
                j += 1;
                let ln_t = ell - ln_w;
                if ln_t < 0.0 {
                    let s = invert_g(ln_t, ln_p_of(ln_t))?;
                    if s.is_finite() {
                        let x = x_of(a, s, ln_t);
                        acc.sum += x;
                        acc.dsum -= x * even_dlns(s, ln_t);
                    }
                }
            }
            if acc.sum >= cap {
                t += cap;
            } else {
                t += acc.sum;
                dt += acc.dsum;
            }
        }
        Ok((t.ln(), dt / t))
    }

    /// The root in [lo, hi] (an end when there is none) of the model
    /// shifted to ln T = `v` at ℓ₀ (the pass's own value: the steep pages'
    /// roots there may differ from the pass's in the last digits).
    fn root(&self, v: f64, (lo, hi): (f64, f64)) -> Result<f64> {
        let shift = v - self.eval(self.ell0)?.0;
        let start = self.ell0.clamp(lo, hi);
        let f = |l| self.eval(l).map(|(m, d)| (m + shift, d));
        newton_bisect(f, lo, hi, start, false, 1e-15, 1e-16, MAX_PASSES)
    }
}

/// Host sums of the randomized pages at positions `r` at ln λ = `ln_l`.
fn randomized_sum(g: &Groups, ln_l: f64, r: Range<usize>) -> HostSum {
    let mut acc = HostSum::default();
    for k in r {
        let ln_t = ln_l - g.ln_w[k];
        if ln_t < 0.0 {
            let (x, dx) = randomized_page(g.beta[k], ln_t);
            acc.sum += x;
            acc.dsum += dx;
        }
    }
    acc
}

/// Page point at ln t = ln(λ/w_i): visited while ln t < 0 (NaN, a
/// skipped host, compares false).
fn page_point(ln_t: f64) -> Option<PagePoint> {
    (ln_t < 0.0).then(|| PagePoint {
        ln_t,
        ln_p: ln_p_of(ln_t),
    })
}

/// Host sums of the evenly spaced pages at positions `r` from their x_i
/// and d ln s_i/d ln t_i (dx_i/d ln λ = −x_i d ln s_i/d ln t_i).
fn even_sum(x: &[f64], dlns: &[f64], r: Range<usize>) -> HostSum {
    let mut acc = HostSum::default();
    for k in r {
        acc.sum += x[k];
        acc.dsum -= x[k] * dlns[k];
    }
    acc
}

/// d ln s/d ln t = t e^s/s² on G(s) = t (G′(s) = s e^{−s}), with
/// e^s = (1 + s)/(1 − t) once e^s would overflow.
fn even_dlns(s: f64, ln_t: f64) -> f64 {
    if s < 700.0 {
        (ln_t + s - 2.0 * s.ln()).exp()
    } else {
        (1.0 + s) / (s * s) * (ln_t - ln_p_of(ln_t)).exp()
    }
}

/// Eq. (15) for one page of β_i = `b` at ln t = ln(λ/w_i) < 0: x =
/// β(√(w/λ) − 1) and dx/d ln λ = −β√(w/λ)/2 = −(x + β)/2.
fn randomized_page(b: f64, ln_t: f64) -> (f64, f64) {
    let x = b * (-0.5 * ln_t).exp_m1();
    (x, -0.5 * (x + b))
}

/// Σ c_i r_i at `f` (which may sum to less than 1 in slack mode): the
/// Theorem 3.3 rate r_i = [(q_i − a_i) + a_i ψ(a_i/f_i)]/q_i, or Lemma
/// 4.1's r_i = 1 − (f/q)·b/(b + f h) written as
/// [q b (1 − f) + f (q − b)]/(q (b + f h)); f_i = 0 gives r_i = 1.
/// Summed in [`par::fold_chunks`]' chunks (`f` is only read).
fn plan_objective(model: &Model, objective: PoliteObjective, f: &mut [f64]) -> f64 {
    let (e, mu, c, log_h) = (
        model.mean_access(),
        model.change_rates(),
        model.weights(),
        model.log_h(),
    );
    let one_minus_h = match objective {
        PoliteObjective::Randomized => model.one_minus_h(),
        PoliteObjective::EvenlySpaced => &[],
    };
    let rate = |i: usize, x: f64| {
        let (q, a) = (mu[i] * e, -log_h[i]);
        if x <= 0.0 {
            return 1.0;
        }
        let r = match objective {
            PoliteObjective::EvenlySpaced => (jensen_gap(q, a) + a * psi(a / x)) / q,
            PoliteObjective::Randomized => {
                let b = one_minus_h[i];
                let h = if b < 0.5 { 1.0 - b } else { (-a).exp() };
                let q_minus_b = jensen_gap(q, a) + (a - b).max(0.0);
                (q * b * (1.0 - x) + x * q_minus_b) / (q * (b + x * h))
            }
        };
        r.clamp(0.0, 1.0)
    };
    par::fold_chunks(
        [f],
        0.0,
        |pages, [x]| pages.zip(x.iter()).map(|(i, &xi)| c[i] * rate(i, xi)).sum(),
        |a, b| a + b,
    )
}
