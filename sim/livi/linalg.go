package livi

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// symWork holds the buffers of one d×d symmetric problem.
type symWork struct {
	d    int
	a    []float64 // d×d matrix, overwritten by factorisations
	eval []float64 // d eigenvalues, ascending
	work []float64 // LAPACK workspace for Dsyev
}

func newSymWork(d int) *symWork {
	w := &symWork{d: d, a: make([]float64, d*d), eval: make([]float64, d)}
	// Workspace query: Dsyev reports its optimal size in work[0].
	q := make([]float64, 1)
	lapack64.Syev(lapack.EVCompute, w.sym(), w.eval, q, -1)
	w.work = make([]float64, max(int(q[0]), 3*d))
	return w
}

func (w *symWork) sym() blas64.Symmetric {
	return blas64.Symmetric{N: w.d, Stride: max(w.d, 1), Uplo: blas.Upper, Data: w.a}
}

// cholInverse replaces the positive definite w.a by its inverse (both
// triangles) and returns log det of the original. ok is false when the
// Cholesky factorisation fails.
func (w *symWork) cholInverse() (logDet float64, ok bool) {
	t, ok := lapack64.Potrf(w.sym())
	if !ok {
		return math.NaN(), false
	}
	d := w.d
	for i := range d {
		logDet += 2 * math.Log(w.a[i*d+i])
	}
	if _, ok := lapack64.Potri(t); !ok {
		return math.NaN(), false
	}
	for i := range d { // copy the upper triangle down
		for j := i + 1; j < d; j++ {
			w.a[j*d+i] = w.a[i*d+j]
		}
	}
	return logDet, true
}

// eigen replaces w.a by its eigenvectors (column k of the row-major matrix is
// the eigenvector of w.eval[k]) with eigenvalues ascending.
func (w *symWork) eigen() bool {
	return lapack64.Syev(lapack.EVCompute, w.sym(), w.eval, w.work, len(w.work))
}
