package crawlsched

/*
#include "crawlsched.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Indices into ThresholdModel.Measures' result.
const (
	MeasureFundamentalRate = C.CRAWLSCHED_THRESHOLD_MEASURE_FUNDAMENTAL_RATE
	MeasureLoss            = C.CRAWLSCHED_THRESHOLD_MEASURE_LOSS
	MeasureObsolescence    = C.CRAWLSCHED_THRESHOLD_MEASURE_OBSOLESCENCE
	MeasureSuccess         = C.CRAWLSCHED_THRESHOLD_MEASURE_SUCCESS
	MeasureStarvation      = C.CRAWLSCHED_THRESHOLD_MEASURE_STARVATION
	MeasureThroughput      = C.CRAWLSCHED_THRESHOLD_MEASURE_THROUGHPUT
	MeasureMeanPages       = C.CRAWLSCHED_THRESHOLD_MEASURE_MEAN_PAGES
	MeasureMeanQueue       = C.CRAWLSCHED_THRESHOLD_MEASURE_MEAN_QUEUE
	MeasureResponseTime    = C.CRAWLSCHED_THRESHOLD_MEASURE_RESPONSE_TIME
	MeasureWaitingTime     = C.CRAWLSCHED_THRESHOLD_MEASURE_WAITING_TIME
	MeasureMeanRobots      = C.CRAWLSCHED_THRESHOLD_MEASURE_MEAN_ROBOTS
	MeasureResidual        = C.CRAWLSCHED_THRESHOLD_MEASURE_RESIDUAL
	MeasureCount           = C.CRAWLSCHED_THRESHOLD_MEASURE_COUNT
)

// Indices into ThresholdModel.ResponseTime's result.
const (
	ResponseMean              = C.CRAWLSCHED_THRESHOLD_RESPONSE_MEAN
	ResponseServedProbability = C.CRAWLSCHED_THRESHOLD_RESPONSE_SERVED_PROBABILITY
	ResponseMeanServed        = C.CRAWLSCHED_THRESHOLD_RESPONSE_MEAN_SERVED
	ResponseMeanObsolete      = C.CRAWLSCHED_THRESHOLD_RESPONSE_MEAN_OBSOLETE
	ResponseCount             = C.CRAWLSCHED_THRESHOLD_RESPONSE_COUNT
)

// Which sojourn distribution ThresholdModel.ResponseCDF gives.
const (
	SojournAll    = C.CRAWLSCHED_THRESHOLD_SOJOURN_ALL
	SojournServed = C.CRAWLSCHED_THRESHOLD_SOJOURN_SERVED
)

// Indices into the threshold cost weights.
const (
	WeightLoss         = C.CRAWLSCHED_THRESHOLD_WEIGHT_LOSS
	WeightObsolescence = C.CRAWLSCHED_THRESHOLD_WEIGHT_OBSOLESCENCE
	WeightResponse     = C.CRAWLSCHED_THRESHOLD_WEIGHT_RESPONSE
	WeightRobots       = C.CRAWLSCHED_THRESHOLD_WEIGHT_ROBOTS
	WeightStarvation   = C.CRAWLSCHED_THRESHOLD_WEIGHT_STARVATION
	WeightCount        = C.CRAWLSCHED_THRESHOLD_WEIGHT_COUNT
)

// ThresholdModel is the threshold model (crawlsched_threshold_model_t):
// arrival processes per number of active robots, PH service and
// obsolescence, buffer. Immutable.
type ThresholdModel struct {
	p      *C.crawlsched_threshold_model_t
	buffer uint32
}

// NewThresholdModel: arrivals[r-1] is the process with r active robots;
// obsolescence may be nil (pages never become obsolete). Everything is
// copied.
func NewThresholdModel(arrivals []*BMAP, service, obsolescence *Dist, buffer uint32) (*ThresholdModel, error) {
	// C pointers only, so a Go-allocated array of them may be passed.
	ptrs := make([]*C.crawlsched_bmap_t, len(arrivals))
	for i, a := range arrivals {
		p, err := a.ptr()
		if err != nil {
			return nil, err
		}
		ptrs[i] = p
	}
	sp, err := service.ptr()
	if err != nil {
		return nil, err
	}
	var op *C.crawlsched_dist_t
	if obsolescence != nil {
		if op, err = obsolescence.ptr(); err != nil {
			return nil, err
		}
	}
	var pp **C.crawlsched_bmap_t
	if len(ptrs) > 0 {
		pp = &ptrs[0]
	}
	var e cerr
	var p *C.crawlsched_threshold_model_t
	st := C.crawlsched_threshold_model_new((**C.crawlsched_bmap_t)(unsafe.Pointer(pp)), sz(len(ptrs)), sp, op, C.uint32_t(buffer), &p, &e)
	runtime.KeepAlive(arrivals)
	runtime.KeepAlive(service)
	runtime.KeepAlive(obsolescence)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	m := &ThresholdModel{p, buffer}
	runtime.SetFinalizer(m, (*ThresholdModel).Close)
	return m, nil
}

// Close frees the model. Idempotent.
func (m *ThresholdModel) Close() error {
	if m != nil && m.p != nil {
		C.crawlsched_threshold_model_free(m.p)
		m.p = nil
		runtime.SetFinalizer(m, nil)
	}
	return nil
}

func (m *ThresholdModel) ptr() (*C.crawlsched_threshold_model_t, error) {
	if m == nil || m.p == nil {
		return nil, closedErr("ThresholdModel")
	}
	return m.p, nil
}

// StateCount is the number of states of the model's Markov chain.
func (m *ThresholdModel) StateCount() (uint64, error) {
	p, err := m.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.uint64_t
	st := C.crawlsched_threshold_model_state_count(p, &out, &e)
	runtime.KeepAlive(m)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return uint64(out), nil
}

// Measures are the stationary measures under the policy (modes r_1 > ... >
// r_J, thresholds t_1 <= ... <= t_{J-1}), indexed by the Measure* constants,
// under the control c (nil: none): its memory cap (else the process-wide
// one) is checked before the chain is built (ErrTooLarge), and cancelling
// it gives ErrCancelled. The other evaluations take c the same way.
func (m *ThresholdModel) Measures(modes, thresholds []uint32, c *Control) ([]float64, error) {
	p, err := m.ptr()
	if err != nil {
		return nil, err
	}
	cp, err := c.optional()
	if err != nil {
		return nil, err
	}
	out := make([]float64, MeasureCount)
	var e cerr
	st := C.crawlsched_threshold_measures(p, u32p(modes), sz(len(modes)), u32p(thresholds), sz(len(thresholds)), cp, f64p(out), sz(len(out)), &e)
	runtime.KeepAlive(m)
	runtime.KeepAlive(c)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return out, nil
}

// LevelDistribution is P(i pages in the system), i = 0..buffer+1, under
// the control c (nil: none) as Measures.
func (m *ThresholdModel) LevelDistribution(modes, thresholds []uint32, c *Control) ([]float64, error) {
	p, err := m.ptr()
	if err != nil {
		return nil, err
	}
	cp, err := c.optional()
	if err != nil {
		return nil, err
	}
	out := make([]float64, int(m.buffer)+2)
	for {
		var e cerr
		var n C.size_t
		st := C.crawlsched_threshold_level_distribution(p, u32p(modes), sz(len(modes)), u32p(thresholds), sz(len(thresholds)), cp, f64p(out), sz(len(out)), &n, &e)
		runtime.KeepAlive(m)
		runtime.KeepAlive(c)
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

// Cost is the cost criterion (eq. 2) with weights indexed by Weight*,
// under the control c (nil: none) as Measures.
func (m *ThresholdModel) Cost(modes, thresholds []uint32, weights []float64, c *Control) (float64, error) {
	p, err := m.ptr()
	if err != nil {
		return 0, err
	}
	cp, err := c.optional()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_threshold_cost(p, u32p(modes), sz(len(modes)), u32p(thresholds), sz(len(thresholds)), f64p(weights), sz(len(weights)), cp, &out, &e)
	runtime.KeepAlive(m)
	runtime.KeepAlive(c)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// ThresholdPlan is the optimal thresholds for given modes.
type ThresholdPlan struct {
	Thresholds []uint32
	Cost       float64
	Evaluated  uint64
}

// Optimize enumerates every threshold vector (ErrTooLarge beyond
// maxEvaluations) and returns the best, under the control c (nil: none):
// its iteration cap lowers maxEvaluations, and cancelling it stops the
// search with ErrCancelled and no result.
func (m *ThresholdModel) Optimize(modes []uint32, weights []float64, maxEvaluations uint64, c *Control) (ThresholdPlan, error) {
	p, err := m.ptr()
	if err != nil {
		return ThresholdPlan{}, err
	}
	cp, err := c.optional()
	if err != nil {
		return ThresholdPlan{}, err
	}
	n := len(modes) - 1
	if n < 0 {
		n = 0
	}
	out := make([]uint32, n)
	var e cerr
	var cost C.double
	var ev C.uint64_t
	st := C.crawlsched_threshold_optimize(p, u32p(modes), sz(len(modes)), f64p(weights), sz(len(weights)), C.uint64_t(maxEvaluations), cp, u32p(out), sz(len(out)), &cost, &ev, &e)
	runtime.KeepAlive(m)
	runtime.KeepAlive(c)
	if err := check(st, &e); err != nil {
		return ThresholdPlan{}, err
	}
	return ThresholdPlan{out, float64(cost), uint64(ev)}, nil
}

// ResponseTime: mean sojourn of an admitted page, probability of being
// served, mean conditional on service and on obsolescence (indexed by the
// Response* constants), under the control c (nil: none) as Measures.
func (m *ThresholdModel) ResponseTime(modes, thresholds []uint32, c *Control) ([]float64, error) {
	p, err := m.ptr()
	if err != nil {
		return nil, err
	}
	cp, err := c.optional()
	if err != nil {
		return nil, err
	}
	out := make([]float64, ResponseCount)
	var e cerr
	st := C.crawlsched_threshold_response_time(p, u32p(modes), sz(len(modes)), u32p(thresholds), sz(len(thresholds)), cp, f64p(out), sz(len(out)), &e)
	runtime.KeepAlive(m)
	runtime.KeepAlive(c)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return out, nil
}

// ResponseCDF: P(sojourn <= t) of an admitted page at each of times
// (which = SojournAll), or conditional on service (SojournServed), under
// the control c (nil: none) as Measures; cancelling it also stops the
// uniformization.
func (m *ThresholdModel) ResponseCDF(modes, thresholds []uint32, which int32, times []float64, c *Control) ([]float64, error) {
	p, err := m.ptr()
	if err != nil {
		return nil, err
	}
	cp, err := c.optional()
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(times))
	var e cerr
	st := C.crawlsched_threshold_response_cdf(p, u32p(modes), sz(len(modes)), u32p(thresholds), sz(len(thresholds)), C.int32_t(which), f64p(times), sz(len(times)), cp, f64p(out), sz(len(out)), &e)
	runtime.KeepAlive(m)
	runtime.KeepAlive(c)
	runtime.KeepAlive(times)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return out, nil
}
