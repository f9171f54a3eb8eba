package crawlsched

/*
#include "crawlsched.h"
*/
import "C"

import (
	"math"
	"math/bits"
	"runtime"
)

// FreshnessShard is some pages of a general-weights freshness model,
// evaluated at a multiplier ln(lambda) in absolute units, for solves a
// distributed engine drives (crawlsched_freshness_shard_t). Immutable: safe
// for concurrent use. Drive the shards with MultiplierSearch.
type FreshnessShard struct {
	p *C.crawlsched_freshness_shard_t
	n int
}

// ShardSummary is what MultiplierSearch needs from the shards: combine
// them by adding SumA and taking the min of LnWMin and the max of LnWMax.
type ShardSummary struct {
	SumA, LnWMin, LnWMax float64
}

// NewFreshnessShard is the shard of all of model's pages (copied: the
// model may be closed afterwards).
func NewFreshnessShard(model *FreshnessModel) (*FreshnessShard, error) {
	mp, err := model.ptr()
	if err != nil {
		return nil, err
	}
	var e cerr
	var p *C.crawlsched_freshness_shard_t
	st := C.crawlsched_freshness_shard_new(mp, &p, &e)
	runtime.KeepAlive(model)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	s := &FreshnessShard{p: p, n: model.n}
	runtime.SetFinalizer(s, (*FreshnessShard).Close)
	return s, nil
}

// Close frees the shard. Idempotent.
func (s *FreshnessShard) Close() error {
	if s != nil && s.p != nil {
		C.crawlsched_freshness_shard_free(s.p)
		s.p = nil
		runtime.SetFinalizer(s, nil)
	}
	return nil
}

func (s *FreshnessShard) ptr() (*C.crawlsched_freshness_shard_t, error) {
	if s == nil || s.p == nil {
		return nil, closedErr("FreshnessShard")
	}
	return s.p, nil
}

// Summary is the shard's sum of -ln h_i and range of ln weights.
func (s *FreshnessShard) Summary() (ShardSummary, error) {
	p, err := s.ptr()
	if err != nil {
		return ShardSummary{}, err
	}
	var a, lo, hi C.double
	var e cerr
	st := C.crawlsched_freshness_shard_summary(p, &a, &lo, &hi, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return ShardSummary{}, err
	}
	return ShardSummary{float64(a), float64(lo), float64(hi)}, nil
}

// ShardSums is what a shard reports at a multiplier: its sum of
// frequencies, the sum's derivative against lnLambda (<= 0), and the sum
// exactly as an unsigned 128-bit count of 2^-80 (ExactHi*2^64 + ExactLo;
// each frequency truncated to that grid), which does not depend on how
// the pages are split.
type ShardSums struct {
	Sum, Dsum        float64
	ExactHi, ExactLo uint64
}

// Add is the total of both shards' sums (the exact sums as saturating
// 128-bit integers).
func (a ShardSums) Add(b ShardSums) ShardSums {
	lo, carry := bits.Add64(a.ExactLo, b.ExactLo, 0)
	hi, over := bits.Add64(a.ExactHi, b.ExactHi, carry)
	if over != 0 {
		hi, lo = math.MaxUint64, math.MaxUint64
	}
	return ShardSums{a.Sum + b.Sum, a.Dsum + b.Dsum, hi, lo}
}

// SumAt is the shard's sums at lnLambda.
func (s *FreshnessShard) SumAt(lnLambda float64) (ShardSums, error) {
	p, err := s.ptr()
	if err != nil {
		return ShardSums{}, err
	}
	var v, d C.double
	var hi, lo C.uint64_t
	var e cerr
	st := C.crawlsched_freshness_shard_sum_at(p, C.double(lnLambda), &v, &d, &hi, &lo, &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return ShardSums{}, err
	}
	return ShardSums{float64(v), float64(d), uint64(hi), uint64(lo)}, nil
}

// FrequenciesAt is the shard's frequencies at lnLambda (at the final
// multiplier: its share of the plan).
func (s *FreshnessShard) FrequenciesAt(lnLambda float64) ([]float64, error) {
	p, err := s.ptr()
	if err != nil {
		return nil, err
	}
	out := make([]float64, s.n)
	var e cerr
	st := C.crawlsched_freshness_shard_frequencies_at(p, C.double(lnLambda), f64p(out), sz(len(out)), &e)
	runtime.KeepAlive(s)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	return out, nil
}

// MultiplierSearch finds the multiplier at which all shards' frequencies
// sum to 1 from the shards' sums alone
// (crawlsched_freshness_multiplier_search_t). Calls are serialised by the
// library: safe for concurrent use.
type MultiplierSearch struct {
	p *C.crawlsched_freshness_multiplier_search_t
}

// NewMultiplierSearch starts a search from the shards' combined summary.
func NewMultiplierSearch(total ShardSummary) (*MultiplierSearch, error) {
	var e cerr
	var p *C.crawlsched_freshness_multiplier_search_t
	st := C.crawlsched_freshness_multiplier_search_new(C.double(total.SumA), C.double(total.LnWMin), C.double(total.LnWMax), &p, &e)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	m := &MultiplierSearch{p: p}
	runtime.SetFinalizer(m, (*MultiplierSearch).Close)
	return m, nil
}

// Close frees the search. Idempotent.
func (m *MultiplierSearch) Close() error {
	if m != nil && m.p != nil {
		C.crawlsched_freshness_multiplier_search_free(m.p)
		m.p = nil
		runtime.SetFinalizer(m, nil)
	}
	return nil
}

func (m *MultiplierSearch) ptr() (*C.crawlsched_freshness_multiplier_search_t, error) {
	if m == nil || m.p == nil {
		return nil, closedErr("MultiplierSearch")
	}
	return m.p, nil
}

// Next is the ln lambda at which to evaluate the shards (done false), or
// the final one (done true).
func (m *MultiplierSearch) Next() (done bool, lnLambda float64, err error) {
	p, err := m.ptr()
	if err != nil {
		return false, 0, err
	}
	var d C.int32_t
	var x C.double
	var e cerr
	st := C.crawlsched_freshness_multiplier_search_next(p, &d, &x, &e)
	runtime.KeepAlive(m)
	if err := check(st, &e); err != nil {
		return false, 0, err
	}
	return d != 0, float64(x), nil
}

// Update takes the shards' totals of SumAt at the ln lambda last proposed
// (added with ShardSums.Add). The float sums steer the search, the exact
// one ends it, the same however the pages are split.
func (m *MultiplierSearch) Update(total ShardSums) error {
	p, err := m.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_freshness_multiplier_search_update(p, C.double(total.Sum), C.double(total.Dsum),
		C.uint64_t(total.ExactHi), C.uint64_t(total.ExactLo), &e)
	runtime.KeepAlive(m)
	return check(st, &e)
}
