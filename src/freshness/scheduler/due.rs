//! What frameworks that schedule by date need from a [`Scheduler`]
//! (Nutch's FetchSchedule, StormCrawler's Scheduler set each URL's next
//! fetch time): each page's estimator state, to keep in the URL's own
//! metadata across runs, and the plan as a revisit interval per page.
//!
//! # The due-time view of the plan
//!
//! The plan crawls back to back, one crawl every E\[X] time units on
//! average (X: the scheduler's crawl-time distribution), so it makes
//! R = 1/E\[X] crawls per unit time, and page i takes the share f_i of them
//! (its optimal frequency, [`Scheduler::frequency`]). With its crawls evenly
//! spaced, as the plan's accessing policies space them (Theorems 3.2–3.3 of
//! paper 000), page i is crawled every
//!
//! ```text
//! I_i = 1 / (f_i R) = E[X] / f_i
//! ```
//!
//! time units, and Σ_i 1/I_i = R: the intervals spend exactly the budget.
//! A crawler with a budget of B crawls per unit time therefore builds its
//! scheduler with crawl times of mean 1/B (e.g. `deterministic(1/B)`): the
//! frequencies are then the optimum for that budget, since h_i =
//! E\[exp(−μ_i X)] depends on it. Pages with f_i = 0 (possible with general
//! weights, see [`Scheduler`]) are never due: `None`.
//!
//! Cost: these views read the plan of the last recomputation by a pick
//! while nothing changed since; otherwise a plan of their own, computed
//! (O(N)) when stale by the rule picks follow: at once after a structure
//! change (pages added or removed, a rate set, hosts or delays changed),
//! and after estimates from `observe` only once N per-page calls have been
//! answered from the previous plan. A crawler that never picks and asks
//! one page's interval after every visit therefore pays O(1) amortised per
//! call, its intervals lagging its estimates by at most one batch of N
//! calls, as picks lag by N picks. The bulk form
//! ([`Scheduler::revisit_intervals`], O(N) anyway) is always current.

use std::sync::{Mutex, PoisonError};

use super::{Scheduler, not_found};
use crate::error::{Error, Num, Result};
use crate::freshness::estimator::ChangeRateEstimator;
use crate::validate;

impl Scheduler {
    /// Page `id`'s change-rate estimator state
    /// ([`ChangeRateEstimator::to_bytes`], at most
    /// [`MAX_STATE_BYTES`](crate::freshness::estimator::MAX_STATE_BYTES)):
    /// its visits so far and its prior (the rate it was added with).
    ///
    /// Errors: `NotFound` for an unknown id.
    pub fn page_state(&self, id: u64) -> Result<Vec<u8>> {
        Ok(self.page(id)?.estimator.to_bytes())
    }

    /// Replaces page `id`'s estimator with the state `bytes` (from
    /// [`page_state`](Self::page_state), possibly of another scheduler or
    /// run) and adopts its estimate as the page's rate, as
    /// [`observe`](Self::observe) adopts each new one: not when the crawl
    /// time cannot use it (h_i would round to 0 or 1) or there is none, and
    /// the frequencies follow in the same batches. After
    /// `add_page(id, guess)` in a new run, importing the state saved in the
    /// previous one gives the estimator, the estimate and every later
    /// observation's result exactly as if the run had not stopped.
    ///
    /// Errors: `NotFound` for an unknown id, `InvalidArgument` for bytes
    /// [`ChangeRateEstimator::from_bytes`] refuses (the page is unchanged).
    pub fn set_page_state(&mut self, id: u64, bytes: &[u8]) -> Result<()> {
        let slot = self.slot_of(id)?;
        let estimator = ChangeRateEstimator::from_bytes(bytes)?;
        let Some(page) = self.slots[slot].as_mut() else {
            return Err(not_found(id));
        };
        page.estimator = estimator;
        self.adopt_estimate(slot);
        Ok(())
    }

    /// The plan's crawls per unit time, R = 1/E\[X].
    pub fn crawl_rate(&self) -> f64 {
        1.0 / self.access.mean()
    }

    /// Page `id`'s revisit interval under the plan, E\[X]/f_i (see the
    /// module documentation), or `None` when the plan never crawls it
    /// (f_i = 0, or an interval beyond the largest double). After
    /// estimates from `observe`, f_i may be that of a plan up to N calls
    /// old (see the module documentation: O(1) amortised per call).
    ///
    /// Errors: `NotFound` for an unknown id; the frequency computation's.
    pub fn revisit_interval(&self, id: u64) -> Result<Option<f64>> {
        let slot = self.slot_of(id)?;
        if !self.structure_changed && self.pending_estimates == 0 {
            return Ok(self.interval_of(self.page(id)?.freq));
        }
        let mut plan = self.due_plan.lock();
        let batch_over = plan.calls >= self.len as u64;
        if plan.structure_changes != Some(self.structure_changes)
            || (plan.estimate_changes != self.estimate_changes && batch_over)
        {
            self.refresh_due_plan(&mut plan)?;
        }
        plan.calls += 1;
        let f = plan.freq.get(slot).copied().ok_or_else(|| not_found(id))?;
        Ok(self.interval_of(f))
    }

    /// When page `id`, last crawled at `last_visit` (finite, any clock in
    /// the unit of the rates and crawl times), is next due under the plan:
    /// `last_visit` + its [`revisit_interval`](Self::revisit_interval), or
    /// `None` when it is never due.
    ///
    /// Errors: `NotFound`; `InvalidArgument` for a NaN or infinite
    /// `last_visit`; `TooLarge` when the sum overflows.
    pub fn next_due(&self, id: u64, last_visit: f64) -> Result<Option<f64>> {
        validate::finite("last_visit", last_visit)?;
        let Some(interval) = self.revisit_interval(id)? else {
            return Ok(None);
        };
        let due = last_visit + interval;
        if !due.is_finite() {
            return Err(Error::TooLarge(format!(
                "last_visit = {} plus the revisit interval {} overflows",
                Num(last_visit),
                Num(interval)
            )));
        }
        Ok(Some(due))
    }

    /// Every page's [`revisit_interval`](Self::revisit_interval), as
    /// (id, interval) sorted by id, with one O(N) recomputation at most.
    ///
    /// Errors: `NotFound` when the scheduler has no page.
    pub fn revisit_intervals(&self) -> Result<Vec<(u64, Option<f64>)>> {
        if self.len == 0 || (!self.structure_changed && self.pending_estimates == 0) {
            return Ok(self
                .frequencies()?
                .into_iter()
                .map(|(id, f)| (id, self.interval_of(f)))
                .collect());
        }
        let mut plan = self.due_plan.lock();
        if plan.structure_changes != Some(self.structure_changes)
            || plan.estimate_changes != self.estimate_changes
        {
            self.refresh_due_plan(&mut plan)?;
        }
        let mut all: Vec<(u64, Option<f64>)> = (self.slots.iter().zip(&plan.freq))
            .filter_map(|(p, &f)| p.as_ref().map(|p| (p.id, self.interval_of(f))))
            .collect();
        all.sort_unstable_by_key(|e| e.0);
        Ok(all)
    }

    /// Computes the due-time view's plan afresh (O(N)).
    fn refresh_due_plan(&self, plan: &mut DueState) -> Result<()> {
        let (order, f) = self.optimal()?;
        plan.freq.clear();
        plan.freq.resize(self.slots.len(), 0.0);
        for (&slot, fi) in order.iter().zip(f) {
            plan.freq[slot as usize] = fi;
        }
        plan.structure_changes = Some(self.structure_changes);
        plan.estimate_changes = self.estimate_changes;
        plan.calls = 0;
        plan.recomputations += 1;
        Ok(())
    }

    /// Number of plans the due-time view computed (for tests of the
    /// amortisation).
    #[cfg(test)]
    pub(crate) fn due_recomputations(&self) -> u64 {
        self.due_plan.lock().recomputations
    }

    /// E\[X]/f, `None` for f = 0 or an infinite quotient.
    fn interval_of(&self, f: f64) -> Option<f64> {
        let interval = self.access.mean() / f;
        (f > 0.0 && interval.is_finite()).then_some(interval)
    }
}

/// The due-time view's own plan, computed when stale (see the module
/// documentation). Behind a `Mutex` so that the `&self` views can refresh
/// it while the scheduler stays `Sync`.
#[derive(Debug, Default)]
pub(super) struct DuePlan(Mutex<DueState>);

#[derive(Debug, Default, Clone)]
pub(super) struct DueState {
    /// f_i by page slot (0 for an empty slot).
    freq: Vec<f64>,
    /// The scheduler's change counts when computed (`None`: never).
    structure_changes: Option<u64>,
    estimate_changes: u64,
    /// Per-page calls answered from this plan.
    calls: u64,
    /// Plans computed so far.
    recomputations: u64,
}

impl DuePlan {
    /// The state (a panic elsewhere cannot leave it inconsistent: every
    /// field is written before the counts that validate it).
    fn lock(&self) -> std::sync::MutexGuard<'_, DueState> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Clone for DuePlan {
    fn clone(&self) -> Self {
        DuePlan(Mutex::new(self.lock().clone()))
    }
}
