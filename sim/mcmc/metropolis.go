package mcmc

import "math"

// metropolis is Gaussian random-walk Metropolis:
// propose θ* = θ + τξ, ξ ~ N(0, I), with τ the `step` control (a standard
// deviation, as the blog's code uses it), and accept with probability
// min(1, π(θ*)/π(θ)). No adaptation.
type metropolis struct {
	step float64
	prop []float64
}

func (k *metropolis) init(c *chain) {
	k.prop = make([]float64, len(c.theta))
	c.logp = c.dens.logp(c.theta)
}

func (k *metropolis) transition(c *chain, _ bool) (float64, bool) {
	for i, t := range c.theta {
		k.prop[i] = t + k.step*c.rng.NormFloat64()
	}
	lp := c.dens.logp(k.prop)
	la := lp - c.logp
	if math.IsNaN(la) {
		return 0, false
	}
	acc := math.Exp(min(la, 0))
	if la >= 0 || c.rng.Float64() < acc {
		copy(c.theta, k.prop)
		c.logp = lp
	}
	return acc, false
}

func (k *metropolis) endWarmup(*chain)            {}
func (k *metropolis) stepSize() float64           { return k.step }
func (k *metropolis) setStep(eps float64, _ bool) { k.step = eps }
