package crawlsched

import (
	"math"
	"testing"
)

// Cost of the best split of units grid cells of width w into n parts when
// C(s, f) = (f - s)^2 (lambda = 2, a = 1): parts as equal as possible.
func splitCost(units, n int, w float64) float64 {
	q, r := units/n, units%n
	hi, lo := float64(q+1)*w, float64(q)*w
	return float64(r)*hi*hi + float64(n-r)*lo*lo
}

func flatProfile(t *testing.T) *ProbeProfile {
	pc := func(v float64) PiecewiseConstant {
		return PiecewiseConstant{Breaks: []float64{0, 1}, Values: []float64{v}, Periodic: true}
	}
	return must[*ProbeProfile](t)(NewProbeProfile(pc(2), pc(1), 4))
}

func TestProbeProfile(t *testing.T) {
	f := must[float64](t)
	flat := flatProfile(t)
	defer flat.Close()
	// lambda = 2, a = 1: C(s, f) = (f - s)^2.
	near(t, "C(1, 3)", f(flat.IntervalCost(1, 3)), 4, 1e-12)
	uni := must[[]float64](t)(flat.Uniform(4))
	near(t, "uniform[0]", uni[0], 1, 1e-15)
	near(t, "uniform[3]", uni[3], 4, 0)
	near(t, "expected", f(flat.ExpectedCost(uni)), 4, 1e-12)
	near(t, "realized", f(flat.RealizedCost([]float64{2, 4}, []float64{0.5, 3})), (2-0.5)+(4-3), 1e-12)
	est := must[[]float64](t)(EstimateIntensity([]float64{0.1, 0.2, 0.3, 0.6}, 1, []float64{0, 0.5, 1}, false, 0))
	near(t, "MLE 0", est[0], 6, 1e-12)
	near(t, "MLE 1", est[1], 2, 1e-12)
	// Threshold level 0.81: a probe every 0.9, then T (size queried first).
	sch := must[[]float64](t)(flat.PolicySchedule(ProbeThreshold, 0.81))
	if len(sch) != 5 {
		t.Fatalf("schedule %v", sch)
	}
	near(t, "threshold probe", sch[3], 3.6, 1e-9)
	near(t, "last probe", sch[4], 4, 0)
	fa := must[[]float64](t)(flat.PolicySchedule(ProbeFirstArrival, 1-math.Exp(-0.6)))
	if len(fa) != 14 {
		t.Errorf("first arrival %v", fa)
	}
	near(t, "first arrival probe", fa[0], 0.3, 1e-9)
	b4, level, err := flat.PolicyWithBudget(ProbeThreshold, 4)
	ok(t, err)
	if len(b4) != 4 || level < 1-1e-9 || level >= 16.0/9 {
		t.Errorf("budget %v %g", b4, level)
	}
	near(t, "budget probe", b4[0], math.Sqrt(level), 1e-9)
	imp, moves, err := flat.Improve([]float64{1, 4}, ImproveParams{0, 0.5, 1.0 / 512, 0.5, 1e-12})
	ok(t, err)
	if math.Abs(imp[0]-2) > 0.02 || moves == 0 {
		t.Errorf("improve %v %d", imp, moves)
	}

	// Errors.
	_, err = flat.IntervalCost(3, 1)
	wantErr(t, "s > f", err, ErrInvalidArgument)
	_, err = flat.IntervalCost(math.NaN(), 1)
	wantErr(t, "NaN", err, ErrInvalidArgument)
	_, err = flat.ExpectedCost([]float64{2, 1, 4})
	wantErr(t, "unsorted", err, ErrInvalidArgument)
	_, err = flat.RealizedCost([]float64{2, 4}, []float64{3, 0.5})
	wantErr(t, "unsorted updates", err, ErrInvalidArgument)
	_, err = EstimateIntensity([]float64{0.1, 0.3, 0.2}, 1, []float64{0, 1}, false, 0)
	wantErr(t, "unsorted times", err, ErrInvalidArgument)
	_, err = EstimateIntensity(nil, 1, nil, false, 0)
	wantErr(t, "no breaks", err, ErrInvalidArgument)
	_, err = flat.Uniform(0)
	wantErr(t, "uniform 0", err, ErrInvalidArgument)
	_, err = flat.PolicySchedule(ProbeFirstArrival, 1.5)
	wantErr(t, "probability 1.5", err, ErrInvalidArgument)
	_, _, err = flat.PolicyWithBudget(9, 4)
	wantErr(t, "bad policy", err, ErrInvalidArgument)
	_, _, err = flat.Improve([]float64{1, 4}, ImproveParams{0, 0.5, 1.0 / 512, 0.5, 0})
	wantErr(t, "iota 0", err, ErrInvalidArgument)
	_, err = NewProbeProfile(PiecewiseConstant{Breaks: []float64{0, 1}, Values: []float64{-1}, Periodic: true},
		PiecewiseConstant{Breaks: []float64{0, 1}, Values: []float64{1}, Periodic: true}, 4)
	wantErr(t, "negative intensity", err, ErrInvalidArgument)
	_, err = NewProbeProfile(PiecewiseConstant{Breaks: []float64{0}, Values: []float64{1}}, PiecewiseConstant{}, 4)
	wantErr(t, "breaks length", err, ErrInvalidArgument)
	_, err = DBWorldProfile(0, 28)
	wantErr(t, "ratio 0", err, ErrInvalidArgument)
	_, err = MicroNetProfile(3, -1)
	wantErr(t, "negative horizon", err, ErrInvalidArgument)
	flat.Close()
	_, err = flat.Uniform(4)
	wantErr(t, "closed profile", err, ErrNullArgument)
}

func TestProbePlanner(t *testing.T) {
	flat := flatProfile(t)
	defer flat.Close()
	pl := must[*ProbePlanner](t)(NewProbePlanner(flat, 8, 0))
	defer pl.Close()
	for n := 1; n <= 8; n++ {
		for _, m := range []ProbeMethod{ProbeReference, ProbeDivideConquer, ProbeHull, ProbeLagrangian} {
			plan, c, err := pl.Plan(n, m)
			ok(t, err)
			near(t, "plan cost", c, splitCost(8, n, 0.5), 1e-12)
			near(t, "last probe", plan[n-1], 4, 0)
		}
	}
	all := must[[]float64](t)(pl.AllCosts(8))
	for n := 1; n <= 8; n++ {
		near(t, "all costs", all[n-1], splitCost(8, n, 0.5), 1e-12)
	}
	// Spacing 1.5: 3 probes do not fit in T = 4.
	ok(t, pl.SetConstraints(1.5, nil, nil))
	_, _, err := pl.Plan(3, ProbeLagrangian)
	wantErr(t, "spacing", err, ErrInfeasible)
	// Window [0.9, 1.1]: 2 probes at 1 and 4 cost 1 + 9.
	ok(t, pl.SetConstraints(0, []float64{0.9}, []float64{1.1}))
	plan, c, err := pl.Plan(2, ProbeLagrangian)
	ok(t, err)
	near(t, "window probe", plan[0], 1, 1e-12)
	near(t, "window cost", c, 10, 1e-12)
	wantErr(t, "window lengths", pl.SetConstraints(0, []float64{0.9}, nil), ErrInvalidArgument)
	wantErr(t, "NaN spacing", pl.SetConstraints(math.NaN(), nil, nil), ErrInvalidArgument)
	ok(t, pl.SetConstraints(0, nil, nil))
	_, _, err = pl.Plan(9, ProbeLagrangian)
	wantErr(t, "n > N", err, ErrInvalidArgument)
	_, _, err = pl.Plan(4, 42)
	wantErr(t, "bad method", err, ErrInvalidArgument)
	_, err = pl.AllCosts(9)
	wantErr(t, "max_n > N", err, ErrInvalidArgument)

	// The paper's DBWorld check values: ratio 3, delta 0, 28 days, hourly grid.
	db := must[*ProbeProfile](t)(DBWorldProfile(3, 28))
	defer db.Close()
	mn := must[*ProbeProfile](t)(MicroNetProfile(3, 28))
	defer mn.Close()
	dp := must[*ProbePlanner](t)(NewProbePlanner(db, 672, 0))
	defer dp.Close()
	ns := []int{4, 8, 14, 28, 56}
	opt := []float64{611.7427, 301.0284, 168.9081, 80.5915, 40.7283}
	unif := []float64{696.0875, 342.4025, 199.6175, 107.9125, 50.5125}
	for k, n := range ns {
		_, c, err := dp.Plan(n, ProbeLagrangian)
		ok(t, err)
		near(t, "DBWorld optimal", c, opt[k], 5e-5)
		u := must[[]float64](t)(db.Uniform(n))
		near(t, "DBWorld uniform", must[float64](t)(db.ExpectedCost(u)), unif[k], 5e-5)
	}
	// Re-plan on MicroNet: the planner's cost is the profile's expected cost.
	ok(t, dp.SetProfile(mn))
	s, cmn, err := dp.Plan(14, ProbeLagrangian)
	ok(t, err)
	near(t, "MicroNet plan", must[float64](t)(mn.ExpectedCost(s)), cmn, 1e-12)

	_, err = NewProbePlanner(flat, 0, 0)
	wantErr(t, "grid 0", err, ErrInvalidArgument)
	_, err = NewProbePlanner(flat, math.MaxUint64, 0)
	wantErr(t, "huge grid", err, ErrTooLarge)
	wantErr(t, "nil profile", dp.SetProfile(nil), ErrNullArgument)
	dp.Close()
	_, _, err = dp.Plan(4, ProbeLagrangian)
	wantErr(t, "closed planner", err, ErrNullArgument)
	_, err = dp.AllCosts(4)
	wantErr(t, "closed planner", err, ErrNullArgument)
}
