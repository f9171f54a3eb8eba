package crawlsched

/*
#include "crawlsched.h"

// The per-request calls neither keep their pointers nor call back into Go.
#cgo noescape crawlsched_routing_router_next
#cgo nocallback crawlsched_routing_router_next
#cgo noescape crawlsched_routing_router_next_batch
#cgo nocallback crawlsched_routing_router_next_batch
*/
import "C"

import "runtime"

// RoutingObjective is what a server set minimises.
type RoutingObjective int32

const (
	// RoutingLosses: expected weighted packets lost per packet (§5).
	RoutingLosses RoutingObjective = C.CRAWLSCHED_ROUTING_LOSSES
	// RoutingRobot: robot scheduling, weighted stale time (§6, Remark 6.1).
	RoutingRobot RoutingObjective = C.CRAWLSCHED_ROUTING_ROBOT
)

// Arrivals is a stationary single-arrival process: Poisson, MMPP or MAP
// (crawlsched_routing_arrivals_t). Immutable.
type Arrivals struct {
	p *C.crawlsched_routing_arrivals_t
}

func wrapArrivals(p *C.crawlsched_routing_arrivals_t, err error) (*Arrivals, error) {
	if err != nil {
		return nil, err
	}
	a := &Arrivals{p}
	runtime.SetFinalizer(a, (*Arrivals).Close)
	return a, nil
}

// NewPoissonArrivals is Poisson arrivals of rate > 0.
func NewPoissonArrivals(rate float64) (*Arrivals, error) {
	var e cerr
	var p *C.crawlsched_routing_arrivals_t
	st := C.crawlsched_routing_arrivals_poisson_new(C.double(rate), &p, &e)
	return wrapArrivals(p, check(st, &e))
}

// NewMMPPArrivals is an MMPP with phase generator q (n x n row-major) and
// arrival rates per phase.
func NewMMPPArrivals(q, rates []float64) (*Arrivals, error) {
	var e cerr
	var p *C.crawlsched_routing_arrivals_t
	st := C.crawlsched_routing_arrivals_mmpp_new(f64p(q), sz(len(q)), f64p(rates), sz(len(rates)), &p, &e)
	return wrapArrivals(p, check(st, &e))
}

// NewMAPArrivals is a MAP of order n with matrices d0 and d1 (n x n).
func NewMAPArrivals(n int, d0, d1 []float64) (*Arrivals, error) {
	var e cerr
	var p *C.crawlsched_routing_arrivals_t
	st := C.crawlsched_routing_arrivals_map_new(sz(n), f64p(d0), sz(len(d0)), f64p(d1), sz(len(d1)), &p, &e)
	return wrapArrivals(p, check(st, &e))
}

// Close frees the process. Idempotent.
func (a *Arrivals) Close() error {
	if a != nil && a.p != nil {
		C.crawlsched_routing_arrivals_free(a.p)
		a.p = nil
		runtime.SetFinalizer(a, nil)
	}
	return nil
}

func (a *Arrivals) ptr() (*C.crawlsched_routing_arrivals_t, error) {
	if a == nil || a.p == nil {
		return nil, closedErr("Arrivals")
	}
	return a.p, nil
}

// Rate is the mean arrival rate lambda.
func (a *Arrivals) Rate() (float64, error) {
	p, err := a.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_routing_arrivals_rate(p, &out, &e)
	runtime.KeepAlive(a)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// Transform is E exp(-mu (tau_1 + ... + tau_k)) (Lemma 5.2).
func (a *Arrivals) Transform(mu float64, k uint32) (float64, error) {
	p, err := a.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_routing_arrivals_transform(p, C.double(mu), C.uint32_t(k), &out, &e)
	runtime.KeepAlive(a)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// Servers is M exponential servers fed by one arrival process, with an
// objective (crawlsched_routing_servers_t). Immutable.
type Servers struct {
	p *C.crawlsched_routing_servers_t
}

// NewServers: service rates > 0, weights > 0 (nil: all 1). arrivals is copied.
func NewServers(arrivals *Arrivals, rates, weights []float64, objective RoutingObjective) (*Servers, error) {
	ap, err := arrivals.ptr()
	if err != nil {
		return nil, err
	}
	if weights != nil && len(weights) != len(rates) {
		return nil, lenErr("weights", len(weights), len(rates))
	}
	var e cerr
	var p *C.crawlsched_routing_servers_t
	st := C.crawlsched_routing_servers_new(ap, f64p(rates), f64p(weights), sz(len(rates)), C.int32_t(objective), &p, &e)
	runtime.KeepAlive(arrivals)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	s := &Servers{p}
	runtime.SetFinalizer(s, (*Servers).Close)
	return s, nil
}

// Close frees the server set. Idempotent.
func (s *Servers) Close() error {
	if s != nil && s.p != nil {
		C.crawlsched_routing_servers_free(s.p)
		s.p = nil
		runtime.SetFinalizer(s, nil)
	}
	return nil
}

func (s *Servers) ptr() (*C.crawlsched_routing_servers_t, error) {
	if s == nil || s.p == nil {
		return nil, closedErr("Servers")
	}
	return s.p, nil
}

// Len is the number of servers M.
func (s *Servers) Len() (int, error) {
	p, err := s.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.size_t
	st := C.crawlsched_routing_servers_len(p, &out, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return int(out), nil
}

// ImmediateCost is f_m(k) of routing to server m after k arrivals.
func (s *Servers) ImmediateCost(server, k uint32) (float64, error) {
	p, err := s.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_routing_immediate_cost(p, C.uint32_t(server), C.uint32_t(k), &out, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// Cost is the exact cost of repeating seq forever: per packet and per unit time.
func (s *Servers) Cost(seq []uint32) (perPacket, perUnitTime float64, err error) {
	p, err := s.ptr()
	if err != nil {
		return 0, 0, err
	}
	var e cerr
	var a, b C.double
	st := C.crawlsched_routing_cost(p, u32p(seq), sz(len(seq)), &a, &b, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, 0, err
	}
	return float64(a), float64(b), nil
}

// RoutingPlan is an optimised period: the sequence of servers, its cost
// per packet and the number of sequences (or neighbours) evaluated.
type RoutingPlan struct {
	Period      []uint32
	Cost        float64
	Evaluations uint64
}

type optFn func(out *C.uint32_t, cp C.size_t, n *C.size_t, cost *C.double, ev *C.uint64_t, e *cerr) C.crawlsched_status_t

func (s *Servers) optimize(guess int, f optFn) (RoutingPlan, error) {
	var cost C.double
	var ev C.uint64_t
	period, err := variableU32(guess, func(out []uint32, n *C.size_t, e *cerr) C.crawlsched_status_t {
		return f(u32p(out), sz(len(out)), n, &cost, &ev, e)
	})
	runtime.KeepAlive(s)
	if err != nil {
		return RoutingPlan{}, err
	}
	return RoutingPlan{period, float64(cost), uint64(ev)}, nil
}

func guessPeriod(maxPeriod uint64) int {
	if maxPeriod > 1<<20 {
		return 0
	}
	return int(maxPeriod)
}

// OptimizeExhaustive is the exact optimal period over lengths
// minPeriod..=maxPeriod by enumeration, under the control c (nil: none):
// its iteration cap counts the sequences evaluated (ErrNotConverged when
// reached), and cancelling it gives ErrCancelled; no plan either way.
func (s *Servers) OptimizeExhaustive(minPeriod, maxPeriod uint64, c *Control) (RoutingPlan, error) {
	p, err := s.ptr()
	if err != nil {
		return RoutingPlan{}, err
	}
	cp, err := c.optional()
	if err != nil {
		return RoutingPlan{}, err
	}
	defer runtime.KeepAlive(c)
	return s.optimize(guessPeriod(maxPeriod), func(o *C.uint32_t, n0 C.size_t, n *C.size_t, cost *C.double, ev *C.uint64_t, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_routing_optimize_exhaustive(p, C.uint64_t(minPeriod), C.uint64_t(maxPeriod), cp, o, n0, n, cost, ev, e)
	})
}

// OptimizeLocal is local search from balanced sequences of each length,
// under the control c (nil: none): its iteration cap counts neighbourhood
// scans of all periods together.
func (s *Servers) OptimizeLocal(minPeriod, maxPeriod uint64, c *Control) (RoutingPlan, error) {
	p, err := s.ptr()
	if err != nil {
		return RoutingPlan{}, err
	}
	cp, err := c.optional()
	if err != nil {
		return RoutingPlan{}, err
	}
	defer runtime.KeepAlive(c)
	return s.optimize(guessPeriod(maxPeriod), func(o *C.uint32_t, n0 C.size_t, n *C.size_t, cost *C.double, ev *C.uint64_t, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_routing_optimize_local(p, C.uint64_t(minPeriod), C.uint64_t(maxPeriod), cp, o, n0, n, cost, ev, e)
	})
}

// LocalSearchMultimodular is the full Theorem 4.2 neighbourhood search from
// seq (M = 2, len <= 20): optimal among periods of that length; under the
// control c (nil: none) as OptimizeLocal.
func (s *Servers) LocalSearchMultimodular(seq []uint32, c *Control) (RoutingPlan, error) {
	p, err := s.ptr()
	if err != nil {
		return RoutingPlan{}, err
	}
	cp, err := c.optional()
	if err != nil {
		return RoutingPlan{}, err
	}
	defer runtime.KeepAlive(c)
	return s.optimize(len(seq), func(o *C.uint32_t, n0 C.size_t, n *C.size_t, cost *C.double, ev *C.uint64_t, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_routing_local_search_multimodular(p, u32p(seq), sz(len(seq)), cp, o, n0, n, cost, ev, e)
	})
}

// RoutingSimulation is a Monte Carlo estimate of a period's cost.
type RoutingSimulation struct {
	PerPacket, StdError, PerUnitTime float64
}

// Simulate runs `periods` repetitions of seq (seeded), under the control c
// (nil: none): cancelling it stops the run with ErrCancelled and no
// estimate.
func (s *Servers) Simulate(seq []uint32, periods, seed uint64, c *Control) (RoutingSimulation, error) {
	p, err := s.ptr()
	if err != nil {
		return RoutingSimulation{}, err
	}
	cp, err := c.optional()
	if err != nil {
		return RoutingSimulation{}, err
	}
	var e cerr
	var a, b, d C.double
	st := C.crawlsched_routing_simulate(p, u32p(seq), sz(len(seq)), C.uint64_t(periods), C.uint64_t(seed), cp, &a, &b, &d, &e)
	runtime.KeepAlive(s)
	runtime.KeepAlive(c)
	if err := check(st, &e); err != nil {
		return RoutingSimulation{}, err
	}
	return RoutingSimulation{float64(a), float64(b), float64(d)}, nil
}

// TwoServerCost is g(n, mu2) of §5 (Figure 1).
func TwoServerCost(n uint32, mu2 float64) (float64, error) {
	var e cerr
	var out C.double
	st := C.crawlsched_routing_two_server_cost(C.uint32_t(n), C.double(mu2), &out, &e)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// SwitchPoint is the mu2 where Figure 1's optimal period grows from n to n+1.
func SwitchPoint(n uint32) (float64, error) {
	var e cerr
	var out C.double
	st := C.crawlsched_routing_switch_point(C.uint32_t(n), &out, &e)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// Router streams a repeating period: Next gives the server for each request
// (crawlsched_routing_router_t). Lock-free and shareable.
type Router struct {
	p *C.crawlsched_routing_router_t
}

// NewRouter repeats seq (indices < servers).
func NewRouter(seq []uint32, servers uint32) (*Router, error) {
	var e cerr
	var p *C.crawlsched_routing_router_t
	st := C.crawlsched_routing_router_new(u32p(seq), sz(len(seq)), C.uint32_t(servers), &p, &e)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	r := &Router{p}
	runtime.SetFinalizer(r, (*Router).Close)
	return r, nil
}

// Close frees the router. Idempotent.
func (r *Router) Close() error {
	if r != nil && r.p != nil {
		C.crawlsched_routing_router_free(r.p)
		r.p = nil
		runtime.SetFinalizer(r, nil)
	}
	return nil
}

func (r *Router) ptr() (*C.crawlsched_routing_router_t, error) {
	if r == nil || r.p == nil {
		return nil, closedErr("Router")
	}
	return r.p, nil
}

// Next is the server for the next request.
func (r *Router) Next() (uint32, error) {
	p, err := r.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.uint32_t
	st := C.crawlsched_routing_router_next(p, &out, &e)
	runtime.KeepAlive(r)
	if st != C.CRAWLSCHED_OK {
		return 0, check(st, &e)
	}
	return uint32(out), nil
}

// NextBatch fills out with the servers of the next len(out) requests (one
// contiguous block of the stream).
func (r *Router) NextBatch(out []uint32) error {
	p, err := r.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_routing_router_next_batch(p, u32p(out), sz(len(out)), &e)
	runtime.KeepAlive(r)
	return check(st, &e)
}
