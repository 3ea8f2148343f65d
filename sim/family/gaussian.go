package family

import (
	"math"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/target"
)

// Gaussian is a Gaussian q(θ): mean-field (diagonal covariance) or
// full-rank (a Cholesky factor), fitted to a target by the Config's
// divergence.
type Gaussian struct {
	*fitter
	g *gaussT
}

// gaussT is u = μ + Lε with L = [[e^{d₀}, 0], [l, e^{d₁}]] and parameters
// λ = (μ₀, μ₁, d₀, d₁, l); mean-field holds l at zero by never giving it a
// gradient (Adam then never moves it).
type gaussT struct {
	p    []float64
	full bool
	eps  [][2]float64
}

// NewMeanField returns a mean-field Gaussian q = N(μ, diag(σ²)) for t.
func NewMeanField(t target.Target, cfg Config) (*Gaussian, error) {
	return newGaussian(t, cfg, false)
}

// NewFullRank returns a full-rank Gaussian q = N(μ, LLᵀ) for t.
func NewFullRank(t target.Target, cfg Config) (*Gaussian, error) {
	return newGaussian(t, cfg, true)
}

func newGaussian(t target.Target, cfg Config, full bool) (*Gaussian, error) {
	c, err := cfg.resolve(defaultLRGauss)
	if err != nil {
		return nil, err
	}
	f, err := newFrame(t)
	if err != nil {
		return nil, err
	}
	g := &gaussT{p: make([]float64, 5), full: full, eps: make([][2]float64, c.Samples)}
	// Start at cfg.Start, nudged off it so that a target symmetric about
	// it does not hold the mean on a saddle, with sd a sixteenth of the
	// box's sides (half u's unit).
	r := numeric.NewStream(c.Seed, 2)
	s := f.start(c)
	g.p[0], g.p[1] = s[0]+0.1*r.NormFloat64(), s[1]+0.1*r.NormFloat64()
	g.p[2], g.p[3] = -math.Ln2, -math.Ln2
	return &Gaussian{fitter: newFitter(t, f, c, g, g.p), g: g}, nil
}

// Full reports whether q is full-rank.
func (q *Gaussian) Full() bool { return q.g.full }

func (g *gaussT) chol() (a, l, b float64) { return math.Exp(g.p[2]), g.p[4], math.Exp(g.p[3]) }

func (g *gaussT) forward(k int, e [2]float64) ([2]float64, float64) {
	if k >= 0 {
		g.eps[k] = e
	}
	a, l, b := g.chol()
	return [2]float64{g.p[0] + a*e[0], g.p[1] + l*e[0] + b*e[1]}, g.p[2] + g.p[3]
}

func (g *gaussT) pull(k int, gr [2]float64, w float64, grad []float64) {
	e := g.eps[k]
	a, _, b := g.chol()
	grad[0] += gr[0]
	grad[1] += gr[1]
	grad[2] += gr[0]*a*e[0] + w
	grad[3] += gr[1]*b*e[1] + w
	if g.full {
		grad[4] += gr[1] * e[0]
	}
}

// score is −L⁻ᵀε, since ∇_u log q = −Σ⁻¹(u − μ) = −L⁻ᵀL⁻¹Lε.
func (g *gaussT) score(k int) [2]float64 {
	e := g.eps[k]
	a, l, b := g.chol()
	x1 := e[1] / b
	return [2]float64{-(e[0] - l*x1) / a, -x1}
}

func (g *gaussT) logDensity(u [2]float64) float64 {
	a, l, b := g.chol()
	e0 := (u[0] - g.p[0]) / a
	e1 := (u[1] - g.p[1] - l*e0) / b
	return logPhi2([2]float64{e0, e1}) - g.p[2] - g.p[3]
}

// Moments returns q's mean and covariance, exactly.
func (q *Gaussian) Moments() (target.Point, Cov) {
	a, l, b := q.g.chol()
	r := q.f.r
	mean := q.f.toTheta([2]float64{q.g.p[0], q.g.p[1]})
	cxy := a * l * r[0] * r[1]
	return mean, Cov{{a * a * r[0] * r[0], cxy}, {cxy, (l*l + b*b) * r[1] * r[1]}}
}
