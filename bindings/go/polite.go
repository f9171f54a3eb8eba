package crawlsched

/*
#include "crawlsched.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// PoliteObjective selects what PoliteFrequencies minimises.
type PoliteObjective int32

const (
	// PoliteEvenlySpaced is the evenly spaced bound (Theorem 3.3, eqs. 8-9).
	PoliteEvenlySpaced PoliteObjective = C.CRAWLSCHED_POLITE_EVENLY_SPACED
	// PoliteRandomized is the randomized policy's cost (eq. 15).
	PoliteRandomized PoliteObjective = C.CRAWLSCHED_POLITE_RANDOMIZED
)

// PolitePlan is the optimal plan under per-host caps.
type PolitePlan struct {
	Frequencies       []float64 // one per page
	Saturated         []bool    // per host: its cap binds
	LnHostMultipliers []float64 // per host: ln of its multiplier
	LnMultiplier      float64   // ln of the budget's multiplier (-Inf with slack)
	Objective         float64   // sum c_i r_i at the plan
	CrawlRate         float64   // 1/E[X], or sum(maxRates) with slack
}

// PoliteFrequencies is the optimal plan when page i is on host hosts[i]
// and host h accepts at most maxRates[h] crawls per unit time (+Inf: no
// limit); allowSlack crawls at the caps' sum instead of ErrInfeasible when
// they cannot absorb 1/E[X]. c (nil: none) is the control.
func (m *FreshnessModel) PoliteFrequencies(hosts []uint32, maxRates []float64, objective PoliteObjective, allowSlack bool, c *Control) (*PolitePlan, error) {
	p, err := m.ptr()
	if err != nil {
		return nil, err
	}
	cp, err := c.optional()
	if err != nil {
		return nil, err
	}
	n, err := m.Len()
	if err != nil {
		return nil, err
	}
	flags := C.uint32_t(0)
	if allowSlack {
		flags = C.CRAWLSCHED_POLITE_ALLOW_SLACK
	}
	freq := make([]float64, n)
	sat := make([]uint8, len(maxRates))
	plan := &PolitePlan{LnHostMultipliers: make([]float64, len(maxRates))}
	var satp *C.uint8_t
	if len(sat) > 0 {
		satp = (*C.uint8_t)(unsafe.Pointer(&sat[0]))
	}
	var lnl, obj, rate C.double
	var outLen C.size_t
	var e cerr
	st := C.crawlsched_freshness_polite_frequencies(p, u32p(hosts), sz(len(hosts)), f64p(maxRates), sz(len(maxRates)),
		C.int32_t(objective), flags, cp, f64p(freq), sz(len(freq)), &outLen, satp, f64p(plan.LnHostMultipliers),
		&lnl, &obj, &rate, &e)
	runtime.KeepAlive(m)
	runtime.KeepAlive(c)
	runtime.KeepAlive(hosts)
	runtime.KeepAlive(maxRates)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	plan.Frequencies = freq[:int(outLen)]
	plan.Saturated = make([]bool, len(sat))
	for h, s := range sat {
		plan.Saturated[h] = s != 0
	}
	plan.LnMultiplier, plan.Objective, plan.CrawlRate = float64(lnl), float64(obj), float64(rate)
	return plan, nil
}

// SetHost puts page id on host (any uint32) from the next pick.
func (s *Scheduler) SetHost(id uint64, host uint32) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_scheduler_set_host(p, C.uint64_t(id), C.uint32_t(host), &e)
	runtime.KeepAlive(s)
	return check(st, &e)
}

// ClearHost takes page id off its host (no-op when it has none).
func (s *Scheduler) ClearHost(id uint64) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_scheduler_clear_host(p, C.uint64_t(id), &e)
	runtime.KeepAlive(s)
	return check(st, &e)
}

// Host is page id's host; ok is false when it has none.
func (s *Scheduler) Host(id uint64) (host uint32, ok bool, err error) {
	p, err := s.ptr()
	if err != nil {
		return 0, false, err
	}
	var e cerr
	var h C.uint32_t
	var has C.int32_t
	st := C.crawlsched_scheduler_host(p, C.uint64_t(id), &h, &has, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, false, err
	}
	return uint32(h), has != 0, nil
}

// SetHostDelay sets host's minimum delay (finite, >= 0) between two picks
// of its pages, in the unit of NextAt's clock.
func (s *Scheduler) SetHostDelay(host uint32, delay float64) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_scheduler_set_host_delay(p, C.uint32_t(host), C.double(delay), &e)
	runtime.KeepAlive(s)
	return check(st, &e)
}

// HostDelay is host's minimum delay (0 when none was set).
func (s *Scheduler) HostDelay(host uint32) (float64, error) {
	p, err := s.ptr()
	if err != nil {
		return 0, err
	}
	var e cerr
	var out C.double
	st := C.crawlsched_scheduler_host_delay(p, C.uint32_t(host), &out, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// NextAt is the page to crawl at time now on the caller's clock (ready),
// or, when every host with pages is in its delay, the wait after which
// one is (not ready). now is finite and non-decreasing between calls.
func (s *Scheduler) NextAt(now float64) (id uint64, wait float64, ready bool, err error) {
	p, err := s.ptr()
	if err != nil {
		return 0, 0, false, err
	}
	var e cerr
	var cid C.uint64_t
	var w C.double
	var r C.int32_t
	st := C.crawlsched_scheduler_next_at(p, C.double(now), &cid, &w, &r, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return 0, 0, false, err
	}
	return uint64(cid), float64(w), r != 0, nil
}
