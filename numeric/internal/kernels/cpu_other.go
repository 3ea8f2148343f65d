//go:build !amd64 || purego

package kernels

// hasKernels is false: without the amd64 kernels every call runs the scalar loop.
const hasKernels = false

func adam4(n int, p, grad, m, v *float64, b1, c1, b2, c2, alpha, eps float64) {
	panic("kernels: adam4 called without kernels")
}

func reluAffine4(n, c int, x *float64, xs int, w0, w1, h *float64, hs int) {
	panic("kernels: reluAffine4 called without kernels")
}

func reluOutBack4(n, c int, g, h *float64, hs int, w, dw, gp *float64, gs int) {
	panic("kernels: reluOutBack4 called without kernels")
}

func reluInBack4(n, c int, x *float64, xs int, h *float64, hs int, g *float64, gs int, d0, d1 *float64) {
	panic("kernels: reluInBack4 called without kernels")
}

func reluDot4(n, c int, a *float64, as int, v, dst *float64) {
	panic("kernels: reluDot4 called without kernels")
}

func adamScaled4(n int, p, grad, m, v, u, w *float64, b1, c1, b2, c2, alpha, eps float64) {
	panic("kernels: adamScaled4 called without kernels")
}

func sumDots4(n int, u, w, a, b, dst *float64) (su, sw float64) {
	panic("kernels: sumDots4 called without kernels")
}

func sumDotsSet4(n int, u, w, a, b, dst *float64) (su, sw float64) {
	panic("kernels: sumDotsSet4 called without kernels")
}

func sumDotsAdd4(n int, u, w, a, b, dst *float64) (su, sw float64) {
	panic("kernels: sumDotsAdd4 called without kernels")
}

func exp4(n int, x, y *float64) int {
	panic("kernels: exp4 called without kernels")
}

func adamRank2_4(n int, p, x, y, m, v, u, w *float64, a0, a1, b1, c1, b2, c2, alpha, eps float64) {
	panic("kernels: adamRank2_4 called without kernels")
}

func axpyElem4(n int, dst, mu, s, e *float64) {
	panic("kernels: axpyElem4 called without kernels")
}

func gradReparam4(n int, gmu, gls, d, e, s *float64) {
	panic("kernels: gradReparam4 called without kernels")
}

func reluRows4(n, c int, x *float64, xs int, y *float64, ys int) {
	panic("kernels: reluRows4 called without kernels")
}

func reluMaskAdd4(n, c int, grad *float64, gs int, x *float64, xs int, dst *float64, ds int) {
	panic("kernels: reluMaskAdd4 called without kernels")
}

func rowScaleDot4(m, c int, grad *float64, gs int, a *float64, as int, z *float64, zs int, ga *float64, gas int, lanes *float64) {
	panic("kernels: rowScaleDot4 called without kernels")
}

func reluMaskSet4(n, c int, grad *float64, gs int, x *float64, xs int, dst *float64, ds int) {
	panic("kernels: reluMaskSet4 called without kernels")
}
