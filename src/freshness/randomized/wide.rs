//! The randomized plan (15) when β spreads beyond what the scaled doubles
//! of the main route hold (β_i/β_max below [`WIDE_SPREAD`]: a page whose
//! β is capped at e^700 ≈ 10^304 next to one of β below 10^3, or
//! exponential X with rates 301 decades apart).
//!
//! With σ_i = √w_i in decreasing order, the active set is a prefix: page
//! k is active iff G_k = Σ_{i<k} β_i(σ_i − σ_k) < σ_k, where
//! G_{k+1} = G_k + S_{k+1}(σ_k − σ_{k+1}) and S_{k+1} = Σ_{i≤k} β_i, sums
//! of non-negative terms. On the active prefix ending at page k,
//! √λ = (G_k + σ_k S)/(1 + S) and σ_k − √λ = (σ_k − G_k)/(1 + S), so
//! x_i = β_i((σ_i − σ_k) + (σ_k − √λ))/√λ has one subtraction only (page
//! k's own margin). A page of β_i ≈ e^700 at the end of the prefix takes
//! x_k = 1 − Σ_{i<k} x_i to rounding. Every quantity is an [`Ext`], a
//! double with its own exponent, so nothing over- or underflows.

use super::{Model, Scaled, beta};
use crate::dist::Distribution;
use crate::error::{Error, Result};
use std::cmp::Ordering;

/// β_min/β_max below which [`super::optimal_frequencies_general`] takes
/// this route, 2^−1000: the main route's β' = β/β_max stay 22 bits above
/// the subnormals, where its sums lose them (it is checked over 10^300
/// spreads).
pub(super) const WIDE_SPREAD: f64 = f64::from_bits((1023 - 1000) << 52);

/// A non-negative m·2^e, m ∈ [1, 2) (or m = 0: zero), e unbounded.
#[derive(Debug, Clone, Copy)]
struct Ext {
    m: f64,
    e: i64,
}

/// 2^k for −1022 ≤ k ≤ 1023, from its bits.
fn pow2(k: i64) -> f64 {
    debug_assert!((-1022..=1023).contains(&k));
    f64::from_bits(((k + 1023) as u64) << 52)
}

impl Ext {
    const ZERO: Ext = Ext { m: 0.0, e: 0 };

    fn of(x: f64) -> Ext {
        if x == 0.0 {
            return Ext::ZERO;
        }
        Ext::from(Scaled::new(x))
    }

    fn from(s: Scaled) -> Ext {
        Ext { m: s.m, e: s.e }
    }

    /// m·2^e for any finite m ≥ 0 (renormalised).
    fn norm(m: f64, e: i64) -> Ext {
        if m == 0.0 {
            return Ext::ZERO;
        }
        let s = Scaled::new(m);
        Ext { m: s.m, e: e + s.e }
    }

    fn is_zero(self) -> bool {
        self.m == 0.0
    }

    fn mul(self, o: Ext) -> Ext {
        Ext::norm(self.m * o.m, self.e + o.e)
    }

    /// `o` > 0.
    fn div(self, o: Ext) -> Ext {
        Ext::norm(self.m / o.m, self.e - o.e)
    }

    /// The larger's mantissa with the smaller's aligned to it (0 when it
    /// lies below the larger's rounding).
    fn aligned(big: Ext, small: Ext) -> f64 {
        let de = small.e - big.e;
        if small.is_zero() || de < -60 {
            0.0
        } else {
            small.m * pow2(de)
        }
    }

    fn add(self, o: Ext) -> Ext {
        if self.is_zero() {
            return o;
        }
        if o.is_zero() {
            return self;
        }
        let (big, small) = if self.e >= o.e { (self, o) } else { (o, self) };
        Ext::norm(big.m + Ext::aligned(big, small), big.e)
    }

    /// self − o, 0 when o ≥ self.
    fn sub(self, o: Ext) -> Ext {
        if self.cmp(o) != Ordering::Greater {
            return Ext::ZERO;
        }
        Ext::norm(self.m - Ext::aligned(self, o), self.e)
    }

    fn sqrt(self) -> Ext {
        let odd = self.e.rem_euclid(2);
        Ext::norm((self.m * (1 + odd) as f64).sqrt(), self.e.div_euclid(2))
    }

    fn cmp(self, o: Ext) -> Ordering {
        match (self.is_zero(), o.is_zero()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => self.e.cmp(&o.e).then(self.m.total_cmp(&o.m)),
        }
    }

    /// The nearest double (0 below the subnormals, +∞ above f64::MAX).
    fn value(self) -> f64 {
        if self.is_zero() || self.e < -1100 {
            0.0
        } else if self.e > 1023 {
            f64::INFINITY
        } else if self.e >= -1022 {
            self.m * pow2(self.e)
        } else {
            // Exact to 2^(e+64), then one rounding into the subnormals.
            self.m * pow2(self.e + 64) * pow2(-64)
        }
    }

    /// A key whose unsigned order is the values' (positive values, with
    /// |e| < 2^10 + 2^9, as σ_i = √w_i has).
    fn key(self) -> u64 {
        ((self.e + 2048) as u64) << 52 | (self.m.to_bits() & ((1 << 52) - 1))
    }

    fn of_key(k: u64) -> Ext {
        let e = (k >> 52) as i64 - 2048;
        let m = f64::from_bits((k & ((1 << 52) - 1)) | (1023 << 52));
        Ext { m, e }
    }
}

/// β_i of [`super::fill_beta`] without its underflow: μ_i/rate exactly for
/// exponential X, capped at e^700 − 1 alike.
fn beta_of(model: &Model, i: usize, cap: Ext) -> Ext {
    let b = match *model.access() {
        Distribution::Exponential { rate } => Ext::of(model.change_rates()[i]).div(Ext::of(rate)),
        _ => {
            let mut a = [0.0];
            model.neg_log_h_into(i..i + 1, &mut a);
            Ext::of(beta(-a[0]))
        }
    };
    if b.cmp(cap) == Ordering::Greater {
        cap
    } else {
        b
    }
}

/// The plan into `f` (one entry per page): σ's keys in `f`, the pages
/// sorted by them (an index of 4 bytes per page), one walk down the order.
///
/// Errors: `TooLarge` from 2^32 pages; `NotConverged` if the plan does
/// not sum to a positive finite value.
pub(super) fn plan(model: &Model, f: &mut [f64]) -> Result<()> {
    let n = f.len();
    let Ok(count) = u32::try_from(n) else {
        return Err(Error::TooLarge(format!(
            "the randomized optimum of {n} pages with β spread beyond 10^301 \
             (at most 2^32 pages)"
        )));
    };
    for (i, x) in f.iter_mut().enumerate() {
        *x = f64::from_bits(Ext::from(model.scaled_weight(i)).sqrt().key());
    }
    let mut order: Vec<u32> = (0..count).collect();
    order.sort_unstable_by_key(|&i| std::cmp::Reverse(f[i as usize].to_bits()));
    let sigma = |f: &[f64], i: u32| Ext::of_key(f[i as usize].to_bits());
    let cap = Ext::of(700.0_f64.exp_m1());
    // The walk: (S, G) before each page; the last active page's σ, G and
    // S with it.
    let (mut s, mut g) = (Ext::ZERO, Ext::ZERO);
    let mut last = (Ext::ZERO, Ext::ZERO, Ext::ZERO);
    let mut active = 0;
    for (k, &i) in order.iter().enumerate() {
        let sig = sigma(f, i);
        if k > 0 {
            g = g.add(s.mul(last.0.sub(sig)));
        }
        if g.cmp(sig) != Ordering::Less {
            break;
        }
        s = s.add(beta_of(model, i as usize, cap));
        last = (sig, g, s);
        active = k + 1;
    }
    let (sig_k, g_k, s_k) = last;
    let one_s = Ext::of(1.0).add(s_k);
    let margin = sig_k.sub(g_k).div(one_s);
    let root = g_k.add(sig_k.mul(s_k)).div(one_s);
    let mut total = 0.0;
    for &i in &order[..active] {
        let b = beta_of(model, i as usize, cap);
        let x = b.mul(sigma(f, i).sub(sig_k).add(margin)).div(root).value();
        f[i as usize] = x;
        total += x;
    }
    for &i in &order[active..] {
        f[i as usize] = 0.0;
    }
    if !(total.is_finite() && total > 0.0) {
        return Err(Error::NotConverged(format!(
            "the wide-range randomized plan sums to {total}"
        )));
    }
    f.iter_mut().for_each(|x| *x /= total);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Ext;
    use std::cmp::Ordering;

    /// The extended arithmetic against doubles where both apply, and past
    /// the doubles' range against powers of two.
    #[test]
    fn ext_arithmetic_matches_doubles_and_extends_them() {
        let v = |x: f64| Ext::of(x);
        for &(a, b) in &[(3.0, 1.5), (1e-300, 7e-310), (2.5e300, 1e10), (1.0, 1e-20)] {
            assert_eq!(v(a).add(v(b)).value(), a + b);
            assert_eq!(v(a).sub(v(b)).value(), a - b);
            assert_eq!(v(a).mul(v(b)).value(), a * b);
            assert_eq!(v(a).div(v(b)).value(), a / b);
            assert_eq!(v(a).sqrt().value(), a.sqrt());
            assert_eq!(v(a).cmp(v(b)), Ordering::Greater);
            assert!(v(a).key() > v(b).key());
            assert_eq!(Ext::of_key(v(b).key()).value(), b);
        }
        assert!(v(1.0).sub(v(2.0)).is_zero());
        assert_eq!(v(5e-324).value(), 5e-324);
        assert_eq!(v(3e-320).mul(v(0.5)).value(), 1.5e-320);
        // (2^1000)^2 / 2^1990 = 2^10; √(2^-2000) = 2^-1000.
        let big = v(2f64.powi(1000));
        assert_eq!(
            big.mul(big)
                .div(v(2f64.powi(995)).mul(v(2f64.powi(995))))
                .value(),
            1024.0
        );
        let tiny = v(2f64.powi(-1000)).mul(v(2f64.powi(-1000)));
        assert_eq!(tiny.value(), 0.0);
        assert_eq!(tiny.sqrt().value(), 2f64.powi(-1000));
        assert_eq!(big.mul(big).value(), f64::INFINITY);
    }
}
