//! Per-host politeness for the streaming scheduler.
//!
//! A page may belong to a host (a `u32` id); host h has a minimum delay
//! d_h ≥ 0 between two picks of its pages, measured on the caller's clock
//! (the `now` given to [`Scheduler::next_at`](super::Scheduler::next_at))
//! or, for [`Scheduler::next`](super::Scheduler::next), in whole crawl
//! slots of E\[X] (see [`clock_delay`]).
//!
//! Every page carries a virtual due time advancing by 1/f_i per visit, as in
//! Stride mode. A group is a host, or the pages without a host (delay 0);
//! within a group the pages are served earliest virtual due time first. A
//! pick serves, among the groups that are ready (not in their delay), the
//! one whose earliest page is due first, then puts it in its delay. Why
//! this keeps the plan's shares, and what happens when a host cannot: the
//! [scheduler's documentation](super).
//!
//! Costs: within a group the accesses come from Stride's windows (about
//! N_h accesses generated and sorted at once, O(1) amortised and read in
//! sequence), so a pick is O(log hosts) amortised: a group is in exactly
//! one of the three heaps (ready, ready saturated, waiting) while it has
//! pages with f_i > 0.
//! Host records are dense (a `Vec` indexed by a compacted host number that
//! the heaps carry): a pick looks up no host id.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

use super::{Page, Scheduler, SchedulerMode, StrideQueue, Template, rephase};
use crate::error::{Error, Num, Result};
use crate::validate;

/// Bytes a host record takes at its peak, checked with the pages'
/// [`SCHEDULER_BYTES_PER_PAGE`](super::SCHEDULER_BYTES_PER_PAGE) against
/// the memory cap before a new host is recorded: the record (~300, most of
/// it the empty vectors of its queue) and its map entry, twice over in a
/// growing map, and one entry in each of the three host heaps, twice over.
/// Its pages' queue entries and windows are within the per-page bound
/// (the layout of Stride's queue).
pub const SCHEDULER_BYTES_PER_HOST: u128 = 1024;

/// What [`Scheduler::next_at`](super::Scheduler::next_at) answers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pick {
    /// Crawl this page now.
    Page(u64),
    /// Every host with pages to crawl is in its delay: the earliest becomes
    /// ready this many time units (> 0) after `now`, i.e. at `now + wait`.
    Wait(f64),
}

/// One host's state.
#[derive(Debug, Clone, Default)]
struct Host {
    /// The caller's host id.
    id: u32,
    /// Minimum delay between two picks of its pages (≥ 0, finite).
    delay: f64,
    /// Caller's time of the last pick of one of its pages (`None`: never).
    last: Option<f64>,
    /// Pages assigned to the host.
    pages: usize,
    /// Its pages with f_i > 0 by virtual due time.
    queue: StrideQueue,
    /// The plan gives it exactly its cap: it must be picked whenever
    /// ready (a pick lost while ready is a share lost for good).
    saturated: bool,
}

/// Relative rounding below which a host's share counts as its cap.
const SATURATED: f64 = 1e-9;

impl Host {
    /// Earliest time at which the host may be picked again (`None`: now),
    /// on the clock whose slot length is `slot` (see [`Hosts::slot`]).
    fn ready_at(&self, slot: Option<f64>) -> Option<f64> {
        let last = self.last?;
        (self.delay > 0.0).then(|| ready_time(last, clock_delay(self.delay, slot)))
    }
}

/// Delay `delay` (caller's time) on the clock of slot length `slot`: the
/// delay itself on the caller's clock (`None`); on the slot clock of
/// `next`, the least whole number of slots k with k·slot ≥ `delay` as
/// computed (0 for no delay), since picks come only at whole slots.
fn clock_delay(delay: f64, slot: Option<f64>) -> f64 {
    let Some(e) = slot else { return delay };
    if delay <= 0.0 {
        return 0.0;
    }
    let mut k = (delay / e).ceil().max(1.0);
    // Beyond 2^52 slots k ± 1 is not exact; such a host waits k slots.
    if k < 4_503_599_627_370_496.0 {
        while k > 1.0 && (k - 1.0) * e >= delay {
            k -= 1.0;
        }
        while k * e < delay {
            k += 1.0;
        }
    }
    k
}

/// The delay (caller's time) whose cap 1/delay the plan gives a host of
/// delay `delay` on the clock of slot length `slot`: on the slot clock a
/// host can take at most one pick in k slots, i.e. 1/(k·E\[X]) picks per
/// unit time (`delay` itself when k overflows: the host is never ready
/// again, see [`Scheduler::next_slot_clock`]).
fn plan_delay(delay: f64, slot: Option<f64>) -> f64 {
    match slot {
        Some(e) => match clock_delay(delay, slot) {
            k if k.is_finite() => k * e,
            _ => delay,
        },
        None => delay,
    }
}

/// A group in the ready heap (t = its earliest due time) or the waiting
/// heap (t = the time it becomes ready): smallest (t, group) first, where
/// `group` is host id · 2^32 + its record's index in [`Hosts::records`]
/// (ids are distinct, so this orders by id), or [`UNHOSTED`] (last) for
/// the pages without a host. 16 bytes, moved by every heap step.
#[derive(Debug, Clone, Copy)]
struct Key {
    t: f64,
    group: u64,
}

/// `Key::group` of the pages without a host: above every host's (a host
/// with id 2^32 − 1 has a record index below 2^32 − 1).
const UNHOSTED: u64 = u64::MAX;

/// `Key::group` of host `id` with record `rec`.
fn group_of(id: u32, rec: u32) -> u64 {
    (u64::from(id) << 32) | u64::from(rec)
}

/// The record index of a host's `Key::group` (its low 32 bits).
fn rec_of(group: u64) -> usize {
    (group as u32) as usize
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .t
            .total_cmp(&self.t)
            .then_with(|| other.group.cmp(&self.group))
    }
}

impl Scheduler {
    /// Puts page `id` on host `host` (any `u32`), from the next pick on.
    /// Errors: `NotFound`, or `TooLarge` when a new host record would take
    /// the scheduler past the memory cap ([`SCHEDULER_BYTES_PER_HOST`]).
    pub fn set_host(&mut self, id: u64, host: u32) -> Result<()> {
        let slot = self.slot_of(id)?;
        if self.page(id)?.host == Some(host) {
            return Ok(());
        }
        if self.hosts.is_new(host) {
            self.check_bytes_with(0, 1)?;
        }
        let page = self.slots[slot]
            .as_mut()
            .ok_or_else(|| super::not_found(id))?;
        if let Some(old) = page.host.replace(host) {
            self.hosts.unassign(old);
        }
        self.hosts.assign(host);
        self.structure_change();
        Ok(())
    }

    /// Takes page `id` off its host (no-op when it has none).
    /// Errors: `NotFound`.
    pub fn clear_host(&mut self, id: u64) -> Result<()> {
        let slot = self.slot_of(id)?;
        let page = self.slots[slot]
            .as_mut()
            .ok_or_else(|| super::not_found(id))?;
        if let Some(old) = page.host.take() {
            self.hosts.unassign(old);
            self.structure_change();
        }
        Ok(())
    }

    /// Page `id`'s host (`None`: no host). Errors: `NotFound`.
    pub fn host(&self, id: u64) -> Result<Option<u32>> {
        Ok(self.page(id)?.host)
    }

    /// Sets host `host`'s minimum delay between two picks of its pages, in
    /// the time unit of [`next_at`](Self::next_at)'s `now` and of the crawl
    /// times ([`next`](Self::next) rounds it up to whole slots of E\[X]).
    /// Hosts without a delay have 0. A host keeps its
    /// delay and the time of its last pick while it has no pages, so a page
    /// added later is still polite. Takes effect at the next pick.
    ///
    /// Errors: `InvalidArgument` unless 0 ≤ delay < ∞, `TooLarge` when a
    /// new host record would take the scheduler past the memory cap.
    pub fn set_host_delay(&mut self, host: u32, delay: f64) -> Result<()> {
        validate::non_negative("delay", delay)?;
        if delay > 0.0 && self.hosts.is_new(host) {
            self.check_bytes_with(0, 1)?;
        }
        let old = self.hosts.delay(host);
        self.hosts.set_delay(host, delay);
        // The polite plan depends on the delays of the hosts with pages.
        if old != delay && self.hosts.has_pages(host) {
            self.structure_change();
        }
        Ok(())
    }

    /// Host `host`'s minimum delay (0 when none was set).
    pub fn host_delay(&self, host: u32) -> f64 {
        self.hosts.delay(host)
    }

    /// The page to crawl at time `now` on the caller's clock, or how long
    /// to wait until a host is ready.
    ///
    /// Time: `now` is any finite clock reading, non-decreasing from call to
    /// call. A page of host h is returned only if the last pick of a page
    /// of h was at a time t with `now − t ≥ d_h` (as computed in floating
    /// point); its pick is then at `now`. When every host with pages to
    /// crawl is in its delay (pages without a host are always ready), the
    /// answer is [`Pick::Wait`] with the time until the earliest becomes
    /// ready; calling again at `now + wait` returns a page. Long-run shares
    /// (see the [module documentation](super)): the frequencies are the
    /// polite plan's, the optimum of problem (7) with host h capped at
    /// 1/d_h picks per unit time for a caller that picks once per E\[X]
    /// (R = 1/E\[X]); each page's share of the picks is its f_i, a capped
    /// host's total 1/(d_h R), when the caller's clock can pick the host
    /// every d_h. Caps that cannot absorb R leave slack: the answer is then
    /// `Wait` for the share 1 − Σ f_i of the time.
    ///
    /// While no page has a host this is [`next`](Self::next) (the same
    /// schedule, `now` only checked). With hosts, both modes serve pages
    /// by virtual due times 1/f_i apart (Stride's order): a golden-ratio
    /// template cannot skip a host in its delay without losing its spacing.
    ///
    /// Errors: `InvalidArgument` for `now` NaN, infinite or before the
    /// previous call's, or after [`next`](Self::next) picked with hosts (a
    /// scheduler with hosts keeps the clock of its first pick); `NotFound` when there is no page or no page has a
    /// positive frequency; the error of the frequency computation.
    pub fn next_at(&mut self, now: f64) -> Result<Pick> {
        validate::finite("now", now)?;
        if self.hosts.slot.is_some() {
            return Err(Error::invalid(
                "now: next_at after next on a scheduler with hosts: its delays count the crawl \
                 slots of next (a scheduler keeps the clock of its first pick); call next",
            ));
        }
        if let Some(c) = self.hosts.clock
            && now < c
        {
            return Err(Error::invalid(format!(
                "now = {} is before the previous call's now = {}",
                Num(now),
                Num(c)
            )));
        }
        if self.len == 0 {
            return Err(Error::NotFound("the scheduler has no pages".into()));
        }
        if self.hosts.hosted == 0 {
            self.hosts.clock = Some(now);
            return self.next().map(Pick::Page);
        }
        self.pick_at(now)
    }

    /// `next` with hosts: a clock of crawl slots, one per mean crawl time
    /// E\[X] (the rate R = 1/E\[X] the polite plan assumes). The pick is
    /// one slot after the previous one (slot 0 for the first), or when no
    /// host is ready then, at the first slot where one is.
    pub(super) fn next_slot_clock(&mut self) -> Result<u64> {
        match (self.hosts.clock, self.hosts.slot) {
            (Some(_), None) => {
                return Err(Error::invalid(
                    "next after next_at on a scheduler with hosts: its delays are on the \
                     caller's clock of next_at (a scheduler keeps the clock of its first \
                     pick); call next_at",
                ));
            }
            (None, None) => {
                // The plan's caps change with the clock.
                self.hosts.slot = Some(self.access.mean());
                self.structure_change();
            }
            _ => {}
        }
        let mut t = self.hosts.clock.map_or(0.0, |c| c + 1.0);
        for _ in 0..3 {
            match self.pick_at(t)? {
                Pick::Page(id) => return Ok(id),
                Pick::Wait(w) if (t + w).is_finite() => t += w,
                Pick::Wait(_) => {
                    return Err(Error::NotFound(
                        "no host becomes ready: every host with pages is in a delay of more \
                         slots than a double counts"
                            .into(),
                    ));
                }
            }
        }
        Err(Error::NotConverged(
            "no host became ready after its wait".into(),
        ))
    }

    /// One pick of the host path at caller time `now` (checked).
    fn pick_at(&mut self, now: f64) -> Result<Pick> {
        let epoch_over = self.picks_since_recompute >= self.len as u64;
        if !self.hosts.active
            || self.structure_changed
            || (self.pending_estimates > 0 && epoch_over)
        {
            self.refresh_hosts()?;
        }
        if self.hosts.requeue {
            self.hosts.requeue_all();
        }
        self.hosts.clock = Some(now);
        Ok(match self.hosts.pick(now)? {
            Ok((id, due)) => {
                self.now = self.now.max(due);
                self.picks_since_recompute += 1;
                Pick::Page(id)
            }
            Err(wait) => Pick::Wait(wait),
        })
    }

    /// Recomputes the frequencies and requeues every page (host path),
    /// keeping each page's phase as Stride does.
    fn refresh_hosts(&mut self) -> Result<()> {
        if self.hosts.active {
            self.hosts.store_dues(&mut self.slots);
        } else {
            self.enter_host_path();
        }
        let (order, f) = self.optimal()?;
        let now = self.now;
        for (&slot, &fi) in order.iter().zip(&f) {
            if let Some(page) = self.slots[slot as usize].as_mut() {
                rephase(page, fi, now);
            }
        }
        if self.mode == SchedulerMode::GoldenRatio {
            // No template names a slot while on the host path.
            self.free.append(&mut self.free_later);
            self.left.clear();
        }
        let rate = self.crawl_rate();
        self.hosts.rebuild(&self.slots, rate);
        self.mark_recomputed();
        Ok(())
    }

    /// Hands the schedule from the mode's own structure to the host path:
    /// Stride's next due times carry over; a golden-ratio template does
    /// not (every page restarts at a hashed offset).
    fn enter_host_path(&mut self) {
        match self.mode {
            SchedulerMode::Stride => {
                self.stride.rewind();
                self.stride.store_dues(&mut self.slots);
                self.stride.clear();
                self.stride.start();
            }
            SchedulerMode::GoldenRatio => {
                for page in self.slots.iter_mut().flatten() {
                    page.due = f64::INFINITY;
                    page.share = 0.0;
                }
                self.template = Template::default();
                self.pos = 0;
                self.shared.clear();
            }
        }
    }

    /// Hands the schedule back when no page has a host any more: the due
    /// times go to the records (Stride keeps the phases; GoldenRatio
    /// builds a new template), recomputed at the next pick.
    pub(super) fn leave_host_path(&mut self) {
        self.hosts.store_dues(&mut self.slots);
        self.hosts.deactivate();
        if self.mode == SchedulerMode::GoldenRatio {
            for page in self.slots.iter_mut().flatten() {
                page.due = f64::INFINITY;
            }
        }
        self.structure_change();
    }
}

/// The host machinery of a [`Scheduler`](super::Scheduler).
#[derive(Debug, Clone, Default)]
pub(super) struct Hosts {
    /// Hosts with pages or a positive delay, dense; `index` maps a host id
    /// to its record. Removing a record moves the last one into its place,
    /// so the heaps are rebuilt before the next pick (`requeue`).
    records: Vec<Host>,
    index: HashMap<u32, u32>,
    /// Pages without a host, by virtual due time (used while `active`).
    unhosted: StrideQueue,
    /// Pages that have a host.
    pub(super) hosted: usize,
    /// The queues hold the schedule (the scheduler serves through them).
    pub(super) active: bool,
    /// Ready groups by earliest due time (t = it).
    ready: BinaryHeap<Key>,
    /// Ready saturated hosts, served before every other ready group,
    /// shortest delay first (t = the delay on the clock): on one pick
    /// stream two hosts ready together cannot both be picked, and a host
    /// picked a slot late loses about 1/k of a pick per k-slot period, so
    /// the hosts with the fewest slots between picks go first.
    ready_saturated: BinaryHeap<Key>,
    waiting: BinaryHeap<Key>,
    /// The `now` of the last pick request (`None` before the first).
    pub(super) clock: Option<f64>,
    /// `Some(E[X])` when the clock is [`next`](super::Scheduler::next)'s
    /// count of crawl slots of length E\[X] (`clock` is then a slot index
    /// and a delay d_h takes whole slots, see [`clock_delay`]); `None` on
    /// the caller's clock of `next_at`. Set by the first pick.
    pub(super) slot: Option<f64>,
    /// A delay changed: the heaps are rebuilt before the next pick.
    pub(super) requeue: bool,
}

impl Hosts {
    /// Number of host records.
    pub(super) fn len(&self) -> usize {
        self.records.len()
    }

    /// True when `host` has no record yet (recording it needs memory).
    pub(super) fn is_new(&self, host: u32) -> bool {
        !self.index.contains_key(&host)
    }

    fn get(&self, host: u32) -> Option<&Host> {
        self.index.get(&host).map(|&r| &self.records[r as usize])
    }

    fn get_mut(&mut self, host: u32) -> Option<&mut Host> {
        self.index
            .get(&host)
            .map(|&r| &mut self.records[r as usize])
    }

    /// Host `host`'s record, created when new (the caller has checked the
    /// memory cap; there are fewer records than pages plus delayed hosts,
    /// both below 2^32 − 1 by that cap).
    fn record(&mut self, host: u32) -> &mut Host {
        let next = self.records.len() as u32;
        let r = *self.index.entry(host).or_insert(next);
        if r == next {
            self.records.push(Host {
                id: host,
                ..Host::default()
            });
        }
        &mut self.records[r as usize]
    }

    /// True when `host` has pages.
    pub(super) fn has_pages(&self, host: u32) -> bool {
        self.get(host).is_some_and(|h| h.pages > 0)
    }

    pub(super) fn delay(&self, host: u32) -> f64 {
        self.get(host).map_or(0.0, |h| h.delay)
    }

    /// Host `host`'s minimum delay becomes `delay` (≥ 0, finite).
    pub(super) fn set_delay(&mut self, host: u32, delay: f64) {
        self.record(host).delay = delay;
        self.drop_if_unused(host);
        self.requeue = true;
    }

    /// A page joins `host`.
    pub(super) fn assign(&mut self, host: u32) {
        self.record(host).pages += 1;
        self.hosted += 1;
    }

    /// A page leaves `host`.
    pub(super) fn unassign(&mut self, host: u32) {
        if let Some(h) = self.get_mut(host) {
            h.pages -= 1;
            self.hosted -= 1;
        }
        self.drop_if_unused(host);
    }

    /// A host without pages keeps its record (delay, last pick) only while
    /// its delay is positive. Removing it moves the last record into its
    /// place: the heaps are rebuilt before the next pick.
    fn drop_if_unused(&mut self, host: u32) {
        if !self
            .get(host)
            .is_some_and(|h| h.pages == 0 && h.delay == 0.0)
        {
            return;
        }
        if let Some(r) = self.index.remove(&host) {
            self.records.swap_remove(r as usize);
            if let Some(moved) = self.records.get(r as usize) {
                self.index.insert(moved.id, r);
            }
            self.requeue = true;
        }
    }

    /// The polite plan's grouping of the pages of `order` (slots), or
    /// `None` when no host with pages has a delay (the plain optimum):
    /// per page its group, per group its cap in crawls per unit time
    /// (`max_rates` of [`polite_frequencies`](crate::freshness::polite::polite_frequencies)).
    /// A host with delay d_h > 0 is capped at b_h = 1/d_h on the caller's
    /// clock and at 1/(k_h E\[X]) on the slot clock, where k_h E\[X] is d_h
    /// rounded up to whole slots (+∞ when the cap overflows); the pages without a host or on a host without a delay
    /// share one uncapped group. Groups are numbered in order of first
    /// appearance, so each has pages.
    pub(super) fn polite_groups(
        &self,
        slots: &[Option<Page>],
        order: &[u32],
    ) -> Option<(Vec<u32>, Vec<f64>)> {
        let delayed = |p: &Page| p.host.map_or(0.0, |h| self.delay(h)) > 0.0;
        if self.hosted == 0 || !slots.iter().flatten().any(delayed) {
            return None;
        }
        // Group number per host record (u32::MAX: not numbered yet).
        let mut number = vec![u32::MAX; self.records.len()];
        let mut uncapped = None;
        let mut caps = Vec::new();
        let mut groups = Vec::with_capacity(order.len());
        for &slot in order {
            let Some(p) = &slots[slot as usize] else {
                continue;
            };
            let rec = p.host.and_then(|h| self.index.get(&h)).map(|&r| r as usize);
            let delay = rec.map_or(0.0, |r| self.records[r].delay);
            let entry = match rec {
                Some(r) if delay > 0.0 => &mut number[r],
                _ => uncapped.get_or_insert(u32::MAX),
            };
            if *entry == u32::MAX {
                // Fewer groups than pages (< 2^32 − 1); 1/0 = +∞.
                *entry = caps.len() as u32;
                caps.push(1.0 / plan_delay(delay, self.slot));
            }
            groups.push(*entry);
        }
        Some((groups, caps))
    }

    /// Writes each queued page's virtual due time to its record.
    pub(super) fn store_dues(&self, slots: &mut [Option<Page>]) {
        for h in &self.records {
            h.queue.store_dues(slots);
        }
        self.unhosted.store_dues(slots);
    }

    /// Empties the queues and heaps (the scheduler leaves the host path).
    pub(super) fn deactivate(&mut self) {
        for h in &mut self.records {
            h.queue = StrideQueue::default();
        }
        self.unhosted = StrideQueue::default();
        self.ready = BinaryHeap::new();
        self.ready_saturated = BinaryHeap::new();
        self.waiting = BinaryHeap::new();
        self.active = false;
    }

    /// Queues every page with f_i > 0 in its group at its record's due
    /// time, then rebuilds the heaps.
    /// A host whose pages' frequencies sum to its cap 1/(d_h R) (within
    /// rounding; R = `rate`, the plan's crawls per unit time; d_h in whole
    /// slots on the slot clock) is saturated.
    pub(super) fn rebuild(&mut self, slots: &[Option<Page>], rate: f64) {
        for h in &mut self.records {
            h.queue.clear();
        }
        self.unhosted.clear();
        for (slot, page) in slots.iter().enumerate() {
            let Some(p) = page else { continue };
            if !(p.freq > 0.0 && p.due.is_finite()) {
                continue;
            }
            let rec = p.host.and_then(|h| self.index.get(&h));
            let queue = match rec {
                Some(&r) => &mut self.records[r as usize].queue,
                None => &mut self.unhosted,
            };
            // Slots are created only below MAX_PAGES < u32::MAX.
            queue.push(slot as u32, p.id, 1.0 / p.freq, p.due);
        }
        let slot = self.slot;
        for h in &mut self.records {
            h.queue.start_group();
            let total: f64 = h.queue.step.iter().map(|s| 1.0 / s).sum();
            let delay = plan_delay(h.delay, slot);
            h.saturated = h.delay > 0.0 && total * delay * rate >= 1.0 - SATURATED;
        }
        self.unhosted.start_group();
        self.active = true;
        self.requeue_all();
    }

    /// Puts every group with queued pages in the waiting heap (when it is
    /// in its delay after its last pick) or the ready heap.
    pub(super) fn requeue_all(&mut self) {
        self.ready.clear();
        self.ready_saturated.clear();
        self.waiting.clear();
        let slot = self.slot;
        for r in 0..self.records.len() {
            let h = &mut self.records[r];
            let Some(top) = h.queue.peek() else { continue };
            // Records are fewer than 2^32 − 1 (see `record`).
            let group = group_of(h.id, r as u32);
            match h.ready_at(slot) {
                Some(t) => self.waiting.push(Key { t, group }),
                None => self.push_ready(group, top),
            }
        }
        if let Some(t) = self.unhosted.peek() {
            self.ready.push(Key { t, group: UNHOSTED });
        }
        self.requeue = false;
    }

    /// The page to crawl at caller time `now` and its virtual due time, or
    /// the wait until a host is ready.
    pub(super) fn pick(&mut self, now: f64) -> Result<std::result::Result<(u64, f64), f64>> {
        while let Some(&k) = self.waiting.peek()
            && k.t <= now
        {
            self.waiting.pop();
            if let Some(t) = self.queue(k.group).and_then(StrideQueue::peek) {
                self.push_ready(k.group, t);
            }
        }
        let Some(key) = self.ready_saturated.pop().or_else(|| self.ready.pop()) else {
            return match self.waiting.peek() {
                Some(k) => Ok(Err(wait_until(now, k.t))),
                None => Err(Error::NotFound(
                    "no page has a positive access frequency".into(),
                )),
            };
        };
        let queue = self
            .queue(key.group)
            .ok_or_else(|| Error::NotFound("a ready host has no record".into()))?;
        let (due, id) = queue
            .pop()
            .ok_or_else(|| Error::NotFound("a ready host has no page".into()))?;
        // Pages recur: a queue that served a page has a next access.
        let top = queue.peek().unwrap_or(f64::INFINITY);
        let slot = self.slot;
        let host = (key.group != UNHOSTED)
            .then(|| self.records.get_mut(rec_of(key.group)))
            .flatten();
        match host {
            Some(h) if h.delay > 0.0 => {
                h.last = Some(now);
                let t = ready_time(now, clock_delay(h.delay, slot));
                self.waiting.push(Key { t, ..key });
            }
            _ => self.ready.push(Key { t: top, ..key }),
        }
        Ok(Ok((id, due)))
    }

    /// Puts ready group `group`, whose earliest page is due at `top`, in
    /// its ready heap (a saturated host by its delay on the clock).
    fn push_ready(&mut self, group: u64, top: f64) {
        match self.records.get(rec_of(group)) {
            Some(h) if group != UNHOSTED && h.saturated => {
                let t = clock_delay(h.delay, self.slot);
                self.ready_saturated.push(Key { t, group });
            }
            _ => self.ready.push(Key { t: top, group }),
        }
    }

    /// The queue of `group` (a [`Key::group`]).
    fn queue(&mut self, group: u64) -> Option<&mut StrideQueue> {
        if group == UNHOSTED {
            Some(&mut self.unhosted)
        } else {
            self.records.get_mut(rec_of(group)).map(|h| &mut h.queue)
        }
    }
}

/// The least double t ≥ last + delay with t − last ≥ delay as computed, so
/// that a gap measured in floating point is never below the delay.
fn ready_time(last: f64, delay: f64) -> f64 {
    let mut t = last + delay;
    while t.is_finite() && t - last < delay {
        t = next_up(t);
    }
    t
}

/// The wait w = t − now (> 0) adjusted so that now + w ≥ t as computed:
/// a caller that advances its clock by w finds the host ready.
fn wait_until(now: f64, t: f64) -> f64 {
    let mut w = t - now;
    while w.is_finite() && now + w < t {
        w = next_up(w);
    }
    w
}

/// The next double above finite `x`.
fn next_up(x: f64) -> f64 {
    if x == 0.0 {
        f64::from_bits(1)
    } else if x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}
