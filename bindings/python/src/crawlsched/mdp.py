"""A sparse average-cost / discounted MDP solver (Talim, Liu, Nain,
Coffman): build with ``MDPBuilder``, solve with ``MDPSolver``."""

import ctypes
from collections import namedtuple

import numpy as np

from . import _ffi
from ._lib import Handle, InvalidArgumentError, array, call, lib, ptr, uints
from .dist import choice
from .limits import _ptr_of

METHODS = {
    "relative_value_iteration": _ffi.CRAWLSCHED_MDP_RELATIVE_VALUE_ITERATION,
    "value_iteration": _ffi.CRAWLSCHED_MDP_VALUE_ITERATION,
    "gauss_seidel": _ffi.CRAWLSCHED_MDP_GAUSS_SEIDEL,
    "policy_iteration": _ffi.CRAWLSCHED_MDP_POLICY_ITERATION,
}
CRITERIA = {"average": _ffi.CRAWLSCHED_MDP_AVERAGE, "discounted": _ffi.CRAWLSCHED_MDP_DISCOUNTED}
STOPPING = {"span": _ffi.CRAWLSCHED_MDP_STOP_SPAN, "relative_change": _ffi.CRAWLSCHED_MDP_STOP_RELATIVE_CHANGE}

MDPSize = namedtuple("MDPSize", "states actions transitions")
Gain = namedtuple("Gain", "gain lo hi")
SolverStats = namedtuple("SolverStats", "iterations converged recurrent_classes")


class MDPBuilder(Handle):
    """An MDP under construction (``crawlsched_mdp_builder_t``): add
    actions in any order, then ``build()``."""

    _free = lib.crawlsched_mdp_builder_free
    _kind = "MDP builder"

    def __init__(self, n_states):
        out = ctypes.c_void_p()
        call(lib.crawlsched_mdp_builder_new, n_states, ctypes.byref(out))
        self._own(out.value)

    def add_action(self, state, next_states, probs, cost):
        """Adds an action to ``state``: to next_states[i] with probability
        probs[i], at one-step cost ``cost``. Returns its index in the state."""
        nx, p = uints(next_states, np.uint32, "next_states"), array(probs, name="probs")
        if nx.size != p.size:
            raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT, "next_states and probs must have the same length")
        out = ctypes.c_uint32()
        call(lib.crawlsched_mdp_builder_add_action, self._ptr, state, ptr(nx), ptr(p), nx.size, cost, ctypes.byref(out))
        return out.value

    def build(self):
        """The finished MDP; the builder is emptied."""
        return MDP._new(lib.crawlsched_mdp_build, self._ptr)


class MDP(Handle):
    """A finished sparse MDP (``crawlsched_mdp_t``). Immutable."""

    _free = lib.crawlsched_mdp_free
    _kind = "MDP"

    def size(self):
        """(states, actions, transitions)."""
        s, a, t = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_uint64()
        call(lib.crawlsched_mdp_size, self._ptr, ctypes.byref(s), ctypes.byref(a), ctypes.byref(t))
        return MDPSize(s.value, a.value, t.value)


class MDPSolver(Handle):
    """Solver settings and its last result (``crawlsched_mdp_solver_t``).
    Defaults: average cost, tolerance 1e-9, 100000 iterations, span
    stopping, automatic aperiodicity transform."""

    _free = lib.crawlsched_mdp_solver_free
    _kind = "MDP solver"

    def __init__(self, method="relative_value_iteration"):
        out = ctypes.c_void_p()
        call(lib.crawlsched_mdp_solver_new, choice(method, METHODS, "method"), ctypes.byref(out))
        self._own(out.value)

    def set_limits(self, tolerance, max_iterations, stopping="span"):
        """Tolerance > 0, iteration limit >= 1, stopping "span" or
        "relative_change"."""
        call(lib.crawlsched_mdp_solver_set_limits, self._ptr, tolerance, max_iterations,
             choice(stopping, STOPPING, "stopping"))

    def set_criterion(self, criterion="average", discount=0.0, tau=0.0):
        """"average" or "discounted" (discount in [0, 1)); tau in (0, 1] or
        0 for automatic."""
        call(lib.crawlsched_mdp_solver_set_criterion, self._ptr, choice(criterion, CRITERIA, "criterion"),
             discount, tau)

    def set_control(self, control):
        """Attaches a ``Control`` (None: detach) to later runs: its memory
        cap, iteration cap and cancel flag apply to ``run``."""
        call(lib.crawlsched_mdp_solver_set_control, self._ptr, _ptr_of(control))

    def run(self, mdp):
        """Solves ``mdp``. NotConvergedError when the iteration limit was
        reached, CancelledError when the attached control was cancelled;
        in both cases the best answer so far stays readable."""
        call(lib.crawlsched_mdp_solver_run, self._ptr, mdp._ptr)

    def size(self):
        """Number of states of the last run's MDP (NotFoundError before
        a run)."""
        out = ctypes.c_uint64()
        call(lib.crawlsched_mdp_solver_size, self._ptr, ctypes.byref(out))
        return out.value

    def gain(self):
        """(gain, lo, hi): the optimal average cost lies in [lo, hi]."""
        g, lo, hi = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
        call(lib.crawlsched_mdp_solver_gain, self._ptr, ctypes.byref(g), ctypes.byref(lo), ctypes.byref(hi))
        return Gain(g.value, lo.value, hi.value)

    def stats(self):
        """(iterations, converged, recurrent_classes) of the last run."""
        it, conv, rc = ctypes.c_uint64(), ctypes.c_int32(), ctypes.c_uint64()
        call(lib.crawlsched_mdp_solver_stats, self._ptr, ctypes.byref(it), ctypes.byref(conv), ctypes.byref(rc))
        return SolverStats(it.value, conv.value != 0, rc.value)

    def tau(self):
        """The aperiodicity transform the last run used: the one set with
        set_criterion, or the automatic choice; 1 when the run used none
        (policy iteration's exact evaluation, the discounted criterion)."""
        out = ctypes.c_double()
        call(lib.crawlsched_mdp_solver_tau, self._ptr, ctypes.byref(out))
        return out.value

    def policy(self):
        """The last run's action index per state (uint32 array)."""
        out = np.empty(self.size(), dtype=np.uint32)
        call(lib.crawlsched_mdp_solver_policy, self._ptr, ptr(out), out.size)
        return out

    def values(self):
        """The last run's bias (average cost) or values (discounted)."""
        out = np.empty(self.size(), dtype=np.float64)
        call(lib.crawlsched_mdp_solver_values, self._ptr, ptr(out), out.size)
        return out
