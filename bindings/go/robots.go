package crawlsched

/*
#include "crawlsched.h"
*/
import "C"

import "runtime"

// Robots is the exact optimal dynamic robot-activation policy of one model
// and its measures (crawlsched_robots_t). Immutable.
type Robots struct {
	p    *C.crawlsched_robots_t
	n, k uint64
}

func wrapRobots(p *C.crawlsched_robots_t, err error) (*Robots, error) {
	if err != nil {
		return nil, err
	}
	r := &Robots{p: p}
	runtime.SetFinalizer(r, (*Robots).Close)
	n, k, err := r.Size()
	if err != nil {
		r.Close()
		return nil, err
	}
	r.n, r.k = n, k
	return r, nil
}

// SolveRobots solves the model with n robots, buffer k, per-robot rate
// lambda, service rate mu and starvation weight gamma, under the control c
// (nil: none); an interrupted solve returns ErrCancelled or
// ErrNotConverged and no solution.
func SolveRobots(n, k uint64, lambda, mu, gamma float64, c *Control) (*Robots, error) {
	cp, err := c.optional()
	if err != nil {
		return nil, err
	}
	var e cerr
	var p *C.crawlsched_robots_t
	st := C.crawlsched_robots_solve(C.uint64_t(n), C.uint64_t(k), C.double(lambda), C.double(mu), C.double(gamma), cp, &p, &e)
	runtime.KeepAlive(c)
	return wrapRobots(p, check(st, &e))
}

// SolveRobotsUnlimited lets the optimum choose the number of robots, under
// the control c (nil: none): each N of the doubling search is solved as by
// SolveRobots; an interrupted search returns no solution.
func SolveRobotsUnlimited(k uint64, lambda, mu, gamma float64, c *Control) (*Robots, error) {
	cp, err := c.optional()
	if err != nil {
		return nil, err
	}
	var e cerr
	var p *C.crawlsched_robots_t
	st := C.crawlsched_robots_solve_unlimited(C.uint64_t(k), C.double(lambda), C.double(mu), C.double(gamma), cp, &p, &e)
	runtime.KeepAlive(c)
	return wrapRobots(p, check(st, &e))
}

// Close frees the solution. Idempotent.
func (r *Robots) Close() error {
	if r != nil && r.p != nil {
		C.crawlsched_robots_free(r.p)
		r.p = nil
		runtime.SetFinalizer(r, nil)
	}
	return nil
}

func (r *Robots) ptr() (*C.crawlsched_robots_t, error) {
	if r == nil || r.p == nil {
		return nil, closedErr("Robots")
	}
	return r.p, nil
}

// Size is the model's N (robots) and K (buffer).
func (r *Robots) Size() (n, k uint64, err error) {
	p, err := r.ptr()
	if err != nil {
		return 0, 0, err
	}
	var e cerr
	var cn, ck C.uint64_t
	st := C.crawlsched_robots_size(p, &cn, &ck, &e)
	runtime.KeepAlive(r)
	if err := check(st, &e); err != nil {
		return 0, 0, err
	}
	return uint64(cn), uint64(ck), nil
}

// Cost is the optimal cost C_d, the starvation probability and the loss rate.
func (r *Robots) Cost() (cost, starvation, lossRate float64, err error) {
	p, err := r.ptr()
	if err != nil {
		return 0, 0, 0, err
	}
	var e cerr
	var c, s, l C.double
	st := C.crawlsched_robots_cost(p, &c, &s, &l, &e)
	runtime.KeepAlive(r)
	if err := check(st, &e); err != nil {
		return 0, 0, 0, err
	}
	return float64(c), float64(s), float64(l), nil
}

// Counts are N_min, N-bar and N_max (-1 if never) of Tables 1 and 2.
func (r *Robots) Counts() (nMin uint64, nMean float64, nMax int64, err error) {
	p, err := r.ptr()
	if err != nil {
		return 0, 0, 0, err
	}
	var e cerr
	var a C.uint64_t
	var b C.double
	var c C.int64_t
	st := C.crawlsched_robots_counts(p, &a, &b, &c, &e)
	runtime.KeepAlive(r)
	if err := check(st, &e); err != nil {
		return 0, 0, 0, err
	}
	return uint64(a), float64(b), int64(c), nil
}

// SwitchingCurve is f_s(r), r = 0..N, for event s (0 departure, 1
// arrival), and whether the optimal policy has exactly this form.
func (r *Robots) SwitchingCurve(s int32) ([]int64, bool, error) {
	p, err := r.ptr()
	if err != nil {
		return nil, false, err
	}
	out := make([]int64, r.n+1)
	var e cerr
	var isCurve C.int32_t
	st := C.crawlsched_robots_switching_curve(p, C.int32_t(s), i64p(out), sz(len(out)), &isCurve, &e)
	runtime.KeepAlive(r)
	if err := check(st, &e); err != nil {
		return nil, false, err
	}
	return out, isCurve != 0, nil
}

// Actions is the optimal action (1 = activate a robot) at event (q, r, s),
// s in {0 departure, 1 arrival}, at index (r*(K+1) + q)*2 + s: the policy
// itself, also when it is not a switching curve.
func (r *Robots) Actions() ([]uint8, error) {
	p, err := r.ptr()
	if err != nil {
		return nil, err
	}
	out := make([]uint8, 2*(r.k+1)*(r.n+1))
	var e cerr
	st := C.crawlsched_robots_actions(p, u8p(out), sz(len(out)), &e)
	runtime.KeepAlive(r)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return out, nil
}

// Certificate is the interval [lo, hi] holding the optimal cost and the
// solver's policy-iteration steps.
func (r *Robots) Certificate() (lo, hi float64, iterations uint64, err error) {
	p, err := r.ptr()
	if err != nil {
		return 0, 0, 0, err
	}
	var e cerr
	var l, h C.double
	var it C.uint64_t
	st := C.crawlsched_robots_certificate(p, &l, &h, &it, &e)
	runtime.KeepAlive(r)
	if err := check(st, &e); err != nil {
		return 0, 0, 0, err
	}
	return float64(l), float64(h), uint64(it), nil
}

// Stationary is the stationary probability of state (q, r, s) at index
// (r*(K+1) + q)*3 + s.
func (r *Robots) Stationary() ([]float64, error) {
	p, err := r.ptr()
	if err != nil {
		return nil, err
	}
	out := make([]float64, 3*(r.k+1)*(r.n+1))
	var e cerr
	st := C.crawlsched_robots_stationary(p, f64p(out), sz(len(out)), &e)
	runtime.KeepAlive(r)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return out, nil
}

// EvaluateCurve is the exact cost of the switching-curve policy (f0, f1).
func (r *Robots) EvaluateCurve(f0, f1 []int64) (float64, error) {
	p, err := r.ptr()
	if err != nil {
		return 0, err
	}
	if len(f0) != len(f1) {
		return 0, lenErr("f1", len(f1), len(f0))
	}
	var e cerr
	var c C.double
	st := C.crawlsched_robots_evaluate_curve(p, i64p(f0), i64p(f1), sz(len(f0)), &c, &e)
	runtime.KeepAlive(r)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(c), nil
}

// EvaluateStatic is the exact cost of keeping n robots active.
func (r *Robots) EvaluateStatic(n uint64) (float64, error) {
	p, err := r.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var c C.double
	st := C.crawlsched_robots_evaluate_static(p, C.uint64_t(n), &c, &e)
	runtime.KeepAlive(r)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(c), nil
}

// RobotsStaticCost is C_s(rho, gamma, K) of eq. (9).
func RobotsStaticCost(rho, gamma float64, k uint64, mu float64) (float64, error) {
	var e cerr
	var c C.double
	st := C.crawlsched_robots_static_cost(C.double(rho), C.double(gamma), C.uint64_t(k), C.double(mu), &c, &e)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(c), nil
}

// RobotsOptimalStatic is Proposition 3: the best static number of robots
// and its cost.
func RobotsOptimalStatic(lambda, mu, gamma float64, k uint64) (uint64, float64, error) {
	var e cerr
	var n C.uint64_t
	var c C.double
	st := C.crawlsched_robots_optimal_static(C.double(lambda), C.double(mu), C.double(gamma), C.uint64_t(k), &n, &c, &e)
	if err := check(st, &e); err != nil {
		return 0, 0, err
	}
	return uint64(n), float64(c), nil
}
