package livi

import (
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// WeightName names weight index by its layer, row and column (the bias row
// is the last of each layer's matrix); "" before Init or out of range.
func (m *Method) WeightName(index int) string {
	if !m.ready {
		return ""
	}
	return model.WeightName(m.bm.layers, index)
}

// Marginal returns n draws of weight index under q (WeightSamples): an
// implicit q's marginals have no closed form.
func (m *Method) Marginal(index, n int) (sim.Marginal, bool) {
	d := m.WeightSamples(index, n)
	return sim.Marginal{Draws: d}, d != nil
}

var _ sim.Weights = (*Method)(nil)
