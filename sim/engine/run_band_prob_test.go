package engine

import (
	"github.com/posterior-playground/playground/sim"

	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
)

// TestProbabilityBand: for a classifier the band is σ(m ± 2s) of the
// latent f = logit p, its mean the average probability, all inside [0, 1];
// values outside [0, 1] (gp-exact regressing the labels) keep the ordinary
// band.
func TestProbabilityBand(t *testing.T) {
	d := &sim.Dataset{Task: sim.Classification, XScale: sim.Affine{Mean: 1, Std: 2}, YScale: sim.Identity}
	fs := []float64{-3, -1, 0, 2, 7} // latent values at one input; mean 1, sd √(62/4)
	p := sim.Predictive{X: []float64{0.5}}
	for _, f := range fs {
		p.Samples = append(p.Samples, []float64{numeric.Sigmoid(f)})
	}
	b := makeBand(p, d, 2)
	m, sd := 1.0, math.Sqrt((16+4+1+1+36)/4.0)
	var mean float64
	for _, f := range fs {
		mean += numeric.Sigmoid(f) / 5
	}
	if b == nil || math.Abs(b.Lo[0]-numeric.Sigmoid(m-2*sd)) > 1e-12 || math.Abs(b.Hi[0]-numeric.Sigmoid(m+2*sd)) > 1e-12 ||
		math.Abs(b.Mean[0]-mean) > 1e-12 || b.X[0] != 2 || len(b.Samples) != 2 || b.Samples[1][0] != numeric.Sigmoid(-1) {
		t.Fatalf("band %+v; want lo %g hi %g mean %g", b, numeric.Sigmoid(m-2*sd), numeric.Sigmoid(m+2*sd), mean)
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

// TestBandRejects: an empty, ragged or non-finite prediction gives no band,
// for regression and for a classifier's probabilities alike, so the run
// keeps its last good one.
func TestBandRejects(t *testing.T) {
	for _, task := range []sim.Task{sim.Regression, sim.Classification} {
		d := &sim.Dataset{Task: task, XScale: sim.Identity, YScale: sim.Identity}
		for name, p := range map[string]sim.Predictive{
			"no grid":    {Samples: [][]float64{{}}},
			"no samples": {X: []float64{0, 1}},
			"ragged":     {X: []float64{0, 1}, Samples: [][]float64{{0.1, 0.2}, {0.3}}},
			"NaN":        {X: []float64{0, 1}, Samples: [][]float64{{0.1, math.NaN()}, {0.3, 0.4}}},
		} {
			if b := makeBand(p, d, 2); b != nil {
				t.Errorf("%s, %s: band %+v, want none", task, name, b)
			}
		}
		ok := sim.Predictive{X: []float64{0, 1}, Samples: [][]float64{{0.1, 0.2}, {0.3, 0.4}}}
		if b := makeBand(ok, d, 5); b == nil || len(b.Samples) != 2 {
			t.Errorf("%s: band %+v, want one with both samples", task, b)
		}
	}
}
