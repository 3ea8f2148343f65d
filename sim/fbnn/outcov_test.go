package fbnn

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// sampleWeights draws w = μ + diag(e^ρ)ε outside the output layer and
// w_out = μ_out + Lε_out inside it, L lower triangular with diagonal e^ρ:
// checked against the dense product with random ρ and L, so that the output
// weights' covariance is LLᵀ. The two agree to rounding (sums of ≤ 51
// products of O(1) terms: ≤ 1e-13).
func TestSampleWeightsFullOutputCovariance(t *testing.T) {
	m := newMethod(t, loadData(t, "gap", 1), sim.Controls{"particles": sim.Num(8)}, 1)
	r := numeric.NewRand(5)
	n, off := m.nOut, m.outOff
	if off+n != len(m.mu) || n != 51 {
		t.Fatalf("output block at %d, %d weights; want the slab's last 51", off, n)
	}
	for i := range m.ls {
		m.ls[i] = -2 + r.NormFloat64()
		m.std[i] = math.Exp(m.ls[i])
	}
	l := mat.NewTriDense(n, mat.Lower, nil)
	for a := range n {
		l.SetTri(a, a, m.std[off+a])
		for b := range a {
			m.lo[a*n+b] = r.NormFloat64()
			l.SetTri(a, b, m.lo[a*n+b])
		}
	}
	e := make([]float64, len(m.mu))
	numeric.FillNormal(e, r)
	w := make([]float64, len(m.mu))
	m.sampleWeights(w, e)
	var want mat.VecDense
	want.MulVec(l, mat.NewVecDense(n, e[off:]))
	for q := range w {
		v := m.mu[q] + m.std[q]*e[q]
		if q >= off {
			v = m.mu[q] + want.AtVec(q-off)
		}
		if math.Abs(w[q]-v) > 1e-13 {
			t.Fatalf("w[%d] = %.15g, want %.15g", q, w[q], v)
		}
	}
	// The mean-field family keeps L diagonal.
	m.meanField = true
	m.sampleWeights(w, e)
	for q := range w {
		if v := m.mu[q] + m.std[q]*e[q]; w[q] != v {
			t.Fatalf("mean field: w[%d] = %v, want %v", q, w[q], v)
		}
	}
}
