package mcmc

import "math"

// maxDeltaH is the energy error H − H₀ beyond which a trajectory counts as
// divergent (Stan, Pyro and TFP use 1000).
const maxDeltaH = 1000

// Step sizes outside these bounds mean an improper or broken target; the
// heuristic stops there.
const (
	minStep = 1e-10
	maxStep = 1e7
)

// hmc is Hamiltonian Monte Carlo (Neal 2011; ALGORITHMS.md §6.2): momentum
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
	eps   float64
	L     int
	adapt bool

	minv           []float64 // inverse metric M⁻¹ (diagonal)
	p, p0, th0, g0 []float64

	da      dualAvg
	win     windows
	est     welford
	started bool
}

func newHMC(d, warmup int, eps float64, L int, adapt bool) *hmc {
	k := &hmc{eps: eps, L: L, adapt: adapt, minv: make([]float64, d),
		p: make([]float64, d), p0: make([]float64, d), th0: make([]float64, d), g0: make([]float64, d),
		win: newWindows(warmup), est: newWelford(d)}
	for i := range k.minv {
		k.minv[i] = 1
	}
	return k
}

func (k *hmc) init(c *chain) { c.evalGrad() }

func (k *hmc) transition(c *chain, warm bool) (float64, bool) {
	adapting := warm && k.adapt
	if !k.started {
		k.started = true
		if adapting {
			k.eps = reasonableStep(c, k.eps, k.minv, k.p, k.p0, k.th0, k.g0)
			k.da.restart(k.eps)
		}
	}
	eps := k.eps
	if !warm {
		eps *= 1 + 0.1*(2*c.rng.Float64()-1)
	}
	acc, div := k.trajectory(c, eps)
	if adapting {
		k.eps = k.da.learn(acc)
		if k.win.learn(&k.est, c.theta, k.minv) {
			k.eps = reasonableStep(c, k.eps, k.minv, k.p, k.p0, k.th0, k.g0)
			k.da.restart(k.eps)
		}
	}
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

func (k *hmc) endWarmup(*chain) {
	if k.adapt && k.da.counter > 0 {
		k.eps = k.da.final()
	}
}

func (k *hmc) stepSize() float64 { return k.eps }

// setStep replaces ε. During warm-up with adaptation, dual averaging
// restarts from it.
func (k *hmc) setStep(eps float64, warm bool) {
	k.eps = eps
	if warm && k.adapt {
		k.da.restart(eps)
	}
}

// reasonableStep is Hoffman & Gelman's heuristic (2014, Algorithm 4) for a
// first step size: from eps, double (or halve) ε until the acceptance
// probability of one leapfrog step from the current state, with one fixed
// momentum draw, crosses 0.5. It leaves the chain's state unchanged; p, th0
// and g0 are scratch.
func reasonableStep(c *chain, eps float64, minv, p, p0, th0, g0 []float64) float64 {
	if !(eps > minStep && eps < maxStep) {
		eps = 1
	}
	if !c.gradOK {
		c.evalGrad()
	}
	copy(th0, c.theta)
	copy(g0, c.grad)
	lp0 := c.logp
	c.drawMomentum(p, minv)
	copy(p0, p)
	h0 := -lp0 + kinetic(p, minv)
	logRatio := func(e float64) float64 {
		copy(c.theta, th0)
		copy(c.grad, g0)
		copy(p, p0)
		c.leapfrog(p, minv, e)
		d := h0 - (-c.logp + kinetic(p, minv))
		if math.IsNaN(d) {
			return math.Inf(-1)
		}
		return d
	}
	a := -1.0
	if logRatio(eps) > math.Log(0.5) {
		a = 1
	}
	for range 100 {
		next := eps * math.Pow(2, a)
		if next < minStep || next > maxStep {
			break
		}
		eps = next
		// Continue while ratio^a > 2^−a.
		if !(a*logRatio(eps) > -a*math.Ln2) {
			break
		}
	}
	copy(c.theta, th0)
	copy(c.grad, g0)
	c.logp = lp0
	return eps
}
