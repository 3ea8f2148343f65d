package fbnn

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// gaussBufs holds gaussScore's scratch for k particles at n points.
type gaussBufs struct {
	fbar []float64 // n
	d    []float64 // k×n centred samples over √(k−1)
	g    []float64 // k×k D Dᵀ + s²I, then its Cholesky factor
	w    []float64 // k×k (F̃ − f̄) Dᵀ G⁻¹
}

func newGaussBufs(k, n int) gaussBufs {
	return gaussBufs{fbar: make([]float64, n), d: make([]float64, k*n), g: make([]float64, k*k), w: make([]float64, k*k)}
}

// gaussScore writes into dst (k×n) the score at each noisy sample f̃_i of
// the Gaussian fitted to the particles, ĝ_i = −Σ̂⁻¹(f̃_i − f̄), where
// Σ̂ = DᵀD + s²I, D = (F − f̄)/√(k−1) holds the centred noise-free samples
// F (k×n, row-major) and s is the injected noise std: the covariance of
// f̃ = f + s·ξ with Cov f estimated by the particles. By Woodbury,
//
//	Σ̂⁻¹v = (v − Dᵀ(s²I + DDᵀ)⁻¹Dv)/s²,
//
// so the cost is a k×k Cholesky factorisation, not an n×n one. It returns
// false if s²I + DDᵀ could not be factorised (it is positive definite for
// s > 0). It allocates nothing.
func gaussScore(dst *mat.Dense, f []float64, ft *mat.Dense, s float64, b *gaussBufs) bool {
	k, n := ft.Dims()
	clear(b.fbar)
	for i := range k {
		for j, v := range f[i*n : (i+1)*n] {
			b.fbar[j] += v
		}
	}
	for j := range b.fbar {
		b.fbar[j] /= float64(k)
	}
	sc := 1 / math.Sqrt(float64(k-1))
	out, x := dst.RawMatrix(), ft.RawMatrix()
	for i := range k {
		fi, di := f[i*n:(i+1)*n], b.d[i*n:(i+1)*n]
		vi, xi := out.Data[i*out.Stride:i*out.Stride+n], x.Data[i*x.Stride:i*x.Stride+n]
		for j, m := range b.fbar {
			di[j] = (fi[j] - m) * sc
			vi[j] = xi[j] - m
		}
	}
	d := blas64.General{Rows: k, Cols: n, Stride: n, Data: b.d}
	v := blas64.General{Rows: k, Cols: n, Stride: out.Stride, Data: out.Data}
	g := blas64.General{Rows: k, Cols: k, Stride: k, Data: b.g}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, d, d, 0, g)
	for i := range k {
		b.g[i*k+i] += s * s
	}
	l, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: k, Stride: k, Data: b.g})
	if !ok {
		return false
	}
	w := blas64.General{Rows: k, Cols: k, Stride: k, Data: b.w}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, v, d, 0, w)
	blas64.Trsm(blas.Right, blas.Trans, 1, l, w)
	blas64.Trsm(blas.Right, blas.NoTrans, 1, l, w)
	// v ← v − W D, then ĝ = −v/s².
	blas64.Gemm(blas.NoTrans, blas.NoTrans, -1, w, d, 1, v)
	inv := -1 / (s * s)
	for i := range k {
		row := out.Data[i*out.Stride : i*out.Stride+n]
		for j := range row {
			row[j] *= inv
		}
	}
	return true
}

// Entropy-gradient estimators: the score ∇ log q(f̃) at the k noisy samples.
const (
	scoreGauss = iota // gaussScore: the default
	scoreSSGE         // numeric.SSGE with ssgeOptions: the reference's
)

var errScore = errors.New("fbnn: score estimate failed")

// score writes the estimate of ∇ log q(f̃) at st.ft into st.score.
func (m *Method) score(st *stepBufs) error {
	if m.scoreEst == scoreSSGE {
		return st.ssge.Score(st.score, st.ft, ssgeOptions)
	}
	if !gaussScore(st.score, st.net.out, st.ft, m.inj, &st.gauss) {
		return errScore
	}
	return nil
}
