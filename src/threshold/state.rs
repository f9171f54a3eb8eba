//! The state space of the multi-dimensional Markov chain of Avrachenkov et
//! al. (paper 002, §3): at level i (pages in the system, 0..=N+1) the state
//! is (ν, m, k₁, …, k_{i−1}) with ν the arrival phase, m the service phase
//! (i ≥ 1) and k_p the obsolescence phase of the p-th waiting page in order
//! of arrival (k₁ is the head of the queue, next to enter service). Level i
//! thus has W·M·R^{i−1} states (W at level 0).

use crate::error::{Error, Result};

/// Largest number of states a model may have (checked before allocating).
pub const MAX_STATES: usize = 50_000_000;

/// One state of the chain, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// Pages in the system (in service + waiting).
    pub level: usize,
    /// Phase ν of the arrival process.
    pub arrival: usize,
    /// Phase m of the service of the page in service (0 when level = 0).
    pub service: usize,
    /// Obsolescence phases of the waiting pages, head of the queue first.
    pub obsolescence: Vec<usize>,
}

/// The state index: levels stored one after another, lexicographic within
/// a level in the order (ν, m, k₁, …, k_{i−1}).
#[derive(Debug, Clone, PartialEq)]
pub struct StateSpace {
    w: usize,
    m: usize,
    r: usize,
    /// offsets[i] = index of the first state of level i; offsets[L+1] = total.
    offsets: Vec<usize>,
}

impl StateSpace {
    /// Levels 0..=`max_level`, W arrival, M service and R obsolescence
    /// phases. `TooLarge` (with the state count, or the level at which it
    /// overflows) above [`MAX_STATES`]: nothing is allocated before the check.
    pub fn new(w: usize, m: usize, r: usize, max_level: usize) -> Result<Self> {
        if w == 0 || m == 0 || r == 0 {
            return Err(Error::invalid("phase counts must be >= 1"));
        }
        let count = Self::count(w, m, r, max_level)?;
        if count > MAX_STATES as u128 {
            return Err(Error::TooLarge(format!(
                "the chain has {} states (W={w}, M={m}, R={r}, levels 0..={max_level}), more than {MAX_STATES}",
                count_text(count)
            )));
        }
        let mut offsets = Vec::with_capacity(max_level + 2);
        let mut acc = 0usize;
        offsets.push(0);
        for i in 0..=max_level {
            acc += Self::level_size_of(w, m, r, i);
            offsets.push(acc);
        }
        Ok(StateSpace { w, m, r, offsets })
    }

    /// Number of states W + W·M·Σ_{i=1}^{L} R^{i−1}, exactly (u128 saturates
    /// only beyond 3.4e38, reported as such).
    pub fn count(w: usize, m: usize, r: usize, max_level: usize) -> Result<u128> {
        if r == 1 {
            // Closed form: a buffer of 10^7 levels costs no loop (the loop
            // below ends within ~128 levels for R >= 2, by overflow).
            return (w as u128 * m as u128)
                .checked_mul(max_level as u128)
                .and_then(|x| x.checked_add(w as u128))
                .ok_or_else(|| {
                    Error::TooLarge("the chain's state count overflows 128 bits".into())
                });
        }
        let mut total: u128 = w as u128;
        let mut level: u128 = (w as u128) * (m as u128);
        for i in 1..=max_level {
            total = total.checked_add(level).ok_or_else(|| {
                Error::TooLarge(format!(
                    "the chain's state count overflows 128 bits at level {i} (R={r})"
                ))
            })?;
            level = level.saturating_mul(r as u128);
        }
        Ok(total)
    }

    fn level_size_of(w: usize, m: usize, r: usize, i: usize) -> usize {
        if i == 0 {
            w
        } else {
            w * m * r.pow((i - 1) as u32)
        }
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.offsets[self.offsets.len() - 1]
    }

    /// Never true (level 0 has at least one state); for clippy's len rule.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Highest level L = N + 1.
    pub fn max_level(&self) -> usize {
        self.offsets.len() - 2
    }

    /// Phase counts (W, M, R).
    pub fn phases(&self) -> (usize, usize, usize) {
        (self.w, self.m, self.r)
    }

    /// Number of states at level i.
    pub fn level_size(&self, i: usize) -> usize {
        self.offsets[i + 1] - self.offsets[i]
    }

    /// Index of the first state of level i.
    pub fn offset(&self, i: usize) -> usize {
        self.offsets[i]
    }

    /// Level of a state index.
    pub fn level_of(&self, idx: usize) -> usize {
        // offsets is sorted; the level is the last offset <= idx.
        self.offsets.partition_point(|&o| o <= idx) - 1
    }

    /// Index of a state (the caller passes a valid state).
    pub fn index(&self, s: &State) -> usize {
        self.offsets[s.level] + self.local(s.level, s.arrival, s.service, &s.obsolescence)
    }

    /// Index within level `level` of (ν, m, k⃗).
    pub fn local(&self, level: usize, arrival: usize, service: usize, obs: &[usize]) -> usize {
        if level == 0 {
            return arrival;
        }
        let mut code = 0;
        for &k in obs {
            code = code * self.r + k;
        }
        (arrival * self.m + service) * self.r.pow((level - 1) as u32) + code
    }

    /// (level, ν, m) of a state index without decoding the obsolescence
    /// phases: O(log L), where [`StateSpace::state`] is O(level).
    pub fn head(&self, idx: usize) -> (usize, usize, usize) {
        let level = self.level_of(idx);
        let local = idx - self.offsets[level];
        if level == 0 {
            return (0, local, 0);
        }
        let am = local / self.r.pow((level - 1) as u32);
        (level, am / self.m, am % self.m)
    }

    /// Decodes a state index.
    pub fn state(&self, idx: usize) -> State {
        let level = self.level_of(idx);
        let mut local = idx - self.offsets[level];
        if level == 0 {
            return State {
                level,
                arrival: local,
                service: 0,
                obsolescence: Vec::new(),
            };
        }
        let mut obs = vec![0; level - 1];
        for p in (0..level - 1).rev() {
            obs[p] = local % self.r;
            local /= self.r;
        }
        let service = local % self.m;
        let arrival = local / self.m;
        State {
            level,
            arrival,
            service,
            obsolescence: obs,
        }
    }
}

/// A count for messages: exact below 10^15, else "~3.6893488147419103e19"
/// (u128 counts have up to 39 digits).
pub(crate) fn count_text(n: u128) -> String {
    if n < 1_000_000_000_000_000 {
        n.to_string()
    } else {
        format!("~{}", crate::error::Num(n as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips_and_counts() {
        let sp = StateSpace::new(2, 3, 2, 4).unwrap();
        assert_eq!(sp.len(), 2 + 6 * (1 + 2 + 4 + 8));
        for idx in 0..sp.len() {
            assert_eq!(sp.index(&sp.state(idx)), idx);
        }
        assert!(
            matches!(StateSpace::new(2, 2, 2, 40), Err(Error::TooLarge(m)) if m.contains("states"))
        );
        assert!(matches!(
            StateSpace::new(3, 3, 3, 200),
            Err(Error::TooLarge(_))
        ));
    }

    #[test]
    fn count_with_one_obsolescence_phase_is_the_level_sum() {
        for (w, m, l) in [(1, 1, 0), (1, 1, 7), (2, 3, 5), (3, 1, 40)] {
            let sum: usize = (0..=l).map(|i| StateSpace::level_size_of(w, m, 1, i)).sum();
            assert_eq!(StateSpace::count(w, m, 1, l).unwrap(), sum as u128);
            assert_eq!(StateSpace::new(w, m, 1, l).unwrap().len(), sum);
        }
        // A 4e9-level buffer is counted without a loop, and refused.
        assert_eq!(
            StateSpace::count(1, 1, 1, u32::MAX as usize).unwrap(),
            1 + u32::MAX as u128
        );
        assert!(matches!(
            StateSpace::count(usize::MAX, usize::MAX, 1, usize::MAX),
            Err(Error::TooLarge(_))
        ));
    }
}
