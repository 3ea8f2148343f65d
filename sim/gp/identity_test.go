package gp

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

var gaussFixed = sim.Controls{"likelihood": sim.Choice(Gaussian), "noise": sim.Num(0.3), "learn_noise": sim.Num(0)}

// At α = (K+σ²I)⁻¹y, λ² = 1/σ², q is the exact posterior and F equals
// log N(y; 0, K+σ²I) (the package documentation). Both sides are O(10) sums of
// terms computed from Cholesky factors of matrices with condition number
// below ~1e3 here, so rounding is ~1e-13; 1e-9 is "machine precision" with
// room to spare but would catch any missing ½ or term.
func TestELBOEqualsLogMarginalAtOptimum(t *testing.T) {
	for _, kern := range []string{RBF, Periodic} {
		d := toyData(20, sim.Regression)
		c := sim.Controls{"kernel": sim.Choice(kern), "period": sim.Num(2.5)}
		for k, v := range gaussFixed {
			c[k] = v
		}
		ce := sim.Controls{}
		for k, v := range c {
			if k != "likelihood" {
				ce[k] = v
			}
		}
		m, e := newVI(t, d, c), newExact(t, d, ce)
		setExactOptimum(t, m, e)
		elbo, lml := m.ELBO(), e.LogMarginal()
		t.Logf("%s: ELBO %.15f, log marginal %.15f, difference %.2g", kern, elbo, lml, elbo-lml)
		if math.Abs(elbo-lml) > 1e-9 {
			t.Errorf("%s: ELBO %.12f, log marginal %.12f", kern, elbo, lml)
		}
		// The IWBO's weights are all p(y) at the exact posterior.
		if iw := m.IWBO(50); math.Abs(iw-lml) > 1e-6 {
			t.Errorf("%s: IWBO %.10f at the exact posterior, want %.10f", kern, iw, lml)
		}
		// Perturbing α or log λ strictly lowers F (a 1e-3 step lowers a
		// smooth maximum by O(1e-6), far above the 1e-12 rounding).
		for _, p := range []*mat.Dense{m.alpha, m.rho} {
			for _, i := range []int{0, 7, 19} {
				for _, h := range []float64{-1e-3, 1e-3} {
					old := p.At(i, 0)
					p.Set(i, 0, old+h)
					if f := m.ELBO(); f >= elbo-1e-10 {
						t.Errorf("%s: perturbing entry %d by %g gives F %.12f ≥ %.12f", kern, i, h, f, elbo)
					}
					p.Set(i, 0, old)
				}
			}
		}
	}
}

// Σ_nn = (1 − Σ_k (L⁻¹)_kn²)/λ_n² against diag((K⁻¹+Λ)⁻¹) inverted directly
// by gonum, for random λ. K on 20 points 0.53 apart with ℓ = 1 has
// condition number ~1e3, so the direct double inverse loses ~1e-12.
func TestMarginalVarianceFormula(t *testing.T) {
	d := toyData(20, sim.Regression)
	m := newVI(t, d, gaussFixed)
	r := numeric.NewRand(11)
	for i := range m.n {
		m.rho.Set(i, 0, r.NormFloat64())
	}
	m.ELBO() // fills m.vars
	n := m.n
	k := mat.NewSymDense(n, nil)
	m.kern.fill(k.RawSymmetric().Data, m.x, m.x, true)
	var kinv mat.Dense
	if err := kinv.Inverse(k); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		l := math.Exp(m.rho.At(i, 0))
		kinv.Set(i, i, kinv.At(i, i)+l*l)
	}
	var sigma mat.Dense
	if err := sigma.Inverse(&kinv); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if math.Abs(m.vars[i]-sigma.At(i, i)) > 1e-9 {
			t.Errorf("Σ_%d%d = %.12g, direct %.12g", i, i, m.vars[i], sigma.At(i, i))
		}
	}
	// TrainPosterior's full covariance agrees too.
	_, cov, err := m.TrainPosterior()
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for j := range n {
			if math.Abs(cov.At(i, j)-sigma.At(i, j)) > 1e-9 {
				t.Fatalf("Σ_%d%d = %.12g, direct %.12g", i, j, cov.At(i, j), sigma.At(i, j))
			}
		}
	}
}
