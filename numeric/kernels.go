package numeric

import "github.com/posterior-playground/playground/numeric/internal/kernels"

// The loops of the methods' hot paths that are not BLAS, on raw slices: a
// ReLU network's thin first and last layers (model.Net), the
// reparameterised Gaussian's draws and gradients (fBNN), the mean-field
// step's exponentials and NUTS's U-turn sums. Each runs four lanes at a
// time on AVX2/FMA kernels where the CPU has them and rounds exactly as
// the scalar loop it states (no FMA, sums in the order written), so
// results do not depend on the CPU; SumDots and ExpTo say how they differ.
// Slices too short for the rows a call names panic.

// ReLUAffine sets h[i·hs + j] = max(x[i·xs]·w0[j] + w1[j], 0) for i < n and
// j < len(w0), NaN and −0 kept as `if v < 0 { v = 0 }` keeps them: the
// forward pass of a layer with one input and a bias, on n rows.
func ReLUAffine(n int, x []float64, xs int, w0, w1, h []float64, hs int) {
	kernels.ReLUAffine(n, x, xs, w0, w1, h, hs)
}

// ReLUOutputBackward is the backward pass of a one-output layer with
// weights w on ReLU activations h (n rows, len(w) units): for each row i in
// order, dw[j] += g[i]·h[i·hs + j] and gp[i·gs + j] = g[i]·w[j] where
// h[i·hs + j] > 0, else 0.
func ReLUOutputBackward(n int, g, h []float64, hs int, w, dw, gp []float64, gs int) {
	kernels.ReLUOutputBackward(n, g, h, hs, w, dw, gp, gs)
}

// ReLUInputBackward sums the weight gradient of a layer with inputs x and 1
// through its ReLU (activations h, n rows, len(d0) units): for each row i in
// order, where h[i·hs + j] > 0, d0[j] += x[i·xs]·g[i·gs + j] and
// d1[j] += g[i·gs + j].
func ReLUInputBackward(n int, x []float64, xs int, h []float64, hs int, g []float64, gs int, d0, d1 []float64) {
	kernels.ReLUInputBackward(n, x, xs, h, hs, g, gs, d0, d1)
}

// ReLUMatVec is a one-output layer's forward pass on the activations a of
// the layer below (len(dst) rows, stride as; len(v) columns, the last the
// bias's ones): it applies the ReLU in place to every column but the last
// and sets dst[i] = Σ_{j<c} a[i·as + j]·v[j] + a[i·as + c]·v[c], c =
// len(v) − 1, each row's sum from +0 in column order.
func ReLUMatVec(dst, a []float64, as int, v []float64) {
	kernels.ReLUMatVec(dst, a, as, v)
}

// ColumnSums adds Σ_i x[i·xs]·g[i·gs + j] into s0[j] and Σ_i g[i·gs + j]
// into s1[j] for rows i < n in order and columns j < len(s0): ReLUInputBackward
// with every unit active.
func ColumnSums(n int, x []float64, xs int, g []float64, gs int, s0, s1 []float64) {
	kernels.ColumnSums(n, x, xs, g, gs, s0, s1)
}

// AxpyElem sets dst[j] = mu[j] + s[j]·e[j] for j < len(mu): a draw of
// w = μ + s⊙ε.
func AxpyElem(dst, mu, s, e []float64) {
	kernels.AxpyElem(dst, mu, s, e)
}

// GradReparam adds one sample's gradient d with respect to w = μ + s⊙ε to
// the gradients of μ and of ρ = log s: gmu[j] += d[j] and
// gls[j] += d[j]·e[j]·s[j], for j < len(d).
func GradReparam(gmu, gls, d, e, s []float64) {
	kernels.GradReparam(gmu, gls, d, e, s)
}

// ExpTo sets dst[i] = e^x[i] for every i < len(x), within about 1 ulp
// (math.Exp is within 1 ulp too, so the two may differ by 2 in the last
// place).
func ExpTo(dst, x []float64) {
	kernels.ExpTo(dst, x)
}

// SumDots returns su = Σ u[i]·r[i] and sw = Σ w[i]·r[i] for r = a + b
// (all of a's length), and writes r into set, or adds it into add, when
// that is not nil (at most one may be): NUTS's U-turn criterion. The sums
// run in eight partial sums with FMA, so su and sw differ from the plain
// loop's in the last bits; r, set and add are exact.
func SumDots(u, w, a, b, set, add []float64) (su, sw float64) {
	return kernels.SumDots(u, w, a, b, set, add)
}
