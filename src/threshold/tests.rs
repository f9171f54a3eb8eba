use super::generator::generator;
use super::solve::{block_solve, dense_solve, residual};
use super::*;
use crate::dist::{Bmap, PhaseType, compose};
use crate::error::Error;
use nalgebra::DMatrix;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Stationary law of a birth–death chain on 0..=cap (closed form by products).
fn birth_death(birth: impl Fn(usize) -> f64, death: impl Fn(usize) -> f64, cap: usize) -> Vec<f64> {
    let mut p = vec![1.0];
    for n in 1..=cap {
        let prev = p[n - 1];
        p.push(prev * birth(n - 1) / death(n));
    }
    let s: f64 = p.iter().sum();
    p.into_iter().map(|x| x / s).collect()
}

fn poisson_model(lam: f64, mu: f64, theta: Option<f64>, buffer: usize) -> ThresholdModel {
    ThresholdModel::new(
        vec![Bmap::poisson(lam).unwrap()],
        PhaseType::exponential(mu).unwrap(),
        theta.map(|t| PhaseType::exponential(t).unwrap()),
        buffer,
    )
    .unwrap()
}

#[test]
fn one_robot_poisson_exponential_is_mm1k() {
    let (lam, mu, buffer) = (0.8, 1.0, 5);
    let model = poisson_model(lam, mu, None, buffer);
    let m = evaluate(&model, &Policy::fixed(1).unwrap()).unwrap();
    let cap = buffer + 1;
    let rho: f64 = lam / mu;
    let p: Vec<f64> = (0..=cap)
        .map(|n| rho.powi(n as i32) * (1.0 - rho) / (1.0 - rho.powi(cap as i32 + 1)))
        .collect();
    for (a, b) in m.level_distribution.iter().zip(&p) {
        assert!((a - b).abs() < 1e-13, "{a} vs {b}");
    }
    assert!((m.loss_probability - p[cap]).abs() < 1e-13);
    assert!((m.starvation_probability - p[0]).abs() < 1e-13);
    assert!(m.obsolescence_probability.abs() < 1e-15);
    assert!((m.throughput - mu * (1.0 - p[0])).abs() < 1e-13);
    let l: f64 = p.iter().enumerate().map(|(n, x)| n as f64 * x).sum();
    assert!((m.response_time - l / (lam * (1.0 - p[cap]))).abs() < 1e-12);
    assert!(m.residual < 1e-14);
}

#[test]
fn exponential_obsolescence_is_mm1k_plus_m() {
    let (lam, mu, theta, buffer) = (1.7, 1.0, 0.3, 6);
    let model = poisson_model(lam, mu, Some(theta), buffer);
    let m = evaluate(&model, &Policy::fixed(1).unwrap()).unwrap();
    let cap = buffer + 1;
    // Death rate μ + (n − 1)θ: the page in service does not age.
    let p = birth_death(|_| lam, |n| mu + (n - 1) as f64 * theta, cap);
    for (a, b) in m.level_distribution.iter().zip(&p) {
        assert!((a - b).abs() < 1e-13, "{a} vs {b}");
    }
    let obs: f64 = p
        .iter()
        .enumerate()
        .skip(1)
        .map(|(n, x)| x * (n - 1) as f64 * theta)
        .sum();
    assert!((m.obsolescence_probability - obs / lam).abs() < 1e-13);
    assert!((m.loss_probability - p[cap]).abs() < 1e-13);
    assert!(
        (m.loss_probability + m.obsolescence_probability + m.success_probability - 1.0).abs()
            < 1e-13
    );
}

/// Talim et al. (paper 001) static policy at ρ = 1, K = 15: C_s =
/// (γ + 1)/16 = 0.133125 for γ = 1.13 (their table), i.e. γ·P(empty) + loss rate.
#[test]
fn talim_static_cost() {
    let model = poisson_model(1.0, 1.0, None, 14);
    let w = CostWeights {
        loss: 1.0,
        obsolescence: 0.0,
        response: 0.0,
        robots: 0.0,
        starvation: 1.13,
    };
    let m = evaluate(&model, &Policy::fixed(1).unwrap()).unwrap();
    assert!((m.cost(&w) - 0.133125).abs() < 1e-13, "{}", m.cost(&w));
}

fn random_bmap(rng: &mut Xoshiro256PlusPlus, n: usize, k: usize) -> Bmap {
    let mut d: Vec<DMatrix<f64>> = (0..=k).map(|_| DMatrix::zeros(n, n)).collect();
    for (j, m) in d.iter_mut().enumerate() {
        for a in 0..n {
            for b in 0..n {
                if j > 0 || a != b {
                    m[(a, b)] = rng.random_range(0.0..1.0) / (j.max(1) as f64);
                }
            }
        }
    }
    for a in 0..n {
        let s: f64 = d.iter().map(|m| m.row(a).sum()).sum();
        d[0][(a, a)] = -s;
    }
    Bmap::from_matrices(&d).unwrap()
}

fn random_model(seed: u64) -> ThresholdModel {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let one = random_bmap(&mut rng, 2, 3);
    let arrivals = compose::scaled(&one, 3).unwrap();
    let service = PhaseType::coxian(
        &[rng.random_range(1.0..4.0), rng.random_range(1.0..4.0)],
        &[rng.random_range(0.0..1.0)],
    )
    .unwrap();
    let p = rng.random_range(0.1..0.9);
    let ob = PhaseType::hyperexponential(
        &[p, 1.0 - p],
        &[rng.random_range(0.1..0.5), rng.random_range(0.5..2.0)],
    )
    .unwrap();
    ThresholdModel::new(arrivals, service, Some(ob), rng.random_range(2..=4)).unwrap()
}

#[test]
fn generator_and_solvers_agree_on_random_models() {
    for seed in 0..8 {
        let model = random_model(seed);
        let policy = Policy::new(vec![3, 2, 1], vec![0, 2]).unwrap();
        let q = generator(&model, &policy).unwrap();
        for (row, vec) in q.outer_iterator().enumerate() {
            let s: f64 = vec.iter().map(|(_, v)| v).sum();
            let diag = vec.get(row).copied().unwrap_or(0.0);
            assert!(s.abs() <= 1e-14 * diag.abs(), "row {row} sums to {s}");
        }
        let a = block_solve(model.space(), &q).unwrap();
        let b = dense_solve(&q).unwrap();
        assert!((a.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(a.iter().all(|&x| x >= 0.0));
        for (x, y) in a.iter().zip(&b) {
            assert!((x - y).abs() < 1e-12, "seed {seed}: {x} vs {y}");
        }
        assert!(residual(&q, &a) < 1e-13, "residual {}", residual(&q, &a));
        let m = evaluate(&model, &policy).unwrap();
        // Flow balance: admitted = served + obsolete.
        assert!(
            (m.loss_probability + m.obsolescence_probability + m.success_probability - 1.0).abs()
                < 1e-12
        );
        assert!(m.mean_robots <= 3.0 && m.mean_robots >= 1.0);
    }
}

/// Paper 002's real-data table: {3,2,1} with thresholds (0,0) costs what
/// {3,1} with threshold 0 costs (591.72 both): the skipped mode never acts.
#[test]
fn equal_thresholds_skip_a_mode() {
    let model = random_model(42);
    let w = CostWeights {
        loss: 1.0,
        obsolescence: 2.0,
        response: 0.5,
        robots: 0.3,
        starvation: 4.0,
    };
    let a = evaluate(&model, &Policy::new(vec![3, 2, 1], vec![0, 0]).unwrap()).unwrap();
    let b = evaluate(&model, &Policy::new(vec![3, 1], vec![0]).unwrap()).unwrap();
    assert_eq!(a.level_distribution, b.level_distribution);
    assert_eq!(a.cost(&w), b.cost(&w));
    let c = evaluate(&model, &Policy::new(vec![3, 2, 1], vec![0, 1]).unwrap()).unwrap();
    assert!((a.cost(&w) - c.cost(&w)).abs() > 1e-9);
}

#[test]
fn optimizer_enumerates_the_stated_search_space() {
    let model = random_model(5);
    let w = CostWeights {
        loss: 3.0,
        obsolescence: 1.0,
        response: 0.2,
        robots: 0.5,
        starvation: 2.0,
    };
    let l = model.space().max_level();
    let opt = optimize(&model, &[3, 2, 1], &w, 10_000).unwrap();
    assert_eq!(u128::from(opt.evaluated), search_space_size(&model, 3));
    assert_eq!(opt.evaluated as usize, l * (l + 1) / 2);
    // Brute force with explicit loops.
    let mut best = f64::INFINITY;
    for t1 in 0..l {
        for t2 in t1..l {
            let c = evaluate(&model, &Policy::new(vec![3, 2, 1], vec![t1, t2]).unwrap())
                .unwrap()
                .cost(&w);
            best = best.min(c);
        }
    }
    assert_eq!(opt.cost, best);
    assert!(
        matches!(optimize(&model, &[3, 2, 1], &w, 2), Err(Error::TooLarge(m)) if m.contains("threshold vectors"))
    );
    assert!(optimize(&model, &[4, 1], &w, 100).is_err());
    let fixed = optimize(&model, &[2], &w, 1).unwrap();
    assert_eq!(fixed.evaluated, 1);
}

#[test]
fn size_is_checked_before_allocating() {
    let ob = PhaseType::hyperexponential(&[0.5, 0.5], &[1.0, 2.0]).unwrap();
    let r = ThresholdModel::new(
        vec![Bmap::poisson(1.0).unwrap()],
        PhaseType::exponential(1.0).unwrap(),
        Some(ob),
        60,
    );
    assert!(matches!(r, Err(Error::TooLarge(m)) if m.contains("states")));
    assert!(Policy::new(vec![1, 2], vec![0]).is_err());
    assert!(Policy::new(vec![2, 1], vec![]).is_err());
    assert!(Policy::new(vec![3, 2, 1], vec![2, 1]).is_err());
    let p = Policy::new(vec![4, 3, 1], vec![0, 2]).unwrap();
    assert_eq!(
        (0..5).map(|i| p.robots_at(i)).collect::<Vec<_>>(),
        vec![4, 3, 3, 1, 1]
    );
}

fn within(name: &str, chain: f64, sim: Estimate) {
    let tol = 4.5 * sim.std_error + 1e-3 * chain.abs().max(1e-3);
    assert!(
        (chain - sim.mean).abs() <= tol,
        "{name}: chain {chain}, simulation {} ± {}",
        sim.mean,
        sim.std_error
    );
}

#[test]
fn simulation_agrees_with_the_chain() {
    for seed in [1u64, 2, 3] {
        let model = random_model(seed);
        let policy = Policy::new(vec![3, 1], vec![1]).unwrap();
        let m = evaluate(&model, &policy).unwrap();
        let s = simulate(&model, &policy, 200.0, 30_000.0, 30, seed).unwrap();
        within("fundamental rate", m.fundamental_rate, s.fundamental_rate);
        within("loss", m.loss_probability, s.loss_probability);
        within(
            "obsolescence",
            m.obsolescence_probability,
            s.obsolescence_probability,
        );
        within("success", m.success_probability, s.success_probability);
        within(
            "starvation",
            m.starvation_probability,
            s.starvation_probability,
        );
        within("throughput", m.throughput, s.throughput);
        within("mean pages", m.mean_pages, s.mean_pages);
        within("response time", m.response_time, s.response_time);
        within("mean robots", m.mean_robots, s.mean_robots);
    }
}

/// Entry-wise comparison of two sparse matrices of the same shape.
fn max_abs_diff(a: &sprs::CsMat<f64>, b: &sprs::CsMat<f64>) -> f64 {
    let d = a - b;
    d.data().iter().fold(0.0_f64, |m, x| m.max(x.abs()))
}

#[test]
fn banded_block_sparse_and_dense_solvers_agree() {
    use super::generator::generator_general;
    use super::solve::{Method, bandwidth, sparse_solve, stationary};
    for seed in 0..4 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(100 + seed);
        let one = random_bmap(&mut rng, 2, 3);
        let arrivals = compose::scaled(&one, 2).unwrap();
        let service = PhaseType::erlang(2, rng.random_range(2.0..5.0)).unwrap();
        // R = 1 and a buffer much longer than the largest batch: the band
        // (k = 3) is far narrower than the 32 levels.
        let ob = PhaseType::exponential(rng.random_range(0.05..0.5)).unwrap();
        let model = ThresholdModel::new(arrivals, service, Some(ob), 30).unwrap();
        let policy = Policy::new(vec![2, 1], vec![12]).unwrap();
        let q = generator(&model, &policy).unwrap();
        // The one-phase fast path builds the same generator as the general one.
        let qg = generator_general(&model, &policy);
        assert!(
            max_abs_diff(&q, &qg) < 1e-13,
            "seed {seed}: generators differ"
        );
        assert_eq!(bandwidth(model.space(), &q).unwrap(), 3);
        let a = block_solve(model.space(), &q).unwrap();
        let b = dense_solve(&q).unwrap();
        let c = sparse_solve(&q).unwrap();
        for ((x, y), z) in a.iter().zip(&b).zip(&c) {
            assert!(
                (x - y).abs() < 1e-12 && (z - y).abs() < 1e-12,
                "seed {seed}: {x} {y} {z}"
            );
        }
        assert!(residual(&q, &a) < 1e-13 && residual(&q, &c) < 1e-13);
        assert_eq!(stationary(model.space(), &q).unwrap().1, Method::Block);
    }
    // R = 2 (hyperexponential obsolescence): sparse LU against dense LU.
    for seed in 0..4 {
        let model = random_model(seed);
        let policy = Policy::new(vec![3, 1], vec![1]).unwrap();
        let q = generator(&model, &policy).unwrap();
        let b = dense_solve(&q).unwrap();
        let c = sparse_solve(&q).unwrap();
        for (y, z) in b.iter().zip(&c) {
            assert!((z - y).abs() < 1e-12, "seed {seed}: {z} vs {y}");
        }
        assert!(residual(&q, &c) < 1e-13);
    }
}

// ---- Response time (tagged page) -------------------------------------

/// Erlang(k, μ) distribution function.
fn erlang_cdf(k: usize, mu: f64, t: f64) -> f64 {
    let mut term = (-mu * t).exp();
    let mut s = term;
    for j in 1..k {
        term *= mu * t / j as f64;
        s += term;
    }
    1.0 - s
}

/// Hypoexponential survival function (distinct rates).
fn hypoexp_survival(rates: &[f64], t: f64) -> f64 {
    rates
        .iter()
        .enumerate()
        .map(|(i, &li)| {
            let c: f64 = rates
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &lj)| lj / (lj - li))
                .product();
            c * (-li * t).exp()
        })
        .sum()
}

const TIMES: [f64; 7] = [0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0];

/// M/M/1/K: an admitted customer finding n in the system stays Erlang(n + 1, μ).
#[test]
fn mm1k_sojourn_is_an_erlang_mixture() {
    let (lam, mu, buffer) = (0.8, 1.0, 5);
    let model = poisson_model(lam, mu, None, buffer);
    let policy = Policy::fixed(1).unwrap();
    let soj = sojourn(&model, &policy).unwrap();
    let cap = buffer + 1;
    let p = birth_death(|_| lam, |_| mu, cap);
    let w: Vec<f64> = (0..cap).map(|n| p[n] / (1.0 - p[cap])).collect();
    let mean: f64 = w
        .iter()
        .enumerate()
        .map(|(n, x)| x * (n + 1) as f64 / mu)
        .sum();
    let r = soj.means();
    assert!((r.mean - mean).abs() < 1e-12, "{} vs {mean}", r.mean);
    assert!((r.served_probability - 1.0).abs() < 1e-13);
    assert!((r.mean_served - mean).abs() < 1e-12);
    assert_eq!(r.mean_obsolete, 0.0);
    let little = evaluate(&model, &policy).unwrap().response_time;
    assert!((r.mean - little).abs() < 1e-12);
    let cdf = soj.cdf(&TIMES).unwrap();
    let served = soj.cdf_served(&TIMES).unwrap();
    for (k, &t) in TIMES.iter().enumerate() {
        let exact: f64 = w
            .iter()
            .enumerate()
            .map(|(n, x)| x * erlang_cdf(n + 1, mu, t))
            .sum();
        assert!(
            (cdf[k] - exact).abs() < 1e-12,
            "t = {t}: {} vs {exact}",
            cdf[k]
        );
        assert!((served[k] - exact).abs() < 1e-12);
    }
    assert!(soj.cdf(&[0.0]).unwrap()[0] < 1e-15);
}

/// M/M/1/K+M (exponential obsolescence θ of waiting pages): a page finding
/// n ≥ 1 pages is served with probability μ/(μ + nθ), after a
/// hypoexponential time with rates μ + nθ, …, μ + θ, μ.
#[test]
fn mm1k_plus_m_served_sojourn_closed_form() {
    let (lam, mu, theta, buffer) = (1.7, 1.0, 0.3, 6);
    let model = poisson_model(lam, mu, Some(theta), buffer);
    let policy = Policy::fixed(1).unwrap();
    let soj = sojourn(&model, &policy).unwrap();
    let cap = buffer + 1;
    let p = birth_death(|_| lam, |n| mu + (n - 1) as f64 * theta, cap);
    let w: Vec<f64> = (0..cap).map(|n| p[n] / (1.0 - p[cap])).collect();
    let served_given = |n: usize| mu / (mu + n as f64 * theta);
    let rates = |n: usize| -> Vec<f64> { (0..=n).map(|j| mu + j as f64 * theta).collect() };
    let ps: f64 = (0..cap).map(|n| w[n] * served_given(n)).sum();
    let mean_served: f64 = (0..cap)
        .map(|n| w[n] * served_given(n) * rates(n).iter().map(|r| 1.0 / r).sum::<f64>())
        .sum::<f64>()
        / ps;
    let r = soj.means();
    assert!(
        (r.served_probability - ps).abs() < 1e-13,
        "{} vs {ps}",
        r.served_probability
    );
    assert!(
        (r.mean_served - mean_served).abs() < 1e-12,
        "{} vs {mean_served}",
        r.mean_served
    );
    let m = evaluate(&model, &policy).unwrap();
    assert!((r.mean - m.response_time).abs() < 1e-12);
    assert!(
        (r.served_probability - m.success_probability / (1.0 - m.loss_probability)).abs() < 1e-12
    );
    // E[τ] = P_s E[τ|s] + (1 − P_s) E[τ|obs].
    assert!((ps * r.mean_served + (1.0 - ps) * r.mean_obsolete - r.mean).abs() < 1e-12);
    let served = soj.cdf_served(&TIMES).unwrap();
    for (k, &t) in TIMES.iter().enumerate() {
        let exact: f64 = (0..cap)
            .map(|n| w[n] * served_given(n) * (1.0 - hypoexp_survival(&rates(n), t)))
            .sum::<f64>()
            / ps;
        assert!(
            (served[k] - exact).abs() < 1e-10,
            "t = {t}: {} vs {exact}",
            served[k]
        );
    }
}

/// The tagged chain agrees with the stationary measures on random BMAP/PH
/// models (R = 2): E[τ] is Little's law, P(served) is P_succ/(1 − P_loss).
#[test]
fn tagged_page_agrees_with_littles_law() {
    for seed in 0..6 {
        let model = random_model(seed);
        let policy = Policy::new(vec![3, 2, 1], vec![0, 2]).unwrap();
        let m = evaluate(&model, &policy).unwrap();
        let soj = sojourn(&model, &policy).unwrap();
        let r = soj.means();
        assert!(
            (r.mean - m.response_time).abs() < 1e-11 * m.response_time,
            "seed {seed}: {} vs {}",
            r.mean,
            m.response_time
        );
        let ps = m.success_probability / (1.0 - m.loss_probability);
        assert!((r.served_probability - ps).abs() < 1e-11, "seed {seed}");
        let (alpha, _) = soj.phase_type();
        assert!((alpha.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let c = soj.cdf(&[0.5, 1.0, 4.0, 1e3]).unwrap();
        assert!(
            c.windows(2).all(|x| x[0] <= x[1]) && (c[3] - 1.0).abs() < 1e-9,
            "{c:?}"
        );
        assert!(matches!(soj.cdf(&[-1.0]), Err(Error::InvalidArgument(_))));
        assert!(matches!(soj.cdf(&[1e12]), Err(Error::TooLarge(_))));
    }
}

#[test]
fn simulated_sojourns_agree_with_the_tagged_chain() {
    let times = [0.5, 1.0, 2.0, 5.0];
    for seed in [1u64, 2, 3] {
        let model = random_model(seed);
        let policy = Policy::new(vec![3, 1], vec![1]).unwrap();
        let soj = sojourn(&model, &policy).unwrap();
        let r = soj.means();
        let s = simulate_sojourns(&model, &policy, 200.0, 30_000.0, 30, seed, &times).unwrap();
        within("response time", r.mean, s.response_time);
        within(
            "served response time",
            r.mean_served,
            s.served_response_time,
        );
        within(
            "obsolete response time",
            r.mean_obsolete,
            s.obsolete_response_time,
        );
        let cdf = soj.cdf(&times).unwrap();
        let served = soj.cdf_served(&times).unwrap();
        for k in 0..times.len() {
            within("sojourn cdf", cdf[k], s.sojourn_cdf[k]);
            within("served sojourn cdf", served[k], s.served_sojourn_cdf[k]);
        }
    }
}

// ---- Iterative solver (R ≥ 2) -----------------------------------------

#[test]
fn iterative_solver_matches_dense_lu() {
    use super::iterative::iterative_solve;
    for seed in 0..6 {
        let model = random_model(seed);
        let policy = Policy::new(vec![3, 2, 1], vec![0, 2]).unwrap();
        let q = generator(&model, &policy).unwrap();
        let (pi, info) = iterative_solve(&q, 1e-14, &crate::limits::Control::default()).unwrap();
        let s: f64 = pi.iter().sum();
        let pi: Vec<f64> = pi.iter().map(|x| x / s).collect();
        let exact = dense_solve(&q).unwrap();
        for (x, y) in pi.iter().zip(&exact) {
            assert!((x - y).abs() < 1e-12, "seed {seed}: {x} vs {y} ({info:?})");
        }
        assert!(residual(&q, &pi) < 1e-13);
    }
}

/// Levels above MAX_BLOCK_LEVEL states switch to the iterative method; its
/// answer matches sparse LU and carries a residual certificate.
#[test]
fn large_levels_use_the_iterative_method() {
    use super::solve::{MAX_BLOCK_LEVEL, Method, sparse_solve, stationary};
    let ob = PhaseType::erlang(2, 0.3).unwrap();
    let service = PhaseType::erlang(2, 3.0).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let arrivals = compose::scaled(&random_bmap(&mut rng, 2, 2), 2).unwrap();
    let model = ThresholdModel::new(arrivals, service, Some(ob), 8).unwrap();
    assert!(model.space().level_size(model.space().max_level()) > MAX_BLOCK_LEVEL);
    let policy = Policy::new(vec![2, 1], vec![3]).unwrap();
    let q = generator(&model, &policy).unwrap();
    let direct = super::iterative::iterative_solve(
        &q,
        super::solve::ITERATIVE_TOLERANCE,
        &crate::limits::Control::default(),
    );
    let (pi, method) = stationary(model.space(), &q).unwrap();
    assert_eq!(method, Method::Iterative, "{:?}", direct.map(|x| x.1));
    assert!((pi.iter().sum::<f64>() - 1.0).abs() < 1e-14);
    assert!(residual(&q, &pi) < 1e-12);
    let exact = sparse_solve(&q).unwrap();
    let diff = pi
        .iter()
        .zip(&exact)
        .fold(0.0_f64, |m, (x, y)| m.max((x - y).abs()));
    assert!(diff < 1e-12, "max difference {diff}");
}

#[test]
fn evaluation_bytes_match_the_band_the_block_solver_allocates() {
    // The closed-form estimate equals the per-state bytes plus 8 bytes per
    // entry of the band block_entries() counts from the built state space.
    for seed in 0..6 {
        let model = random_model(seed);
        let sp = model.space();
        let (w, m, r) = sp.phases();
        let k = (1..=model.max_robots())
            .map(|i| model.arrivals(i).max_batch())
            .max()
            .unwrap();
        let band = super::solve::block_entries(sp, k).unwrap() as u128;
        let want = super::solve::BYTES_PER_STATE * sp.len() as u128 + 8 * band;
        assert_eq!(
            super::solve::evaluation_bytes(w, m, r, sp.max_level(), k, &model.row_pattern()),
            Some(want),
            "seed {seed}"
        );
    }
    let model = poisson_model(1.0, 2.0, Some(0.5), 40);
    let band = super::solve::block_entries(model.space(), 1).unwrap() as u128;
    assert_eq!(
        super::solve::evaluation_bytes(1, 1, 1, 41, 1, &model.row_pattern()),
        Some(352 * 42 + 8 * band)
    );
}

/// Chains with levels above MAX_BLOCK_LEVEL are estimated by the iterative
/// method's memory, from a bound on the generator's entries that holds and
/// is tight within a small factor; the band estimate (cubic in the top
/// level) would refuse them: a 65,532-state Erlang-2 obsolescence chain
/// fits, where the band estimate says 25 GiB.
#[test]
fn iterative_chains_are_estimated_by_their_entries() {
    use super::solve::{
        MAX_BLOCK_LEVEL, RowPattern, block_bytes, evaluation_bytes, generator_size, iterative_bytes,
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    for (k, robots, buffer) in [(1, 1, 9), (2, 2, 8), (3, 2, 9), (3, 3, 8), (5, 1, 10)] {
        let one = random_bmap(&mut rng, 2, k);
        let arrivals = compose::scaled(&one, robots).unwrap();
        let model = ThresholdModel::new(
            arrivals,
            PhaseType::erlang(2, 3.0).unwrap(),
            Some(PhaseType::erlang(2, 0.3).unwrap()),
            buffer,
        )
        .unwrap();
        let sp = model.space();
        assert!(
            sp.level_size(sp.max_level()) > MAX_BLOCK_LEVEL,
            "k {k} buffer {buffer}"
        );
        let (w, m, r) = sp.phases();
        let thresholds: Vec<usize> = (1..robots).map(|i| i * buffer / robots).collect();
        let policy = Policy::new((1..=robots).rev().collect(), thresholds).unwrap();
        let q = generator(&model, &policy).unwrap();
        let pattern = model.row_pattern();
        assert_eq!(
            pattern,
            RowPattern {
                starts: 1,
                fresh: 1,
                page_moves: 1
            }
        );
        let (states, bound) = generator_size(w, m, r, sp.max_level(), k, &pattern).unwrap();
        assert_eq!(states, sp.len() as u128);
        let nnz = q.nnz() as u128;
        assert!(
            nnz <= bound && bound <= 2 * nnz,
            "k {k} buffer {buffer}: {nnz} entries, bound {bound}"
        );
        // Without the pattern the bound still holds.
        let dense = RowPattern::dense(m, r);
        assert!(
            generator_size(w, m, r, sp.max_level(), k, &dense)
                .unwrap()
                .1
                >= bound
        );
        let bytes = evaluation_bytes(w, m, r, sp.max_level(), k, &pattern).unwrap();
        assert_eq!(
            Some(bytes),
            iterative_bytes(w, m, r, sp.max_level(), k, &pattern)
        );
        let band = block_bytes(w, m, r, sp.max_level(), k).unwrap();
        assert!(
            bytes * 4 < band,
            "k {k} buffer {buffer}: {bytes} vs band {band}"
        );
    }
    // A dense pattern (hyperexponential obsolescence, Coxian service) too.
    for seed in 0..4 {
        let model = random_model(seed);
        let sp = model.space();
        let (w, m, r) = sp.phases();
        let k = (1..=model.max_robots())
            .map(|i| model.arrivals(i).max_batch())
            .max()
            .unwrap();
        let q = generator(&model, &Policy::new(vec![3, 2, 1], vec![0, 2]).unwrap()).unwrap();
        let bound = generator_size(w, m, r, sp.max_level(), k, &model.row_pattern())
            .unwrap()
            .1;
        assert!(
            q.nnz() as u128 <= bound && bound <= 3 * q.nnz() as u128,
            "seed {seed}: {} entries, bound {bound}",
            q.nnz()
        );
    }
    // The benchmark's R = 2 family at buffer 12: accepted and solved.
    let one = random_bmap(&mut rng, 4, 3);
    let model = ThresholdModel::new(
        vec![one],
        PhaseType::erlang(2, 3.0).unwrap(),
        Some(PhaseType::erlang(2, 0.3).unwrap()),
        12,
    )
    .unwrap();
    assert_eq!(model.space().len(), 65532);
    let m = evaluate(&model, &Policy::fixed(1).unwrap()).unwrap();
    assert!(
        m.residual < 1e-12 && m.loss_probability > 0.0 && m.loss_probability < 1.0,
        "{m:?}"
    );
}

/// The M/M/1/41+M chain (42 states) with one robot, and a fresh control.
fn control_fixture() -> (ThresholdModel, Policy, crate::limits::Control) {
    let model = poisson_model(1.0, 2.0, Some(0.5), 40);
    (
        model,
        Policy::fixed(1).unwrap(),
        crate::limits::Control::new(),
    )
}

#[test]
fn control_caps_memory_and_cancels_the_search() {
    let (model, policy, control) = control_fixture();
    control.set_memory_limit(Some(1000));
    let e = evaluate_with(&model, &policy, &control).unwrap_err();
    assert!(
        matches!(&e, Error::TooLarge(m) if m.contains("42 states") && m.contains("memory limit")),
        "{e:?}"
    );
    control.set_memory_limit(None);
    assert_eq!(
        evaluate_with(&model, &policy, &control).unwrap(),
        evaluate(&model, &policy).unwrap()
    );
    let w = CostWeights {
        loss: 3.0,
        obsolescence: 1.0,
        response: 0.2,
        robots: 0.5,
        starvation: 2.0,
    };
    let arrivals = vec![Bmap::poisson(0.5).unwrap(), Bmap::poisson(1.0).unwrap()];
    let two =
        ThresholdModel::new(arrivals, PhaseType::exponential(2.0).unwrap(), None, 10).unwrap();
    control.cancel();
    let e = optimize_with(&two, &[2, 1], &w, 1000, &control).unwrap_err();
    assert!(
        matches!(&e, Error::Cancelled(m) if m.contains("after 0 iterations")),
        "{e:?}"
    );
    control.reset();
    control.set_max_iterations(Some(5));
    // 11 vectors needed, the control allows 5: refused before any work.
    let e = optimize_with(&two, &[2, 1], &w, 1000, &control).unwrap_err();
    assert!(
        matches!(&e, Error::TooLarge(m) if m.contains("11 threshold vectors")),
        "{e:?}"
    );
    control.set_max_iterations(None);
    assert_eq!(
        optimize_with(&two, &[2, 1], &w, 1000, &control).unwrap(),
        optimize(&two, &[2, 1], &w, 1000).unwrap()
    );
}

#[test]
fn control_cancels_a_simulation_from_another_thread() {
    let (model, policy, control) = control_fixture();
    let plain = simulate_sojourns(&model, &policy, 10.0, 1000.0, 10, 3, &[1.0]).unwrap();
    assert_eq!(
        simulate_sojourns_with(&model, &policy, 10.0, 1000.0, 10, 3, &[1.0], &control).unwrap(),
        plain
    );
    // A horizon of 10^12 (about 3e12 events): only the cancel ends it.
    let c2 = control.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        c2.cancel();
    });
    let r = simulate_sojourns_with(&model, &policy, 0.0, 1e12, 10, 3, &[], &control);
    canceller.join().unwrap();
    assert!(
        matches!(&r, Err(Error::Cancelled(m)) if m.contains("threshold simulation")),
        "{r:?}"
    );
}

#[test]
fn control_caps_memory_and_cancels_the_sojourn() {
    let (model, policy, control) = control_fixture();
    control.set_memory_limit(Some(1000));
    let e = sojourn_with(&model, &policy, &control).unwrap_err();
    assert!(
        matches!(&e, Error::TooLarge(m) if m.contains("sojourn") && m.contains("memory limit")),
        "{e:?}"
    );
    control.set_memory_limit(None);
    control.cancel();
    let e = sojourn_with(&model, &policy, &control).unwrap_err();
    assert!(
        matches!(&e, Error::Cancelled(m) if m.contains("after 0 iterations")),
        "{e:?}"
    );
    control.reset();
    let soj = sojourn_with(&model, &policy, &control).unwrap();
    let plain = sojourn(&model, &policy).unwrap();
    assert_eq!(soj.means(), plain.means());
    assert_eq!(soj.cdf(&TIMES).unwrap(), plain.cdf(&TIMES).unwrap());
    // The sojourn keeps its control: a later distribution stops too.
    control.cancel();
    let e = soj.cdf(&TIMES).unwrap_err();
    assert!(matches!(&e, Error::Cancelled(_)), "{e:?}");
    assert!(plain.cdf(&TIMES).is_ok());
}

/// A nearly decomposable chain (obsolescence 10^17 times slower than
/// service): BiCGSTAB cannot reduce its residual. The solve stops within
/// two stall windows (the first halves it) instead of running to
/// MAX_ITERATIONS, and a cancelled
/// control stops it before the first iteration.
#[test]
fn iterative_solve_stops_on_a_stall_and_on_cancel() {
    use super::iterative::{MAX_ITERATIONS, STALL_WINDOW, iterative_solve};
    use crate::limits::Control;
    let model = ThresholdModel::new(
        vec![Bmap::poisson(22.5).unwrap(), Bmap::poisson(22.5).unwrap()],
        PhaseType::erlang(4, 22.5).unwrap(),
        Some(PhaseType::erlang(4, 3.425122646291365e-16).unwrap()),
        4,
    )
    .unwrap();
    let q = generator(&model, &Policy::fixed(1).unwrap()).unwrap();
    let (_, info) = iterative_solve(&q, 1e-14, &Control::default()).unwrap();
    assert!(info.iterations <= 2 * STALL_WINDOW, "{info:?}");
    assert!(info.iterations < MAX_ITERATIONS);
    assert!(info.relative_residual > 1e-3, "{info:?}");
    let control = Control::new();
    control.cancel();
    match iterative_solve(&q, 1e-14, &control) {
        Err(Error::Cancelled(m)) => assert!(m.contains("after 0 iterations"), "{m}"),
        other => panic!("expected Cancelled, got {other:?}"),
    }
}
