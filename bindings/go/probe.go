package crawlsched

/*
#include "crawlsched.h"
*/
import "C"

import "runtime"

// ProbeMethod is the planner's algorithm; all give the same optimal cost.
type ProbeMethod int32

const (
	ProbeReference     ProbeMethod = C.CRAWLSCHED_PROBE_METHOD_REFERENCE
	ProbeDivideConquer ProbeMethod = C.CRAWLSCHED_PROBE_METHOD_DIVIDE_CONQUER
	ProbeHull          ProbeMethod = C.CRAWLSCHED_PROBE_METHOD_HULL
	ProbeLagrangian    ProbeMethod = C.CRAWLSCHED_PROBE_METHOD_LAGRANGIAN
)

// ProbePolicy is an online probing policy (§5.2).
type ProbePolicy int32

const (
	ProbeThreshold    ProbePolicy = C.CRAWLSCHED_PROBE_POLICY_THRESHOLD
	ProbeFirstArrival ProbePolicy = C.CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL
)

// PiecewiseConstant is a step function: Values[k] on [Breaks[k],
// Breaks[k+1]) with len(Breaks) = len(Values)+1 starting at 0, repeating
// with period Breaks[len(Values)] if Periodic.
type PiecewiseConstant struct {
	Breaks, Values []float64
	Periodic       bool
}

// ProbeProfile is an update intensity lambda(t) and importance a(t) over
// [0, T] (crawlsched_probe_profile_t). Immutable.
type ProbeProfile struct{ p *C.crawlsched_probe_profile_t }

func wrapProfile(p *C.crawlsched_probe_profile_t, err error) (*ProbeProfile, error) {
	if err != nil {
		return nil, err
	}
	x := &ProbeProfile{p}
	runtime.SetFinalizer(x, (*ProbeProfile).Close)
	return x, nil
}

// NewProbeProfile builds a profile from lambda(t) and a(t) over [0, horizon].
func NewProbeProfile(lambda, a PiecewiseConstant, horizon float64) (*ProbeProfile, error) {
	if len(lambda.Breaks) != len(lambda.Values)+1 {
		return nil, lenErr("lambda.Breaks", len(lambda.Breaks), len(lambda.Values)+1)
	}
	if len(a.Breaks) != len(a.Values)+1 {
		return nil, lenErr("a.Breaks", len(a.Breaks), len(a.Values)+1)
	}
	var e cerr
	var p *C.crawlsched_probe_profile_t
	st := C.crawlsched_probe_profile_new(f64p(lambda.Breaks), f64p(lambda.Values), sz(len(lambda.Values)), cbool(lambda.Periodic),
		f64p(a.Breaks), f64p(a.Values), sz(len(a.Values)), cbool(a.Periodic), C.double(horizon), &p, &e)
	return wrapProfile(p, check(st, &e))
}

// DBWorldProfile is the paper's DBWorld profile (Table 2, days) with
// importance ratio in weekday work hours.
func DBWorldProfile(ratio, horizonDays float64) (*ProbeProfile, error) {
	var e cerr
	var p *C.crawlsched_probe_profile_t
	st := C.crawlsched_probe_profile_dbworld(C.double(ratio), C.double(horizonDays), &p, &e)
	return wrapProfile(p, check(st, &e))
}

// MicroNetProfile is the paper's MicroNet profile (Table 3).
func MicroNetProfile(ratio, horizonDays float64) (*ProbeProfile, error) {
	var e cerr
	var p *C.crawlsched_probe_profile_t
	st := C.crawlsched_probe_profile_micronet(C.double(ratio), C.double(horizonDays), &p, &e)
	return wrapProfile(p, check(st, &e))
}

// Close frees the profile. Idempotent.
func (x *ProbeProfile) Close() error {
	if x != nil && x.p != nil {
		C.crawlsched_probe_profile_free(x.p)
		x.p = nil
		runtime.SetFinalizer(x, nil)
	}
	return nil
}

func (x *ProbeProfile) ptr() (*C.crawlsched_probe_profile_t, error) {
	if x == nil || x.p == nil {
		return nil, closedErr("ProbeProfile")
	}
	return x.p, nil
}

// IntervalCost is C(s, f) of eq. (5).
func (x *ProbeProfile) IntervalCost(s, f float64) (float64, error) {
	p, err := x.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_probe_interval_cost(p, C.double(s), C.double(f), &out, &e)
	runtime.KeepAlive(x)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// ExpectedCost is eq. (6) for sorted probes ending at T.
func (x *ProbeProfile) ExpectedCost(probes []float64) (float64, error) {
	p, err := x.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_probe_expected_cost(p, f64p(probes), sz(len(probes)), &out, &e)
	runtime.KeepAlive(x)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// RealizedCost is eq. (3, 4) of probes on an observed trace of updates.
func (x *ProbeProfile) RealizedCost(probes, updates []float64) (float64, error) {
	p, err := x.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_probe_realized_cost(p, f64p(probes), sz(len(probes)), f64p(updates), sz(len(updates)), &out, &e)
	runtime.KeepAlive(x)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// Uniform is n probes at iT/n.
func (x *ProbeProfile) Uniform(n int) ([]float64, error) {
	p, err := x.ptr()
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, &Error{Status: StatusInvalidArgument, Message: "n is negative"}
	}
	out := make([]float64, n)
	var e cerr
	st := C.crawlsched_probe_uniform(p, C.uint64_t(n), f64p(out), sz(len(out)), &e)
	runtime.KeepAlive(x)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return out, nil
}

// PolicySchedule is the threshold or first-arrival schedule for parameter.
func (x *ProbeProfile) PolicySchedule(policy ProbePolicy, parameter float64) ([]float64, error) {
	p, err := x.ptr()
	if err != nil {
		return nil, err
	}
	var out []float64
	for {
		var e cerr
		var n C.size_t
		st := C.crawlsched_probe_policy_schedule(p, C.int32_t(policy), C.double(parameter), f64p(out), sz(len(out)), &n, &e)
		runtime.KeepAlive(x)
		if st == C.CRAWLSCHED_BUFFER_TOO_SMALL && int(n) > len(out) {
			out = make([]float64, int(n))
			continue
		}
		if err := check(st, &e); err != nil {
			return nil, err
		}
		return out[:int(n)], nil
	}
}

// PolicyWithBudget is the policy schedule with exactly n probes and the
// parameter found by bisection.
func (x *ProbeProfile) PolicyWithBudget(policy ProbePolicy, n int) ([]float64, float64, error) {
	p, err := x.ptr()
	if err != nil {
		return nil, 0, err
	}
	if n < 0 {
		return nil, 0, &Error{Status: StatusInvalidArgument, Message: "n is negative"}
	}
	out := make([]float64, n)
	var e cerr
	var par C.double
	st := C.crawlsched_probe_policy_with_budget(p, C.int32_t(policy), C.uint64_t(n), &par, f64p(out), sz(len(out)), &e)
	runtime.KeepAlive(x)
	if err := check(st, &e); err != nil {
		return nil, 0, err
	}
	return out, float64(par), nil
}

// ImproveParams are Algorithm 10's parameters (the paper: Mu0 0.5,
// MuMin 1/512, Rho 0.5, a small Iota > 0).
type ImproveParams struct {
	Delta, Mu0, MuMin, Rho, Iota float64
}

// Improve is Algorithm 10: greedy moves that never increase the cost;
// it returns the improved probes and the number of moves.
func (x *ProbeProfile) Improve(probes []float64, q ImproveParams) ([]float64, uint64, error) {
	p, err := x.ptr()
	if err != nil {
		return nil, 0, err
	}
	out := make([]float64, len(probes))
	var e cerr
	var moves C.uint64_t
	st := C.crawlsched_probe_improve(p, f64p(probes), sz(len(probes)), C.double(q.Delta), C.double(q.Mu0), C.double(q.MuMin), C.double(q.Rho), C.double(q.Iota),
		f64p(out), sz(len(out)), &moves, &e)
	runtime.KeepAlive(x)
	if err := check(st, &e); err != nil {
		return nil, 0, err
	}
	return out, uint64(moves), nil
}

// EstimateIntensity is the maximum-likelihood intensity per piece of
// breaks (len(breaks)-1 pieces) from sorted update times over [0, window].
func EstimateIntensity(times []float64, window float64, breaks []float64, periodic bool, smoothing float64) ([]float64, error) {
	if len(breaks) < 1 {
		return nil, lenErr("breaks", len(breaks), 2)
	}
	out := make([]float64, len(breaks)-1)
	var e cerr
	st := C.crawlsched_probe_estimate_intensity(f64p(times), sz(len(times)), C.double(window), f64p(breaks), sz(len(breaks)-1), cbool(periodic), C.double(smoothing), f64p(out), sz(len(out)), &e)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return out, nil
}

// ProbePlanner plans optimal probe schedules on a grid of candidate times
// (crawlsched_probe_planner_t). Mutable; the library serialises calls.
type ProbePlanner struct{ p *C.crawlsched_probe_planner_t }

// NewProbePlanner: grid evenly spaced candidates over [0, T] of profile
// (copied), minimum spacing delta >= 0.
func NewProbePlanner(profile *ProbeProfile, grid uint64, delta float64) (*ProbePlanner, error) {
	pp, err := profile.ptr()
	if err != nil {
		return nil, err
	}
	var e cerr
	var p *C.crawlsched_probe_planner_t
	st := C.crawlsched_probe_planner_new(pp, C.uint64_t(grid), C.double(delta), &p, &e)
	runtime.KeepAlive(profile)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	x := &ProbePlanner{p}
	runtime.SetFinalizer(x, (*ProbePlanner).Close)
	return x, nil
}

// Close frees the planner. Idempotent.
func (x *ProbePlanner) Close() error {
	if x != nil && x.p != nil {
		C.crawlsched_probe_planner_free(x.p)
		x.p = nil
		runtime.SetFinalizer(x, nil)
	}
	return nil
}

func (x *ProbePlanner) ptr() (*C.crawlsched_probe_planner_t, error) {
	if x == nil || x.p == nil {
		return nil, closedErr("ProbePlanner")
	}
	return x.p, nil
}

// SetProfile replaces the planner's profile (copied).
func (x *ProbePlanner) SetProfile(profile *ProbeProfile) error {
	p, err := x.ptr()
	if err != nil {
		return err
	}
	pp, err := profile.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_probe_planner_set_profile(p, pp, &e)
	runtime.KeepAlive(x)
	runtime.KeepAlive(profile)
	return check(st, &e)
}

// SetConstraints sets the minimum spacing and allowed windows
// [starts[k], ends[k]] (none: every time allowed).
func (x *ProbePlanner) SetConstraints(delta float64, starts, ends []float64) error {
	p, err := x.ptr()
	if err != nil {
		return err
	}
	if len(starts) != len(ends) {
		return lenErr("ends", len(ends), len(starts))
	}
	var e cerr
	st := C.crawlsched_probe_planner_set_constraints(p, C.double(delta), f64p(starts), f64p(ends), sz(len(starts)), &e)
	runtime.KeepAlive(x)
	return check(st, &e)
}

// Plan is an optimal schedule of exactly n probes and its expected cost.
func (x *ProbePlanner) Plan(n int, method ProbeMethod) ([]float64, float64, error) {
	p, err := x.ptr()
	if err != nil {
		return nil, 0, err
	}
	if n < 0 {
		return nil, 0, &Error{Status: StatusInvalidArgument, Message: "n is negative"}
	}
	out := make([]float64, n)
	var e cerr
	var cost C.double
	st := C.crawlsched_probe_planner_plan(p, C.uint64_t(n), C.int32_t(method), f64p(out), sz(len(out)), &cost, &e)
	runtime.KeepAlive(x)
	if err := check(st, &e); err != nil {
		return nil, 0, err
	}
	return out, float64(cost), nil
}

// AllCosts is the optimal expected cost for every budget 1..maxN.
func (x *ProbePlanner) AllCosts(maxN int) ([]float64, error) {
	p, err := x.ptr()
	if err != nil {
		return nil, err
	}
	if maxN < 0 {
		return nil, &Error{Status: StatusInvalidArgument, Message: "maxN is negative"}
	}
	out := make([]float64, maxN)
	var e cerr
	st := C.crawlsched_probe_planner_all_costs(p, C.uint64_t(maxN), f64p(out), sz(len(out)), &e)
	runtime.KeepAlive(x)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return out, nil
}
