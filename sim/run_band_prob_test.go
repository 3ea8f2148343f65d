package sim

import (
	"math"
	"testing"
)

// TestProbabilityBand: for a classifier the band is σ(m ± 2s) of the
// latent f = logit p, its mean the average probability, all inside [0, 1];
// values outside [0, 1] (gp-exact regressing the labels) keep the ordinary
// band.
func TestProbabilityBand(t *testing.T) {
	d := &Dataset{Task: Classification, XScale: Affine{Mean: 1, Std: 2}, YScale: Identity}
	fs := []float64{-3, -1, 0, 2, 7} // latent values at one input; mean 1, sd √(62/4)
	p := Predictive{X: []float64{0.5}}
	for _, f := range fs {
		p.Samples = append(p.Samples, []float64{sigmoid(f)})
	}
	b := makeBand(p, d, 2)
	m, sd := 1.0, math.Sqrt((16+4+1+1+36)/4.0)
	var mean float64
	for _, f := range fs {
		mean += sigmoid(f) / 5
	}
	if b == nil || math.Abs(b.Lo[0]-sigmoid(m-2*sd)) > 1e-12 || math.Abs(b.Hi[0]-sigmoid(m+2*sd)) > 1e-12 ||
		math.Abs(b.Mean[0]-mean) > 1e-12 || b.X[0] != 2 || len(b.Samples) != 2 || b.Samples[1][0] != sigmoid(-1) {
		t.Fatalf("band %+v; want lo %g hi %g mean %g", b, sigmoid(m-2*sd), sigmoid(m+2*sd), mean)
	}
	// Saturated probabilities stay finite and inside [0, 1].
	p.Samples = [][]float64{{0}, {1}, {1}}
	if b := makeBand(p, d, 1); b == nil || !(b.Lo[0] >= 0 && b.Hi[0] <= 1) {
		t.Errorf("saturated band %+v", b)
	}
	// Not probabilities: mean ± 2 sd as for regression.
	p.Samples = [][]float64{{-0.5}, {1.5}}
	if b := makeBand(p, d, 1); b == nil || math.Abs(b.Mean[0]-0.5) > 1e-12 || math.Abs(b.Lo[0]-(0.5-2*math.Sqrt2)) > 1e-12 {
		t.Errorf("regression band on labels %+v", b)
	}
}
