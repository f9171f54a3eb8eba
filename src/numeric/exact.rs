//! Error-free transformations without a hardware FMA (on the x86-64
//! baseline `f64::mul_add` is a call through a runtime dispatch, per entry),
//! and sums of non-negative doubles on a fixed-point grid, exact in
//! integers, so that they do not depend on the order or grouping of terms.

use wide::f64x2;

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
    if !splits_exactly(a, b, p) {
        return a.mul_add(b, -p);
    }
    product_error_split(a, b, p)
}

/// [`product_error`] without its range check, for loops that must not
/// branch (or call `f64::mul_add`) per entry: the same bits where
/// [`splits_exactly`] holds, meaningless elsewhere.
#[inline]
pub(crate) fn product_error_split(a: f64, b: f64, p: f64) -> f64 {
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    ((ah * bh - p) + ah * bl + al * bh) + al * bl
}

/// [`product_error`] takes its splitting route for a, b and p = a·b.
#[inline]
pub(crate) fn splits_exactly(a: f64, b: f64, p: f64) -> bool {
    p.abs() >= PRODUCT_MIN && a.abs() <= SPLIT_MAX && b.abs() <= SPLIT_MAX
}

/// [`product_error_split`] in two lanes (the same bits per lane).
#[inline]
pub(crate) fn product_error_split2(a: f64x2, b: f64x2, p: f64x2) -> f64x2 {
    let split2 = |x: f64x2| {
        let c = f64x2::splat(SPLIT) * x;
        let hi = c - (c - x);
        (hi, x - hi)
    };
    let (ah, al) = split2(a);
    let (bh, bl) = split2(b);
    ((ah * bh - p) + ah * bl + al * bh) + al * bl
}

/// Fractional bits of [`GridSum`]: each term is truncated to a multiple of
/// 2^−80 (≈ 8.3e−25), so 10^9 terms lose less than 1e−15 in total.
pub const GRID_BITS: u32 = 80;

/// A sum of non-negative doubles, each truncated onto the grid of
/// multiples of 2^−[`GRID_BITS`] and added exactly as an integer, so that
/// any order or grouping of the same terms gives the same value. Saturates
/// at [`GridSum::MAX`] (about 2.8e14): every sum at or above it compares
/// equal. Added with [`GridSum::plus`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Hash)]
pub struct GridSum(u128);

impl GridSum {
    /// The empty sum.
    pub const ZERO: GridSum = GridSum(0);
    /// The saturated sum.
    pub const MAX: GridSum = GridSum(u128::MAX);
    /// The sum 1.
    pub const ONE: GridSum = GridSum(1 << GRID_BITS);

    /// The term `x` (≥ 0; NaN and negative values count as 0, +∞ and
    /// values beyond the range as [`GridSum::MAX`]) truncated onto the grid.
    #[inline]
    pub fn of(x: f64) -> GridSum {
        if x.is_nan() || x <= 0.0 {
            return GridSum::ZERO;
        }
        let bits = x.to_bits();
        // x = m · 2^e with a 53-bit integer m (or fewer bits if subnormal).
        let biased = (bits >> 52) as i32;
        let (m, e) = if biased == 0 {
            (bits & ((1 << 52) - 1), -1074)
        } else {
            ((bits & ((1 << 52) - 1)) | (1 << 52), biased - 1075)
        };
        let shift = e + GRID_BITS as i32;
        if shift >= 128 - 53 {
            GridSum::MAX
        } else if shift >= 0 {
            GridSum(u128::from(m) << shift)
        } else if shift > -64 {
            GridSum(u128::from(m >> -shift))
        } else {
            GridSum::ZERO
        }
    }

    /// The sum of both (saturating: associative and commutative).
    #[inline]
    pub fn plus(self, other: GridSum) -> GridSum {
        GridSum(self.0.saturating_add(other.0))
    }

    /// The value rounded to a double.
    pub fn to_f64(self) -> f64 {
        // Exact: a power-of-two scale.
        (self.0 as f64) * f64::from_bits(((1023 - GRID_BITS) as u64) << 52)
    }

    /// The integer count of grid units as (high, low) 64-bit words, the
    /// form in which it crosses the C API.
    pub fn words(self) -> (u64, u64) {
        ((self.0 >> 64) as u64, self.0 as u64)
    }

    /// The sum from [`GridSum::words`].
    pub fn from_words(hi: u64, lo: u64) -> GridSum {
        GridSum((u128::from(hi) << 64) | u128::from(lo))
    }
}

#[cfg(test)]
mod tests {
    use super::{GRID_BITS, GridSum, product_error};
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

    #[test]
    fn grid_sums_are_exact_truncations() {
        assert_eq!(GridSum::of(1.0), GridSum::ONE);
        assert_eq!(GridSum::of(0.5).plus(GridSum::of(0.5)), GridSum::ONE);
        assert_eq!(GridSum::of(0.75).to_f64(), 0.75);
        // 2^−80 is one unit; half of it truncates to nothing.
        let unit = 2f64.powi(-(GRID_BITS as i32));
        assert_eq!(GridSum::of(unit).words(), (0, 1));
        assert_eq!(GridSum::of(0.5 * unit), GridSum::ZERO);
        assert_eq!(GridSum::of(1.5 * unit).words(), (0, 1));
        assert_eq!(GridSum::of(5e-324), GridSum::ZERO);
        for bad in [0.0, -1.0, f64::NAN, f64::NEG_INFINITY] {
            assert_eq!(GridSum::of(bad), GridSum::ZERO);
        }
        assert_eq!(GridSum::of(f64::INFINITY), GridSum::MAX);
        assert_eq!(GridSum::of(1e300), GridSum::MAX);
        assert_eq!(GridSum::MAX.plus(GridSum::ONE), GridSum::MAX);
        // 2^40 = 2^(40+80) units: the high word holds 2^56.
        assert_eq!(GridSum::of(2f64.powi(40)).words(), (1 << 56, 0));
        let (hi, lo) = GridSum::of(3.25e9).words();
        assert_eq!(GridSum::from_words(hi, lo).to_f64(), 3.25e9);
    }

    /// Any order and grouping of the same terms gives the same bits, and
    /// the value is the float sum to within the grid's truncation.
    #[test]
    fn grid_sums_do_not_depend_on_order() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let xs: Vec<f64> = (0..10_000)
            .map(|_| 10f64.powf(rng.random_range(-12.0..0.0)))
            .collect();
        let whole = xs
            .iter()
            .fold(GridSum::ZERO, |a, &x| a.plus(GridSum::of(x)));
        let rev = xs
            .iter()
            .rev()
            .fold(GridSum::ZERO, |a, &x| a.plus(GridSum::of(x)));
        let halves = xs[..3333]
            .iter()
            .fold(GridSum::ZERO, |a, &x| a.plus(GridSum::of(x)))
            .plus(
                xs[3333..]
                    .iter()
                    .fold(GridSum::ZERO, |a, &x| a.plus(GridSum::of(x))),
            );
        assert_eq!(whole, rev);
        assert_eq!(whole, halves);
        let float: f64 = xs.iter().sum();
        assert!((whole.to_f64() - float).abs() <= 1e-12 * float);
    }
}
