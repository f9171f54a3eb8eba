package crawlsched

/*
#include "crawlsched.h"
*/
import "C"

import (
	"encoding/base64"
	"math"
	"runtime"
)

// EstimatorStateMaxBytes is the most bytes an estimator state takes
// (Estimator.State, Scheduler.PageState); a page with fewer than 2^35
// visits takes at most 878.
const EstimatorStateMaxBytes = C.CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES

// stateText is the text form of a state: unpadded base64url (RFC 4648 §5),
// the same text in every binding. Strict: nonzero trailing bits refused.
var stateText = base64.RawURLEncoding.Strict()

// State is the estimator's state (its visits, bucketed, and its prior) in
// the versioned format of docs/c-api.md, at most EstimatorStateMaxBytes
// bytes: what a crawler keeps in a page's metadata instead of its visit
// history. NewEstimatorFromState restores it exactly.
func (x *Estimator) State() ([]byte, error) {
	p, err := x.ptr()
	if err != nil {
		return nil, err
	}
	buf := make([]byte, EstimatorStateMaxBytes)
	var n C.size_t
	var e cerr
	st := C.crawlsched_estimator_export_state(p, u8p(buf), sz(len(buf)), &n, &e)
	runtime.KeepAlive(x)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return buf[:n], nil
}

// StateText is State as unpadded base64url text (at most 1514 characters),
// for string-only metadata.
func (x *Estimator) StateText() (string, error) {
	b, err := x.State()
	if err != nil {
		return "", err
	}
	return stateText.EncodeToString(b), nil
}

// NewEstimatorFromState restores an estimator from State's bytes (of any
// binding, run or process): the same estimate, bit for bit, and the same
// results for every later visit. Bytes that are not a state give an
// *Error with StatusInvalidArgument naming the bad field.
func NewEstimatorFromState(state []byte) (*Estimator, error) {
	var e cerr
	var p *C.crawlsched_estimator_t
	st := C.crawlsched_estimator_new_from_state(u8p(state), sz(len(state)), &p, &e)
	runtime.KeepAlive(state)
	return wrapEstimator(p, check(st, &e))
}

// NewEstimatorFromStateText is NewEstimatorFromState of StateText's text.
func NewEstimatorFromStateText(text string) (*Estimator, error) {
	b, err := decodeStateText(text)
	if err != nil {
		return nil, err
	}
	return NewEstimatorFromState(b)
}

func decodeStateText(text string) ([]byte, error) {
	b, err := stateText.DecodeString(text)
	if err != nil {
		return nil, &Error{Status: StatusInvalidArgument, Message: "text: not unpadded base64url: " + err.Error()}
	}
	return b, nil
}

// PageState is page id's change-rate estimator state (as Estimator.State),
// to keep in the page's metadata and give back to SetPageState in a later
// run.
func (s *Scheduler) PageState(id uint64) ([]byte, error) {
	p, err := s.ptr()
	if err != nil {
		return nil, err
	}
	buf := make([]byte, EstimatorStateMaxBytes)
	var n C.size_t
	var e cerr
	st := C.crawlsched_scheduler_page_state(p, C.uint64_t(id), u8p(buf), sz(len(buf)), &n, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return buf[:n], nil
}

// PageStateText is PageState as unpadded base64url text.
func (s *Scheduler) PageStateText(id uint64) (string, error) {
	b, err := s.PageState(id)
	if err != nil {
		return "", err
	}
	return stateText.EncodeToString(b), nil
}

// SetPageState replaces page id's estimator with a saved state and adopts
// its estimate as the page's change rate: after AddPage in a new run, the
// page continues exactly as if the run had not stopped. Bad bytes change
// nothing (StatusInvalidArgument).
func (s *Scheduler) SetPageState(id uint64, state []byte) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_scheduler_set_page_state(p, C.uint64_t(id), u8p(state), sz(len(state)), &e)
	runtime.KeepAlive(s)
	runtime.KeepAlive(state)
	return check(st, &e)
}

// SetPageStateText is SetPageState of PageStateText's text.
func (s *Scheduler) SetPageStateText(id uint64, text string) error {
	b, err := decodeStateText(text)
	if err != nil {
		return err
	}
	return s.SetPageState(id, b)
}

// never maps the C API's "never due" (interval 0) to +Inf.
func never(interval float64) float64 {
	if interval == 0 {
		return math.Inf(1)
	}
	return interval
}

// RevisitInterval is page id's revisit interval under the plan, E[X]/f_i
// time units (the plan makes 1/E[X] crawls per unit time; for a budget of
// B crawls per unit time build the scheduler with crawl times of mean
// 1/B), or +Inf when the plan never crawls the page.
func (s *Scheduler) RevisitInterval(id uint64) (float64, error) {
	p, err := s.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_scheduler_revisit_interval(p, C.uint64_t(id), &out, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return never(float64(out)), nil
}

// NextDue is when page id, last crawled at lastVisit (any finite clock in
// the unit of the rates), is next due under the plan: lastVisit plus its
// RevisitInterval, or +Inf when it is never due.
func (s *Scheduler) NextDue(id uint64, lastVisit float64) (float64, error) {
	p, err := s.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var due C.double
	var has C.int32_t
	st := C.crawlsched_scheduler_next_due(p, C.uint64_t(id), C.double(lastVisit), &due, &has, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	if has == 0 {
		return math.Inf(1), nil
	}
	return float64(due), nil
}

// RevisitIntervals is every page's RevisitInterval keyed by page id, with
// one O(N) computation for all pages.
func (s *Scheduler) RevisitIntervals() (map[uint64]float64, error) {
	p, err := s.ptr()
	if err != nil {
		return nil, err
	}
	n, err := s.Len()
	if err != nil {
		return nil, err
	}
	return s.pagePairs(n, func(ids *C.uint64_t, vals *C.double, cap C.size_t, got *C.size_t, e *cerr) C.crawlsched_status_t {
		return C.crawlsched_scheduler_revisit_intervals(p, ids, vals, cap, got, e)
	}, never)
}
