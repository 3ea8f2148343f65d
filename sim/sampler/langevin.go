package sampler

import (
	"math"
	"math/rand/v2"

	"github.com/posterior-playground/playground/sim/target"
)

// LangevinConfig sets MALA and unadjusted Langevin. The zero value is
// step 0.5.
type LangevinConfig struct {
	Step float64 // ε, in [0.001, 5]; 0 means 0.5
}

func (c LangevinConfig) resolve() (LangevinConfig, error) {
	c.Step = orDefault(c.Step, 0.5)
	return c, checkRange("step", c.Step, 0.001, 5)
}

// Langevin moves by the discretised Langevin diffusion,
// θ′ = θ + (ε²/2)∇log p̃(θ) + εξ. Adjusted (MALA, Roberts & Tweedie 1996),
// θ′ is accepted with the Metropolis–Hastings ratio
// p̃(θ′)q(θ | θ′) / (p̃(θ)q(θ′ | θ)), whose stationary distribution is p.
// Unadjusted (ULA) every move is taken, and the chain's stationary
// distribution is off from p by O(ε²). One gradient evaluation a step.
type Langevin struct {
	chain
	cfg      LangevinConfig
	adjusted bool
}

// NewMALA starts a Metropolis-adjusted Langevin chain at start.
func NewMALA(t target.Target, c LangevinConfig, r *rand.Rand, start Point) (*Langevin, error) {
	return newLangevin(t, c, r, start, true)
}

// NewULA starts an unadjusted Langevin chain at start.
func NewULA(t target.Target, c LangevinConfig, r *rand.Rand, start Point) (*Langevin, error) {
	return newLangevin(t, c, r, start, false)
}

func newLangevin(t target.Target, c LangevinConfig, r *rand.Rand, start Point, adjusted bool) (*Langevin, error) {
	ch, c, err := begin(t, c, r, start)
	if err != nil {
		return nil, err
	}
	return &Langevin{chain: ch, cfg: c, adjusted: adjusted}, nil
}

// SetConfig changes the step between steps.
func (l *Langevin) SetConfig(c LangevinConfig) error {
	return setConfig(&l.cfg, c)
}

func (l *Langevin) Step(rec *Record) Transition {
	l.ensureGrad()
	e := l.cfg.Step
	h := 0.5 * e * e
	xi := normal2(l.r)
	y := Point{l.x[0] + h*l.grad[0] + e*xi[0], l.x[1] + h*l.grad[1] + e*xi[1]}
	ly, gy := l.logpGrad(y)
	tr := Transition{Accepted: true, Accept: 1}
	if l.adjusted {
		// log q(θ | θ′) − log q(θ′ | θ); the forward residual is εξ.
		bx, by := l.x[0]-y[0]-h*gy[0], l.x[1]-y[1]-h*gy[1]
		lq := -(bx*bx+by*by)/(2*e*e) + 0.5*(xi[0]*xi[0]+xi[1]*xi[1])
		la := ly - l.lp + lq
		if math.IsNaN(la) {
			la = math.Inf(-1)
		}
		tr.Accept = acceptProb(la)
		tr.Accepted = accept(l.r, la)
	} else if math.IsNaN(ly) || math.IsInf(ly, 0) {
		// ULA has no rejection; a move off the support or to a
		// non-finite density would leave the chain stuck there for good.
		tr.Accepted, tr.Accept, tr.Divergent = false, 0, true
	}
	if rec != nil {
		rec.reset(l.x)
		rec.Proposal, rec.Accepted = y, tr.Accepted
	}
	if tr.Accepted {
		l.x, l.lp, l.grad = y, ly, gy
	}
	return tr
}
