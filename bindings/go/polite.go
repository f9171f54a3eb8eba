package crawlsched

/*
#include "crawlsched.h"

// NextAt is a per-request call: it keeps no pointer and never calls back
// into Go, so cgo may leave its out-parameters on the Go stack.
#cgo noescape crawlsched_scheduler_next_at
#cgo nocallback crawlsched_scheduler_next_at
*/
import "C"

import (
	"runtime"
	"strconv"
	"unsafe"
)

// PoliteObjective selects what FreshnessModel.PoliteFrequencies minimises.
type PoliteObjective int32

const (
	// PoliteEvenlySpaced is the evenly spaced bound (Theorem 3.3, eqs. 8-9),
	// the objective of OptimalFrequencies.
	PoliteEvenlySpaced PoliteObjective = C.CRAWLSCHED_POLITE_EVENLY_SPACED
	// PoliteRandomized is the randomized policy's cost (eq. 15), the
	// objective of RandomizedOptimalFrequencies.
	PoliteRandomized PoliteObjective = C.CRAWLSCHED_POLITE_RANDOMIZED
)

// String is "evenly_spaced" or "randomized" (the names the shared test
// vectors and the Python binding use), or "PoliteObjective(n)".
func (o PoliteObjective) String() string {
	switch o {
	case PoliteEvenlySpaced:
		return "evenly_spaced"
	case PoliteRandomized:
		return "randomized"
	}
	return "PoliteObjective(" + strconv.Itoa(int(o)) + ")"
}

// PolitePlan is the optimal plan under per-host caps
// (crawlsched_freshness_polite_frequencies). The multipliers certify it:
// page i's frequency is the unconstrained optimum's formula at its host's
// multiplier, exp(LnHostMultipliers[hosts[i]]).
type PolitePlan struct {
	// Frequencies has one share of the crawls per page, in input order:
	// they sum to 1, or to CrawlRate*E[X] < 1 with slack.
	Frequencies []float64
	// Saturated says, per host, whether its cap binds: the host gets
	// exactly maxRates[h]/CrawlRate of the crawls.
	Saturated []bool
	// LnHostMultipliers is, per host, ln of the multiplier its pages are
	// solved at: LnMultiplier where the host is not saturated.
	LnHostMultipliers []float64
	// LnMultiplier is ln of the budget's multiplier (sum of frequencies =
	// 1); -Inf with slack (the budget does not bind).
	LnMultiplier float64
	// Objective is sum c_i r_i at the plan under the chosen objective.
	Objective float64
	// CrawlRate is the crawls per unit time the plan spends: 1/E[X], or
	// the sum of maxRates with slack.
	CrawlRate float64
}

// PoliteFrequencies is the plan minimising objective when page i is on
// host hosts[i] (one entry per page, each < len(maxRates), every host with
// at least one page) and host h accepts at most maxRates[h] crawls per
// unit time (finite > 0, e.g. 1/Crawl-delay, or math.Inf(1) for no limit).
// When the caps sum below the crawler's rate 1/E[X] the result is
// ErrInfeasible (the message gives the shortfall), or with allowSlack the
// plan that crawls every host at its cap. c (nil: none) gives the memory
// cap, cancellation and iteration cap. Safe for concurrent use.
//
// The arguments are positional like the C call's; objective is
// PoliteEvenlySpaced or PoliteRandomized.
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

// SetHost puts page id on host (any uint32: a politeness group, e.g. an
// index into the caller's table of host names) from the next pick,
// replacing its previous host. ErrNotFound for an unknown id.
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
// of its pages, in the unit of NextAt's clock and of the crawl times (Next
// rounds it up to whole slots of the mean crawl time, one slot per pick),
// from the next pick. A host keeps its delay while it has no pages. A
// scheduler with hosts keeps the clock of its first pick: Next after NextAt
// (or NextAt after Next) is an ErrInvalidArgument.
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

// NextAt is the pick at time now on the caller's clock (any finite
// reading, in the unit of the host delays, never decreasing from call to
// call): with ready true, id is the page to crawl now (and wait is 0);
// with ready false, every host with pages is within its delay, id is 0 and
// calling again at now+wait returns a page. A page of host h is returned
// only when at least HostDelay(h) has passed since the last pick of a page
// of h (by NextAt or Next); pages without a host are always ready. Errors:
// ErrInvalidArgument for now NaN, infinite or before the previous call's;
// ErrNotFound when no page is scheduled.
//
// The results are plain values, like a map lookup's (v, ok), so the hot
// path allocates nothing:
//
//	id, wait, ready, err := s.NextAt(now)
//	if err != nil { ... }
//	if !ready { time.Sleep(wait); continue }
//	crawl(id)
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
	if st != C.CRAWLSCHED_OK {
		return 0, 0, false, check(st, &e)
	}
	return uint64(cid), float64(w), r != 0, nil
}
