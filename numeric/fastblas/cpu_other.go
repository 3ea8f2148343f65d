//go:build !amd64 || purego

package fastblas

// hasKernels is false: without the amd64 kernels every call is gonum's.
const hasKernels = false

func kernel6x8(k int, a *float64, ars, aps int, b *float64, bps int, c *float64, ldc, rows int, alpha, beta float64) {
	panic("fastblas: kernel6x8 called without kernels")
}

func trsm6x8(k int, a *float64, ars, aps int, b, x *float64, ldx int, alpha float64, d, xp *float64) {
	panic("fastblas: trsm6x8 called without kernels")
}

func transpose4(n int, src *float64, lds int, dst *float64, ldd int) {
	panic("fastblas: transpose4 called without kernels")
}

func kernel12x4(k int, a *float64, ars, aps int, b *float64, bps int, c *float64, ldc, cols int, alpha, beta float64) {
	panic("fastblas: kernel12x4 called without kernels")
}

func rowScale4(m, c int, x *float64, xs int, z *float64, zs int, y *float64, ys int) {
	panic("fastblas: rowScale4 called without kernels")
}

func copySteps8(n int, src *float64, lds int, dst *float64) {
	panic("fastblas: copySteps8 called without kernels")
}

func copySteps6(n int, src *float64, lds int, dst *float64) {
	panic("fastblas: copySteps6 called without kernels")
}

func kernel6x8n(nt, k int, a *float64, ars, aps, pas int, b *float64, bps int, c *float64, ldc int, alpha, beta float64) {
	panic("fastblas: kernel6x8n called without kernels")
}

func kernel4x12t(k int, a *float64, aps int, b *float64, bps int, t *float64, alpha float64) {
	panic("fastblas: kernel4x12t called without kernels")
}

func kernel4x8(k int, a *float64, ars, aps int, b *float64, bps int, c *float64, ldc, rows int, alpha, beta float64) {
	panic("fastblas: kernel4x8 called without kernels")
}
