//! Cyclic accessing policies (Coffman, Liu, Weber §2, §5): integer access
//! counts, the golden-ratio sequence, a generic round robin, the exact cost
//! of any cyclic sequence (eq. 3 with Lemma 3.1) and the asymptotic bounds
//! (18)–(19) of Theorem 5.1 and Corollary 5.1.
//!
//! Exact cost: a cyclic sequence of length K in which page i has
//! inter-access distances d_1, …, d_m (Σ d_j = K, wrapping around the cycle)
//! has, by (3) and Lemma 3.1,
//!
//! r_i = (1/(K E\[X\])) Σ_j (d_j E\[X\] − (1 − h_i^{d_j})/μ_i)
//!     = [(q_i − a_i) + (1/K) Σ_j E1(d_j a_i)] / q_i,
//!
//! with q_i = μ_i E\[X\], a_i = −ln h_i and E1(x) = x − 1 + e^{−x}; the second
//! form (1 − h^d = −expm1(d ln h) folded into E1) has no cancellation when
//! r_i is small.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use super::Model;
use super::frequencies::{jensen_gap, q_and_a};
use crate::error::{Error, Result};
use crate::numeric::special::{e1, e1_over_x2};
use crate::validate;

/// Largest cycle length (number of accesses) that the sequence builders
/// will allocate: 2^27 ≈ 1.3·10^8 accesses (1 GiB of `usize`).
pub const MAX_CYCLE_LEN: usize = 1 << 27;

/// Largest `total` accepted by [`integer_counts`]: f_i·total must be exact
/// in f64 for the rounding guarantees to hold.
pub const MAX_COUNT_TOTAL: usize = 1 << 52;

fn too_large(what: &str, n: impl std::fmt::Display, max: usize) -> Error {
    Error::TooLarge(format!("{what} {n} exceeds the limit {max}"))
}

/// A `Vec` with capacity for `k` elements, or `TooLarge` if the allocation
/// fails (instead of aborting the process).
fn vec_with_capacity<T>(k: usize) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(k)
        .map_err(|e| Error::TooLarge(format!("cannot allocate {k} elements: {e}")))?;
    Ok(v)
}

/// Integer access counts per cycle for frequencies `f` (§5, the M^i_{k,N}):
/// ⌊f_i·total⌋ ≤ M_i ≤ ⌈f_i·total⌉ and Σ M_i = total, by largest remainder
/// (ties broken by the smaller page index).
///
/// `f` is first rescaled to sum exactly to one. A page with 0 < f_i·total < 1
/// gets 0 or 1 accesses, depending on its remainder, so it may be absent
/// from the cycle (and then its r_i = 1); use
/// [`integer_counts_at_least_one`] to prevent that. A page with f_i = 0
/// always gets 0.
///
/// Errors: `InvalidArgument` for an empty, non-finite, negative or
/// non-normalised `f`, or `total` = 0; `TooLarge` if `total` exceeds
/// [`MAX_COUNT_TOTAL`].
pub fn integer_counts(f: &[f64], total: usize) -> Result<Vec<usize>> {
    validate::non_empty("frequencies", f)?;
    validate::probability_vector("frequencies", f)?;
    if total == 0 {
        return Err(Error::invalid("the cycle length (total) must be >= 1"));
    }
    if total > MAX_COUNT_TOTAL {
        return Err(too_large("cycle length", total, MAX_COUNT_TOTAL));
    }
    let sum: f64 = f.iter().sum();
    let t = total as f64;
    let mut counts = vec![0usize; f.len()];
    let mut rem = vec![0.0; f.len()];
    let mut assigned: usize = 0;
    for (i, &fi) in f.iter().enumerate() {
        let x = (fi / sum * t).min(t);
        let fl = x.floor();
        // fl ≤ total ≤ 2^52, exactly representable and in range.
        counts[i] = fl as usize;
        rem[i] = x - fl;
        assigned = assigned.saturating_add(counts[i]);
    }
    // Only pages with f_i > 0 may receive a rounding unit.
    let mut cand: Vec<usize> = (0..f.len()).filter(|&i| f[i] > 0.0).collect();
    if assigned <= total {
        let by_rem = |i: &usize, j: &usize| rem[*j].total_cmp(&rem[*i]).then(i.cmp(j));
        let units = total - assigned;
        // Only which pages come first matters, and the order is total (ties
        // by index), so selecting them gives the pages a sort would.
        if units < cand.len() {
            cand.select_nth_unstable_by(units, by_rem);
        } else {
            cand.sort_by(by_rem);
        }
        // Σ rem = total − assigned < #cand mathematically; cycling only
        // guards against rounding.
        for k in 0..units {
            counts[cand[k % cand.len()]] += 1;
        }
    } else {
        // Products rounded up to an integer: take back from the smallest
        // remainders.
        cand.sort_by(|&i, &j| rem[i].total_cmp(&rem[j]).then(i.cmp(&j)));
        let mut excess = assigned - total;
        while excess > 0 {
            let before = excess;
            for &i in &cand {
                if excess == 0 {
                    break;
                }
                if counts[i] > 0 {
                    counts[i] -= 1;
                    excess -= 1;
                }
            }
            if before == excess {
                return Err(Error::NotConverged(
                    "integer rounding of counts failed".into(),
                ));
            }
        }
    }
    Ok(counts)
}

/// Like [`integer_counts`], but every page with f_i > 0 gets at least one
/// access: each such page left at 0 takes one access from the page with the
/// currently largest count (ties: smaller index). The ⌊f_i·total⌋ lower
/// bound may then fail for the pages that gave an access up.
///
/// Errors: as [`integer_counts`]; `Infeasible` if `total` is smaller than
/// the number of pages with f_i > 0.
pub fn integer_counts_at_least_one(f: &[f64], total: usize) -> Result<Vec<usize>> {
    let mut counts = integer_counts(f, total)?;
    let positive = f.iter().filter(|&&x| x > 0.0).count();
    if total < positive {
        return Err(Error::Infeasible(format!(
            "{positive} pages have positive frequency but the cycle has only {total} accesses"
        )));
    }
    let mut heap: BinaryHeap<(usize, Reverse<usize>)> = counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c >= 2)
        .map(|(i, &c)| (c, Reverse(i)))
        .collect();
    for i in 0..f.len() {
        if f[i] > 0.0 && counts[i] == 0 {
            // Σ counts over positive pages = total ≥ #positive, so while a
            // positive page has 0 another has ≥ 2 and the heap is non-empty.
            let Some((c, Reverse(j))) = heap.pop() else {
                return Err(Error::Infeasible("no page can spare an access".into()));
            };
            counts[j] = c - 1;
            counts[i] = 1;
            if c > 2 {
                heap.push((c - 1, Reverse(j)));
            }
        }
    }
    Ok(counts)
}

/// The smallest Fibonacci number ≥ `n`, in the standard numbering
/// F_1 = F_2 = 1, F_3 = 2, 3, 5, 8, 13, … (so 13 = F_7, which the paper's
/// §5 example calls F_8 — the paper's index is shifted by one). Returns 1
/// for n ≤ 1 and saturates at `usize::MAX` above the largest Fibonacci
/// number that fits (see [`checked_fibonacci_at_least`]).
pub fn fibonacci_at_least(n: usize) -> usize {
    checked_fibonacci_at_least(n).unwrap_or(usize::MAX)
}

/// [`fibonacci_at_least`], or `None` if that Fibonacci number overflows
/// `usize`.
pub fn checked_fibonacci_at_least(n: usize) -> Option<usize> {
    // `next` is None once the following Fibonacci number overflows; it is
    // only needed if the current one is still too small.
    let (mut cur, mut next) = (1usize, Some(1usize));
    while cur < n {
        let nx = next?;
        next = cur.checked_add(nx);
        cur = nx;
    }
    Some(cur)
}

/// ⌊2^128 / φ⌋ = ⌊2^128 (√5 − 1)/2⌋: frac(j/φ) in 128-bit fixed point is
/// j·PHI_INV_FIXED mod 2^128, exact integer arithmetic whose error,
/// j·2^{−128}, is far below the smallest gap between the points
/// frac(j/φ), j < K (about 1/(√5 K) by the three-gap theorem).
pub(super) const PHI_INV_FIXED: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;

/// frac(j φ⁻¹) as a 128-bit fixed-point fraction.
pub(super) fn golden_key(j: usize) -> u128 {
    (j as u128).wrapping_mul(PHI_INV_FIXED)
}

/// The cycle length K = Σ counts of the sequences [`golden_ratio_sequence`]
/// and [`round_robin_sequence`] build from `counts`, with their errors:
/// `InvalidArgument` for empty or all-zero counts, `TooLarge` if K
/// overflows or exceeds [`MAX_CYCLE_LEN`]. Nothing is allocated.
pub fn cycle_length(counts: &[usize]) -> Result<usize> {
    validate::non_empty("counts", counts)?;
    let k = counts
        .iter()
        .try_fold(0usize, |s, &c| s.checked_add(c))
        .ok_or_else(|| Error::TooLarge("the access counts overflow".into()))?;
    if k == 0 {
        return Err(Error::invalid("the access counts must not all be zero"));
    }
    if k > MAX_CYCLE_LEN {
        return Err(too_large("cycle length", k, MAX_CYCLE_LEN));
    }
    Ok(k)
}

/// The golden-ratio policy γ(k, N) of §5 (after Itai and Rosberg): with
/// K = Σ counts, page i (in index order) owns the next counts\[i\] consecutive
/// indices j, and index j is placed at the rank of frac(j/φ) among
/// {frac(j'/φ) : 0 ≤ j' < K}. Returns the page (0-based) at each of the K
/// positions.
///
/// The paper uses K = F_k (a Fibonacci number; see [`fibonacci_at_least`]
/// and [`integer_counts`]), where each page's inter-access distances take
/// at most three values F_j, F_{j+1}, F_{j+2}; any K works. For counts
/// (2, 3, 3, 5) this gives the paper's example {4,2,4,1,3,4,2,4,1,3,4,2,3}
/// (1-based) up to a cyclic rotation, which does not change the cost.
///
/// The ranks are exact: frac(j/φ) is compared in 128-bit fixed point
/// (`PHI_INV_FIXED`), and the sorted order is generated in O(K) without
/// sorting by the three-gap (Sós) successor rule: with a (resp. b) the index
/// in 1..K whose point is closest to 0 from above (resp. to 1 from below),
/// the point after j is j + a if j + a < K, else j − b if j ≥ b, else
/// j + a − b. When a + b = K (every Fibonacci K) the rule is
/// j ↦ (j + a) mod K, so index j has rank j·a⁻¹ mod K: the pages are then
/// written in index order, without looking up the page of an index.
///
/// Errors: `InvalidArgument` for empty or all-zero counts; `TooLarge` if K
/// overflows or exceeds [`MAX_CYCLE_LEN`], or the allocation fails.
pub fn golden_ratio_sequence(counts: &[usize]) -> Result<Vec<usize>> {
    let k = cycle_length(counts)?;
    let mut seq = vec_with_capacity(k)?;
    if k == 1 {
        // cycle_length guarantees a non-zero count.
        seq.extend(counts.iter().position(|&c| c > 0));
        return Ok(seq);
    }
    let (a, b) = extreme_points(k);
    match rank_multiplier(k, a, b) {
        Some(c) => write_by_rank(counts, k, c, &mut seq),
        None => write_by_successor(counts, k, a, b, &mut seq)?,
    }
    Ok(seq)
}

/// The indices a, b in 1..k (k ≥ 2) whose points frac(j/φ) are closest to
/// 0 from above and to 1 from below, by the fixed-point keys. A one-sided
/// best approximation of 1/φ = [0; 1, 1, …] has a convergent or
/// intermediate-fraction denominator q_{n−1} + t·q_n, 0 ≤ t ≤ a_{n+1} = 1, a
/// Fibonacci number, so scanning the Fibonacci numbers below k finds the
/// extremes of all of 1..k in O(log k).
pub(super) fn extreme_points(k: usize) -> (usize, usize) {
    let (mut a, mut b) = (1usize, 1usize);
    let (mut lo, mut hi) = (golden_key(1), golden_key(1));
    // (f, g): consecutive Fibonacci numbers; g < k ≤ MAX_CYCLE_LEN, so f + g fits.
    let (mut f, mut g) = (1usize, 2usize);
    while g < k {
        let key = golden_key(g);
        if key < lo {
            (lo, a) = (key, g);
        }
        if key > hi {
            (hi, b) = (key, g);
        }
        (f, g) = (g, f + g);
    }
    (a, b)
}

/// c with rank(j) = j·c mod k, when a + b = k: then j + a ≥ k ⇔ j ≥ b and
/// j − b = j + a − k, so the successor rule is j ↦ (j + a) mod k, position
/// p holds index p·a mod k and c = a⁻¹ mod k. For k = F_n, {a, b} =
/// {F_{n−1}, F_{n−2}} and Cassini's identity gives a² ≡ (−1)^n (mod k), so
/// c = a or k − a; the square is checked, `None` otherwise (and whenever
/// a + b ≠ k).
pub(super) fn rank_multiplier(k: usize, a: usize, b: usize) -> Option<usize> {
    if a.checked_add(b) != Some(k) {
        return None;
    }
    let sq = (a as u128 * a as u128) % k as u128;
    if sq == 1 {
        Some(a)
    } else if sq == k as u128 - 1 {
        Some(k - a)
    } else {
        None
    }
}

/// Fills `seq` (empty, capacity ≥ k = Σ counts) with page i at the ranks
/// j·c mod k of its indices j: one pass over the indices in order.
fn write_by_rank(counts: &[usize], k: usize, c: usize, seq: &mut Vec<usize>) {
    seq.resize(k, 0);
    let mut pos = 0usize;
    for (page, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            seq[pos] = page;
            // pos, c < k ≤ MAX_CYCLE_LEN: no overflow.
            pos += c;
            if pos >= k {
                pos -= k;
            }
        }
    }
}

/// Fills `seq` (empty, capacity ≥ k = Σ counts ≥ 2) by walking the ranks
/// with the successor rule from index 0 (the smallest point) and looking
/// up the page of each index.
fn write_by_successor(
    counts: &[usize],
    k: usize,
    a: usize,
    b: usize,
    seq: &mut Vec<usize>,
) -> Result<()> {
    // ends[i] = Σ_{m ≤ i} counts[m]: index j belongs to the first page with ends > j.
    let mut ends = vec_with_capacity(counts.len())?;
    let mut acc = 0usize;
    for &c in counts {
        acc += c;
        ends.push(acc);
    }
    // frac(0/φ) = 0 is the smallest point.
    let mut j = 0usize;
    for _ in 0..k {
        seq.push(ends.partition_point(|&e| e <= j));
        j = if j + a < k {
            j + a
        } else if j >= b {
            j - b
        } else {
            j + a - b
        };
    }
    Ok(())
}

/// One pending access of the round robin: the m-th access of `page`
/// (0-based) at virtual time (2m + 1)/(2 c).
#[derive(Eq, PartialEq)]
struct Pending {
    num: u128,
    den: u128,
    page: usize,
    m: usize,
}

impl Ord for Pending {
    fn cmp(&self, other: &Self) -> Ordering {
        // Min-heap on (time, page): BinaryHeap pops the greatest, so the
        // earlier time is "greater". Exact cross-multiplication: num ≤ 2K + 1
        // and den ≤ 2K with K ≤ MAX_CYCLE_LEN, far inside u128.
        (other.num * self.den)
            .cmp(&(self.num * other.den))
            .then(other.page.cmp(&self.page))
    }
}

impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A generic round robin realising integer counts (the "template driven"
/// policies mentioned at the end of §3): the m-th access (0-based) of page i
/// gets virtual time (m + ½)/counts\[i\], and the cycle lists all accesses in
/// order of (virtual time, page index). Accesses of each page are spread
/// as evenly as its count allows. Times are compared exactly (integer
/// cross-multiplication). O(K log N).
///
/// Errors: as [`golden_ratio_sequence`].
pub fn round_robin_sequence(counts: &[usize]) -> Result<Vec<usize>> {
    let k = cycle_length(counts)?;
    let mut seq = vec_with_capacity(k)?;
    let mut heap: BinaryHeap<Pending> = counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(i, &c)| Pending {
            num: 1,
            den: 2 * c as u128,
            page: i,
            m: 0,
        })
        .collect();
    while let Some(p) = heap.pop() {
        seq.push(p.page);
        let m = p.m + 1;
        if m < counts[p.page] {
            heap.push(Pending {
                num: 2 * m as u128 + 1,
                den: p.den,
                page: p.page,
                m,
            });
        }
    }
    Ok(seq)
}

/// Validates a cyclic sequence against a model with `n` pages.
fn check_sequence(n: usize, seq: &[usize]) -> Result<()> {
    validate::non_empty("sequence", seq)?;
    if let Some((pos, &p)) = seq.iter().enumerate().find(|(_, p)| **p >= n) {
        return Err(Error::invalid(format!(
            "sequence[{pos}] = {p} is not a page (the model has {n} pages)"
        )));
    }
    Ok(())
}

/// The inter-access distances d^i_j of every page in the cyclic sequence
/// `seq` (§2), in order of the accesses, the last one wrapping around the
/// cycle; each page's distances sum to K = seq.len() (a page accessed once
/// has the single distance K). Pages absent from `seq` get an empty list.
///
/// Errors: `InvalidArgument` for an empty sequence or an entry ≥ `n`.
pub fn inter_access_distances(n: usize, seq: &[usize]) -> Result<Vec<Vec<usize>>> {
    check_sequence(n, seq)?;
    let k = seq.len();
    let mut first = vec![usize::MAX; n];
    let mut last = vec![usize::MAX; n];
    let mut d: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (pos, &p) in seq.iter().enumerate() {
        if last[p] == usize::MAX {
            first[p] = pos;
        } else {
            d[p].push(pos - last[p]);
        }
        last[p] = pos;
    }
    for p in 0..n {
        if first[p] != usize::MAX {
            d[p].push(k - last[p] + first[p]);
        }
    }
    Ok(d)
}

/// Exact long-run obsolescence rates of the cyclic policy that repeats
/// `seq` forever: eq. (3) with E\[Z\] = d E\[X\] − (1 − h_i^d)/μ_i for an
/// inter-access distance of d accesses (Lemma 3.1), distances wrapping
/// around the cycle. A page absent from `seq` has r_i = 1. Evaluated in the
/// cancellation-free form of the module notes; O(K + N).
///
/// Errors: `InvalidArgument` for an empty sequence or an entry that is not
/// a page of `model`.
pub fn obsolescence(model: &Model, seq: &[usize]) -> Result<Vec<f64>> {
    let n = model.len();
    check_sequence(n, seq)?;
    let (q, a) = q_and_a(model);
    let k = seq.len();
    let mut first = vec![usize::MAX; n];
    let mut last = vec![usize::MAX; n];
    let mut acc = vec![0.0; n];
    for (pos, &p) in seq.iter().enumerate() {
        if last[p] == usize::MAX {
            first[p] = pos;
        } else {
            acc[p] += e1((pos - last[p]) as f64 * a[p]);
        }
        last[p] = pos;
    }
    let kf = k as f64;
    Ok((0..n)
        .map(|p| {
            if first[p] == usize::MAX {
                return 1.0;
            }
            let wrap = (k - last[p] + first[p]) as f64;
            let sum = acc[p] + e1(wrap * a[p]);
            ((jensen_gap(q[p], a[p]) + sum / kf) / q[p]).clamp(0.0, 1.0)
        })
        .collect())
}

/// The cost (4), Σ c_i r_i, of the cyclic policy repeating `seq` (eq. 3,
/// Lemma 3.1).
///
/// Errors: as [`obsolescence`].
pub fn cost(model: &Model, seq: &[usize]) -> Result<f64> {
    let r = obsolescence(model, seq)?;
    Ok(r.iter().zip(model.weights()).map(|(r, c)| r * c).sum())
}

/// 2φ²/5 = (√5 + 3)/5 ≈ 1.0472: Corollary 5.1's asymptotic bound (19) on the
/// ratio of the golden-ratio policy's cost to the lower bound (6).
///
/// Caution: the paper's proof assumes every page's inter-access distances
/// take the two-gap form, which holds when each page's count is a Fibonacci
/// number. With generic counts the golden-ratio order has three gaps and
/// the measured ratio is higher (about 1.09 as q → 0 for 2000 random pages;
/// see the tests), while [`round_robin_sequence`] on the same counts stays
/// within about 1% of the bound. Prefer it unless you need the golden-ratio
/// order's other properties.
pub const GOLDEN_RATIO_BOUND: f64 = 1.047_213_595_499_958;

/// φ = (1 + √5)/2.
pub(super) const PHI: f64 = 1.618_033_988_749_895;
/// √5.
pub(super) const SQRT5: f64 = 2.236_067_977_499_79;

/// The two exponents and weights of (18): the bound is
/// Σ_k w_k E1(α_k q) with w = (1 − φ⁻¹, φ⁻¹), α = (φ/√5, φ²/√5);
/// Σ w_k = Σ w_k α_k = 1, which is what makes (18) equal to this sum.
const W_ALPHA: [(f64, f64); 2] = [
    (1.0 - 1.0 / PHI, PHI / SQRT5),
    (1.0 / PHI, PHI * PHI / SQRT5),
];

/// H(q) from the proof of Corollary 5.1, q = μE\[X\]: the ratio of the
/// right side of (18) to the asymptotic lower bound c₀(μ − 1/E\[X\] +
/// e^{−μE\[X\]}/E\[X\]) (the large-N limit of (6)),
///
/// H(q) = [q − 1 + (1 − φ⁻¹)e^{−φq/√5} + φ⁻¹e^{−φ²q/√5}] / (q − 1 + e^{−q}).
///
/// Evaluated as Σ_k w_k α_k² e(α_k q)/e(q), e(x) = (x − 1 + e^{−x})/x²
/// (series for small x), so small q is accurate and H(0) = 2φ²/5 =
/// [`GOLDEN_RATIO_BOUND`], the limit computed in the paper by l'Hospital.
/// For q ≥ 1 it is evaluated as 1 + [Σ_k w_k e^{−α_k q} − e^{−q}]/E1(q)
/// (the linear parts cancel exactly), which keeps H − 1 accurate as it
/// decays exponentially. H decreases to 1 as q → ∞. `InvalidArgument`
/// unless q is finite and ≥ 0.
pub fn bound_ratio(q: f64) -> Result<f64> {
    validate::non_negative("q", q)?;
    Ok(if q < 1.0 {
        W_ALPHA
            .iter()
            .map(|(w, al)| w * al * al * e1_over_x2(al * q))
            .sum::<f64>()
            / e1_over_x2(q)
    } else {
        let excess = W_ALPHA
            .iter()
            .map(|(w, al)| w * (-al * q).exp())
            .sum::<f64>()
            - (-q).exp();
        1.0 + excess / e1(q)
    })
}

/// Theorem 5.1, right side of (18): the asymptotic (N → ∞, μ_i → 0, μ
/// fixed) upper bound on the cost of the golden-ratio policy,
/// c₀{μ − 1/E\[X\] + (1 − φ⁻¹)e^{−φμE\[X\]/√5}/E\[X\] + φ⁻¹e^{−φ²μE\[X\]/√5}/E\[X\]},
/// evaluated as (c₀/E\[X\]) Σ_k w_k E1(α_k μE\[X\]) without cancellation.
///
/// Errors: `InvalidArgument` unless the weights are proportional to the
/// change rates (c_i = c₀μ_i), the assumption of §5.
pub fn golden_ratio_asymptotic_bound(model: &Model) -> Result<f64> {
    let e = model.mean_access();
    let q = model.total_change_rate() * e;
    let sum = W_ALPHA.iter().map(|(w, al)| w * e1(al * q)).sum::<f64>();
    model.c0_over_mean_times(sum).ok_or_else(|| {
        Error::invalid(
            "the golden-ratio bound (18) requires weights proportional to the change rates",
        )
    })
}

/// The large-N limit of the lower bound (6) as used in Corollary 5.1
/// (the paper's eq. (17), lost in the text): c₀(μ − 1/E\[X\] +
/// e^{−μE\[X\]}/E\[X\]) = (c₀/E\[X\]) E1(μE\[X\]). [`golden_ratio_asymptotic_bound`]
/// divided by this is [`bound_ratio`]`(μE\[X\])`.
///
/// Errors: `InvalidArgument` unless the weights are proportional.
pub fn asymptotic_lower_bound(model: &Model) -> Result<f64> {
    let e = model.mean_access();
    model
        .c0_over_mean_times(e1(model.total_change_rate() * e))
        .ok_or_else(|| {
            Error::invalid(
                "the asymptotic bound (17) requires weights proportional to the change rates",
            )
        })
}
