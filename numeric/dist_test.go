package numeric_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/posterior-playground/playground/numeric"
)

// nxClose reports whether got is within tol·max(1, |want|) of want.
func nxClose(got, want, tol float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func TestNormalLogPDFMatchesDistuv(t *testing.T) {
	for _, mu := range []float64{-3, 0, 0.7} {
		for _, sigma := range []float64{1e-3, 0.5, 1, 40} {
			for _, x := range []float64{-10, -1, 0, 0.7, 2.5, 100} {
				want := distuv.Normal{Mu: mu, Sigma: sigma}.LogProb(x)
				if got := numeric.NormalLogPDF(x, mu, sigma); !nxClose(got, want, 1e-13) {
					t.Errorf("NormalLogPDF(%g, %g, %g) = %.17g, want %.17g", x, mu, sigma, got, want)
				}
			}
		}
	}
}

// Cauchy(loc, scale) is Student's t with one degree of freedom.
func TestCauchyLogPDFMatchesStudentT(t *testing.T) {
	for _, loc := range []float64{-2, 0, 1.5} {
		for _, scale := range []float64{math.Exp(-2), 1, 3} {
			for _, x := range []float64{-50, -1, 0, 1.5, 4, 1e6} {
				want := distuv.StudentsT{Mu: loc, Sigma: scale, Nu: 1}.LogProb(x)
				if got := numeric.CauchyLogPDF(x, loc, scale); !nxClose(got, want, 1e-12) {
					t.Errorf("CauchyLogPDF(%g, %g, %g) = %.17g, want %.17g", x, loc, scale, got, want)
				}
			}
			// At the mode the density is exactly 1/(π·scale).
			if got, want := numeric.CauchyLogPDF(loc, loc, scale), -math.Log(math.Pi*scale); got != want {
				t.Errorf("mode: %g, want %g", got, want)
			}
		}
	}
}

// Densities integrate to one. quad.Fixed maps (−∞, ∞) onto (−1, 1); both
// integrands are smooth there, so 2000-point Gauss–Legendre is accurate far
// beyond 1e-9. The seed's Cauchy error (πσ multiplying) would give (πσ)².
func TestDensitiesIntegrateToOne(t *testing.T) {
	cases := []struct {
		name string
		f    func(float64) float64
	}{
		{"normal", func(x float64) float64 { return math.Exp(numeric.NormalLogPDF(x, 0.3, 0.7)) }},
		{"cauchy", func(x float64) float64 { return math.Exp(numeric.CauchyLogPDF(x, -1, 0.5)) }},
		{"cauchy-narrow", func(x float64) float64 { return math.Exp(numeric.CauchyLogPDF(x, 0, math.Exp(-2))) }},
	}
	for _, c := range cases {
		if got := quad.Fixed(c.f, math.Inf(-1), math.Inf(1), 2000, nil, 0); math.Abs(got-1) > 1e-9 {
			t.Errorf("%s integrates to %.12f", c.name, got)
		}
	}
}

func TestBernoulliLogitLogPMF(t *testing.T) {
	for _, l := range []float64{-20, -5, -1, -0.1, 0, 0.3, 2, 7, 20} {
		// log p(1) = −log1p(e⁻ˡ), log p(0) = −log1p(eˡ): accurate at any |l| < 700.
		if got, want := numeric.BernoulliLogitLogPMF(1, l), -math.Log1p(math.Exp(-l)); !nxClose(got, want, 1e-14) {
			t.Errorf("y=1 logit=%g: %.17g, want %.17g", l, got, want)
		}
		if got, want := numeric.BernoulliLogitLogPMF(0, l), -math.Log1p(math.Exp(l)); !nxClose(got, want, 1e-14) {
			t.Errorf("y=0 logit=%g: %.17g, want %.17g", l, got, want)
		}
		// distuv works from p, and log(1−p) loses digits once p is near 1,
		// so compare with it only for |l| ≤ 7 (1−p ≥ 9e-4).
		if math.Abs(l) <= 7 {
			p := 1 / (1 + math.Exp(-l))
			for _, y := range []float64{0, 1} {
				want := distuv.Bernoulli{P: p}.LogProb(y)
				if got := numeric.BernoulliLogitLogPMF(y, l); !nxClose(got, want, 1e-12) {
					t.Errorf("y=%g logit=%g: %.17g, distuv %.17g", y, l, got, want)
				}
			}
		}
		if s := math.Exp(numeric.BernoulliLogitLogPMF(0, l)) + math.Exp(numeric.BernoulliLogitLogPMF(1, l)); math.Abs(s-1) > 1e-15 {
			t.Errorf("logit %g: probabilities sum to %.17g", l, s)
		}
	}
	// A soft label y ∈ (0, 1) gives y·l − softplus(l).
	for _, y := range []float64{0.25, 0.9} {
		for _, l := range []float64{-3, 0.5, 6} {
			want := y*l - math.Log1p(math.Exp(l))
			if got := numeric.BernoulliLogitLogPMF(y, l); !nxClose(got, want, 1e-14) {
				t.Errorf("y=%g logit=%g: %.17g, want %.17g", y, l, got, want)
			}
		}
	}
	// Tails: exact values where a naive log(sigmoid) overflows or rounds to 0.
	tails := []struct{ y, l, want float64 }{
		{0, 800, -800}, {1, -800, -800}, {1, 800, 0}, {0, -800, 0},
		{1, 40, -math.Exp(-40)}, {0, -40, -math.Exp(-40)},
	}
	for _, c := range tails {
		// Relative tolerance, so −e⁻⁴⁰ ≈ −4e-18 is not passed by a naive 0.
		if got := numeric.BernoulliLogitLogPMF(c.y, c.l); math.Abs(got-c.want) > 1e-13*math.Abs(c.want) {
			t.Errorf("y=%g logit=%g: %g, want %g", c.y, c.l, got, c.want)
		}
	}
}

func TestSoftplusSigmoid(t *testing.T) {
	if got := numeric.Softplus(0); got != math.Ln2 {
		t.Errorf("Softplus(0) = %.17g, want ln 2", got)
	}
	if got := numeric.Softplus(1000); got != 1000 {
		t.Errorf("Softplus(1000) = %g", got)
	}
	// log1p(e⁻³⁰) = e⁻³⁰(1 − e⁻³⁰/2 + …): relative gap 5e-14 from e⁻³⁰.
	if got, want := numeric.Softplus(-30), math.Exp(-30); math.Abs(got-want) > 1e-13*want {
		t.Errorf("Softplus(-30) = %g, want %g", got, want)
	}
	if got, want := numeric.Sigmoid(-700), math.Exp(-700); math.Abs(got-want) > 1e-15*want {
		t.Errorf("Sigmoid(-700) = %g, want %g", got, want)
	}
	if got := numeric.Sigmoid(1000); got != 1 {
		t.Errorf("Sigmoid(1000) = %g", got)
	}
	for _, x := range []float64{-35, -8, -1, -1e-3, 0, 0.4, 3, 25} {
		// softplus(x) − softplus(−x) = x and σ(x) + σ(−x) = 1.
		if d := numeric.Softplus(x) - numeric.Softplus(-x); math.Abs(d-x) > 1e-14*math.Max(1, math.Abs(x)) {
			t.Errorf("softplus(%g) − softplus(−%g) = %.17g", x, x, d)
		}
		if s := numeric.Sigmoid(x) + numeric.Sigmoid(-x); math.Abs(s-1) > 1e-15 {
			t.Errorf("σ(%g) + σ(−%g) = %.17g", x, x, s)
		}
		// softplus' = σ. Central differences with step 1e-5 have error
		// O(h²·|σ''|) + O(ε/h) ≈ 1e-10; allow 1e-8.
		d := fd.Derivative(numeric.Softplus, x, &fd.Settings{Formula: fd.Central, Step: 1e-5})
		if math.Abs(d-numeric.Sigmoid(x)) > 1e-8 {
			t.Errorf("softplus'(%g) = %g, σ = %g", x, d, numeric.Sigmoid(x))
		}
	}
}

func TestLogSumExp(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		xs   []float64
		want float64
	}{
		{nil, -inf},
		{[]float64{-inf, -inf}, -inf},
		{[]float64{1000, 1000}, 1000 + math.Ln2},
		{[]float64{-1000, -1000, -1000}, -1000 + math.Log(3)},
		{[]float64{3}, 3},
		{[]float64{-inf, 2}, 2},
		{[]float64{1, inf}, inf},
		{[]float64{0.5, -1, 2, 0}, math.Log(math.Exp(0.5) + math.Exp(-1) + math.Exp(2) + 1)},
	}
	for _, c := range cases {
		if got := numeric.LogSumExp(c.xs); !nxClose(got, c.want, 1e-15) {
			t.Errorf("LogSumExp(%v) = %.17g, want %.17g", c.xs, got, c.want)
		}
	}
	if got := numeric.LogSumExp([]float64{1, math.NaN()}); !math.IsNaN(got) {
		t.Errorf("LogSumExp with NaN = %g", got)
	}
}
