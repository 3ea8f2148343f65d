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

func adam4(n int, p, grad, m, v *float64, b1, c1, b2, c2, alpha, eps float64) {
	panic("fastblas: adam4 called without kernels")
}

func reluAffine4(n, c int, x *float64, xs int, w0, w1, h *float64, hs int) {
	panic("fastblas: reluAffine4 called without kernels")
}

func reluOutBack4(n, c int, g, h *float64, hs int, w, dw, gp *float64, gs int) {
	panic("fastblas: reluOutBack4 called without kernels")
}

func reluInBack4(n, c int, x *float64, xs int, h *float64, hs int, g *float64, gs int, d0, d1 *float64) {
	panic("fastblas: reluInBack4 called without kernels")
}

func reluDot4(n, c int, a *float64, as int, v, dst *float64) {
	panic("fastblas: reluDot4 called without kernels")
}

func adamScaled4(n int, p, grad, m, v, u, w *float64, b1, c1, b2, c2, alpha, eps float64) {
	panic("fastblas: adamScaled4 called without kernels")
}

func kernel12x4(k int, a *float64, ars, aps int, b *float64, bps int, c *float64, ldc int, alpha, beta float64) {
	panic("fastblas: kernel12x4 called without kernels")
}

func sumDots4(n int, u, w, a, b, dst *float64) (su, sw float64) {
	panic("fastblas: sumDots4 called without kernels")
}

func sumDotsSet4(n int, u, w, a, b, dst *float64) (su, sw float64) {
	panic("fastblas: sumDotsSet4 called without kernels")
}

func sumDotsAdd4(n int, u, w, a, b, dst *float64) (su, sw float64) {
	panic("fastblas: sumDotsAdd4 called without kernels")
}

func exp4(n int, x, y *float64) int {
	panic("fastblas: exp4 called without kernels")
}

func adamRank2_4(n int, p, x, y, m, v, u, w *float64, a0, a1, b1, c1, b2, c2, alpha, eps float64) {
	panic("fastblas: adamRank2_4 called without kernels")
}

func axpyElem4(n int, dst, mu, s, e *float64) {
	panic("fastblas: axpyElem4 called without kernels")
}

func gradReparam4(n int, gmu, gls, d, e, s *float64) {
	panic("fastblas: gradReparam4 called without kernels")
}

func reluRows4(n, c int, x *float64, xs int, y *float64, ys int) {
	panic("fastblas: reluRows4 called without kernels")
}

func reluMaskAdd4(n, c int, grad *float64, gs int, x *float64, xs int, dst *float64, ds int) {
	panic("fastblas: reluMaskAdd4 called without kernels")
}

func rowScaleDot4(m, c int, grad *float64, gs int, a *float64, as int, z *float64, zs int, ga *float64, gas int, lanes *float64) {
	panic("fastblas: rowScaleDot4 called without kernels")
}

func rowScale4(m, c int, x *float64, xs int, z *float64, zs int, y *float64, ys int) {
	panic("fastblas: rowScale4 called without kernels")
}

func reluMaskSet4(n, c int, grad *float64, gs int, x *float64, xs int, dst *float64, ds int) {
	panic("fastblas: reluMaskSet4 called without kernels")
}
