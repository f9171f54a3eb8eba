"""Open-loop routing to parallel servers without buffers (Altman et al.):
arrival processes, server sets, optimal periodic policies, a router."""

import ctypes
from collections import namedtuple

import numpy as np

from . import _ffi
from ._lib import Handle, array, call, call_variable, lib, matrix, ptr, uints
from .dist import choice
from .limits import _ptr_of

OBJECTIVES = {"losses": _ffi.CRAWLSCHED_ROUTING_LOSSES, "robot": _ffi.CRAWLSCHED_ROUTING_ROBOT}

RoutingCost = namedtuple("RoutingCost", "per_packet per_unit_time")
RoutingPlan = namedtuple("RoutingPlan", "period cost evaluations")
RoutingSimulation = namedtuple("RoutingSimulation", "per_packet std_error per_unit_time")


class Arrivals(Handle):
    """A stationary single-arrival process: Poisson, MMPP or MAP
    (``crawlsched_routing_arrivals_t``). Immutable."""

    _free = lib.crawlsched_routing_arrivals_free
    _kind = "arrival process"

    @classmethod
    def poisson(cls, rate):
        return cls._new(lib.crawlsched_routing_arrivals_poisson_new, rate)

    @classmethod
    def mmpp(cls, q, rates):
        """MMPP: phase generator q (n x n, 2-D or flat row-major) and the
        arrival rate in each phase."""
        qf, _ = matrix(q, "q")
        r = array(rates, name="rates")
        return cls._new(lib.crawlsched_routing_arrivals_mmpp_new, ptr(qf), qf.size, ptr(r), r.size)

    @classmethod
    def map(cls, d0, d1):
        """MAP with matrices D0 (no arrival) and D1 (one arrival), n x n."""
        a, n = matrix(d0, "d0")
        b, _ = matrix(d1, "d1")
        return cls._new(lib.crawlsched_routing_arrivals_map_new, n, ptr(a), a.size, ptr(b), b.size)

    def rate(self):
        """Mean arrival rate."""
        out = ctypes.c_double()
        call(lib.crawlsched_routing_arrivals_rate, self._ptr, ctypes.byref(out))
        return out.value

    def transform(self, mu, k):
        """E exp(-mu (tau_1 + ... + tau_k)) (Lemma 5.2)."""
        out = ctypes.c_double()
        call(lib.crawlsched_routing_arrivals_transform, self._ptr, mu, k, ctypes.byref(out))
        return out.value


class Servers(Handle):
    """M exponential servers fed by one arrival process, with an
    objective (``crawlsched_routing_servers_t``). Immutable."""

    _free = lib.crawlsched_routing_servers_free
    _kind = "server set"

    def __init__(self, arrivals, rates, weights=None, objective="losses"):
        """Service rates[i] > 0, weights[i] > 0 (None: all 1), objective
        "losses" or "robot". The arrival process is copied."""
        r = array(rates, name="rates")
        w = None if weights is None else array(weights, name="weights")
        out = ctypes.c_void_p()
        call(lib.crawlsched_routing_servers_new, arrivals._ptr, ptr(r), ptr(w), r.size,
             choice(objective, OBJECTIVES, "objective"), ctypes.byref(out))
        self._own(out.value)

    def __len__(self):
        out = ctypes.c_size_t()
        call(lib.crawlsched_routing_servers_len, self._ptr, ctypes.byref(out))
        return out.value

    def immediate_cost(self, server, k):
        """f_m(k): the cost of routing to server m after k >= 1 arrivals."""
        out = ctypes.c_double()
        call(lib.crawlsched_routing_immediate_cost, self._ptr, server, k, ctypes.byref(out))
        return out.value

    def cost(self, seq):
        """Exact cost of repeating the period: (per packet, per unit time)."""
        s = uints(seq, np.uint32, "seq")
        pp, put = ctypes.c_double(), ctypes.c_double()
        call(lib.crawlsched_routing_cost, self._ptr, ptr(s), s.size, ctypes.byref(pp), ctypes.byref(put))
        return RoutingCost(pp.value, put.value)

    def _optimize(self, fn, guess, *args):
        cost, ev = ctypes.c_double(), ctypes.c_uint64()
        period = call_variable(fn, guess, np.uint32, self._ptr, *args,
                               extra=(ctypes.byref(cost), ctypes.byref(ev)))
        return RoutingPlan(period, cost.value, ev.value)

    def optimize_exhaustive(self, min_period, max_period, control=None):
        """The exact optimal period of length min_period..max_period; under
        an optional ``Control`` (its iteration cap counts sequences)."""
        guess = min(max_period, 1 << 20)
        return self._optimize(lib.crawlsched_routing_optimize_exhaustive, guess, min_period, max_period,
                              _ptr_of(control))

    def optimize_local(self, min_period, max_period, control=None):
        """Local search from balanced sequences of each length (heuristic);
        under an optional ``Control`` (its iteration cap counts
        neighbourhood scans of all lengths together)."""
        guess = min(max_period, 1 << 20)
        return self._optimize(lib.crawlsched_routing_optimize_local, guess, min_period, max_period,
                              _ptr_of(control))

    def local_search_multimodular(self, seq, control=None):
        """Local search with the full multimodular neighbourhood from seq
        (2 servers, len <= 20): optimal for that length. Optional ``Control``."""
        s = uints(seq, np.uint32, "seq")
        return self._optimize(lib.crawlsched_routing_local_search_multimodular, s.size, ptr(s), s.size,
                              _ptr_of(control))

    def simulate(self, seq, periods, seed, control=None):
        """Monte Carlo of the period: (per packet, standard error, per unit
        time); an optional ``Control`` can cancel it from another thread."""
        s = uints(seq, np.uint32, "seq")
        a, b, c = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
        outs = (ctypes.byref(a), ctypes.byref(b), ctypes.byref(c))
        call(lib.crawlsched_routing_simulate, self._ptr, ptr(s), s.size, periods, seed, _ptr_of(control), *outs)
        return RoutingSimulation(a.value, b.value, c.value)


def two_server_cost(n, mu2):
    """g(n, mu2) of Figure 1 (lambda = mu1 = 1)."""
    out = ctypes.c_double()
    call(lib.crawlsched_routing_two_server_cost, n, mu2, ctypes.byref(out))
    return out.value


def switch_point(n):
    """The mu2 where Figure 1's optimal period grows from n to n + 1."""
    out = ctypes.c_double()
    call(lib.crawlsched_routing_switch_point, n, ctypes.byref(out))
    return out.value


def balanced_sequence(counts):
    """The balanced (billiard) sequence with counts[m] visits of server m."""
    c = uints(counts, np.uint64, "counts")
    return call_variable(lib.crawlsched_routing_balanced_sequence, int(c.sum()) if c.size else 0, np.uint32,
                         ptr(c), c.size)


class Router(Handle):
    """A streaming router repeating a period (``crawlsched_routing_router_t``):
    ``next()`` is the server of the next request. Threads may share one."""

    _free = lib.crawlsched_routing_router_free
    _kind = "router"

    def __init__(self, seq, servers):
        s = uints(seq, np.uint32, "seq")
        out = ctypes.c_void_p()
        call(lib.crawlsched_routing_router_new, ptr(s), s.size, servers, ctypes.byref(out))
        self._own(out.value)

    def next(self):
        out = ctypes.c_uint32()
        call(lib.crawlsched_routing_router_next, self._ptr, ctypes.byref(out))
        return out.value

    def next_batch(self, n):
        """The servers of the next n requests (one contiguous block)."""
        out = np.empty(n, dtype=np.uint32)
        call(lib.crawlsched_routing_router_next_batch, self._ptr, ptr(out), n)
        return out
