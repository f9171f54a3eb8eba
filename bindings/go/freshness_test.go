package crawlsched

import (
	"math"
	"testing"
)

// Deterministic crawl time E[X] = 1 and proportional weights: the optimal
// frequencies are f_i = mu_i / mu and the lower bound is
// mu - 1/E[X] + e^{-mu E[X]}/E[X] (Theorem 3.4).
func TestFreshnessDeterministic(t *testing.T) {
	f := must[float64](t)
	vec := must[[]float64](t)
	mu := []float64{0.1, 0.15, 0.2, 0.3}
	total := 0.75
	x := must[*Dist](t)(NewDeterministic(1))
	m := must[*FreshnessModel](t)(NewFreshnessModel(x, mu, nil))
	defer m.Close()
	x.Close() // the model keeps its own copy
	if n := must[int](t)(m.Len()); n != 4 {
		t.Errorf("len %d", n)
	}
	h := vec(m.H())
	for i := range mu {
		near(t, "h", h[i], math.Exp(-mu[i]), 1e-15)
	}
	freq := vec(m.OptimalFrequencies())
	for i := range mu {
		near(t, "f", freq[i], mu[i]/total, 1e-12)
	}
	lb := f(m.LowerBound())
	near(t, "lower bound", lb, total-1+math.Exp(-total), 1e-12)
	near(t, "cost at optimum", f(m.Cost(freq)), lb, 1e-12)
	r := vec(m.ObsolescenceBound(freq))
	for i := range mu {
		near(t, "r_i", r[i], 1-(1-math.Exp(-total))/total, 1e-12)
	}
	// Randomized policy: f_i ∝ 1/h_i - 1 (Theorem 4.1).
	rf := vec(m.RandomizedOptimalFrequencies())
	s := 0.0
	for i := range mu {
		s += math.Exp(mu[i]) - 1
	}
	for i := range mu {
		near(t, "randomized f", rf[i], (math.Exp(mu[i])-1)/s, 1e-10)
	}
	rc := f(m.RandomizedOptimalCost())
	near(t, "randomized cost", f(m.RandomizedCost(rf)), rc, 1e-12)
	if rc < lb {
		t.Errorf("randomized %g below the lower bound %g", rc, lb)
	}
	// Eq. (18) and Corollary 5.1.
	phi := (1 + math.Sqrt(5)) / 2
	q := total
	near(t, "golden bound", f(m.GoldenRatioBound()),
		q-1+(1-1/phi)*math.Exp(-phi*q/math.Sqrt(5))+math.Exp(-phi*phi*q/math.Sqrt(5))/phi, 1e-12)
	near(t, "H(0)", f(BoundRatio(0)), 2*phi*phi/5, 1e-12)

	// Cyclic sequences: counts, golden ratio, round robin, exact costs.
	counts := must[[]uint64](t)(IntegerCounts([]float64{0.5, 0.25, 0.25}, 8, false))
	if counts[0] != 4 || counts[1] != 2 || counts[2] != 2 {
		t.Errorf("counts %v", counts)
	}
	if n := must[uint64](t)(FibonacciAtLeast(10)); n != 13 {
		t.Errorf("fib %d", n)
	}
	for name, fn := range map[string]func([]uint64) ([]uint32, error){"golden": GoldenRatioSequence, "round robin": RoundRobinSequence} {
		seq := must[[]uint32](t)(fn([]uint64{4, 2, 2}))
		got := make([]uint64, 3)
		for _, p := range seq {
			got[p]++
		}
		if len(seq) != 8 || got[0] != 4 || got[1] != 2 || got[2] != 2 {
			t.Errorf("%s sequence %v", name, seq)
		}
	}
	// Each page once per cycle of 4 crawls: gap T = 4, r_i = 1 - (1 - e^{-4 mu_i})/(4 mu_i).
	rr := []uint32{0, 1, 2, 3}
	want, wantR := 0.0, make([]float64, 4)
	for i, u := range mu {
		wantR[i] = 1 - (1-math.Exp(-4*u))/(4*u)
		want += u * wantR[i]
	}
	near(t, "cyclic cost", f(m.CyclicCost(rr)), want, 1e-12)
	cr := vec(m.CyclicObsolescence(rr))
	for i := range mu {
		near(t, "cyclic r_i", cr[i], wantR[i], 1e-12)
	}
	sim, se, err := m.SimulateCyclic(rr, 20000, 3, nil)
	ok(t, err)
	if math.Abs(sim-want) > 5*se || se <= 0 {
		t.Errorf("simulated %g ± %g, exact %g", sim, se, want)
	}

	// Error paths, one per function family.
	_, err = NewFreshnessModel(x, mu, nil)
	wantErr(t, "closed access dist", err, ErrNullArgument)
	y := must[*Dist](t)(NewExponential(1))
	defer y.Close()
	_, err = NewFreshnessModel(y, []float64{0.1, math.NaN()}, nil)
	wantErr(t, "NaN rate", err, ErrInvalidArgument)
	_, err = NewFreshnessModel(y, mu, []float64{1})
	wantErr(t, "weights length", err, ErrInvalidArgument)
	_, err = m.Cost([]float64{0.5, 0.5})
	wantErr(t, "freq length", err, ErrInvalidArgument)
	_, err = m.RandomizedCost([]float64{0.5, 0.5, 0.5, 0.5})
	wantErr(t, "freq sum", err, ErrInvalidArgument)
	_, err = m.ObsolescenceBound(nil)
	wantErr(t, "freq nil", err, ErrInvalidArgument)
	_, err = m.CyclicCost([]uint32{0, 9})
	wantErr(t, "page index", err, ErrInvalidArgument)
	_, err = m.CyclicObsolescence(nil)
	wantErr(t, "empty seq", err, ErrInvalidArgument)
	_, _, err = m.SimulateCyclic(rr, 0, 1, nil)
	wantErr(t, "zero cycles", err, ErrInvalidArgument)
	_, err = BoundRatio(math.NaN())
	wantErr(t, "H(NaN)", err, ErrInvalidArgument)
	_, err = IntegerCounts([]float64{0.5, math.Inf(1)}, 8, false)
	wantErr(t, "counts inf", err, ErrInvalidArgument)
	_, err = GoldenRatioSequence(nil)
	wantErr(t, "empty counts", err, ErrInvalidArgument)
	_, err = RoundRobinSequence([]uint64{0, 0})
	wantErr(t, "zero counts", err, ErrInvalidArgument)
	_, err = FibonacciAtLeast(math.MaxUint64)
	if err == nil {
		t.Error("fibonacci overflow gave no error")
	}
	wm := must[*FreshnessModel](t)(NewFreshnessModel(y, mu, []float64{1, 1, 1, 1}))
	_, err = wm.GoldenRatioBound()
	wantErr(t, "golden bound, weights", err, ErrInvalidArgument)
	wm.Close()
	for name, call := range map[string]func() error{
		"H":        func() error { _, e := wm.H(); return e },
		"lower":    func() error { _, e := wm.LowerBound(); return e },
		"optimal":  func() error { _, e := wm.OptimalFrequencies(); return e },
		"len":      func() error { _, e := wm.Len(); return e },
		"simulate": func() error { _, _, e := wm.SimulateCyclic(rr, 1, 1, nil); return e },
	} {
		wantErr(t, "closed model "+name, call(), ErrNullArgument)
	}
}

func TestEstimator(t *testing.T) {
	est := must[*Estimator](t)(NewEstimator())
	defer est.Close()
	_, err := est.Estimate()
	wantErr(t, "no data", err, ErrNotFound)
	for k := 0; k < 100; k++ {
		ok(t, est.Observe(2, k%4 == 0))
	}
	// Censored Poisson MLE with equal intervals: -ln(1 - changed/visits)/interval.
	near(t, "estimate", must[float64](t)(est.Estimate()), -math.Log(1-0.25)/2, 1e-10)
	if n := must[uint64](t)(est.Observations()); n != 100 {
		t.Errorf("observations %d", n)
	}
	wantErr(t, "NaN interval", est.Observe(math.NaN(), true), ErrInvalidArgument)
	p := must[*Estimator](t)(NewEstimatorWithPrior(0.5, 10))
	near(t, "prior mode", must[float64](t)(p.Estimate()), 0.5, 1e-12)
	p.Close()
	wantErr(t, "closed estimator", p.Observe(1, true), ErrNullArgument)
	_, err = p.Observations()
	wantErr(t, "closed estimator", err, ErrNullArgument)
	_, err = NewEstimatorWithPrior(-1, 10)
	wantErr(t, "negative prior", err, ErrInvalidArgument)
}
