//! Optimal thresholds by enumeration (paper 002, §2: "the problem of
//! finding the optimal set … is then easy solved on computer, e.g., by
//! enumeration").
//!
//! Search space: for modes r₁ > … > r_J and a chain with levels 0..=L
//! (L = N + 1), all non-decreasing t₁ ≤ … ≤ t_{J−1} with 0 ≤ t_j ≤ L − 1
//! (t_j ≥ L would never leave mode j; level 0 always uses r₁ and level L
//! always r_J). There are C(L + J − 2, J − 1) vectors; each costs one
//! generator build and one block solve.

use super::measures::{CostWeights, Measures, evaluate_with};
use super::model::{Policy, ThresholdModel};
use crate::error::{Error, Result};
use crate::limits::Control;

/// The best policy found and what the search cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Optimum {
    /// The optimal policy (modes as given, optimal thresholds).
    pub policy: Policy,
    /// Its cost (eq. 2).
    pub cost: f64,
    /// Its measures.
    pub measures: Measures,
    /// Number of threshold vectors evaluated (= the search space size).
    pub evaluated: u64,
    /// States of the chain solved at each evaluation.
    pub states: usize,
}

/// C(n, k) in u128, saturating.
fn binomial(n: u128, k: u128) -> u128 {
    let k = k.min(n.saturating_sub(k));
    let mut r: u128 = 1;
    for i in 0..k {
        r = r.saturating_mul(n - i) / (i + 1);
    }
    r
}

/// Number of admissible threshold vectors for `modes` on `model`.
pub fn search_space_size(model: &ThresholdModel, modes: usize) -> u128 {
    if modes <= 1 {
        return 1;
    }
    let l = model.space().max_level() as u128;
    binomial(l + modes as u128 - 2, modes as u128 - 1)
}

/// Minimises the cost over every admissible threshold vector for `modes`.
/// `TooLarge` (with the count) when the search space exceeds `max_evaluations`.
/// Ties keep the lexicographically first vector.
pub fn optimize(
    model: &ThresholdModel,
    modes: &[usize],
    weights: &CostWeights,
    max_evaluations: u64,
) -> Result<Optimum> {
    optimize_with(model, modes, weights, max_evaluations, &Control::default())
}

/// [`optimize`] under a control: its iteration cap lowers
/// `max_evaluations` (one iteration = one threshold vector), its memory
/// cap applies to each evaluation, and cancelling it stops the search
/// between two evaluations with `Cancelled` (no partial optimum: the best
/// vector of an unfinished enumeration is not the optimum).
pub fn optimize_with(
    model: &ThresholdModel,
    modes: &[usize],
    weights: &CostWeights,
    max_evaluations: u64,
    control: &Control,
) -> Result<Optimum> {
    let max_evaluations = control
        .max_iterations()
        .map_or(max_evaluations, |c| c.min(max_evaluations));
    weights.check()?;
    let j = modes.len();
    // Validates the modes (thresholds all zero are always admissible).
    model.check_policy(&Policy::new(modes.to_vec(), vec![0; j.saturating_sub(1)])?)?;
    let size = search_space_size(model, j);
    if size > u128::from(max_evaluations) {
        return Err(Error::TooLarge(format!(
            "{} threshold vectors for {j} modes on a chain of {} states (limit {})",
            super::state::count_text(size),
            model.space().len(),
            super::state::count_text(u128::from(max_evaluations))
        )));
    }
    let top = model.space().max_level();
    let mut t = vec![0usize; j.saturating_sub(1)];
    let mut best: Option<(f64, Policy, Measures)> = None;
    let mut evaluated = 0u64;
    loop {
        let policy = Policy::new(modes.to_vec(), t.clone())?;
        control.check(
            &format!(
                "threshold search ({} vectors)",
                super::state::count_text(size)
            ),
            evaluated,
        )?;
        let m = evaluate_with(model, &policy, control)?;
        let c = m.cost(weights);
        evaluated += 1;
        if best.as_ref().is_none_or(|b| c < b.0) {
            best = Some((c, policy, m));
        }
        // Next non-decreasing vector in lexicographic order.
        let Some(pos) = (0..t.len()).rev().find(|&p| t[p] < top - 1) else {
            break;
        };
        let v = t[pos] + 1;
        for x in &mut t[pos..] {
            *x = v;
        }
    }
    let (cost, policy, measures) =
        best.ok_or_else(|| Error::Numerical("no policy evaluated".into()))?;
    Ok(Optimum {
        policy,
        cost,
        measures,
        evaluated,
        states: model.space().len(),
    })
}
