package fbnn

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/gp"
)

// entropyScaleRatio returns, averaged over reps sets of k samples, the
// estimated derivative of the entropy H[q(f̃)] along f ↦ s·f at s = 1,
// (1/k) Σ_i −ĝ_iᵀ f_i, divided by its exact value tr(A⁻¹K), for
// f ~ N(0, K) with K the prior's covariance at xs and f̃ = f + inj·ξ, so
// A = K + inj²I. This is how the method uses the score: the entropy
// gradient with respect to any parameter is −(1/k) Σ ĝ_iᵀ ∂f_i/∂φ, and the
// spread of q is set by its component along the samples themselves.
func entropyScaleRatio(t *testing.T, pr gp.Kernel, xs []float64, inj float64, k, reps int, est int) float64 {
	t.Helper()
	n := len(xs)
	kd := make([]float64, n*n)
	pr.FillSym(kd, xs, 1e-10*pr.Variance)
	ks := mat.NewSymDense(n, kd)
	var ch mat.Cholesky
	if !ch.Factorize(ks) {
		t.Fatal("K not positive definite")
	}
	var l mat.TriDense
	ch.LTo(&l)
	// Exact: tr(A⁻¹K) = Σ λ/(λ + inj²) over K's eigenvalues.
	var eig mat.EigenSym
	if !eig.Factorize(ks, false) {
		t.Fatal("eigendecomposition failed")
	}
	var exact float64
	for _, v := range eig.Values(nil) {
		v = max(v, 0)
		exact += v / (v + inj*inj)
	}
	r := numeric.NewRand(11)
	eps := mat.NewDense(k, n, nil)
	f := mat.NewDense(k, n, nil)
	ft := mat.NewDense(k, n, nil)
	score := mat.NewDense(k, n, nil)
	var ssge numeric.SSGE
	gb := newGaussBufs(k, n)
	var sum float64
	for range reps {
		for i := range k {
			for j := range n {
				eps.Set(i, j, r.NormFloat64())
			}
		}
		f.Mul(eps, l.T())
		for i := range k {
			for j := range n {
				ft.Set(i, j, f.At(i, j)+inj*r.NormFloat64())
			}
		}
		if est == scoreSSGE {
			if err := ssge.Score(score, ft, ssgeOptions); err != nil {
				t.Fatal(err)
			}
		} else if !gaussScore(score, f.RawMatrix().Data, ft, inj, &gb) {
			t.Fatal("gaussScore failed")
		}
		var d float64
		for i := range k {
			for j := range n {
				d -= score.At(i, j) * f.At(i, j)
			}
		}
		sum += d / float64(k)
	}
	return sum / float64(reps) / exact
}

func TestEntropyGradientBias(t *testing.T) {
	xs := make([]float64, 60)
	r := numeric.NewRand(5)
	for i := range xs {
		xs[i] = -4 + 8*r.Float64()
	}
	pr := gp.Kernel{Variance: 4, Lengthscale: 0.75}
	for _, k := range []int{20, 50, 100} {
		g := entropyScaleRatio(t, pr, xs, defaultInjected, k, 20, scoreGauss)
		s := entropyScaleRatio(t, pr, xs, defaultInjected, k, 20, scoreSSGE)
		t.Logf("k = %d: entropy-gradient ratio gauss %.3f, ssge %.3f", k, g, s)
	}
}
