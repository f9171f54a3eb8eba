use crate::dist::Distribution;
use crate::error::Error;
use crate::freshness::polite::*;
use crate::freshness::shard::{Shard, solve_shards};
use crate::freshness::{Model, frequencies, randomized};
use crate::limits::Control;
use crate::numeric::tolerance::rel;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const BOTH: [PoliteObjective; 2] = [PoliteObjective::EvenlySpaced, PoliteObjective::Randomized];

fn log_uniform<R: rand::Rng>(rng: &mut R, lo: f64, hi: f64) -> f64 {
    10f64.powf(rng.random_range(lo.log10()..hi.log10()))
}

fn plan(m: &Model, hosts: &[u32], rates: &[f64], obj: PoliteObjective) -> PolitePlan {
    polite_frequencies(m, hosts, rates, obj, &PoliteOptions::default()).unwrap()
}

/// The unconstrained optimum of the objective, from its own solver.
fn unconstrained(m: &Model, obj: PoliteObjective) -> Vec<f64> {
    match obj {
        PoliteObjective::EvenlySpaced => frequencies::optimal_frequencies_general(m).unwrap(),
        PoliteObjective::Randomized => randomized::optimal_frequencies_general(m).unwrap(),
    }
}

/// The objective at `f` (Σ f = 1) from the library's own cost functions.
fn cost(m: &Model, obj: PoliteObjective, f: &[f64]) -> f64 {
    match obj {
        PoliteObjective::EvenlySpaced => frequencies::cost(m, f).unwrap(),
        PoliteObjective::Randomized => randomized::cost(m, f).unwrap(),
    }
}

fn host_sums(hosts: &[u32], h_count: usize, f: &[f64]) -> Vec<f64> {
    let mut s = vec![0.0; h_count];
    for (&h, &x) in hosts.iter().zip(f) {
        s[h as usize] += x;
    }
    s
}

fn random_instance(seed: u64, n: usize, h_count: u32) -> (Vec<f64>, Vec<f64>, Vec<u32>) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mu = (0..n).map(|_| log_uniform(&mut rng, 1e-3, 10.0)).collect();
    let c = (0..n).map(|_| log_uniform(&mut rng, 0.1, 10.0)).collect();
    // Every host gets a page, the rest at random.
    let hosts = (0..n)
        .map(|i| {
            if i < h_count as usize {
                i as u32
            } else {
                rng.random_range(0..h_count)
            }
        })
        .collect();
    (mu, c, hosts)
}

/// Caps that no host reaches (some +∞, some twice the unconstrained
/// host rate) leave the unconstrained optimum of both objectives, to
/// 1e−12; the evenly spaced multiplier is the shard solve's.
#[test]
fn loose_caps_give_the_unconstrained_plan() {
    let (mu, c, hosts) = random_instance(3, 600, 9);
    let d = Distribution::exponential(600.0 / 5.0).unwrap();
    let m = Model::new(d.clone(), &mu, Some(&c)).unwrap();
    for obj in BOTH {
        let free = unconstrained(&m, obj);
        assert!(free.contains(&0.0), "some pages unvisited");
        let sums = host_sums(&hosts, 9, &free);
        let rates: Vec<f64> = sums
            .iter()
            .enumerate()
            .map(|(h, s)| {
                if h % 3 == 0 {
                    f64::INFINITY
                } else {
                    (2.0 * s + 1e-3) / d.mean()
                }
            })
            .collect();
        let p = plan(&m, &hosts, &rates, obj);
        assert!(p.saturated.iter().all(|s| !s));
        assert!(p.ln_host_multipliers.iter().all(|&l| l == p.ln_multiplier));
        for (i, (&a, &b)) in p.frequencies.iter().zip(&free).enumerate() {
            assert_eq!(a == 0.0, b == 0.0, "page {i}: {a} vs {b}");
            assert!(
                rel(a, b) < 1e-12 || b == 0.0,
                "{obj:?} page {i}: {a} vs {b}"
            );
        }
        assert!(rel(p.objective, cost(&m, obj, &free)) < 1e-12);
        if obj == PoliteObjective::EvenlySpaced {
            let ln_l = solve_shards(&[Shard::new(&m).unwrap()]).unwrap();
            assert!(
                (p.ln_multiplier - ln_l).abs() < 1e-12,
                "{} {ln_l}",
                p.ln_multiplier
            );
        }
    }
}

/// One host holding every page with a cap above the robot's rate: the
/// unconstrained plan.
#[test]
fn one_host_with_a_loose_cap_is_unconstrained() {
    let m = Model::new(
        Distribution::gamma(0.5, 0.5).unwrap(),
        &[0.05, 0.5, 1.5, 4.0],
        Some(&[0.2, 2.0, 0.4, 1.0]),
    )
    .unwrap();
    let rate = 1.5 / m.mean_access();
    for obj in BOTH {
        let p = plan(&m, &[0; 4], &[rate], obj);
        assert_eq!(p.saturated, vec![false]);
        for (a, b) in p.frequencies.iter().zip(unconstrained(&m, obj)) {
            assert!(rel(*a, b) < 1e-12, "{a} vs {b}");
        }
    }
}

/// Host h's own optimum with budget κ (Σ x_i = κ over its pages alone),
/// written independently: evenly spaced with deterministic X, x_i = a_i/s_i
/// depends on the budget only through a_i/κ, so it is κ times the
/// unconstrained optimum with E[X]/κ (w_i unchanged with c_i/κ);
/// randomized, eq. (15) with ρ = λ^{−1/2} fixed by the active set P,
/// ρ = (κ + Σ_P β_i)/Σ_P β_i √w_i, P shrunk until stable.
fn own_optimum(obj: PoliteObjective, e: f64, mu: &[f64], c: &[f64], kappa: f64) -> Vec<f64> {
    match obj {
        PoliteObjective::EvenlySpaced => {
            let ck: Vec<f64> = c.iter().map(|x| x / kappa).collect();
            let d = Distribution::deterministic(e / kappa).unwrap();
            let f = unconstrained(&Model::new(d, mu, Some(&ck)).unwrap(), obj);
            f.iter().map(|x| x * kappa).collect()
        }
        PoliteObjective::Randomized => {
            let beta: Vec<f64> = mu.iter().map(|m| (m * e).exp() - 1.0).collect();
            let sw: Vec<f64> = (0..mu.len()).map(|i| (c[i] / (mu[i] * e)).sqrt()).collect();
            let mut active = vec![true; mu.len()];
            loop {
                let b: f64 = (0..mu.len()).filter(|&i| active[i]).map(|i| beta[i]).sum();
                let bs: f64 = (0..mu.len())
                    .filter(|&i| active[i])
                    .map(|i| beta[i] * sw[i])
                    .sum();
                let rho = (kappa + b) / bs;
                let next: Vec<bool> = sw.iter().map(|s| rho * s > 1.0).collect();
                if next == active {
                    return (0..mu.len())
                        .map(|i| {
                            if active[i] {
                                beta[i] * (rho * sw[i] - 1.0)
                            } else {
                                0.0
                            }
                        })
                        .collect();
                }
                active = next;
            }
        }
    }
}

/// Caps summing to exactly the robot's rate saturate every host: host h's
/// pages sum to κ_h = b_h E[X] and are that host's own optimum with budget
/// κ_h. The same in slack mode with caps summing to less, where the global
/// multiplier is 0.
#[test]
fn every_host_saturated_takes_its_own_optimum() {
    let (mu, c, hosts) = random_instance(5, 40, 3);
    let e = 0.25;
    let m = Model::new(Distribution::deterministic(e).unwrap(), &mu, Some(&c)).unwrap();
    for (shares, slack) in [([0.5, 0.3, 0.2], false), ([0.3, 0.2, 0.1], true)] {
        let rates: Vec<f64> = shares.iter().map(|s| s / e).collect();
        let opts = PoliteOptions {
            allow_slack: slack,
            ..PoliteOptions::default()
        };
        for obj in BOTH {
            let p = polite_frequencies(&m, &hosts, &rates, obj, &opts).unwrap();
            let sums = host_sums(&hosts, 3, &p.frequencies);
            for h in 0..3 {
                assert!(
                    rel(sums[h], shares[h]) < 1e-12,
                    "{obj:?} host {h}: {}",
                    sums[h]
                );
                let pages: Vec<usize> = (0..40).filter(|&i| hosts[i] == h as u32).collect();
                let sub_mu: Vec<f64> = pages.iter().map(|&i| mu[i]).collect();
                let sub_c: Vec<f64> = pages.iter().map(|&i| c[i]).collect();
                let own = own_optimum(obj, e, &sub_mu, &sub_c, shares[h]);
                for (k, &i) in pages.iter().enumerate() {
                    let x = p.frequencies[i];
                    assert!(
                        (x - own[k]).abs() < 1e-12 * shares[h],
                        "{obj:?} page {i}: {x} vs {}",
                        own[k]
                    );
                }
            }
            if slack {
                assert!(p.saturated.iter().all(|&s| s));
                assert_eq!(p.ln_multiplier, f64::NEG_INFINITY);
                assert!(rel(p.crawl_rate, 0.6 / e) < 1e-15);
            } else {
                assert!(rel(p.objective, cost(&m, obj, &p.frequencies)) < 1e-10);
            }
        }
    }
}

#[test]
fn caps_below_the_robot_rate_are_infeasible_with_the_shortfall() {
    let m = Model::new(
        Distribution::exponential(2.0).unwrap(),
        &[1.0, 2.0, 3.0],
        None,
    )
    .unwrap();
    // R = 2; the hosts take 0.5 + 1 = 1.5.
    let err = polite_frequencies(
        &m,
        &[0, 1, 1],
        &[0.5, 1.0],
        PoliteObjective::EvenlySpaced,
        &PoliteOptions::default(),
    )
    .unwrap_err();
    let Error::Infeasible(msg) = err else {
        panic!("{err}")
    };
    assert!(
        msg.contains("short of") && msg.contains("by 0.5") && msg.contains("share of 0.25"),
        "{msg}"
    );
}

/// Bad inputs, each named.
#[test]
fn bad_inputs_are_refused() {
    let m = Model::new(
        Distribution::exponential(1.0).unwrap(),
        &[1.0, 2.0, 3.0],
        None,
    )
    .unwrap();
    let opts = PoliteOptions::default();
    let run = |hosts: &[u32], rates: &[f64]| {
        polite_frequencies(&m, hosts, rates, PoliteObjective::EvenlySpaced, &opts)
            .unwrap_err()
            .to_string()
    };
    assert!(run(&[0, 0], &[1.0]).contains("hosts"));
    assert!(run(&[0, 0, 0], &[]).contains("max_rates"));
    for bad in [f64::NAN, 0.0, -1.0, f64::NEG_INFINITY] {
        assert!(run(&[0, 0, 1], &[1.0, bad]).contains("max_rates[1] must be > 0"));
    }
    assert!(run(&[0, 2, 1], &[1.0, 1.0]).contains("hosts[1] = 2 is out of range"));
    assert!(run(&[0, 2, 2], &[1.0, 1.0, 1.0]).contains("host 1 has no pages"));
    let ctl = Control::new();
    ctl.set_memory_limit(Some(100));
    let small = PoliteOptions {
        control: ctl,
        ..PoliteOptions::default()
    };
    let err = polite_frequencies(&m, &[0, 0, 0], &[1.0], PoliteObjective::Randomized, &small);
    assert!(matches!(err, Err(Error::TooLarge(_))), "{err:?}");
    let ctl = Control::new();
    ctl.cancel();
    let cancelled = PoliteOptions {
        control: ctl,
        ..PoliteOptions::default()
    };
    let err = polite_frequencies(
        &m,
        &[0, 0, 0],
        &[1.0],
        PoliteObjective::Randomized,
        &cancelled,
    );
    assert!(matches!(err, Err(Error::Cancelled(_))), "{err:?}");
}

/// −C_i′(x) of page i, written from the paper's objective: the bracket of
/// (8), w(1 − y + y ln y) with y = h^{1/x}, or the derivative (13),
/// w[1 − (2h(1 − h)x + h²x²)/(1 − h + hx)²].
fn marginal(obj: PoliteObjective, w: f64, h: f64, x: f64) -> f64 {
    match obj {
        PoliteObjective::EvenlySpaced => {
            let y = h.powf(1.0 / x);
            if y == 0.0 {
                return w;
            }
            w * (1.0 - y + y * y.ln())
        }
        PoliteObjective::Randomized => {
            let d = 1.0 - h + h * x;
            w * (1.0 - (2.0 * h * (1.0 - h) * x + h * h * x * x) / (d * d))
        }
    }
}

/// Bisection for an increasing `f` on [lo, hi], 200 halvings.
fn bisect(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < 0.0 { lo = mid } else { hi = mid }
    }
    0.5 * (lo + hi)
}

/// Page frequencies at multiplier λ by bisection on −C′(x) = λ (0 when
/// −C′(0+) ≤ λ).
fn page_at(obj: PoliteObjective, w: f64, h: f64, lambda: f64) -> f64 {
    // −C′(0+) = w for both objectives.
    if w <= lambda {
        return 0.0;
    }
    // −C′ falls as x grows.
    bisect(|lx| lambda - marginal(obj, w, h, lx.exp()), -700.0, 700.0).exp()
}

/// The constrained optimum by nested bisection: the global λ with
/// Σ_h min(S_h(λ), κ_h) = 1, then each host with S_h(λ) > κ_h at its root
/// λ_h of S_h = κ_h.
fn nested_reference(
    obj: PoliteObjective,
    w: &[f64],
    h: &[f64],
    hosts: &[u32],
    caps: &[f64],
) -> Vec<f64> {
    let host_sum = |host: usize, l: f64| -> f64 {
        (0..w.len())
            .filter(|&i| hosts[i] as usize == host)
            .map(|i| page_at(obj, w[i], h[i], l))
            .sum()
    };
    let total = |l: f64| {
        (0..caps.len())
            .map(|k| host_sum(k, l).min(caps[k]))
            .sum::<f64>()
    };
    let ln_l = bisect(|ll| 1.0 - total(ll.exp()), -60.0, 60.0);
    let lambda = ln_l.exp();
    let mut f = vec![0.0; w.len()];
    for (k, &cap) in caps.iter().enumerate() {
        let lk = if host_sum(k, lambda) > cap {
            bisect(|ll| cap - host_sum(k, ll.exp()), ln_l, 60.0).exp()
        } else {
            lambda
        };
        for i in (0..w.len()).filter(|&i| hosts[i] as usize == k) {
            f[i] = page_at(obj, w[i], h[i], lk);
        }
    }
    f
}

/// Small instances (2–3 hosts, 2–4 pages, three crawl-time laws, caps
/// binding or not): the plan equals the nested-bisection reference, meets
/// every KKT condition (stationarity at λ_h ≥ λ, cutoffs, caps,
/// complementary slackness), and no feasible move of mass between two
/// pages lowers the objective.
#[test]
fn small_instances_meet_kkt_and_match_a_nested_bisection() {
    // (X, change rates, weights, hosts, caps as shares of the accesses)
    type Case = (Distribution, Vec<f64>, Vec<f64>, Vec<u32>, Vec<f64>);
    let cases: Vec<Case> = vec![
        (
            Distribution::exponential(1.0).unwrap(),
            vec![0.3, 2.0, 1.0],
            vec![1.0, 0.7, 3.0],
            vec![0, 1, 1],
            vec![0.9, 0.3],
        ),
        (
            Distribution::deterministic(1.0).unwrap(),
            vec![0.2, 1.0, 5.0, 0.5],
            vec![3.0, 1.0, 0.5, 2.0],
            vec![0, 0, 1, 2],
            vec![0.35, f64::INFINITY, 0.4],
        ),
        (
            Distribution::gamma(0.5, 0.5).unwrap(),
            vec![0.05, 0.5, 1.5, 3.0],
            vec![0.2, 2.0, 0.4, 0.05],
            vec![1, 0, 0, 1],
            vec![0.5, 0.6],
        ),
        (
            Distribution::exponential(1.0).unwrap(),
            vec![1.0, 1.0, 1.0],
            vec![1.0, 1.0, 0.02],
            vec![0, 0, 1],
            vec![0.5, 0.7],
        ),
    ];
    for (d, mu, c, hosts, caps) in cases {
        let e = d.mean();
        let m = Model::new(d.clone(), &mu, Some(&c)).unwrap();
        let rates: Vec<f64> = caps.iter().map(|k| k / e).collect();
        let w: Vec<f64> = (0..mu.len()).map(|i| c[i] / (mu[i] * e)).collect();
        let h: Vec<f64> = mu.iter().map(|&x| d.laplace(x).unwrap()).collect();
        for obj in BOTH {
            let p = plan(&m, &hosts, &rates, obj);
            let f = &p.frequencies;
            let reference = nested_reference(obj, &w, &h, &hosts, &caps);
            for (a, b) in f.iter().zip(&reference) {
                assert!((a - b).abs() < 1e-9, "{obj:?}: {f:?} vs {reference:?}");
            }
            let lambda = p.ln_multiplier.exp();
            let sums = host_sums(&hosts, caps.len(), f);
            for k in 0..caps.len() {
                let lk = p.ln_host_multipliers[k].exp();
                assert!(lk >= lambda * (1.0 - 1e-12));
                if p.saturated[k] {
                    assert!(rel(sums[k], caps[k]) < 1e-12);
                } else {
                    assert!(sums[k] <= caps[k] * (1.0 + 1e-12) && rel(lk, lambda) < 1e-12);
                }
            }
            for i in 0..mu.len() {
                let lk = p.ln_host_multipliers[hosts[i] as usize].exp();
                if f[i] > 0.0 {
                    assert!(
                        rel(marginal(obj, w[i], h[i], f[i]), lk) < 1e-9,
                        "{obj:?} page {i}"
                    );
                } else {
                    assert!(w[i] <= lk * (1.0 + 1e-12));
                }
            }
            let best = cost(&m, obj, f);
            assert!(rel(p.objective, best) < 1e-12);
            for i in 0..mu.len() {
                for j in 0..mu.len() {
                    let delta = 1e-4_f64.min(f[j]);
                    let (hi_, hj) = (hosts[i] as usize, hosts[j] as usize);
                    if i == j || delta == 0.0 || (hi_ != hj && sums[hi_] + delta > caps[hi_]) {
                        continue;
                    }
                    let mut g = f.clone();
                    g[i] += delta;
                    g[j] -= delta;
                    assert!(cost(&m, obj, &g) >= best - 1e-14, "{obj:?} move {j} -> {i}");
                }
            }
        }
    }
}

/// Host sums are added on one thread each: any thread count gives the
/// same bits.
#[test]
fn thread_count_does_not_change_the_plan() {
    use crate::freshness::par::FORCE_THREADS;
    use std::sync::atomic::Ordering;
    let (mu, c, hosts) = random_instance(9, 30_000, 500);
    let d = Distribution::exponential(30_000.0 / 5.0).unwrap();
    let m = Model::new(d.clone(), &mu, Some(&c)).unwrap();
    // Each host may take 1.1/500 of the accesses: some saturate.
    let rates = vec![1.1 / 500.0 / d.mean(); 500];
    for obj in BOTH {
        FORCE_THREADS.store(1, Ordering::Relaxed);
        let one = plan(&m, &hosts, &rates, obj);
        FORCE_THREADS.store(3, Ordering::Relaxed);
        let three = plan(&m, &hosts, &rates, obj);
        FORCE_THREADS.store(0, Ordering::Relaxed);
        assert!(one.saturated.iter().any(|&s| s) && one.saturated.iter().any(|&s| !s));
        assert_eq!(one, three);
        let total: f64 = one.frequencies.iter().sum();
        assert!((total - 1.0).abs() < 1e-13, "{total}");
    }
}

/// A plan large enough for the threaded passes and the sampled start of
/// the global search (70 000 pages over 300 hosts, some saturated;
/// the tests' sample is 4096 pages) against the nested conditions page
/// by page:
/// every f_i is the bisection root of −C′(f_i) = λ_h at its host's
/// multiplier, saturated hosts sum to their cap with λ_h ≥ λ, the others
/// stay within it at λ_h = λ, and Σ_h min(S_h(λ), κ_h) = 1 at the plan's
/// λ with S_h from the bisection roots (which fixes λ: T is monotone).
#[test]
fn a_threaded_plan_matches_the_nested_conditions_page_by_page() {
    let (n, hosts_n) = (70_000, 300u32);
    let (mu, c, hosts) = random_instance(21, n, hosts_n);
    let d = Distribution::exponential(n as f64 / 5.0).unwrap();
    let e = d.mean();
    let m = Model::new(d.clone(), &mu, Some(&c)).unwrap();
    let caps = vec![1.3 / f64::from(hosts_n); hosts_n as usize];
    let rates: Vec<f64> = caps.iter().map(|k| k / e).collect();
    let w: Vec<f64> = (0..n).map(|i| c[i] / (mu[i] * e)).collect();
    let h: Vec<f64> = mu.iter().map(|&x| d.laplace(x).unwrap()).collect();
    for obj in BOTH {
        let p = plan(&m, &hosts, &rates, obj);
        assert!(p.saturated.iter().any(|&s| s) && p.saturated.iter().any(|&s| !s));
        let lambda = p.ln_multiplier.exp();
        let sums = host_sums(&hosts, caps.len(), &p.frequencies);
        let mut at_lambda = vec![0.0; caps.len()];
        for i in 0..n {
            let k = hosts[i] as usize;
            let lk = p.ln_host_multipliers[k].exp();
            let reference = page_at(obj, w[i], h[i], lk);
            let f = p.frequencies[i];
            assert!(
                (f - reference).abs() <= 1e-9 * reference.max(1.0 / n as f64),
                "{obj:?} page {i}: {f} vs {reference}"
            );
            at_lambda[k] += page_at(obj, w[i], h[i], lambda);
        }
        for k in 0..caps.len() {
            let lk = p.ln_host_multipliers[k].exp();
            if p.saturated[k] {
                assert!(rel(sums[k], caps[k]) < 1e-12 && lk >= lambda * (1.0 - 1e-12));
                assert!(at_lambda[k] > caps[k] * (1.0 - 1e-9));
            } else {
                assert!(sums[k] <= caps[k] * (1.0 + 1e-12) && rel(lk, lambda) < 1e-12);
            }
        }
        let t: f64 = (0..caps.len()).map(|k| at_lambda[k].min(caps[k])).sum();
        assert!((t - 1.0).abs() < 1e-9, "{obj:?}: T(λ) = {t}");
    }
}

/// Hosts just below the size the sampled start keeps whole (135 pages
/// with the tests' sample stride 17): the sample would hold nearly every
/// page, so the search starts without it; the plan still sums to 1 with
/// the saturated hosts at their caps and the others within them.
#[test]
fn hosts_the_sample_would_keep_whole_plan_without_it() {
    let n = 70_000;
    let (mu, c, _) = random_instance(22, n, 1);
    let hosts: Vec<u32> = (0..n).map(|i| (i / 135) as u32).collect();
    let h_count = n.div_ceil(135);
    let d = Distribution::exponential(n as f64 / 5.0).unwrap();
    let m = Model::new(d.clone(), &mu, Some(&c)).unwrap();
    let caps = vec![1.3 / h_count as f64; h_count];
    let rates: Vec<f64> = caps.iter().map(|k| k / d.mean()).collect();
    for obj in BOTH {
        let p = plan(&m, &hosts, &rates, obj);
        let total: f64 = p.frequencies.iter().sum();
        assert!((total - 1.0).abs() < 1e-13, "{obj:?}: {total}");
        let sums = host_sums(&hosts, h_count, &p.frequencies);
        assert!(p.saturated.iter().any(|&s| s) && p.saturated.iter().any(|&s| !s));
        for k in 0..h_count {
            if p.saturated[k] {
                assert!(rel(sums[k], caps[k]) < 1e-12);
            } else {
                assert!(sums[k] <= caps[k] * (1.0 + 1e-12));
            }
        }
    }
}

/// Water-filling over hosts of masses `mass` (Σ = what one unit of level
/// gives each host): the hosts over their caps at their caps, the others
/// at one level sharing the rest. (saturated, level ≥ 0).
fn water_fill(mass: &[f64], caps: &[f64]) -> (Vec<bool>, f64) {
    let mut sat = vec![false; mass.len()];
    loop {
        let free_cap = 1.0
            - (0..mass.len())
                .filter(|&h| sat[h])
                .map(|h| caps[h])
                .sum::<f64>();
        let free: f64 = (0..mass.len()).filter(|&h| !sat[h]).map(|h| mass[h]).sum();
        let level = free_cap / free;
        let over: Vec<usize> = (0..mass.len())
            .filter(|&h| !sat[h] && mass[h] * level > caps[h])
            .collect();
        if over.is_empty() || free_cap <= 0.0 {
            return (sat, level.max(0.0));
        }
        over.into_iter().for_each(|h| sat[h] = true);
    }
}

/// c = μ with a robot far too slow for the pages (s_i = Σ a ≫ 37, so λ
/// equals every w_i to the last digit): the exact optimum is water-filling
/// over hosts with x_i ∝ a_i = −ln h_i inside each group, a host over
/// its cap holding exactly κ_h. Checked for 10 and 1000 hosts, with and
/// without slack.
#[test]
fn pages_all_at_their_cutoff_keep_every_cap() {
    for (n, hosts_n, factors) in [
        (1000usize, 10usize, [2.0, 1.0, 0.67]),
        (20_000, 1000, [2.0, 1.0, 0.67]),
        (1000, 10, [0.5, 0.9, 0.67]),
    ] {
        let mu: Vec<f64> = (0..n).map(|i| 0.1 * (i + 1) as f64).collect();
        let m = Model::new(Distribution::exponential(1.0).unwrap(), &mu, None).unwrap();
        let a: Vec<f64> = mu.iter().map(|&u| (1.0 + u).ln()).collect();
        let hosts: Vec<u32> = (0..n).map(|i| (i % hosts_n) as u32).collect();
        let a_host = host_sums(&hosts, hosts_n, &a);
        let a_total: f64 = a.iter().sum();
        // κ_h = factor × the host's unconstrained share (E[X] = 1: b_h = κ_h).
        let caps: Vec<f64> = (0..hosts_n)
            .map(|h| factors[h % 3] * a_host[h] / a_total)
            .collect();
        // Reference: water-filling over hosts.
        let (sat, scale_free) = water_fill(&a_host, &caps);
        let slack = caps.iter().sum::<f64>() < 1.0;
        for obj in BOTH {
            let opts = PoliteOptions {
                allow_slack: true,
                ..PoliteOptions::default()
            };
            let p = polite_frequencies(&m, &hosts, &caps, obj, &opts).unwrap();
            let sums = host_sums(&hosts, hosts_n, &p.frequencies);
            for h in 0..hosts_n {
                assert!(
                    sums[h] <= caps[h] * (1.0 + 1e-12),
                    "n {n} host {h}: {} over its cap {}",
                    sums[h],
                    caps[h]
                );
            }
            let total: f64 = p.frequencies.iter().sum();
            let want_total = if slack { caps.iter().sum() } else { 1.0 };
            assert!(rel(total, want_total) < 1e-12, "n {n}: Σ f = {total}");
            if obj == PoliteObjective::Randomized {
                continue;
            }
            for (i, &h) in hosts.iter().enumerate() {
                let h = h as usize;
                let want = if sat[h] {
                    caps[h] * a[i] / a_host[h]
                } else {
                    scale_free * a[i]
                };
                assert!(
                    rel(p.frequencies[i], want) < 1e-9,
                    "n {n} page {i} host {h} (saturated {}): {} vs {want}",
                    sat[h],
                    p.frequencies[i]
                );
                assert_eq!(p.saturated[h], sat[h] || slack, "n {n} host {h}");
            }
        }
    }
}

/// `seed`, or `HUNT_SEED` from the environment (a longer hunt).
fn hunt_seed(seed: u64) -> u64 {
    std::env::var("HUNT_SEED").map_or(seed, |s| s.parse().unwrap())
}

/// Pages 0..hn on hosts 0..hn (every host gets a page), the rest at random.
fn random_hosts<R: rand::Rng>(rng: &mut R, n: usize, hn: usize) -> Vec<u32> {
    (0..n)
        .map(|i| {
            if i < hn {
                i as u32
            } else {
                rng.random_range(0..hn as u32)
            }
        })
        .collect()
}

/// One random crawl-time law of mean `e`: deterministic, exponential,
/// Erlang, hyperexponential or empirical.
fn random_law<R: rand::Rng>(rng: &mut R, e: f64) -> Distribution {
    match rng.random_range(0..5) {
        0 => Distribution::deterministic(e).unwrap(),
        1 => Distribution::exponential(1.0 / e).unwrap(),
        2 => Distribution::erlang(3, 3.0 / e).unwrap(),
        3 => Distribution::hyperexponential(vec![0.9, 0.1], vec![1.8 / e, 0.1 / e]).unwrap(),
        _ => Distribution::empirical(vec![0.0, 0.5 * e, 2.5 * e]).unwrap(),
    }
}

/// The plan's invariants on any instance: f finite and ≥ 0, Σ f = 1 (Σ κ_h
/// in slack mode) to 1e−12, every host within its cap, a saturated host
/// at its cap, the multipliers ordered (λ_h ≥ λ, equal when unsaturated).
fn check_invariants(tag: &str, p: &PolitePlan, hosts: &[u32], caps: &[f64]) {
    let f = &p.frequencies;
    assert!(f.iter().all(|x| x.is_finite() && *x >= 0.0), "{tag}: {f:?}");
    let total_cap: f64 = caps.iter().sum();
    let want = if total_cap < 1.0 - 1e-13 {
        total_cap
    } else {
        1.0
    };
    let total: f64 = f.iter().sum();
    assert!(
        (total - want).abs() <= 1e-12 * want,
        "{tag}: Σ f = {total} vs {want}"
    );
    let sums = host_sums(hosts, caps.len(), f);
    for h in 0..caps.len() {
        assert!(
            sums[h] <= caps[h] * (1.0 + 1e-12),
            "{tag}: host {h} {} > {}",
            sums[h],
            caps[h]
        );
        if p.saturated[h] {
            assert!(
                rel(sums[h], caps[h]) <= 1e-12,
                "{tag}: saturated host {h} {} vs {}",
                sums[h],
                caps[h]
            );
            assert!(
                p.ln_host_multipliers[h] >= p.ln_multiplier,
                "{tag}: host {h}"
            );
        } else {
            assert_eq!(p.ln_host_multipliers[h], p.ln_multiplier, "{tag}: host {h}");
        }
    }
}

/// The cutoff side of the KKT conditions, robust to any scale: a visited
/// page has w_i ≥ λ_h (to 1e−7 in ln), and a randomized page with w_i
/// above λ_h has f_i = β_i(√(w_i/λ_h) − 1) (eq. 15), so 0 only when that
/// is negligible against its host's cap or sum.
fn check_cutoffs(tag: &str, p: &PolitePlan, m: &Model, hosts: &[u32], obj: PoliteObjective) {
    let e = m.mean_access();
    let sums = host_sums(hosts, p.saturated.len(), &p.frequencies);
    for (i, &f) in p.frequencies.iter().enumerate() {
        let h = hosts[i] as usize;
        let l = p.ln_host_multipliers[h];
        let ln_w = (m.weights()[i] / (m.change_rates()[i] * e)).ln();
        let tol = 1e-7 * l.abs().max(1.0);
        if f > 0.0 {
            assert!(ln_w >= l - tol, "{tag}: page {i} visited beyond its cutoff");
        } else if obj == PoliteObjective::Randomized && ln_w > l + tol {
            let beta = (-m.log_h()[i]).min(700.0).exp_m1();
            let x = beta * (0.5 * (ln_w - l)).exp_m1();
            assert!(
                x <= 1e-9 * sums[h],
                "{tag}: page {i} unvisited, x = {x} at λ_h"
            );
        }
    }
}

/// Random instances with change rates and weights spread over 24 decades,
/// every crawl-time law, caps from far below to +∞ (some exactly summing
/// to 1 or below it), both objectives, with and without slack: the
/// invariants of [`check_invariants`] hold or the error is a documented one
/// (`HUNT_SEED=k` in the environment reseeds it).
#[test]
fn extreme_random_instances_keep_the_invariants() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(hunt_seed(2026));
    let mut solved = 0;
    for case in 0..20_000 {
        let n = rng.random_range(1..12usize);
        let hn = rng.random_range(1..=n.min(4));
        let e = log_uniform(&mut rng, 1e-6, 1e6);
        let d = random_law(&mut rng, e);
        let (lo, hi) = if rng.random_bool(0.5) {
            (1e-12, 1e12)
        } else {
            (0.1, 10.0)
        };
        let mu: Vec<f64> = (0..n).map(|_| log_uniform(&mut rng, lo, hi) / e).collect();
        let c: Vec<f64> = (0..n).map(|_| log_uniform(&mut rng, lo, hi)).collect();
        let hosts = random_hosts(&mut rng, n, hn);
        let Ok(m) = Model::new(d.clone(), &mu, Some(&c)) else {
            continue;
        };
        let mut caps: Vec<f64> = (0..hn)
            .map(|_| match rng.random_range(0..4) {
                0 => f64::INFINITY,
                1 => log_uniform(&mut rng, 1e-12, 1e-3),
                _ => log_uniform(&mut rng, 0.05, 2.0),
            })
            .collect();
        if rng.random_bool(0.2) {
            let s: f64 = caps.iter().map(|c| c.min(1.0)).sum();
            caps.iter_mut().for_each(|c| *c = c.min(1.0) / s);
        }
        let rates: Vec<f64> = caps.iter().map(|k| k / m.mean_access()).collect();
        let caps: Vec<f64> = rates.iter().map(|b| b * m.mean_access()).collect();
        for obj in BOTH {
            for slack in [false, true] {
                let opts = PoliteOptions {
                    allow_slack: slack,
                    ..PoliteOptions::default()
                };
                let tag = format!(
                    "case {case} {obj:?} slack {slack} n {n} caps {caps:?} mu {mu:?} c {c:?} d {d:?} hosts {hosts:?}"
                );
                match polite_frequencies(&m, &hosts, &rates, obj, &opts) {
                    Ok(p) => {
                        check_invariants(&tag, &p, &hosts, &caps);
                        check_cutoffs(&tag, &p, &m, &hosts, obj);
                        solved += 1;
                    }
                    Err(Error::Infeasible(_)) if !slack => {
                        assert!(caps.iter().sum::<f64>() < 1.0 - 1e-13, "{tag}")
                    }
                    Err(err) => panic!("{tag}: {err}"),
                }
            }
        }
    }
    assert!(solved > 20_000, "{solved}");
}

/// The plan of one instance, its invariants checked.
fn checked_plan(
    d: Distribution,
    (mu, c): (&[f64], &[f64]),
    hosts: &[u32],
    caps: &[f64],
    obj: PoliteObjective,
    slack: bool,
) -> (Model, PolitePlan) {
    let m = Model::new(d, mu, Some(c)).unwrap();
    let rates: Vec<f64> = caps.iter().map(|k| k / m.mean_access()).collect();
    let caps: Vec<f64> = rates.iter().map(|b| b * m.mean_access()).collect();
    let opts = PoliteOptions {
        allow_slack: slack,
        ..PoliteOptions::default()
    };
    let p = polite_frequencies(&m, hosts, &rates, obj, &opts).unwrap();
    check_invariants(&format!("{mu:?}"), &p, hosts, &caps);
    (m, p)
}

/// Pages whose x_i is not resolved by ln λ (a saturated evenly spaced
/// page at its cutoff; randomized pages with β_i = e^700, whose x_i jumps
/// from 0 past any cap within an ulp of ln λ = ln w_i). True answers:
/// a saturated host sums to κ_h; in slack mode a host of one page takes
/// κ_h; a page of β_i = e^700 at the global multiplier λ = w_i takes what
/// the other pages, at λ, leave (its host unsaturated below its cap).
#[test]
fn pages_unresolved_by_the_multiplier_keep_caps_and_totals() {
    let run = |d, mu: &[f64], c: &[f64], hosts: &[u32], caps: &[f64], obj, slack| {
        checked_plan(d, (mu, c), hosts, caps, obj, slack)
    };
    // Host 2's one page at its cutoff, its cap binding.
    let mu = [
        2.057e-3,
        6.815e-3,
        2.1435600008642733e-4,
        2.347e-4,
        2.324e-4,
        5.147e-3,
    ];
    let c = [3.157, 0.3169, 1.468726097185921, 3.401, 0.5100, 0.6994];
    let caps = [
        f64::INFINITY,
        0.07495150096869048,
        1.6204204992117902e-7,
        f64::INFINITY,
    ];
    let d = Distribution::exponential(0.000983969164019636).unwrap();
    let (_, p) = run(
        d,
        &mu,
        &c,
        &[0, 1, 2, 3, 1, 1],
        &caps,
        PoliteObjective::EvenlySpaced,
        false,
    );
    assert!(p.saturated[2]);
    // Slack: one page per host, each at its cap.
    let mu = [
        703122.2692689154,
        301314068066.22266,
        363.44100012092883,
        0.0010893030443286044,
    ];
    let c = [
        0.0283,
        26270724660.853024,
        655640.4200596692,
        5.381023809684694,
    ];
    let caps = [
        0.42935942849315173,
        2.5900668263614374e-7,
        3.0385776407021923e-9,
        2.088e-12,
    ];
    let d = Distribution::deterministic(0.09828599011932859).unwrap();
    let (_, p) = run(
        d,
        &mu,
        &c,
        &[0, 1, 2, 3],
        &caps,
        PoliteObjective::Randomized,
        true,
    );
    for (f, k) in p.frequencies.iter().zip(caps) {
        assert!(rel(*f, k) < 1e-12, "{f} vs {k}");
    }
}

/// Randomized pages of β_i = e^700 at the global multiplier λ = w_i (see
/// [`pages_unresolved_by_the_multiplier_keep_caps_and_totals`]).
#[test]
fn pages_of_beta_e700_take_what_the_others_leave() {
    let run = |d, mu: &[f64], c: &[f64], hosts: &[u32], caps: &[f64], obj, slack| {
        checked_plan(d, (mu, c), hosts, caps, obj, slack)
    };
    // λ = w of the e^700 page (page 2, then page 1), which takes the rest.
    for (mu, c, caps, big) in [
        (
            [2.654e-11, 103951850.44963962, 19.791341745058368],
            [4.529e-8, 2639384.255912027, 26871.796970148152],
            [0.06831876679539993, f64::INFINITY, 1.0617383535266196],
            2,
        ),
        (
            [
                0.013812508002771765,
                375448.18962409237,
                5.542900228874112e-11,
            ],
            [
                5.388194270418685e-11,
                15002836.451647777,
                24.926153142479187,
            ],
            [0.5801960817183079, 1.9549891054785915, f64::INFINITY],
            1,
        ),
    ] {
        let d = Distribution::deterministic(if big == 2 { 2644.1 } else { 566.13 }).unwrap();
        let (m, p) = run(
            d,
            &mu,
            &c,
            &[0, 1, 2],
            &caps,
            PoliteObjective::Randomized,
            false,
        );
        let e = m.mean_access();
        let w = |i: usize| c[i] / (mu[i] * e);
        let mut rest = 0.0;
        for i in (0..3).filter(|&i| i != big) {
            let beta = (mu[i] * e).exp_m1();
            let want = (beta * ((w(i) / w(big)).sqrt() - 1.0)).max(0.0);
            assert!(
                (p.frequencies[i] - want).abs() < 1e-12 * want.max(1e-300),
                "{i}: {} vs {want} {p:?}",
                p.frequencies[i]
            );
            rest += want;
        }
        assert!(rel(p.frequencies[big], 1.0 - rest) < 1e-12);
        assert!(!p.saturated[big]);
    }
    // Four pages of β = e^700 (a host sum past f64 in the global search).
    let mu = [
        9155558798.535055,
        25000963.26801383,
        242794224699872.5,
        18182344.294367194,
        116.53784321960435,
    ];
    let c = [
        1.897699165382338e-5,
        1.472031781998076e-11,
        2.563287587942011e-6,
        2.21058754392109,
        0.21647077310918986,
    ];
    let caps = [0.4535801093770747, 0.6816825147868765];
    let d = Distribution::deterministic(0.001587713716785234).unwrap();
    run(
        d,
        &mu,
        &c,
        &[0, 1, 1, 0, 1],
        &caps,
        PoliteObjective::Randomized,
        false,
    );
}

/// A host without a cap whose sum passes f64 (see
/// [`pages_unresolved_by_the_multiplier_keep_caps_and_totals`]).
#[test]
fn an_uncapped_host_past_f64_keeps_the_search() {
    let run = |d, mu: &[f64], c: &[f64], hosts: &[u32], caps: &[f64], obj, slack| {
        checked_plan(d, (mu, c), hosts, caps, obj, slack)
    };
    // A host without a cap whose sum passes f64 (T = +∞): λ = w_5 (β_5 =
    // e^700, unsaturated host 0), page 0 at λ, hosts 1 and 2 at their caps.
    let mu = [
        9.283868507795833e-11,
        29349870.409592047,
        0.20673784931732528,
        284.2878650632097,
        0.024497981630091523,
        156297.25038890593,
        656.7892777884939,
        0.818497185018779,
        7.262517267460596e-9,
        6.5493984921460035e-6,
    ];
    let c = [
        0.004968612064341386,
        4.695184624395727e-10,
        374204593.1992005,
        4295983.965904044,
        35381.853741419516,
        545.2381696763487,
        507862.03093938285,
        4.18190415667579e-10,
        0.14872448308945127,
        5912839347.041497,
    ];
    let caps = [f64::INFINITY, 8.099649732142401e-5, 0.07721630443581658];
    let d = Distribution::deterministic(0.5774091177599504).unwrap();
    let hosts = [0, 1, 2, 1, 1, 0, 1, 1, 1, 2];
    let (m, p) = run(
        d,
        &mu,
        &c,
        &hosts,
        &caps,
        PoliteObjective::Randomized,
        false,
    );
    let e = m.mean_access();
    let w = |i: usize| c[i] / (mu[i] * e);
    let want0 = (mu[0] * e).exp_m1() * ((w(0) / w(5)).sqrt() - 1.0);
    assert!(rel(p.frequencies[0], want0) < 1e-12, "{p:?}");
    assert!(rel(p.frequencies[5], 1.0 - caps[1] - caps[2] - want0) < 1e-12);
    assert_eq!(p.saturated, [false, true, true]);
}

/// Small random instances with ties (equal pages on different hosts, caps
/// exactly at a host's unconstrained share, caps summing to exactly 1)
/// over every crawl-time law: the plan matches the nested-bisection
/// reference page by page and its objective is no worse.
#[test]
fn small_random_instances_with_ties_match_the_nested_bisection() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(hunt_seed(77));
    let mut compared = 0;
    for case in 0..300 {
        let n = rng.random_range(1..7usize);
        let hn = rng.random_range(1..=n.min(3));
        let e = log_uniform(&mut rng, 1e-3, 1e3);
        let d = random_law(&mut rng, e);
        let mut mu: Vec<f64> = (0..n)
            .map(|_| log_uniform(&mut rng, 0.05, 20.0) / e)
            .collect();
        let mut c: Vec<f64> = (0..n).map(|_| log_uniform(&mut rng, 0.1, 10.0)).collect();
        for i in 1..n {
            if rng.random_bool(0.3) {
                (mu[i], c[i]) = (mu[i - 1], c[i - 1]);
            }
        }
        let hosts = random_hosts(&mut rng, n, hn);
        let m = Model::new(d.clone(), &mu, Some(&c)).unwrap();
        let w: Vec<f64> = (0..n).map(|i| c[i] / (mu[i] * m.mean_access())).collect();
        let h: Vec<f64> = mu.iter().map(|&x| d.laplace(x).unwrap()).collect();
        for obj in BOTH {
            let free = host_sums(&hosts, hn, &unconstrained(&m, obj));
            let mut caps: Vec<f64> = free
                .iter()
                .map(|&s| match rng.random_range(0..4) {
                    0 => f64::INFINITY,
                    1 if s > 0.0 => s,
                    _ => (s * rng.random_range(0.3..1.5)).max(1e-6),
                })
                .collect();
            if rng.random_bool(0.2) {
                let t: f64 = caps.iter().map(|c| c.min(1.0)).sum();
                caps.iter_mut().for_each(|c| *c = c.min(1.0) / t);
            }
            if caps.iter().sum::<f64>() < 1.0 {
                continue;
            }
            let rates: Vec<f64> = caps.iter().map(|k| k / m.mean_access()).collect();
            let caps: Vec<f64> = rates.iter().map(|b| b * m.mean_access()).collect();
            let tag = format!(
                "case {case} {obj:?} {d:?} mu {mu:?} c {c:?} hosts {hosts:?} caps {caps:?}"
            );
            let p = polite_frequencies(&m, &hosts, &rates, obj, &PoliteOptions::default())
                .unwrap_or_else(|err| panic!("{tag}: {err}"));
            check_invariants(&tag, &p, &hosts, &caps);
            let reference = nested_reference(obj, &w, &h, &hosts, &caps);
            let ref_total: f64 = reference.iter().sum();
            // A page within 1e−9 of its cutoff is set by digits of λ
            // neither solver resolves; a reference off its total (the
            // derivative (13) cancelling at h ≈ 0) is not compared.
            if (ref_total - 1.0).abs() > 1e-10 {
                continue;
            }
            compared += 1;
            for (i, (a, b)) in p.frequencies.iter().zip(&reference).enumerate() {
                let t = (p.ln_host_multipliers[hosts[i] as usize] - w[i].ln()).exp();
                assert!(
                    (a - b).abs() < 1e-9 || t > 1.0 - 1e-9,
                    "{tag}: {:?} vs {reference:?}",
                    p.frequencies
                );
            }
            if (ref_total - 1.0).abs() < 1e-14 {
                let best = cost(&m, obj, &reference);
                assert!(
                    p.objective <= best * (1.0 + 1e-12),
                    "{tag}: {} vs {best}",
                    p.objective
                );
            }
        }
    }
    assert!(compared > 400, "{compared}");
}

/// One host at exactly the robot's rate, b = 1/E[X] (κ = b E[X] rounds
/// to 1 − 1 ulp for some E[X]), and caps summing to 1 within rounding:
/// feasible, the unconstrained plan (one host), every cap kept.
#[test]
fn caps_at_the_robot_rate_to_rounding_are_feasible() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut short = 0;
    for _ in 0..200 {
        let e = log_uniform(&mut rng, 1e-3, 1e3);
        short += usize::from((1.0 / e) * e < 1.0);
        let d = Distribution::exponential(1.0 / e).unwrap();
        let mu: Vec<f64> = (0..4)
            .map(|_| log_uniform(&mut rng, 0.05, 20.0) / e)
            .collect();
        let m = Model::new(d, &mu, None).unwrap();
        for obj in BOTH {
            let p = plan(&m, &[0; 4], &[1.0 / m.mean_access()], obj);
            for (a, b) in p.frequencies.iter().zip(unconstrained(&m, obj)) {
                assert!((a - b).abs() < 1e-12, "{a} vs {b}");
            }
            // Three hosts of shares 0.1, 0.2, 0.7 as rates: Σ κ within ulps of 1.
            let rates: Vec<f64> = [0.1, 0.2, 0.7]
                .iter()
                .map(|s| s / m.mean_access())
                .collect();
            let caps: Vec<f64> = rates.iter().map(|b| b * m.mean_access()).collect();
            let p = plan(&m, &[0, 1, 2, 2], &rates, obj);
            check_invariants("three hosts", &p, &[0, 1, 2, 2], &caps);
        }
    }
    assert!(short > 10, "{short}");
}

/// Identical pages (ties in ln w across every host, the sampled start on
/// 70 000 pages; one page per host over 10^5 hosts): by symmetry the plan
/// is water-filling over hosts, a host over its cap at f_i = κ_h/n_h, the
/// others sharing the rest equally per page. Both objectives, caps from
/// 1e−9 of a host's share to +∞.
#[test]
fn identical_pages_fill_hosts_like_water() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for (n, hosts_n) in [(70_000usize, 300usize), (100_000, 100_000), (2000, 7)] {
        let e = log_uniform(&mut rng, 1e-4, 1e4);
        let mu = vec![log_uniform(&mut rng, 0.01, 50.0) / e; n];
        let d = Distribution::erlang(2, 2.0 / e).unwrap();
        let m = Model::new(d, &mu, None).unwrap();
        let hosts: Vec<u32> = (0..n)
            .map(|i| {
                if i < hosts_n {
                    i as u32
                } else {
                    rng.random_range(0..hosts_n as u32)
                }
            })
            .collect();
        let count = host_sums(&hosts, hosts_n, &vec![1.0; n]);
        let caps: Vec<f64> = count
            .iter()
            .map(|&c| {
                let share = c / n as f64;
                match rng.random_range(0..4) {
                    0 => f64::INFINITY,
                    1 => share * log_uniform(&mut rng, 1e-9, 1.0),
                    _ => share * rng.random_range(0.5..3.0),
                }
            })
            .collect();
        // Reference: water-filling on per-page levels.
        let (sat, level) = water_fill(&count, &caps);
        let rates: Vec<f64> = caps.iter().map(|k| k / m.mean_access()).collect();
        for obj in BOTH {
            let p = plan(&m, &hosts, &rates, obj);
            for (i, &h) in hosts.iter().enumerate() {
                let h = h as usize;
                let want = if sat[h] { caps[h] / count[h] } else { level };
                assert!(
                    rel(p.frequencies[i], want) < 1e-11,
                    "{obj:?} n {n} page {i}: {} vs {want}",
                    p.frequencies[i]
                );
            }
            assert_eq!(p.saturated, sat, "{obj:?} n {n}");
        }
    }
}

/// Larger instances over 24 decades (threaded passes, the sampled start
/// at 70 000 pages, 10^4 one-page hosts, Σ β_i past f64): the invariants.
#[test]
fn large_extreme_instances_keep_the_invariants() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(hunt_seed(99));
    for (case, (n, hn)) in [
        (5000, 50),
        (10_000, 10_000),
        (70_000, 300),
        (3000, 3),
        (8000, 2000),
    ]
    .into_iter()
    .enumerate()
    {
        let e = log_uniform(&mut rng, 1e-6, 1e6);
        let d = random_law(&mut rng, e);
        let mu: Vec<f64> = (0..n)
            .map(|_| log_uniform(&mut rng, 1e-12, 1e12) / e)
            .collect();
        let c: Vec<f64> = (0..n).map(|_| log_uniform(&mut rng, 1e-12, 1e12)).collect();
        let hosts = random_hosts(&mut rng, n, hn);
        let Ok(m) = Model::new(d.clone(), &mu, Some(&c)) else {
            panic!("case {case}: model");
        };
        for spread in [1.0, 3.0 / hn as f64] {
            let rates: Vec<f64> = (0..hn)
                .map(|_| match rng.random_range(0..4) {
                    0 => f64::INFINITY,
                    1 => log_uniform(&mut rng, 1e-12, 1e-3) * spread,
                    _ => log_uniform(&mut rng, 0.05, 2.0) * spread,
                } / m.mean_access())
                .collect();
            let caps: Vec<f64> = rates.iter().map(|b| b * m.mean_access()).collect();
            for obj in BOTH {
                let opts = PoliteOptions {
                    allow_slack: true,
                    ..PoliteOptions::default()
                };
                let tag = format!("case {case} spread {spread} {obj:?}");
                let p = polite_frequencies(&m, &hosts, &rates, obj, &opts)
                    .unwrap_or_else(|err| panic!("{tag}: {err}"));
                check_invariants(&tag, &p, &hosts, &caps);
                check_cutoffs(&tag, &p, &m, &hosts, obj);
            }
        }
    }
}

/// The streaming scheduler with random hosts and delays (some tight, some
/// 0, some pages without a host; both modes; picks one time unit apart on
/// the caller's clock, E[X] = 1): no gap below its host's delay, so a
/// host's picks per unit time stay within 1/d_h and its share of the
/// picks within its cap d_h^{-1} E[X] (to 3 picks).
#[test]
fn scheduler_host_shares_stay_within_their_delays() {
    use crate::freshness::scheduler::{Pick, Scheduler, SchedulerMode};
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
    for case in 0..24 {
        let n = rng.random_range(3..40usize);
        let hn = rng.random_range(1..6u32);
        let mode = if case % 2 == 0 {
            SchedulerMode::Stride
        } else {
            SchedulerMode::GoldenRatio
        };
        let d = Distribution::exponential(1.0).unwrap();
        let mut s = Scheduler::new(d, mode).unwrap();
        let mut host = vec![None; n];
        for (i, h) in host.iter_mut().enumerate() {
            s.add_page(i as u64, log_uniform(&mut rng, 1e-3, 10.0), None)
                .unwrap();
            if rng.random_bool(0.8) {
                *h = Some(rng.random_range(0..hn));
                s.set_host(i as u64, h.unwrap()).unwrap();
            }
        }
        let delays: Vec<f64> = (0..hn)
            .map(|_| match rng.random_range(0..3) {
                0 => 0.0,
                1 => rng.random_range(1.0..3.0),
                _ => rng.random_range(3.0..40.0),
            })
            .collect();
        for (h, &dl) in delays.iter().enumerate() {
            s.set_host_delay(h as u32, dl).unwrap();
        }
        let picks = 40_000usize;
        // next(): a clock of E[X] per pick, the same caps; a share of the
        // picks (not of the time) only without slack: some page uncapped.
        let feasible = host
            .iter()
            .any(|h| h.is_none_or(|h| delays[h as usize] == 0.0));
        let mut slots = s.clone();
        let mut per_host = vec![0u64; hn as usize];
        for _ in 0..picks {
            if let Some(h) = host[slots.next().unwrap() as usize] {
                per_host[h as usize] += 1;
            }
        }
        for (h, (&c, &dl)) in per_host.iter().zip(&delays).enumerate() {
            if dl > 0.0 && feasible {
                assert!(
                    c as f64 <= picks as f64 / dl + 3.0,
                    "case {case} next() host {h}: {c}"
                );
            }
        }
        let (mut now, mut got) = (0.0, 0usize);
        let mut last = vec![f64::NEG_INFINITY; hn as usize];
        let mut count = vec![0u64; hn as usize];
        while got < picks {
            match s.next_at(now).unwrap() {
                Pick::Page(id) => {
                    if let Some(h) = host[id as usize] {
                        let h = h as usize;
                        assert!(now - last[h] >= delays[h], "case {case} host {h}");
                        last[h] = now;
                        count[h] += 1;
                    }
                    got += 1;
                    now += 1.0;
                }
                Pick::Wait(w) => {
                    assert!(w > 0.0 && w.is_finite(), "case {case}: wait {w}");
                    now += w;
                }
            }
        }
        for h in 0..hn as usize {
            if delays[h] > 0.0 {
                let cap = picks as f64 / delays[h];
                assert!(
                    count[h] as f64 <= cap + 3.0,
                    "case {case} host {h}: {} > {cap}",
                    count[h]
                );
                assert!(
                    count[h] as f64 <= now / delays[h] + 1.0,
                    "case {case} host {h}"
                );
            }
        }
    }
}

/// Evenly spaced, host 0's one page saturating within ulps of its cutoff
/// (the top weight), every other page beyond its cutoff there: the global
/// multiplier lies far lower (the hosts without a visited page gave the
/// search's model no slope, which ended it at ln w_0 with Σ f = κ_0 < 1).
/// True answer: page 0 at κ_0, page 3 (the next weight, its host's cap
/// loose) takes 1 − κ_0, pages 1 and 2 stay beyond their cutoffs.
#[test]
fn hosts_beyond_their_cutoffs_do_not_end_the_global_search() {
    let mu = [
        19728.11683103631,
        1698586277.3452885,
        27674.106231296293,
        0.0008880909670080139,
    ];
    let c = [
        11539.983947240886,
        351499.2026691255,
        4.025233454642551e-12,
        6.995010231478791e-6,
    ];
    let d = Distribution::erlang(3, 0.12986230967653564).unwrap();
    let m = Model::new(d, &mu, Some(&c)).unwrap();
    let caps = [0.9580428340335853, 0.4714027436228351, f64::INFINITY];
    let rates: Vec<f64> = caps.iter().map(|k| k / m.mean_access()).collect();
    let p = plan(&m, &[0, 1, 2, 1], &rates, PoliteObjective::EvenlySpaced);
    let k0 = rates[0] * m.mean_access();
    let want = [k0, 0.0, 0.0, 1.0 - k0];
    for (f, w) in p.frequencies.iter().zip(want) {
        assert!((f - w).abs() < 1e-13, "{:?}", p.frequencies);
    }
    assert_eq!(p.saturated, [true, false, false]);
    // Page 3 meets (8) at λ: x_3 = a_3/s with G(s) = λ/w_3.
    let e = m.mean_access();
    let t = (p.ln_multiplier - (c[3] / (mu[3] * e)).ln()).exp();
    let s = p.frequencies[3].recip() * -m.log_h()[3];
    assert!(rel(1.0 - (1.0 + s) * (-s).exp(), t) < 1e-10);
}

/// Randomized, slack, one host of cap 3e−9 holding pages of β_i = e^700
/// (μ_i E[X] > 700) and small-β pages of far larger w_i: the host's own
/// multiplier is set by page 2 alone, √(w_2/λ_h) = 1 + κ/β_2, every
/// other page beyond its cutoff. Its root find stopped at ln w_0 (2 dS
/// overflowed to −∞, a zero step), then at ln w_3 (a just-visited e^700
/// page makes dS ≈ −β/2 ≫ S, a step within rounding far from the root),
/// giving page 3 the cap and an objective 2% above the optimum.
#[test]
fn pages_of_huge_beta_do_not_stop_a_host_root() {
    let mu = [
        381399.310444097,
        5.347369072293543e-11,
        2.447628150677841e-12,
        711.7242409173971,
        4972.457141560563,
        3.16091325886339e-8,
    ];
    let c = [
        0.3634240665894624,
        2.2729905619592713e-5,
        4190.111970708596,
        158770.08768541337,
        27847.207920187244,
        2.2244587654136486e-5,
    ];
    let d = Distribution::deterministic(52.85098634327035).unwrap();
    let m = Model::new(d, &mu, Some(&c)).unwrap();
    let e = m.mean_access();
    let rates = [3.0708872840004177e-9 / e];
    let kappa = rates[0] * e;
    let opts = PoliteOptions {
        allow_slack: true,
        ..PoliteOptions::default()
    };
    let p = polite_frequencies(&m, &[0; 6], &rates, PoliteObjective::Randomized, &opts).unwrap();
    let beta2 = (mu[2] * e).exp_m1();
    let ln_l = (c[2] / (mu[2] * e)).ln() - 2.0 * (kappa / beta2).ln_1p();
    assert!(rel(p.ln_host_multipliers[0], ln_l) < 1e-12, "{p:?}");
    for (i, &f) in p.frequencies.iter().enumerate() {
        assert_eq!(f, if i == 2 { kappa } else { 0.0 }, "{p:?}");
    }
}

/// Caps that cannot bind (+∞) leave the unconstrained plan of each
/// objective, from its own solver, on instances whose rates and weights
/// spread over 10^±45 under deterministic and exponential X: pages at
/// their cutoffs, β capped at e^700 next to β of 1e−45, one to five hosts.
/// To 1e−11 relative on every page: a page whose √(w_i/λ) − 1 is 1e−4
/// moves by 5e3 times the rounding of ln λ (the plan was up to 4e−9 off
/// when the search's rounding was scaled away, and 17% off where β
/// spread beyond 10^301).
#[test]
fn infinite_caps_give_the_unconstrained_plan_at_extreme_rates() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(hunt_seed(7));
    let mut compared = 0;
    for case in 0..3000 {
        let n = rng.random_range(2..6usize);
        let hn = rng.random_range(1..=n);
        let law = if rng.random_range(0..2) == 0 {
            Distribution::deterministic(1.0).unwrap()
        } else {
            Distribution::exponential(1.0).unwrap()
        };
        let mu: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.random_range(-45.0..10.0)))
            .collect();
        let c: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.random_range(-45.0..45.0)))
            .collect();
        let hosts = random_hosts(&mut rng, n, hn);
        let Ok(m) = Model::new(law, &mu, Some(&c)) else {
            continue;
        };
        let caps = vec![f64::INFINITY; hn];
        for obj in BOTH {
            let free = unconstrained(&m, obj);
            let p = plan(&m, &hosts, &caps, obj);
            for (i, (&a, &b)) in p.frequencies.iter().zip(&free).enumerate() {
                assert!(
                    (a - b).abs() <= 1e-11 * b,
                    "case {case} {obj:?} page {i}: {a} vs {b} (μ {mu:?}, c {c:?}, {:?})",
                    m.access()
                );
            }
            compared += 1;
        }
    }
    assert!(compared > 5000, "{compared}");
}
