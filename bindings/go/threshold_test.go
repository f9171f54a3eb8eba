package crawlsched

import (
	"math"
	"strings"
	"testing"
)

// Birth-death stationary law on 0..cap with birth lam, death mu + (n-1)theta.
func birthDeath(lam, mu, theta float64, cap int) []float64 {
	p := make([]float64, cap+1)
	p[0] = 1
	s := 1.0
	for n := 1; n <= cap; n++ {
		p[n] = p[n-1] * lam / (mu + float64(n-1)*theta)
		s += p[n]
	}
	for n := range p {
		p[n] /= s
	}
	return p
}

func TestBMAP(t *testing.T) {
	f := must[float64](t)
	poi := must[*BMAP](t)(NewPoissonBMAP(2))
	defer poi.Close()
	if n := must[int](t)(poi.Order()); n != 1 {
		t.Errorf("order %d", n)
	}
	near(t, "rate", f(poi.FundamentalRate()), 2, 1e-15)
	near(t, "E[T^2]", f(poi.InterarrivalMoment(2)), 0.5, 1e-15)
	near(t, "lag 1", f(poi.LagCorrelation(1)), 0, 1e-12)
	// MMPP: theta = (2/3, 1/3), rates 3 and 6.
	mm := must[*BMAP](t)(NewBMAP(2, []float64{-4, 1, 2, -8, 3, 0, 0, 6}))
	defer mm.Close()
	near(t, "mmpp rate", f(mm.FundamentalRate()), 2.0/3*3+1.0/3*6, 1e-14)
	// Section 7 real-data fit.
	real := must[*BMAP](t)(FitBMAP(212.03, 51352.38, 0.622, 3.263389905223716, 8))
	defer real.Close()
	m1, m2 := f(real.InterarrivalMoment(1)), f(real.InterarrivalMoment(2))
	near(t, "fit mean", m1, 212.03, 1e-10)
	near(t, "fit variance", (m2-m1*m1)/51352.38, 1, 1e-9)
	near(t, "fit lag 1", f(real.LagCorrelation(1)), 0.622, 1e-9)
	for _, c := range []struct {
		how           BMAPCompose
		active, total uint32
		prob, rate    float64
	}{{ComposeIndependent, 3, 4, 0, 6}, {ComposeThinning, 0, 0, 0.25, 0.5}, {ComposeScaled, 2, 2, 0, 4}} {
		b := must[*BMAP](t)(poi.Compose(c.how, c.active, c.total, c.prob))
		near(t, "composed rate", f(b.FundamentalRate()), c.rate, 1e-14)
		b.Close()
	}
	_, err := NewBMAP(2, []float64{-4, 1, 2, -8, 3, 0, 0, 5})
	wantErr(t, "rows do not sum to 0", err, ErrInvalidArgument)
	_, err = NewBMAP(2, []float64{-4, 1, 2, -8, 3, 0, 0, math.NaN()})
	wantErr(t, "NaN entry", err, ErrInvalidArgument)
	_, err = NewPoissonBMAP(-1)
	wantErr(t, "negative rate", err, ErrInvalidArgument)
	_, err = FitBMAP(-1, 1, 0, 1, 8)
	if err == nil {
		t.Error("negative mean fitted")
	}
	_, err = poi.Compose(42, 1, 1, 0)
	wantErr(t, "bad composition", err, ErrInvalidArgument)
	_, err = poi.InterarrivalMoment(0)
	wantErr(t, "moment 0", err, ErrInvalidArgument)
	_, err = poi.LagCorrelation(0)
	wantErr(t, "lag 0", err, ErrInvalidArgument)
	c := must[*BMAP](t)(NewPoissonBMAP(1))
	c.Close()
	_, err = c.Order()
	wantErr(t, "closed bmap", err, ErrNullArgument)
	_, err = c.Compose(ComposeScaled, 1, 1, 0)
	wantErr(t, "closed bmap", err, ErrNullArgument)
}

func TestThreshold(t *testing.T) {
	f := must[float64](t)
	// Phase-type fits.
	ph := must[*Dist](t)(FitAPH2(1, 2, 6))
	near(t, "aph2 exponential", f(ph.Moment(3)), 6, 1e-12)
	ph.Close()
	ph = must[*Dist](t)(FitAPH2(1, 1.5, 3))
	near(t, "aph2 erlang-2 variance", f(ph.Variance()), 0.5, 1e-10)
	ph.Close()
	h2 := must[*Dist](t)(FitH2(49207.0356, 2.0527e11, 2.5773e18))
	near(t, "h2 mean", f(h2.Mean())/49207.0356, 1, 1e-10)
	near(t, "h2 m3", f(h2.Moment(3))/2.5773e18, 1, 1e-9)
	h2.Close()
	_, err := FitAPH2(1, 1.2, 3)
	wantErr(t, "aph2 outside region", err, ErrInfeasible)
	_, err = FitH2(1, 1.5, 3)
	wantErr(t, "h2 outside region", err, ErrInfeasible)

	// M/M/1/K: Poisson 0.8, exponential service 1, buffer 5.
	p08 := must[*BMAP](t)(NewPoissonBMAP(0.8))
	defer p08.Close()
	srv := must[*Dist](t)(NewExponential(1))
	defer srv.Close()
	m := must[*ThresholdModel](t)(NewThresholdModel([]*BMAP{p08}, srv, nil, 5))
	if n := must[uint64](t)(m.StateCount()); n != 7 {
		t.Errorf("states %d", n)
	}
	one := []uint32{1}
	meas := must[[]float64](t)(m.Measures(one, nil, nil))
	p := birthDeath(0.8, 1, 0, 6)
	near(t, "loss", meas[MeasureLoss], p[6], 1e-13)
	near(t, "starvation", meas[MeasureStarvation], p[0], 1e-13)
	near(t, "throughput", meas[MeasureThroughput], 1-p[0], 1e-13)
	l := 0.0
	for i, pi := range p {
		l += float64(i) * pi
	}
	near(t, "mean pages", meas[MeasureMeanPages], l, 1e-13)
	near(t, "response", meas[MeasureResponseTime], l/(0.8*(1-p[6])), 1e-12)
	lev := must[[]float64](t)(m.LevelDistribution(one, nil, nil))
	if len(lev) != 7 {
		t.Fatalf("levels %d", len(lev))
	}
	for i := range lev {
		near(t, "level", lev[i], p[i], 1e-13)
	}
	// Response time: an admitted page finding n pages stays Erlang(n+1, 1).
	resp := must[[]float64](t)(m.ResponseTime(one, nil, nil))
	near(t, "response mean", resp[ResponseMean], meas[MeasureResponseTime], 1e-12)
	near(t, "served probability", resp[ResponseServedProbability], 1, 1e-13)
	near(t, "mean served", resp[ResponseMeanServed], meas[MeasureResponseTime], 1e-12)
	times := []float64{0.5, 2, 5}
	cdf := must[[]float64](t)(m.ResponseCDF(one, nil, SojournAll, times, nil))
	for k, x := range times {
		exact := 0.0
		for n := 0; n < 6; n++ {
			term := math.Exp(-x)
			tail := term
			for j := 1; j <= n; j++ {
				term *= x / float64(j)
				tail += term
			}
			exact += p[n] / (1 - p[6]) * (1 - tail)
		}
		near(t, "sojourn cdf", cdf[k], exact, 1e-12)
	}
	_, err = m.ResponseCDF(one, nil, 9, times, nil)
	wantErr(t, "unknown sojourn selection", err, ErrInvalidArgument)
	_, err = m.ResponseCDF(one, nil, SojournServed, []float64{-1}, nil)
	wantErr(t, "negative time", err, ErrInvalidArgument)
	_, err = m.Measures([]uint32{2}, nil, nil)
	wantErr(t, "mode above robots", err, ErrInvalidArgument)
	_, err = m.LevelDistribution([]uint32{0}, nil, nil)
	wantErr(t, "mode 0", err, ErrInvalidArgument)
	m.Close()
	_, err = m.Measures(one, nil, nil)
	wantErr(t, "closed model", err, ErrNullArgument)

	// Talim et al. static cost at rho = 1, K = 15: (1.13 + 1)/16.
	p1 := must[*BMAP](t)(NewPoissonBMAP(1))
	defer p1.Close()
	m = must[*ThresholdModel](t)(NewThresholdModel([]*BMAP{p1}, srv, nil, 14))
	near(t, "Talim", f(m.Cost(one, nil, []float64{1, 0, 0, 0, 1.13}, nil)), 0.133125, 1e-13)
	_, err = m.Cost(one, nil, []float64{1, -1, 0, 0, 1}, nil)
	wantErr(t, "negative weight", err, ErrInvalidArgument)
	_, err = m.Cost(one, nil, []float64{1, 0}, nil)
	wantErr(t, "short weights", err, ErrInvalidArgument)
	m.Close()

	// Optimal threshold with 1 or 2 robots: enumeration equals the best cost.
	r2 := must[*BMAP](t)(p1.Compose(ComposeScaled, 2, 2, 0))
	defer r2.Close()
	hx := must[*Dist](t)(NewHyperexponential([]float64{0.5, 0.5}, []float64{1, 3}))
	defer hx.Close()
	m = must[*ThresholdModel](t)(NewThresholdModel([]*BMAP{p1, r2}, srv, hx, 4))
	defer m.Close()
	modes := []uint32{2, 1}
	w := []float64{2, 1, 0.1, 0.3, 3}
	plan := must[ThresholdPlan](t)(m.Optimize(modes, w, 100, nil))
	if plan.Evaluated != 5 || len(plan.Thresholds) != 1 {
		t.Errorf("plan %+v", plan)
	}
	best := math.Inf(1)
	for th := uint32(0); th < 5; th++ {
		best = math.Min(best, f(m.Cost(modes, []uint32{th}, w, nil)))
	}
	near(t, "optimal threshold cost", plan.Cost, best, 1e-15)
	_, err = m.Optimize(modes, w, 2, nil)
	wantErr(t, "too many evaluations", err, ErrTooLarge)

	// Model errors.
	det := must[*Dist](t)(NewDeterministic(1))
	defer det.Close()
	_, err = NewThresholdModel(nil, srv, nil, 5)
	wantErr(t, "no arrivals", err, ErrInvalidArgument)
	_, err = NewThresholdModel([]*BMAP{p1}, det, nil, 5)
	wantErr(t, "service not PH", err, ErrInvalidArgument)
	_, err = NewThresholdModel([]*BMAP{p1}, srv, hx, 40)
	wantErr(t, "huge chain", err, ErrTooLarge)
	if err != nil && !strings.Contains(err.Error(), "2199023255552 states") {
		t.Errorf("message %q", err)
	}
	_, err = NewThresholdModel([]*BMAP{p1, nil}, srv, nil, 5)
	wantErr(t, "nil arrival", err, ErrNullArgument)
}
