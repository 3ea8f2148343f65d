package gp

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/sim"
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
// well-conditioned K (condition number logged below); the rate of Adam in
// α is set by cond(K), and with ℓ = 1 (cond ≈ 3e6) Adam leaves
// the mean ~1e-3 away after 12000 steps (lr 0.05 down to 1e-4).
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
