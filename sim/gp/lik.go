package gp

import (
	"math"

	"gonum.org/v1/gonum/integrate/quad"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/model"
)

// Likelihood names (the `likelihood` control's options). Auto picks
// Bernoulli for classification data and Gaussian for regression data.
const (
	Auto      = "auto"
	Gaussian  = "gaussian"
	Cauchy    = "cauchy"
	Bernoulli = "bernoulli"
)

// Expectation methods (the `expectation` control's options).
const (
	GaussHermite = "gauss-hermite"
	Adaptive     = "adaptive"
	MonteCarlo   = "monte-carlo"
)

// GHPoints is the number of Gauss–Hermite points (GPflow's default).
const GHPoints = 20

const halfLog2Pi = model.HalfLog2Pi

// lik is a factorising likelihood p(y | z) with scale s = e^logScale
// (Gaussian std or Cauchy scale; Bernoulli has none).
type lik int

const (
	likGaussian lik = iota
	likCauchy
	likBernoulli
)

// logp returns log p(y | z), d/dz log p and d/d log s log p.
func (l lik) logp(y, z, logScale float64) (v, dz, ds float64) {
	switch l {
	case likGaussian:
		s := math.Exp(logScale)
		r := (y - z) / s
		return -halfLog2Pi - logScale - 0.5*r*r, r / s, r*r - 1
	case likCauchy:
		s := math.Exp(logScale)
		r := (y - z) / s
		q := 1 + r*r
		return -math.Log(math.Pi) - logScale - math.Log1p(r*r), 2 * r / (s * q), 2*r*r/q - 1
	default:
		sg := 2*y - 1 // ±1
		return numeric.BernoulliLogitLogPMF(y, z), sg * numeric.Sigmoid(-sg*z), 0
	}
}

// ghRule holds Gauss–Hermite nodes t_k and weights w_k/√π, so that
// E_{N(m,v)}[g(z)] ≈ Σ_k w_k g(m + √(2v)·t_k).
type ghRule struct{ t, w []float64 }

func newGHRule(n int) ghRule {
	r := ghRule{t: make([]float64, n), w: make([]float64, n)}
	quad.Hermite{}.FixedLocations(r.t, r.w, math.Inf(-1), math.Inf(1))
	for k := range r.w {
		r.w[k] /= math.SqrtPi
	}
	return r
}

// expectGH returns E_{N(m,v)}[log p(y|z)] by Gauss–Hermite quadrature and
// its derivatives with respect to m, v and log s. With z_k = m + √(2v)·t_k:
//
//	∂/∂m = Σ w_k g'(z_k),  ∂/∂v = Σ w_k g'(z_k)·t_k/√(2v).
func (l lik) expectGH(r ghRule, y, m, v, logScale float64) (e, dm, dv, ds float64) {
	sd := math.Sqrt(2 * v)
	for k, t := range r.t {
		g, gz, gs := l.logp(y, m+sd*t, logScale)
		w := r.w[k]
		e += w * g
		dm += w * gz
		dv += w * gz * t
		ds += w * gs
	}
	if sd > 0 {
		dv /= sd
	} else {
		dv = 0
	}
	return e, dm, dv, ds
}

// expectClosed returns the Gaussian likelihood's expectation in closed form,
// −½log 2πσ² − ((y−m)² + v)/(2σ²), and its derivatives.
func expectClosed(y, m, v, logScale float64) (e, dm, dv, ds float64) {
	inv := math.Exp(-2 * logScale)
	r := y - m
	q := (r*r + v) * inv
	return -halfLog2Pi - logScale - 0.5*q, r * inv, -0.5 * inv, q - 1
}

// expectMC returns a reparameterised Monte Carlo estimate with the standard
// normal draws eps: z_s = m + √v·ε_s, ∂/∂v = mean g'(z_s)·ε_s/(2√v).
func (l lik) expectMC(eps []float64, y, m, v, logScale float64) (e, dm, dv, ds float64) {
	sd := math.Sqrt(v)
	for _, u := range eps {
		g, gz, gs := l.logp(y, m+sd*u, logScale)
		e += g
		dm += gz
		dv += gz * u
		ds += gs
	}
	n := float64(len(eps))
	if sd > 0 {
		dv /= 2 * sd
	} else {
		dv = 0
	}
	return e / n, dm / n, dv / n, ds / n
}

// Adaptive quadrature. Gauss–Hermite converges slowly when log p(y|z) has
// structure much narrower than q's sd: a Cauchy with γ = 0.1 under an sd of
// 1 leaves GH-20 off by ~0.1 nats per point (lik_test.go). The adaptive rule
// integrates over u = (z−m)/√v ∈ [−uMax, uMax] with Gauss–Legendre panels
// of width 2 (which resolve the Gaussian weight) plus breakpoints graded
// geometrically (×4) away from the likelihood's nearest complex
// singularities: y ± iγ for the Cauchy, ±iπ for the logit. Each panel then
// sees its singularity at least about its own width away, so 16 points per
// panel give ~1e-10 (lik_test.go).
const (
	uMax        = 10 // N(0,1) mass beyond ±10 is 1.5e-23
	panelPoints = 16
	panelRatio  = 4
	maxBreaks   = 48
)

type panelRule struct{ t, w []float64 } // Legendre nodes and weights on [−1, 1]

func newPanelRule() panelRule {
	r := panelRule{t: make([]float64, panelPoints), w: make([]float64, panelPoints)}
	quad.Legendre{}.FixedLocations(r.t, r.w, -1, 1)
	return r
}

// singularity returns the centre and half-width (in z) of the narrow
// feature the panels should resolve.
func (l lik) singularity(y, logScale float64) (c, w float64) {
	if l == likCauchy {
		return y, math.Exp(logScale)
	}
	return 0, math.Pi
}

// expectAdaptive is expectGH with the adaptive rule. The derivatives are
// the same expectations, ∂/∂m = E[g'], ∂/∂v = E[g'(z)·u]/(2√v) (Stein's
// lemma), on the same nodes.
func (l lik) expectAdaptive(r panelRule, y, m, v, logScale float64) (e, dm, dv, ds float64) {
	sd := math.Sqrt(v)
	if sd == 0 {
		g, gz, gs := l.logp(y, m, logScale)
		return g, gz, 0, gs
	}
	c, w := l.singularity(y, logScale)
	u0, h := (c-m)/sd, w/sd
	var br [maxBreaks]float64
	nb := 0
	add := func(u float64) {
		if u >= -uMax && u < uMax && nb < maxBreaks-1 {
			br[nb] = u
			nb++
		}
	}
	for u := -float64(uMax); u < uMax; u += 2 { // panels of width 2 resolve the Gaussian
		add(u)
	}
	if u0 > -uMax && u0 < uMax {
		add(u0)
	}
	for d := h; d < 2*uMax && nb < maxBreaks-3; d *= panelRatio {
		add(u0 - d)
	}
	for d := h; d < 2*uMax && nb < maxBreaks-2; d *= panelRatio {
		add(u0 + d)
	}
	br[nb] = uMax
	nb++
	// Insertion sort: at most maxBreaks points, nearly sorted.
	for i := 1; i < nb; i++ {
		for j := i; j > 0 && br[j] < br[j-1]; j-- {
			br[j], br[j-1] = br[j-1], br[j]
		}
	}
	const invSqrt2Pi = 0.39894228040143267793994605993438186847585863116493
	for p := 0; p+1 < nb; p++ {
		a, b := br[p], br[p+1]
		half, mid := 0.5*(b-a), 0.5*(a+b)
		if half <= 0 {
			continue
		}
		for k, t := range r.t {
			u := mid + half*t
			wk := r.w[k] * half * invSqrt2Pi * math.Exp(-0.5*u*u)
			g, gz, gs := l.logp(y, m+sd*u, logScale)
			e += wk * g
			dm += wk * gz
			dv += wk * gz * u
			ds += wk * gs
		}
	}
	return e, dm, dv / (2 * sd), ds
}
