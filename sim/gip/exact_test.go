package gip

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
	"gonum.org/v1/gonum/mat"
)

// layerMoments runs one evaluation pass and returns layer l's conditional
// mean M_l (n×d) and covariance Σ_l = L⁻ᵀL⁻¹ (n×n), and the pass's total KL.
func layerMoments(m *Method, l int) (mean, cov *mat.Dense, kl float64) {
	ev := m.dataEvaluator()
	r := m.pass(ev, m.d.X, nil, true)
	ly := ev.layers[l]
	mean = mat.DenseCopyOf(mat.NewDense(ly.n, ly.d, ly.mean.Data))
	linv := mat.NewDense(ly.n, ly.n, ly.linv.Data)
	cov = mat.NewDense(ly.n, ly.n, nil)
	cov.Mul(linv.T(), linv)
	return mean, cov, r.kl
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var d float64
	for i := range r {
		for j := range c {
			d = max(d, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return d
}

// With Λ → 0 the pseudo-data carry no information: every conditional is
// the prior N(0, σ_l² I) and the KL vanishes.
func TestPriorLimit(t *testing.T) {
	d := gapData(3, 40)
	m := newTest(t, model.Arch{Widths: []int{1, 12, 9, 1}}, d, sim.Controls{ctlInducing: sim.Num(15)}, 3)
	r := rand.New(rand.NewPCG(3, 3))
	for l := range m.v {
		for i := range m.v[l].RawMatrix().Data {
			m.v[l].RawMatrix().Data[i] = 3 * r.NormFloat64()
		}
		for i := range m.logLam[l].RawMatrix().Data {
			m.logLam[l].RawMatrix().Data[i] = -60 // λ ≈ 9e−27
		}
	}
	for l := range m.v {
		mean, cov, kl := layerMoments(m, l)
		sd := m.priorStd(l)
		n, _ := cov.Dims()
		prior := mat.NewDiagDense(n, nil)
		for i := range n {
			prior.SetDiag(i, sd*sd)
		}
		// Λ contributes ~1e−24 relative to σ⁻²; what remains is rounding.
		if e := mat.Norm(mean, math.Inf(1)); e > 1e-12 {
			t.Errorf("layer %d: mean max |m| = %g, want ≈ 0", l, e)
		}
		if e := maxAbsDiff(cov, prior); e > 1e-14*sd*sd*float64(n) {
			t.Errorf("layer %d: covariance differs from σ²I by %g", l, e)
		}
		// KL sums ~n·d terms of size O(1) that cancel: allow 1e−13 per term.
		if math.Abs(kl) > 1e-13*float64(m.arch.NumWeights()) {
			t.Errorf("evaluation KL = %g, want 0", kl)
		}
	}
	tr := newTrainer(m)
	tr.fillNoise(m)
	_, kl, ok := m.gradStep(tr)
	if !ok || math.Abs(kl) > 1e-13*float64(m.arch.NumWeights()) {
		t.Errorf("tape KL = %g (ok %v), want 0", kl, ok)
	}
}

// linearExact sets up the linear model with U₀ = X, V = Y, λ = 1/σ², noise
// fixed at σ, so that q is the exact Bayesian linear-regression posterior.
func linearExact(t *testing.T, sigma float64) (*Method, *mat.Dense, *mat.SymDense) {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 7))
	n := 30
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = 2*r.Float64() - 1
		y[i] = -1 + 2*x[i] + 0.5*r.NormFloat64()
	}
	d := &sim.Dataset{Name: "linreg-test", Task: sim.Regression, X: x, Y: y, DefaultModel: model.Linear}
	m := newTest(t, model.Arch{Widths: []int{1, 1}}, d, sim.Controls{ctlInducing: sim.Num(float64(n)), ctlPriorScale: sim.Num(1.7)}, 7)
	m.freezeNoise = true
	copy(m.u0.RawMatrix().Data, x)
	copy(m.v[0].RawMatrix().Data, y)
	for i := range n {
		m.logLam[0].Set(i, 0, -2*math.Log(sigma))
	}
	m.logSig.Set(0, 0, math.Log(sigma))

	// Exact posterior: precision σ₁⁻²I + X̃ᵀX̃/σ², mean Σ X̃ᵀy/σ².
	xt := mat.NewDense(n, 2, nil)
	for i := range n {
		xt.Set(i, 0, x[i])
		xt.Set(i, 1, 1)
	}
	s1 := m.priorStd(0)
	prec := mat.NewSymDense(2, nil)
	prec.SymOuterK(1/(sigma*sigma), xt.T())
	for i := range 2 {
		prec.SetSym(i, i, prec.At(i, i)+1/(s1*s1))
	}
	var ch mat.Cholesky
	if !ch.Factorize(prec) {
		t.Fatal("exact precision not positive definite")
	}
	var cov mat.SymDense
	if err := ch.InverseTo(&cov); err != nil {
		t.Fatal(err)
	}
	var b, mean mat.Dense
	b.Mul(xt.T(), mat.NewDense(n, 1, y))
	b.Scale(1/(sigma*sigma), &b)
	mean.Mul(&cov, &b)
	return m, &mean, &cov
}

// logMarginal returns log N(y; 0, σ₁²X̃X̃ᵀ + σ²I).
func logMarginal(t *testing.T, m *Method, sigma float64) float64 {
	n := m.d.N()
	k := mat.NewSymDense(n, nil)
	s1 := m.priorStd(0)
	for i := range n {
		for j := range n {
			v := s1 * s1 * (m.d.X[i]*m.d.X[j] + 1)
			if i == j {
				v += sigma * sigma
			}
			k.SetSym(i, j, v)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(k) {
		t.Fatal("marginal covariance not positive definite")
	}
	yv := mat.NewVecDense(n, append([]float64(nil), m.d.Y...))
	var a mat.VecDense
	if err := ch.SolveVecTo(&a, yv); err != nil {
		t.Fatal(err)
	}
	return -0.5*float64(n)*math.Log(2*math.Pi) - 0.5*ch.LogDet() - 0.5*mat.Dot(yv, &a)
}

func TestLinearModelExact(t *testing.T) {
	const sigma = 0.5
	m, want, wantCov := linearExact(t, sigma)
	mean, cov, kl := layerMoments(m, 0)
	if e := maxAbsDiff(mean, want); e > 1e-10 {
		t.Errorf("mean differs from the exact posterior by %g:\n%v\n%v", e, mat.Formatted(mean), mat.Formatted(want))
	}
	if e := maxAbsDiff(cov, wantCov); e > 1e-10 {
		t.Errorf("covariance differs from the exact posterior by %g", e)
	}

	// E_q[ELBO] = E_q[log p(y|w)] − KL, with E_q[‖y − X̃w‖²] = ‖y − X̃m‖² + tr(X̃ΣX̃ᵀ).
	lm := logMarginal(t, m, sigma)
	n := m.d.N()
	var ss float64
	for i, x := range m.d.X {
		xi := []float64{x, 1}
		f := xi[0]*mean.At(0, 0) + xi[1]*mean.At(1, 0)
		ss += (m.d.Y[i] - f) * (m.d.Y[i] - f)
		for a := range 2 {
			for b := range 2 {
				ss += xi[a] * cov.At(a, b) * xi[b]
			}
		}
	}
	expELBO := -0.5*float64(n)*math.Log(2*math.Pi*sigma*sigma) - 0.5*ss/(sigma*sigma) - kl
	if math.Abs(expELBO-lm) > 1e-10 {
		t.Errorf("E[ELBO] = %.12f, log p(Y) = %.12f", expELBO, lm)
	}

	// The single-sample ELBO estimates average to it: 4 standard errors.
	const S = 4000
	var s1, s2 float64
	for range S {
		e := m.ELBO()
		s1 += e
		s2 += e * e
	}
	mu := s1 / S
	se := math.Sqrt((s2/S - mu*mu) / S)
	if math.Abs(mu-lm) > 4*se {
		t.Errorf("mean ELBO %g ± %g, log p(Y) = %g", mu, se, lm)
	}

	// q is exact, so every importance weight is p(Y): zero spread for every k.
	for _, k := range []int{1, 2, 10, 100} {
		for range 3 {
			if iw := m.IWBO(k); math.Abs(iw-lm) > 1e-8 {
				t.Errorf("IWBO_%d = %.12f, log p(Y) = %.12f", k, iw, lm)
			}
		}
	}
	t.Logf("log p(Y) = %.9f, mean ELBO %.4f ± %.4f", lm, mu, se)
}
