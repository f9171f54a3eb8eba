"""Per-host politeness: the objective of the polite plan, the plan itself
and the scheduler's pick on the caller's clock (the plan is
``FreshnessModel.polite_frequencies``; hosts and delays are methods of
``Scheduler``)."""

import enum
from collections import namedtuple

from . import _ffi
from ._lib import InvalidArgumentError


class PoliteObjective(str, enum.Enum):
    """What a polite plan minimises. A ``str`` enum: the plain strings
    ``"evenly_spaced"`` and ``"randomized"`` (and the C constants
    ``crawlsched._ffi.CRAWLSCHED_POLITE_*``) are accepted wherever a
    member is."""

    EVENLY_SPACED = "evenly_spaced"
    """The evenly spaced bound (Theorem 3.3, eqs. 8-9), as
    ``optimal_frequencies``."""
    RANDOMIZED = "randomized"
    """The randomized policy's cost (eq. 15), as
    ``randomized_optimal_frequencies``."""

    @property
    def _code(self):
        return _CODES[self]

    @classmethod
    def _of(cls, value):
        """A member from itself, its string or its C constant."""
        for member, code in _CODES.items():
            if isinstance(value, int) and not isinstance(value, bool) and value == code:
                return member
        try:
            return cls(value)
        except ValueError:
            names = ", ".join(repr(m.value) for m in cls)
            raise InvalidArgumentError(
                _ffi.CRAWLSCHED_INVALID_ARGUMENT, f"objective must be one of {names}, got {value!r}"
            ) from None


_CODES = {
    PoliteObjective.EVENLY_SPACED: _ffi.CRAWLSCHED_POLITE_EVENLY_SPACED,
    PoliteObjective.RANDOMIZED: _ffi.CRAWLSCHED_POLITE_RANDOMIZED,
}


class PolitePlan(
    namedtuple("PolitePlan", "frequencies saturated ln_host_multipliers ln_multiplier objective crawl_rate")
):
    """The optimal plan under per-host caps.

    - ``frequencies``: float64 array, one share of the crawls per page in
      input order (summing to 1, or to ``crawl_rate`` E[X] < 1 with slack);
    - ``saturated``: bool array per host, True where its cap binds (the
      host gets exactly ``max_rates[h] / crawl_rate`` of the crawls);
    - ``ln_host_multipliers``: float64 array per host, ln of the multiplier
      its pages are solved at (``ln_multiplier`` where not saturated);
    - ``ln_multiplier``: ln of the budget's multiplier, ``-inf`` with slack;
    - ``objective``: sum c_i r_i at the plan under the chosen objective;
    - ``crawl_rate``: crawls per unit time the plan spends: 1/E[X], or
      ``sum(max_rates)`` with slack.
    """

    __slots__ = ()


class Pick(namedtuple("Pick", "ready page_id wait")):
    """What ``Scheduler.next_at(now)`` says: ``ready`` and the
    ``page_id`` to crawl now (``wait`` = 0.0), or not ready (``page_id`` =
    0) and the ``wait`` after which a host is. A tuple, so
    ``ready, page_id, wait = s.next_at(now)`` works; ``bool(pick)`` is
    True (a non-empty tuple): test ``pick.ready``."""

    __slots__ = ()
