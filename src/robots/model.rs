//! The controlled queue of §2 as an MDP, with the transition semantics of
//! the errata (the text's eqs. (2)–(3) are garbled): see the module docs.

use crate::error::{Error, Num, Result};
use crate::mdp::{MAX_STATES, Mdp, MdpBuilder};
use crate::validate;

/// Event type s of a decision epoch (§2).
pub const DEPARTURE: usize = 0;
/// A robot delivers a page.
pub const ARRIVAL: usize = 1;
/// A fictitious event of the uniformisation.
pub const FICTITIOUS: usize = 2;

/// Model parameters: N robots, buffer K (pages, including the one in
/// service), per-robot rate λ, service rate μ, starvation weight γ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Robots available, N ≥ 1.
    pub n: usize,
    /// Buffer size K ≥ 1 (the paper assumes K > 2).
    pub k: usize,
    /// Page rate of one active robot, λ > 0.
    pub lambda: f64,
    /// Indexing (service) rate, μ > 0.
    pub mu: f64,
    /// Weight of the starvation probability, γ ≥ 0.
    pub gamma: f64,
}

impl Params {
    /// Checks the parameters.
    pub fn new(n: usize, k: usize, lambda: f64, mu: f64, gamma: f64) -> Result<Self> {
        if n < 1 {
            return Err(Error::invalid("the number of robots N must be >= 1"));
        }
        if k < 1 {
            return Err(Error::invalid("the buffer size K must be >= 1"));
        }
        validate::positive("lambda", lambda)?;
        validate::positive("mu", mu)?;
        validate::non_negative("gamma", gamma)?;
        let p = Params {
            n,
            k,
            lambda,
            mu,
            gamma,
        };
        p.slots()?;
        Ok(p)
    }
    /// ν = λN + μ, the uniformisation rate.
    pub fn nu(&self) -> f64 {
        self.lambda * self.n as f64 + self.mu
    }
    /// (K + 1)(N + 1)·3, the size of the (q, r, s) grid, checked.
    pub(crate) fn slots(&self) -> Result<usize> {
        let s = self
            .k
            .checked_add(1)
            .zip(self.n.checked_add(1))
            .and_then(|(k1, n1)| k1.checked_mul(n1))
            .and_then(|x| x.checked_mul(3))
            .filter(|&x| x <= MAX_STATES)
            .ok_or_else(|| {
                Error::TooLarge(format!(
                    "the state space exceeds {MAX_STATES} states (N = {}, K = {})",
                    Num(self.n as f64),
                    Num(self.k as f64)
                ))
            })?;
        Ok(s)
    }
    /// Position of (q, r, s) in the grid.
    #[inline]
    pub fn slot(&self, q: usize, r: usize, s: usize) -> usize {
        (r * (self.k + 1) + q) * 3 + s
    }
    /// Whether (q, r, s) is in the state space X: (0, r, 0), (q, 0, 1) and
    /// (0, 0, 2) are excluded.
    pub fn in_state_space(&self, q: usize, r: usize, s: usize) -> bool {
        q <= self.k
            && r <= self.n
            && s <= 2
            && !(s == DEPARTURE && q == 0)
            && !(s == ARRIVAL && r == 0)
            && !(s == FICTITIOUS && q == 0 && r == 0)
    }
    /// The action set A_x as local action list: `[0]` at fictitious events,
    /// `[1]` at (1, 0, 0) (forced activation), `[0, 1]` otherwise.
    pub fn actions(&self, q: usize, r: usize, s: usize) -> &'static [u8] {
        if s == FICTITIOUS {
            &[0]
        } else if (q, r, s) == (1, 0, DEPARTURE) {
            &[1]
        } else {
            &[0, 1]
        }
    }
    /// The post-decision pair (q', r') after event s and action a (errata).
    pub fn post_decision(&self, q: usize, r: usize, s: usize, a: usize) -> (usize, usize) {
        match s {
            DEPARTURE => (q - 1, (r + a).min(self.n)),
            ARRIVAL => ((q + 1).min(self.k), r + a - 1),
            _ => (q, r),
        }
    }
    /// One-step cost c(x) = γ·1(q = 0) + ν·1(q = K, s = 1) (eq. 1).
    pub fn cost(&self, q: usize, _r: usize, s: usize) -> f64 {
        let mut c = 0.0;
        if q == 0 {
            c += self.gamma;
        }
        if q == self.k && s == ARRIVAL {
            c += self.nu();
        }
        c
    }
}

/// Bytes of a [`RobotsMdp`] over `slots` grid slots: the slot index (4),
/// the state list (12) and the sparse MDP (up to 2 actions and 6
/// transitions per state: 124).
pub fn model_bytes(slots: usize) -> Option<u128> {
    crate::limits::bytes(slots, 140)
}

/// The MDP of the paper for given parameters, with the map between its
/// states and (q, r, s).
#[derive(Debug, Clone)]
pub struct RobotsMdp {
    /// The parameters.
    pub params: Params,
    /// The sparse MDP (state ids in order of r, then q, then s).
    pub mdp: Mdp,
    /// Grid slot → MDP state, `u32::MAX` when excluded.
    index: Vec<u32>,
    /// MDP state → (q, r, s).
    states: Vec<(u32, u32, u8)>,
}

impl RobotsMdp {
    /// Builds the MDP: states X, actions A_x, costs (1) and the transitions
    /// of the errata — after the post-decision pair (q', r') the next event
    /// is a departure with probability μ·1(q' > 0)/ν, an arrival with
    /// probability λr'/ν, and fictitious otherwise.
    pub fn new(params: Params) -> Result<Self> {
        let p = Params::new(params.n, params.k, params.lambda, params.mu, params.gamma)?;
        let slots = p.slots()?;
        crate::limits::check_memory(
            model_bytes(slots),
            &format!("the robots MDP of {slots} state slots"),
        )?;
        let mut index = Vec::new();
        index
            .try_reserve(slots)
            .map_err(|_| Error::TooLarge(format!("cannot allocate {slots} state slots")))?;
        index.resize(slots, u32::MAX);
        let mut states = Vec::new();
        for r in 0..=p.n {
            for q in 0..=p.k {
                for s in 0..3 {
                    if p.in_state_space(q, r, s) {
                        index[p.slot(q, r, s)] = states.len() as u32;
                        states.push((q as u32, r as u32, s as u8));
                    }
                }
            }
        }
        let nu = p.nu();
        let mut b = MdpBuilder::new(states.len())?;
        let (mut next, mut prob) = (Vec::with_capacity(3), Vec::with_capacity(3));
        for (id, &(q, r, s)) in states.iter().enumerate() {
            let (q, r, s) = (q as usize, r as usize, s as usize);
            for &a in p.actions(q, r, s) {
                let (q2, r2) = p.post_decision(q, r, s, a as usize);
                next.clear();
                prob.clear();
                let dep = if q2 > 0 { p.mu / nu } else { 0.0 };
                let arr = p.lambda * r2 as f64 / nu;
                let fic = (1.0 - dep - arr).max(0.0);
                for (s2, pr) in [(DEPARTURE, dep), (ARRIVAL, arr), (FICTITIOUS, fic)] {
                    if pr > 0.0 {
                        let j = index[p.slot(q2, r2, s2)];
                        if j == u32::MAX {
                            return Err(Error::Numerical(format!(
                                "transition into excluded state ({q2}, {r2}, {s2})"
                            )));
                        }
                        next.push(j);
                        prob.push(pr);
                    }
                }
                b.add_action(id, &next, &prob, p.cost(q, r, s))?;
            }
        }
        Ok(RobotsMdp {
            params: p,
            mdp: b.build()?,
            index,
            states,
        })
    }

    /// Number of states |X|.
    pub fn n_states(&self) -> usize {
        self.states.len()
    }
    /// (q, r, s) of an MDP state.
    pub fn state(&self, id: usize) -> (usize, usize, usize) {
        let (q, r, s) = self.states[id];
        (q as usize, r as usize, s as usize)
    }
    /// MDP state of (q, r, s), if in X.
    pub fn id(&self, q: usize, r: usize, s: usize) -> Option<usize> {
        if q > self.params.k || r > self.params.n || s > 2 {
            return None;
        }
        let j = self.index[self.params.slot(q, r, s)];
        (j != u32::MAX).then_some(j as usize)
    }
    /// The action a ∈ {0, 1} that local action `local` means in state `id`.
    pub fn action_of(&self, id: usize, local: u32) -> u8 {
        let (q, r, s) = self.state(id);
        self.params.actions(q, r, s)[local as usize]
    }
    /// MDP policy (local indices) from a rule a(q, r, s) ∈ {0, 1} at
    /// departures and arrivals. The rule must activate at (1, 0, 0).
    pub fn policy_from(&self, rule: impl Fn(usize, usize, usize) -> bool) -> Result<Vec<u32>> {
        let mut pol = Vec::with_capacity(self.n_states());
        for id in 0..self.n_states() {
            let (q, r, s) = self.state(id);
            let acts = self.params.actions(q, r, s);
            if acts.len() == 1 {
                if acts[0] == 1 && !rule(q, r, s) {
                    return Err(Error::invalid(
                        "an admissible policy activates a robot at (q, r, s) = (1, 0, 0) (§2)",
                    ));
                }
                pol.push(0);
            } else {
                pol.push(u32::from(rule(q, r, s)));
            }
        }
        Ok(pol)
    }
}
