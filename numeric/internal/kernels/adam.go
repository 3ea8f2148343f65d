package kernels

import "math"

// AdamUpdate applies Adam's elementwise update, in the form Keras and
// numeric.Adam compute it, to parameters p with gradients g and moments m
// and v, all of p's length:
//
//	m ← b1·m + (1−b1)·g,  v ← b2·v + (1−b2)·g·g,  p ← p − alpha·m/(√v + eps).
//
// It is the one routine here that is not BLAS: an optimiser step is a pass
// of square roots and divisions over every parameter, which the AVX2
// kernel runs four lanes at a time. Each lane does the scalar loop's
// operations in its order without FMA, so the result is the same bit for
// bit with or without the kernel.
func AdamUpdate(p, g, m, v []float64, b1, b2, alpha, eps float64) {
	n := len(p)
	g, m, v = g[:n], m[:n], v[:n]
	c1, c2 := 1-b1, 1-b2
	k := 0
	if hasKernels && n >= 4 {
		k = n &^ 3
		adam4(k, &p[0], &g[0], &m[0], &v[0], b1, c1, b2, c2, alpha, eps)
	}
	for j := k; j < n; j++ {
		gj := g[j]
		m[j] = b1*m[j] + c1*gj
		v[j] = b2*v[j] + c2*gj*gj
		p[j] -= alpha * m[j] / (math.Sqrt(v[j]) + eps)
	}
}

// AdamUpdateScaled is AdamUpdate for parameters p of a product w = p ⊙ u
// whose gradient g is taken with respect to w: it updates with gradient
// g ⊙ u and then sets w = p ⊙ u, in one pass, each product rounded as its
// own loop would round it.
func AdamUpdateScaled(p, g, m, v, u, w []float64, b1, b2, alpha, eps float64) {
	n := len(p)
	g, m, v, u, w = g[:n], m[:n], v[:n], u[:n], w[:n]
	c1, c2 := 1-b1, 1-b2
	k := 0
	if hasKernels && n >= 4 {
		k = n &^ 3
		adamScaled4(k, &p[0], &g[0], &m[0], &v[0], &u[0], &w[0], b1, c1, b2, c2, alpha, eps)
	}
	for j := k; j < n; j++ {
		gj := g[j] * u[j]
		m[j] = b1*m[j] + c1*gj
		v[j] = b2*v[j] + c2*gj*gj
		p[j] -= alpha * m[j] / (math.Sqrt(v[j]) + eps)
		w[j] = p[j] * u[j]
	}
}

// AdamUpdateRank2 is AdamUpdateScaled with the gradient (with respect to
// w) a0·x + a1·y formed in the pass: a row of a parameter whose gradient has
// rank two (numeric.Adam.StepProductLowRank), so no stored gradient is read.
// Each product and the sum round as written (no FMA).
func AdamUpdateRank2(p, x, y []float64, a0, a1 float64, m, v, u, w []float64, b1, b2, alpha, eps float64) {
	n := len(p)
	x, y, m, v, u, w = x[:n], y[:n], m[:n], v[:n], u[:n], w[:n]
	c1, c2 := 1-b1, 1-b2
	k := 0
	if hasKernels && n >= 4 {
		k = n &^ 3
		adamRank2_4(k, &p[0], &x[0], &y[0], &m[0], &v[0], &u[0], &w[0], a0, a1, b1, c1, b2, c2, alpha, eps)
	}
	for j := k; j < n; j++ {
		gj := (float64(a0*x[j]) + float64(a1*y[j])) * u[j]
		m[j] = b1*m[j] + c1*gj
		v[j] = b2*v[j] + c2*gj*gj
		p[j] -= alpha * m[j] / (math.Sqrt(v[j]) + eps)
		w[j] = p[j] * u[j]
	}
}
