package mcmc

import (
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// jointPerChain is how many of each chain's latest draws the joint view
// shows: 4 chains give 1000 points, enough to see the posterior's tilt and
// few enough to encode a few times a second.
const jointPerChain = 250

// Views sends, on the linear model, the "joint" view (model.Joint): every
// chain's current (b0, b) (so warm-up can be watched converging) and the
// latest retained draws, over the exact posterior: the Gaussian of
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
	return map[string]any{"joint": j}
}

var _ sim.Views = (*Method)(nil)
