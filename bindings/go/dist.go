package crawlsched

/*
#include "crawlsched.h"
*/
import "C"

import "runtime"

// Dist is a distribution of a non-negative time (crawlsched_dist_t).
// Immutable: safe for concurrent use.
type Dist struct{ p *C.crawlsched_dist_t }

func wrapDist(p *C.crawlsched_dist_t, err error) (*Dist, error) {
	if err != nil {
		return nil, err
	}
	d := &Dist{p}
	runtime.SetFinalizer(d, (*Dist).Close)
	return d, nil
}

// Close frees the distribution. Idempotent.
func (d *Dist) Close() error {
	if d != nil && d.p != nil {
		C.crawlsched_dist_free(d.p)
		d.p = nil
		runtime.SetFinalizer(d, nil)
	}
	return nil
}

func (d *Dist) ptr() (*C.crawlsched_dist_t, error) {
	if d == nil || d.p == nil {
		return nil, closedErr("Dist")
	}
	return d.p, nil
}

// NewDeterministic is X = value (>= 0) with probability one.
func NewDeterministic(value float64) (*Dist, error) {
	var e cerr
	var p *C.crawlsched_dist_t
	st := C.crawlsched_dist_deterministic_new(C.double(value), &p, &e)
	return wrapDist(p, check(st, &e))
}

// NewExponential is the exponential distribution with rate > 0.
func NewExponential(rate float64) (*Dist, error) {
	var e cerr
	var p *C.crawlsched_dist_t
	st := C.crawlsched_dist_exponential_new(C.double(rate), &p, &e)
	return wrapDist(p, check(st, &e))
}

// NewErlang is the sum of k >= 1 exponentials of rate > 0.
func NewErlang(k uint32, rate float64) (*Dist, error) {
	var e cerr
	var p *C.crawlsched_dist_t
	st := C.crawlsched_dist_erlang_new(C.uint32_t(k), C.double(rate), &p, &e)
	return wrapDist(p, check(st, &e))
}

// NewGamma is the Gamma distribution (mean shape/rate).
func NewGamma(shape, rate float64) (*Dist, error) {
	var e cerr
	var p *C.crawlsched_dist_t
	st := C.crawlsched_dist_gamma_new(C.double(shape), C.double(rate), &p, &e)
	return wrapDist(p, check(st, &e))
}

// NewHyperexponential: rate rates[i] with probability probs[i].
func NewHyperexponential(probs, rates []float64) (*Dist, error) {
	if len(probs) != len(rates) {
		return nil, lenErr("rates", len(rates), len(probs))
	}
	var e cerr
	var p *C.crawlsched_dist_t
	st := C.crawlsched_dist_hyperexponential_new(f64p(probs), f64p(rates), sz(len(probs)), &p, &e)
	return wrapDist(p, check(st, &e))
}

// NewPhaseType is PH(alpha, S) with S the n x n sub-generator, row-major.
func NewPhaseType(alpha, s []float64) (*Dist, error) {
	var e cerr
	var p *C.crawlsched_dist_t
	st := C.crawlsched_dist_phase_type_new(f64p(alpha), sz(len(alpha)), f64p(s), sz(len(s)), &p, &e)
	return wrapDist(p, check(st, &e))
}

// NewCoxian: phase i has rate rates[i] and continues with probability
// cont[i] (len(cont) = len(rates)-1).
func NewCoxian(rates, cont []float64) (*Dist, error) {
	var e cerr
	var p *C.crawlsched_dist_t
	st := C.crawlsched_dist_coxian_new(f64p(rates), sz(len(rates)), f64p(cont), sz(len(cont)), &p, &e)
	return wrapDist(p, check(st, &e))
}

// NewEmpirical is the empirical distribution of the samples.
func NewEmpirical(samples []float64) (*Dist, error) {
	var e cerr
	var p *C.crawlsched_dist_t
	st := C.crawlsched_dist_empirical_new(f64p(samples), sz(len(samples)), &p, &e)
	return wrapDist(p, check(st, &e))
}

// FitAPH2 is an acyclic phase-type distribution of order <= 2 with raw
// moments m1, m2, m3 (ErrInfeasible outside the ACPH(2) region).
func FitAPH2(m1, m2, m3 float64) (*Dist, error) {
	var e cerr
	var p *C.crawlsched_dist_t
	st := C.crawlsched_dist_fit_aph2_new(C.double(m1), C.double(m2), C.double(m3), &p, &e)
	return wrapDist(p, check(st, &e))
}

// FitH2 is a two-phase hyperexponential with raw moments m1, m2, m3.
func FitH2(m1, m2, m3 float64) (*Dist, error) {
	var e cerr
	var p *C.crawlsched_dist_t
	st := C.crawlsched_dist_fit_h2_new(C.double(m1), C.double(m2), C.double(m3), &p, &e)
	return wrapDist(p, check(st, &e))
}

func (d *Dist) scalar(f func(*C.crawlsched_dist_t, *C.double, *cerr) C.crawlsched_status_t) (float64, error) {
	p, err := d.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := f(p, &out, &e)
	runtime.KeepAlive(d)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// Mean is E[X].
func (d *Dist) Mean() (float64, error) {
	return d.scalar(func(p *C.crawlsched_dist_t, o *C.double, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_dist_mean(p, o, e)
	})
}

// Variance is Var[X].
func (d *Dist) Variance() (float64, error) {
	return d.scalar(func(p *C.crawlsched_dist_t, o *C.double, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_dist_variance(p, o, e)
	})
}

// Moment is E[X^k].
func (d *Dist) Moment(k uint32) (float64, error) {
	return d.scalar(func(p *C.crawlsched_dist_t, o *C.double, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_dist_moment(p, C.uint32_t(k), o, e)
	})
}

// Laplace is E[exp(-s X)], s >= 0.
func (d *Dist) Laplace(s float64) (float64, error) {
	return d.scalar(func(p *C.crawlsched_dist_t, o *C.double, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_dist_laplace(p, C.double(s), o, e)
	})
}

// CDF is P(X <= x).
func (d *Dist) CDF(x float64) (float64, error) {
	return d.scalar(func(p *C.crawlsched_dist_t, o *C.double, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_dist_cdf(p, C.double(x), o, e)
	})
}

// Sample fills out with independent draws seeded by seed (the same draws
// in every binding).
func (d *Dist) Sample(seed uint64, out []float64) error {
	p, err := d.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_dist_sample(p, C.uint64_t(seed), f64p(out), sz(len(out)), &e)
	runtime.KeepAlive(d)
	return check(st, &e)
}
