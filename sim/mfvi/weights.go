package mfvi

import (
	"math"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// NumWeights returns the length of the flat weight vector (0 before Init).
func (m *Method) NumWeights() int {
	if !m.ready {
		return 0
	}
	return len(m.mu)
}

// Marginal returns the mean and std of q(w_index) = N(μ, exp(ℓ)²), the
// Gaussian marginal the dashboard draws next to an implicit method's
// histogram (n is unused: it draws nothing). ok is false before Init or
// outside [0, NumWeights()).
func (m *Method) Marginal(index, n int) (sim.Marginal, bool) {
	if !m.ready || index < 0 || index >= len(m.mu) {
		return sim.Marginal{}, false
	}
	return sim.Marginal{Mean: m.mu[index], Std: math.Exp(m.ls[index])}, true
}

// WeightName names weight index by its layer, row and column (the bias row
// is the last of each layer's matrix).
func (m *Method) WeightName(index int) string {
	if !m.ready {
		return ""
	}
	if m.model == model.Linear {
		return model.LinearWeightName(index)
	}
	return model.WeightName(m.layers, index)
}

var _ sim.Weights = (*Method)(nil)
