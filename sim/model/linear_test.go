package model

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
)

// offsetLine is 30 points of y = −1 + 2x + 0.5ε with x from U(0, 2): the
// posterior of (b0, b) is strongly correlated.
func offsetLine() (x, y []float64) {
	r := numeric.NewRand(11)
	for range 30 {
		xi := 2 * r.Float64()
		x = append(x, xi)
		y = append(y, -1+2*xi+0.5*r.NormFloat64())
	}
	return x, y
}

// LinearPosterior against quadrature of the unnormalised posterior
// exp(−½σ⁻²Σr² − ½τ⁻²(b0² + b²)) on a 401² grid spanning ±8 sd: the
// midpoint rule on a Gaussian converges faster than any power of the
// spacing, and the tails beyond 8 sd weigh e^−32; 1e-8 relative to the sd
// is rounding in sums of 1.6e5 terms.
func TestLinearPosteriorByQuadrature(t *testing.T) {
	x, y := offsetLine()
	const sigma, tau = 0.5, 1.3
	g, ok := LinearPosterior(x, y, sigma, tau)
	if !ok {
		t.Fatal("no posterior")
	}
	sd := g.SD()
	logp := func(b0, b float64) float64 {
		var ss float64
		for i, xi := range x {
			r := y[i] - b0 - b*xi
			ss += r * r
		}
		return -0.5*ss/(sigma*sigma) - 0.5*(b0*b0+b*b)/(tau*tau)
	}
	const n = 401
	ref := logp(g.Mean[0], g.Mean[1])
	var z, m0, m1, s00, s01, s11 float64
	for i := range n {
		b0 := g.Mean[0] + 8*sd[0]*(2*float64(i)/(n-1)-1)
		for j := range n {
			b := g.Mean[1] + 8*sd[1]*(2*float64(j)/(n-1)-1)
			w := math.Exp(logp(b0, b) - ref)
			z += w
			m0 += w * b0
			m1 += w * b
			s00 += w * b0 * b0
			s01 += w * b0 * b
			s11 += w * b * b
		}
	}
	m0, m1 = m0/z, m1/z
	c00, c01, c11 := s00/z-m0*m0, s01/z-m0*m1, s11/z-m1*m1
	for _, c := range []struct {
		what      string
		got, want float64
		scale     float64
	}{
		{"mean b0", g.Mean[0], m0, sd[0]}, {"mean b", g.Mean[1], m1, sd[1]},
		{"var b0", g.Cov[0][0], c00, sd[0] * sd[0]}, {"cov", g.Cov[0][1], c01, sd[0] * sd[1]},
		{"cov sym", g.Cov[1][0], c01, sd[0] * sd[1]}, {"var b", g.Cov[1][1], c11, sd[1] * sd[1]},
	} {
		if math.Abs(c.got-c.want) > 1e-8*c.scale {
			t.Errorf("%s: %.12g, quadrature %.12g", c.what, c.got, c.want)
		}
	}
	if r := g.Corr(); !(r < -0.8) {
		t.Errorf("correlation %.3f: inputs in [0, 2] should give about −0.87", r)
	}
	for _, bad := range [][2]float64{{0, 1}, {1, 0}, {math.Inf(1), 1}, {math.NaN(), 1}} {
		if _, ok := LinearPosterior(x, y, bad[0], bad[1]); ok {
			t.Errorf("LinearPosterior(σ %v, τ %v) succeeded", bad[0], bad[1])
		}
	}
}

// Mean-field's optimum on a Gaussian: the exact means and variances
// 1/P_ii, the inverse of the precision's diagonal, which is the exact
// variance times 1 − ρ²; the covariance is diagonal.
func TestMeanFieldOf(t *testing.T) {
	x, y := offsetLine()
	g, _ := LinearPosterior(x, y, 0.5, 1.3)
	q := MeanFieldOf(g)
	det := g.Cov[0][0]*g.Cov[1][1] - g.Cov[0][1]*g.Cov[0][1]
	p00, p11 := g.Cov[1][1]/det, g.Cov[0][0]/det // P = Σ⁻¹
	if q.Mean != g.Mean || q.Cov[0][1] != 0 || q.Cov[1][0] != 0 {
		t.Errorf("mean-field optimum %+v: want the exact means %v and a diagonal covariance", q, g.Mean)
	}
	for i, p := range []float64{p00, p11} {
		if v := q.Cov[i][i]; math.Abs(v*p-1) > 1e-12 {
			t.Errorf("variance %d: %v, want 1/P_ii = %v", i, v, 1/p)
		}
	}
	sd, sdq, r := g.SD(), q.SD(), g.Corr()
	for i := range 2 {
		if f := sdq[i] / sd[i]; math.Abs(f-math.Sqrt(1-r*r)) > 1e-12 || f > 0.6 {
			t.Errorf("sd %d: mean-field / exact = %.6f, want √(1−ρ²) = %.6f (< 0.6 at ρ = %.3f)", i, f, math.Sqrt(1-r*r), r)
		}
	}
}

func TestLinearNamesAndJoint(t *testing.T) {
	if LinearWeightName(0) != "slope b" || LinearWeightName(1) != "intercept b0" || LinearWeightName(2) != "" {
		t.Errorf("linear weight names %q %q %q", LinearWeightName(0), LinearWeightName(1), LinearWeightName(2))
	}
	x, y := offsetLine()
	j := NewJoint(x, y, 0.5, 1.3)
	g, _ := LinearPosterior(x, y, 0.5, 1.3)
	if j.Exact == nil || *j.Exact != g || j.ExactCorr != g.Corr() || j.Names != [2]string{"intercept b0", "slope b"} {
		t.Errorf("NewJoint with σ held: %+v", j)
	}
	if j := NewJoint(x, y, 0, 1.3); j.Exact != nil || j.FixedNoise != 0 {
		t.Errorf("NewJoint with σ inferred has an exact posterior: %+v", j)
	}
	c := FixedNoiseControl()
	if c.Name != FixedNoise || c.Min != 0 || c.Default.Num != 0 || c.Live {
		t.Errorf("fixed noise control %+v: want 0 (off) by default, set at the start only", c)
	}
}
