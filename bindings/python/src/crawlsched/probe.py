"""Probe schedules under a politeness constraint (Eckstein, Gal, Reiner):
update-intensity profiles, costs, online policies and the optimal planner."""

import ctypes

import numpy as np

from . import _ffi
from ._lib import Handle, InvalidArgumentError, array, call, call_variable, lib, ptr
from .dist import choice
from .limits import _ptr_of

METHODS = {
    "reference": _ffi.CRAWLSCHED_PROBE_METHOD_REFERENCE,
    "divide_conquer": _ffi.CRAWLSCHED_PROBE_METHOD_DIVIDE_CONQUER,
    "hull": _ffi.CRAWLSCHED_PROBE_METHOD_HULL,
    "lagrangian": _ffi.CRAWLSCHED_PROBE_METHOD_LAGRANGIAN,
}
POLICIES = {"threshold": _ffi.CRAWLSCHED_PROBE_POLICY_THRESHOLD, "first_arrival": _ffi.CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL}


class Profile(Handle):
    """Update intensity lambda(t) and importance a(t) over [0, T]
    (``crawlsched_probe_profile_t``). Immutable."""

    _free = lib.crawlsched_probe_profile_free
    _kind = "probe profile"

    def __init__(self, lambda_breaks, lambda_values, a_breaks, a_values, horizon,
                 lambda_periodic=False, a_periodic=False):
        """Piecewise-constant lambda(t) = lambda_values[k] on
        [lambda_breaks[k], lambda_breaks[k+1]) (breaks start at 0, one more
        than values), repeating if lambda_periodic; a(t) likewise."""
        lb, lv = array(lambda_breaks, name="lambda_breaks"), array(lambda_values, name="lambda_values")
        ab, av = array(a_breaks, name="a_breaks"), array(a_values, name="a_values")
        for b, v, name in ((lb, lv, "lambda"), (ab, av, "a")):
            if b.size != v.size + 1:
                raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT,
                                           f"{name}_breaks must have one entry more than {name}_values")
        out = ctypes.c_void_p()
        call(lib.crawlsched_probe_profile_new, ptr(lb), ptr(lv), lv.size, 1 if lambda_periodic else 0,
             ptr(ab), ptr(av), av.size, 1 if a_periodic else 0, horizon, ctypes.byref(out))
        self._own(out.value)

    @classmethod
    def dbworld(cls, ratio, horizon_days):
        """The paper's DBWorld profile (Table 2, days from Monday 00:00),
        importance ``ratio`` in weekday work hours."""
        return cls._new(lib.crawlsched_probe_profile_dbworld, ratio, horizon_days)

    @classmethod
    def micronet(cls, ratio, horizon_days):
        """The paper's MicroNet profile (Table 3)."""
        return cls._new(lib.crawlsched_probe_profile_micronet, ratio, horizon_days)

    def _scalar(self, fn, *args):
        out = ctypes.c_double()
        call(fn, self._ptr, *args, ctypes.byref(out))
        return out.value

    def interval_cost(self, s, f):
        """C(s, f) (eq. 5): expected cost of one interval between probes."""
        return self._scalar(lib.crawlsched_probe_interval_cost, s, f)

    def expected_cost(self, probes):
        """Expected cost (eq. 6) of the sorted probes (the last equal to T)."""
        p = array(probes, name="probes")
        return self._scalar(lib.crawlsched_probe_expected_cost, ptr(p), p.size)

    def realized_cost(self, probes, updates):
        """Realized cost (eqs. 3, 4) of the probes on observed update times."""
        p, u = array(probes, name="probes"), array(updates, name="updates")
        return self._scalar(lib.crawlsched_probe_realized_cost, ptr(p), p.size, ptr(u), u.size)

    def uniform(self, n):
        """n probes at i T / n."""
        out = np.empty(n, dtype=np.float64)
        call(lib.crawlsched_probe_uniform, self._ptr, n, ptr(out), out.size)
        return out

    def policy_schedule(self, policy, parameter):
        """The "threshold" (parameter: cost level > 0) or "first_arrival"
        (parameter: probability in (0, 1)) schedule; the last probe is T."""
        return call_variable(lib.crawlsched_probe_policy_schedule, 64, np.float64, self._ptr,
                             choice(policy, POLICIES, "policy"), parameter)

    def policy_with_budget(self, policy, n):
        """The policy's schedule with exactly n probes: (probes, parameter)."""
        out = np.empty(n, dtype=np.float64)
        par = ctypes.c_double()
        call(lib.crawlsched_probe_policy_with_budget, self._ptr, choice(policy, POLICIES, "policy"), n,
             ctypes.byref(par), ptr(out), out.size)
        return out, par.value

    def improve(self, probes, delta, mu0=0.5, mu_min=1 / 512, rho=0.5, iota=1e-9):
        """Algorithm 10 (greedy moves keeping spacing >= delta): (improved
        probes, number of moves); never costs more."""
        p = array(probes, name="probes")
        out = np.empty(p.size, dtype=np.float64)
        moves = ctypes.c_uint64()
        call(lib.crawlsched_probe_improve, self._ptr, ptr(p), p.size, delta, mu0, mu_min, rho, iota,
             ptr(out), out.size, ctypes.byref(moves))
        return out, moves.value


def estimate_intensity(times, window, breaks, periodic=False, smoothing=0.0):
    """Maximum-likelihood intensity per piece of ``breaks`` (len - 1
    pieces) from sorted update times observed over [0, window]."""
    t, b = array(times, name="times"), array(breaks, name="breaks")
    out = np.empty(max(b.size - 1, 0), dtype=np.float64)
    call(lib.crawlsched_probe_estimate_intensity, ptr(t), t.size, window, ptr(b), out.size,
         1 if periodic else 0, smoothing, ptr(out), out.size)
    return out


class Planner(Handle):
    """Optimal probe schedules on a grid of candidate times
    (``crawlsched_probe_planner_t``). Mutable; the library serialises calls."""

    _free = lib.crawlsched_probe_planner_free
    _kind = "probe planner"

    def __init__(self, profile, grid, delta=0.0):
        """``grid`` evenly spaced candidate times over [0, T] of profile
        (copied), minimum spacing delta >= 0."""
        out = ctypes.c_void_p()
        call(lib.crawlsched_probe_planner_new, profile._ptr, grid, delta, ctypes.byref(out))
        self._own(out.value)

    def set_profile(self, profile):
        """Replaces the profile (copied) for the next plans."""
        call(lib.crawlsched_probe_planner_set_profile, self._ptr, profile._ptr)

    def set_constraints(self, delta, starts=(), ends=()):
        """Minimum spacing and allowed windows [starts[k], ends[k]] (none:
        every time allowed)."""
        s, e = array(starts, name="starts"), array(ends, name="ends")
        if s.size != e.size:
            raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT, "starts and ends must have the same length")
        call(lib.crawlsched_probe_planner_set_constraints, self._ptr, delta, ptr(s), ptr(e), s.size)

    def set_control(self, control):
        """Attaches a ``Control`` (None: detach) to later plan() and
        all_costs() calls, kept across set_profile/set_constraints: memory
        cap for the DP tables, iteration cap on passes over the grid (one
        per DP layer or Lagrangian multiplier), cancel from another thread."""
        call(lib.crawlsched_probe_planner_set_control, self._ptr, _ptr_of(control))

    def plan(self, n, method="lagrangian"):
        """An optimal schedule of exactly n probes: (probes, expected cost)."""
        out = np.empty(n, dtype=np.float64)
        cost = ctypes.c_double()
        call(lib.crawlsched_probe_planner_plan, self._ptr, n, choice(method, METHODS, "method"), ptr(out),
             out.size, ctypes.byref(cost))
        return out, cost.value

    def all_costs(self, max_n):
        """Optimal expected cost for every budget n = 1..max_n."""
        out = np.empty(max_n, dtype=np.float64)
        call(lib.crawlsched_probe_planner_all_costs, self._ptr, max_n, ptr(out), out.size)
        return out
