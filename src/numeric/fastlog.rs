//! ln(1 + x) over a slice, vectorised where the series suffices. Without
//! FMA or wider vectors (the x86-64 baseline), a range reduction with a
//! division per entry runs no faster than the C library's `log1p`; the
//! short series below, on slices whose entries are all small (q = μE\[X\]
//! of a page crawled far more often than it changes), runs several times
//! faster.

/// Largest |x| for the series.
pub(crate) const SMALL: f64 = 1.0 / 1024.0;

/// ln(1 + x) for |x| ≤ [`SMALL`] by its series to x⁶ (the first omitted
/// term is below 2^−62 |x|): no division; within 1 ulp, and x itself for
/// |x| < 2^−53 (signed zeros and subnormals included).
#[inline]
pub(crate) fn ln_1p_small(x: f64) -> f64 {
    let p = -1.0 / 6.0;
    let p = 0.2 + x * p;
    let p = -0.25 + x * p;
    let p = 1.0 / 3.0 + x * p;
    let p = -0.5 + x * p;
    x + (x * x) * p
}

/// xs_i ← ln(1 + xs_i) for every entry: the series where |xs_i| ≤
/// [`SMALL`], else `f64::ln_1p` (special values as there). Each entry's
/// value depends on it alone; a slice of small entries only is vectorised.
pub(crate) fn ln_1p_in_place(xs: &mut [f64]) {
    if xs.iter().fold(true, |ok, &x| ok & (x.abs() <= SMALL)) {
        xs.iter_mut().for_each(|x| *x = ln_1p_small(*x));
    } else {
        for x in xs {
            *x = if x.abs() <= SMALL {
                ln_1p_small(*x)
            } else {
                x.ln_1p()
            };
        }
    }
}

#[cfg(test)]
#[path = "fastlog_tests.rs"]
mod tests;
