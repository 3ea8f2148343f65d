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
// (ALGORITHMS.md §0). The variational computations never factor K itself
// (they factor A = I + ΛK with eigenvalues ≥ 1), so the jitter is there for
// the Cholesky factors of prior and predictive covariances that sampling,
// the IWBO and the exact GP need: it bounds their smallest eigenvalue below
// by 1e-6 (a Schur complement of a matrix ≥ εI is ≥ εI), far above the
// ~1e-16·‖K‖ rounding of the matrices on these small problems, and it
// changes no prediction by more than about 1e-6.
const Jitter = 1e-6

// kernel is an exponentiated-quadratic or periodic covariance function with
// parameters held as logarithms, so that Adam works on an unconstrained
// scale:
//
//	rbf:      k(x,x') = c² exp(−(x−x')²/(2ℓ²))
//	periodic: k(x,x') = c² exp(−½ (sin(π(x−x')/p)/ℓ)²)   (ALGORITHMS.md §4.3)
//
// with c² the variance, ℓ the lengthscale and p the period.
type kernel struct {
	periodic bool
	logVar   float64 // log c²
	logLen   float64 // log ℓ
	logPer   float64 // log p (periodic only)
}

func (k *kernel) variance() float64    { return math.Exp(k.logVar) }
func (k *kernel) lengthscale() float64 { return math.Exp(k.logLen) }
func (k *kernel) period() float64      { return math.Exp(k.logPer) }

// eval returns k(x, x') without jitter.
func (k *kernel) eval(x, xp float64) float64 {
	l := k.lengthscale()
	return k.variance() * math.Exp(-0.5*k.quad(x-xp, 1/(l*l)))
}

// quad returns the exponent's argument: d²/ℓ² (rbf) or sin²(πd/p)/ℓ².
func (k *kernel) quad(d, invL2 float64) float64 {
	if k.periodic {
		s := math.Sin(math.Pi * d / k.period())
		return s * s * invL2
	}
	return d * d * invL2
}

// fill writes K(a, b) into dst (row-major len(a)×len(b)), adding Jitter on
// the diagonal when sym is set (a and b are then the same inputs).
func (k *kernel) fill(dst, a, b []float64, sym bool) {
	nb := len(b)
	c2, l := k.variance(), k.lengthscale()
	invL2 := 1 / (l * l)
	for i, xi := range a {
		row := dst[i*nb : (i+1)*nb]
		for j, xj := range b {
			row[j] = c2 * math.Exp(-0.5*k.quad(xi-xj, invL2))
		}
		if sym {
			row[i] += Jitter
		}
	}
}

// hyperGrad returns Σ_ij Kbar_ij ∂K_ij/∂(log c², log ℓ, log p) for the
// kernel matrix kmat = K(x, x) + Jitter·I that fill wrote (row-major; the
// jitter is a constant). With K_ij = c² e^{−q/2}, q = u²/ℓ²:
//
//	∂K/∂log c² = K,  ∂K/∂log ℓ = K·q,
//	∂K/∂log p  = K·sin(πd/p)·cos(πd/p)·(πd/p)/ℓ²   (periodic, u = sin(πd/p)).
//
// It reads K from kmat rather than exponentiating again.
func (k *kernel) hyperGrad(kbar, kmat, x []float64) (gVar, gLen, gPer float64) {
	n := len(x)
	l, p := k.lengthscale(), k.period()
	invL2 := 1 / (l * l)
	for i, xi := range x {
		row, krow := kbar[i*n:(i+1)*n], kmat[i*n:(i+1)*n]
		for j, xj := range x {
			kij := krow[j]
			if i == j {
				kij -= Jitter
			}
			g := row[j] * kij
			gVar += g
			d := xi - xj
			if k.periodic {
				t := math.Pi * d / p
				s, c := math.Sincos(t)
				gLen += g * s * s * invL2
				gPer += g * s * c * t * invL2
			} else {
				gLen += g * d * d * invL2
			}
		}
	}
	return gVar, gLen, gPer
}
