package mcmc

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/posterior-playground/playground/sim/model"
)

const halfLog2Pi = model.HalfLog2Pi

// density evaluates one chain's log posterior log π(θ) (up to a constant).
// Each chain owns one: it may keep scratch buffers and is used by one
// goroutine at a time.
type density interface {
	// logp returns log π(θ) on the whole data set.
	logp(theta []float64) float64
	// logpGrad returns log π(θ) and writes ∇log π(θ) into grad.
	logpGrad(theta, grad []float64) float64
	// logpGradBatch returns the stochastic estimate
	// log p(θ) + (N/n) Σ_{i∈batch} log p(y_i | θ) and writes its gradient
	// into grad. Targets without data ignore batch.
	logpGradBatch(theta, grad []float64, batch []int) float64
	// summarize writes the values of the problem's params() at θ into dst.
	summarize(dst, theta []float64)
}

// problem is a posterior the samplers can run on.
type problem interface {
	dim() int
	numData() int // N; 0 for a target without data
	newDensity() density
	params() []string // names of the summarised quantities
	// initState writes a chain's starting point.
	initState(theta []float64, r *rand.Rand)
	// predict writes f_θ(xs) into dst (model units, no observation noise).
	// It is called from the method's goroutine only.
	predict(dst, xs, theta []float64)
	// noiseStd returns the observation noise std at θ (NaN if none).
	noiseStd(theta []float64) float64
}

// linear is y = b0 + b·x + σε with flat priors on b0, b and σ > 0 (the
// blog's model), sampled as θ = (b0, b, s = log σ). The flat prior on σ
// becomes p(s) ∝ e^s on s (the Jacobian dσ/ds), so
//
//	log π(θ) = −N(½ log 2π + s) − ½ e^{−2s} Σ r_i² + s,  r_i = y_i − b0 − b x_i.
//
// Its exact posterior is a Student-t / inverse-gamma (package documentation).
// Gradients are written by hand (checked against finite differences).
type linear struct{ x, y []float64 }

func (l *linear) dim() int                      { return 3 }
func (l *linear) numData() int                  { return len(l.x) }
func (l *linear) newDensity() density           { return l }
func (l *linear) params() []string              { return []string{"b0", "b", "sigma"} }
func (l *linear) noiseStd(th []float64) float64 { return math.Exp(th[2]) }

// initState follows the blog: b0, b ~ N(0, 1), σ = 1.
func (l *linear) initState(th []float64, r *rand.Rand) {
	th[0], th[1], th[2] = r.NormFloat64(), r.NormFloat64(), 0
}

func (l *linear) predict(dst, xs, th []float64) {
	for i, x := range xs {
		dst[i] = th[0] + th[1]*x
	}
}

func (l *linear) summarize(dst, th []float64) {
	dst[0], dst[1], dst[2] = th[0], th[1], math.Exp(th[2])
}

func (l *linear) logp(th []float64) float64 {
	b0, b, s := th[0], th[1], th[2]
	var ss float64
	for i, x := range l.x {
		r := l.y[i] - b0 - b*x
		ss += r * r
	}
	n := float64(len(l.x))
	return -n*(halfLog2Pi+s) - 0.5*math.Exp(-2*s)*ss + s
}

func (l *linear) logpGrad(th, g []float64) float64 {
	b0, b, s := th[0], th[1], th[2]
	var sr, srx, ss float64
	for i, x := range l.x {
		r := l.y[i] - b0 - b*x
		sr += r
		srx += r * x
		ss += r * r
	}
	n := float64(len(l.x))
	inv := math.Exp(-2 * s)
	g[0], g[1], g[2] = inv*sr, inv*srx, -n+inv*ss+1
	return -n*(halfLog2Pi+s) - 0.5*inv*ss + s
}

func (l *linear) logpGradBatch(th, g []float64, batch []int) float64 {
	b0, b, s := th[0], th[1], th[2]
	var sr, srx, ss float64
	for _, i := range batch {
		x := l.x[i]
		r := l.y[i] - b0 - b*x
		sr += r
		srx += r * x
		ss += r * r
	}
	w := float64(len(l.x)) / float64(len(batch)) // N/n
	inv := math.Exp(-2 * s)
	n := float64(len(batch))
	g[0], g[1], g[2] = w*inv*sr, w*inv*srx, w*(-n+inv*ss)+1
	return w*(-n*(halfLog2Pi+s)-0.5*inv*ss) + s
}

// gaussian is the target N(mu, Σ) given by its precision P = Σ⁻¹ (row-major
// d×d). It has no data; the tests use it as a target whose moments are known
// exactly.
type gaussian struct {
	mu, prec []float64
	scratch  []float64
}

func newGaussian(mu, prec []float64) *gaussian {
	return &gaussian{mu: mu, prec: prec}
}

func (g *gaussian) dim() int     { return len(g.mu) }
func (g *gaussian) numData() int { return 0 }
func (g *gaussian) newDensity() density {
	return &gaussian{mu: g.mu, prec: g.prec, scratch: make([]float64, len(g.mu))}
}

func (g *gaussian) params() []string {
	names := make([]string, len(g.mu))
	for i := range names {
		names[i] = fmt.Sprintf("x%d", i+1)
	}
	return names
}

// initState is overdispersed: μ + 3ξ.
func (g *gaussian) initState(th []float64, r *rand.Rand) {
	for i := range th {
		th[i] = g.mu[i] + 3*r.NormFloat64()
	}
}

func (g *gaussian) predict(dst, xs, th []float64) {
	for i := range dst {
		dst[i] = th[0]
	}
}

func (g *gaussian) noiseStd([]float64) float64  { return math.NaN() }
func (g *gaussian) summarize(dst, th []float64) { copy(dst, th) }
func (g *gaussian) logp(th []float64) float64   { return g.logpGrad(th, g.scratch) }

func (g *gaussian) logpGradBatch(th, grad []float64, _ []int) float64 { return g.logpGrad(th, grad) }

// logpGrad: log π = −½ (θ−μ)ᵀP(θ−μ) (unnormalised), ∇ = −P(θ−μ).
func (g *gaussian) logpGrad(th, grad []float64) float64 {
	d := len(g.mu)
	var q float64
	for i := range d {
		var s float64
		for j := range d {
			s += g.prec[i*d+j] * (th[j] - g.mu[j])
		}
		grad[i] = -s
		q += s * (th[i] - g.mu[i])
	}
	return -0.5 * q
}
