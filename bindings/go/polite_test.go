package crawlsched

import (
	"math"
	"testing"
)

// Loose caps give the unconstrained plan; one tight host gets exactly its
// cap times E[X]; NextAt never picks a host within its delay.
func TestPolitePlanAndNextAt(t *testing.T) {
	ex, err := NewExponential(2) // E[X] = 1/2
	ok(t, err)
	defer ex.Close()
	m, err := NewFreshnessModel(ex, []float64{0.1, 0.3, 0.5, 1, 2, 4}, nil)
	ok(t, err)
	defer m.Close()
	hosts := []uint32{0, 0, 1, 1, 2, 2}
	inf := math.Inf(1)
	want, err := m.OptimalFrequencies()
	ok(t, err)
	loose, err := m.PoliteFrequencies(hosts, []float64{inf, inf, inf}, PoliteEvenlySpaced, false, nil)
	ok(t, err)
	for i := range want {
		if math.Abs(loose.Frequencies[i]-want[i]) > 1e-12 {
			t.Errorf("f[%d] = %v, want %v", i, loose.Frequencies[i], want[i])
		}
	}
	tight, err := m.PoliteFrequencies(hosts, []float64{inf, inf, 0.6}, PoliteEvenlySpaced, false, nil)
	ok(t, err)
	if !tight.Saturated[2] || tight.Saturated[0] || math.Abs(tight.Frequencies[4]+tight.Frequencies[5]-0.3) > 1e-13 {
		t.Errorf("tight host: %+v", tight)
	}

	s, err := NewScheduler(ex, Stride)
	ok(t, err)
	defer s.Close()
	delays := []float64{1, 0.5, 2}
	for p := uint64(0); p < 12; p++ {
		ok(t, s.AddPage(p, 0.1*float64(p+1)))
		ok(t, s.SetHost(p, uint32(p%3)))
	}
	for h, d := range delays {
		ok(t, s.SetHostDelay(uint32(h), d))
	}
	if h, has, err := s.Host(4); err != nil || !has || h != 1 {
		t.Errorf("Host(4) = %v %v %v", h, has, err)
	}
	now, last, waits := 0.0, []float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}, 0
	for k := 0; k < 2000; k++ {
		id, wait, ready, err := s.NextAt(now)
		ok(t, err)
		if !ready {
			waits++
			now += wait
			continue
		}
		h := id % 3
		if now-last[h] < delays[h] {
			t.Fatalf("host %d picked %v after its previous pick, delay %v", h, now-last[h], delays[h])
		}
		last[h] = now
		now += 0.1
	}
	if waits == 0 {
		t.Error("no wait in 2000 picks at 10 per unit time")
	}
	ok(t, s.ClearHost(4))
	if _, has, _ := s.Host(4); has {
		t.Error("page 4 still has a host")
	}
	if d, err := s.HostDelay(2); err != nil || d != 2 {
		t.Errorf("HostDelay(2) = %v %v", d, err)
	}
}
