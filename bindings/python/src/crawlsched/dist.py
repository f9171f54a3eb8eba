"""Distributions of a non-negative time (``Dist``) and batch Markovian
arrival processes (``BMAP``)."""

import ctypes

import numpy as np

from . import _ffi
from ._lib import Handle, InvalidArgumentError, array, call, lib, ptr


def _each(x, f):
    """f(x) for a scalar x; an array of f over x otherwise."""
    if np.ndim(x) == 0:
        return f(float(x))
    a = np.asarray(x, dtype=np.float64)
    return np.array([f(float(v)) for v in a.reshape(-1)]).reshape(a.shape)


class Dist(Handle):
    """A distribution of a non-negative time (``crawlsched_dist_t``), e.g.
    the time one crawl takes. Immutable; shareable between threads. Build
    one with the class methods (``Dist.exponential(5.0)``, ...)."""

    _free = lib.crawlsched_dist_free
    _kind = "distribution"

    @classmethod
    def deterministic(cls, value):
        """X = value (>= 0) with probability one."""
        return cls._new(lib.crawlsched_dist_deterministic_new, value)

    @classmethod
    def exponential(cls, rate):
        """Exponential with rate > 0 (mean 1/rate)."""
        return cls._new(lib.crawlsched_dist_exponential_new, rate)

    @classmethod
    def erlang(cls, k, rate):
        """Sum of k >= 1 exponentials of rate > 0."""
        return cls._new(lib.crawlsched_dist_erlang_new, k, rate)

    @classmethod
    def gamma(cls, shape, rate):
        """Gamma with shape > 0 and rate > 0 (mean shape/rate)."""
        return cls._new(lib.crawlsched_dist_gamma_new, shape, rate)

    @classmethod
    def hyperexponential(cls, probs, rates):
        """Rate rates[i] with probability probs[i] (probs sum to 1)."""
        p, r = array(probs, name="probs"), array(rates, name="rates")
        if p.size != r.size:
            raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT, "probs and rates must have the same length")
        return cls._new(lib.crawlsched_dist_hyperexponential_new, ptr(p), ptr(r), p.size)

    @classmethod
    def phase_type(cls, alpha, s):
        """PH(alpha, S): alpha of n entries, S the n x n sub-generator
        (2-D, or flat row-major)."""
        a = array(alpha, name="alpha")
        m = np.ascontiguousarray(s, dtype=np.float64).reshape(-1)
        return cls._new(lib.crawlsched_dist_phase_type_new, ptr(a), a.size, ptr(m), m.size)

    @classmethod
    def coxian(cls, rates, cont):
        """Coxian: phase i has rate rates[i] and continues with
        probability cont[i] (n - 1 entries)."""
        r, c = array(rates, name="rates"), array(cont, name="cont")
        return cls._new(lib.crawlsched_dist_coxian_new, ptr(r), r.size, ptr(c), c.size)

    @classmethod
    def empirical(cls, samples):
        """Each of n >= 1 observed samples (finite, >= 0) equally likely."""
        x = array(samples, name="samples")
        return cls._new(lib.crawlsched_dist_empirical_new, ptr(x), x.size)

    @classmethod
    def fit_aph2(cls, m1, m2, m3):
        """Acyclic phase-type of order <= 2 with raw moments m1, m2, m3
        (InfeasibleError outside the ACPH(2) region)."""
        return cls._new(lib.crawlsched_dist_fit_aph2_new, m1, m2, m3)

    @classmethod
    def fit_h2(cls, m1, m2, m3):
        """Two-phase hyperexponential with raw moments m1, m2, m3 (needs
        m2/m1^2 > 2 and m1 m3/m2^2 > 3/2)."""
        return cls._new(lib.crawlsched_dist_fit_h2_new, m1, m2, m3)

    def _scalar(self, fn, *args):
        out = ctypes.c_double()
        call(fn, self._ptr, *args, ctypes.byref(out))
        return out.value

    def mean(self):
        """E[X]."""
        return self._scalar(lib.crawlsched_dist_mean)

    def variance(self):
        """Var[X]."""
        return self._scalar(lib.crawlsched_dist_variance)

    def moment(self, k):
        """E[X^k] (NumericalError if it overflows a double)."""
        return self._scalar(lib.crawlsched_dist_moment, k)

    def laplace(self, s):
        """E[exp(-s X)] for s >= 0 (a scalar, or an array of s)."""
        return _each(s, lambda v: self._scalar(lib.crawlsched_dist_laplace, v))

    def cdf(self, x):
        """P(X <= x) (a scalar, or an array of x)."""
        return _each(x, lambda v: self._scalar(lib.crawlsched_dist_cdf, v))

    def sample(self, n, seed):
        """n independent draws, seeded: the same seed gives the same draws
        on every platform and in every binding."""
        out = np.empty(n, dtype=np.float64)
        call(lib.crawlsched_dist_sample, self._ptr, seed, ptr(out), n)
        return out


_COMPOSE = {
    "independent": _ffi.CRAWLSCHED_BMAP_COMPOSE_INDEPENDENT,
    "thinning": _ffi.CRAWLSCHED_BMAP_COMPOSE_THINNING,
    "scaled": _ffi.CRAWLSCHED_BMAP_COMPOSE_SCALED,
}


def choice(value, mapping, what):
    """A C constant from its name in mapping (or the constant itself)."""
    if isinstance(value, str):
        try:
            return mapping[value]
        except KeyError:
            names = ", ".join(repr(k) for k in mapping)
            raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT, f"{what} must be one of {names}") from None
    return int(value)


class BMAP(Handle):
    """A batch Markovian arrival process (D0, D1, ..., Dk)
    (``crawlsched_bmap_t``). Immutable; shareable between threads."""

    _free = lib.crawlsched_bmap_free
    _kind = "BMAP"

    def __init__(self, matrices):
        """A BMAP from its matrices D0, D1, ..., Dk: a sequence of n x n
        matrices, or an array of shape (k+1, n, n)."""
        m = np.ascontiguousarray(matrices, dtype=np.float64)
        if m.ndim != 3 or m.shape[1] != m.shape[2]:
            raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT, "matrices must have shape (k+1, n, n)")
        n = m.shape[1]
        flat = m.reshape(-1)
        out = ctypes.c_void_p()
        call(lib.crawlsched_bmap_new, n, ptr(flat), flat.size, ctypes.byref(out))
        self._own(out.value)

    @classmethod
    def from_flat(cls, n, matrices):
        """A BMAP of order n from D0, D1, ... concatenated, each row-major."""
        flat = array(matrices, name="matrices")
        return cls._new(lib.crawlsched_bmap_new, n, ptr(flat), flat.size)

    @classmethod
    def poisson(cls, rate):
        """A Poisson process of rate > 0 (order 1)."""
        return cls._new(lib.crawlsched_bmap_poisson_new, rate)

    @classmethod
    def fit(cls, mean, variance, lag1, batch_mean, max_batch):
        """Fitted to the time between batches (mean, variance, lag-1
        correlation) and the mean batch size on sizes 1..max_batch."""
        return cls._new(lib.crawlsched_bmap_fit_new, mean, variance, lag1, batch_mean, max_batch)

    def compose(self, how, active=1, total=1, prob=1.0):
        """The process with ``active`` of ``total`` robots active, from this
        per-robot process: how = "independent", "thinning" (batches kept
        with probability prob) or "scaled"."""
        h = choice(how, _COMPOSE, "how")
        return BMAP._new(lib.crawlsched_bmap_compose_new, self._ptr, h, active, total, prob)

    def order(self):
        """Number of phases."""
        out = ctypes.c_size_t()
        call(lib.crawlsched_bmap_order, self._ptr, ctypes.byref(out))
        return out.value

    def fundamental_rate(self):
        """Mean arrivals (pages) per unit time."""
        out = ctypes.c_double()
        call(lib.crawlsched_bmap_fundamental_rate, self._ptr, ctypes.byref(out))
        return out.value

    def interarrival_moment(self, k):
        """E[T^k] of the stationary time between batches (k >= 1)."""
        out = ctypes.c_double()
        call(lib.crawlsched_bmap_interarrival_moment, self._ptr, k, ctypes.byref(out))
        return out.value

    def lag_correlation(self, k):
        """Lag-k correlation of successive times between batches (k >= 1)."""
        out = ctypes.c_double()
        call(lib.crawlsched_bmap_lag_correlation, self._ptr, k, ctypes.byref(out))
        return out.value
