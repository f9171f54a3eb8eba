//! The sparse MDP: states, per-state action sets and transition rows in
//! flat CSR-like arrays (no per-row allocation), and its builder.

use crate::error::{Error, Num, Result};

/// Largest number of states: next-state indices are stored as `u32`.
pub const MAX_STATES: usize = u32::MAX as usize;

/// Tolerance on the sum of a transition row (|Σp − 1| ≤ 1e-9).
pub const ROW_SUM_TOLERANCE: f64 = 1e-9;

/// A finite MDP with minimisation of cost.
///
/// Actions of state `s` are the global action ids
/// `state_start[s] .. state_start[s + 1]`; the local action index of a
/// policy is the offset within that range. Action `k` has transition row
/// `next[row_start[k]..row_start[k+1]]` with probabilities `prob[..]` and
/// one-step cost `cost[k]`. Memory is linear in the number of transitions.
#[derive(Debug, Clone, PartialEq)]
pub struct Mdp {
    pub(crate) n_states: usize,
    pub(crate) state_start: Vec<usize>,
    pub(crate) row_start: Vec<usize>,
    pub(crate) next: Vec<u32>,
    pub(crate) prob: Vec<f64>,
    pub(crate) cost: Vec<f64>,
}

impl Mdp {
    /// The smallest cost of any action: a floor for the optimal average
    /// cost (g = π·c_π ≥ min c for every policy), which the solvers use to
    /// tighten the lower end of the certificate they report (useful when
    /// the gain is near that floor and the bias is too large for the
    /// sweep's own bound to resolve it).
    pub fn min_cost(&self) -> f64 {
        self.cost.iter().copied().fold(f64::INFINITY, f64::min)
    }
    /// Number of states.
    pub fn n_states(&self) -> usize {
        self.n_states
    }
    /// Total number of (state, action) pairs.
    pub fn n_actions_total(&self) -> usize {
        self.cost.len()
    }
    /// Total number of stored transitions (nonzeros).
    pub fn n_transitions(&self) -> usize {
        self.next.len()
    }
    /// Number of actions available in state `s`.
    pub fn n_actions(&self, s: usize) -> usize {
        self.state_start[s + 1] - self.state_start[s]
    }
    /// Global action ids of state `s`.
    pub(crate) fn actions(&self, s: usize) -> std::ops::Range<usize> {
        self.state_start[s]..self.state_start[s + 1]
    }
    /// The transition row of global action `k`: (next states, probabilities).
    pub(crate) fn row(&self, k: usize) -> (&[u32], &[f64]) {
        let r = self.row_start[k]..self.row_start[k + 1];
        (&self.next[r.clone()], &self.prob[r])
    }
    /// c(k) + factor · Σ p h(next) for global action `k`.
    #[inline]
    pub(crate) fn q_value(&self, k: usize, h: &[f64], factor: f64) -> f64 {
        let (nx, p) = self.row(k);
        let mut acc = 0.0;
        for (&j, &pj) in nx.iter().zip(p) {
            acc += pj * h[j as usize];
        }
        self.cost[k] + factor * acc
    }
    /// One-step cost of local action `a` in state `s`.
    pub fn cost(&self, s: usize, a: usize) -> Result<f64> {
        self.check_action(s, a)?;
        Ok(self.cost[self.state_start[s] + a])
    }
    /// Transition row of local action `a` in state `s`.
    pub fn transitions(&self, s: usize, a: usize) -> Result<(&[u32], &[f64])> {
        self.check_action(s, a)?;
        Ok(self.row(self.state_start[s] + a))
    }
    fn check_action(&self, s: usize, a: usize) -> Result<()> {
        if s >= self.n_states {
            return Err(Error::invalid(format!(
                "state {s} out of range (n = {})",
                self.n_states
            )));
        }
        if a >= self.n_actions(s) {
            return Err(Error::invalid(format!(
                "state {s} has {} actions, asked for {a}",
                self.n_actions(s)
            )));
        }
        Ok(())
    }
    /// Checks a policy (one local action index per state).
    pub fn check_policy(&self, policy: &[u32]) -> Result<()> {
        if policy.len() != self.n_states {
            return Err(Error::invalid(format!(
                "policy has {} entries, the MDP {} states",
                policy.len(),
                self.n_states
            )));
        }
        for (s, &a) in policy.iter().enumerate() {
            if a as usize >= self.n_actions(s) {
                return Err(Error::invalid(format!(
                    "policy[{s}] = {a} but state {s} has {} actions",
                    self.n_actions(s)
                )));
            }
        }
        Ok(())
    }
    /// Global action id chosen by `policy` in state `s` (policy checked).
    #[inline]
    pub(crate) fn chosen(&self, policy: &[u32], s: usize) -> usize {
        self.state_start[s] + policy[s] as usize
    }
}

/// Builds an [`Mdp`] one (state, action) row at a time, in any state order.
#[derive(Debug, Clone)]
pub struct MdpBuilder {
    n_states: usize,
    counts: Vec<u32>,
    action_state: Vec<u32>,
    row_start: Vec<usize>,
    next: Vec<u32>,
    prob: Vec<f64>,
    cost: Vec<f64>,
}

fn reserve<T>(v: &mut Vec<T>, extra: usize, what: &str) -> Result<()> {
    v.try_reserve(extra).map_err(|_| {
        Error::TooLarge(format!(
            "cannot allocate {} more {what}",
            v.len().saturating_add(extra)
        ))
    })
}

/// Bytes of a model (builder or finished MDP) with these counts: 12 per
/// state, 20 per action, 12 per transition.
pub fn model_bytes(states: usize, actions: usize, transitions: usize) -> Option<u128> {
    (states as u128 * 12)
        .checked_add(actions as u128 * 20)?
        .checked_add(transitions as u128 * 12)
}

impl MdpBuilder {
    /// An empty MDP with `n_states` states (1 ≤ n ≤ 2³² − 1) and no actions yet.
    pub fn new(n_states: usize) -> Result<Self> {
        if n_states == 0 {
            return Err(Error::invalid("an MDP needs at least one state"));
        }
        if n_states > MAX_STATES {
            return Err(Error::TooLarge(format!(
                "n_states must be at most {MAX_STATES} (next states are 32-bit), got {}",
                Num(n_states as f64)
            )));
        }
        // Every state will need at least one action with one transition.
        crate::limits::check_memory(
            model_bytes(n_states, n_states, n_states),
            &format!("an MDP of {n_states} states"),
        )?;
        let mut counts = Vec::new();
        reserve(&mut counts, n_states, "state counters")?;
        counts.resize(n_states, 0);
        Ok(MdpBuilder {
            n_states,
            counts,
            action_state: Vec::new(),
            row_start: vec![0],
            next: Vec::new(),
            prob: Vec::new(),
            cost: Vec::new(),
        })
    }

    /// Number of states.
    pub fn n_states(&self) -> usize {
        self.n_states
    }

    /// The first state that has no action yet, if any.
    pub fn state_without_action(&self) -> Option<usize> {
        self.counts.iter().position(|&c| c == 0)
    }

    /// What [`MdpBuilder::build`] requires, checked without giving the
    /// builder up: every state has an action (else `InvalidArgument`).
    pub fn check_complete(&self) -> Result<()> {
        match self.state_without_action() {
            Some(s) => Err(Error::invalid(format!("state {s} has no action"))),
            None => Ok(()),
        }
    }

    /// Adds an action to `state`: it moves to `next[i]` with probability
    /// `prob[i]` (≥ 0, summing to 1 within 1e-9; repeated targets add up)
    /// and costs `cost` (finite, any sign). Returns the action's local index
    /// in that state (0, 1, ... in order of addition).
    pub fn add_action(
        &mut self,
        state: usize,
        next: &[u32],
        prob: &[f64],
        cost: f64,
    ) -> Result<u32> {
        if state >= self.n_states {
            return Err(Error::invalid(format!(
                "state {state} out of range (n = {})",
                self.n_states
            )));
        }
        if next.len() != prob.len() {
            return Err(Error::invalid(format!(
                "{} next states but {} probabilities",
                next.len(),
                prob.len()
            )));
        }
        if next.is_empty() {
            return Err(Error::invalid(format!(
                "state {state}: a transition row needs at least one entry"
            )));
        }
        if !cost.is_finite() {
            return Err(Error::invalid(format!(
                "cost must be finite, got {} (state {state})",
                Num(cost)
            )));
        }
        let mut sum = 0.0;
        for (i, (&j, &p)) in next.iter().zip(prob).enumerate() {
            if j as usize >= self.n_states {
                return Err(Error::invalid(format!(
                    "state {state}: next state {j} out of range (n = {})",
                    self.n_states
                )));
            }
            if !(p.is_finite() && p >= 0.0) {
                return Err(Error::invalid(format!(
                    "prob[{i}] must be finite and >= 0, got {} (state {state})",
                    Num(p)
                )));
            }
            sum += p;
        }
        if (sum - 1.0).abs() > ROW_SUM_TOLERANCE {
            return Err(Error::invalid(format!(
                "prob sums to {}, not 1 (state {state})",
                Num(sum)
            )));
        }
        if self.counts[state] == u32::MAX {
            return Err(Error::TooLarge(format!(
                "state {state} has too many actions"
            )));
        }
        crate::limits::check_memory(
            model_bytes(
                self.n_states,
                self.cost.len() + 1,
                self.next.len() + next.len(),
            ),
            &format!("an MDP of {} states", self.n_states),
        )?;
        reserve(&mut self.next, next.len(), "transitions")?;
        reserve(&mut self.prob, next.len(), "transitions")?;
        reserve(&mut self.row_start, 1, "actions")?;
        reserve(&mut self.cost, 1, "actions")?;
        reserve(&mut self.action_state, 1, "actions")?;
        self.next.extend_from_slice(next);
        self.prob.extend_from_slice(prob);
        self.row_start.push(self.next.len());
        self.cost.push(cost);
        self.action_state.push(state as u32);
        let local = self.counts[state];
        self.counts[state] += 1;
        Ok(local)
    }

    /// Finishes the MDP. Every state needs at least one action. Actions keep
    /// their per-state order of addition.
    pub fn build(self) -> Result<Mdp> {
        self.check_complete()?;
        let n = self.n_states;
        let mut state_start = Vec::new();
        reserve(&mut state_start, n + 1, "state offsets")?;
        state_start.push(0usize);
        for &c in &self.counts {
            let last = state_start[state_start.len() - 1];
            state_start.push(last + c as usize);
        }
        let sorted = self.action_state.windows(2).all(|w| w[0] <= w[1]);
        if sorted {
            return Ok(Mdp {
                n_states: n,
                state_start,
                row_start: self.row_start,
                next: self.next,
                prob: self.prob,
                cost: self.cost,
            });
        }
        // Counting sort of the actions by state (stable: keeps local order).
        let m = self.cost.len();
        let mut order = vec![0usize; m];
        let mut fill: Vec<usize> = state_start[..n].to_vec();
        for (k, &s) in self.action_state.iter().enumerate() {
            order[fill[s as usize]] = k;
            fill[s as usize] += 1;
        }
        let mut row_start = Vec::with_capacity(m + 1);
        let mut next = Vec::with_capacity(self.next.len());
        let mut prob = Vec::with_capacity(self.prob.len());
        let mut cost = Vec::with_capacity(m);
        row_start.push(0);
        for &k in &order {
            let r = self.row_start[k]..self.row_start[k + 1];
            next.extend_from_slice(&self.next[r.clone()]);
            prob.extend_from_slice(&self.prob[r]);
            row_start.push(next.len());
            cost.push(self.cost[k]);
        }
        Ok(Mdp {
            n_states: n,
            state_start,
            row_start,
            next,
            prob,
            cost,
        })
    }
}
