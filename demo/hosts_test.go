package main

import (
	"math"
	"testing"
)

// WaterFill against its closed form: host 0 holds half the pages and
// allows a quarter of the crawls, so its pages get 1/4 / 2 each of the
// four; hosts 1 and 2 (no limit) share the other 3/4 in proportion to w.
func TestWaterFill(t *testing.T) {
	p := &Predictor{host: []int{0, 0, 1, 2}, limit: []float64{0.25, math.Inf(1), math.Inf(1)}, meanX: 1}
	got := p.WaterFill([]float64{1, 1, 1, 2})
	want := []float64{0.125, 0.125, 0.25, 0.5}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Fatalf("WaterFill = %v, want %v", got, want)
		}
	}
	// No binding limit: f in proportion to w.
	p.limit[0] = 0.6
	got = p.WaterFill([]float64{1, 1, 1, 1})
	for i := range got {
		if math.Abs(got[i]-0.25) > 1e-15 {
			t.Fatalf("WaterFill = %v, want 1/4 each", got)
		}
	}
}

// Uniform with every host ready is round robin in sitemap order; a host
// in its delay keeps its pages' turns for when it is ready.
func TestUniformKeepsTurns(t *testing.T) {
	lim := &Limiter{Host: []int{0, 1, 0, 1}, Delay: []float64{0, 10}}
	lim.free = make([]float64, 2)
	u := NewUniform(lim)
	var got []int
	for now := 0.0; now < 6; now++ {
		p, _, _ := u.Next(now, lim)
		lim.record(lim.Host[p], now)
		got = append(got, p)
	}
	// Page 1 (host 1) at 1, then host 1 waits until 11: host 0 alone.
	want := []int{0, 1, 2, 0, 2, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("picks %v, want %v", got, want)
		}
	}
}
