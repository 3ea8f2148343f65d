package numeric

import (
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/posterior-playground/playground/numeric/fastblas"
)

// Every package that does linear algebra imports numeric, so this makes the
// AVX2/FMA kernels (where the CPU has them) the BLAS of gonum's mat and
// lapack, of the tape and of model.Net, in the binary and in every test.
func init() { blas64.Use(fastblas.Implementation()) }
