package gp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// errNotPD reports a covariance that stayed indefinite after the bounded
// extra jitter of sampleChol.
var errNotPD = errors.New("predictive covariance is not positive definite")

// factorA returns the lower Cholesky factor of A = I + diag(λ)·K·diag(λ)
// for the jittered kernel matrix on x, and that matrix.
func factorA(k *kernel, x, lam []float64) (l blas64.Triangular, kxx []float64, err error) {
	n := len(x)
	kxx = make([]float64, n*n)
	k.fill(kxx, x, x, true)
	a := make([]float64, n*n)
	for i := range n {
		for j := range n {
			a[i*n+j] = lam[i] * kxx[i*n+j] * lam[j]
		}
		a[i*n+i]++
	}
	sym := blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: a}
	if _, ok := lapack64.Potrf(sym); !ok {
		return l, nil, errors.New("the matrix A = I + ΛKΛ is not positive definite (λ not finite?)")
	}
	return blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: n, Stride: n, Data: a}, kxx, nil
}

// conditional returns the Gaussian q(f*) at xs for a posterior with mean
// weights α and site precisions λ² on the training inputs x:
//
//	mean = K*X α,  cov = K** + εI − K*X (K + diag(λ⁻²))⁻¹ KX*
//
// computed as K** + εI − WᵀW with W = L⁻¹ diag(λ) KX*, since
// (K + Λ⁻²)⁻¹ = Λ A⁻¹ Λ for A = I + ΛKΛ = LLᵀ: no λ⁻² and no K⁻¹ appears,
// so tiny or huge λ stay harmless.
//
// With same set, xs are the training inputs themselves and K*X is the
// jittered K, so the result is q(z) = N((K+εI)α, Σ) exactly as the free
// energy sees it; otherwise the jitter is on K** only.
func conditional(k *kernel, x, lam, alpha, xs []float64, same bool) ([]float64, *mat.SymDense, error) {
	n, s := len(x), len(xs)
	l, kxx, err := factorA(k, x, lam)
	if err != nil {
		return nil, nil, err
	}
	kxs := kxx // KX*, n×s
	if !same {
		kxs = make([]float64, n*s)
		k.fill(kxs, x, xs, false)
	}
	kg := blas64.General{Rows: n, Cols: s, Stride: s, Data: kxs}
	mean := make([]float64, s)
	blas64.Gemv(blas.Trans, 1, kg, blas64.Vector{N: n, Inc: 1, Data: alpha}, 0, blas64.Vector{N: s, Inc: 1, Data: mean})
	w := make([]float64, n*s)
	for i := range n {
		for j := range s {
			w[i*s+j] = lam[i] * kxs[i*s+j]
		}
	}
	wg := blas64.General{Rows: n, Cols: s, Stride: s, Data: w}
	blas64.Trsm(blas.Left, blas.NoTrans, 1, l, wg)
	// Syrk updates the upper triangle only, the part a SymDense reads, so
	// the result is symmetric by construction.
	cov := mat.NewSymDense(s, nil)
	k.fill(cov.RawSymmetric().Data, xs, xs, true)
	blas64.Syrk(blas.Trans, -1, wg, 1, cov.RawSymmetric())
	return mean, cov, nil
}

// sampleChol factors cov, adding at most 1e-4 × its mean diagonal of extra
// jitter (tried in steps of ×10 from 1e-8) when rounding has made it
// indefinite; the analytic covariance is ≥ Jitter·I, so the extra is rarely
// needed.
func sampleChol(cov *mat.SymDense) (*mat.TriDense, error) {
	s := cov.SymmetricDim()
	var tr float64
	for i := range s {
		tr += cov.At(i, i)
	}
	base := math.Max(tr/float64(max(s, 1)), 1e-300)
	var ch mat.Cholesky
	if ch.Factorize(cov) {
		var l mat.TriDense
		ch.LTo(&l)
		return &l, nil
	}
	work := mat.NewSymDense(s, nil)
	for extra := 1e-8; extra <= 1e-4; extra *= 10 {
		work.CopySym(cov)
		for i := range s {
			work.SetSym(i, i, work.At(i, i)+extra*base)
		}
		if ch.Factorize(work) {
			var l mat.TriDense
			ch.LTo(&l)
			return &l, nil
		}
	}
	return nil, errNotPD
}

// drawFunctions returns samples draws from N(mean, cov), mapped through the
// sigmoid when probs is set.
func drawFunctions(mean []float64, cov *mat.SymDense, samples int, probs bool, r *rand.Rand) ([][]float64, error) {
	l, err := sampleChol(cov)
	if err != nil {
		return nil, err
	}
	out := make([][]float64, samples)
	for k := range out {
		f := make([]float64, len(mean))
		numeric.SampleMVN(f, mean, l, r)
		if probs {
			for i, v := range f {
				f[i] = numeric.Sigmoid(v)
			}
		}
		out[k] = f
	}
	return out, nil
}

// predict builds a sim.Predictive; a numerical failure gives no samples
// (the run loop then keeps its last band).
func predict(mean []float64, cov *mat.SymDense, err error, xs []float64, samples int, probs bool, r *rand.Rand) sim.Predictive {
	p := sim.Predictive{X: append([]float64(nil), xs...)}
	if err != nil || samples < 1 {
		return p
	}
	fs, err := drawFunctions(mean, cov, samples, probs, r)
	if err != nil {
		return p
	}
	p.Samples = fs
	return p
}

func notReady(name string) error { return fmt.Errorf("%s: not initialised", name) }

// momentsTo writes the mean and the square roots of cov's diagonal into
// mean and std; false on a numerical failure.
func momentsTo(mean, std, m []float64, cov *mat.SymDense, err error) bool {
	if err != nil || len(m) != len(mean) || len(m) != len(std) {
		return false
	}
	copy(mean, m)
	for i := range std {
		std[i] = math.Sqrt(max(cov.At(i, i), 0)) // ≥ Jitter analytically; rounding only
	}
	return true
}
