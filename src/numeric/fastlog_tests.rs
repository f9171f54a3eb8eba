use super::{SMALL, ln_1p_in_place};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Distance in units in the last place between two finite doubles.
fn ulps(a: f64, b: f64) -> u64 {
    let key = |x: f64| {
        let i = x.to_bits() as i64;
        if i < 0 { i64::MIN - i } else { i }
    };
    key(a).abs_diff(key(b))
}

/// ln_1p_in_place on a copy of `xs`, each entry within `max_ulps` of
/// `f64::ln_1p` (itself within 1 ulp of the exact value).
fn check(xs: &[f64], max_ulps: u64) {
    let mut out = xs.to_vec();
    ln_1p_in_place(&mut out);
    for (&x, &y) in xs.iter().zip(&out) {
        let e = x.ln_1p();
        assert!(ulps(y, e) <= max_ulps, "{x:e}: {y:e} vs {e:e}");
    }
}

#[test]
fn series_within_two_ulps_of_std_over_every_small_magnitude() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
    // Log-uniform magnitudes from the smallest subnormal up to SMALL,
    // both signs: 4 million values in slices of one page chunk.
    let xs: Vec<f64> = (0..4_000_000)
        .map(|_| {
            let m = 2f64.powf(rng.random_range(-1074.0..-10.0));
            if rng.random_range(0..2) == 0 { m } else { -m }
        })
        .collect();
    for c in xs.chunks(8192) {
        check(c, 2);
    }
    // Uniform on [−SMALL, SMALL] (where the omitted terms are largest).
    let xs: Vec<f64> = (0..1_000_000)
        .map(|_| rng.random_range(-SMALL..=SMALL))
        .collect();
    check(&xs, 2);
}

#[test]
fn edges_of_the_series() {
    // SMALL and its neighbours, powers of two down to the subnormals,
    // signed zeros: exact where std is exact.
    let mut xs = vec![
        SMALL,
        -SMALL,
        SMALL.next_down(),
        -SMALL.next_down(),
        0.0,
        -0.0,
    ];
    for e in -1074..=-10 {
        let p = 2f64.powi(e);
        xs.extend([p, -p, p.next_up(), p.next_down()]);
    }
    check(&xs, 2);
    let mut out = xs.clone();
    ln_1p_in_place(&mut out);
    for (&x, &y) in xs.iter().zip(&out) {
        if x.abs() < 2f64.powi(-53) {
            assert_eq!(y.to_bits(), x.to_bits(), "{x:e}");
        }
        // Positive for every positive x (the model's h < 1 relies on it).
        assert!(x <= 0.0 || y > 0.0, "{x:e}");
    }
}

#[test]
fn large_and_special_entries_as_std_bit_for_bit() {
    // Entries beyond SMALL (and special values) are f64::ln_1p's; the
    // small ones in the same slice keep the series' value.
    let xs = [
        1e-5,
        SMALL.next_up(),
        0.5,
        -0.5,
        1e300,
        f64::MAX,
        -1.0,
        f64::INFINITY,
        5e-324,
    ];
    let mut out = xs;
    ln_1p_in_place(&mut out);
    let mut alone = [1e-5, 5e-324];
    ln_1p_in_place(&mut alone);
    assert_eq!([out[0], out[8]], alone);
    for (x, y) in xs.iter().zip(out).filter(|(x, _)| x.abs() > SMALL) {
        assert_eq!(y.to_bits(), x.ln_1p().to_bits(), "{x:e}");
    }
    let mut out = [f64::NAN, -2.0, f64::NEG_INFINITY];
    ln_1p_in_place(&mut out);
    assert!(out.iter().all(|y| y.is_nan()));
}
