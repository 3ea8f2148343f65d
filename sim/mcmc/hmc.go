package mcmc

import "math"

// maxDeltaH is the energy error H − H₀ beyond which a trajectory counts as
// divergent (Stan, Pyro and TFP use 1000).
const maxDeltaH = 1000

// hmc is Hamiltonian Monte Carlo (Neal 2011): momentum
// p ~ N(0, M) with a diagonal mass matrix, L leapfrog steps of size ε, then
// a Metropolis correction with probability min(1, exp(H₀ − H*)).
//
// With adapt on (the default), warm-up tunes ε by dual averaging towards an
// acceptance rate of 0.8 and M⁻¹ by Stan's windowed variance estimate, as
// for NUTS; ε starts from the `step` control improved by the
// reasonable-ε heuristic. After warm-up ε is jittered uniformly by ±10% per
// transition (Neal 2011 §5.4.2.2) so that a fixed L cannot lock onto a
// period of the target.
type hmc struct {
	adapter // ε, M⁻¹ and their warm-up adaptation; th0, g0 double as trajectory scratch
	L       int
	p       []float64
}

func newHMC(d, warmup int, eps float64, L int, adapt bool) *hmc {
	return &hmc{adapter: newAdapter(d, warmup, eps, adapt), L: L, p: make([]float64, d)}
}

func (k *hmc) init(c *chain) { c.evalGrad() }

func (k *hmc) transition(c *chain, warm bool) (float64, bool) {
	k.begin(c, k.p, warm)
	eps := k.eps
	if !warm {
		eps *= 1 + 0.1*(2*c.rng.Float64()-1)
	}
	acc, div := k.trajectory(c, eps)
	k.learn(c, k.p, acc, warm)
	return acc, div
}

// trajectory runs one HMC proposal with step eps and accepts or rejects it.
func (k *hmc) trajectory(c *chain, eps float64) (float64, bool) {
	if !c.gradOK {
		c.evalGrad()
	}
	copy(k.th0, c.theta)
	copy(k.g0, c.grad)
	lp0 := c.logp
	c.drawMomentum(k.p, k.minv)
	h0 := -lp0 + kinetic(k.p, k.minv)
	for range k.L {
		if c.halted() {
			break // the state is discarded
		}
		c.leapfrog(k.p, k.minv, eps)
		if math.IsNaN(c.logp) || math.IsInf(c.logp, 0) {
			break
		}
	}
	h := -c.logp + kinetic(k.p, k.minv)
	if math.IsNaN(h) {
		h = math.Inf(1)
	}
	div := h-h0 > maxDeltaH
	acc := math.Exp(min(h0-h, 0))
	if !(c.rng.Float64() < acc) {
		copy(c.theta, k.th0)
		copy(c.grad, k.g0)
		c.logp = lp0
	}
	return acc, div
}
