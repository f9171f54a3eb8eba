package crawlsched

import (
	"math"
	"testing"
)

// Two shards driven by MultiplierSearch give the single call's plan bit
// for bit.
func TestShardsReproduceTheSingleCall(t *testing.T) {
	mu := []float64{0.01, 0.1, 0.5, 1, 2, 5, 9}
	w := []float64{0.2, 3, 1, 0.5, 8, 1, 0.1}
	x := must[*Dist](t)(NewExponential(2))
	defer x.Close()
	all := must[*FreshnessModel](t)(NewFreshnessModel(x, mu, w))
	single := must[[]float64](t)(all.OptimalFrequencies())
	var shards []*FreshnessShard
	total := ShardSummary{0, math.Inf(1), math.Inf(-1)}
	for _, r := range [][2]int{{0, 3}, {3, 7}} {
		m := must[*FreshnessModel](t)(NewFreshnessModel(x, mu[r[0]:r[1]], w[r[0]:r[1]]))
		s := must[*FreshnessShard](t)(NewFreshnessShard(m))
		m.Close()
		defer s.Close()
		v := must[ShardSummary](t)(s.Summary())
		total = ShardSummary{total.SumA + v.SumA, math.Min(total.LnWMin, v.LnWMin), math.Max(total.LnWMax, v.LnWMax)}
		shards = append(shards, s)
	}
	search := must[*MultiplierSearch](t)(NewMultiplierSearch(total))
	defer search.Close()
	var lnLambda float64
	for it := 0; ; it++ {
		done, x, err := search.Next()
		ok(t, err)
		if done || it > 100 {
			lnLambda = x
			break
		}
		var total ShardSums
		for _, s := range shards {
			v, err := s.SumAt(x)
			ok(t, err)
			total = total.Add(v)
		}
		ok(t, search.Update(total))
	}
	var f []float64
	for _, s := range shards {
		f = append(f, must[[]float64](t)(s.FrequenciesAt(lnLambda))...)
	}
	for i := range single {
		if f[i] != single[i] {
			t.Errorf("page %d: %g vs %g", i, f[i], single[i])
		}
	}
	wantErr(t, "sum < 0", search.Update(ShardSums{Sum: -1}), ErrInvalidArgument)
	full := ShardSums{ExactHi: math.MaxUint64, ExactLo: 5}
	if got := full.Add(ShardSums{ExactLo: math.MaxUint64}); got.ExactHi != math.MaxUint64 || got.ExactLo != math.MaxUint64 {
		t.Errorf("exact sums saturate: %+v", got)
	}
}
