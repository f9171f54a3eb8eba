package crawlsched

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// The documented state of docs/c-api.md: visits after 1 (changed) and 2
// (unchanged), no prior; its MLE solves 1/(e^mu - 1) = 2: mu = ln 1.5.
func TestEstimatorStateRoundTrip(t *testing.T) {
	x := must[*Estimator](t)(NewEstimator())
	defer x.Close()
	if err := x.Observe(1, true); err != nil {
		t.Fatal(err)
	}
	if err := x.Observe(2, false); err != nil {
		t.Fatal(err)
	}
	b := must[[]byte](t)(x.State())
	want := []byte{0xC5, 1, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 8, 0x40, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 1}
	if !bytes.Equal(b, want) {
		t.Fatalf("state % x", b)
	}
	y := must[*Estimator](t)(NewEstimatorFromState(b))
	defer y.Close()
	text := must[string](t)(x.StateText())
	z := must[*Estimator](t)(NewEstimatorFromStateText(text))
	defer z.Close()
	if est := must[float64](t)(z.Estimate()); math.Abs(est-math.Log(1.5)) > 1e-15 {
		t.Fatalf("estimate %v", est)
	}
	for k := 0; k < 40; k++ {
		for _, e := range []*Estimator{x, y} {
			if err := e.Observe(0.3+0.1*float64(k%5), k%3 == 0); err != nil {
				t.Fatal(err)
			}
		}
		if a, b := must[float64](t)(x.Estimate()), must[float64](t)(y.Estimate()); a != b {
			t.Fatalf("after %d visits: %v vs %v", k, a, b)
		}
	}
	var e *Error
	if _, err := NewEstimatorFromState(b[:10]); !errors.As(err, &e) || e.Status != StatusInvalidArgument {
		t.Fatalf("truncated: %v", err)
	}
	if _, err := NewEstimatorFromStateText("x?"); !errors.As(err, &e) || e.Status != StatusInvalidArgument {
		t.Fatalf("bad text: %v", err)
	}
}

// Constant crawl time d: f_i = mu_i / sum(mu), so the interval is
// d sum(mu) / mu_i; a page the optimum never visits is due at +Inf.
func TestSchedulerDueTimes(t *testing.T) {
	d := must[*Dist](t)(NewDeterministic(0.5))
	defer d.Close()
	s := must[*Scheduler](t)(NewScheduler(d, Stride))
	defer s.Close()
	if err := s.AddPages([]uint64{30, 10, 20}, []float64{5, 1, 2}, nil); err != nil {
		t.Fatal(err)
	}
	want := map[uint64]float64{10: 4, 20: 2, 30: 0.8}
	all := must[map[uint64]float64](t)(s.RevisitIntervals())
	for id, w := range want {
		if math.Abs(all[id]-w) > 1e-13*w || math.Abs(must[float64](t)(s.RevisitInterval(id))-w) > 1e-13*w {
			t.Errorf("page %d: %v, want %v", id, all[id], w)
		}
		if due := must[float64](t)(s.NextDue(id, 100)); math.Abs(due-100-w) > 1e-12 {
			t.Errorf("page %d due %v", id, due)
		}
	}
	for k := 0; k < 20; k++ {
		if err := s.Observe(20, 0.4, k%2 == 0); err != nil {
			t.Fatal(err)
		}
	}
	st := must[string](t)(s.PageStateText(20))
	s2 := must[*Scheduler](t)(NewScheduler(d, Stride))
	defer s2.Close()
	if err := s2.AddPage(20, 2); err != nil {
		t.Fatal(err)
	}
	if err := s2.SetPageStateText(20, st); err != nil {
		t.Fatal(err)
	}
	if a, b := must[float64](t)(s.ChangeRate(20)), must[float64](t)(s2.ChangeRate(20)); a != b || a == 2 {
		t.Errorf("rates %v, %v", a, b)
	}
	if err := s2.SetPageState(20, []byte{0xC5, 9}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("bad state: %v", err)
	}

	ex := must[*Dist](t)(NewExponential(1))
	defer ex.Close()
	w := must[*Scheduler](t)(NewScheduler(ex, Stride))
	defer w.Close()
	if err := w.AddPages([]uint64{1, 2, 3}, []float64{1, 1, 1}, []float64{1, 1, 0.02}); err != nil {
		t.Fatal(err)
	}
	if iv := must[float64](t)(w.RevisitInterval(3)); !math.IsInf(iv, 1) {
		t.Errorf("never-visited page: interval %v", iv)
	}
	if due := must[float64](t)(w.NextDue(3, 5)); !math.IsInf(due, 1) {
		t.Errorf("never-visited page: due %v", due)
	}
	if _, err := w.NextDue(99, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown page: %v", err)
	}
}
