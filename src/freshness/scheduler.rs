//! A streaming recrawl scheduler over a dynamic page set.
//!
//! Coffman, Liu and Weber (paper 000) schedule in two stages: optimal
//! access frequencies f_i (Theorem 3.4, or the Lagrange conditions (8)–(9)
//! for general weights), then an accessing policy that realises them with
//! each page's accesses as evenly spaced as possible (Theorem 3.2). Their
//! §6 adapts this to a page set that changes over time: pages that arrive
//! wait for the next cycle, when a new template is computed; pages that
//! leave are dropped at once.
//!
//! [`Scheduler`] is that idea as an online handle: a crawler adds and
//! removes pages, reports what it saw on each visit, and asks for the next
//! page to crawl. Two accessing policies are offered ([`SchedulerMode`]):
//!
//! - **Stride**: every page carries a virtual due time; [`Scheduler::next`]
//!   serves the earliest and moves it 1/f_i later. Virtual time advances by
//!   Σ f_i = 1 per access on average, so page i is served at frequency f_i
//!   with gaps within a few accesses of 1/f_i: nearly the even spacing that
//!   attains the bound of Theorem 3.3. O(1) amortised per access (the due
//!   times of about N accesses are generated and sorted at once); changes
//!   take effect at the next access.
//! - **GoldenRatio**: the golden-ratio policy of §5 as a cycle template,
//!   served position by position, with the §6 rules for arrivals and
//!   departures; pages below one access per cycle share pooled positions.
//!   O(1) per access (O(log N) at a pooled position); arrivals wait up to
//!   one cycle.
//!
//! Change rates are not known in practice: [`Scheduler::observe`] feeds a
//! per-page [`ChangeRateEstimator`] and the page's rate follows its
//! estimate, which moves the frequencies.
//!
//! Politeness: a page may belong to a host ([`Scheduler::set_host`], any
//! `u32`) with a minimum delay d_h between two picks of its pages
//! ([`Scheduler::set_host_delay`]), in the time unit of the crawl times.
//! A scheduler with hosts keeps one of two clocks, chosen by its first
//! pick: the caller's ([`Scheduler::next_at`]`(now)`: a page of h only
//! once `now` is d_h past h's last pick), or crawl slots
//! ([`Scheduler::next`]: one slot of E\[X] per pick, slots where no host
//! is ready skipped, and a page of h only k_h slots or more after h's last
//! pick, k_h the least whole number with k_h E\[X] ≥ d_h). While a host
//! with pages has a delay, the frequencies are the polite plan
//! ([`polite_frequencies`], the evenly spaced objective of problem (7) that
//! both modes realise) at R = 1/E\[X] picks per unit time (one pick per
//! mean crawl time, the due-time view's [`Scheduler::crawl_rate`]), with
//! host h capped at b_h = 1/d_h picks per unit time on the caller's clock
//! and at 1/(k_h E\[X]) on the slot clock, i.e. the share 1/k_h of the
//! picks that whole slots allow; pages without a host, or on a host
//! without a delay, are uncapped. When the caps cannot absorb R (every
//! page on a delayed host, Σ κ_h < 1) the plan has slack: Σ f_i = Σ κ_h,
//! and `next_at` answers [`Pick::Wait`] (`next` skips slots) the rest of
//! the time. While a page has a host, both modes serve every page by
//! virtual due times 1/f_i apart (Stride's order) in groups, one per host
//! and one for the pages without a host: among the groups not in their
//! delay, the hosts whose plan share is their cap first (shortest delay
//! first), then the one whose earliest page is due first, O(log hosts)
//! amortised per pick. With `next` (and with a caller who picks once per
//! E\[X] with delays that are whole multiples of that step) every page's
//! long-run share is its constrained optimum f_i when at most one host is
//! at or near its cap, or when the delays are long against E\[X] (in the
//! tests, counts within 3 picks of f_i times the picks, and within the
//! binomial bound at 50 slots or more per delay). The plan is a fluid
//! optimum: one pick stream cannot serve two hosts ready in the same slot,
//! so with few slots per delay hosts at or near their caps can get less (a
//! host of delay 2 slots beside a saturated one of 5 takes 2 picks in 5,
//! not its planned 0.49). A host served after m others whose caps sum to
//! ρ < 1 still gets at least 1/(k_h + m/(1 − ρ)) of the picks, and the
//! pages without a host take the slots left. A caller whose clock allows
//! fewer picks of a host than 1/d_h (picks on a grid coarser than the
//! delay's remainder) gets the caps but not every share. A recomputation
//! keeps each page's phase;
//! a page already overdue keeps its due time, so a host behind the virtual
//! clock serves its overdue pages by lateness and none starves.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap, HashSet};

mod due;
mod hosts;
use hosts::Hosts;
pub use hosts::{Pick, SCHEDULER_BYTES_PER_HOST};

use super::estimator::ChangeRateEstimator;
use super::polite::{PoliteObjective, PoliteOptions, polite_frequencies};
use super::{Model, cyclic, frequencies};
use crate::dist::Distribution;
use crate::error::{Error, Num, Result};
use crate::validate;

/// Most pages a scheduler accepts (about 4.2 million). The golden-ratio
/// template alone takes up to 13 slots (4 bytes each) per page, and every
/// recomputation is O(N), so larger sets are refused as `TooLarge`.
pub const MAX_PAGES: usize = 1 << 22;

/// Bytes a scheduler holds per page at its peak, checked by `add_page`
/// against the process-wide memory cap so that a page accepted there does
/// not make a later recomputation exceed it: the page record (144) and
/// index entry (24), each up to twice over in a growing `Vec`/map, plus
/// either Stride's queue (36) and window of at most 2 accesses per page,
/// twice for the sort (64), or GoldenRatio's template (8 bytes per
/// position, up to 13 per page), pool entry (32) and, during a rebuild,
/// the golden-ratio sequence and the new template beside the old one, or
/// what a recomputation holds (a [`Model`], the general-weights optimum and
/// the page order, ~170; through the polite plan ~90 on top of the pages,
/// hosts and delays). Measured peaks stay below 620 in both modes
/// (largest just past a power of two pages; 290 with hosts at 10^6 pages
/// over 10^4 hosts).
pub const SCHEDULER_BYTES_PER_PAGE: u128 = 768;

/// GoldenRatio mode: the cycle length is the smallest Fibonacci number
/// F_k ≥ CYCLE_FACTOR·N (so between 8N and 13N accesses). A page with
/// f_i·F_k ≥ 1 gets f_i·F_k rounded to a whole count per cycle; pages below
/// one access per cycle take turns at pooled positions (one visit about
/// every 1/(f_i·F_k) cycles). Every page's long-run share is within
/// 2/F_k ≤ 1/(4N) of f_i, while a page added mid-cycle waits at most one
/// cycle (§6) and the O(F_k) template build is amortised over F_k accesses.
pub const CYCLE_FACTOR: usize = 8;

/// Prior weight of the change-rate estimators, in expected changes: a page
/// added with rate μ₀ starts with a prior worth `PRIOR_CHANGES / μ₀` time
/// units of continuous observation at rate μ₀ (one change's worth), see
/// [`ChangeRateEstimator::with_prior`]. Weak enough that a few visits that
/// contradict the guess move the rate, strong enough that one lucky visit
/// does not send it to 0 or ∞.
pub const PRIOR_CHANGES: f64 = 1.0;

/// Seed of the hash that staggers the first due times of new pages.
const OFFSET_SEED: u64 = 0x5eed_c0ff_ee15_900d;

/// Which accessing policy realises the optimal frequencies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SchedulerMode {
    /// Earliest virtual due time first, due times 1/f_i apart.
    Stride,
    /// Golden-ratio cycle template (§5), rebuilt between cycles (§6).
    GoldenRatio,
}

/// One page's state.
#[derive(Debug, Clone)]
pub(super) struct Page {
    id: u64,
    /// Current change rate μ_i (set explicitly or estimated).
    rate: f64,
    /// Cost weight c_i; `None` means c_i = μ_i (the current rate).
    weight: Option<f64>,
    estimator: ChangeRateEstimator,
    /// Frequency in effect since the last recomputation (0 before it).
    freq: f64,
    /// Virtual due time of the next access (∞ when not scheduled). Stride:
    /// as of the last recomputation (the queue holds the current one);
    /// GoldenRatio: among the pooled pages.
    due: f64,
    /// GoldenRatio: stamp of the page's live pool entry; older entries are
    /// stale.
    generation: u64,
    /// GoldenRatio: for a page with 0 < f_i F_k < 1, its share ρ_i of the
    /// template's shared positions (0 otherwise); `due` is then its
    /// virtual due time among the sharing pages.
    share: f64,
    /// The page's host (politeness delays, see [`Scheduler::next_at`]).
    host: Option<u32>,
}

/// Pool heap entry (GoldenRatio), ordered so that `BinaryHeap` (a max-heap)
/// pops the smallest due time first, ties broken by the smaller id.
#[derive(Debug, Clone, Copy)]
struct Entry {
    due: f64,
    id: u64,
    slot: u32,
    generation: u64,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .due
            .total_cmp(&self.due)
            .then_with(|| other.id.cmp(&self.id))
            .then_with(|| other.generation.cmp(&self.generation))
    }
}

/// Online recrawl scheduler for a changing set of pages (paper 000, §6).
///
/// Frequencies are the optimal ones of [`frequencies::optimal_frequencies`]
/// for a [`Model`] built from the current pages. They are recomputed
/// lazily, never more than once per call to [`next`](Self::next):
/// - after `add_page`, `remove_page` or `set_change_rate`: at the next
///   access (Stride) or at the start of the next cycle (GoldenRatio);
/// - after rate changes that come from `observe`: these are batched. Stride
///   recomputes once at least N accesses have been served since the last
///   recomputation; GoldenRatio at the start of the next cycle (≥ 8N
///   accesses). Either way the O(N) work is amortised to O(1) per access,
///   so a crawler that reports every visit does not pay O(N) per access.
///
/// With general weights the optimum of problem (7) may give a page f_i = 0
/// (its constraint x_i ≥ 0 is active: the page changes too fast for its
/// weight to be worth a visit). Such a page is never returned, in either
/// mode, until its rate or the page set changes; `frequency` reports 0.
///
/// Pages are identified by caller-chosen `u64` ids. The scheduler is
/// deterministic: the same calls give the same sequence.
#[derive(Debug, Clone)]
pub struct Scheduler {
    access: Distribution,
    mode: SchedulerMode,
    /// Page storage; a page keeps its slot for life.
    slots: Vec<Option<Page>>,
    /// Slots that can be reused now.
    free: Vec<u32>,
    /// GoldenRatio: slots freed during the current cycle; the template may
    /// still name them, so they are reused only after the next rebuild.
    free_later: Vec<u32>,
    index: HashMap<u64, u32>,
    len: usize,
    /// A page was added or removed or a rate was set since the last
    /// recomputation.
    structure_changed: bool,
    /// Rate changes from `observe` since the last recomputation.
    pending_estimates: u64,
    /// Accesses served since the last recomputation.
    picks_since_recompute: u64,
    /// Number of recomputations (for tests of the amortisation).
    pub(super) recomputations: u64,
    // Stride state.
    stride: StrideQueue,
    /// Virtual time: due time of the last page served.
    now: f64,
    /// Stamp of the last pooled entry pushed (GoldenRatio).
    next_generation: u64,
    // GoldenRatio state.
    pub(super) template: Template,
    pub(super) pos: usize,
    /// Pages with 0 < f_i F_k < 1, by virtual due time: served at the
    /// template's pool positions.
    shared: BinaryHeap<Entry>,
    /// Virtual time of the shared positions: due time of the last served.
    shared_now: f64,
    /// GoldenRatio: ids of the pages removed during the current cycle
    /// (their positions are skipped; empty after a rebuild).
    left: HashSet<u64>,
    /// Hosts, their delays, and the host path's queues.
    hosts: Hosts,
    /// Number of structure changes (pages, set rates, hosts, delays) and
    /// of adopted estimates so far: the due-time view's plan is stale
    /// when they moved since it was computed.
    structure_changes: u64,
    estimate_changes: u64,
    /// The due-time view's plan (see [`due`]).
    due_plan: due::DuePlan,
}

/// GoldenRatio's cycle: per position, the id of the page it serves, or
/// the pool of the pages below one access per cycle. Serving a position
/// reads the next 8 bytes and bit: no page record.
#[derive(Debug, Clone, Default)]
pub(super) struct Template {
    /// Page id per position (0 at pool positions).
    ids: Vec<u64>,
    /// Bit p set: position p serves the pool.
    pool: Vec<u64>,
}

impl Template {
    /// The template of the golden-ratio sequence `seq` over `members`
    /// (page ids, `None` for the pool).
    fn new(seq: &[usize], members: &[Option<u64>]) -> Result<Template> {
        if seq.is_empty() {
            return Err(Error::NotConverged("empty golden-ratio template".into()));
        }
        let mut t = Template {
            ids: Vec::with_capacity(seq.len()),
            pool: vec![0; seq.len().div_ceil(64)],
        };
        for (p, &k) in seq.iter().enumerate() {
            let member = members.get(k).ok_or_else(|| {
                Error::NotConverged("golden-ratio sequence names an unknown page".into())
            })?;
            t.ids.push(member.unwrap_or(0));
            if member.is_none() {
                t.pool[p / 64] |= 1 << (p % 64);
            }
        }
        Ok(t)
    }

    pub(super) fn len(&self) -> usize {
        self.ids.len()
    }

    fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The page id at position `p` (< len), `None` at a pool position.
    fn get(&self, p: usize) -> Option<u64> {
        (self.pool[p / 64] >> (p % 64) & 1 == 0).then(|| self.ids[p])
    }
}

impl Scheduler {
    /// An empty scheduler whose accesses take time distributed as `access`
    /// (which must have a finite, positive mean).
    pub fn new(access: Distribution, mode: SchedulerMode) -> Result<Self> {
        let mean = access.mean();
        if !(mean.is_finite() && mean > 0.0) {
            return Err(Error::invalid(format!(
                "the access time must have a finite, positive mean, got E[X] = {}",
                Num(mean)
            )));
        }
        Ok(Scheduler {
            access,
            mode,
            slots: Vec::new(),
            free: Vec::new(),
            free_later: Vec::new(),
            index: HashMap::new(),
            len: 0,
            structure_changed: false,
            pending_estimates: 0,
            picks_since_recompute: 0,
            recomputations: 0,
            stride: StrideQueue::default(),
            now: 0.0,
            next_generation: 0,
            template: Template::default(),
            pos: 0,
            shared: BinaryHeap::new(),
            shared_now: 0.0,
            left: HashSet::new(),
            hosts: Hosts::default(),
            structure_changes: 0,
            estimate_changes: 0,
            due_plan: due::DuePlan::default(),
        })
    }

    /// Number of pages.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there is no page.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The accessing policy.
    pub fn mode(&self) -> SchedulerMode {
        self.mode
    }

    /// Adds page `id` with change rate `change_rate` (> 0, finite, and such
    /// that 0 < E\[exp(−μX)] < 1) and cost weight `weight` (> 0; `None`
    /// means c_i = μ_i, the case of Theorem 3.4, following the current
    /// rate). The rate also becomes the prior of the page's estimator
    /// ([`PRIOR_CHANGES`]).
    ///
    /// Errors: `InvalidArgument` for a duplicate id or a bad rate/weight,
    /// `TooLarge` beyond [`MAX_PAGES`] pages or when the pages would need
    /// more than the memory cap ([`SCHEDULER_BYTES_PER_PAGE`] each).
    pub fn add_page(&mut self, id: u64, change_rate: f64, weight: Option<f64>) -> Result<()> {
        if self.index.contains_key(&id) {
            return Err(duplicate(id));
        }
        self.check_room(1)?;
        self.check_page(["change_rate", "weight"], change_rate, weight)?;
        self.check_bytes(1)?;
        let page = page_record(id, change_rate, weight)?;
        let slot = self.next_slot(0)?;
        self.index.insert(id, slot);
        self.place(slot, page);
        Ok(())
    }

    /// Adds the pages `(id, change_rate, weight)` of `pages` as
    /// [`add_page`](Self::add_page) would one by one, in the same slots and
    /// so with the same schedule, but all or none, with one memory check
    /// for the whole set and no per-page allocation beyond the records. An
    /// empty batch changes nothing.
    ///
    /// Errors, in this order, and nothing is added on any: `TooLarge` when
    /// the whole set exceeds [`MAX_PAGES`] or the memory cap (checked
    /// before any page is read); `InvalidArgument` for the first page
    /// `add_page` would refuse, named after the C API's arrays (`ids[k]`
    /// already scheduled, `change_rates[k]`, `weights[k]`), then for the
    /// first id that repeats an earlier one of the batch.
    pub fn add_pages(&mut self, pages: &[(u64, f64, Option<f64>)]) -> Result<()> {
        self.add_pages_with(pages.len(), |k| pages[k])
    }

    /// [`add_pages`](Self::add_pages) of the `n` pages `page(0)`, ...,
    /// `page(n - 1)`, for pages not held as one slice (the C API's
    /// separate arrays): `page` is called only after the size checks, so a
    /// huge `n` is refused without reading a page.
    pub fn add_pages_with(
        &mut self,
        n: usize,
        page: impl Fn(usize) -> (u64, f64, Option<f64>),
    ) -> Result<()> {
        self.check_room(n)?;
        self.check_bytes(n)?;
        let records = self.batch_records(n, page)?;
        self.index_batch(&records)?;
        for page in records {
            let slot = self.next_slot(0)?;
            debug_assert_eq!(Some(&slot), self.index.get(&page.id));
            self.place(slot, page);
        }
        Ok(())
    }

    /// The records of a batch's pages, each checked as `add_page` checks
    /// one, against the pages already scheduled.
    fn batch_records(
        &self,
        n: usize,
        page: impl Fn(usize) -> (u64, f64, Option<f64>),
    ) -> Result<Vec<Page>> {
        let mut records = Vec::with_capacity(n);
        for k in 0..n {
            let (id, change_rate, weight) = page(k);
            if self.index.contains_key(&id) {
                return Err(Error::invalid(format!(
                    "ids[{k}] = {id} is already scheduled"
                )));
            }
            // Names are formatted only for a refused page.
            if self
                .check_page(["change_rate", "weight"], change_rate, weight)
                .is_err()
            {
                let names = [format!("change_rates[{k}]"), format!("weights[{k}]")];
                self.check_page([&names[0], &names[1]], change_rate, weight)?;
            }
            records.push(page_record(id, change_rate, weight)?);
        }
        Ok(records)
    }

    /// Enters a batch's pages in the index, in the slots
    /// [`next_slot`](Self::next_slot) gives them; an id repeated within the
    /// batch is refused with the index as it was.
    fn index_batch(&mut self, records: &[Page]) -> Result<()> {
        self.index.reserve(records.len());
        self.slots
            .reserve(records.len().saturating_sub(self.free.len()));
        for (k, page) in records.iter().enumerate() {
            let slot = self.next_slot(k)?;
            if self.index.insert(page.id, slot).is_some() {
                // Only ids of this batch can repeat (the repeat overwrote
                // an entry of this batch): remove this batch's entries.
                for p in &records[..k] {
                    self.index.remove(&p.id);
                }
                let first = records.iter().position(|p| p.id == page.id);
                return Err(Error::invalid(format!(
                    "ids[{k}] = {} repeats ids[{}]",
                    page.id,
                    first.unwrap_or(k)
                )));
            }
        }
        Ok(())
    }

    /// `TooLarge` unless `more` pages fit under [`MAX_PAGES`].
    fn check_room(&self, more: usize) -> Result<()> {
        if self.len.saturating_add(more) > MAX_PAGES {
            return Err(Error::TooLarge(format!(
                "a scheduler holds at most {MAX_PAGES} pages"
            )));
        }
        Ok(())
    }

    /// `InvalidArgument` for a bad rate or weight, named `names`.
    fn check_page(&self, names: [&str; 2], change_rate: f64, weight: Option<f64>) -> Result<()> {
        self.check_rate(names[0], change_rate)?;
        if let Some(w) = weight {
            validate::positive(names[1], w)?;
        }
        Ok(())
    }

    /// `TooLarge` when `more` pages would take the scheduler past the
    /// memory cap ([`SCHEDULER_BYTES_PER_PAGE`] each).
    fn check_bytes(&self, more: usize) -> Result<()> {
        self.check_bytes_with(more, 0)
    }

    /// `TooLarge` when `more` pages and `more_hosts` host records would
    /// take the scheduler past the memory cap ([`SCHEDULER_BYTES_PER_PAGE`]
    /// and [`SCHEDULER_BYTES_PER_HOST`] each).
    fn check_bytes_with(&self, more: usize, more_hosts: usize) -> Result<()> {
        let total = self.len.saturating_add(more);
        let hosts = self.hosts.len().saturating_add(more_hosts);
        let bytes = crate::limits::bytes(total, SCHEDULER_BYTES_PER_PAGE)
            .zip(crate::limits::bytes(hosts, SCHEDULER_BYTES_PER_HOST))
            .and_then(|(p, h)| p.checked_add(h));
        let what = if hosts == 0 {
            format!("a scheduler of {total} pages")
        } else {
            format!("a scheduler of {total} pages and {hosts} hosts")
        };
        crate::limits::check_memory(bytes, &what)
    }

    /// The slot the `k`-th next new page takes: the free slots, last freed
    /// first, then new ones at the end.
    fn next_slot(&self, k: usize) -> Result<u32> {
        if let Some(i) = self.free.len().checked_sub(k + 1) {
            return Ok(self.free[i]);
        }
        // len + k < MAX_PAGES < u32::MAX and the free slots are taken, so
        // every slot is in use and the new index fits in u32.
        u32::try_from(self.slots.len() + (k - self.free.len()))
            .map_err(|_| Error::TooLarge("too many page slots".into()))
    }

    /// Stores a new page (already in the index) in `slot`, which is
    /// [`next_slot`](Self::next_slot)`(0)`.
    fn place(&mut self, slot: u32, page: Page) {
        if self.free.last() == Some(&slot) {
            self.free.pop();
            self.slots[slot as usize] = Some(page);
        } else {
            self.slots.push(Some(page));
        }
        self.len += 1;
        self.structure_change();
    }

    /// Removes page `id`; it is never returned by `next` afterwards (in
    /// GoldenRatio mode its remaining template positions are skipped, §6).
    /// Errors: `NotFound` for an unknown id.
    pub fn remove_page(&mut self, id: u64) -> Result<()> {
        let slot = self.index.remove(&id).ok_or_else(|| not_found(id))?;
        if let Some(host) = self.slots[slot as usize].take().and_then(|p| p.host) {
            self.hosts.unassign(host);
        }
        match self.mode {
            SchedulerMode::Stride => self.free.push(slot),
            SchedulerMode::GoldenRatio => {
                self.free_later.push(slot);
                self.left.insert(id);
            }
        }
        self.len -= 1;
        self.structure_change();
        Ok(())
    }

    /// Sets page `id`'s change rate. An explicit rate overrides what was
    /// learnt: the page's estimator restarts with this rate as its prior.
    /// Errors: `NotFound`, or `InvalidArgument` for a bad rate.
    pub fn set_change_rate(&mut self, id: u64, change_rate: f64) -> Result<()> {
        let slot = self.slot_of(id)?;
        self.check_rate("change_rate", change_rate)?;
        let estimator = prior_estimator(change_rate)?;
        if let Some(page) = self.slots[slot].as_mut() {
            page.rate = change_rate;
            page.estimator = estimator;
        }
        self.structure_change();
        Ok(())
    }

    /// Reports a visit to page `id` made `interval` (> 0) time units after
    /// the previous one, which saw the page `changed` or not. The page's
    /// rate becomes the estimator's posterior mode (prior: the rate given
    /// to `add_page`/`set_change_rate`, worth one expected change; see
    /// [`PRIOR_CHANGES`]). An estimate that the access-time distribution
    /// cannot use (h_i would round to 0 or 1) is not adopted; the visit is
    /// still recorded. Frequencies follow in batches (see [`Scheduler`]).
    ///
    /// Errors: `NotFound`, or `InvalidArgument` for a bad interval.
    pub fn observe(&mut self, id: u64, interval: f64, changed: bool) -> Result<()> {
        let slot = self.slot_of(id)?;
        let Some(page) = self.slots[slot].as_mut() else {
            return Err(not_found(id));
        };
        page.estimator.observe(interval, changed)?;
        self.adopt_estimate(slot);
        Ok(())
    }

    /// The page in `slot` takes its estimator's estimate as its rate, when
    /// there is one, it differs and the access time can use it.
    fn adopt_estimate(&mut self, slot: usize) {
        let Some(page) = self.slots[slot].as_mut() else {
            return;
        };
        if let Some(mu) = page.estimator.estimate()
            && mu != page.rate
            && rate_is_usable(&self.access, mu)
        {
            page.rate = mu;
            self.estimate_change();
        }
    }

    /// Page `id`'s current change rate.
    pub fn change_rate(&self, id: u64) -> Result<f64> {
        Ok(self.page(id)?.rate)
    }

    /// Page `id`'s target access frequency: its optimal frequency for the
    /// current pages and rates. When the cached frequencies are out of date
    /// (pages or rates changed since the last recomputation) this computes
    /// them afresh, O(N), without changing the schedule.
    pub fn frequency(&self, id: u64) -> Result<f64> {
        let slot = self.slot_of(id)?;
        if !self.structure_changed && self.pending_estimates == 0 {
            return Ok(self.page(id)?.freq);
        }
        let (slots, f) = self.optimal()?;
        slots
            .iter()
            .position(|&s| s as usize == slot)
            .and_then(|k| f.get(k).copied())
            .ok_or_else(|| not_found(id))
    }

    /// Every page's target access frequency, as (id, frequency) sorted by
    /// id: what [`frequency`](Self::frequency) gives page by page, but with
    /// one O(N) recomputation in all when the cached frequencies are out of
    /// date (instead of one per page).
    ///
    /// Errors: `NotFound` when the scheduler has no page (as for
    /// [`next`](Self::next)).
    pub fn frequencies(&self) -> Result<Vec<(u64, f64)>> {
        if self.len == 0 {
            return Err(Error::NotFound("the scheduler has no pages".into()));
        }
        let mut all: Vec<(u64, f64)> = if !self.structure_changed && self.pending_estimates == 0 {
            self.slots
                .iter()
                .flatten()
                .map(|p| (p.id, p.freq))
                .collect()
        } else {
            let (slots, f) = self.optimal()?;
            slots
                .iter()
                .zip(f)
                .map(|(&s, f)| (self.slots[s as usize].as_ref().expect("a live slot").id, f))
                .collect()
        };
        all.sort_unstable_by_key(|e| e.0);
        Ok(all)
    }

    /// The id of the next page to crawl.
    ///
    /// (Not `Iterator::next`: it can fail, and an empty scheduler is an
    /// error rather than the end of a sequence.)
    ///
    /// With hosts, picks are on a clock of crawl slots, one per E\[X]: a
    /// host of delay d_h is picked at most once in k_h slots, k_h the least
    /// whole number with k_h E\[X] ≥ d_h, and the plan caps it at 1/k_h of
    /// the picks (see the [module documentation](self)).
    ///
    /// Errors: `NotFound` when the scheduler has no page (there is nothing
    /// to return; the call itself is well-formed), or no host with pages
    /// will ever be ready; `InvalidArgument` with hosts after
    /// [`next_at`](Self::next_at) (a scheduler with hosts keeps the clock
    /// of its first pick); the error of the frequency computation.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<u64> {
        if self.len == 0 {
            return Err(Error::NotFound("the scheduler has no pages".into()));
        }
        if self.hosts.hosted > 0 {
            return self.next_slot_clock();
        }
        if self.hosts.active {
            self.leave_host_path();
        }
        let id = match self.mode {
            SchedulerMode::Stride => self.next_stride()?,
            SchedulerMode::GoldenRatio => self.next_golden()?,
        };
        self.picks_since_recompute += 1;
        Ok(id)
    }

    /// The next `n` pages to crawl, in order: `n` calls of
    /// [`next`](Self::next). The n ids (8 bytes each) are checked against
    /// the process-wide memory cap before anything is allocated.
    ///
    /// Errors: `NotFound` when n > 0 and the scheduler has no page,
    /// `TooLarge` beyond the memory cap, or the error of `next`.
    pub fn next_batch(&mut self, n: usize) -> Result<Vec<u64>> {
        if n == 0 {
            return Ok(Vec::new());
        }
        if self.len == 0 {
            return Err(Error::NotFound("the scheduler has no pages".into()));
        }
        crate::limits::check_memory(
            crate::limits::bytes(n, 8),
            &format!("a batch of n = {n} page ids"),
        )?;
        let mut ids = Vec::new();
        ids.try_reserve_exact(n)
            .map_err(|e| Error::TooLarge(format!("a batch of n = {n} page ids: {e}")))?;
        for _ in 0..n {
            ids.push(self.next()?);
        }
        Ok(ids)
    }

    fn next_stride(&mut self) -> Result<u64> {
        let epoch_over = self.picks_since_recompute >= self.len as u64;
        if self.structure_changed || (self.pending_estimates > 0 && epoch_over) {
            self.refresh_stride()?;
        }
        // Every page with f_i > 0 is in the queue, and frequencies sum to
        // one, so the queue is empty only if no page has f_i > 0.
        let (due, id) = self
            .stride
            .pop()
            .ok_or_else(|| Error::NotFound("no page has a positive access frequency".into()))?;
        self.now = self.now.max(due);
        Ok(id)
    }

    fn next_golden(&mut self) -> Result<u64> {
        // After a rebuild every template position names a live page, so at
        // most one pass over the old template plus one position is needed.
        let bound = self.template.len() + 2;
        for _ in 0..bound {
            if self.pos >= self.template.len() {
                if self.structure_changed || self.pending_estimates > 0 || self.template.is_empty()
                {
                    self.rebuild_template()?;
                }
                self.pos = 0;
            }
            let position = self.template.get(self.pos);
            self.pos += 1;
            match position {
                None => {
                    if let Some(id) = self.next_shared() {
                        return Ok(id);
                    }
                }
                Some(id) if self.left.is_empty() || !self.left.contains(&id) => return Ok(id),
                Some(_) => {}
            }
        }
        Err(Error::NotFound(
            "no page in the golden-ratio template".into(),
        ))
    }

    /// The sharing page due first (earliest virtual due time), moved 1/ρ_i
    /// later; `None` when every sharing page has left since the rebuild.
    /// Entries of removed pages are dropped as they surface.
    fn next_shared(&mut self) -> Option<u64> {
        while let Some(entry) = self.shared.pop() {
            let Some(Some(page)) = self.slots.get_mut(entry.slot as usize) else {
                continue;
            };
            // A removed page's slot stays empty until the next rebuild.
            if page.generation != entry.generation || page.id != entry.id {
                continue;
            }
            self.shared_now = self.shared_now.max(entry.due);
            page.due = entry.due + 1.0 / page.share;
            self.next_generation += 1;
            page.generation = self.next_generation;
            let id = page.id;
            self.shared.push(Entry {
                due: page.due,
                id,
                slot: entry.slot,
                generation: page.generation,
            });
            return Some(id);
        }
        None
    }

    /// Recomputes the frequencies and reschedules every page (Stride).
    fn refresh_stride(&mut self) -> Result<()> {
        self.stride.rewind();
        let (order, f) = self.optimal()?;
        self.stride.store_dues(&mut self.slots);
        let now = self.now;
        self.stride.clear();
        for (&slot, &fi) in order.iter().zip(&f) {
            let Some(page) = self.slots[slot as usize].as_mut() else {
                continue;
            };
            if let Some(step) = rephase(page, fi, now) {
                self.stride.push(slot, page.id, step, page.due);
            }
        }
        self.stride.start();
        self.mark_recomputed();
        Ok(())
    }

    /// Builds the next cycle's golden-ratio template (§5, §6).
    ///
    /// A page with f_i F_k ≥ 1 gets its rounded count of positions (largest
    /// remainder, so within 1 of f_i F_k). Pages with 0 < f_i F_k < 1 would
    /// each need a position per cycle, taken from the busiest pages (with
    /// many of them, a share off by far more than 1/F_k); instead they are
    /// pooled into one virtual page of frequency Σ f_i, whose positions
    /// (see [`Template`]) serve them in turn, earliest virtual due time first,
    /// with due times 1/ρ_i apart, ρ_i = f_i/Σ f_j: page i is visited about
    /// once every 1/(f_i F_k) cycles. Every page's long-run share is then
    /// within 2/F_k of f_i (within 1/F_k unless the pool is rounded up
    /// from 0 to 1 position, taken from the largest count).
    fn rebuild_template(&mut self) -> Result<()> {
        let (order, f) = self.optimal()?;
        let target = order
            .len()
            .checked_mul(CYCLE_FACTOR)
            .ok_or_else(|| Error::TooLarge("cycle length overflows".into()))?;
        let total = cyclic::fibonacci_at_least(target);
        let big_f = total as f64;
        let pooled = |fi: f64| fi > 0.0 && fi * big_f < 1.0;
        // Template pages (their ids): the pages with f_i F_k ≥ 1, then the
        // pool (`None`).
        let mut members: Vec<Option<u64>> = Vec::with_capacity(order.len() + 1);
        let mut g: Vec<f64> = Vec::with_capacity(order.len() + 1);
        let mut pool = 0.0;
        for (&slot, &fi) in order.iter().zip(&f) {
            if pooled(fi) {
                pool += fi;
            } else {
                members.push(self.slots[slot as usize].as_ref().map(|p| p.id));
                g.push(fi);
            }
        }
        if pool > 0.0 {
            members.push(None);
            g.push(pool);
        }
        let counts = cyclic::integer_counts_at_least_one(&g, total)?;
        let template = Template::new(&cyclic::golden_ratio_sequence(&counts)?, &members)?;
        let now = self.shared_now;
        let mut entries = Vec::new();
        for (&slot, &fi) in order.iter().zip(&f) {
            let Some(page) = self.slots[slot as usize].as_mut() else {
                continue;
            };
            page.freq = fi;
            if !pooled(fi) {
                page.share = 0.0;
                continue;
            }
            let share = fi / pool;
            page.due = if page.share > 0.0 && page.due.is_finite() {
                // Keep the page's phase, as Stride does.
                now + (page.due - now).max(0.0) * (page.share / share)
            } else {
                now + unit_hash(page.id) / share
            };
            page.share = share;
            self.next_generation += 1;
            page.generation = self.next_generation;
            entries.push(Entry {
                due: page.due,
                id: page.id,
                slot,
                generation: page.generation,
            });
        }
        self.shared = BinaryHeap::from(entries);
        self.template = template;
        // No position of the new template names a page removed before.
        self.free.append(&mut self.free_later);
        self.left.clear();
        self.mark_recomputed();
        Ok(())
    }

    /// The pages, a set rate, a host or a delay changed: the frequencies
    /// are recomputed before the next pick.
    fn structure_change(&mut self) {
        self.structure_changed = true;
        self.structure_changes += 1;
    }

    /// A page's rate follows a new estimate: the frequencies follow in
    /// batches (see [`Scheduler`]).
    fn estimate_change(&mut self) {
        self.pending_estimates += 1;
        self.estimate_changes += 1;
    }

    fn mark_recomputed(&mut self) {
        self.structure_changed = false;
        self.pending_estimates = 0;
        self.picks_since_recompute = 0;
        self.recomputations += 1;
    }

    /// Optimal frequencies of the current pages, with the slot of each
    /// model index (pages in slot order, so the result is deterministic):
    /// problem (7), or while a host with pages has a delay, its polite
    /// form (each such host capped at 1/d_h crawls per unit time, see
    /// [`Hosts::polite_groups`]; slack allowed when the caps cannot absorb
    /// the crawl rate).
    fn optimal(&self) -> Result<(Vec<u32>, Vec<f64>)> {
        let mut order = Vec::with_capacity(self.len);
        let mut rates = Vec::with_capacity(self.len);
        let mut any_weight = false;
        for (s, page) in self.slots.iter().enumerate() {
            if let Some(p) = page {
                // Slots are created only below MAX_PAGES < u32::MAX.
                order.push(s as u32);
                rates.push(p.rate);
                any_weight |= p.weight.is_some();
            }
        }
        let weights: Option<Vec<f64>> = any_weight.then(|| {
            self.slots
                .iter()
                .flatten()
                .map(|p| p.weight.unwrap_or(p.rate))
                .collect()
        });
        let model = Model::new(self.access.clone(), &rates, weights.as_deref())?;
        let f = match self.hosts.polite_groups(&self.slots, &order) {
            None => frequencies::optimal_frequencies(&model)?,
            Some((groups, max_rates)) => {
                let options = PoliteOptions {
                    allow_slack: true,
                    ..PoliteOptions::default()
                };
                let objective = PoliteObjective::EvenlySpaced;
                polite_frequencies(&model, &groups, &max_rates, objective, &options)?.frequencies
            }
        };
        if f.len() != order.len() || !f.iter().all(|x| x.is_finite() && *x >= 0.0) {
            return Err(Error::NotConverged(
                "optimal frequencies are not a probability vector".into(),
            ));
        }
        Ok((order, f))
    }

    /// A rate must be finite, > 0 and give 0 < h < 1 (as [`Model::new`]
    /// requires) for this access-time distribution.
    fn check_rate(&self, name: &str, rate: f64) -> Result<()> {
        validate::positive(name, rate)?;
        if rate_is_usable(&self.access, rate) {
            Ok(())
        } else {
            Err(Error::invalid(format!(
                "{name} = {} is too large or too small for this access time \
                 (E[exp(-mu X)] rounds to 0 or 1)",
                Num(rate)
            )))
        }
    }

    fn slot_of(&self, id: u64) -> Result<usize> {
        self.index
            .get(&id)
            .map(|&s| s as usize)
            .ok_or_else(|| not_found(id))
    }

    fn page(&self, id: u64) -> Result<&Page> {
        let slot = self.slot_of(id)?;
        self.slots
            .get(slot)
            .and_then(Option::as_ref)
            .ok_or_else(|| not_found(id))
    }
}

/// Gives `page` frequency `fi` and its next virtual due time after virtual
/// time `now`; returns its period 1/f_i, or `None` when f_i = 0 (the x_i ≥ 0
/// constraint of (7) is active, possible with general weights: the optimum
/// never visits the page, its due time is ∞).
fn rephase(page: &mut Page, fi: f64, now: f64) -> Option<f64> {
    let step = 1.0 / fi;
    if !(fi > 0.0 && step.is_finite()) {
        page.freq = 0.0;
        page.due = f64::INFINITY;
        return None;
    }
    page.due = if page.freq > 0.0 && page.due < now {
        // Overdue (a host behind the virtual clock): the page keeps its
        // due time, so the host's overdue pages keep their order and are
        // served by lateness (moving them all to `now` would serve the
        // same smallest ids first after every recomputation).
        page.due
    } else if page.freq > 0.0 && page.due.is_finite() {
        // Keep the page's phase: the remaining wait shrinks or grows with
        // the period 1/f_i.
        now + (page.due - now) * (page.freq / fi)
    } else {
        // New (or newly visited) page: a hashed offset in [0, 1/f_i)
        // staggers arrivals so a batch of new pages does not burst.
        now + unit_hash(page.id) * step
    };
    page.freq = fi;
    Some(step)
}

fn duplicate(id: u64) -> Error {
    Error::invalid(format!("page {id} is already scheduled"))
}

/// A new page's record: rate `change_rate` (checked), no visit yet.
fn page_record(id: u64, change_rate: f64, weight: Option<f64>) -> Result<Page> {
    Ok(Page {
        id,
        rate: change_rate,
        weight,
        estimator: prior_estimator(change_rate)?,
        freq: 0.0,
        due: f64::INFINITY,
        generation: 0,
        share: 0.0,
        host: None,
    })
}

fn not_found(id: u64) -> Error {
    Error::NotFound(format!("page {id} is not scheduled"))
}

/// The estimator of a page whose rate is believed to be `rate` (finite and
/// positive). Below 1/DBL_MAX (subnormal rates) the prior's weight
/// PRIOR_CHANGES/rate would overflow; it is capped at DBL_MAX time units
/// (then worth fewer changes).
fn prior_estimator(rate: f64) -> Result<ChangeRateEstimator> {
    ChangeRateEstimator::with_prior(rate, (PRIOR_CHANGES / rate).min(f64::MAX))
}

/// Same acceptance test as [`Model::new`]: μ E[X] finite, 0 < 1 − h and
/// ln h finite < 0.
fn rate_is_usable(access: &Distribution, rate: f64) -> bool {
    if !(rate.is_finite() && rate > 0.0 && (rate * access.mean()).is_finite()) {
        return false;
    }
    let c = access.laplace_complement(rate);
    let l = access.log_laplace(rate);
    c > 0.0 && l < 0.0 && l.is_finite()
}

/// A deterministic pseudo-random number in [0, 1) from a page id
/// (SplitMix64 finaliser), so offsets do not depend on insertion order.
fn unit_hash(id: u64) -> f64 {
    let mut z = id ^ OFFSET_SEED;
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Stride mode's queue: page i is due at d_i, d_i + s_i, d_i + 2s_i, …
/// (s_i = 1/f_i, each time the previous one plus s_i in floating point),
/// and the accesses are served in order of (due time, id) over all pages:
/// the order in which a heap of one entry per page would pop the earliest
/// (due time, id) and push its next due time. The due times are generated
/// a window at a time: every access due in [start, end), with end − start
/// = max(N, 64) (about N accesses, as Σ f_i = 1), sorted by a radix sort:
/// O(1) sequential work per access, where a heap takes O(log N) cache
/// misses.
///
/// Pages are fixed between two [`StrideQueue::start`] calls (Stride mode
/// rebuilds the queue after every change of the page set or frequencies).
#[derive(Debug, Clone)]
struct StrideQueue {
    /// Per queued page: slot, id and period s_i.
    slot: Vec<u32>,
    id: Vec<u64>,
    step: Vec<f64>,
    /// Per queued page: first due time in or after the current window.
    first: Vec<f64>,
    /// Per queued page: first due time at or after `end`.
    due: Vec<f64>,
    /// The current window's accesses sorted by (due time, id);
    /// `events[pos..]` are not served yet.
    events: Vec<Event>,
    scratch: Vec<Event>,
    pos: usize,
    /// End of the current window: `events` holds every access due before
    /// it, the queue no access due after it.
    end: f64,
    /// Earliest of `due`: where the next window starts (∞ when empty).
    next_start: f64,
    /// The last access served in the current window.
    last: Option<(f64, u64)>,
    /// Virtual time per access of these pages, 1/Σ f_i (a host's queue,
    /// see [`start_group`](Self::start_group)); 0 for the whole page set
    /// (Σ f_i = 1), whose windows are at least [`MIN_WINDOW`] wide.
    span: f64,
}

/// One access of a window: the due time as its IEEE bits (due times are
/// ≥ 0, where the bits order as the values) and the page id.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Event {
    due: u64,
    id: u64,
}

/// Least number of time units in a window (amortises windows of few pages).
const MIN_WINDOW: f64 = 64.0;

/// A host's window of fewer accesses is sorted by comparisons.
const SMALL_WINDOW: usize = 256;

/// Empty: nothing next (`next_start` = ∞), until pages are pushed and
/// [`StrideQueue::start`] is called.
impl Default for StrideQueue {
    fn default() -> StrideQueue {
        StrideQueue {
            slot: Vec::new(),
            id: Vec::new(),
            step: Vec::new(),
            first: Vec::new(),
            due: Vec::new(),
            events: Vec::new(),
            scratch: Vec::new(),
            pos: 0,
            end: 0.0,
            next_start: f64::INFINITY,
            last: None,
            span: 0.0,
        }
    }
}

impl StrideQueue {
    fn clear(&mut self) {
        for v in [&mut self.first, &mut self.due, &mut self.step] {
            v.clear();
        }
        self.slot.clear();
        self.id.clear();
    }

    /// Queues a page with period `step` (finite, > 0), due first at `due`
    /// (finite, ≥ 0).
    fn push(&mut self, slot: u32, id: u64, step: f64, due: f64) {
        self.slot.push(slot);
        self.id.push(id);
        self.step.push(step);
        self.first.push(due);
        self.due.push(due);
    }

    /// Starts serving the queued pages (no window yet).
    fn start(&mut self) {
        self.events.clear();
        self.pos = 0;
        self.end = 0.0;
        self.last = None;
        self.next_start = self.due.iter().copied().fold(f64::INFINITY, f64::min);
    }

    /// Starts serving the queued pages as one group of a host path
    /// (`span` = 1/Σ f_i, at most 1e300 so that windows stay finite):
    /// windows of about N accesses, as for the whole page set.
    fn start_group(&mut self) {
        let total: f64 = self.step.iter().map(|s| 1.0 / s).sum();
        self.span = (1.0 / total).clamp(1.0, 1e300);
        self.start();
    }

    /// The next access's due time, not served yet; `None` when no page is
    /// queued.
    fn peek(&mut self) -> Option<f64> {
        if self.pos == self.events.len() && !self.fill() {
            return None;
        }
        Some(f64::from_bits(self.events[self.pos].due))
    }

    /// The next access (due time, id); `None` when no page is queued.
    fn pop(&mut self) -> Option<(f64, u64)> {
        if self.pos == self.events.len() && !self.fill() {
            return None;
        }
        let e = self.events[self.pos];
        self.pos += 1;
        let due = f64::from_bits(e.due);
        self.last = Some((due, e.id));
        Some((due, e.id))
    }

    /// Generates and sorts the next window; false when no page is queued.
    fn fill(&mut self) -> bool {
        let start = self.next_start;
        if !start.is_finite() || self.id.is_empty() {
            return false;
        }
        let n = self.id.len() as f64;
        let (width, accesses) = if self.span > 0.0 {
            (n * self.span, n)
        } else {
            (n.max(MIN_WINDOW), n.max(MIN_WINDOW))
        };
        self.end = after(start, start + width);
        self.events.clear();
        // At most W Σ f_i + N accesses (up to rounding of Σ f_i).
        self.events
            .reserve_exact(self.id.len().saturating_add(accesses as usize));
        let mut next_start = f64::INFINITY;
        for i in 0..self.id.len() {
            let mut d = self.due[i];
            self.first[i] = d;
            while d < self.end {
                self.events.push(Event {
                    due: d.to_bits(),
                    id: self.id[i],
                });
                d = after(d, d + self.step[i]);
            }
            self.due[i] = d;
            next_start = next_start.min(d);
        }
        self.next_start = next_start;
        if self.span > 0.0 && self.events.len() < SMALL_WINDOW {
            // The same (due, id) order; the radix sort's 16 kB of counts
            // would dominate a small host's window.
            self.events.sort_unstable_by_key(|e| (e.due, e.id));
        } else {
            radix_sort(&mut self.events, &mut self.scratch);
        }
        self.pos = 0;
        self.last = None;
        true
    }

    /// Queued page i's next due time not served yet: its first access in
    /// the window that sorts after the last one served, else `due[i]`.
    fn unserved_due(&self, i: usize) -> f64 {
        let Some((last_due, last_id)) = self.last else {
            return self.first[i];
        };
        let id = self.id[i];
        let mut d = self.first[i];
        while d < self.end && (d < last_due || (d == last_due && id <= last_id)) {
            d = after(d, d + self.step[i]);
        }
        d
    }

    /// Drops the window (and its memory), the pages' next due times set
    /// back to their first accesses not served: the queue serves the same
    /// accesses in the same order, from a window generated afresh.
    fn rewind(&mut self) {
        for i in 0..self.id.len() {
            self.due[i] = self.unserved_due(i);
        }
        self.first.copy_from_slice(&self.due);
        self.events = Vec::new();
        self.scratch = Vec::new();
        self.start();
    }

    /// Writes each queued page's next unserved due time to its record
    /// (before a rebuild, which keeps the pages' phases).
    fn store_dues(&self, slots: &mut [Option<Page>]) {
        for (i, (&slot, &id)) in self.slot.iter().zip(&self.id).enumerate() {
            if let Some(Some(page)) = slots.get_mut(slot as usize)
                && page.id == id
            {
                page.due = self.unserved_due(i);
            }
        }
    }
}

/// `next` = d + s_i as computed, or the next double above `d` where the
/// period is below half an ulp of d (d ≥ 2^53 time units, beyond any
/// feasible run): due times strictly increase, so every window ends.
fn after(d: f64, next: f64) -> f64 {
    if next > d {
        next
    } else {
        f64::from_bits(d.to_bits() + 1)
    }
}

/// Sorts events by (due, id): a stable LSD radix sort on the due bits, one
/// byte per pass (bytes that every due time shares are skipped), then runs
/// of equal due times by id.
fn radix_sort(events: &mut Vec<Event>, scratch: &mut Vec<Event>) {
    let n = events.len();
    let mut counts = [[0usize; 256]; 8];
    for e in events.iter() {
        for (b, c) in counts.iter_mut().enumerate() {
            c[(e.due >> (8 * b)) as usize & 0xff] += 1;
        }
    }
    scratch.clear();
    scratch.reserve_exact(n);
    scratch.resize(n, Event::default());
    for (b, c) in counts.iter_mut().enumerate() {
        if c.contains(&n) {
            continue;
        }
        let mut sum = 0;
        for k in c.iter_mut() {
            (*k, sum) = (sum, sum + *k);
        }
        for e in events.iter() {
            let k = &mut c[(e.due >> (8 * b)) as usize & 0xff];
            scratch[*k] = *e;
            *k += 1;
        }
        std::mem::swap(events, scratch);
    }
    let mut i = 0;
    while i < n {
        let due = events[i].due;
        let run = events[i..].iter().take_while(|e| e.due == due).count();
        if run > 1 {
            events[i..i + run].sort_unstable_by_key(|e| e.id);
        }
        i += run;
    }
}
