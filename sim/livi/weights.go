package livi

import (
	"fmt"

	"github.com/posterior-playground/playground/sim"
)

// WeightName names weight index by its layer, row and column (the bias row
// is the last of each layer's matrix); "" before Init or out of range.
func (m *Method) WeightName(index int) string {
	if !m.ready {
		return ""
	}
	for l, ly := range m.bm.layers {
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
	_ sim.WeightSampler = (*Method)(nil)
	_ sim.WeightNamer   = (*Method)(nil)
)
