package crawlsched

/*
#include "crawlsched.h"

// The per-request calls neither keep their pointers nor call back into Go,
// so cgo may leave their out-parameters on the Go stack.
#cgo noescape crawlsched_scheduler_next
#cgo nocallback crawlsched_scheduler_next
#cgo noescape crawlsched_scheduler_next_batch
#cgo nocallback crawlsched_scheduler_next_batch
*/
import "C"

import "runtime"

// SchedulerMode selects how a Scheduler spaces each page's crawls.
type SchedulerMode int32

const (
	// Stride spaces each page's crawls evenly in virtual time.
	Stride SchedulerMode = C.CRAWLSCHED_SCHEDULER_STRIDE
	// GoldenRatio uses golden-ratio cycles rebuilt at cycle boundaries (§5-6).
	GoldenRatio SchedulerMode = C.CRAWLSCHED_SCHEDULER_GOLDEN_RATIO
)

// Scheduler is a streaming crawl scheduler over pages identified by uint64
// ids (crawlsched_scheduler_t): Next says which page to crawl now. Mutable;
// the library serialises calls, so crawler goroutines may share one.
type Scheduler struct{ p *C.crawlsched_scheduler_t }

// NewScheduler is an empty scheduler for crawls whose duration follows
// access (copied).
func NewScheduler(access *Dist, mode SchedulerMode) (*Scheduler, error) {
	ap, err := access.ptr()
	if err != nil {
		return nil, err
	}
	var e cerr
	var p *C.crawlsched_scheduler_t
	st := C.crawlsched_scheduler_new(ap, C.int32_t(mode), &p, &e)
	runtime.KeepAlive(access)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	s := &Scheduler{p}
	runtime.SetFinalizer(s, (*Scheduler).Close)
	return s, nil
}

// Close frees the scheduler. Idempotent; not to be called while other
// goroutines still use it.
func (s *Scheduler) Close() error {
	if s != nil && s.p != nil {
		C.crawlsched_scheduler_free(s.p)
		s.p = nil
		runtime.SetFinalizer(s, nil)
	}
	return nil
}

func (s *Scheduler) ptr() (*C.crawlsched_scheduler_t, error) {
	if s == nil || s.p == nil {
		return nil, closedErr("Scheduler")
	}
	return s.p, nil
}

// AddPage adds page id with an initial change-rate guess > 0 (weight =
// change rate). A duplicate id is ErrInvalidArgument.
func (s *Scheduler) AddPage(id uint64, changeRate float64) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_scheduler_add_page(p, C.uint64_t(id), C.double(changeRate), &e)
	runtime.KeepAlive(s)
	return check(st, &e)
}

// AddWeightedPage adds page id with a change-rate guess and a cost weight.
func (s *Scheduler) AddWeightedPage(id uint64, changeRate, weight float64) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_scheduler_add_weighted_page(p, C.uint64_t(id), C.double(changeRate), C.double(weight), &e)
	runtime.KeepAlive(s)
	return check(st, &e)
}

// AddPages adds pages ids[i] with change-rate guesses rates[i] and cost
// weights weights[i] in one call (nil weights: each weight is the page's
// rate, as AddPage), as the one-by-one adds would: same schedule and
// frequencies. All or nothing: on any error (an id already scheduled or
// repeated, a bad rate or weight, too many pages) no page is added; the
// message names the first bad element, e.g. "change_rates[17]". Empty
// slices add nothing.
func (s *Scheduler) AddPages(ids []uint64, rates []float64, weights []float64) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	if len(rates) != len(ids) {
		return lenErr("rates", len(rates), len(ids))
	}
	if weights != nil && len(weights) != len(ids) {
		return lenErr("weights", len(weights), len(ids))
	}
	var e cerr
	st := C.crawlsched_scheduler_add_pages(p, u64p(ids), f64p(rates), f64p(weights), sz(len(ids)), &e)
	runtime.KeepAlive(s)
	runtime.KeepAlive(ids)
	runtime.KeepAlive(rates)
	runtime.KeepAlive(weights)
	return check(st, &e)
}

// RemovePage removes page id (ErrNotFound if absent).
func (s *Scheduler) RemovePage(id uint64) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_scheduler_remove_page(p, C.uint64_t(id), &e)
	runtime.KeepAlive(s)
	return check(st, &e)
}

// SetChangeRate replaces page id's change rate (restarting its estimator).
func (s *Scheduler) SetChangeRate(id uint64, changeRate float64) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_scheduler_set_change_rate(p, C.uint64_t(id), C.double(changeRate), &e)
	runtime.KeepAlive(s)
	return check(st, &e)
}

// Observe reports a crawl of page id, interval > 0 after its previous one.
func (s *Scheduler) Observe(id uint64, interval float64, changed bool) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_scheduler_observe(p, C.uint64_t(id), C.double(interval), cbool(changed), &e)
	runtime.KeepAlive(s)
	return check(st, &e)
}

// Next is the page to crawl now (ErrNotFound when no page is scheduled).
// With hosts, picks are on a clock of crawl slots, one per mean crawl time
// E[X]: a host of delay d is picked at most once in k slots, k the least
// whole number with k*E[X] >= d, and the plan caps it at 1/k of the picks.
func (s *Scheduler) Next() (uint64, error) {
	p, err := s.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var id C.uint64_t
	st := C.crawlsched_scheduler_next(p, &id, &e)
	runtime.KeepAlive(s)
	if st != C.CRAWLSCHED_OK {
		return 0, check(st, &e)
	}
	return uint64(id), nil
}

// NextBatch fills ids with the next len(ids) pages, in order (all or
// nothing); one cgo call instead of len(ids).
func (s *Scheduler) NextBatch(ids []uint64) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_scheduler_next_batch(p, u64p(ids), sz(len(ids)), &e)
	runtime.KeepAlive(s)
	runtime.KeepAlive(ids)
	return check(st, &e)
}

// Len is the number of pages scheduled.
func (s *Scheduler) Len() (int, error) {
	p, err := s.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.size_t
	st := C.crawlsched_scheduler_len(p, &out, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return int(out), nil
}

// ChangeRate is page id's current change-rate estimate.
func (s *Scheduler) ChangeRate(id uint64) (float64, error) {
	p, err := s.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_scheduler_change_rate(p, C.uint64_t(id), &out, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// Frequency is page id's target share of all crawls.
func (s *Scheduler) Frequency(id uint64) (float64, error) {
	p, err := s.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_scheduler_frequency(p, C.uint64_t(id), &out, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// Frequencies is every page's target share of all crawls, keyed by page
// id: one O(N) computation for all pages, where N calls of Frequency after
// rates changed cost O(N) each.
func (s *Scheduler) Frequencies() (map[uint64]float64, error) {
	p, err := s.ptr()
	if err != nil {
		return nil, err
	}
	n, err := s.Len()
	if err != nil {
		return nil, err
	}
	return s.pagePairs(n, func(ids *C.uint64_t, vals *C.double, cap C.size_t, got *C.size_t, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_scheduler_frequencies(p, ids, vals, cap, got, e)
	}, func(x float64) float64 { return x })
}

// pagePairs runs a per-page (ids, values) export for n pages, growing the
// buffers while pages were added meanwhile; values keyed by id, each
// mapped by f.
func (s *Scheduler) pagePairs(n int, call func(*C.uint64_t, *C.double, C.size_t, *C.size_t, *cerr) C.crawlsched_status_t,
	f func(float64) float64) (map[uint64]float64, error) {
	for {
		ids := make([]uint64, n)
		vals := make([]float64, n)
		var got C.size_t
		var e cerr
		st := call(u64p(ids), f64p(vals), sz(n), &got, &e)
		runtime.KeepAlive(s)
		runtime.KeepAlive(ids)
		runtime.KeepAlive(vals)
		if st == C.CRAWLSCHED_BUFFER_TOO_SMALL && int(got) > n {
			n = int(got) // pages were added meanwhile
			continue
		}
		if err := check(st, &e); err != nil {
			return nil, err
		}
		out := make(map[uint64]float64, int(got))
		for i := 0; i < int(got); i++ {
			out[ids[i]] = f(vals[i])
		}
		return out, nil
	}
}
