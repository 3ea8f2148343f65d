package numeric

import "math"

// Scalar log densities and the stable link functions they need.

const distHalfLog2Pi = 0.91893853320467274178032973640561763986139747363778 // ½ log 2π

// NormalLogPDF returns log N(x; mu, sigma²).
func NormalLogPDF(x, mu, sigma float64) float64 {
	z := (x - mu) / sigma
	return -distHalfLog2Pi - math.Log(sigma) - 0.5*z*z
}

// CauchyLogPDF returns the log density of Cauchy(loc, scale) at x,
// −log(π·scale) − log(1+z²) with z = (x−loc)/scale. The density is
// 1/(π·scale·(1+z²)); the Opper–Archambeau notebook multiplies by π·scale
// instead.
func CauchyLogPDF(x, loc, scale float64) float64 {
	z := (x - loc) / scale
	return -math.Log(math.Pi*scale) - math.Log1p(z*z)
}

// BernoulliLogitLogPMF returns log p(y | logit) for y ∈ {0, 1} with
// p(1) = sigmoid(logit). It equals y·logit − softplus(logit), but is
// computed as −[y·softplus(−logit) + (1−y)·softplus(logit)], which never
// overflows and, unlike the first form, keeps full relative precision when
// the probability is near 1 (log p ≈ −e^−|logit|). For y in (0, 1) it is the
// negated binary cross-entropy.
func BernoulliLogitLogPMF(y, logit float64) float64 {
	switch y {
	case 1:
		return -Softplus(-logit)
	case 0:
		return -Softplus(logit)
	}
	return -(y*Softplus(-logit) + (1-y)*Softplus(logit))
}

// Softplus returns log(1+eˣ) without overflow for large x and without losing
// the small value for very negative x.
func Softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// Sigmoid returns 1/(1+e⁻ˣ), evaluated so that e^|x| is never formed.
func Sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// LogSumExp returns log Σ exp(xs[i]) as max + log Σ exp(xs[i] − max). It
// returns −Inf for an empty slice or when every element is −Inf, +Inf if any
// element is +Inf, and NaN if any element is NaN.
func LogSumExp(xs []float64) float64 {
	// The builtin max inside logSumExp propagates NaN.
	return logSumExp(xs, 0, 1, len(xs))
}
