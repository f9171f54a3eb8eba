"""Memory caps, iteration caps and cancellation of long computations
(``crawlsched_control_t``; docs/c-api.md, "Limits and cancellation")."""

import ctypes

from ._lib import Handle, call, lib


def set_default_memory_limit(nbytes):
    """Process-wide memory cap in bytes for every computation without a
    control of its own (0: unlimited)."""
    lib.crawlsched_set_default_memory_limit(int(nbytes))


def default_memory_limit():
    """The process-wide memory cap in bytes (0: unlimited)."""
    return lib.crawlsched_get_default_memory_limit()


class Control(Handle):
    """A memory cap, an iteration cap and a cancel flag for the
    computations it is attached to (``MDPSolver.set_control``,
    ``Robots.solve(..., control=)``, ``ThresholdModel.optimize(...,
    control=)``). Thread-safe: ``cancel()`` may be called from another
    thread while a computation runs."""

    _free = lib.crawlsched_control_free
    _kind = "control"

    def __init__(self, memory_limit=None, max_iterations=None):
        out = ctypes.c_void_p()
        call(lib.crawlsched_control_new, ctypes.byref(out))
        self._own(out.value)
        if memory_limit is not None:
            self.set_memory_limit(memory_limit)
        if max_iterations is not None:
            self.set_max_iterations(max_iterations)

    def set_memory_limit(self, nbytes):
        """Cap in bytes; 0 returns to the process-wide default,
        2**64 - 1 means unlimited."""
        call(lib.crawlsched_control_set_memory_limit, self._ptr, int(nbytes))

    def set_max_iterations(self, n):
        """Iteration cap (0: none); it lowers, never raises, a
        computation's own limit."""
        call(lib.crawlsched_control_set_max_iterations, self._ptr, int(n))

    def cancel(self):
        """Raises the cancel flag (callable from any thread)."""
        call(lib.crawlsched_control_cancel, self._ptr)

    def reset(self):
        """Clears the cancel flag; limits are kept."""
        call(lib.crawlsched_control_reset, self._ptr)

    @property
    def cancelled(self):
        """Whether the control was cancelled since its last reset."""
        out = ctypes.c_int32()
        call(lib.crawlsched_control_is_cancelled, self._ptr, ctypes.byref(out))
        return out.value != 0


def _ptr_of(control):
    """The C pointer of an optional Control (None: NULL)."""
    return None if control is None else control._ptr
