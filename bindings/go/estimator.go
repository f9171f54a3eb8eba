package crawlsched

/*
#include "crawlsched.h"
*/
import "C"

import "runtime"

// Estimator estimates one page's change rate from visits that only tell
// whether it changed (crawlsched_estimator_t). Mutable; the library
// serialises calls, so goroutines may share one.
type Estimator struct{ p *C.crawlsched_estimator_t }

func wrapEstimator(p *C.crawlsched_estimator_t, err error) (*Estimator, error) {
	if err != nil {
		return nil, err
	}
	x := &Estimator{p}
	runtime.SetFinalizer(x, (*Estimator).Close)
	return x, nil
}

// NewEstimator is an estimator without prior knowledge.
func NewEstimator() (*Estimator, error) {
	var e cerr
	var p *C.crawlsched_estimator_t
	st := C.crawlsched_estimator_new(&p, &e)
	return wrapEstimator(p, check(st, &e))
}

// NewEstimatorWithPrior starts from rateGuess > 0 worth weightTime > 0 time
// units of observation.
func NewEstimatorWithPrior(rateGuess, weightTime float64) (*Estimator, error) {
	var e cerr
	var p *C.crawlsched_estimator_t
	st := C.crawlsched_estimator_new_with_prior(C.double(rateGuess), C.double(weightTime), &p, &e)
	return wrapEstimator(p, check(st, &e))
}

// Close frees the estimator. Idempotent.
func (x *Estimator) Close() error {
	if x != nil && x.p != nil {
		C.crawlsched_estimator_free(x.p)
		x.p = nil
		runtime.SetFinalizer(x, nil)
	}
	return nil
}

func (x *Estimator) ptr() (*C.crawlsched_estimator_t, error) {
	if x == nil || x.p == nil {
		return nil, closedErr("Estimator")
	}
	return x.p, nil
}

// Observe records a visit interval > 0 after the previous one, and whether
// the page had changed.
func (x *Estimator) Observe(interval float64, changed bool) error {
	p, err := x.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_estimator_observe(p, C.double(interval), cbool(changed), &e)
	runtime.KeepAlive(x)
	return check(st, &e)
}

// Estimate is the current change-rate estimate (ErrNotFound with no
// information yet).
func (x *Estimator) Estimate() (float64, error) {
	p, err := x.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_estimator_estimate(p, &out, &e)
	runtime.KeepAlive(x)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// Observations is the number of visits recorded.
func (x *Estimator) Observations() (uint64, error) {
	p, err := x.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.uint64_t
	st := C.crawlsched_estimator_observations(p, &out, &e)
	runtime.KeepAlive(x)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return uint64(out), nil
}
