package fastblas

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Impl is gonum's float64 BLAS with the level-3 routines listed in the
// package documentation replaced by kernel-backed ones. Its zero value is
// ready to use, but only on a CPU with AVX2 and FMA: obtain it through
// [Implementation], which checks.
type Impl struct {
	gonum.Implementation
}

// Implementation returns the fastest float64 BLAS for this CPU and build: an
// [Impl] when the AVX2/FMA kernels can run, gonum's implementation otherwise.
// Install it with blas64.Use(fastblas.Implementation()).
func Implementation() blas.Float64 {
	if hasKernels {
		return Impl{}
	}
	return gonum.Implementation{}
}

// Accelerated reports whether [Implementation] returns the kernel-backed
// [Impl] on this CPU and build.
func Accelerated() bool { return hasKernels }

// isTrans reports whether t asks for the transpose (ConjTrans is Trans for
// real matrices). It is false for invalid values; callers validate first.
func isTrans(t blas.Transpose) bool { return t == blas.Trans || t == blas.ConjTrans }

func validTrans(t blas.Transpose) bool {
	return t == blas.NoTrans || t == blas.Trans || t == blas.ConjTrans
}
