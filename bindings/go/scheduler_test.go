package crawlsched

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
)

func newTestScheduler(t testing.TB, mode SchedulerMode, rates []float64) *Scheduler {
	d, err := NewDeterministic(1)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, err := NewScheduler(d, mode)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rates {
		if err := s.AddPage(uint64(i+1), r); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// With deterministic crawls and proportional weights the target shares
// are f_i = mu_i / mu, and next() follows them.
func TestScheduler(t *testing.T) {
	rates := []float64{0.1, 0.2, 0.3, 0.4}
	for _, mode := range []SchedulerMode{Stride, GoldenRatio} {
		s := newTestScheduler(t, mode, rates)
		if n := must[int](t)(s.Len()); n != 4 {
			t.Errorf("len %d", n)
		}
		for i, r := range rates {
			near(t, "frequency", must[float64](t)(s.Frequency(uint64(i+1))), r, 1e-9)
			near(t, "change rate", must[float64](t)(s.ChangeRate(uint64(i+1))), r, 1e-12)
		}
		all := must[map[uint64]float64](t)(s.Frequencies())
		if len(all) != len(rates) {
			t.Fatalf("Frequencies: %d pages", len(all))
		}
		for i, r := range rates {
			near(t, "frequencies", all[uint64(i+1)], r, 1e-9)
		}
		count := map[uint64]int{}
		const n = 10000
		for k := 0; k < n/2; k++ {
			id := must[uint64](t)(s.Next())
			count[id]++
		}
		batch := make([]uint64, n/2)
		ok(t, s.NextBatch(batch))
		for _, id := range batch {
			count[id]++
		}
		// Stride follows the shares closely; golden-ratio cycles round them
		// to integer counts per cycle (a Fibonacci length, here 34).
		tol := 0.002
		if mode == GoldenRatio {
			tol = 1.0 / 34
		}
		for i, r := range rates {
			near(t, fmt.Sprintf("mode %d share of page %d", mode, i+1), float64(count[uint64(i+1)])/n, r, tol)
		}
		ok(t, s.AddWeightedPage(99, 0.5, 2))
		ok(t, s.SetChangeRate(99, 0.25))
		near(t, "set rate", must[float64](t)(s.ChangeRate(99)), 0.25, 1e-12)
		ok(t, s.Observe(99, 1, true))
		ok(t, s.RemovePage(99))

		// Error paths.
		wantErr(t, "duplicate", s.AddPage(1, 0.1), ErrInvalidArgument)
		wantErr(t, "NaN rate", s.AddPage(7, math.NaN()), ErrInvalidArgument)
		wantErr(t, "bad weight", s.AddWeightedPage(7, 0.1, -1), ErrInvalidArgument)
		wantErr(t, "remove unknown", s.RemovePage(99), ErrNotFound)
		wantErr(t, "set unknown", s.SetChangeRate(99, 1), ErrNotFound)
		wantErr(t, "observe bad interval", s.Observe(1, -1, false), ErrInvalidArgument)
		_, err := s.Frequency(12345)
		wantErr(t, "frequency unknown", err, ErrNotFound)
		_, err = s.ChangeRate(12345)
		wantErr(t, "rate unknown", err, ErrNotFound)
		s.Close()
		_, err = s.Next()
		wantErr(t, "closed next", err, ErrNullArgument)
		wantErr(t, "closed batch", s.NextBatch(batch), ErrNullArgument)
		_, err = s.Len()
		wantErr(t, "closed len", err, ErrNullArgument)
	}
	empty := newTestScheduler(t, Stride, nil)
	defer empty.Close()
	_, err := empty.Next()
	wantErr(t, "empty next", err, ErrNotFound)
	wantErr(t, "empty batch", empty.NextBatch(make([]uint64, 3)), ErrNotFound)
	d := must[*Dist](t)(NewExponential(1))
	defer d.Close()
	_, err = NewScheduler(d, 42)
	wantErr(t, "bad mode", err, ErrInvalidArgument)
	_, err = NewScheduler(nil, Stride)
	wantErr(t, "nil dist", err, ErrNullArgument)
}

// Many goroutines share one Scheduler; each provokes its own error (an
// unknown page id in the message) and must get its own message back, while
// others run successful calls between. The message travels in each call's
// own error struct, never in thread-local state.
func TestSchedulerErrorsAcrossGoroutines(t *testing.T) {
	s := newTestScheduler(t, GoldenRatio, []float64{0.1, 0.2, 0.3})
	defer s.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 64; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := 0; k < 200; k++ {
				id := uint64(1_000_000 + g*1000 + k)
				if _, err := s.Next(); err != nil {
					errs <- err
					return
				}
				err := s.RemovePage(id)
				var e *Error
				if !errors.As(err, &e) || e.Status != StatusNotFound || !strings.Contains(e.Message, fmt.Sprint(id)) {
					errs <- fmt.Errorf("goroutine %d: remove %d gave %v", g, id, err)
					return
				}
				_, err = s.Frequency(id)
				if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), fmt.Sprint(id)) {
					errs <- fmt.Errorf("goroutine %d: frequency %d gave %v", g, id, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func BenchmarkSchedulerNext(b *testing.B) {
	rates := make([]float64, 10000)
	for i := range rates {
		rates[i] = 0.01 + float64(i%100)/100
	}
	s := newTestScheduler(b, GoldenRatio, rates)
	defer s.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Next(); err != nil {
			b.Fatal(err)
		}
	}
}

// Per page: one cgo call per 256 pages.
func BenchmarkSchedulerNextBatch(b *testing.B) {
	rates := make([]float64, 10000)
	for i := range rates {
		rates[i] = 0.01 + float64(i%100)/100
	}
	s := newTestScheduler(b, GoldenRatio, rates)
	defer s.Close()
	buf := make([]uint64, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += len(buf) {
		if err := s.NextBatch(buf); err != nil {
			b.Fatal(err)
		}
	}
}

// Crawler goroutines sharing one Scheduler (the library's mutex serialises).
func BenchmarkSchedulerNextParallel(b *testing.B) {
	rates := make([]float64, 10000)
	for i := range rates {
		rates[i] = 0.01 + float64(i%100)/100
	}
	s := newTestScheduler(b, GoldenRatio, rates)
	defer s.Close()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Next(); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// AddPages gives the same frequencies and picks as the same pages added
// one by one (nil weights = AddPage, given = AddWeightedPage); a refused
// batch adds nothing.
func TestSchedulerAddPages(t *testing.T) {
	ids := []uint64{40, 10, 30, 20, 60, 50}
	rates := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}
	weights := []float64{1, 2, 1, 2, 1, 2}
	for _, mode := range []SchedulerMode{Stride, GoldenRatio} {
		one := newTestScheduler(t, mode, nil)
		defer one.Close()
		batch := newTestScheduler(t, mode, nil)
		defer batch.Close()
		for i := 0; i < 3; i++ {
			ok(t, one.AddPage(ids[i], rates[i]))
		}
		for i := 3; i < 6; i++ {
			ok(t, one.AddWeightedPage(ids[i], rates[i], weights[i]))
		}
		ok(t, batch.AddPages(ids[:3], rates[:3], nil))
		wantErr(t, "id already scheduled", batch.AddPages([]uint64{7, 40}, []float64{0.1, 0.1}, nil), ErrInvalidArgument)
		err := batch.AddPages([]uint64{7, 8}, []float64{0.1, math.NaN()}, nil)
		wantErr(t, "NaN rate", err, ErrInvalidArgument)
		if err != nil && !strings.Contains(err.Error(), "change_rates[1]") {
			t.Errorf("NaN rate: message %q does not name change_rates[1]", err)
		}
		wantErr(t, "repeated id", batch.AddPages([]uint64{7, 7}, []float64{0.1, 0.2}, nil), ErrInvalidArgument)
		wantErr(t, "short rates", batch.AddPages([]uint64{7, 8}, []float64{0.1}, nil), ErrInvalidArgument)
		ok(t, batch.AddPages(nil, nil, nil))
		if n := must[int](t)(batch.Len()); n != 3 {
			t.Fatalf("refused batches added pages: len %d", n)
		}
		ok(t, batch.AddPages(ids[3:], rates[3:], weights[3:]))
		fo := must[map[uint64]float64](t)(one.Frequencies())
		fb := must[map[uint64]float64](t)(batch.Frequencies())
		if len(fo) != 6 || len(fb) != 6 {
			t.Fatalf("frequencies of %d and %d pages", len(fo), len(fb))
		}
		for id, f := range fo {
			if fb[id] != f {
				t.Errorf("mode %d page %d: batch frequency %v, one by one %v", mode, id, fb[id], f)
			}
		}
		po, pb := make([]uint64, 1000), make([]uint64, 1000)
		ok(t, one.NextBatch(po))
		ok(t, batch.NextBatch(pb))
		for k := range po {
			if po[k] != pb[k] {
				t.Fatalf("mode %d pick %d: batch %d, one by one %d", mode, k, pb[k], po[k])
			}
		}
	}
}
