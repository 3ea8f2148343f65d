package mcmc

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
)

// linregChain returns a chain on the linear posterior of linreg at a point
// near its mode, with unit metric.
func linregChain(t *testing.T) (*chain, []float64) {
	d := loadData(t, "linreg")
	l := &linear{x: d.X, y: d.Y}
	c := &chain{rng: numeric.NewRand(2), dens: l, theta: []float64{-0.9, 1.7, math.Log(0.6)}, grad: make([]float64, 3)}
	c.evalGrad()
	return c, []float64{1, 1, 1}
}

// energyError integrates a fixed trajectory of length T with step eps and
// returns H(end) − H(start).
func energyError(t *testing.T, eps, T float64) float64 {
	c, minv := linregChain(t)
	p := []float64{3, -2, 4}
	h0 := -c.logp + kinetic(p, minv)
	for range int(math.Round(T / eps)) {
		c.leapfrog(p, minv, eps)
	}
	return -c.logp + kinetic(p, minv) - h0
}

// TestLeapfrogEnergyError: leapfrog is a second-order integrator, so over a
// fixed trajectory length the energy error is c·ε² + O(ε⁴): halving ε
// divides it by 4. Over ε = 0.004 → 0.002 → 0.001 the ratios must be within
// 5% of 4 (the O(ε²) relative correction is far smaller).
func TestLeapfrogEnergyError(t *testing.T) {
	const T = 0.2
	prev := energyError(t, 0.004, T)
	for _, eps := range []float64{0.002, 0.001} {
		e := energyError(t, eps, T)
		r := prev / e
		t.Logf("ε = %g: ΔH = %.3e, ratio %.4f", eps, e, r)
		if math.Abs(r-4) > 0.2 {
			t.Errorf("ε = %g: energy error ratio %.4f, want ≈ 4 (O(ε²))", eps, r)
		}
		prev = e
	}
}

// TestLeapfrogReversible: L steps forward, negate p, L steps back returns
// to the start up to rounding.
func TestLeapfrogReversible(t *testing.T) {
	c, minv := linregChain(t)
	th0 := append([]float64(nil), c.theta...)
	p := []float64{3, -2, 4}
	p0 := append([]float64(nil), p...)
	for range 50 {
		c.leapfrog(p, minv, 0.01)
	}
	for i := range p {
		p[i] = -p[i]
	}
	for range 50 {
		c.leapfrog(p, minv, 0.01)
	}
	for i := range th0 {
		if math.Abs(c.theta[i]-th0[i]) > 1e-10 || math.Abs(-p[i]-p0[i]) > 1e-8 {
			t.Errorf("coordinate %d: θ %.15g → %.15g, p %.15g → %.15g", i, th0[i], c.theta[i], p0[i], -p[i])
		}
	}
}

// TestWindowSchedule checks Stan's metric windows for 1000 warm-up
// iterations: a 75-iteration fast buffer, slow windows of 25, 50, 100, 200
// and 500 (the last stretched to the 50-iteration terminal buffer).
func TestWindowSchedule(t *testing.T) {
	w := newWindows(1000)
	est := newWelford(1)
	minv := []float64{1}
	var ends []int
	for it := range 1000 {
		if w.learn(&est, []float64{float64(it)}, minv) {
			ends = append(ends, it)
		}
	}
	want := []int{99, 149, 249, 449, 949}
	if len(ends) != len(want) {
		t.Fatalf("windows end at %v, want %v", ends, want)
	}
	for i := range want {
		if ends[i] != want[i] {
			t.Fatalf("windows end at %v, want %v", ends, want)
		}
	}
	// The last window holds iterations 450…949: the sample variance (n−1
	// divisor) of n consecutive integers is n(n+1)/12, regularised by
	// n/(n+5) and 1e-3·5/(n+5).
	n := 500.0
	v := n * (n + 1) / 12
	if got, want := minv[0], n/(n+5)*v+1e-3*5/(n+5); math.Abs(got-want) > 1e-9*want {
		t.Errorf("regularised variance %v, want %v", got, want)
	}
	if w := newWindows(100); w.initBuf != 15 || w.termBuf != 10 || w.size != 75 {
		t.Errorf("short warm-up: buffers %d/%d, window %d; want 15/10, 75", w.initBuf, w.termBuf, w.size)
	}
}

// TestDualAveraging: on a toy response where the acceptance statistic is
// exp(−ε) (so ε* = −log 0.8 = 0.2231 gives the target 0.8), the averaged
// iterate converges to ε*. Its weights m^−0.75 forget the start slowly,
// hence the long run; a wrong sign or target would converge elsewhere
// (δ = 0.65 gives 0.43).
func TestDualAveraging(t *testing.T) {
	var d dualAvg
	eps := 1.0
	d.restart(eps)
	for range 50_000 {
		eps = d.learn(math.Exp(-eps))
	}
	if want := -math.Log(targetAccept); math.Abs(d.final()-want) > 0.01*want {
		t.Errorf("dual averaging ends at %.4f, want %.4f", d.final(), want)
	}
}
