"""The optimal number of active crawler robots (Talim, Liu, Nain,
Coffman): ``Robots.solve`` and the static policy."""

import ctypes
from collections import namedtuple

import numpy as np

from ._lib import Handle, array, call, lib, ptr
from .limits import _ptr_of

RobotsCost = namedtuple("RobotsCost", "cost starvation loss_rate")
RobotsCounts = namedtuple("RobotsCounts", "n_min n_mean n_max")
RobotsCertificate = namedtuple("RobotsCertificate", "lo hi iterations")


class Robots(Handle):
    """The optimal dynamic policy of one model and its measures
    (``crawlsched_robots_t``). Immutable."""

    _free = lib.crawlsched_robots_free
    _kind = "robots solution"

    @classmethod
    def solve(cls, n, k, lam, mu, gamma, control=None):
        """Exact solution: n >= 1 robots, buffer k >= 1, per-robot rate
        lam > 0, service rate mu > 0, starvation weight gamma >= 0; under
        an optional ``Control`` (memory cap, iteration cap, cancel)."""
        return cls._new(lib.crawlsched_robots_solve, n, k, lam, mu, gamma, _ptr_of(control))._sized()

    @classmethod
    def solve_unlimited(cls, k, lam, mu, gamma, control=None):
        """As solve() with as many robots as the optimum wants (Table 2);
        under an optional ``Control`` every N of the doubling search is
        solved as by solve(..., control=)."""
        return cls._new(lib.crawlsched_robots_solve_unlimited, k, lam, mu, gamma, _ptr_of(control))._sized()

    def _sized(self):
        self.n, self.k = self.size()
        return self

    def size(self):
        """(N robots, K buffer)."""
        n, k = ctypes.c_uint64(), ctypes.c_uint64()
        call(lib.crawlsched_robots_size, self._ptr, ctypes.byref(n), ctypes.byref(k))
        return n.value, k.value

    def cost(self):
        """(cost C_d, starvation probability, loss rate)."""
        c, s, l = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
        call(lib.crawlsched_robots_cost, self._ptr, ctypes.byref(c), ctypes.byref(s), ctypes.byref(l))
        return RobotsCost(c.value, s.value, l.value)

    def certificate(self):
        """(lo, hi, iterations): the optimal cost lies in [lo, hi]."""
        lo, hi, it = ctypes.c_double(), ctypes.c_double(), ctypes.c_uint64()
        call(lib.crawlsched_robots_certificate, self._ptr, ctypes.byref(lo), ctypes.byref(hi), ctypes.byref(it))
        return RobotsCertificate(lo.value, hi.value, it.value)

    def actions(self):
        """The optimal action (1 activate, 0 not) at event (q, r, s),
        index (r*(K+1)+q)*2+s, as a uint8 array."""
        out = np.empty(2 * (self.k + 1) * (self.n + 1), dtype=np.uint8)
        call(lib.crawlsched_robots_actions, self._ptr, ptr(out), out.size)
        return out

    def counts(self):
        """(N_min, N-bar, N_max) as in Tables 1 and 2 (N_max -1: never)."""
        a, m, b = ctypes.c_uint64(), ctypes.c_double(), ctypes.c_int64()
        call(lib.crawlsched_robots_counts, self._ptr, ctypes.byref(a), ctypes.byref(m), ctypes.byref(b))
        return RobotsCounts(a.value, m.value, b.value)

    def switching_curve(self, event):
        """(f_s(r) for r = 0..N as an int64 array, is_curve) for event 0
        (departure) or 1 (arrival): activate a robot iff q <= f_s(r)."""
        out = np.empty(self.n + 1, dtype=np.int64)
        is_curve = ctypes.c_int32()
        call(lib.crawlsched_robots_switching_curve, self._ptr, event, ptr(out), out.size, ctypes.byref(is_curve))
        return out, is_curve.value != 0

    def stationary(self):
        """Stationary probability of state (q, r, s) at (r*(K+1)+q)*3+s."""
        out = np.empty(3 * (self.k + 1) * (self.n + 1), dtype=np.float64)
        call(lib.crawlsched_robots_stationary, self._ptr, ptr(out), out.size)
        return out

    def evaluate_curve(self, f0, f1):
        """Exact cost of the switching curve (f0, f1), N+1 entries each."""
        a, b = array(f0, np.int64, "f0"), array(f1, np.int64, "f1")
        out = ctypes.c_double()
        call(lib.crawlsched_robots_evaluate_curve, self._ptr, ptr(a), ptr(b), a.size, ctypes.byref(out))
        return out.value

    def evaluate_static(self, n):
        """Exact cost of keeping n robots active (1 <= n <= N)."""
        out = ctypes.c_double()
        call(lib.crawlsched_robots_evaluate_static, self._ptr, n, ctypes.byref(out))
        return out.value


def static_cost(rho, gamma, k, mu):
    """C_s(rho, gamma, K) of eq. (9)."""
    out = ctypes.c_double()
    call(lib.crawlsched_robots_static_cost, rho, gamma, k, mu, ctypes.byref(out))
    return out.value


def optimal_static(lam, mu, gamma, k):
    """Proposition 3: (best number of robots N_s, its cost C_s)."""
    n, c = ctypes.c_uint64(), ctypes.c_double()
    call(lib.crawlsched_robots_optimal_static, lam, mu, gamma, k, ctypes.byref(n), ctypes.byref(c))
    return n.value, c.value
