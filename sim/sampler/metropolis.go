package sampler

import (
	"math"
	"math/rand/v2"

	"github.com/posterior-playground/playground/sim/target"
)

// MetropolisConfig sets random-walk Metropolis. The zero value is scale 1.
type MetropolisConfig struct {
	Scale float64 // σ, the proposal's sd, in [0.01, 20]; 0 means 1
}

func (c MetropolisConfig) resolve() (MetropolisConfig, error) {
	c.Scale = orDefault(c.Scale, 1)
	return c, checkRange("scale", c.Scale, 0.01, 20)
}

// Metropolis is random-walk Metropolis: θ′ = θ + σξ, ξ ~ N(0, I),
// accepted with probability min(1, p̃(θ′)/p̃(θ)). One density evaluation a
// step.
type Metropolis struct {
	chain
	cfg MetropolisConfig
}

// NewMetropolis starts a chain at start drawing from r.
func NewMetropolis(t target.Target, c MetropolisConfig, r *rand.Rand, start Point) (*Metropolis, error) {
	ch, c, err := begin(t, c, r, start)
	if err != nil {
		return nil, err
	}
	return &Metropolis{chain: ch, cfg: c}, nil
}

// SetConfig changes the scale between steps.
func (m *Metropolis) SetConfig(c MetropolisConfig) error {
	return setConfig(&m.cfg, c)
}

func (m *Metropolis) Step(rec *Record) Transition {
	s := m.cfg.Scale
	xi := normal2(m.r)
	y := Point{m.x[0] + s*xi[0], m.x[1] + s*xi[1]}
	ly := m.logp(y)
	ok := accept(m.r, ly-m.lp)
	if rec != nil {
		rec.reset(m.x)
		rec.Proposal, rec.Accepted = y, ok
	}
	tr := Transition{Accepted: ok, Accept: acceptProb(ly - m.lp)}
	if ok {
		m.x, m.lp, m.gradOK = y, ly, false
	}
	return tr
}

// acceptProb is min(1, e^{la}), 0 for a NaN.
func acceptProb(la float64) float64 {
	if la >= 0 {
		return 1
	}
	if la != la {
		return 0
	}
	return math.Exp(la)
}
