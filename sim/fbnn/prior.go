package fbnn

import "math"

// Kernel names (the `kernel` control's options).
const (
	KernelRBF      = "rbf"
	KernelPeriodic = "periodic"
)

// gpPrior is the zero-mean GP prior p(f) of the functional KL, with the
// kernel forms of ALGORITHMS.md §4.3 (GPflow-Slim):
//
//	rbf:      k(x,x') = c² exp(−(x−x')²/(2ℓ²))
//	periodic: k(x,x') = c² exp(−½ (sin(π(x−x')/p)/ℓ)²)
//
// (package gp has the same forms but keeps its kernel type unexported, so
// these few lines are repeated here).
type gpPrior struct {
	periodic    bool
	variance    float64 // c²
	lengthscale float64 // ℓ
	period      float64 // p (periodic only)
}

// quad returns the exponent's argument q (k = c² e^{−q/2}) at lag d.
func (k gpPrior) quad(d float64) float64 {
	u := d
	if k.periodic {
		u = math.Sin(math.Pi * d / k.period)
	}
	u /= k.lengthscale
	return u * u
}

// eval returns k(x, x').
func (k gpPrior) eval(x, xp float64) float64 {
	return k.variance * math.Exp(-0.5*k.quad(x-xp))
}

// fill writes K(xs, xs) + jitter·I into dst (row-major n×n).
func (k gpPrior) fill(dst, xs []float64, jitter float64) {
	n := len(xs)
	for i, xi := range xs {
		dst[i*n+i] = k.variance + jitter
		for j := range i {
			v := k.eval(xi, xs[j])
			dst[i*n+j], dst[j*n+i] = v, v
		}
	}
}

// logGrad returns ∂k/∂(log c², log ℓ, log p) at lag d (the last is 0 for
// rbf): with k = c² e^{−q/2} and q = u²/ℓ²,
//
//	∂k/∂log c² = k,  ∂k/∂log ℓ = k·q,
//	∂k/∂log p  = k·sin t·cos t·t/ℓ²   (periodic, t = πd/p, u = sin t).
func (k gpPrior) logGrad(d float64) (gv, gl, gp float64) {
	q := k.quad(d)
	v := k.variance * math.Exp(-0.5*q)
	gv, gl = v, v*q
	if k.periodic {
		t := math.Pi * d / k.period
		s, c := math.Sincos(t)
		gp = v * s * c * t / (k.lengthscale * k.lengthscale)
	}
	return gv, gl, gp
}
