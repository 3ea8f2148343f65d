package mcmc

import (
	"slices"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// After SetData the chains carry on from where they were, the warm-up
// starts again and the old draws are gone; the draws then recover the
// exact posterior of the new data (the linear model, flat priors).
func TestSetDataRestartsWarmupAndRecoversNewPosterior(t *testing.T) {
	d := loadData(t, "linreg")
	m := newSampler(t, kindNUTS, "linear")
	run(t, m, d, sim.Controls{"warmup": sim.Num(300)}, 7, 500)
	if m.Warmup() {
		t.Fatal("still warming up after 500 of 300 warm-up transitions")
	}
	before := make([][]float64, len(m.chains))
	for k, c := range m.chains {
		before[k] = slices.Clone(c.theta)
	}
	// New data: every other point, targets reflected, so the posterior moves.
	e := *d
	e.X, e.Y = nil, nil
	for i := 0; i < d.N(); i += 2 {
		e.X, e.Y = append(e.X, d.X[i]), append(e.Y, -d.Y[i])
	}
	if err := m.SetData(&e); err != nil {
		t.Fatal(err)
	}
	if !m.Warmup() {
		t.Fatal("the warm-up did not start again")
	}
	for k, c := range m.chains {
		if !slices.Equal(c.theta, before[k]) {
			t.Fatalf("chain %d moved from %v to %v on SetData; want it to carry on", k, before[k], c.theta)
		}
	}
	for _, p := range m.Params() {
		for k, ch := range m.Draws(p) {
			if len(ch) != 0 {
				t.Fatalf("%s: chain %d kept %d draws of the old posterior", p, k, len(ch))
			}
		}
	}
	for range 300 + 4000 {
		m.Step()
	}
	ex := exactLinear(e.X, e.Y)
	for j, p := range m.Params() {
		checkMoments(t, p, m.Draws(p), ex.mean[j], ex.sd[j]) // within 4 MCSE, as TestLinregExactPosterior
	}
}
