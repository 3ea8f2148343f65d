package mcmc

import (
	"math"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// jointPerChain is how many of each chain's latest draws the joint view
// shows: 4 chains give 1000 points, enough to see the posterior's tilt and
// few enough to encode a few times a second.
const jointPerChain = 250

// Views sends, on the linear model, the "joint" view (model.Joint): every
// chain's current (b0, b) (so warm-up can be watched converging) and the
// latest retained draws with the moments of all of them, over the exact posterior: the Gaussian of
// model.LinearPosterior with σ held, else the Student-t's centre and
// covariance (exactLinearCov). Nothing on the BNN.
func (m *Method) Views() map[string]any {
	if !m.ready || m.model != model.Linear {
		return nil
	}
	var j *model.Joint
	switch p := m.prob.(type) {
	case *linearHeld:
		j = model.NewJoint(p.x, p.y, p.sigma, linearPriorStd(m.controls["prior_scale"].Num))
	case *linear:
		j = model.NewJoint(p.x, p.y, 0, 0)
		if g, ok := exactLinearCov(p.x, p.y); ok {
			j.Exact, j.ExactCorr = &g, g.Corr()
		}
	default:
		return nil
	}
	for _, c := range m.chains {
		c.dens.summarize(c.summ, c.theta)
		j.Chains = append(j.Chains, [2]float64{c.summ[0], c.summ[1]})
		n := c.draws.len()
		for i := max(0, n-jointPerChain); i < n; i++ {
			d := c.draws.at(i)
			j.B0, j.B = append(j.B0, d[0]), append(j.B, d[1])
		}
	}
	j.Warmup = m.Warmup()
	j.Paths, j.PathDone = m.paths, m.iter >= pathLen
	if m.chains[0].draws.len() > 1 {
		for k := range 2 {
			var s, ss float64
			var n int
			for _, c := range m.chains {
				for i := range c.draws.len() {
					s += c.draws.at(i)[k]
					n++
				}
			}
			mean := s / float64(n)
			for _, c := range m.chains {
				for i := range c.draws.len() {
					d := c.draws.at(i)[k] - mean
					ss += d * d
				}
			}
			j.Moments = append(j.Moments, sim.Moments{Mean: mean, SD: math.Sqrt(ss / float64(n-1))})
		}
	}
	return map[string]any{"joint": j}
}

// pathLen is how many transitions of each chain's start the joint view
// keeps, for its replay of the chains converging from their dispersed
// starting points: on linreg-offset they reach the posterior in a few
// dozen.
const pathLen = 150

// recordPaths appends every chain's (b0, b) to its path while the run is
// within its first pathLen transitions, on the linear models only.
func (m *Method) recordPaths() {
	if m.iter > pathLen {
		return
	}
	switch m.prob.(type) {
	case *linear, *linearHeld:
	default:
		return
	}
	if len(m.paths) != len(m.chains) { // at Init: room for all, so Step allocates nothing
		m.paths = make([][][2]float64, len(m.chains))
		for k := range m.paths {
			m.paths[k] = make([][2]float64, 0, pathLen+1)
		}
	}
	for k, c := range m.chains {
		c.dens.summarize(c.summ, c.theta)
		m.paths[k] = append(m.paths[k], [2]float64{c.summ[0], c.summ[1]})
	}
}
