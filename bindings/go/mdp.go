package crawlsched

/*
#include "crawlsched.h"
*/
import "C"

import (
	"runtime"
)

// MDPMethod is a solution method (CRAWLSCHED_MDP_*).
type MDPMethod int32

const (
	RelativeValueIteration MDPMethod = C.CRAWLSCHED_MDP_RELATIVE_VALUE_ITERATION
	ValueIteration         MDPMethod = C.CRAWLSCHED_MDP_VALUE_ITERATION
	GaussSeidel            MDPMethod = C.CRAWLSCHED_MDP_GAUSS_SEIDEL
	PolicyIteration        MDPMethod = C.CRAWLSCHED_MDP_POLICY_ITERATION
)

// MDPCriterion is the optimisation criterion.
type MDPCriterion int32

const (
	Average    MDPCriterion = C.CRAWLSCHED_MDP_AVERAGE
	Discounted MDPCriterion = C.CRAWLSCHED_MDP_DISCOUNTED
)

// MDPStopping is the stopping rule.
type MDPStopping int32

const (
	StopSpan           MDPStopping = C.CRAWLSCHED_MDP_STOP_SPAN
	StopRelativeChange MDPStopping = C.CRAWLSCHED_MDP_STOP_RELATIVE_CHANGE
)

// MDPBuilder collects (state, action) rows (crawlsched_mdp_builder_t).
// Mutable; the library serialises calls.
type MDPBuilder struct{ p *C.crawlsched_mdp_builder_t }

// NewMDPBuilder starts an MDP with nStates states and no action.
func NewMDPBuilder(nStates int) (*MDPBuilder, error) {
	var e cerr
	var p *C.crawlsched_mdp_builder_t
	st := C.crawlsched_mdp_builder_new(sz(nStates), &p, &e)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	b := &MDPBuilder{p}
	runtime.SetFinalizer(b, (*MDPBuilder).Close)
	return b, nil
}

// Close frees the builder. Idempotent.
func (b *MDPBuilder) Close() error {
	if b != nil && b.p != nil {
		C.crawlsched_mdp_builder_free(b.p)
		b.p = nil
		runtime.SetFinalizer(b, nil)
	}
	return nil
}

func (b *MDPBuilder) ptr() (*C.crawlsched_mdp_builder_t, error) {
	if b == nil || b.p == nil {
		return nil, closedErr("MDPBuilder")
	}
	return b.p, nil
}

// AddAction adds an action to state moving to next[i] with probability
// prob[i] at one-step cost; it returns the action's index in the state.
func (b *MDPBuilder) AddAction(state uint32, next []uint32, prob []float64, cost float64) (uint32, error) {
	p, err := b.ptr()
	if err != nil {
		return 0, err
	}
	if len(next) != len(prob) {
		return 0, lenErr("prob", len(prob), len(next))
	}
	var e cerr
	var out C.uint32_t
	st := C.crawlsched_mdp_builder_add_action(p, C.uint32_t(state), u32p(next), f64p(prob), sz(len(next)), C.double(cost), &out, &e)
	runtime.KeepAlive(b)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return uint32(out), nil
}

// Build finishes the MDP; the builder is emptied (close it as usual).
func (b *MDPBuilder) Build() (*MDP, error) {
	p, err := b.ptr()
	if err != nil {
		return nil, err
	}
	var e cerr
	var m *C.crawlsched_mdp_t
	st := C.crawlsched_mdp_build(p, &m, &e)
	runtime.KeepAlive(b)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	x := &MDP{m}
	runtime.SetFinalizer(x, (*MDP).Close)
	return x, nil
}

// MDP is a finished sparse MDP (crawlsched_mdp_t). Immutable.
type MDP struct{ p *C.crawlsched_mdp_t }

// Close frees the MDP. Idempotent.
func (m *MDP) Close() error {
	if m != nil && m.p != nil {
		C.crawlsched_mdp_free(m.p)
		m.p = nil
		runtime.SetFinalizer(m, nil)
	}
	return nil
}

func (m *MDP) ptr() (*C.crawlsched_mdp_t, error) {
	if m == nil || m.p == nil {
		return nil, closedErr("MDP")
	}
	return m.p, nil
}

// Size is the numbers of states, (state, action) pairs and transitions.
func (m *MDP) Size() (states, actions, transitions uint64, err error) {
	p, err := m.ptr()
	if err != nil {
		return 0, 0, 0, err
	}
	var e cerr
	var s, a, t C.uint64_t
	st := C.crawlsched_mdp_size(p, &s, &a, &t, &e)
	runtime.KeepAlive(m)
	if err := check(st, &e); err != nil {
		return 0, 0, 0, err
	}
	return uint64(s), uint64(a), uint64(t), nil
}

// MDPSolver holds solver settings and its last result
// (crawlsched_mdp_solver_t). Mutable; the library serialises calls.
type MDPSolver struct{ p *C.crawlsched_mdp_solver_t }

// NewMDPSolver is a solver with the defaults (average cost, tolerance
// 1e-9, 100000 iterations, automatic aperiodicity, span stopping).
func NewMDPSolver(method MDPMethod) (*MDPSolver, error) {
	var e cerr
	var p *C.crawlsched_mdp_solver_t
	st := C.crawlsched_mdp_solver_new(C.int32_t(method), &p, &e)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	s := &MDPSolver{p: p}
	runtime.SetFinalizer(s, (*MDPSolver).Close)
	return s, nil
}

// Close frees the solver. Idempotent.
func (s *MDPSolver) Close() error {
	if s != nil && s.p != nil {
		C.crawlsched_mdp_solver_free(s.p)
		s.p = nil
		runtime.SetFinalizer(s, nil)
	}
	return nil
}

func (s *MDPSolver) ptr() (*C.crawlsched_mdp_solver_t, error) {
	if s == nil || s.p == nil {
		return nil, closedErr("MDPSolver")
	}
	return s.p, nil
}

// SetLimits sets the tolerance, iteration limit and stopping rule.
func (s *MDPSolver) SetLimits(tolerance float64, maxIterations uint64, stopping MDPStopping) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_mdp_solver_set_limits(p, C.double(tolerance), C.uint64_t(maxIterations), C.int32_t(stopping), &e)
	runtime.KeepAlive(s)
	return check(st, &e)
}

// SetCriterion sets the criterion, discount (Discounted only) and the
// aperiodicity transform tau (0: automatic).
func (s *MDPSolver) SetCriterion(criterion MDPCriterion, discount, tau float64) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_mdp_solver_set_criterion(p, C.int32_t(criterion), C.double(discount), C.double(tau), &e)
	runtime.KeepAlive(s)
	return check(st, &e)
}

// Run solves mdp. ErrNotConverged and ErrCancelled (see SetControl) leave
// the best answer so far readable, with Stats().Converged false.
func (s *MDPSolver) Run(mdp *MDP) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	mp, err := mdp.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_mdp_solver_run(p, mp, &e)
	runtime.KeepAlive(s)
	runtime.KeepAlive(mdp)
	return check(st, &e)
}

// Gain is the last run's gain and its certificate interval [lo, hi]
// (discounted: gain 0 and the bounds on v* - values).
func (s *MDPSolver) Gain() (gain, lo, hi float64, err error) {
	p, err := s.ptr()
	if err != nil {
		return 0, 0, 0, err
	}
	var e cerr
	var g, l, h C.double
	st := C.crawlsched_mdp_solver_gain(p, &g, &l, &h, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, 0, 0, err
	}
	return float64(g), float64(l), float64(h), nil
}

// Size is the number of states of the last run's MDP (the length of
// Policy and Values); ErrNotFound before a readable run.
func (s *MDPSolver) Size() (int, error) {
	p, err := s.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var n C.uint64_t
	st := C.crawlsched_mdp_solver_size(p, &n, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return int(n), nil
}

// MDPStats are the last run's statistics.
type MDPStats struct {
	Iterations       uint64
	Converged        bool
	RecurrentClasses uint64
}

// Stats is the last run's iterations, convergence and recurrent classes.
func (s *MDPSolver) Stats() (MDPStats, error) {
	p, err := s.ptr()
	if err != nil {
		return MDPStats{}, err
	}
	var e cerr
	var it, rc C.uint64_t
	var conv C.int32_t
	st := C.crawlsched_mdp_solver_stats(p, &it, &conv, &rc, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return MDPStats{}, err
	}
	return MDPStats{uint64(it), conv != 0, uint64(rc)}, nil
}

// Tau is the aperiodicity transform the last run used: the one set with
// SetCriterion, or the automatic choice; 1 when the run used none (policy
// iteration's exact evaluation, the discounted criterion).
func (s *MDPSolver) Tau() (float64, error) {
	p, err := s.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var t C.double
	st := C.crawlsched_mdp_solver_tau(p, &t, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(t), nil
}

// Policy is the last run's action index per state.
func (s *MDPSolver) Policy() ([]uint32, error) {
	p, err := s.ptr()
	if err != nil {
		return nil, err
	}
	n, err := s.Size()
	if err != nil {
		return nil, err
	}
	out := make([]uint32, n)
	var e cerr
	st := C.crawlsched_mdp_solver_policy(p, u32p(out), sz(len(out)), &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return out, nil
}

// Values is the last run's bias (average cost) or values (discounted).
func (s *MDPSolver) Values() ([]float64, error) {
	p, err := s.ptr()
	if err != nil {
		return nil, err
	}
	n, err := s.Size()
	if err != nil {
		return nil, err
	}
	out := make([]float64, n)
	var e cerr
	st := C.crawlsched_mdp_solver_values(p, f64p(out), sz(len(out)), &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return out, nil
}
