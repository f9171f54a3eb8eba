"""Threshold control of crawler robots with obsolescence (Avrachenkov et
al.): ``ThresholdModel``, its stationary measures and optimal thresholds."""

import ctypes
from collections import namedtuple

import numpy as np

from . import _ffi
from ._lib import Handle, array, call, call_variable, lib, ptr, uints
from .limits import _ptr_of

#: Names of the entries of ``ThresholdModel.measures()``, in order.
MEASURES = (
    "fundamental_rate",
    "loss",
    "obsolescence",
    "success",
    "starvation",
    "throughput",
    "mean_pages",
    "mean_queue",
    "response_time",
    "waiting_time",
    "mean_robots",
    "residual",
)
assert len(MEASURES) == _ffi.CRAWLSCHED_THRESHOLD_MEASURE_COUNT

#: Names of the entries of the cost weights, in order.
WEIGHTS = ("loss", "obsolescence", "response", "robots", "starvation")
assert len(WEIGHTS) == _ffi.CRAWLSCHED_THRESHOLD_WEIGHT_COUNT

ThresholdPlan = namedtuple("ThresholdPlan", "thresholds cost evaluated")
ResponseTime = namedtuple("ResponseTime", "mean served_probability mean_served mean_obsolete")


def _weights(w):
    """Weights as an array: a sequence of 5, or a dict by WEIGHTS name."""
    if isinstance(w, dict):
        return np.array([float(w.get(k, 0.0)) for k in WEIGHTS])
    return array(w, name="weights")


class ThresholdModel(Handle):
    """Arrival processes per number of active robots, PH service, PH
    obsolescence and a buffer (``crawlsched_threshold_model_t``).
    Immutable; shareable between threads."""

    _free = lib.crawlsched_threshold_model_free
    _kind = "threshold model"

    def __init__(self, arrivals, service, obsolescence=None, buffer=1):
        """arrivals[r-1] (a BMAP) is the process with r active robots;
        service and obsolescence are Dist (obsolescence None: pages never
        become obsolete); buffer waiting places. Everything is copied."""
        arr = (ctypes.c_void_p * len(arrivals))(*[a._ptr.value for a in arrivals])
        out = ctypes.c_void_p()
        obs = None if obsolescence is None else obsolescence._ptr
        call(lib.crawlsched_threshold_model_new, arr, len(arrivals), service._ptr, obs, buffer, ctypes.byref(out))
        self._own(out.value)

    def state_count(self):
        """Number of states of the Markov chain."""
        out = ctypes.c_uint64()
        call(lib.crawlsched_threshold_model_state_count, self._ptr, ctypes.byref(out))
        return out.value

    @staticmethod
    def _policy(modes, thresholds):
        m = uints(modes, np.uint32, "modes")
        t = uints(thresholds, np.uint32, "thresholds")
        return m, t

    def measures(self, modes, thresholds, control=None):
        """Stationary measures of the policy (modes r_1 > ... > r_J,
        thresholds t_1 <= ... <= t_{J-1}): 12 values named by MEASURES;
        under an optional ``Control`` (its memory cap, else the process
        default, is checked before the chain is built: TooLargeError; a
        cancel gives CancelledError). The other evaluations take
        ``control=`` the same way."""
        m, t = self._policy(modes, thresholds)
        out = np.empty(_ffi.CRAWLSCHED_THRESHOLD_MEASURE_COUNT, dtype=np.float64)
        call(lib.crawlsched_threshold_measures, self._ptr, ptr(m), m.size, ptr(t), t.size, _ptr_of(control),
             ptr(out), out.size)
        return out

    def measures_dict(self, modes, thresholds, control=None):
        """measures() as a dict by name."""
        return dict(zip(MEASURES, self.measures(modes, thresholds, control).tolist()))

    def level_distribution(self, modes, thresholds, control=None):
        """P(i pages in the system), i = 0..buffer+1; optional ``Control``."""
        m, t = self._policy(modes, thresholds)
        return call_variable(lib.crawlsched_threshold_level_distribution, 16, np.float64,
                             self._ptr, ptr(m), m.size, ptr(t), t.size, _ptr_of(control))

    def cost(self, modes, thresholds, weights, control=None):
        """Cost criterion (paper eq. 2) of the policy; weights: 5 values
        named by WEIGHTS (or a dict); optional ``Control``."""
        m, t = self._policy(modes, thresholds)
        w = _weights(weights)
        out = ctypes.c_double()
        call(lib.crawlsched_threshold_cost, self._ptr, ptr(m), m.size, ptr(t), t.size, ptr(w), w.size,
             _ptr_of(control), ctypes.byref(out))
        return out.value

    def optimize(self, modes, weights, max_evaluations=1_000_000, control=None):
        """Optimal thresholds for the modes by enumeration:
        (thresholds, cost, evaluated); under an optional ``Control``
        (its iteration cap lowers max_evaluations; cancel stops the search
        with CancelledError)."""
        m = uints(modes, np.uint32, "modes")
        w = _weights(weights)
        th = np.empty(max(m.size - 1, 0), dtype=np.uint32)
        cost, ev = ctypes.c_double(), ctypes.c_uint64()
        call(lib.crawlsched_threshold_optimize, self._ptr, ptr(m), m.size, ptr(w), w.size, max_evaluations,
             _ptr_of(control), ptr(th), th.size, ctypes.byref(cost), ctypes.byref(ev))
        return ThresholdPlan(th, cost.value, ev.value)

    def response_time(self, modes, thresholds, control=None):
        """Response time of an admitted page (tagged-page chain): (mean,
        probability of being served, mean if served, mean if obsolete);
        optional ``Control``."""
        m, t = self._policy(modes, thresholds)
        out = np.empty(_ffi.CRAWLSCHED_THRESHOLD_RESPONSE_COUNT, dtype=np.float64)
        call(lib.crawlsched_threshold_response_time, self._ptr, ptr(m), m.size, ptr(t), t.size, _ptr_of(control),
             ptr(out), out.size)
        return ResponseTime(*out.tolist())

    def response_cdf(self, modes, thresholds, times, served=False, control=None):
        """P(sojourn <= t) of an admitted page at each t of ``times``
        (given that it is served if ``served``); an optional ``Control``
        also stops the uniformization when cancelled."""
        m, t = self._policy(modes, thresholds)
        ts = array(times, name="times")
        which = _ffi.CRAWLSCHED_THRESHOLD_SOJOURN_SERVED if served else _ffi.CRAWLSCHED_THRESHOLD_SOJOURN_ALL
        out = np.empty(ts.size, dtype=np.float64)
        call(lib.crawlsched_threshold_response_cdf, self._ptr, ptr(m), m.size, ptr(t), t.size, which,
             ptr(ts), ts.size, _ptr_of(control), ptr(out), out.size)
        return out
