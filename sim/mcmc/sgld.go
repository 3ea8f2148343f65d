package mcmc

import "math"

// sgld is stochastic-gradient Langevin dynamics (Welling & Teh 2011):
//
//	θ ← θ + (ε/2)(∇log p(θ) + (N/n) Σ_{i∈S} ∇log p(y_i|θ)) + η,  η ~ N(0, εI),
//
// with S a minibatch of n points drawn without replacement each step. The
// noise VARIANCE is ε (std √ε); the blog's std ε samples at temperature ε.
// There is no accept/reject step, so the acceptance statistic is 1; with a
// constant ε the chain is biased by O(ε) (with n = N it is the unadjusted
// Langevin algorithm). With n = N the gradient at the new state is computed
// once and serves both the objective and the next step.
type sgld struct {
	step  float64
	batch int // requested n; clamped to N when used
	perm  []int
	g     []float64
}

func (k *sgld) init(c *chain) {
	k.g = make([]float64, len(c.theta))
	c.evalGrad()
}

// setData prepares the index permutation for N points.
func (k *sgld) setData(n int) {
	k.perm = make([]int, n)
	for i := range k.perm {
		k.perm[i] = i
	}
}

func (k *sgld) transition(c *chain, _ bool) (float64, bool) {
	n := len(k.perm)
	b := min(k.batch, n)
	full := n == 0 || b >= n
	g := c.grad
	if full {
		if !c.gradOK {
			c.evalGrad()
		}
	} else {
		// Partial Fisher–Yates: perm[:b] is a uniform sample without
		// replacement.
		for i := range b {
			j := i + c.rng.IntN(n-i)
			k.perm[i], k.perm[j] = k.perm[j], k.perm[i]
		}
		c.dens.logpGradBatch(c.theta, k.g, k.perm[:b])
		c.gradEvals++
		g = k.g
	}
	h, s := 0.5*k.step, math.Sqrt(k.step)
	for i, gi := range g {
		c.theta[i] += h*gi + s*c.rng.NormFloat64()
	}
	if full {
		c.evalGrad()
	} else {
		c.logp = c.dens.logp(c.theta)
		c.gradOK = false
	}
	return 1, math.IsNaN(c.logp) || math.IsInf(c.logp, 0)
}

func (k *sgld) endWarmup(*chain)            {}
func (k *sgld) stepSize() float64           { return k.step }
func (k *sgld) setStep(eps float64, _ bool) { k.step = eps }
