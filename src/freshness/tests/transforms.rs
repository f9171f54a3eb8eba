//! Model::new's transforms for the costly laws (empirical, phase-type)
//! against independent references: per-sample −expm1 summed with
//! compensation (numeric::series::neumaier_sum, tested there), and the hyperexponential and Coxian closed forms.
use crate::dist::{Distribution, PhaseType};
use crate::freshness::Model;
use crate::numeric::series::{self, neumaier_sum};

/// Ulps allowed on ln h and 1 − h.
const ULPS: f64 = 8.0;

/// |a − b| in ulps of b (normal range).
fn ulps(a: f64, b: f64) -> f64 {
    (a - b).abs() / (b.abs().max(f64::MIN_POSITIVE) * f64::EPSILON)
}

/// (1 − h, ln h) from the complement and the transform, each summed
/// without cancellation.
fn from_parts(c: f64, h: f64) -> (f64, f64) {
    (c, if c <= 0.5 { (-c).ln_1p() } else { h.ln() })
}

fn empirical_reference(xs: &[f64], s: f64) -> (f64, f64) {
    let n = xs.len() as f64;
    let c = neumaier_sum(xs.iter().map(|x| -(-s * x).exp_m1())) / n;
    from_parts(c, neumaier_sum(xs.iter().map(|x| (-s * x).exp())) / n)
}

fn hyperexponential_reference(p: &[f64], r: &[f64], s: f64) -> (f64, f64) {
    let pr = || p.iter().zip(r);
    let c = neumaier_sum(pr().map(|(p, r)| p / (1.0 + r / s)));
    from_parts(c, neumaier_sum(pr().map(|(p, r)| p / (1.0 + s / r))))
}

/// Exit after phase j with probability P_j, then h = Σ P_j Π_{i≤j}
/// r_i/(r_i + s).
fn coxian_reference(rates: &[f64], cont: &[f64], s: f64) -> (f64, f64) {
    let (mut reach, mut log_prod) = (1.0, 0.0);
    let (mut cs, mut hs) = (vec![], vec![]);
    for (j, r) in rates.iter().enumerate() {
        log_prod -= (s / r).ln_1p();
        let stop = reach * cont.get(j).map_or(1.0, |c| 1.0 - c);
        cs.push(-stop * log_prod.exp_m1());
        hs.push(stop * log_prod.exp());
        reach *= cont.get(j).copied().unwrap_or(0.0);
    }
    from_parts(neumaier_sum(cs.into_iter()), neumaier_sum(hs.into_iter()))
}

/// Rates 10^(e/8), e in −2400..=2400, where the reference's h is a normal
/// number strictly inside (0, 1) and q = μE\[X] is finite.
fn rates(law: &Distribution, reference: &dyn Fn(f64) -> (f64, f64)) -> Vec<f64> {
    (-2400..=2400)
        .map(|e| 10f64.powf(f64::from(e) / 8.0))
        .filter(|&s| {
            let (c, l) = reference(s);
            let h_normal = l > f64::MIN_POSITIVE.ln() + 1.0;
            c >= f64::MIN_POSITIVE && h_normal && (s * law.mean()).is_finite()
        })
        .collect()
}

/// Model::new's ln h and 1 − h within [`ULPS`] of the reference at every
/// rate of [`rates`] with s·τ ≤ `max_u` (τ the series' scale: the largest
/// sample, or the largest mean time to absorption from a phase).
fn check(
    name: &str,
    law: &Distribution,
    (tau, max_u): (f64, f64),
    reference: &dyn Fn(f64) -> (f64, f64),
) {
    let mut mu = rates(law, reference);
    mu.retain(|s| s * tau <= max_u);
    assert!(!mu.is_empty(), "{name}");
    let m = Model::new(law.clone(), &mu, None).unwrap();
    for (i, &s) in mu.iter().enumerate() {
        let (c, l) = reference(s);
        let (mc, ml) = (m.one_minus_h()[i], m.log_h()[i]);
        assert!(
            ulps(ml, l) <= ULPS,
            "{name} mu={s:e} (u={:e}): ln h {ml:e} vs {l:e}",
            s * tau
        );
        assert!(
            ulps(mc, c) <= ULPS,
            "{name} mu={s:e} (u={:e}): 1-h {mc:e} vs {c:e}",
            s * tau
        );
    }
}

#[test]
fn empirical_transforms_match_the_compensated_sum() {
    let wide = (0..1000).map(|j| {
        if j % 97 == 0 {
            0.0
        } else {
            10f64.powf(-300.0 + 600.0 * f64::from(j) / 999.0)
        }
    });
    let exp_quantiles = (0..1000).map(|j| 5e-7 * -(1.0 - (f64::from(j) + 0.5) / 1000.0).ln());
    let laws: [(&str, Vec<f64>); 8] = [
        ("1e-300..1e300 with zeros", wide.collect()),
        ("one sample", vec![3.7]),
        ("1000 equal", vec![0.3; 1000]),
        (
            "equal and zeros",
            (0..1000).map(|j| 0.3 * f64::from(j % 2)).collect(),
        ),
        ("tiny", vec![1e-300, 2e-300, 5e-301]),
        ("near f64::MAX", vec![1e300, f64::MAX, 5e307]),
        (
            "one outlier",
            (0..1000)
                .map(|j| if j == 0 { 1e10 } else { 1e-3 * f64::from(j) })
                .collect(),
        ),
        ("exponential quantiles", exp_quantiles.collect()),
    ];
    for (name, xs) in laws {
        let tau = xs.iter().copied().fold(0.0, f64::max);
        let law = Distribution::empirical(xs.clone()).unwrap();
        check(name, &law, (tau, f64::INFINITY), &|s| {
            empirical_reference(&xs, s)
        });
    }
}

#[test]
fn phase_type_transforms_match_the_closed_forms() {
    for (p, r) in [
        (vec![0.5, 0.5], vec![1e-8, 1e8]),
        (vec![1e-12, 1.0 - 1e-12], vec![1e-8, 1e8]),
        (vec![1.0 - 1e-12, 1e-12], vec![1e-8, 1e8]),
        (vec![0.3, 0.3, 0.4], vec![1e-150, 1.0, 1e150]),
        (vec![0.3, 0.3, 0.4], vec![1e-300, 1.0, 1e300]),
        (vec![0.2, 0.8], vec![1.0, 3.0]),
    ] {
        let law = Distribution::PhaseType(PhaseType::hyperexponential(&p, &r).unwrap());
        let tau = r.iter().map(|r| 1.0 / r).fold(0.0, f64::max);
        check(
            &format!("H {p:?} {r:?}"),
            &law,
            (tau, f64::INFINITY),
            &|s| hyperexponential_reference(&p, &r, s),
        );
    }
    // Mass 1/2 at zero (α sums to 1/2): 1 − h = Σ p_i s/(s + r_i), h ≥ 1/2.
    let (p, r) = ([0.3, 0.2], [1e-8, 1e8]);
    let law = Distribution::PhaseType(PhaseType::new(&p, &[-r[0], 0.0, 0.0, -r[1]]).unwrap());
    check("atom 1/2", &law, (1e8, f64::INFINITY), &|s| {
        hyperexponential_reference(&p, &r, s)
    });
    // Erlang(30) as a Coxian: the direct transform (an LU solve of order
    // 30) is checked only where the series replaces it.
    for (rates, cont, max_u) in [
        (vec![1e8, 1e-8], vec![0.5], f64::INFINITY),
        (vec![1e-8, 1e8], vec![0.5], f64::INFINITY),
        (
            vec![1e8, 1e-8, 1e8, 1e-8],
            vec![1.0, 1e-6, 1.0],
            f64::INFINITY,
        ),
        (vec![2.0; 30], vec![1.0; 29], series::U_MAX),
        (
            vec![1e8, 1e8, 1e8, 1e-8],
            vec![1.0, 1.0, 1e-10],
            f64::INFINITY,
        ),
    ] {
        let law = Distribution::PhaseType(PhaseType::coxian(&rates, &cont).unwrap());
        // The longest mean time to absorption is from the first phase.
        let tau = law.mean();
        check(
            &format!("Coxian {rates:?} {cont:?}"),
            &law,
            (tau, max_u),
            &|s| coxian_reference(&rates, &cont, s),
        );
    }
}

/// A dense phase-type generator with rates from 1e−8 to 1e8 and feedback,
/// against (1 − h, ln h) = (s α (sI − S)^{−1} 1, ln(1 − that)) solved in
/// 60-digit arithmetic (mpmath) from the same doubles.
#[test]
fn stiff_dense_phase_type_matches_a_60_digit_solve() {
    // S row by row.
    let s = [-1e8, 5e7, 4.9999999e7, 1e-8, -2e-8, 5e-9, 3.0, 1e-8, -4.0];
    let law = Distribution::PhaseType(PhaseType::new(&[0.5, 0.25, 0.25], &s).unwrap());
    let reference = [
        (1e-14, 8.888878925937086e-07, -8.888882876547854e-07),
        (1e-12, 8.887901257893543e-05, -8.888296255242216e-05),
        (1e-10, 0.008791208706582301, -0.00883007936289501),
        (
            3.1622776601683795e-10,
            0.02715500487782242,
            -0.027530515630405893,
        ),
        (1e-09, 0.07999999929280004, -0.08338160817035545),
        (
            3.1622776601683795e-09,
            0.208005620342779,
            -0.23320098358528846,
        ),
        (1e-08, 0.4210526296398893, -0.5465437030187879),
        (1e-06, 0.7928642997266107, -1.5743811436240365),
        (0.001, 0.8000727658375022, -1.6098018078235083),
        (1.0, 0.8571428476530614, -1.9459100826267453),
        (1000.0, 0.9995012443765651, -7.603394314766148),
        (100000000.0, 0.9999999937500001, -18.8906843906981),
    ];
    let mu: Vec<f64> = reference.iter().map(|r| r.0).collect();
    let m = Model::new(law, &mu, None).unwrap();
    for (i, &(s, c, l)) in reference.iter().enumerate() {
        let (mc, ml) = (m.one_minus_h()[i], m.log_h()[i]);
        assert!(ulps(mc, c) <= ULPS, "mu={s:e}: 1-h {mc:e} vs {c:e}");
        assert!(ulps(ml, l) <= ULPS, "mu={s:e}: ln h {ml:e} vs {l:e}");
    }
}

/// The fast path exists for the laws above: the scaled moments of each
/// pass [`series::ComplementSeries::from_scaled`]'s m_k ≤ m_1 check (a
/// rounding above it would silently send every rate to the direct form).
#[test]
fn the_series_is_built_for_stiff_and_long_phase_types() {
    let laws = [
        PhaseType::erlang(3, 2.0).unwrap(),
        PhaseType::erlang(30, 1e8).unwrap(),
        PhaseType::exponential(1e-300).unwrap(),
        PhaseType::coxian(&[1e8, 1e-8, 1e8, 1e-8], &[1.0, 1e-6, 1.0]).unwrap(),
        PhaseType::hyperexponential(&[0.3, 0.3, 0.4], &[1e-300, 1.0, 1e300]).unwrap(),
        PhaseType::new(&[0.6, 0.3], &[-3.0, 1.0, 0.5, -2.0]).unwrap(),
    ];
    for ph in laws {
        let law = Distribution::PhaseType(ph);
        assert!(
            crate::freshness::complement_series(&law).is_some(),
            "{law:?}"
        );
    }
    let equal = Distribution::empirical(vec![0.3; 1000]).unwrap();
    assert!(crate::freshness::complement_series(&equal).is_some());
}
