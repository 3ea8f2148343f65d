package sampler

import "math"

// Dual averaging of the step size (Hoffman & Gelman 2014, §3.2.1) with
// Stan's constants: γ = 0.05, t₀ = 10, κ = 0.75, μ = log 10ε₀.
const (
	daGamma = 0.05
	daT0    = 10
	daKappa = 0.75
)

// dualAvg drives log ε so that the mean acceptance statistic tends to
// delta; xbar is the averaged iterate used after warm-up.
type dualAvg struct {
	delta, mu, sbar, xbar float64
	counter               int
}

func newDualAvg(eps, delta float64) dualAvg {
	return dualAvg{delta: delta, mu: math.Log(10 * eps)}
}

// learn takes one acceptance statistic and returns the next step size.
func (d *dualAvg) learn(accept float64) float64 {
	if accept != accept {
		accept = 0
	}
	accept = min(accept, 1)
	d.counter++
	m := float64(d.counter)
	eta := 1 / (m + daT0)
	d.sbar = (1-eta)*d.sbar + eta*(d.delta-accept)
	x := d.mu - d.sbar*math.Sqrt(m)/daGamma
	w := math.Pow(m, -daKappa)
	d.xbar = (1-w)*d.xbar + w*x
	return math.Exp(x)
}

// final is the averaged step size exp(x̄).
func (d *dualAvg) final() float64 { return math.Exp(d.xbar) }

// initStep is Stan's heuristic for a first step size: from eps, double
// (or halve) it while one leapfrog step from x keeps (or fails to keep)
// an acceptance above 0.8, and return the first that crosses, as Stan
// does (base_hmc's init_stepsize). It
// draws momenta from the chain's stream and counts its gradient
// evaluations, which are part of the budget.
func (c *chain) initStep(eps float64) float64 {
	c.ensureGrad()
	dir := 0.0
	for range 60 { // 2^±60 covers any scale a 2-D box can have
		p := c.m.momentum(c.r)
		h0 := c.m.energy(c.lp, p)
		_, p1, lp1, _ := c.leapfrog(c.x, p, c.grad, eps)
		dh := h0 - c.m.energy(lp1, p1)
		up := dh > math.Log(0.8)
		if dir == 0 {
			dir = -1
			if up {
				dir = 1
			}
		} else if dir == 1 && !up || dir == -1 && up {
			break
		}
		eps *= math.Pow(2, dir)
	}
	return eps
}
