package sim

import (
	"math"
	"testing"
)

func TestInbetweenRatio(t *testing.T) {
	// Mean std on the data (1 + 2 + 3)/3 = 2; 5 at the gap: 2.5.
	if got := InbetweenRatio([]float64{1, 2, 3}, 5); got != 2.5 {
		t.Errorf("ratio %v, want 2.5", got)
	}
	for _, sd := range [][]float64{nil, {0, 0}} {
		if got := InbetweenRatio(sd, 1); !math.IsNaN(got) {
			t.Errorf("ratio on stds %v: %v, want NaN", sd, got)
		}
	}
}
