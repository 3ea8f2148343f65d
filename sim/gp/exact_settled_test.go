package gp

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/sim"
)

// refLogMarginal is log N(y; 0, c²·exp(−(x−x')²/(2ℓ²)) + (Jitter + σ²)I)
// through gonum's Cholesky, independent of the tape.
func refLogMarginal(x, y []float64, c2, ell, sigma float64) float64 {
	n := len(x)
	k := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			d := x[i] - x[j]
			v := c2 * math.Exp(-d*d/(2*ell*ell))
			if i == j {
				v += Jitter + sigma*sigma
			}
			k.SetSym(i, j, v)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(k) {
		return math.NaN()
	}
	yv := mat.NewVecDense(n, append([]float64(nil), y...))
	var a mat.VecDense
	if err := ch.SolveVecTo(&a, yv); err != nil {
		return math.NaN()
	}
	return -0.5*mat.Dot(yv, &a) - 0.5*ch.LogDet() - float64(n)*halfLog2Pi
}

// With its hyperparameters held gp-exact has nothing to iterate (Settled),
// and a Set recomputes the posterior: the log marginal after variance
// 1 → 0.1 → 10 is the closed form's for the new variance (to rounding: an
// n = 20 Cholesky of a matrix with condition ≲ 10⁴ agrees to ~1e-10
// relative), and the predictive mean and spread change with it.
func TestExactSetRecomputes(t *testing.T) {
	d := toyData(20, sim.Regression)
	e := newExact(t, d, nil)
	if why, ok := e.Settled(); !ok || why == "" {
		t.Fatalf("gp-exact with nothing learned: Settled() = %q, %v", why, ok)
	}
	var lastLML float64
	var lastSD []float64
	for _, c2 := range []float64{1, 0.1, 10} {
		if err := sim.Set(e, d, "variance", sim.Num(c2)); err != nil {
			t.Fatal(err)
		}
		want := refLogMarginal(d.X, d.Y, c2, 1, DefaultNoise)
		if got := e.LogMarginal(); math.Abs(got-want) > 1e-8*math.Abs(want) {
			t.Errorf("variance %g: log marginal %.12g, closed form %.12g", c2, got, want)
		}
		if tr := e.Trace(); math.Abs(tr[1]-c2) > 1e-15*c2 || tr[4] != e.LogMarginal() { // exp(log c²): one rounding
			t.Errorf("variance %g: trace %v", c2, tr)
		}
		_, cov, err := e.Posterior(d.Grid)
		if err != nil {
			t.Fatal(err)
		}
		sd := make([]float64, len(d.Grid))
		for i := range sd {
			sd[i] = math.Sqrt(cov.At(i, i))
		}
		if lastSD != nil && (e.LogMarginal() == lastLML || maxAbsDiff(sd, lastSD) < 1e-3) {
			t.Errorf("variance %g: log marginal %g (was %g), band sd moved by %g", c2, e.LogMarginal(), lastLML, maxAbsDiff(sd, lastSD))
		}
		lastLML, lastSD = e.LogMarginal(), sd
	}
	if err := sim.Set(e, d, "learn_kernel", sim.Num(1)); err != nil {
		t.Fatal(err)
	}
	if _, ok := e.Settled(); ok {
		t.Error("gp-exact learning its kernel says it has nothing to iterate")
	}
}
