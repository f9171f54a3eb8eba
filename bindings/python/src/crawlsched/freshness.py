"""Optimal recrawl frequencies and schedules (Coffman, Liu, Weber), the
change-rate estimator and the streaming scheduler."""

import base64
import ctypes
import math

import numpy as np

from . import _ffi
from ._lib import BufferTooSmallError, Handle, InvalidArgumentError, array, call, call_variable, lib, ptr, uints
from .dist import choice
from .limits import _ptr_of
from .polite import Pick, PoliteObjective, PolitePlan



class FreshnessModel(Handle):
    """N pages (change rates, cost weights) and the access-time
    distribution (``crawlsched_freshness_model_t``). Immutable; shareable
    between threads."""

    _free = lib.crawlsched_freshness_model_free
    _kind = "freshness model"

    def __init__(self, access, change_rates, weights=None):
        """Page i changes at rate change_rates[i] > 0 and weighs weights[i]
        in the cost (None: weights = change rates, Theorem 3.4's case).
        ``access`` (a Dist) is copied."""
        rates = array(change_rates, name="change_rates")
        w = None if weights is None else array(weights, name="weights")
        if w is not None and w.size != rates.size:
            raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT, "weights must have one entry per page")
        out = ctypes.c_void_p()
        call(lib.crawlsched_freshness_model_new, access._ptr, ptr(rates), ptr(w), rates.size, ctypes.byref(out))
        self._own(out.value)
        self._n = rates.size

    def __len__(self):
        out = ctypes.c_size_t()
        call(lib.crawlsched_freshness_model_len, self._ptr, ctypes.byref(out))
        return out.value

    def _vec(self, fn, *args):
        out = np.empty(self._n, dtype=np.float64)
        call(fn, self._ptr, *args, ptr(out), out.size)
        return out

    def _scalar(self, fn, *args):
        out = ctypes.c_double()
        call(fn, self._ptr, *args, ctypes.byref(out))
        return out.value

    def _freq(self, freq):
        f = array(freq, name="freq")
        return ptr(f), f.size, f

    def h(self):
        """h_i = E[exp(-mu_i X)] per page."""
        return self._vec(lib.crawlsched_freshness_model_h)

    def optimal_frequencies(self):
        """Optimal access frequencies (summing to 1; a page may get 0)."""
        return self._vec(lib.crawlsched_freshness_optimal_frequencies)

    def lower_bound(self):
        """Lower bound on the cost of every policy (Theorems 3.3, 3.4)."""
        return self._scalar(lib.crawlsched_freshness_lower_bound)

    def cost(self, freq):
        """Cost sum c_i r_i of frequencies freq with perfectly even spacing."""
        p, n, _keep = self._freq(freq)
        return self._scalar(lib.crawlsched_freshness_cost, p, n)

    def obsolescence_bound(self, freq):
        """Per-page obsolescence bound r_i of Theorem 3.3 for freq."""
        p, n, _keep = self._freq(freq)
        return self._vec(lib.crawlsched_freshness_obsolescence_bound, p, n)

    def randomized_cost(self, freq):
        """Cost of picking page i with probability freq[i] at each access."""
        p, n, _keep = self._freq(freq)
        return self._scalar(lib.crawlsched_freshness_randomized_cost, p, n)

    def randomized_optimal_frequencies(self):
        """Optimal frequencies of the randomized policy (Theorem 4.1)."""
        return self._vec(lib.crawlsched_freshness_randomized_optimal_frequencies)

    def randomized_optimal_cost(self):
        """Cost of the randomized policy at its optimal frequencies."""
        return self._scalar(lib.crawlsched_freshness_randomized_optimal_cost)

    def cyclic_cost(self, seq):
        """Exact long-run cost of repeating the sequence of page indices."""
        s = uints(seq, np.uint32, "seq")
        return self._scalar(lib.crawlsched_freshness_cyclic_cost, ptr(s), s.size)

    def cyclic_obsolescence(self, seq):
        """Exact per-page fraction of time out of date of the sequence."""
        s = uints(seq, np.uint32, "seq")
        return self._vec(lib.crawlsched_freshness_cyclic_obsolescence, ptr(s), s.size)

    def golden_ratio_bound(self):
        """Large-N limit of the golden-ratio policy's cost (eq. 18)."""
        return self._scalar(lib.crawlsched_freshness_golden_ratio_bound)

    def simulate_cyclic(self, seq, cycles, seed, control=None):
        """Monte Carlo of the cyclic sequence: (cost, standard error); an
        optional ``Control`` can cancel it from another thread."""
        s = uints(seq, np.uint32, "seq")
        cost, se = ctypes.c_double(), ctypes.c_double()
        outs = (ctypes.byref(cost), ctypes.byref(se))
        call(lib.crawlsched_freshness_simulate_cyclic, self._ptr, ptr(s), s.size, cycles, seed, _ptr_of(control),
             *outs)
        return cost.value, se.value

    def polite_frequencies(self, hosts, max_rates, *, objective=PoliteObjective.EVENLY_SPACED, allow_slack=False,
                           control=None):
        """The optimal frequencies under per-host politeness, as a
        ``PolitePlan``.

        Page i is on host ``hosts[i]`` (one entry per page, each below
        ``len(max_rates)``; every host needs a page) and host h accepts at
        most ``max_rates[h]`` crawls per unit time (finite > 0, e.g.
        1 / Crawl-delay, or ``math.inf`` for no limit). Sequences or NumPy
        arrays (uint32 hosts, float64 rates). ``objective`` is a
        ``PoliteObjective`` or its string. When the caps sum below the
        crawler's rate 1/E[X] this raises ``InfeasibleError`` (the message
        gives the shortfall), or with ``allow_slack=True`` returns the
        plan crawling every host at its cap. ``control`` (a ``Control``)
        gives a memory cap, cancellation and an iteration cap.

        Example (pages 0, 1 on host 0 without a limit, page 2 alone on
        host 1, at most 0.5 crawls per unit time)::

            plan = model.polite_frequencies([0, 0, 1], [math.inf, 0.5])
            plan.saturated      # array([False,  True]) when 0.5 binds
        """
        code = PoliteObjective._of(objective)._code
        h = uints(hosts, np.uint32, "hosts")
        b = array(max_rates, name="max_rates")
        flags = _ffi.CRAWLSCHED_POLITE_ALLOW_SLACK if allow_slack else 0
        out = np.empty(self._n, dtype=np.float64)
        sat = np.zeros(b.size, dtype=np.uint8)
        ln_h = np.empty(b.size, dtype=np.float64)
        n, ln_l, obj, rate = ctypes.c_size_t(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
        call(lib.crawlsched_freshness_polite_frequencies, self._ptr, ptr(h), h.size, ptr(b), b.size, code, flags,
             _ptr_of(control), ptr(out), out.size, ctypes.byref(n), ptr(sat), ptr(ln_h), ctypes.byref(ln_l),
             ctypes.byref(obj), ctypes.byref(rate))
        return PolitePlan(out[: n.value], sat.astype(bool), ln_h, ln_l.value, obj.value, rate.value)


def integer_counts(freq, total, at_least_one=False):
    """Integer accesses per cycle of ``total`` for frequencies freq (largest
    remainder); at_least_one gives every page with f_i > 0 one access."""
    f = array(freq, name="freq")
    out = np.empty(f.size, dtype=np.uint64)
    call(lib.crawlsched_freshness_integer_counts, ptr(f), f.size, total, 1 if at_least_one else 0, ptr(out), out.size)
    return out


def fibonacci_at_least(n):
    """The smallest Fibonacci number >= n."""
    out = ctypes.c_uint64()
    call(lib.crawlsched_freshness_fibonacci_at_least, n, ctypes.byref(out))
    return out.value


def _sequence(fn, counts):
    c = uints(counts, np.uint64, "counts")
    return call_variable(fn, int(c.sum()) if c.size else 0, np.uint32, ptr(c), c.size)


def golden_ratio_sequence(counts):
    """The golden-ratio cycle (paper §5): page i appears counts[i] times."""
    return _sequence(lib.crawlsched_freshness_golden_ratio_sequence, counts)


def round_robin_sequence(counts):
    """A round robin with each page's counts[i] accesses spread evenly."""
    return _sequence(lib.crawlsched_freshness_round_robin_sequence, counts)


def bound_ratio(q):
    """H(q) of Corollary 5.1 (golden-ratio cost / lower bound as N grows)."""
    out = ctypes.c_double()
    call(lib.crawlsched_freshness_bound_ratio, q, ctypes.byref(out))
    return out.value



class FreshnessShard(Handle):
    """Some pages of a general-weights freshness model, evaluated at a
    multiplier ln(lambda) in absolute units (the same on every shard), for
    solves a distributed engine drives (``crawlsched_freshness_shard_t``).
    Build one FreshnessModel per shard, all with the same access
    distribution; the shard copies what it needs (40 bytes per page), so
    the model may be dropped. Immutable; shareable between threads."""

    _free = lib.crawlsched_freshness_shard_free
    _kind = "freshness shard"

    def __init__(self, model):
        out = ctypes.c_void_p()
        call(lib.crawlsched_freshness_shard_new, model._ptr, ctypes.byref(out))
        self._own(out.value)
        self._n = model._n

    def __len__(self):
        return self._n

    def summary(self):
        """(sum_a, ln_w_min, ln_w_max): combine over all shards with
        combine_summaries() for MultiplierSearch."""
        a, lo, hi = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
        call(lib.crawlsched_freshness_shard_summary, self._ptr, ctypes.byref(a), ctypes.byref(lo), ctypes.byref(hi))
        return a.value, lo.value, hi.value

    def sum_at(self, ln_lambda):
        """(sum, dsum, exact): the shard's sum of frequencies at ln_lambda,
        its derivative against ln_lambda (<= 0), and the sum exactly as an
        int count of 2^-80 (each frequency truncated to that grid). Add the
        shards' triples with combine_sums: the exact sums do not depend on
        how the pages are split."""
        v, d = ctypes.c_double(), ctypes.c_double()
        hi, lo = ctypes.c_uint64(), ctypes.c_uint64()
        call(
            lib.crawlsched_freshness_shard_sum_at,
            self._ptr,
            float(ln_lambda),
            ctypes.byref(v),
            ctypes.byref(d),
            ctypes.byref(hi),
            ctypes.byref(lo),
        )
        return v.value, d.value, (hi.value << 64) | lo.value

    def frequencies_at(self, ln_lambda):
        """The shard's frequencies at ln_lambda, in its model's page order
        (at the final multiplier: its share of the plan)."""
        out = np.empty(self._n, dtype=np.float64)
        call(lib.crawlsched_freshness_shard_frequencies_at, self._ptr, float(ln_lambda), ptr(out), out.size)
        return out


def combine_summaries(summaries):
    """The summary of the union of shards: sum_a added, the min of ln_w_min
    and the max of ln_w_max."""
    a, lo, hi = 0.0, float("inf"), float("-inf")
    for sa, slo, shi in summaries:
        a, lo, hi = a + sa, min(lo, slo), max(hi, shi)
    return a, lo, hi


EXACT_MAX = (1 << 128) - 1
"""Where exact sums saturate (an unsigned 128-bit count of 2^-80)."""


def combine_sums(sums):
    """The totals over shards of their ``sum_at`` triples: the float sums
    and derivatives added, the exact sums added as saturating 128-bit
    integers."""
    s, ds, exact = 0.0, 0.0, 0
    for a, b, e in sums:
        s, ds, exact = s + a, ds + b, min(exact + e, EXACT_MAX)
    return s, ds, exact


class MultiplierSearch(Handle):
    """The search for the multiplier at which all shards' frequencies sum to
    1, from the shards' sums alone (``crawlsched_freshness_multiplier_search_t``):
    ``next()`` proposes ln_lambda, every shard evaluates ``sum_at`` there,
    ``update()`` takes the totals; once ``next()`` says done, every shard
    computes ``frequencies_at`` the final ln_lambda. Calls are serialised by
    the library."""

    _free = lib.crawlsched_freshness_multiplier_search_free
    _kind = "multiplier search"

    def __init__(self, sum_a, ln_w_min, ln_w_max):
        out = ctypes.c_void_p()
        call(
            lib.crawlsched_freshness_multiplier_search_new,
            float(sum_a),
            float(ln_w_min),
            float(ln_w_max),
            ctypes.byref(out),
        )
        self._own(out.value)

    def next(self):
        """(done, ln_lambda): evaluate the shards at ln_lambda (done False),
        or the final multiplier (done True)."""
        done, x = ctypes.c_int32(), ctypes.c_double()
        call(lib.crawlsched_freshness_multiplier_search_next, self._ptr, ctypes.byref(done), ctypes.byref(x))
        return bool(done.value), x.value

    def update(self, total_sum, total_dsum, total_exact):
        """The totals over all shards of sum_at at the ln_lambda last proposed
        (combine_sums). The float sums steer the search, the exact one ends
        it: at the smallest double ln_lambda where the exact sum is at most
        1, the same however the pages are split."""
        exact = min(int(total_exact), EXACT_MAX)
        call(
            lib.crawlsched_freshness_multiplier_search_update,
            self._ptr,
            float(total_sum),
            float(total_dsum),
            exact >> 64,
            exact & ((1 << 64) - 1),
        )


def solve_multiplier(summary, sum_at):
    """The final ln_lambda for pages whose combined summary is ``summary``,
    where ``sum_at(ln_lambda)`` returns the totals (sum, dsum, exact) over
    all shards (combine_sums; in-process, or one distributed job per call).
    Returns
    (ln_lambda, number of evaluations)."""
    search = MultiplierSearch(*summary)
    steps = 0
    while True:
        done, ln_lambda = search.next()
        if done:
            return ln_lambda, steps
        search.update(*sum_at(ln_lambda))
        steps += 1

class Estimator(Handle):
    """Estimates a page's change rate from visits that only tell whether
    it changed (``crawlsched_estimator_t``). Mutable; the library
    serialises calls, so threads may share one."""

    _free = lib.crawlsched_estimator_free
    _kind = "estimator"

    def __init__(self, rate_guess=None, weight_time=None):
        """Without prior knowledge, or with a prior guess rate_guess > 0
        worth weight_time > 0 time units of observation."""
        out = ctypes.c_void_p()
        if rate_guess is None and weight_time is None:
            call(lib.crawlsched_estimator_new, ctypes.byref(out))
        else:
            call(lib.crawlsched_estimator_new_with_prior, rate_guess, weight_time, ctypes.byref(out))
        self._own(out.value)

    def observe(self, interval, changed):
        """Records a visit ``interval`` > 0 after the previous one."""
        call(lib.crawlsched_estimator_observe, self._ptr, interval, 1 if changed else 0)

    def estimate(self):
        """The change-rate estimate (NotFoundError with no information)."""
        out = ctypes.c_double()
        call(lib.crawlsched_estimator_estimate, self._ptr, ctypes.byref(out))
        return out.value

    @property
    def observations(self):
        """Number of visits recorded."""
        out = ctypes.c_uint64()
        call(lib.crawlsched_estimator_observations, self._ptr, ctypes.byref(out))
        return out.value

    #: Most bytes a state takes (``state()``, ``Scheduler.page_state``); a
    #: page with fewer than 2**35 visits takes at most 878.
    STATE_MAX_BYTES = _ffi.CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES

    def state(self):
        """The estimator's state (its visits, bucketed, and its prior) as
        bytes in the versioned format of docs/c-api.md, at most
        STATE_MAX_BYTES: what a crawler keeps in a page's metadata instead
        of its visit history. ``Estimator.from_state`` restores it exactly."""
        return _state_bytes(lib.crawlsched_estimator_export_state, self._ptr)

    def state_text(self):
        """``state()`` as unpadded base64url text (at most 1514 characters),
        for string-only metadata."""
        return _state_text(self.state())

    @classmethod
    def from_state(cls, data):
        """The estimator of saved ``state()`` bytes (of any binding, run or
        process): the same estimate, bit for bit, and the same results for
        every later visit. Bytes that are not a state raise
        InvalidArgumentError naming the bad field."""
        b = _state_array(data)
        return cls._new(lib.crawlsched_estimator_new_from_state, ptr(b), b.size)

    @classmethod
    def from_state_text(cls, text):
        """``from_state`` of ``state_text()``'s text."""
        return cls.from_state(_state_from_text(text))


def _state_bytes(fn, *args):
    """A state written by ``fn(*args, out, cap, *out_len, err)``."""
    return call_variable(fn, _ffi.CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES, np.uint8, *args).tobytes()


def _state_array(data):
    """Caller's bytes as a uint8 array for the C API."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"an estimator state is bytes, got {type(data).__name__}")
    return np.frombuffer(bytes(data), dtype=np.uint8)


def _state_text(data):
    """The text form of a state: unpadded base64url (RFC 4648 section 5)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _state_from_text(text):
    """Strict inverse of ``_state_text``: only the canonical text of some bytes."""
    try:
        raw = text.encode("ascii")
        data = base64.b64decode(raw + b"=" * (-len(raw) % 4), altchars=b"-_", validate=True)
    except (UnicodeEncodeError, ValueError) as e:
        raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT, f"text: not unpadded base64url: {e}") from None
    if _state_text(data) != text:
        raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT, "text: not unpadded canonical base64url")
    return data


_MODES = {"stride": _ffi.CRAWLSCHED_SCHEDULER_STRIDE, "golden_ratio": _ffi.CRAWLSCHED_SCHEDULER_GOLDEN_RATIO}


class Scheduler(Handle):
    """A streaming crawl scheduler over pages with 64-bit ids
    (``crawlsched_scheduler_t``): ``next()`` is the page to crawl now.
    Mutable; the library serialises calls, so crawler threads may share
    one."""

    _free = lib.crawlsched_scheduler_free
    _kind = "scheduler"

    def __init__(self, access, mode="stride"):
        """Empty scheduler for crawls lasting ``access`` (a Dist, copied);
        mode "stride" or "golden_ratio"."""
        out = ctypes.c_void_p()
        call(lib.crawlsched_scheduler_new, access._ptr, choice(mode, _MODES, "mode"), ctypes.byref(out))
        self._own(out.value)

    def add_page(self, page_id, change_rate, weight=None):
        """Adds a page with a change-rate guess > 0 and a cost weight
        (None: its change rate). A duplicate id is InvalidArgumentError."""
        if weight is None:
            call(lib.crawlsched_scheduler_add_page, self._ptr, page_id, change_rate)
        else:
            call(lib.crawlsched_scheduler_add_weighted_page, self._ptr, page_id, change_rate, weight)

    def add_pages(self, ids, change_rates, weights=None):
        """Adds pages ids[i] with change-rate guesses change_rates[i] and
        cost weights weights[i] (None: each weight is the page's rate, as
        add_page) in one call, as the one-by-one adds would: same schedule
        and frequencies. Sequences or NumPy arrays (not copied when already
        contiguous uint64/float64). All or nothing: on any error (an id
        already scheduled or repeated, a bad rate or weight, too many pages)
        no page is added; the message names the first bad element, e.g.
        ``change_rates[17]``."""
        i = uints(ids, np.uint64, "ids")
        rates = array(change_rates, name="change_rates")
        w = None if weights is None else array(weights, name="weights")
        if rates.size != i.size or (w is not None and w.size != i.size):
            raise InvalidArgumentError(
                _ffi.CRAWLSCHED_INVALID_ARGUMENT, "ids, change_rates and weights must have one entry per page"
            )
        call(lib.crawlsched_scheduler_add_pages, self._ptr, ptr(i), ptr(rates), ptr(w), i.size)

    def remove_page(self, page_id):
        """Removes a page (NotFoundError if absent)."""
        call(lib.crawlsched_scheduler_remove_page, self._ptr, page_id)

    def set_change_rate(self, page_id, change_rate):
        """Replaces a page's change rate and restarts its estimator."""
        call(lib.crawlsched_scheduler_set_change_rate, self._ptr, page_id, change_rate)

    def observe(self, page_id, interval, changed):
        """Reports a crawl ``interval`` > 0 after the page's previous one."""
        call(lib.crawlsched_scheduler_observe, self._ptr, page_id, interval, 1 if changed else 0)

    def next(self):
        """The page to crawl now (NotFoundError when there is none)."""
        out = ctypes.c_uint64()
        call(lib.crawlsched_scheduler_next, self._ptr, ctypes.byref(out))
        return out.value

    def set_host(self, page_id, host):
        """Puts a page on ``host`` (any uint32: a politeness group, e.g. an
        index into the caller's table of host names) from the next pick,
        replacing its previous host. NotFoundError for an unknown page."""
        call(lib.crawlsched_scheduler_set_host, self._ptr, page_id, host)

    def clear_host(self, page_id):
        """Takes a page off its host (no-op when it has none)."""
        call(lib.crawlsched_scheduler_clear_host, self._ptr, page_id)

    def host(self, page_id):
        """A page's host, or None when it has none."""
        host, has = ctypes.c_uint32(), ctypes.c_int32()
        call(lib.crawlsched_scheduler_host, self._ptr, page_id, ctypes.byref(host), ctypes.byref(has))
        return host.value if has.value else None

    def set_host_delay(self, host, delay):
        """A host's minimum delay (finite, >= 0) between two picks of its
        pages, in the unit of ``next_at``'s clock and of the crawl times
        (``next`` rounds it up to whole slots of the mean crawl time, one
        slot per pick, and the plan caps the host at one pick in that many
        slots), from the next pick. A host keeps it while it has no pages.
        A scheduler with hosts keeps the clock of its first pick: ``next``
        after ``next_at`` (or the reverse) raises ``InvalidArgumentError``."""
        call(lib.crawlsched_scheduler_set_host_delay, self._ptr, host, float(delay))

    def host_delay(self, host):
        """A host's minimum delay (0.0 when none was set)."""
        out = ctypes.c_double()
        call(lib.crawlsched_scheduler_host_delay, self._ptr, host, ctypes.byref(out))
        return out.value

    def next_at(self, now):
        """The ``Pick`` at time ``now`` on the caller's clock (any finite
        reading in the unit of the host delays, never decreasing from call
        to call, e.g. ``time.monotonic()``).

        Ready with the page to crawl now, or, when every host with pages is
        within its delay, not ready with the wait after which one is. A
        page of host h comes only when ``host_delay(h)`` has passed since
        the last pick of a page of h; pages without a host are always
        ready. InvalidArgumentError for ``now`` NaN, infinite or before
        the previous call's; NotFoundError when no page is scheduled.

        Example::

            pick = s.next_at(time.monotonic())
            if pick.ready:
                crawl(pick.page_id)
            else:
                time.sleep(pick.wait)
        """
        page, wait, ready = ctypes.c_uint64(), ctypes.c_double(), ctypes.c_int32()
        call(lib.crawlsched_scheduler_next_at, self._ptr, float(now), ctypes.byref(page), ctypes.byref(wait),
             ctypes.byref(ready))
        return Pick(bool(ready.value), page.value, wait.value)

    def next_batch(self, n):
        """The next n pages to crawl, in order (uint64 array)."""
        out = np.empty(n, dtype=np.uint64)
        call(lib.crawlsched_scheduler_next_batch, self._ptr, ptr(out), n)
        return out

    def __len__(self):
        out = ctypes.c_size_t()
        call(lib.crawlsched_scheduler_len, self._ptr, ctypes.byref(out))
        return out.value

    def change_rate(self, page_id):
        """A page's current change-rate estimate."""
        out = ctypes.c_double()
        call(lib.crawlsched_scheduler_change_rate, self._ptr, page_id, ctypes.byref(out))
        return out.value

    def frequency(self, page_id):
        """A page's current target share of all crawls."""
        out = ctypes.c_double()
        call(lib.crawlsched_scheduler_frequency, self._ptr, page_id, ctypes.byref(out))
        return out.value

    def frequencies(self):
        """Every page's target share of all crawls: (ids, shares), uint64 and
        float64 arrays sorted by id. One O(N) computation for all pages,
        where N calls of frequency() after rates changed cost O(N) each."""
        while True:
            n = len(self)
            ids = np.empty(n, dtype=np.uint64)
            freqs = np.empty(n, dtype=np.float64)
            got = ctypes.c_size_t()
            try:
                call(lib.crawlsched_scheduler_frequencies, self._ptr, ptr(ids), ptr(freqs), n, ctypes.byref(got))
            except BufferTooSmallError:
                continue  # pages were added meanwhile
            return ids[: got.value], freqs[: got.value]

    def page_state(self, page_id):
        """A page's change-rate estimator state (as ``Estimator.state()``),
        to keep in the page's metadata and give back to ``set_page_state``
        in a later run."""
        return _state_bytes(lib.crawlsched_scheduler_page_state, self._ptr, page_id)

    def page_state_text(self, page_id):
        """``page_state`` as unpadded base64url text."""
        return _state_text(self.page_state(page_id))

    def set_page_state(self, page_id, data):
        """Replaces a page's estimator with saved state bytes and adopts its
        estimate as the page's change rate: after ``add_page`` in a new run
        the page continues exactly as if the run had not stopped. Bad bytes
        change nothing (InvalidArgumentError)."""
        b = _state_array(data)
        call(lib.crawlsched_scheduler_set_page_state, self._ptr, page_id, ptr(b), b.size)

    def set_page_state_text(self, page_id, text):
        """``set_page_state`` of ``page_state_text``'s text."""
        self.set_page_state(page_id, _state_from_text(text))

    def revisit_interval(self, page_id):
        """A page's revisit interval under the plan, E[X]/f_i time units
        (the plan makes 1/E[X] crawls per unit time; for a budget of B
        crawls per unit time use crawl times of mean 1/B), or ``inf`` when
        the plan never crawls the page."""
        out = ctypes.c_double()
        call(lib.crawlsched_scheduler_revisit_interval, self._ptr, page_id, ctypes.byref(out))
        return out.value or math.inf

    def next_due(self, page_id, last_visit):
        """When a page last crawled at ``last_visit`` (any finite clock in
        the unit of the rates) is next due under the plan: last_visit plus
        its revisit interval, or ``inf`` when never."""
        due, has = ctypes.c_double(), ctypes.c_int32()
        call(lib.crawlsched_scheduler_next_due, self._ptr, page_id, float(last_visit), ctypes.byref(due),
             ctypes.byref(has))
        return due.value if has.value else math.inf

    def revisit_intervals(self):
        """Every page's revisit interval: (ids, intervals), uint64 and float64
        arrays sorted by id (``inf`` = never due), one O(N) computation."""
        while True:
            n = len(self)
            ids = np.empty(n, dtype=np.uint64)
            iv = np.empty(n, dtype=np.float64)
            got = ctypes.c_size_t()
            try:
                call(lib.crawlsched_scheduler_revisit_intervals, self._ptr, ptr(ids), ptr(iv), n, ctypes.byref(got))
            except BufferTooSmallError:
                continue  # pages were added meanwhile
            iv = iv[: got.value]
            iv[iv == 0] = math.inf
            return ids[: got.value], iv
