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

var _ sim.WeightSampler = (*Method)(nil)
