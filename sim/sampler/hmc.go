package sampler

import (
	"math/rand/v2"

	"github.com/posterior-playground/playground/sim/target"
)

// HMCConfig sets Hamiltonian Monte Carlo. The zero value is ε = 0.2,
// L = 20, the identity metric.
type HMCConfig struct {
	Step      float64 // ε, in [0.001, 5]; 0 means 0.2
	Leapfrogs int     // L, in [1, 1000]; 0 means 20
	// InvMetric is the diagonal of the fixed inverse metric M⁻¹, each
	// entry in [1e-8, 1e8]; the zero value means the identity.
	InvMetric Point
}

// MaxLeapfrogs bounds HMC's L.
const MaxLeapfrogs = 1000

func (c HMCConfig) resolve() (HMCConfig, error) {
	c.Step = orDefault(c.Step, 0.2)
	if c.Leapfrogs == 0 {
		c.Leapfrogs = 20
	}
	if err := checkRange("step", c.Step, 0.001, 5); err != nil {
		return c, err
	}
	var err error
	if c.InvMetric, err = checkInvMetric(c.InvMetric); err != nil {
		return c, err
	}
	return c, checkRange("leapfrogs", float64(c.Leapfrogs), 1, MaxLeapfrogs)
}

// HMC is Hamiltonian Monte Carlo with a fixed step ε and L leapfrog steps
// (Duane et al. 1987; Neal 2011), momentum p ~ N(0, M), H = −log p̃ +
// ½pᵀM⁻¹p with the fixed diagonal metric M of InvMetric (the identity by
// default: HMC has no warm-up to adapt one in).
// The end of the trajectory is accepted with probability min(1, e^{H₀−H}).
// A trajectory whose energy error H − H₀ passes MaxEnergyError is
// divergent: it is stopped there and rejected. L gradient evaluations a
// step (fewer when it diverges).
type HMC struct {
	chain
	cfg HMCConfig
}

// NewHMC starts a chain at start drawing from r.
func NewHMC(t target.Target, c HMCConfig, r *rand.Rand, start Point) (*HMC, error) {
	ch, c, err := begin(t, c, r, start)
	if err != nil {
		return nil, err
	}
	ch.m = newMetric(c.InvMetric)
	return &HMC{chain: ch, cfg: c}, nil
}

// SetConfig changes ε, L and the metric between steps.
func (h *HMC) SetConfig(c HMCConfig) error {
	if err := setConfig(&h.cfg, c); err != nil {
		return err
	}
	h.m = newMetric(h.cfg.InvMetric)
	return nil
}

// leapfrog advances (x, p) by one step of size e with gradient g at x in
// the chain's metric (x moves by eM⁻¹p), returning the new state and its
// log density and gradient.
func (c *chain) leapfrog(x, p, g Point, e float64) (Point, Point, float64, Point) {
	p[0] += 0.5 * e * g[0]
	p[1] += 0.5 * e * g[1]
	x[0] += e * c.m.inv[0] * p[0]
	x[1] += e * c.m.inv[1] * p[1]
	lp, g := c.logpGrad(x)
	p[0] += 0.5 * e * g[0]
	p[1] += 0.5 * e * g[1]
	return x, p, lp, g
}

func (h *HMC) Step(rec *Record) Transition {
	h.ensureGrad()
	if rec != nil {
		rec.reset(h.x)
		rec.Path = append(rec.Path, h.x)
	}
	p := h.m.momentum(h.r)
	h0 := h.m.energy(h.lp, p)
	x, lp, g := h.x, h.lp, h.grad
	tr := Transition{}
	for i := range h.cfg.Leapfrogs {
		x, p, lp, g = h.leapfrog(x, p, g, h.cfg.Step)
		tr.Leapfrogs++
		if rec != nil {
			rec.Path = append(rec.Path, x)
		}
		if h.m.energy(lp, p)-h0 > MaxEnergyError {
			tr.Divergent = true
			if rec != nil {
				rec.Divergent, rec.DivergentAt = true, i+1
			}
			break
		}
	}
	if !tr.Divergent {
		la := h0 - h.m.energy(lp, p)
		tr.Accept = acceptProb(la)
		tr.Accepted = accept(h.r, la)
	}
	if rec != nil {
		rec.Proposal, rec.Accepted = x, tr.Accepted
	}
	if tr.Accepted {
		h.x, h.lp, h.grad = x, lp, g
	}
	return tr
}
