package mfvi

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

// newMethod returns an initialised method on d.
func newMethod(t testing.TB, d *sim.Dataset, modelName string, c sim.Controls, seed uint64) *Method {
	t.Helper()
	mm, err := New(modelName)
	if err != nil {
		t.Fatal(err)
	}
	m := mm.(*Method)
	if _, err := sim.Init(m, d, c, numeric.NewRand(seed)); err != nil {
		t.Fatal(err)
	}
	return m
}

func loadData(t testing.TB, name string) *sim.Dataset {
	t.Helper()
	d, err := datasets.Load(name, 1)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// linearData is y = −1 + 2x + 0.5ε at 30 inputs from U(0.5, 2): inputs far
// from centred, so the exact posterior of (b, b0) is strongly correlated and
// the mean-field optimum is visibly worse than the posterior.
func linearData() *sim.Dataset {
	r := numeric.NewRand(7)
	d := &sim.Dataset{Name: "lin-test", Task: sim.Regression, DefaultModel: "linear"}
	for range 30 {
		x := 0.5 + 1.5*r.Float64()
		d.X = append(d.X, x)
		d.Y = append(d.Y, -1+2*x+0.5*r.NormFloat64())
	}
	return d
}

// linearExact holds the closed forms of the linear model with the noise
// fixed at sigma and prior N(0, sp² I) on w = (b, b0), features x̃ = (x, 1).
type linearExact struct {
	x, y      []float64
	sigma, sp float64
	P         *mat.SymDense // posterior precision X̃ᵀX̃/σ² + I/sp²
	mean      []float64     // posterior mean P⁻¹X̃ᵀy/σ²
}

func newLinearExact(d *sim.Dataset, sigma, sp float64) *linearExact {
	e := &linearExact{x: d.X, y: d.Y, sigma: sigma, sp: sp}
	var sxx, sx, n, sxy, sy float64
	for i, x := range d.X {
		sxx += x * x
		sx += x
		n++
		sxy += x * d.Y[i]
		sy += d.Y[i]
	}
	s2 := sigma * sigma
	e.P = mat.NewSymDense(2, []float64{sxx/s2 + 1/(sp*sp), sx / s2, sx / s2, n/s2 + 1/(sp*sp)})
	var m mat.VecDense
	if err := m.SolveVec(e.P, mat.NewVecDense(2, []float64{sxy / s2, sy / s2})); err != nil {
		panic(err)
	}
	e.mean = []float64{m.AtVec(0), m.AtVec(1)}
	return e
}

// optimumVar returns the mean-field optimum's variances 1/P_ii.
func (e *linearExact) optimumVar() []float64 {
	return []float64{1 / e.P.At(0, 0), 1 / e.P.At(1, 1)}
}

// expectedELBO returns E_q[log p(y|w)] − KL(q‖p) for q = N(m, diag v) in
// closed form: E(y − x̃ᵀw)² = (y − x̃ᵀm)² + Σ_j x̃_j² v_j.
func (e *linearExact) expectedELBO(m, v []float64) float64 {
	var ell float64
	for i, x := range e.x {
		r := e.y[i] - x*m[0] - m[1]
		ell += -0.5*math.Log(2*math.Pi*e.sigma*e.sigma) - (r*r+x*x*v[0]+v[1])/(2*e.sigma*e.sigma)
	}
	return ell - numeric.KLDiagNormal(m, []float64{math.Sqrt(v[0]), math.Sqrt(v[1])}, e.sp)
}

// logZ returns log N(y; 0, sp² X̃X̃ᵀ + σ² I).
func (e *linearExact) logZ() float64 {
	n := len(e.x)
	c := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			v := e.sp * e.sp * (e.x[i]*e.x[j] + 1)
			if i == j {
				v += e.sigma * e.sigma
			}
			c.SetSym(i, j, v)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(c) {
		panic("not positive definite")
	}
	var a mat.VecDense
	if err := ch.SolveVecTo(&a, mat.NewVecDense(n, e.y)); err != nil {
		panic(err)
	}
	return -0.5*float64(n)*math.Log(2*math.Pi) - 0.5*ch.LogDet() - 0.5*mat.Dot(&a, mat.NewVecDense(n, e.y))
}

// klToPosterior returns KL(N(m, diag v) ‖ N(mean, P⁻¹)).
func (e *linearExact) klToPosterior(m, v []float64) float64 {
	d0, d1 := m[0]-e.mean[0], m[1]-e.mean[1]
	p00, p01, p11 := e.P.At(0, 0), e.P.At(0, 1), e.P.At(1, 1)
	logDetP := math.Log(p00*p11 - p01*p01)
	return 0.5 * (p00*v[0] + p11*v[1] + p00*d0*d0 + 2*p01*d0*d1 + p11*d1*d1 - 2 - logDetP - math.Log(v[0]*v[1]))
}

// freezeNoise fixes the observation noise at sigma (test hook).
func freezeNoise(m *Method, sigma float64) {
	m.frozenNoise = true
	m.logNoise[0] = math.Log(sigma)
}

// setQ sets the linear model's q to means m and variances v.
func setQ(m *Method, mean, v []float64) {
	for i := range 2 {
		m.mu[i] = mean[i]
		m.ls[i] = 0.5 * math.Log(v[i])
	}
}

// meanSE returns the sample mean and its standard error.
func meanSE(xs []float64) (float64, float64) { return numeric.MeanSE(xs) }
