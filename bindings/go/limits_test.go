package crawlsched

import (
	"math/rand"
	"strings"
	"testing"
	"time"
)

// randomMDP has n states with two actions each (to s+1 and two random
// states, random costs): value iteration never reaches a span of 1e-300.
func randomMDP(t *testing.T, n int) *MDP {
	t.Helper()
	rng := rand.New(rand.NewSource(1))
	b, err := NewMDPBuilder(n)
	ok(t, err)
	defer b.Close()
	for s := 0; s < n; s++ {
		for a := 0; a < 2; a++ {
			w := []float64{0.2 + rng.Float64(), rng.Float64(), rng.Float64()}
			sum := w[0] + w[1] + w[2]
			p := []float64{w[0] / sum, w[1] / sum, 1 - w[0]/sum - w[1]/sum}
			next := []uint32{uint32((s + 1) % n), uint32(rng.Intn(n)), uint32(rng.Intn(n))}
			_, err := b.AddAction(uint32(s), next, p, 10*rng.Float64())
			ok(t, err)
		}
	}
	m, err := b.Build()
	ok(t, err)
	return m
}

func TestControlCancelsALongSolveFromAnotherGoroutine(t *testing.T) {
	m := randomMDP(t, 5000)
	defer m.Close()
	c, err := NewControl()
	ok(t, err)
	defer c.Close()
	s, err := NewMDPSolver(ValueIteration)
	ok(t, err)
	defer s.Close()
	ok(t, s.SetLimits(1e-300, 1<<40, StopSpan))
	ok(t, s.SetControl(c))
	go func() {
		time.Sleep(50 * time.Millisecond)
		if err := c.Cancel(); err != nil {
			t.Error(err)
		}
	}()
	wantErr(t, "Run", s.Run(m), ErrCancelled)
	st, err := s.Stats()
	ok(t, err)
	if st.Converged || st.Iterations == 0 {
		t.Errorf("stats after cancel: %+v", st)
	}
	g, lo, hi, err := s.Gain()
	ok(t, err)
	if !(lo <= g && g <= hi) {
		t.Errorf("gain %v outside [%v, %v]", g, lo, hi)
	}
	v, err := s.Values()
	ok(t, err)
	if len(v) != 5000 {
		t.Errorf("%d values", len(v))
	}
	cancelled, err := c.IsCancelled()
	ok(t, err)
	if !cancelled {
		t.Error("IsCancelled = false after Cancel")
	}
	// Reset: the control's iteration cap stops the run instead.
	ok(t, c.Reset())
	ok(t, c.SetMaxIterations(3))
	wantErr(t, "Run", s.Run(m), ErrNotConverged)
	st, err = s.Stats()
	ok(t, err)
	if st.Iterations != 3 || st.Converged {
		t.Errorf("stats with an iteration cap of 3: %+v", st)
	}
	// A memory cap below the 44 bytes per state value iteration needs.
	ok(t, c.SetMemoryLimit(44*5000-1))
	err = s.Run(m)
	wantErr(t, "Run", err, ErrTooLarge)
	if err != nil && !strings.Contains(err.Error(), "5000 states") {
		t.Errorf("message lacks the state count: %v", err)
	}
	// Detached: the solver's own limits again.
	ok(t, s.SetControl(nil))
	ok(t, s.SetLimits(1e-6, 100000, StopSpan))
	ok(t, s.Run(m))
}

func TestControlOnRobotsAndThresholdSearch(t *testing.T) {
	c, err := NewControl()
	ok(t, err)
	defer c.Close()
	plain, err := SolveRobots(7, 5, 0.1, 1, 0.4, nil)
	ok(t, err)
	defer plain.Close()
	r, err := SolveRobots(7, 5, 0.1, 1, 0.4, c)
	ok(t, err)
	defer r.Close()
	c1, _, _, err := plain.Cost()
	ok(t, err)
	c2, _, _, err := r.Cost()
	ok(t, err)
	if c1 != c2 {
		t.Errorf("cost with control %v, without %v", c2, c1)
	}
	ok(t, c.Cancel())
	_, err = SolveRobots(7, 5, 0.1, 1, 0.4, c)
	wantErr(t, "SolveRobots", err, ErrCancelled)

	p1, err := NewPoissonBMAP(0.5)
	ok(t, err)
	p2, err := NewPoissonBMAP(1)
	ok(t, err)
	sv, err := NewExponential(2)
	ok(t, err)
	m, err := NewThresholdModel([]*BMAP{p1, p2}, sv, nil, 10)
	ok(t, err)
	defer m.Close()
	w := []float64{3, 1, 0.2, 0.5, 2}
	_, err = m.Optimize([]uint32{2, 1}, w, 1000, c)
	wantErr(t, "Optimize", err, ErrCancelled)
	ok(t, c.Reset())
	got, err := m.Optimize([]uint32{2, 1}, w, 1000, c)
	ok(t, err)
	want, err := m.Optimize([]uint32{2, 1}, w, 1000, nil)
	ok(t, err)
	if got.Cost != want.Cost || got.Evaluated != 11 || got.Thresholds[0] != want.Thresholds[0] {
		t.Errorf("with control %+v, without %+v", got, want)
	}
	ok(t, c.SetMaxIterations(5))
	_, err = m.Optimize([]uint32{2, 1}, w, 1000, c)
	wantErr(t, "Optimize", err, ErrTooLarge)
	_, err = m.Optimize([]uint32{2, 1}, w, 1000, nil)
	ok(t, err)
	ok(t, c.SetMaxIterations(0))

	// The evaluations: the control's memory cap, then its cancel flag.
	modes, th := []uint32{2, 1}, []uint32{3}
	want2, err := m.Measures(modes, th, nil)
	ok(t, err)
	got2, err := m.Measures(modes, th, c)
	ok(t, err)
	if got2[MeasureLoss] != want2[MeasureLoss] {
		t.Errorf("measures with control %v, without %v", got2, want2)
	}
	ok(t, c.SetMemoryLimit(1000))
	_, err = m.Measures(modes, th, c)
	wantErr(t, "Measures (1000 bytes)", err, ErrTooLarge)
	_, err = m.ResponseTime(modes, th, c)
	wantErr(t, "ResponseTime (1000 bytes)", err, ErrTooLarge)
	ok(t, c.SetMemoryLimit(0))
	ok(t, c.Cancel())
	_, err = m.LevelDistribution(modes, th, c)
	wantErr(t, "LevelDistribution", err, ErrCancelled)
	_, err = m.Cost(modes, th, w, c)
	wantErr(t, "Cost", err, ErrCancelled)
	_, err = m.ResponseCDF(modes, th, SojournAll, []float64{1}, c)
	wantErr(t, "ResponseCDF", err, ErrCancelled)
}

func TestDefaultMemoryLimitRefusesBigModels(t *testing.T) {
	initial := DefaultMemoryLimit()
	defer SetDefaultMemoryLimit(initial)
	SetDefaultMemoryLimit(64 << 20)
	if DefaultMemoryLimit() != 64<<20 {
		t.Fatalf("DefaultMemoryLimit = %d", DefaultMemoryLimit())
	}
	_, err := NewMDPBuilder(4000000000)
	wantErr(t, "NewMDPBuilder(4e9)", err, ErrTooLarge)
	if err != nil && !strings.Contains(err.Error(), "4000000000 states") {
		t.Errorf("message lacks the state count: %v", err)
	}
	_, err = SolveRobots(1000, 10000, 0.001, 1, 1, nil)
	wantErr(t, "SolveRobots(1000, 10000)", err, ErrTooLarge)
}

func TestClosedControlIsRefused(t *testing.T) {
	c, err := NewControl()
	ok(t, err)
	ok(t, c.Close())
	ok(t, c.Close())
	wantErr(t, "Cancel", c.Cancel(), ErrNullArgument)
	_, err = c.IsCancelled()
	wantErr(t, "IsCancelled", err, ErrNullArgument)
	wantErr(t, "SetMemoryLimit", c.SetMemoryLimit(1), ErrNullArgument)
	wantErr(t, "SetMaxIterations", c.SetMaxIterations(1), ErrNullArgument)
	wantErr(t, "Reset", c.Reset(), ErrNullArgument)
	s, err := NewMDPSolver(ValueIteration)
	ok(t, err)
	defer s.Close()
	wantErr(t, "SetControl", s.SetControl(c), ErrNullArgument)
}

// Probe planner, routing searches and simulation, and the unlimited robots
// search under a control: identical results without limits, caps give
// ErrNotConverged, a goroutine's cancel stops a long reference DP.
func TestControlOnPlannerRoutingAndUnlimitedRobots(t *testing.T) {
	c, err := NewControl()
	ok(t, err)
	defer c.Close()

	db, err := DBWorldProfile(3, 28)
	ok(t, err)
	defer db.Close()
	pl, err := NewProbePlanner(db, 672, 0)
	ok(t, err)
	defer pl.Close()
	_, want, err := pl.Plan(28, ProbeHull)
	ok(t, err)
	ok(t, pl.SetControl(c))
	_, got, err := pl.Plan(28, ProbeHull)
	ok(t, err)
	if got != want || got < 80.5914 || got > 80.5916 {
		t.Errorf("plan with control %v, without %v (paper notes: 80.5915)", got, want)
	}
	ok(t, c.SetMaxIterations(27))
	_, _, err = pl.Plan(28, ProbeHull)
	wantErr(t, "Plan", err, ErrNotConverged)
	ok(t, c.SetMaxIterations(0))
	long, err := NewProbePlanner(db, 20000, 0)
	ok(t, err)
	defer long.Close()
	ok(t, long.SetControl(c))
	go func() {
		time.Sleep(50 * time.Millisecond)
		_ = c.Cancel()
	}()
	_, _, err = long.Plan(100, ProbeReference)
	wantErr(t, "Plan (reference, cancelled)", err, ErrCancelled)
	ok(t, c.Reset())

	a, err := NewPoissonArrivals(1)
	ok(t, err)
	defer a.Close()
	s, err := NewServers(a, []float64{1, 0.7, 0.4}, nil, RoutingLosses)
	ok(t, err)
	defer s.Close()
	ex, err := s.OptimizeExhaustive(1, 8, nil)
	ok(t, err)
	ex2, err := s.OptimizeExhaustive(1, 8, c)
	ok(t, err)
	if ex2.Cost != ex.Cost || ex2.Evaluations != ex.Evaluations {
		t.Errorf("exhaustive with control %+v, without %+v", ex2, ex)
	}
	ok(t, c.SetMaxIterations(ex.Evaluations-1))
	_, err = s.OptimizeExhaustive(1, 8, c)
	wantErr(t, "OptimizeExhaustive", err, ErrNotConverged)
	ok(t, c.SetMaxIterations(0))
	loc, err := s.OptimizeLocal(1, 8, nil)
	ok(t, err)
	loc2, err := s.OptimizeLocal(1, 8, nil)
	ok(t, err)
	if loc2.Cost != loc.Cost {
		t.Errorf("local with control %+v, without %+v", loc2, loc)
	}
	sim, err := s.Simulate(ex.Period, 1000, 5, nil)
	ok(t, err)
	sim2, err := s.Simulate(ex.Period, 1000, 5, c)
	ok(t, err)
	if sim != sim2 {
		t.Errorf("simulation with control %+v, without %+v", sim2, sim)
	}
	two, err := NewServers(a, []float64{1, 0.4}, nil, RoutingLosses)
	ok(t, err)
	defer two.Close()
	mm, err := two.LocalSearchMultimodular([]uint32{0, 0, 0, 0, 0, 1}, c)
	ok(t, err)
	mm0, err := two.LocalSearchMultimodular([]uint32{0, 0, 0, 0, 0, 1}, nil)
	ok(t, err)
	if mm.Cost != mm0.Cost {
		t.Errorf("multimodular with control %+v, without %+v", mm, mm0)
	}

	r, err := SolveRobotsUnlimited(5, 0.1, 1, 0.4, c)
	ok(t, err)
	cost, _, _, err := r.Cost()
	ok(t, err)
	r.Close()
	if cost < 0.11097-1e-4 || cost > 0.11097+1e-4 {
		t.Errorf("unlimited C_d = %v, Table 2: 0.11097", cost)
	}
	ok(t, c.Cancel())
	_, err = SolveRobotsUnlimited(5, 0.1, 1, 0.4, c)
	wantErr(t, "SolveRobotsUnlimited", err, ErrCancelled)
	_, err = s.OptimizeLocal(1, 8, c)
	wantErr(t, "OptimizeLocal", err, ErrCancelled)
	_, err = s.Simulate(ex.Period, 1000, 5, c)
	wantErr(t, "Simulate", err, ErrCancelled)
}

// A freshness simulation of 10^10 cycles is cancelled from a goroutine; a
// short one gives the same estimate with and without a control.
func TestControlCancelsAFreshnessSimulation(t *testing.T) {
	c, err := NewControl()
	ok(t, err)
	defer c.Close()
	d, err := NewExponential(2)
	ok(t, err)
	defer d.Close()
	m, err := NewFreshnessModel(d, []float64{0.05, 0.2, 0.4}, nil)
	ok(t, err)
	defer m.Close()
	seq := []uint32{2, 1, 2, 0, 2, 1}
	c1, s1, err := m.SimulateCyclic(seq, 100, 7, nil)
	ok(t, err)
	c2, s2, err := m.SimulateCyclic(seq, 100, 7, c)
	ok(t, err)
	if c1 != c2 || s1 != s2 {
		t.Errorf("with control (%v, %v), without (%v, %v)", c2, s2, c1, s1)
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		_ = c.Cancel()
	}()
	_, _, err = m.SimulateCyclic(seq, 10_000_000_000, 7, c)
	wantErr(t, "SimulateCyclic", err, ErrCancelled)
}
