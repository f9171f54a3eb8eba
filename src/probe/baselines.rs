//! The policies the paper compares with (§5.2): uniform probing, the
//! threshold policy of [8] (probe once the expected cost since the last
//! probe reaches Π) and the first-arrival policy of [8, 11] (probe once the
//! probability of at least one update since the last probe reaches π).
//! Each schedule ends with a probe at T, as in problem (7).

use super::profile::Profile;
use crate::error::{Error, Num, Result};
use crate::validate;

/// Most probes a threshold/first-arrival schedule may place.
pub const MAX_PROBES: usize = 10_000_000;

/// n evenly spaced probes p_i = iT/n.
pub fn uniform(profile: &Profile, n: usize) -> Result<Vec<f64>> {
    if n == 0 {
        return Err(Error::invalid("the budget n must be >= 1"));
    }
    if n > MAX_PROBES {
        return Err(Error::TooLarge(format!("{n} probes (limit {MAX_PROBES})")));
    }
    let h = profile.horizon();
    Ok((1..=n)
        .map(|i| if i == n { h } else { h * (i as f64 / n as f64) })
        .collect())
}

/// What a policy's chain accumulates from the last probe until it reaches
/// its target.
#[derive(Clone, Copy)]
enum Measure {
    /// The expected cost C̄(last, t) (threshold policy).
    Cost,
    /// The expected updates Λ(last, t) (first-arrival policy).
    Updates,
}

fn chain(profile: &Profile, target: f64, measure: Measure) -> Result<Vec<f64>> {
    chain_up_to(profile, target, measure, MAX_PROBES)
}

/// [`chain`], stopping after `limit` + 1 probes: a longer schedule is
/// returned cut there (its length says "more than `limit`"), which is all
/// [`with_budget`]'s search needs, so that each of its trials costs O(n)
/// however small the trial parameter.
fn chain_up_to(profile: &Profile, target: f64, measure: Measure, limit: usize) -> Result<Vec<f64>> {
    let h = profile.horizon();
    let mut out = Vec::new();
    let mut s = 0.0;
    loop {
        if out.len() > limit && limit < MAX_PROBES {
            return Ok(out);
        }
        let p0 = profile.prefix(s);
        let next = match measure {
            Measure::Cost => profile.first_reaching(s, target, true, |x| p0.cost_to(x)),
            Measure::Updates => profile.first_reaching(s, target, false, |x| x.p - p0.p),
        };
        match next {
            Some(x) if x < h && x > s => {
                out.push(x);
                s = x;
            }
            _ => {
                out.push(h);
                return Ok(out);
            }
        }
        if out.len() >= MAX_PROBES {
            return Err(Error::TooLarge(format!(
                "more than {MAX_PROBES} probes; raise the threshold"
            )));
        }
    }
}

/// TooLarge, before any probe is placed, when a lower bound on the
/// schedule's length (exact arithmetic) exceeds [`MAX_PROBES`]: a tiny
/// parameter is refused in O(K), not after 10^7 probes.
fn too_many(parameter: f64, least: f64) -> Result<()> {
    if least <= MAX_PROBES as f64 {
        return Ok(());
    }
    Err(Error::TooLarge(format!(
        "parameter = {} places at least {} probes (limit {MAX_PROBES}); raise it",
        Num(parameter),
        Num(least)
    )))
}

/// Threshold policy: the next probe is the first time the expected cost
/// C̄(last probe, t) reaches `pi_cost` > 0.
pub fn threshold(profile: &Profile, pi_cost: f64) -> Result<Vec<f64>> {
    validate::positive("parameter (the cost level)", pi_cost)?;
    let least = profile.threshold_probes_at_least(pi_cost, MAX_PROBES as f64);
    too_many(pi_cost, least)?;
    chain(profile, pi_cost, Measure::Cost)
}

/// First-arrival policy: the next probe is the first time
/// 1 − exp(−Λ(last probe, t)) reaches `pi_prob` ∈ (0, 1).
pub fn first_arrival(profile: &Profile, pi_prob: f64) -> Result<Vec<f64>> {
    if !(pi_prob > 0.0 && pi_prob < 1.0) {
        return Err(Error::invalid(format!(
            "parameter (the probability) must be in (0, 1), got {}",
            Num(pi_prob)
        )));
    }
    let need = -(-pi_prob).ln_1p();
    // Every interval but the last holds exactly `need` expected updates.
    too_many(
        pi_prob,
        (profile.expected_updates(0.0, profile.horizon()) / need).floor(),
    )?;
    chain(profile, need, Measure::Updates)
}

/// Which parametric baseline [`with_budget`] tunes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// [`threshold`], parameter Π.
    Threshold,
    /// [`first_arrival`], parameter π.
    FirstArrival,
}

/// Tunes the policy's parameter by bisection until it places exactly `n`
/// probes (the paper compares policies at equal n). Returns the parameter
/// and the schedule; NotConverged if no parameter gives exactly n.
///
/// The parameter returned, given back to [`threshold`] or
/// [`first_arrival`], places exactly these n probes. A probability near 1
/// has few doubles (none between 1 − 2^−53 and 1), so when the tuned
/// expected-update target does not survive the round trip through π, the
/// doubles π themselves are searched (bisection on their bit patterns,
/// which order positive doubles); NotConverged when no double π < 1 gives n.
pub fn with_budget(profile: &Profile, policy: Policy, n: usize) -> Result<(f64, Vec<f64>)> {
    let (x, s) = tune(profile, policy, n)?;
    match policy {
        Policy::Threshold => Ok((x, s)),
        Policy::FirstArrival => {
            let pi = -(-x).exp_m1();
            if pi < 1.0 {
                let s = first_arrival_up_to(profile, pi, n);
                if s.len() == n {
                    return Ok((pi, s));
                }
            }
            probability_by_bits(profile, n)
        }
    }
}

/// The first-arrival schedule of [`first_arrival`] for π ∈ (0, 1), cut
/// after n + 1 probes.
fn first_arrival_up_to(profile: &Profile, pi: f64, n: usize) -> Vec<f64> {
    let need = -(-pi).ln_1p();
    // chain_up_to fails only past MAX_PROBES, and n <= MAX_PROBES here.
    chain_up_to(profile, need, Measure::Updates, n).unwrap_or_default()
}

/// Bisection over the doubles π in (0, 1) (as bit patterns: positive
/// doubles sort like their bits) for one whose first-arrival schedule has
/// n probes; the count does not increase with π.
fn probability_by_bits(profile: &Profile, n: usize) -> Result<(f64, Vec<f64>)> {
    // From the smallest positive double to the largest below 1.
    let (mut lo, mut hi) = (1u64, 1.0_f64.to_bits() - 1);
    for bits in [hi, lo] {
        let pi = f64::from_bits(bits);
        let s = first_arrival_up_to(profile, pi, n);
        if s.len() == n {
            return Ok((pi, s));
        }
        if (bits == hi) != (s.len() < n) {
            return Err(Error::NotConverged(format!(
                "no probability in (0, 1) places exactly {n} probes: {} places {}{}",
                Num(pi),
                if s.len() > n { "more" } else { "fewer" },
                if bits == hi {
                    " (the largest double below 1)"
                } else {
                    ""
                }
            )));
        }
    }
    // count(lo) > n > count(hi).
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        let pi = f64::from_bits(mid);
        let s = first_arrival_up_to(profile, pi, n);
        match s.len().cmp(&n) {
            std::cmp::Ordering::Equal => return Ok((pi, s)),
            std::cmp::Ordering::Greater => lo = mid,
            std::cmp::Ordering::Less => hi = mid,
        }
    }
    Err(Error::NotConverged(format!(
        "no probability places exactly {n} probes: {} places more and the next double, {}, fewer",
        Num(f64::from_bits(lo)),
        Num(f64::from_bits(hi))
    )))
}

/// [`with_budget`]'s search on the internal scale: Π for the threshold
/// policy, the expected-update target −ln(1 − π) for first arrival.
fn tune(profile: &Profile, policy: Policy, n: usize) -> Result<(f64, Vec<f64>)> {
    if n == 0 {
        return Err(Error::invalid("the budget n must be >= 1"));
    }
    let (lo_bound, hi_bound) = parameter_range(profile, policy)?;
    if n > MAX_PROBES {
        return Err(Error::TooLarge(format!("{n} probes (limit {MAX_PROBES})")));
    }
    // Each trial stops once it has more than n probes, so a tiny trial
    // parameter costs no more than n + 1 probes.
    let run = |x: f64| -> Result<Vec<f64>> {
        match policy {
            Policy::Threshold => chain_up_to(profile, x, Measure::Cost, n),
            // Expected-update target x ↔ π = 1 − e^{−x}.
            Policy::FirstArrival => chain_up_to(profile, x, Measure::Updates, n),
        }
    };
    let s_hi = run(hi_bound)?;
    if s_hi.len() == n {
        return Ok((hi_bound, s_hi));
    }
    if s_hi.len() > n {
        return Err(Error::NotConverged(format!(
            "even the largest parameter gives more than {n} probes"
        )));
    }
    match shrink(&run, hi_bound, lo_bound, n)? {
        Bracket::Exact(x, s) => Ok((x, s)),
        Bracket::Between(lo, hi) => bisect_count(&run, lo, hi, n),
    }
}

/// The range of the tuned parameter (count non-increasing in it): Π on
/// [c·1e−12, c·(1 + 1e−9)] for the threshold policy with c the expected
/// cost over the horizon, the expected-update target likewise for first
/// arrival. Both totals must be finite and > 0.
fn parameter_range(profile: &Profile, policy: Policy) -> Result<(f64, f64)> {
    let h = profile.horizon();
    match policy {
        Policy::Threshold => {
            let c = profile.signed_interval_cost(0.0, h);
            if c <= 0.0 {
                return Err(Error::invalid(
                    "the profile has zero expected cost: nothing to tune",
                ));
            }
            if !c.is_finite() {
                return Err(Error::Numerical(format!(
                    "the expected cost over the horizon is {}: nothing to tune",
                    Num(c)
                )));
            }
            Ok((c * 1e-12, c * (1.0 + 1e-9)))
        }
        Policy::FirstArrival => {
            let l = profile.expected_updates(0.0, h);
            if l <= 0.0 {
                return Err(Error::invalid(
                    "the profile has no updates: nothing to tune",
                ));
            }
            if !l.is_finite() {
                return Err(Error::Numerical(format!(
                    "the expected updates over the horizon are {}: nothing to tune",
                    Num(l)
                )));
            }
            Ok((l * 1e-12, l * (1.0 + 1e-9)))
        }
    }
}

/// Where [`shrink`] ended.
enum Bracket {
    /// A parameter with exactly n probes, and its schedule.
    Exact(f64, Vec<f64>),
    /// count(lo) > n > count(hi).
    Between(f64, f64),
}

/// From `hi` (fewer than n probes), parameters divided by 4 until one
/// places at least n probes (so the bisection's runs stay near n probes).
/// At most 25 divisions (4^25 > 10^12 spans the range) and none below
/// `lo_bound` or at 0 (a subnormal total makes `lo_bound` 0).
fn shrink(
    run: &impl Fn(f64) -> Result<Vec<f64>>,
    hi: f64,
    lo_bound: f64,
    n: usize,
) -> Result<Bracket> {
    let mut hi = hi;
    let mut lo = hi / 4.0;
    for shrinks in 0.. {
        if shrinks > 25 || lo <= 0.0 {
            break;
        }
        let s = run(lo)?;
        match s.len().cmp(&n) {
            std::cmp::Ordering::Equal => return Ok(Bracket::Exact(lo, s)),
            std::cmp::Ordering::Greater => return Ok(Bracket::Between(lo, hi)),
            std::cmp::Ordering::Less => {
                hi = lo;
                lo /= 4.0;
            }
        }
        if lo < lo_bound {
            break;
        }
    }
    Err(Error::NotConverged(format!(
        "no parameter of this policy places {n} probes"
    )))
}

/// Bisection on a log scale between count(lo) > n > count(hi) for a
/// parameter with exactly n probes (at most 200 steps, and none once
/// the geometric mean no longer separates lo and hi).
fn bisect_count(
    run: &impl Fn(f64) -> Result<Vec<f64>>,
    mut lo: f64,
    mut hi: f64,
    n: usize,
) -> Result<(f64, Vec<f64>)> {
    for _ in 0..200 {
        let mid = (lo * hi).sqrt();
        if mid <= lo || mid >= hi {
            break;
        }
        let s = run(mid)?;
        match s.len().cmp(&n) {
            std::cmp::Ordering::Equal => return Ok((mid, s)),
            std::cmp::Ordering::Greater => lo = mid,
            std::cmp::Ordering::Less => hi = mid,
        }
    }
    Err(Error::NotConverged(format!(
        "no parameter of this policy places exactly {n} probes"
    )))
}
