package fbnn

import (
	"math"
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
func entropyScaleRatio(t *testing.T, pr gp.Kernel, xs []float64, inj float64, k, reps int, est int) (ratio, se float64) {
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
	var sum, sq float64
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
		sum += d / float64(k) / exact
		sq += (d / float64(k) / exact) * (d / float64(k) / exact)
	}
	mean := sum / float64(reps)
	return mean, math.Sqrt((sq/float64(reps) - mean*mean) / float64(reps-1))
}

// TestEntropyGradientBias pins which choice fixed fBNN's narrow band: on
// 60 measurement points (as on `periodic`) with an RBF prior like `gap`'s
// fit and the default injected noise, the reference's SSGE recovers only
// part of the entropy's derivative along the samples even at the
// reference's k = 100 particles (measured 0.62), while the Gaussian score
// recovers nearly all of it at the default k = 50 (measured 0.95; its
// shortfall is the in-sample bias of the sample covariance). Bounds: the
// standard error of either mean over the 20 sample sets is 0.002 (logged),
// so 0.9 ≤ Gaussian ≤ 1.05 and SSGE ≤ 0.75 leave over 20 standard errors;
// the bounds are there to fail on a sign or scale error, or on an SSGE
// that no longer shows the bias the documentation describes.
func TestEntropyGradientBias(t *testing.T) {
	xs := make([]float64, 60)
	r := numeric.NewRand(5)
	for i := range xs {
		xs[i] = -4 + 8*r.Float64()
	}
	pr := gp.Kernel{Variance: 4, Lengthscale: 0.75}
	g, gse := entropyScaleRatio(t, pr, xs, defaultInjected, defaultParticles, 20, scoreGauss)
	s, sse := entropyScaleRatio(t, pr, xs, defaultInjected, 100, 20, scoreSSGE)
	t.Logf("entropy-gradient ratio: gaussian (k = %d) %.3f ± %.3f, ssge (k = 100) %.3f ± %.3f", defaultParticles, g, gse, s, sse)
	if g < 0.9 || g > 1.05 {
		t.Errorf("gaussian score: ratio %.3f, want in [0.9, 1.05]", g)
	}
	if s > 0.75 {
		t.Errorf("ssge: ratio %.3f, want ≤ 0.75 (if SSGE got better, revisit the package documentation)", s)
	}
}
