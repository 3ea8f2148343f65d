package mfvi

import (
	"math"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// Views sends, on the linear model, the "joint" view (model.Joint): q(b0, b)
// is N(μ, diag(s²)), an axis-aligned ellipse, beside the exact posterior
// when σ is held. Nothing on the BNN.
func (m *Method) Views() map[string]any {
	if !m.ready || m.model != model.Linear || m.task != sim.Regression {
		return nil
	}
	j := model.NewJoint(m.x, m.y, m.fixedNoise(), m.layers[0].PriorStd)
	// W = [b; b0]: index 0 is the slope, 1 the intercept.
	s0, s1 := math.Exp(m.ls[1]), math.Exp(m.ls[0])
	j.Gaussian = &model.Gauss2{Mean: [2]float64{m.mu[1], m.mu[0]}, Cov: [2][2]float64{{s0 * s0, 0}, {0, s1 * s1}}}
	if j.FixedNoise == 0 {
		j.Sigma = &sim.Moments{Mean: m.NoiseStd()} // a point estimate: no sd
	}
	return map[string]any{"joint": j}
}

// fixedNoise is σ when held (model.FixedNoise), else 0.
func (m *Method) fixedNoise() float64 {
	if !m.frozenNoise {
		return 0
	}
	return math.Exp(m.logNoise[0])
}
