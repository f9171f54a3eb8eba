package crawlsched

/*
#include "crawlsched.h"
*/
import "C"

import "runtime"

// BMAPCompose is how crawlsched_bmap_compose_new builds a multi-robot process.
type BMAPCompose int32

const (
	// ComposeIndependent: total independent copies, active of them delivering.
	ComposeIndependent BMAPCompose = C.CRAWLSCHED_BMAP_COMPOSE_INDEPENDENT
	// ComposeThinning: one common process, batches kept with probability prob.
	ComposeThinning BMAPCompose = C.CRAWLSCHED_BMAP_COMPOSE_THINNING
	// ComposeScaled: active robots run the process active times faster.
	ComposeScaled BMAPCompose = C.CRAWLSCHED_BMAP_COMPOSE_SCALED
)

// BMAP is a batch Markovian arrival process (D0, D1, ..., Dk)
// (crawlsched_bmap_t). Immutable.
type BMAP struct{ p *C.crawlsched_bmap_t }

func wrapBMAP(p *C.crawlsched_bmap_t, err error) (*BMAP, error) {
	if err != nil {
		return nil, err
	}
	b := &BMAP{p}
	runtime.SetFinalizer(b, (*BMAP).Close)
	return b, nil
}

// NewBMAP is a BMAP of order n from the matrices D0, D1, ..., Dk stored one
// after another, each n x n row-major.
func NewBMAP(n int, matrices []float64) (*BMAP, error) {
	var e cerr
	var p *C.crawlsched_bmap_t
	st := C.crawlsched_bmap_new(sz(n), f64p(matrices), sz(len(matrices)), &p, &e)
	return wrapBMAP(p, check(st, &e))
}

// NewPoissonBMAP is a Poisson process of rate > 0 as a BMAP of order 1.
func NewPoissonBMAP(rate float64) (*BMAP, error) {
	var e cerr
	var p *C.crawlsched_bmap_t
	st := C.crawlsched_bmap_poisson_new(C.double(rate), &p, &e)
	return wrapBMAP(p, check(st, &e))
}

// FitBMAP fits a BMAP to the time between batches (mean, variance, lag-1
// correlation) and the mean batch size on 1..maxBatch.
func FitBMAP(mean, variance, lag1, batchMean float64, maxBatch uint32) (*BMAP, error) {
	var e cerr
	var p *C.crawlsched_bmap_t
	st := C.crawlsched_bmap_fit_new(C.double(mean), C.double(variance), C.double(lag1), C.double(batchMean), C.uint32_t(maxBatch), &p, &e)
	return wrapBMAP(p, check(st, &e))
}

// Compose is the process with active of total robots active, built from
// b by how (prob is used by ComposeThinning only).
func (b *BMAP) Compose(how BMAPCompose, active, total uint32, prob float64) (*BMAP, error) {
	bp, err := b.ptr()
	if err != nil {
		return nil, err
	}
	var e cerr
	var p *C.crawlsched_bmap_t
	st := C.crawlsched_bmap_compose_new(bp, C.int32_t(how), C.uint32_t(active), C.uint32_t(total), C.double(prob), &p, &e)
	runtime.KeepAlive(b)
	return wrapBMAP(p, check(st, &e))
}

// Close frees the BMAP. Idempotent.
func (b *BMAP) Close() error {
	if b != nil && b.p != nil {
		C.crawlsched_bmap_free(b.p)
		b.p = nil
		runtime.SetFinalizer(b, nil)
	}
	return nil
}

func (b *BMAP) ptr() (*C.crawlsched_bmap_t, error) {
	if b == nil || b.p == nil {
		return nil, closedErr("BMAP")
	}
	return b.p, nil
}

// Order is the number of phases.
func (b *BMAP) Order() (int, error) {
	p, err := b.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.size_t
	st := C.crawlsched_bmap_order(p, &out, &e)
	runtime.KeepAlive(b)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return int(out), nil
}

// FundamentalRate is the mean number of pages per unit time.
func (b *BMAP) FundamentalRate() (float64, error) {
	p, err := b.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_bmap_fundamental_rate(p, &out, &e)
	runtime.KeepAlive(b)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// InterarrivalMoment is E[T^k] of the stationary time between batches.
func (b *BMAP) InterarrivalMoment(k uint32) (float64, error) {
	p, err := b.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_bmap_interarrival_moment(p, C.uint32_t(k), &out, &e)
	runtime.KeepAlive(b)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// LagCorrelation is the lag-k correlation of successive times between batches.
func (b *BMAP) LagCorrelation(k uint32) (float64, error) {
	p, err := b.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_bmap_lag_correlation(p, C.uint32_t(k), &out, &e)
	runtime.KeepAlive(b)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}
