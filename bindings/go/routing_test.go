package crawlsched

import (
	"math"
	"testing"
)

// eq. (6) for two servers, Poisson(1) arrivals, losses: the cost per packet
// is sum over servers of rho_m^gap / n with rho_m = 1/(1 + mu_m).
func twoServerEq6(seq []uint32, mu [2]float64) float64 {
	n := len(seq)
	total := 0.0
	for m := 0; m < 2; m++ {
		rho := 1 / (1 + mu[m])
		first, last := -1, -1
		for i, s := range seq {
			if int(s) != m {
				continue
			}
			if last >= 0 {
				total += math.Pow(rho, float64(i-last))
			} else {
				first = i
			}
			last = i
		}
		if last >= 0 {
			total += math.Pow(rho, float64(first+n-last))
		}
	}
	return total / float64(n)
}

// g(n, mu2) of Figure 1: period (1, 2, ..., 2) of length n.
func gFig1(n int, mu2 float64) float64 {
	b := 1 / (1 + mu2)
	return (math.Pow(0.5, float64(n)) + b*b + float64(n-2)*b) / float64(n)
}

func TestRouting(t *testing.T) {
	f := must[float64](t)
	pois := must[*Arrivals](t)(NewPoissonArrivals(1))
	defer pois.Close()
	mmpp := must[*Arrivals](t)(NewMMPPArrivals([]float64{-0.1, 0.1, 0.3, -0.3}, []float64{0.5, 3.5}))
	defer mmpp.Close()
	erl := must[*Arrivals](t)(NewMAPArrivals(2, []float64{-1.6, 1.6, 0, -1.6}, []float64{0, 0, 1.6, 0}))
	near(t, "poisson rate", f(pois.Rate()), 1, 1e-15)
	near(t, "mmpp rate", f(mmpp.Rate()), 0.75*0.5+0.25*3.5, 1e-13)
	near(t, "erlang rate", f(erl.Rate()), 0.8, 1e-13)
	// Lemma 5.2: Poisson (lambda/(lambda+mu))^k; Erlang(2) (1.6/(1.6+mu))^(2k).
	near(t, "poisson transform", f(pois.Transform(3, 4)), math.Pow(0.25, 4), 1e-15)
	near(t, "erlang transform", f(erl.Transform(1.3, 5)), math.Pow(1.6/2.9, 10), 1e-13)

	mu := [2]float64{1, 3}
	s2 := must[*Servers](t)(NewServers(pois, mu[:], nil, RoutingLosses))
	defer s2.Close()
	s3 := must[*Servers](t)(NewServers(mmpp, []float64{0.5, 1, 2}, []float64{1, 2, 0.5}, RoutingLosses))
	defer s3.Close()
	erl.Close() // server sets keep copies
	if m := must[int](t)(s3.Len()); m != 3 {
		t.Errorf("len %d", m)
	}
	near(t, "immediate", f(s2.ImmediateCost(1, 3)), math.Pow(0.25, 3), 1e-15)
	pp, pt, err := s2.Cost([]uint32{0, 1, 1})
	ok(t, err)
	near(t, "cost per packet", pp, gFig1(3, 3), 1e-15)
	near(t, "cost per unit time", pt, gFig1(3, 3), 1e-15)

	// Figure 1 at mu2 = 3: the optimal period is (1, 2, 2).
	ex := must[RoutingPlan](t)(s2.OptimizeExhaustive(1, 8, nil))
	if len(ex.Period) != 3 || ex.Evaluations != 2+3+4+6+8+14+20+36 {
		t.Errorf("exhaustive %+v", ex)
	}
	near(t, "exhaustive cost", ex.Cost, gFig1(3, 3), 1e-15)
	near(t, "exhaustive eq6", twoServerEq6(ex.Period, mu), ex.Cost, 1e-15)
	loc := must[RoutingPlan](t)(s2.OptimizeLocal(1, 12, nil))
	near(t, "local cost", loc.Cost, gFig1(3, 3), 1e-15)
	// Theorem 4.2 neighbourhood vs brute force over all 2^7 periods.
	brute := math.Inf(1)
	for code := 0; code < 128; code++ {
		sq := make([]uint32, 7)
		for i := range sq {
			sq[i] = uint32(code>>i) & 1
		}
		brute = math.Min(brute, twoServerEq6(sq, mu))
	}
	mm := must[RoutingPlan](t)(s2.LocalSearchMultimodular(make([]uint32, 7), nil))
	near(t, "multimodular", mm.Cost, brute, 1e-14)
	near(t, "multimodular eq6", twoServerEq6(mm.Period, mu), brute, 1e-14)
	// A period longer than the initial guess is fetched after BUFFER_TOO_SMALL.
	ex3 := must[RoutingPlan](t)(s3.OptimizeExhaustive(1, 6, nil))
	loc3 := must[RoutingPlan](t)(s3.OptimizeLocal(1, 6, nil))
	near(t, "local = exhaustive (3 servers)", loc3.Cost, ex3.Cost, 1e-12)

	bal := must[[]uint32](t)(BalancedSequence([]uint64{3, 5}))
	cnt := [2]int{}
	for _, s := range bal {
		cnt[s]++
	}
	if len(bal) != 8 || cnt[0] != 3 || cnt[1] != 5 {
		t.Errorf("balanced %v", bal)
	}
	exact, exactT, err := s3.Cost([]uint32{0, 2, 1, 2, 1})
	ok(t, err)
	sim := must[RoutingSimulation](t)(s3.Simulate([]uint32{0, 2, 1, 2, 1}, 20000, 42, nil))
	if math.Abs(sim.PerPacket-exact) > 4*sim.StdError || math.Abs(sim.PerUnitTime-exactT) > 0.05*exactT {
		t.Errorf("simulation %+v, exact %g %g", sim, exact, exactT)
	}
	near(t, "g(5, 2)", f(TwoServerCost(5, 2)), gFig1(5, 2), 1e-15)
	near(t, "switch point 2", f(SwitchPoint(2)), 1+math.Sqrt2, 1e-9)
	for n := 3; n <= 5; n++ {
		b := 1 - math.Sqrt(1-(float64(n)+2)/math.Pow(2, float64(n)+1))
		near(t, "switch point", f(SwitchPoint(uint32(n))), 1/b-1, 1e-9)
	}

	per := []uint32{0, 1, 1, 2}
	r := must[*Router](t)(NewRouter(per, 3))
	defer r.Close()
	for i := 0; i < 6; i++ {
		if s := must[uint32](t)(r.Next()); s != per[i%4] {
			t.Errorf("router %d: %d", i, s)
		}
	}
	batch := make([]uint32, 7)
	ok(t, r.NextBatch(batch))
	for i, s := range batch {
		if s != per[(6+i)%4] {
			t.Errorf("batch %d: %d", i, s)
		}
	}

	// Errors.
	_, err = NewPoissonArrivals(math.NaN())
	wantErr(t, "NaN rate", err, ErrInvalidArgument)
	_, err = NewMMPPArrivals([]float64{-0.1, 0.2, 0.3, -0.3}, []float64{0.5, 3.5})
	wantErr(t, "not a generator", err, ErrInvalidArgument)
	_, err = NewMAPArrivals(2, []float64{-1.6, 1.6, 0, -1.6}, []float64{0, 0, 1})
	wantErr(t, "MAP length", err, ErrInvalidArgument)
	_, err = pois.Transform(-1, 1)
	wantErr(t, "negative mu", err, ErrInvalidArgument)
	_, err = NewServers(pois, []float64{1, math.NaN()}, nil, RoutingLosses)
	wantErr(t, "NaN service rate", err, ErrInvalidArgument)
	_, err = NewServers(pois, []float64{1, 2}, []float64{1}, RoutingLosses)
	wantErr(t, "weights length", err, ErrInvalidArgument)
	_, err = NewServers(pois, []float64{1, 2}, nil, 9)
	wantErr(t, "bad objective", err, ErrInvalidArgument)
	_, err = s2.ImmediateCost(2, 1)
	wantErr(t, "unknown server", err, ErrNotFound)
	_, _, err = s2.Cost(nil)
	wantErr(t, "empty period", err, ErrInvalidArgument)
	_, err = s2.OptimizeExhaustive(1, 40, nil)
	wantErr(t, "enumeration too large", err, ErrTooLarge)
	_, err = s2.OptimizeLocal(3, 2, nil)
	wantErr(t, "min > max", err, ErrInvalidArgument)
	_, err = s2.LocalSearchMultimodular(make([]uint32, 21), nil)
	wantErr(t, "multimodular too long", err, ErrTooLarge)
	_, err = s3.Simulate(per, 0, 1, nil)
	wantErr(t, "zero periods", err, ErrInvalidArgument)
	_, err = BalancedSequence([]uint64{0, 0})
	wantErr(t, "zero counts", err, ErrInvalidArgument)
	_, err = TwoServerCost(1, 2)
	wantErr(t, "n = 1", err, ErrInvalidArgument)
	_, err = SwitchPoint(60)
	wantErr(t, "n = 60", err, ErrInvalidArgument)
	_, err = NewRouter([]uint32{0, 3}, 3)
	wantErr(t, "server out of range", err, ErrInvalidArgument)
	_, err = NewRouter(nil, 3)
	wantErr(t, "empty router", err, ErrInvalidArgument)
	r.Close()
	_, err = r.Next()
	wantErr(t, "closed router", err, ErrNullArgument)
	wantErr(t, "closed router batch", r.NextBatch(batch), ErrNullArgument)
	_, err = erl.Rate()
	wantErr(t, "closed arrivals", err, ErrNullArgument)
	_, err = NewServers(erl, []float64{1}, nil, RoutingLosses)
	wantErr(t, "closed arrivals", err, ErrNullArgument)
}

func BenchmarkRouterNext(b *testing.B) {
	r, err := NewRouter([]uint32{0, 1, 1, 2}, 3)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := r.Next(); err != nil {
			b.Fatal(err)
		}
	}
}

// The floor: a cgo call into the library that does nothing.
func BenchmarkCgoFloor(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = LibraryABIVersion()
	}
}
