package crawlsched

import (
	"math"
	"testing"
)

func TestDist(t *testing.T) {
	f := must[float64](t)
	d := must[*Dist](t)(NewExponential(2))
	defer d.Close()
	near(t, "mean", f(d.Mean()), 0.5, 1e-15)
	near(t, "variance", f(d.Variance()), 0.25, 1e-15)
	near(t, "E[X^3]", f(d.Moment(3)), 6.0/8.0, 1e-14)
	near(t, "laplace", f(d.Laplace(1)), 2.0/3.0, 1e-15)
	near(t, "cdf", f(d.CDF(1)), 1-math.Exp(-2), 1e-15)

	er := must[*Dist](t)(NewErlang(3, 2))
	near(t, "erlang mean", f(er.Mean()), 1.5, 1e-14)
	near(t, "erlang laplace", f(er.Laplace(1)), math.Pow(2.0/3.0, 3), 1e-14)
	g := must[*Dist](t)(NewGamma(2.5, 2))
	near(t, "gamma variance", f(g.Variance()), 2.5/4, 1e-14)
	h := must[*Dist](t)(NewHyperexponential([]float64{0.25, 0.75}, []float64{1, 3}))
	near(t, "hyperexp mean", f(h.Mean()), 0.25+0.75/3, 1e-14)
	ph := must[*Dist](t)(NewPhaseType([]float64{1, 0}, []float64{-1, 1, 0, -2}))
	near(t, "PH mean", f(ph.Mean()), 1.5, 1e-13)
	cx := must[*Dist](t)(NewCoxian([]float64{1, 2}, []float64{0.5}))
	near(t, "coxian mean", f(cx.Mean()), 1+0.5*0.5, 1e-13)
	em := must[*Dist](t)(NewEmpirical([]float64{1, 2, 3, 6}))
	near(t, "empirical mean", f(em.Mean()), 3, 1e-14)
	det := must[*Dist](t)(NewDeterministic(2))
	near(t, "deterministic cdf", f(det.CDF(1.999)), 0, 0)

	// Sampling: the seed fixes the draws; the sample mean is near 1/2.
	a, b := make([]float64, 20000), make([]float64, 20000)
	ok(t, d.Sample(7, a))
	ok(t, d.Sample(7, b))
	sum := 0.0
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("same seed, different draws")
		}
		sum += a[i]
	}
	near(t, "sample mean", sum/float64(len(a)), 0.5, 5*0.5/math.Sqrt(float64(len(a))))

	// Error paths.
	_, err := NewExponential(math.NaN())
	wantErr(t, "NaN rate", err, ErrInvalidArgument)
	_, err = NewHyperexponential([]float64{0.5}, []float64{1, 2})
	wantErr(t, "length mismatch", err, ErrInvalidArgument)
	_, err = NewPhaseType([]float64{1, 0}, []float64{-1, 1, 0})
	wantErr(t, "PH size", err, ErrInvalidArgument)
	_, err = NewEmpirical(nil)
	wantErr(t, "empty empirical", err, ErrInvalidArgument)
	_, err = d.Moment(2000)
	wantErr(t, "huge moment", err, ErrNumerical)
	_, err = d.CDF(math.Inf(1))
	wantErr(t, "cdf(inf)", err, ErrInvalidArgument)
	_, err = d.Laplace(-1)
	wantErr(t, "laplace(-1)", err, ErrInvalidArgument)
	_, err = NewCoxian([]float64{1, 2}, nil)
	wantErr(t, "coxian cont length", err, ErrInvalidArgument)
	_, err = NewErlang(0, 1)
	wantErr(t, "erlang k=0", err, ErrInvalidArgument)

	// Closed and nil handles give a clear error, and Close is idempotent.
	ok(t, det.Close())
	ok(t, det.Close())
	_, err = det.Mean()
	wantErr(t, "closed dist", err, ErrNullArgument)
	var nilDist *Dist
	_, err = nilDist.Variance()
	wantErr(t, "nil dist", err, ErrNullArgument)
	wantErr(t, "closed sample", det.Sample(1, a), ErrNullArgument)
}
