package fbnn

import (
	"math"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/gp"
)

// bandStats compares a trained fBNN's predictive band on d.Grid with the
// exact GP posterior under the same kernel hyperparameters and noise.
type bandStats struct {
	within2    float64 // fraction of grid points with std ratio in [1/2, 2]
	meanOK     float64 // fraction with |mean − GP mean| ≤ 2 GP sd
	medRatio   float64 // median of fBNN std / GP std
	minR, maxR float64
}

// compareToGP trains m for steps and compares Predict's moments (from
// samples draws) with gp-exact's analytic ones.
func compareToGP(t testing.TB, m *Method, d *sim.Dataset, steps, samples int) bandStats {
	t.Helper()
	for range steps {
		m.Step()
	}
	xs := d.Grid
	p := m.Predict(xs, samples)
	n := len(xs)
	mean, std := make([]float64, n), make([]float64, n)
	col := make([]float64, samples)
	for j := range n {
		for s := range samples {
			col[s] = p.Samples[s][j]
		}
		mean[j], std[j] = numeric.MeanStd(col)
	}
	gm, gs := exactGP(t, d, m.prior, m.noise)
	var st bandStats
	ratios := make([]float64, n)
	for j := range n {
		r := std[j] / gs[j]
		ratios[j] = r
		if r >= 0.5 && r <= 2 {
			st.within2++
		}
		if math.Abs(mean[j]-gm[j]) <= 2*gs[j] {
			st.meanOK++
		}
	}
	st.within2 /= float64(n)
	st.meanOK /= float64(n)
	slices.Sort(ratios)
	st.medRatio, st.minR, st.maxR = ratios[n/2], ratios[0], ratios[n-1]
	return st
}

// exactGP returns gp-exact's posterior mean and std of f on d.Grid with the
// kernel k and noise std held fixed.
func exactGP(t testing.TB, d *sim.Dataset, k gp.Kernel, noise float64) (mean, std []float64) {
	t.Helper()
	g, err := gp.NewExact("")
	if err != nil {
		t.Fatal(err)
	}
	kern := gp.RBF
	if k.Periodic {
		kern = gp.Periodic
	}
	c := sim.Controls{
		"kernel": sim.Choice(kern), "variance": sim.Num(k.Variance), "lengthscale": sim.Num(k.Lengthscale),
		"period": sim.Num(k.Period), "noise": sim.Num(noise), "learn_kernel": sim.Num(0), "learn_noise": sim.Num(0),
	}
	if _, err := sim.Init(g, d, c, numeric.NewRand(1)); err != nil {
		t.Fatal(err)
	}
	mean, std = make([]float64, len(d.Grid)), make([]float64, len(d.Grid))
	if !g.(sim.AnalyticPredictive).PredictMoments(d.Grid, mean, std) {
		t.Fatal("gp-exact: no moments")
	}
	return mean, std
}
