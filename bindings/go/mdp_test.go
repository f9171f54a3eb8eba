package crawlsched

import (
	"math"
	"testing"
)

// State 0: stay (cost 1) or go to 1 (cost 0.5); state 1: go to 0 (cost 0)
// or stay (cost 2). The optimum alternates: gain 0.25, h(1) - h(0) = -0.25;
// discounted with beta: v0 = 0.5/(1 - beta^2), v1 = beta v0.
func twoState(t *testing.T) *MDP {
	b := must[*MDPBuilder](t)(NewMDPBuilder(2))
	defer b.Close()
	one := []float64{1}
	a := must[uint32](t)(b.AddAction(1, []uint32{0}, one, 0))
	must[uint32](t)(b.AddAction(0, []uint32{0}, one, 1))
	a2 := must[uint32](t)(b.AddAction(0, []uint32{1}, one, 0.5))
	must[uint32](t)(b.AddAction(1, []uint32{1}, one, 2))
	if a != 0 || a2 != 1 {
		t.Errorf("action indices %d %d", a, a2)
	}
	return must[*MDP](t)(b.Build())
}

// A deterministic 3-cycle with costs 1, 2, 3: gain 2.
func cycle3(t *testing.T) *MDP {
	b := must[*MDPBuilder](t)(NewMDPBuilder(3))
	defer b.Close()
	for i := uint32(0); i < 3; i++ {
		must[uint32](t)(b.AddAction(i, []uint32{(i + 1) % 3}, []float64{1}, float64(i+1)))
	}
	return must[*MDP](t)(b.Build())
}

func TestMDP(t *testing.T) {
	m := twoState(t)
	defer m.Close()
	ns, na, nt, err := m.Size()
	ok(t, err)
	if ns != 2 || na != 4 || nt != 4 {
		t.Errorf("size %d %d %d", ns, na, nt)
	}
	for _, method := range []MDPMethod{RelativeValueIteration, ValueIteration, GaussSeidel, PolicyIteration} {
		s := must[*MDPSolver](t)(NewMDPSolver(method))
		ok(t, s.Run(m))
		g, lo, hi, err := s.Gain()
		ok(t, err)
		near(t, "gain", g, 0.25, 1e-9)
		if lo > 0.25+1e-12 || hi < 0.25-1e-12 {
			t.Errorf("certificate [%g, %g]", lo, hi)
		}
		pol := must[[]uint32](t)(s.Policy())
		if len(pol) != 2 || pol[0] != 1 || pol[1] != 0 {
			t.Errorf("policy %v", pol)
		}
		h := must[[]float64](t)(s.Values())
		near(t, "bias", h[1]-h[0], -0.25, 1e-8)
		st := must[MDPStats](t)(s.Stats())
		if !st.Converged || st.RecurrentClasses != 1 || st.Iterations < 1 {
			t.Errorf("stats %+v", st)
		}
		tau := must[float64](t)(s.Tau())
		if (method == PolicyIteration && tau != 1) || tau <= 0 || tau > 1 {
			t.Errorf("%v: tau %g", method, tau)
		}
		s.Close()
	}
	s := must[*MDPSolver](t)(NewMDPSolver(PolicyIteration))
	defer s.Close()
	_, _, _, err = s.Gain()
	wantErr(t, "gain before run", err, ErrNotFound)
	_, err = s.Size()
	wantErr(t, "size before run", err, ErrNotFound)
	_, err = s.Policy()
	wantErr(t, "policy before run", err, ErrNotFound)
	_, err = s.Tau()
	wantErr(t, "tau before run", err, ErrNotFound)
	// The result's size follows the MDP of the last run.
	m3 := cycle3(t)
	ok(t, s.Run(m3))
	if n := must[int](t)(s.Size()); n != 3 {
		t.Errorf("size %d, want 3", n)
	}
	if pol := must[[]uint32](t)(s.Policy()); len(pol) != 3 {
		t.Errorf("policy %v", pol)
	}
	m3.Close()
	ok(t, s.SetCriterion(Discounted, 0.5, 0))
	ok(t, s.SetLimits(1e-10, 1000, StopSpan))
	ok(t, s.Run(m))
	v := must[[]float64](t)(s.Values())
	near(t, "v0", v[0], 0.5/0.75, 1e-12)
	near(t, "v1", v[1], 0.25/0.75, 1e-12)

	// Errors.
	_, err = NewMDPSolver(7)
	wantErr(t, "bad method", err, ErrInvalidArgument)
	wantErr(t, "NaN tolerance", s.SetLimits(math.NaN(), 10, StopSpan), ErrInvalidArgument)
	wantErr(t, "discount 1", s.SetCriterion(Discounted, 1, 0), ErrInvalidArgument)
	_, err = NewMDPBuilder(0)
	wantErr(t, "no states", err, ErrInvalidArgument)
	b := must[*MDPBuilder](t)(NewMDPBuilder(2))
	_, err = b.AddAction(0, []uint32{0, 1}, []float64{0.5}, 0)
	wantErr(t, "length mismatch", err, ErrInvalidArgument)
	_, err = b.AddAction(0, []uint32{0, 1}, []float64{0.5, 0.5}, math.Inf(1))
	wantErr(t, "infinite cost", err, ErrInvalidArgument)
	_, err = b.AddAction(0, []uint32{0, 5}, []float64{0.5, 0.5}, 0)
	wantErr(t, "bad target", err, ErrInvalidArgument)
	_, err = b.Build()
	wantErr(t, "state without action", err, ErrInvalidArgument)
	b.Close()
	_, err = b.Build()
	wantErr(t, "closed builder", err, ErrNullArgument)
	m2 := twoState(t)
	m2.Close()
	wantErr(t, "closed mdp", s.Run(m2), ErrNullArgument)
	_, _, _, err = m2.Size()
	wantErr(t, "closed mdp size", err, ErrNullArgument)
}
