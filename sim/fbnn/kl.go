package fbnn

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/gp"
)

// Cholesky retries: when K + inj²I fails to factorise (it cannot in exact
// arithmetic, K being positive semi-definite), extra jitter starting at
// 1e-8·c² is added and multiplied by 100 per retry, up to 1e-2·c².
const (
	retryJitter0   = 1e-8
	retryJitterMax = 1e-2
)

// crossEntropy returns CE = −(1/k) Σ_i log N(f̃_i; 0, A), A = K_XX + inj²I,
// for the k rows f̃_i of ft (k×n), and writes dCE/df̃ = (1/k)·F̃A⁻¹ into
// grad (k×n, row-major). a (n×n) is scratch for A and its Cholesky factor.
// It returns false if A could not be factorised even with the largest
// retry jitter. It allocates nothing.
func crossEntropy(k gp.Kernel, xs []float64, ft *mat.Dense, a, grad []float64, inj float64) (float64, bool) {
	kk, n := ft.Dims()
	var l blas64.Triangular
	ok := false
	for extra := 0.0; extra <= retryJitterMax*k.Variance; {
		k.FillSym(a, xs, inj*inj+extra)
		if l, ok = lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: a}); ok {
			break
		}
		if extra == 0 {
			extra = retryJitter0 * k.Variance
		} else {
			extra *= 100
		}
	}
	if !ok {
		return math.NaN(), false
	}
	raw := ft.RawMatrix()
	for i := range kk {
		copy(grad[i*n:(i+1)*n], raw.Data[i*raw.Stride:i*raw.Stride+n])
	}
	z := blas64.General{Rows: kk, Cols: n, Stride: n, Data: grad}
	// Rows of F̃L⁻ᵀ are (L⁻¹f̃_i)ᵀ: the whitened samples.
	blas64.Trsm(blas.Right, blas.Trans, 1, l, z)
	var quad float64
	for _, v := range grad[:kk*n] {
		quad += v * v
	}
	var logDet float64
	for i := range n {
		logDet += 2 * math.Log(a[i*n+i])
	}
	// Then (F̃L⁻ᵀ)L⁻¹ = F̃A⁻¹.
	blas64.Trsm(blas.Right, blas.NoTrans, 1/float64(kk), l, z)
	return 0.5*quad/float64(kk) + 0.5*logDet + float64(n)*halfLog2Pi, true
}

// entropyGrad adds to grad (k×n) the gradient of −S_H with respect to f̃,
// times scale, where S_H = (1/k) Σ_i stopgrad(−ĝ_i)ᵀ f̃_i and ĝ = score
// (k×n): d(−S_H)/df̃_i = ĝ_i/k. It returns the value of S_H with f̃ centred
// at the particle mean f̄ (scratch fbar, length n): the centring changes the
// value by a term without gradient and makes it invariant to shifts of f,
// so the trace does not wander with the mean function. For a Gaussian q the
// value is about the number of effective dimensions, not the entropy: the
// entropy itself is not available.
func entropyGrad(score, ft *mat.Dense, grad, fbar []float64, scale float64) float64 {
	kk, n := ft.Dims()
	f, g := ft.RawMatrix(), score.RawMatrix()
	clear(fbar[:n])
	for i := range kk {
		for j, v := range f.Data[i*f.Stride : i*f.Stride+n] {
			fbar[j] += v / float64(kk)
		}
	}
	var sh float64
	for i := range kk {
		gi := g.Data[i*g.Stride : i*g.Stride+n]
		fi := f.Data[i*f.Stride : i*f.Stride+n]
		di := grad[i*n : (i+1)*n]
		for j, v := range gi {
			di[j] += scale * v / float64(kk)
			sh -= v * (fi[j] - fbar[j])
		}
	}
	return sh / float64(kk)
}

// ssgeOptions are the estimator's settings for the entropy gradient:
// FBNN's per-dimension bandwidth (the function values at the data and far
// from it differ in scale by an order of magnitude, which a single
// Euclidean bandwidth cannot follow) and its 0.99 eigenvalue threshold.
var ssgeOptions = numeric.SSGEOptions{Bandwidth: numeric.BandwidthPerDim, Threshold: numeric.DefaultSSGEThreshold}
