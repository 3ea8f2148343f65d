package gp

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/sim"
)

// PredictMoments against the textbook formulas solved directly with
// gonum: mean = k*ᵀ(K + εI + σ²I)⁻¹y, var = k** + ε − k*ᵀ(K + εI + σ²I)⁻¹k*
// (gp-exact puts the jitter on k** too). gpvi at the exact optimum must
// give the same; a Bernoulli gpvi has no Gaussian moments to give.
func TestPredictMoments(t *testing.T) {
	d := toyData(30, sim.Regression)
	const sigma, ell, c2 = 0.3, 0.8, 1.5
	c := sim.Controls{"noise": sim.Num(sigma), "lengthscale": sim.Num(ell), "variance": sim.Num(c2)}
	e := newExact(t, d, c)
	xs := []float64{-6, -2.5, 0, 0.37, 5.5}
	mean, std := make([]float64, len(xs)), make([]float64, len(xs))
	if !e.PredictMoments(xs, mean, std) {
		t.Fatal("gp-exact PredictMoments = false")
	}

	k := func(a, b float64) float64 { return c2 * math.Exp(-(a-b)*(a-b)/(2*ell*ell)) }
	n := d.N()
	ky := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			ky.Set(i, j, k(d.X[i], d.X[j]))
		}
		ky.Set(i, i, ky.At(i, i)+Jitter+sigma*sigma)
	}
	for s, x := range xs {
		ks := mat.NewVecDense(n, nil)
		for i := range n {
			ks.SetVec(i, k(x, d.X[i]))
		}
		var a mat.VecDense
		if err := a.SolveVec(ky, ks); err != nil {
			t.Fatal(err)
		}
		wantMean := mat.Dot(&a, mat.NewVecDense(n, d.Y))
		wantVar := k(x, x) + Jitter - mat.Dot(&a, ks)
		// cond(K + σ²I) ≤ (30·1.5 + 0.09)/0.09 ≈ 500: a solve loses at most
		// about 500·1e-16 relative, far inside 1e-10.
		if math.Abs(mean[s]-wantMean) > 1e-10 || math.Abs(std[s]-math.Sqrt(wantVar)) > 1e-10 {
			t.Errorf("x=%v: mean, std = %v, %v, want %v, %v", x, mean[s], std[s], wantMean, math.Sqrt(wantVar))
		}
	}

	v := newVI(t, d, sim.Controls{"noise": sim.Num(sigma), "lengthscale": sim.Num(ell), "variance": sim.Num(c2), "likelihood": sim.Choice(Gaussian)})
	setExactOptimum(t, v, e)
	vm, vs := make([]float64, len(xs)), make([]float64, len(xs))
	if !v.PredictMoments(xs, vm, vs) {
		t.Fatal("gpvi PredictMoments = false")
	}
	if dm, ds := maxAbsDiff(vm, mean), maxAbsDiff(vs, std); dm > 1e-9 || ds > 1e-9 {
		t.Errorf("gpvi at the exact optimum: moments differ from gp-exact's by %g (mean), %g (std)", dm, ds)
	}

	b := newVI(t, toyData(30, sim.Classification), nil)
	if b.PredictMoments(xs, vm, vs) {
		t.Error("Bernoulli gpvi PredictMoments = true; its Predict returns probabilities, not Gaussian f")
	}
}
