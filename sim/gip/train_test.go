package gip

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// Trained on cubic gap data, the BNN's ELBO — a lower bound on its
// evidence — must beat the exact evidence of Bayesian linear regression at
// its best noise level (type-II maximum likelihood over a grid), and the
// epistemic spread must be larger in the gap than on the data.
func TestTrainingBeatsLinearEvidence(t *testing.T) {
	d := gapData(21, 40)
	m := newTest(t, model.Arch{Widths: []int{1, 20, 20, 1}}, d, sim.Controls{ctlInducing: sim.Num(40)}, 21)
	for range 2000 {
		m.Step()
	}
	const S = 50
	var elbo float64
	for range S {
		elbo += m.ELBO() / S
	}

	lin := newTest(t, model.Arch{Widths: []int{1, 1}}, d, sim.Controls{ctlInducing: sim.Num(40)}, 21)
	best := math.Inf(-1)
	for ls := -4.0; ls <= 1; ls += 0.05 {
		best = math.Max(best, logMarginal(t, lin, math.Exp(ls)))
	}
	d.GapCentre = 0
	ratio := inBetweenRatio(m, d, 500)
	t.Logf("ELBO %.2f, best linear log evidence %.2f, in-between ratio %.2f", elbo, best, ratio)
	if elbo < best+10 {
		t.Errorf("ELBO %.2f does not beat the linear model's evidence %.2f by 10 nats", elbo, best)
	}
	if ratio < 2 {
		t.Errorf("in-between ratio %.2f, want the gap at least twice as uncertain as the data", ratio)
	}
}
