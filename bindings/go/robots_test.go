package crawlsched

import (
	"math"
	"testing"
)

// eq. (9) with mu = 1.
func staticCost(rho, gamma float64, k int) float64 {
	return (1 - rho) * (gamma + math.Pow(rho, float64(k+1))) / (1 - math.Pow(rho, float64(k+1)))
}

func TestRobots(t *testing.T) {
	f := must[float64](t)
	// Table 1, lambda = 0.1, K = 5, gamma = 0.4: C_d = 0.15239, N_min = 1, N-bar = 6.5.
	r := must[*Robots](t)(SolveRobots(7, 5, 0.1, 1, 0.4, nil))
	defer r.Close()
	n, k, err := r.Size()
	ok(t, err)
	if n != 7 || k != 5 {
		t.Errorf("size %d %d", n, k)
	}
	cost, starv, loss, err := r.Cost()
	ok(t, err)
	near(t, "C_d", cost, 0.15239, 1e-4)
	near(t, "C_d = gamma P_starv + loss", cost, 0.4*starv+loss, 1e-12)
	nmin, nbar, nmax, err := r.Counts()
	ok(t, err)
	if nmin != 1 || math.Abs(nbar-6.5) > 0.1 || nmax < 0 || nmax >= 7 {
		t.Errorf("counts %d %g %d", nmin, nbar, nmax)
	}
	f0, isCurve, err := r.SwitchingCurve(0)
	ok(t, err)
	f1, _, err := r.SwitchingCurve(1)
	ok(t, err)
	if !isCurve || len(f0) != 8 || f0[0] < 1 {
		t.Errorf("curve %v %v", f0, isCurve)
	}
	// The action table is the policy; here it is the switching curve.
	acts := must[[]uint8](t)(r.Actions())
	if len(acts) != 2*6*8 {
		t.Fatalf("actions has %d entries", len(acts))
	}
	for rr := 0; rr < 8; rr++ {
		for q := 0; q < 6; q++ {
			for s, fs := range [][]int64{f0, f1} {
				if (s == 0 && q == 0) || (s == 1 && rr == 0) {
					continue // excluded states
				}
				want := uint8(0)
				if int64(q) <= fs[rr] {
					want = 1
				}
				if acts[(rr*6+q)*2+s] != want {
					t.Errorf("action at (q=%d, r=%d, s=%d) is %d, curve says %d", q, rr, s, acts[(rr*6+q)*2+s], want)
				}
			}
		}
	}
	lo, hi, iters, err := r.Certificate()
	ok(t, err)
	if !(lo <= cost+1e-15 && cost <= hi+1e-15 && hi-lo <= 1e-9 && iters >= 1) {
		t.Errorf("certificate [%g, %g] around %g, %d iterations", lo, hi, cost, iters)
	}
	pi := must[[]float64](t)(r.Stationary())
	total, empty := 0.0, 0.0
	for rr := 0; rr < 8; rr++ {
		for q := 0; q < 6; q++ {
			for s := 0; s < 3; s++ {
				total += pi[(rr*6+q)*3+s]
				if q == 0 {
					empty += pi[(rr*6+q)*3+s]
				}
			}
		}
	}
	near(t, "sum pi", total, 1, 1e-12)
	near(t, "P(empty)", empty, starv, 1e-12)
	near(t, "optimal curve cost", f(r.EvaluateCurve(f0, f1)), cost, 1e-12)
	for m := uint64(1); m <= 7; m++ {
		near(t, "static", f(r.EvaluateStatic(m)), staticCost(0.1*float64(m), 0.4, 5), 1e-12)
	}
	near(t, "C_s", f(RobotsStaticCost(0.7, 0.4, 5, 1)), staticCost(0.7, 0.4, 5), 1e-13)
	near(t, "C_s(rho=1)", f(RobotsStaticCost(1, 1.13, 15, 1)), 2.13/16, 1e-14)
	ns, cs, err := RobotsOptimalStatic(0.1, 1, 0.4, 5)
	ok(t, err)
	near(t, "optimal static", cs, staticCost(0.1*float64(ns), 0.4, 5), 1e-12)
	for m := 1; m <= 20; m++ {
		if staticCost(0.1*float64(m), 0.4, 5) < cs-1e-12 {
			t.Errorf("static with %d robots beats Proposition 3's %d", m, ns)
		}
	}
	// Table 2: N free, C_d = 0.11097, N_min 2, N_max 12.
	u := must[*Robots](t)(SolveRobotsUnlimited(5, 0.1, 1, 0.4, nil))
	c2, _, _, err := u.Cost()
	ok(t, err)
	near(t, "Table 2 C_d", c2, 0.11097, 1e-4)
	nmin, _, nmax, _ = u.Counts()
	if nmin != 2 || nmax != 12 {
		t.Errorf("Table 2 counts %d %d", nmin, nmax)
	}
	u.Close()

	// Errors.
	_, err = SolveRobots(7, 5, math.NaN(), 1, 0.4, nil)
	wantErr(t, "NaN lambda", err, ErrInvalidArgument)
	_, err = SolveRobotsUnlimited(0, 0.1, 1, 0.4, nil)
	wantErr(t, "K = 0", err, ErrInvalidArgument)
	_, err = r.EvaluateCurve(f0[:3], f1[:3])
	wantErr(t, "short curve", err, ErrInvalidArgument)
	_, err = r.EvaluateCurve(f0, f1[:3])
	wantErr(t, "curve lengths", err, ErrInvalidArgument)
	_, err = r.EvaluateStatic(8)
	wantErr(t, "too many robots", err, ErrInvalidArgument)
	_, _, err = r.SwitchingCurve(2)
	wantErr(t, "bad event", err, ErrInvalidArgument)
	_, err = RobotsStaticCost(-1, 0.4, 5, 1)
	wantErr(t, "negative load", err, ErrInvalidArgument)
	_, _, err = RobotsOptimalStatic(0.1, 0, 0.4, 5)
	wantErr(t, "mu = 0", err, ErrInvalidArgument)
	_, _, _, err = u.Cost()
	wantErr(t, "closed robots", err, ErrNullArgument)
	_, err = u.Stationary()
	wantErr(t, "closed robots", err, ErrNullArgument)
}
