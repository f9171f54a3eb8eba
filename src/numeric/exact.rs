//! Error-free transformations without a hardware FMA: on the x86-64
//! baseline `f64::mul_add` is a call through a runtime dispatch, per entry.

/// 2^27 + 1: Veltkamp's splitting constant for doubles.
const SPLIT: f64 = 134_217_729.0;

/// Below this |a·b| the error of the product may underflow; above
/// [`SPLIT_MAX`] a factor's split may overflow: there `f64::mul_add`.
const PRODUCT_MIN: f64 = 1.0e-290;
const SPLIT_MAX: f64 = 1.0e290;

/// (hi, lo) halves of x with 26 and 27 significant bits, x = hi + lo.
#[inline]
fn split(x: f64) -> (f64, f64) {
    let c = SPLIT * x;
    let hi = c - (c - x);
    (hi, x - hi)
}

/// a·b − p exactly, for p = a·b rounded (Dekker's TwoProduct): the same
/// bits as `a.mul_add(b, -p)`, which it calls where splitting could
/// overflow or the error underflow.
#[inline]
pub(crate) fn product_error(a: f64, b: f64, p: f64) -> f64 {
    if !(p.abs() >= PRODUCT_MIN && a.abs() <= SPLIT_MAX && b.abs() <= SPLIT_MAX) {
        return a.mul_add(b, -p);
    }
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    ((ah * bh - p) + ah * bl + al * bh) + al * bl
}

#[cfg(test)]
mod tests {
    use super::product_error;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn same_bits_as_fma_over_every_magnitude() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let draw = |rng: &mut Xoshiro256PlusPlus| {
            let m = 2f64.powf(rng.random_range(-1074.0..1023.0));
            if rng.random_range(0..2) == 0 { m } else { -m }
        };
        for _ in 0..2_000_000 {
            let (a, b) = (draw(&mut rng), draw(&mut rng));
            let p = a * b;
            if p.is_finite() {
                let e = product_error(a, b, p);
                assert_eq!(e.to_bits(), a.mul_add(b, -p).to_bits(), "{a:e} * {b:e}");
            }
        }
        // Factors in (0, 1] as the randomized solver has them.
        for _ in 0..2_000_000 {
            let (a, b) = (rng.random_range(0.0..=1.0), rng.random_range(0.0..=1.0));
            let p = a * b;
            assert_eq!(product_error(a, b, p).to_bits(), a.mul_add(b, -p).to_bits());
        }
        for (a, b) in [
            (0.0, 1.0),
            (1.0, 1.0),
            (f64::MAX, 0.5),
            (5e-324, 3.0),
            (1e150, 1e150),
        ] {
            let p: f64 = a * b;
            assert_eq!(product_error(a, b, p).to_bits(), a.mul_add(b, -p).to_bits());
        }
    }
}
