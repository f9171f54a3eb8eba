package crawlsched

/*
#include "crawlsched.h"
*/
import "C"

import "runtime"

// FreshnessModel is N pages (change rates, cost weights) and the access-time
// distribution (crawlsched_freshness_model_t). Immutable: safe for
// concurrent use.
type FreshnessModel struct {
	p *C.crawlsched_freshness_model_t
	n int
}

// NewFreshnessModel builds a model: page i changes at rate changeRates[i]
// and weighs weights[i]; weights may be nil (c_i = change rate, Theorem
// 3.4). access is copied and may be closed afterwards.
func NewFreshnessModel(access *Dist, changeRates, weights []float64) (*FreshnessModel, error) {
	ap, err := access.ptr()
	if err != nil {
		return nil, err
	}
	if weights != nil && len(weights) != len(changeRates) {
		return nil, lenErr("weights", len(weights), len(changeRates))
	}
	var e cerr
	var p *C.crawlsched_freshness_model_t
	st := C.crawlsched_freshness_model_new(ap, f64p(changeRates), f64p(weights), sz(len(changeRates)), &p, &e)
	runtime.KeepAlive(access)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	m := &FreshnessModel{p: p, n: len(changeRates)}
	runtime.SetFinalizer(m, (*FreshnessModel).Close)
	return m, nil
}

// Close frees the model. Idempotent.
func (m *FreshnessModel) Close() error {
	if m != nil && m.p != nil {
		C.crawlsched_freshness_model_free(m.p)
		m.p = nil
		runtime.SetFinalizer(m, nil)
	}
	return nil
}

func (m *FreshnessModel) ptr() (*C.crawlsched_freshness_model_t, error) {
	if m == nil || m.p == nil {
		return nil, closedErr("FreshnessModel")
	}
	return m.p, nil
}

// Len is the number of pages N (crawlsched_freshness_model_len).
func (m *FreshnessModel) Len() (int, error) {
	p, err := m.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.size_t
	st := C.crawlsched_freshness_model_len(p, &out, &e)
	runtime.KeepAlive(m)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return int(out), nil
}

type modelVecFn func(*C.crawlsched_freshness_model_t, *C.double, C.size_t, *cerr) C.crawlsched_status_t

func (m *FreshnessModel) vec(f modelVecFn) ([]float64, error) {
	p, err := m.ptr()
	if err != nil {
		return nil, err
	}
	out := make([]float64, m.n)
	var e cerr
	st := f(p, f64p(out), sz(len(out)), &e)
	runtime.KeepAlive(m)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return out, nil
}

type modelScalarFn func(*C.crawlsched_freshness_model_t, *C.double, *cerr) C.crawlsched_status_t

func (m *FreshnessModel) scalar(f modelScalarFn) (float64, error) {
	p, err := m.ptr()
	if err != nil {
		return 0, err
	}
	var out C.double
	var e cerr
	st := f(p, &out, &e)
	runtime.KeepAlive(m)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// H is h_i = E[exp(-mu_i X)] per page.
func (m *FreshnessModel) H() ([]float64, error) {
	return m.vec(func(p *C.crawlsched_freshness_model_t, o *C.double, n C.size_t, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_freshness_model_h(p, o, n, e)
	})
}

// OptimalFrequencies are the optimal access frequencies (Theorem 3.4).
func (m *FreshnessModel) OptimalFrequencies() ([]float64, error) {
	return m.vec(func(p *C.crawlsched_freshness_model_t, o *C.double, n C.size_t, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_freshness_optimal_frequencies(p, o, n, e)
	})
}

// RandomizedOptimalFrequencies are the randomized policy's optimal
// frequencies (Theorem 4.1).
func (m *FreshnessModel) RandomizedOptimalFrequencies() ([]float64, error) {
	return m.vec(func(p *C.crawlsched_freshness_model_t, o *C.double, n C.size_t, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_freshness_randomized_optimal_frequencies(p, o, n, e)
	})
}

// LowerBound is the lower bound on the cost of every policy (eq. 6).
func (m *FreshnessModel) LowerBound() (float64, error) {
	return m.scalar(func(p *C.crawlsched_freshness_model_t, o *C.double, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_freshness_lower_bound(p, o, e)
	})
}

// RandomizedOptimalCost is the randomized policy's optimal cost (eq. 11).
func (m *FreshnessModel) RandomizedOptimalCost() (float64, error) {
	return m.scalar(func(p *C.crawlsched_freshness_model_t, o *C.double, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_freshness_randomized_optimal_cost(p, o, e)
	})
}

// GoldenRatioBound is the large-N limit of the golden-ratio policy's cost
// (eq. 18).
func (m *FreshnessModel) GoldenRatioBound() (float64, error) {
	return m.scalar(func(p *C.crawlsched_freshness_model_t, o *C.double, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_freshness_golden_ratio_bound(p, o, e)
	})
}

// Cost is sum c_i r_i for frequencies freq with even spacing (Theorem 3.3).
func (m *FreshnessModel) Cost(freq []float64) (float64, error) {
	return m.scalar(func(p *C.crawlsched_freshness_model_t, o *C.double, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_freshness_cost(p, f64p(freq), sz(len(freq)), o, e)
	})
}

// RandomizedCost is the cost of the randomized policy with freq (Lemma 4.1).
func (m *FreshnessModel) RandomizedCost(freq []float64) (float64, error) {
	return m.scalar(func(p *C.crawlsched_freshness_model_t, o *C.double, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_freshness_randomized_cost(p, f64p(freq), sz(len(freq)), o, e)
	})
}

// ObsolescenceBound is Theorem 3.3's r_i per page for frequencies freq.
func (m *FreshnessModel) ObsolescenceBound(freq []float64) ([]float64, error) {
	return m.vec(func(p *C.crawlsched_freshness_model_t, o *C.double, n C.size_t, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_freshness_obsolescence_bound(p, f64p(freq), sz(len(freq)), o, n, e)
	})
}

// CyclicCost is the exact long-run cost of repeating seq (page indices).
func (m *FreshnessModel) CyclicCost(seq []uint32) (float64, error) {
	return m.scalar(func(p *C.crawlsched_freshness_model_t, o *C.double, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_freshness_cyclic_cost(p, u32p(seq), sz(len(seq)), o, e)
	})
}

// CyclicObsolescence is the exact r_i per page of repeating seq.
func (m *FreshnessModel) CyclicObsolescence(seq []uint32) ([]float64, error) {
	return m.vec(func(p *C.crawlsched_freshness_model_t, o *C.double, n C.size_t, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_freshness_cyclic_obsolescence(p, u32p(seq), sz(len(seq)), o, n, e)
	})
}

// SimulateCyclic is a seeded Monte Carlo of `cycles` repetitions of seq:
// the estimated cost and its standard error, under the control c (nil:
// none): cancelling it stops the run with ErrCancelled and no estimate.
func (m *FreshnessModel) SimulateCyclic(seq []uint32, cycles, seed uint64, c *Control) (cost, stdErr float64, err error) {
	p, err := m.ptr()
	if err != nil {
		return 0, 0, err
	}
	cp, err := c.optional()
	if err != nil {
		return 0, 0, err
	}
	var a, s C.double
	var e cerr
	st := C.crawlsched_freshness_simulate_cyclic(p, u32p(seq), sz(len(seq)), C.uint64_t(cycles), C.uint64_t(seed), cp, &a, &s, &e)
	runtime.KeepAlive(m)
	runtime.KeepAlive(c)
	if err := check(st, &e); err != nil {
		return 0, 0, err
	}
	return float64(a), float64(s), nil
}

// IntegerCounts are integer accesses per cycle of length total for freq
// (largest remainder); atLeastOne gives every page with f_i > 0 one access.
func IntegerCounts(freq []float64, total uint64, atLeastOne bool) ([]uint64, error) {
	out := make([]uint64, len(freq))
	var e cerr
	st := C.crawlsched_freshness_integer_counts(f64p(freq), sz(len(freq)), C.uint64_t(total), cbool(atLeastOne), u64p(out), sz(len(out)), &e)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return out, nil
}

// FibonacciAtLeast is the smallest Fibonacci number >= n.
func FibonacciAtLeast(n uint64) (uint64, error) {
	var out C.uint64_t
	var e cerr
	st := C.crawlsched_freshness_fibonacci_at_least(C.uint64_t(n), &out, &e)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return uint64(out), nil
}

// BoundRatio is H(q) of Corollary 5.1.
func BoundRatio(q float64) (float64, error) {
	var out C.double
	var e cerr
	st := C.crawlsched_freshness_bound_ratio(C.double(q), &out, &e)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

type seqFn func(*C.uint64_t, C.size_t, *C.uint32_t, C.size_t, *C.size_t, *cerr) C.crawlsched_status_t

// variableU32 runs a variable-size uint32 output call: the sequence length
// is sum(counts), so one call usually suffices; BUFFER_TOO_SMALL retries
// with the size the library asks for.
func variableU32(guess int, f func(out []uint32, outLen *C.size_t, e *cerr) C.crawlsched_status_t) ([]uint32, error) {
	out := make([]uint32, guess)
	for {
		var n C.size_t
		var e cerr
		st := f(out, &n, &e)
		if st == C.CRAWLSCHED_BUFFER_TOO_SMALL && int(n) > len(out) {
			out = make([]uint32, int(n))
			continue
		}
		if err := check(st, &e); err != nil {
			return nil, err
		}
		return out[:int(n)], nil
	}
}

func countsSum(counts []uint64) int {
	var s uint64
	for _, c := range counts {
		s += c
		if s > 1<<24 {
			return 0 // ask the library for the size instead
		}
	}
	return int(s)
}

func sequence(counts []uint64, f seqFn) ([]uint32, error) {
	return variableU32(countsSum(counts), func(out []uint32, n *C.size_t, e *cerr) C.crawlsched_status_t {
		return f(u64p(counts), sz(len(counts)), u32p(out), sz(len(out)), n, e)
	})
}

// GoldenRatioSequence is the golden-ratio cyclic sequence (§5): page i
// appears counts[i] times.
func GoldenRatioSequence(counts []uint64) ([]uint32, error) {
	return sequence(counts, func(c *C.uint64_t, n C.size_t, o *C.uint32_t, cp C.size_t, l *C.size_t, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_freshness_golden_ratio_sequence(c, n, o, cp, l, e)
	})
}

// RoundRobinSequence spreads each page's accesses evenly over the cycle.
func RoundRobinSequence(counts []uint64) ([]uint32, error) {
	return sequence(counts, func(c *C.uint64_t, n C.size_t, o *C.uint32_t, cp C.size_t, l *C.size_t, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_freshness_round_robin_sequence(c, n, o, cp, l, e)
	})
}

// BalancedSequence is the balanced (billiard) routing sequence with
// counts[m] visits of server m.
func BalancedSequence(counts []uint64) ([]uint32, error) {
	return sequence(counts, func(c *C.uint64_t, n C.size_t, o *C.uint32_t, cp C.size_t, l *C.size_t, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_routing_balanced_sequence(c, n, o, cp, l, e)
	})
}
