"""crawlsched: scheduling mathematics for web crawlers (Python binding).

A ctypes binding of libcrawlsched's C API with NumPy arrays in and out.
Importing the package loads the library ($CRAWLSCHED_LIB, else a
checkout's target/release, else the system's libcrawlsched.so.2) and
refuses one of another ABI version with ImportError.

Every failure raises a CrawlschedError subclass carrying the library's
``status``, ``status_name`` and ``message``. Handle objects (Dist,
FreshnessModel, Scheduler, ...) own a C handle: use them in ``with``
blocks or call ``close()``; a finalizer frees forgotten ones.

Modules: dist (Dist, BMAP), freshness (FreshnessModel, Estimator,
Scheduler, cyclic sequences, FreshnessShard and MultiplierSearch for
distributed solves), polite (PoliteObjective, PolitePlan, Pick: per-host
politeness), spark (the distributed solve on PySpark), mdp,
robots, threshold, routing, probe.
"""

from ._lib import (
    ABI_VERSION,
    BufferTooSmallError,
    CancelledError,
    CrawlschedError,
    InfeasibleError,
    InternalError,
    InvalidArgumentError,
    NotConvergedError,
    NotFoundError,
    NullArgumentError,
    NumericalError,
    PanicError,
    TooLargeError,
    lib as _lib_handle,
    library_path,
    status_string,
)
from .dist import BMAP, Dist
from .freshness import (
    Estimator,
    FreshnessModel,
    FreshnessShard,
    MultiplierSearch,
    Scheduler,
    bound_ratio,
    combine_summaries,
    combine_sums,
    fibonacci_at_least,
    golden_ratio_sequence,
    integer_counts,
    round_robin_sequence,
    solve_multiplier,
)
from .polite import Pick, PoliteObjective, PolitePlan
from .mdp import MDP, MDPBuilder, MDPSolver
from .robots import Robots
from .limits import Control, default_memory_limit, set_default_memory_limit
from .threshold import ThresholdModel
from .routing import Arrivals, Router, Servers, balanced_sequence
from .probe import Planner, Profile
from . import dist, freshness, limits, mdp, polite, probe, robots, routing, spark, threshold  # noqa: F401


def version():
    """The loaded library's version, "MAJOR.MINOR.PATCH"."""
    return _lib_handle.crawlsched_version().decode()


def abi_version():
    """The loaded library's ABI version (checked at import)."""
    return _lib_handle.crawlsched_abi_version()


def thread_last_error():
    """(status, message) of the last failed call on this OS thread, from
    the C library's thread-local record. The binding itself never relies
    on it (each call passes its own error struct); provided for
    completeness."""
    return _lib_handle.crawlsched_last_error_status(), _lib_handle.crawlsched_last_error_message().decode()


__version__ = "0.2.0"

__all__ = [
    "ABI_VERSION",
    "Arrivals",
    "BMAP",
    "BufferTooSmallError",
    "CancelledError",
    "Control",
    "CrawlschedError",
    "Dist",
    "Estimator",
    "FreshnessModel",
    "FreshnessShard",
    "InfeasibleError",
    "InternalError",
    "InvalidArgumentError",
    "MDP",
    "MDPBuilder",
    "MDPSolver",
    "MultiplierSearch",
    "NotConvergedError",
    "NotFoundError",
    "NullArgumentError",
    "NumericalError",
    "PanicError",
    "Pick",
    "Planner",
    "PoliteObjective",
    "PolitePlan",
    "Profile",
    "Robots",
    "Router",
    "Scheduler",
    "Servers",
    "ThresholdModel",
    "TooLargeError",
    "abi_version",
    "balanced_sequence",
    "default_memory_limit",
    "bound_ratio",
    "combine_summaries",
    "combine_sums",
    "fibonacci_at_least",
    "golden_ratio_sequence",
    "integer_counts",
    "library_path",
    "round_robin_sequence",
    "set_default_memory_limit",
    "solve_multiplier",
    "status_string",
    "thread_last_error",
    "version",
]
