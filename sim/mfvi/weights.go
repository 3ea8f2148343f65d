package mfvi

import (
	"fmt"
	"math"

	"github.com/posterior-playground/playground/sim"
)

// NumWeights returns the length of the flat weight vector (0 before Init).
func (m *Method) NumWeights() int {
	if !m.ready {
		return 0
	}
	return len(m.mu)
}

// WeightMarginal returns the mean and std of q(w_index) = N(μ, exp(ℓ)²), the
// Gaussian marginal the dashboard draws next to an implicit method's
// histogram. ok is false before Init or outside [0, NumWeights()).
func (m *Method) WeightMarginal(index int) (mean, std float64, ok bool) {
	if !m.ready || index < 0 || index >= len(m.mu) {
		return 0, 0, false
	}
	return m.mu[index], math.Exp(m.ls[index]), true
}

// WeightName names weight index by its layer, row and column (the bias row
// is the last of each layer's matrix).
func (m *Method) WeightName(index int) string {
	if !m.ready {
		return ""
	}
	for l, ly := range m.layers {
		if index >= ly.Off && index < ly.Off+ly.Rows*ly.Cols {
			r, c := (index-ly.Off)/ly.Cols, (index-ly.Off)%ly.Cols
			if r == ly.Rows-1 {
				return fmt.Sprintf("layer %d, bias of unit %d", l+1, c+1)
			}
			return fmt.Sprintf("layer %d, input %d → unit %d", l+1, r+1, c+1)
		}
	}
	return ""
}

var (
	_ sim.WeightGaussian = (*Method)(nil)
	_ sim.WeightNamer    = (*Method)(nil)
)
