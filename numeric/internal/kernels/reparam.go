package kernels

// The elementwise passes of a reparameterised Gaussian w = μ + s⊙ε over many
// samples (fBNN draws k·P = 135,050 weights a step and sums as many
// gradients). The kernels take four values at a time, each lane doing the
// scalar loop's operations in its order without FMA, so results are the
// loops' below bit for bit.

// AxpyElem sets dst[j] = mu[j] + s[j]·e[j] for j < len(mu).
func AxpyElem(dst, mu, s, e []float64) {
	n := len(mu)
	dst, s, e = dst[:n], s[:n], e[:n]
	k := 0
	if hasKernels && n >= 4 {
		k = n &^ 3
		axpyElem4(k, &dst[0], &mu[0], &s[0], &e[0])
	}
	for j := k; j < n; j++ {
		dst[j] = mu[j] + s[j]*e[j]
	}
}

// GradReparam adds one sample's gradient d with respect to w = μ + s⊙ε to
// the gradients of μ and of ρ = log s: gmu[j] += d[j] and
// gls[j] += d[j]·e[j]·s[j], for j < len(d).
func GradReparam(gmu, gls, d, e, s []float64) {
	n := len(d)
	gmu, gls, e, s = gmu[:n], gls[:n], e[:n], s[:n]
	k := 0
	if hasKernels && n >= 4 {
		k = n &^ 3
		gradReparam4(k, &gmu[0], &gls[0], &d[0], &e[0], &s[0])
	}
	for j := k; j < n; j++ {
		v := d[j]
		gmu[j] += v
		gls[j] += v * e[j] * s[j]
	}
}
