package gp

import "math"

// Kernel names (the `kernel` control's options).
const (
	RBF      = "rbf"
	Periodic = "periodic"
)

// Jitter is added to the diagonal of every kernel matrix on the model's own
// inputs (training points and prediction points alike), so the prior
// covariance is K + Jitter·I: a tiny white-noise kernel, GPflow's default
// (the reference notebooks use 1e-5 to 1e-9). The variational computations
// never factor K itself (they factor A = I + ΛK with eigenvalues ≥ 1), so
// the jitter is there for the Cholesky factors of prior and predictive
// covariances that sampling, the IWBO and the exact GP need: it bounds their
// smallest eigenvalue below by 1e-6 (a Schur complement of a matrix ≥ εI is
// ≥ εI), far above the ~1e-16·‖K‖ rounding of the matrices on these small
// problems, and it changes no prediction by more than about 1e-6.
const Jitter = 1e-6

// Kernel is an exponentiated-quadratic (rbf) or periodic covariance
// function with its parameters on their natural scale, in the forms of
// GPflow-Slim, which fBNN uses (the Opper–Archambeau notebook's EQ is the
// rbf case):
//
//	rbf:      k(x,x') = c² exp(−(x−x')²/(2ℓ²))
//	periodic: k(x,x') = c² exp(−½ (sin(π(x−x')/p)/ℓ)²)
//
// with c² = Variance, ℓ = Lengthscale and p = Period (ignored by rbf); note
// the ½, not MacKay's 2. It is the one implementation of these forms: the
// methods of this package hold the parameters as logarithms for Adam and
// evaluate through it, and package fbnn uses it as its functional prior.
// Variance and Lengthscale, and Period if Periodic, must be positive.
type Kernel struct {
	Periodic    bool
	Variance    float64 // c²
	Lengthscale float64 // ℓ
	Period      float64 // p (periodic only)
}

// quad returns the exponent's argument q (k = c² e^{−q/2}) at lag d, given
// invL2 = 1/ℓ²: d²/ℓ² (rbf) or sin²(πd/p)/ℓ² (periodic). q(−d) = q(d)
// exactly in floating point (math.Sin is odd bit for bit).
func (k Kernel) quad(d, invL2 float64) float64 {
	if k.Periodic {
		s := math.Sin(math.Pi * d / k.Period)
		return s * s * invL2
	}
	return d * d * invL2
}

// at returns k at lag d, given invL2 = 1/ℓ² (hoisted out of loops).
func (k Kernel) at(d, invL2 float64) float64 {
	return k.Variance * math.Exp(-0.5*k.quad(d, invL2))
}

// Eval returns k(x, x').
func (k Kernel) Eval(x, xp float64) float64 {
	return k.at(x-xp, 1/(k.Lengthscale*k.Lengthscale))
}

// FillSym writes K(x, x) + jitter·I into dst (row-major n×n, n = len(x)). It
// evaluates each pair once and mirrors it, which gives the same bits as
// evaluating both (the kernel is exactly symmetric), and allocates nothing.
func (k Kernel) FillSym(dst, x []float64, jitter float64) {
	n := len(x)
	invL2 := 1 / (k.Lengthscale * k.Lengthscale)
	for i, xi := range x {
		dst[i*n+i] = k.Variance + jitter
		for j := range i {
			v := k.at(xi-x[j], invL2)
			dst[i*n+j], dst[j*n+i] = v, v
		}
	}
}

// LogGrad returns the derivatives of k at lag d = x − x' with respect to
// (log c², log ℓ, log p); the last is 0 for rbf. With k = c² e^{−q/2} and
// q = u²/ℓ²:
//
//	∂k/∂log c² = k,  ∂k/∂log ℓ = k·q,
//	∂k/∂log p  = k·sin t·cos t·t/ℓ²   (periodic, t = πd/p, u = sin t).
func (k Kernel) LogGrad(d float64) (gVar, gLen, gPer float64) {
	invL2 := 1 / (k.Lengthscale * k.Lengthscale)
	v := k.at(d, invL2)
	gLen, gPer = k.logGradLenPer(v, d, invL2)
	return v, gLen, gPer
}

// logGradLenPer returns g·q and (periodic) g·sin t·cos t·t/ℓ² at lag d: with
// g = w·k, w times ∂k/∂log ℓ and ∂k/∂log p (see LogGrad).
func (k Kernel) logGradLenPer(g, d, invL2 float64) (gLen, gPer float64) {
	if k.Periodic {
		t := math.Pi * d / k.Period
		s, c := math.Sincos(t)
		return g * s * s * invL2, g * s * c * t * invL2
	}
	return g * d * d * invL2, 0
}

// kernel is a Kernel with its parameters held as logarithms, so that Adam
// works on an unconstrained scale.
type kernel struct {
	periodic bool
	logVar   float64 // log c²
	logLen   float64 // log ℓ
	logPer   float64 // log p (periodic only)
}

func (k *kernel) variance() float64    { return math.Exp(k.logVar) }
func (k *kernel) lengthscale() float64 { return math.Exp(k.logLen) }
func (k *kernel) period() float64      { return math.Exp(k.logPer) }

// natural returns the kernel on the natural scale.
func (k *kernel) natural() Kernel {
	return Kernel{Periodic: k.periodic, Variance: k.variance(), Lengthscale: k.lengthscale(), Period: k.period()}
}

// fill writes K(a, b) into dst (row-major len(a)×len(b)), adding Jitter on
// the diagonal when sym is set (a and b are then the same inputs).
func (k *kernel) fill(dst, a, b []float64, sym bool) {
	c := k.natural()
	if sym {
		c.FillSym(dst, a, Jitter)
		return
	}
	nb := len(b)
	invL2 := 1 / (c.Lengthscale * c.Lengthscale)
	for i, xi := range a {
		row := dst[i*nb : (i+1)*nb]
		for j, xj := range b {
			row[j] = c.at(xi-xj, invL2)
		}
	}
}

// HyperGrad returns Σ_ij Kbar_ij ∂K_ij/∂(log c², log ℓ, log p), the chain
// rule from a gradient Kbar with respect to the kernel matrix K(x, x) to the
// log-hyperparameters, by LogGrad's formulas. kmat (row-major n×n) must hold
// K(x, x) off the diagonal, as FillSym writes it; its diagonal may carry any
// jitter or noise, since k(x, x) = c² is used there. Reading K from kmat
// saves an exponential per pair. Kbar need not be symmetric (the sum over
// all ordered pairs is then the gradient for a symmetric K).
func (k Kernel) HyperGrad(kbar, kmat, x []float64) (gVar, gLen, gPer float64) {
	n := len(x)
	invL2 := 1 / (k.Lengthscale * k.Lengthscale)
	for i, xi := range x {
		row, krow := kbar[i*n:(i+1)*n], kmat[i*n:(i+1)*n]
		for j, xj := range x {
			if i == j { // lag 0: only the variance term, ∂k/∂log c² = c²
				gVar += row[j] * k.Variance
				continue
			}
			g := row[j] * krow[j]
			gVar += g
			gl, gp := k.logGradLenPer(g, xi-xj, invL2)
			gLen += gl
			gPer += gp
		}
	}
	return gVar, gLen, gPer
}
