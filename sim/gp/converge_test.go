package gp

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

func maxAbsSym(a, b *mat.SymDense) float64 {
	n := a.SymmetricDim()
	d := 0.0
	for i := range n {
		for j := range n {
			d = max(d, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return d
}

// Adam from the default initialisation (α = 0, λ = 1) reaches the exact
// posterior with a Gaussian likelihood: q(z) on the training inputs and
// q(f*) on the grid within 1e-4 of gp-exact, λ² within 1e-4 of 1/σ², and F
// within 1e-4 of log p(y). The problem (N = 20 on [−5, 5], ℓ = 0.5) has a
// well-conditioned K (condition number logged below). With Adam on α the
// rate was set by cond(K) (with ℓ = 1, cond ≈ 3e6, the mean stayed ~1e-3
// away after 12000 steps); α's Newton step no longer depends on it
// (TestVIConvergesOnGap has cond ≈ 6e7).
func TestVIConvergesToExactPosterior(t *testing.T) {
	d := toyData(20, sim.Regression)
	c := sim.Controls{"lengthscale": sim.Num(0.5)}
	for k, v := range gaussFixed {
		c[k] = v
	}
	m := newVI(t, d, c)
	e := newExact(t, d, sim.Controls{"noise": sim.Num(0.3), "lengthscale": sim.Num(0.5)})
	k := mat.NewSymDense(m.n, nil)
	m.kern.fill(k.RawSymmetric().Data, m.x, m.x, true)
	var ch mat.Cholesky
	ch.Factorize(k)
	t.Logf("cond(K) = %.3g", ch.Cond())

	for _, ph := range []struct {
		lr float64
		n  int
	}{{0.05, 2000}, {0.01, 1000}} {
		if err := sim.Set(m, nil, "lr", sim.Num(ph.lr)); err != nil {
			t.Fatal(err)
		}
		for range ph.n {
			m.Step()
		}
	}
	mv, cv, err := m.TrainPosterior()
	if err != nil {
		t.Fatal(err)
	}
	me, ce, err := e.TrainPosterior()
	if err != nil {
		t.Fatal(err)
	}
	if dm, dc := maxAbsDiff(mv, me), maxAbsSym(cv, ce); dm > 1e-4 || dc > 1e-4 {
		t.Errorf("q(z): mean off by %.3g, covariance by %.3g", dm, dc)
	}
	pv, pcv, _ := m.Posterior(d.Grid)
	pe, pce, _ := e.Posterior(d.Grid)
	if dm, dc := maxAbsDiff(pv, pe), maxAbsSym(pcv, pce); dm > 1e-4 || dc > 1e-4 {
		t.Errorf("q(f*): mean off by %.3g, covariance by %.3g", dm, dc)
	}
	for i := range m.n {
		l2 := math.Exp(2 * m.rho.At(i, 0))
		if math.Abs(l2*0.09-1) > 1e-4 {
			t.Errorf("λ²_%d = %.8g, want 1/σ² = %.8g", i, l2, 1/0.09)
		}
	}
	if f, lml := m.ELBO(), e.LogMarginal(); math.Abs(f-lml) > 1e-4 {
		t.Errorf("F = %.8f, log p(y) = %.8f", f, lml)
	}
}

// On the 100 gap points (datasets "gap", seed 1), with a Gaussian
// likelihood and the default kernel and noise e^−2 held fixed, K has
// eigenvalues from 1e-6 to 56 (vi_newton.go); Adam on α was still 0.99 nat
// below log p(y) after 20,000 steps there. From the default start at the
// default lr, 5,000 steps must bring F within 0.1 nat of gp-exact's log
// p(y) for the same kernel and noise. F is ELBO(), exact for this
// likelihood (closed-form expectations, no Monte Carlo), so the 0.1 is the
// issue's criterion, not a noise allowance. The mean is then pinned by F
// itself: log p(y) − F = KL(q(z) ‖ p(z|y)) ≥ KL(q(f*) ‖ p(f*|y)) for the
// grid values f* (both share p(f*|z)), and a Gaussian KL is at least its
// mean term (Δm)²/(2v*), so at each grid point
// |Δm| ≤ √(2 v* (log p(y) − F)); 1e-9 is added to the gap for the rounding
// of the two ~60-nat sums (identity_test.go argues ~1e-13).
func TestVIConvergesOnGap(t *testing.T) {
	if raceDetector {
		t.Skip("one goroutine's training: nothing for the race detector to find")
	}
	d, err := datasets.Load("gap", 1)
	if err != nil {
		t.Fatal(err)
	}
	c := sim.Controls{"likelihood": sim.Choice(Gaussian), "noise": sim.Num(DefaultNoise), "learn_noise": sim.Num(0)}
	m := newVI(t, d, c)
	e := newExact(t, d, sim.Controls{"noise": sim.Num(DefaultNoise)})
	lml := e.LogMarginal()
	for s := 1; s <= 5000; s++ {
		m.Step()
		if s == 1000 || s == 5000 {
			t.Logf("step %d: log p(y) − F = %.3g", s, lml-m.ELBO())
		}
	}
	gap := lml - m.ELBO()
	if gap > 0.1 {
		t.Errorf("after 5000 steps F is %.4f nats below log p(y) = %.4f", gap, lml)
	}
	if gap < -1e-9 {
		t.Errorf("F exceeds log p(y) by %.3g: not a lower bound", -gap)
	}
	pv, _, err := m.Posterior(d.Grid)
	if err != nil {
		t.Fatal(err)
	}
	pe, ce, err := e.Posterior(d.Grid)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range d.Grid {
		dm, tol := math.Abs(pv[i]-pe[i]), math.Sqrt(2*ce.At(i, i)*(max(gap, 0)+1e-9))
		worst = max(worst, dm)
		if dm > tol {
			t.Errorf("x = %.3f: mean %.6f, exact %.6f (|Δ| %.3g > %.3g)", d.Grid[i], pv[i], pe[i], dm, tol)
		}
	}
	t.Logf("max |Δmean| over the grid %.3g", worst)
}

// With a Gaussian likelihood F is quadratic in the mean, so one full Newton
// step (β = 1) from any α lands on the exact posterior mean, whatever λ is.
// Rounding: the step solves with A = I + K/σ², condition number ≤ 1 +
// 56/σ² ≈ 3e3 on this data, so ~1e-12 relative; 1e-8 leaves room.
func TestNewtonMeanOneStepGaussian(t *testing.T) {
	d, err := datasets.Load("gap", 1)
	if err != nil {
		t.Fatal(err)
	}
	m := newVI(t, d, sim.Controls{"likelihood": sim.Choice(Gaussian), "noise": sim.Num(DefaultNoise), "learn_noise": sim.Num(0)})
	e := newExact(t, d, sim.Controls{"noise": sim.Num(DefaultNoise)})
	r := numeric.NewRand(9)
	for i := range m.n {
		m.alpha.Set(i, 0, r.NormFloat64())
		m.rho.Set(i, 0, r.NormFloat64())
	}
	m.evaluate(false, m.expect)
	if !m.newtonMean(1) {
		t.Fatal("newtonMean failed")
	}
	mv, _, err := m.TrainPosterior()
	if err != nil {
		t.Fatal(err)
	}
	me, _, err := e.TrainPosterior()
	if err != nil {
		t.Fatal(err)
	}
	if dm := maxAbsDiff(mv, me); dm > 1e-8 {
		t.Errorf("after one Newton step the mean is off by %.3g", dm)
	}
}
