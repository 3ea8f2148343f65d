package gp

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"

	"github.com/posterior-playground/playground/numeric"
)

// reference returns E_{N(m,v)}[g(z)] by 4000-point Gauss–Legendre on each
// side of c, over m ± 12√v (the Gaussian mass outside is below 1e-32).
// Legendre nodes crowd towards the ends (spacing ~ length/n²), so splitting
// at c, where the likelihood's narrow feature sits, resolves even γ = 1e-3.
func reference(g func(z float64) float64, m, v, c float64) float64 {
	sd := math.Sqrt(v)
	f := func(z float64) float64 {
		u := (z - m) / sd
		return g(z) * math.Exp(-0.5*u*u) / (sd * math.Sqrt(2*math.Pi))
	}
	lo, hi := m-12*sd, m+12*sd
	if c <= lo || c >= hi {
		return quad.Fixed(f, lo, hi, 4000, quad.Legendre{}, 0)
	}
	return quad.Fixed(f, lo, c, 4000, quad.Legendre{}, 0) + quad.Fixed(f, c, hi, 4000, quad.Legendre{}, 0)
}

// Gauss–Hermite with 20 points integrates polynomials of degree ≤ 39
// exactly, so the Gaussian log-density (quadratic in z) matches the closed
// form to rounding (1e-10 allows for sums of 20 terms of size ~|y−m|²/σ²).
func TestGaussHermiteGaussianExact(t *testing.T) {
	gh := newGHRule(GHPoints)
	for _, c := range []struct{ y, m, v, ls float64 }{
		{0.3, -0.2, 0.5, math.Log(0.3)}, {2, 1, 1e-4, 0}, {-1, 3, 4, math.Log(2)}, {0, 0, 1e-12, -3},
	} {
		e, dm, dv, ds := likGaussian.expectGH(gh, c.y, c.m, c.v, c.ls)
		e0, dm0, dv0, ds0 := expectClosed(c.y, c.m, c.v, c.ls)
		for _, p := range [][2]float64{{e, e0}, {dm, dm0}, {dv, dv0}, {ds, ds0}} {
			if math.Abs(p[0]-p[1]) > 1e-10*max(1, math.Abs(p[1])) {
				t.Errorf("%+v: Gauss–Hermite %.15g, closed form %.15g", c, p[0], p[1])
			}
		}
	}
}

// Cauchy and Bernoulli expectations against high-precision quadrature.
// The adaptive rule is within 1e-9 everywhere, derivatives included (they
// are the Stein-lemma expectations on the same nodes: reference values from
// the same 4000-point rule). The 20-point Gauss–Hermite rule's error is
// governed by how far the integrand is from a degree-39 polynomial over q's
// width: below 1e-4 for the logit up to sd 3 and for a Cauchy with γ ≥ sd,
// but ~0.1 nats for a Cauchy with γ = sd/10 (logged), which is gp-cauchy's
// regime at outliers; that is why gpvi offers expectation=adaptive and why
// its ELBO() uses it.
func TestQuadratureVsReference(t *testing.T) {
	gh, pr := newGHRule(GHPoints), newPanelRule()
	cases := []struct {
		name    string
		l       lik
		y, m, v float64
		ls      float64
		ghTol   float64 // 0: GH-20 is not expected to be accurate here
	}{
		{"bernoulli y=1", likBernoulli, 1, 0.7, 2.5, 0, 1e-6},
		{"bernoulli y=0 sd=3", likBernoulli, 0, -2, 9, 0, 1e-4},
		{"bernoulli y=0 narrow", likBernoulli, 0, 3, 0.01, 0, 1e-12},
		{"bernoulli sd=20", likBernoulli, 1, 5, 400, 0, 0},
		{"cauchy sd=γ/2", likCauchy, 0.4, 0.1, 0.01, math.Log(0.2), 1e-8},
		{"cauchy sd=γ", likCauchy, 0.4, 0.1, 0.04, math.Log(0.2), 1e-4},
		{"cauchy sd=10γ", likCauchy, 0.4, 0.1, 4, math.Log(0.2), 0},
		{"cauchy outlier sd=7γ", likCauchy, 2.5, 0.1, 1, -2, 0},
		{"cauchy sd=1000γ", likCauchy, 0.4, 0.1, 1, math.Log(1e-3), 0},
	}
	for _, c := range cases {
		sd := math.Sqrt(c.v)
		g := func(z float64) float64 { v, _, _ := c.l.logp(c.y, z, c.ls); return v }
		gm := func(z float64) float64 { _, d, _ := c.l.logp(c.y, z, c.ls); return d }
		gv := func(z float64) float64 { _, d, _ := c.l.logp(c.y, z, c.ls); return d * (z - c.m) / (2 * c.v) }
		cen, _ := c.l.singularity(c.y, c.ls)
		want := reference(g, c.m, c.v, cen)
		e, dm, dv, _ := c.l.expectAdaptive(pr, c.y, c.m, c.v, c.ls)
		for _, p := range []struct {
			what      string
			got, want float64
		}{{"E", e, want}, {"dE/dm", dm, reference(gm, c.m, c.v, cen)}, {"dE/dv", dv, reference(gv, c.m, c.v, cen)}} {
			if math.Abs(p.got-p.want) > 1e-9*max(1, math.Abs(p.want)) {
				t.Errorf("%s: adaptive %s = %.12g, reference %.12g", c.name, p.what, p.got, p.want)
			}
		}
		ghv, _, _, _ := c.l.expectGH(gh, c.y, c.m, c.v, c.ls)
		err := math.Abs(ghv - want)
		t.Logf("%s (sd %.3g): GH-20 error %.2g, adaptive error %.2g", c.name, sd, err, math.Abs(e-want))
		if c.ghTol > 0 && err > c.ghTol {
			t.Errorf("%s: GH-20 error %.3g > %g", c.name, err, c.ghTol)
		}
	}
}

// The Monte Carlo estimate is unbiased: the mean of 20000 single draws
// lies within 4 standard errors of the (adaptive, ~1e-14) quadrature value.
func TestMonteCarloExpectationUnbiased(t *testing.T) {
	r := numeric.NewRand(9)
	pr := newPanelRule()
	eps := make([]float64, 20000)
	numeric.FillNormal(eps, r)
	for _, l := range []lik{likCauchy, likBernoulli} {
		y, m, v, ls := 1.0, 0.5, 0.3, math.Log(0.8)
		want, _, _, _ := l.expectAdaptive(pr, y, m, v, ls)
		mean, _, _, _ := l.expectMC(eps, y, m, v, ls)
		var sq float64
		for i := range eps {
			g, _, _, _ := l.expectMC(eps[i:i+1], y, m, v, ls)
			sq += (g - mean) * (g - mean)
		}
		se := math.Sqrt(sq/float64(len(eps)-1)) / math.Sqrt(float64(len(eps)))
		if math.Abs(mean-want) > 4*se {
			t.Errorf("lik %d: MC mean %.6f ± %.2g, quadrature %.6f", l, mean, se, want)
		}
	}
}
