package fbnn

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
)

// gaussScore agrees with the dense formula −(DᵀD + s²I)⁻¹(f̃_i − f̄) to
// rounding: the Woodbury form and the n×n solve differ only by the order of
// operations on a matrix of condition number at most (‖D‖² + s²)/s² ≈ 1e3
// here, so 1e-9 relative leaves a wide margin over 1e3·1e-16.
func TestGaussScoreDense(t *testing.T) {
	const k, n, s = 7, 12, 0.1
	r := numeric.NewRand(3)
	f := make([]float64, k*n)
	numeric.FillNormal(f, r)
	ft := mat.NewDense(k, n, nil)
	for i := range k {
		for j := range n {
			ft.Set(i, j, f[i*n+j]+s*r.NormFloat64())
		}
	}
	got := mat.NewDense(k, n, nil)
	b := newGaussBufs(k, n)
	if !gaussScore(got, f, ft, s, &b) {
		t.Fatal("factorisation failed")
	}

	fm := mat.NewDense(k, n, f)
	mean := make([]float64, n)
	for j := range n {
		mean[j] = mat.Sum(fm.ColView(j)) / k
	}
	d := mat.NewDense(k, n, nil)
	v := mat.NewDense(k, n, nil)
	for i := range k {
		for j := range n {
			d.Set(i, j, (fm.At(i, j)-mean[j])/math.Sqrt(k-1))
			v.Set(i, j, ft.At(i, j)-mean[j])
		}
	}
	var sig mat.Dense
	sig.Mul(d.T(), d)
	for j := range n {
		sig.Set(j, j, sig.At(j, j)+s*s)
	}
	var want mat.Dense
	if err := want.Solve(&sig, v.T()); err != nil {
		t.Fatal(err)
	}
	for i := range k {
		for j := range n {
			w := -want.At(j, i)
			if g := got.At(i, j); math.Abs(g-w) > 1e-9*(1+math.Abs(w)) {
				t.Fatalf("score[%d,%d] = %v, dense %v", i, j, g, w)
			}
		}
	}
}
