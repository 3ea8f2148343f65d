package sampler

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/target"
)

// Point is a position in the plane.
type Point = target.Point

// Sampler is one Markov chain on a target.
type Sampler interface {
	// Step makes one transition. When rec is not nil it is reset and
	// receives the transition's mechanics; a nil rec costs nothing.
	Step(rec *Record) Transition
	// Position is the chain's current state.
	Position() Point
	// Counts are the density and gradient evaluations so far.
	Counts() Counts
}

// Transition summarises one step.
type Transition struct {
	Accepted  bool    // the chain moved (NUTS: to a point other than the start)
	Accept    float64 // the acceptance probability or statistic, in [0, 1]
	Divergent bool    // the energy error exceeded MaxEnergyError
	Leapfrogs int     // leapfrog steps taken (HMC, NUTS)
	Depth     int     // NUTS: the doublings merged into the tree
	Warmup    bool    // NUTS: the step was in warm-up; discard the draw
}

// Counts are a chain's evaluations of the target: the budget on which
// methods are compared. A call of LogDensityGrad counts as one gradient
// evaluation and not as a density evaluation.
type Counts struct {
	Density  int64
	Gradient int64
}

// MaxEnergyError is the energy error H − H₀ past which a trajectory is
// divergent, Stan's threshold.
const MaxEnergyError = 1000

// chain is the state every sampler shares: the target, the random stream,
// the position with its log density (and gradient, when gradOK), the
// evaluation counts, and the metric of the Hamiltonian samplers.
type chain struct {
	t      target.Target
	r      *rand.Rand
	x      Point
	lp     float64
	grad   Point
	gradOK bool
	counts Counts
	m      metric
}

func newChain(t target.Target, r *rand.Rand, start Point) (chain, error) {
	c := chain{t: t, r: r, x: start, m: unitMetric()}
	c.lp = c.logp(start)
	if math.IsNaN(c.lp) || math.IsInf(c.lp, 0) {
		return c, &sim.FieldError{Field: "start", Message: fmt.Sprintf("the log density at %v is %g, want a finite value", start, c.lp)}
	}
	return c, nil
}

// config is a sampler's settings: resolve fills in the defaults of zero
// fields and checks the ranges.
type config[C any] interface {
	resolve() (C, error)
}

// begin resolves c and starts a chain on t at start.
func begin[C config[C]](t target.Target, c C, r *rand.Rand, start Point) (chain, C, error) {
	c, err := c.resolve()
	if err != nil {
		return chain{}, c, err
	}
	ch, err := newChain(t, r, start)
	return ch, c, err
}

// setConfig resolves c into *dst, which keeps its value on an error.
func setConfig[C config[C]](dst *C, c C) error {
	c, err := c.resolve()
	if err == nil {
		*dst = c
	}
	return err
}

func (c *chain) Position() Point { return c.x }
func (c *chain) Counts() Counts  { return c.counts }

func (c *chain) logp(p Point) float64 {
	c.counts.Density++
	return c.t.LogDensity(p)
}

func (c *chain) logpGrad(p Point) (float64, Point) {
	c.counts.Gradient++
	return c.t.LogDensityGrad(p)
}

// ensureGrad makes c.grad the gradient at c.x.
func (c *chain) ensureGrad() {
	if !c.gradOK {
		c.lp, c.grad = c.logpGrad(c.x)
		c.gradOK = true
	}
}

// normal2 is a pair of independent standard normals.
func normal2(r *rand.Rand) Point { return Point{r.NormFloat64(), r.NormFloat64()} }

// accept reports whether a Metropolis–Hastings step with log ratio la is
// accepted, comparing a uniform with e^{la} and taking no logarithm.
func accept(r *rand.Rand, la float64) bool {
	return la >= 0 || r.Float64() < math.Exp(la)
}

// checkRange returns a *sim.FieldError unless lo ≤ x ≤ hi.
func checkRange(field string, x, lo, hi float64) error {
	if !(x >= lo && x <= hi) {
		return &sim.FieldError{Field: field, Message: fmt.Sprintf("%g is outside the allowed range [%g, %g]", x, lo, hi)}
	}
	return nil
}

// orDefault returns x, or def for the zero value.
func orDefault(x, def float64) float64 {
	if x == 0 {
		return def
	}
	return x
}
