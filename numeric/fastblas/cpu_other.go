//go:build !amd64 || purego

package fastblas

// hasKernels is false: without the amd64 kernels every call is gonum's.
const hasKernels = false

func kernel6x8(k int, a, b, c *float64, ldc int, alpha, beta float64) {
	panic("fastblas: kernel6x8 called without kernels")
}

func axpy(n int, alpha float64, x, y *float64) {
	panic("fastblas: axpy called without kernels")
}
