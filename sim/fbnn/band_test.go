package fbnn

import (
	"fmt"
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
	rmseOut    float64 // RMSE of the mean to d.Truth outside the data's range (0 without a truth)
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
	if d.Truth != nil {
		lo, hi := slices.Min(d.X), slices.Max(d.X)
		var ss float64
		var c int
		for j, x := range xs {
			if x < lo || x > hi {
				e := mean[j] - d.Truth(x)
				ss += e * e
				c++
			}
		}
		if c > 0 {
			st.rmseOut = math.Sqrt(ss / float64(c))
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
	if !sim.ExtrasOf(g).PredictMoments(d.Grid, mean, std) {
		t.Fatal("gp-exact: no moments")
	}
	return mean, std
}

// bandSteps is the step at which TestBandAgainstExactGP compares fBNN with
// gp-exact: the band and mean settle by 6000–8000 steps at lr 3e-3
// (package documentation).
const bandSteps = 8000

// TestBandAgainstExactGP is issue 18's target: trained at its defaults for
// bandSteps steps on `gap` (rbf prior) and `periodic` (periodic prior),
// seeds 1–5, fBNN's predictive std on the grid is within a factor of 2 of
// gp-exact's (same kernel hyperparameters and noise, those fBNN fitted) at
// ≥ 80% of the grid points, and its mean within 2 GP posterior sd of the
// GP's mean at ≥ 80% of them, for every seed. The 80% is the issue's;
// reading the mean criterion with the same 80% is ours (the issue states
// no fraction, and "everywhere" would be decided by single grid points at
// the edge of a 7-period extrapolation). The median std ratio must lie in
// [½, 2] as well, so that a band right at only 80% of the points cannot
// pass while systematically too narrow or too wide.
//
// Tolerances: the fractions are the targets, not fitted ones. The
// std from 400 draws has a relative Monte Carlo error of 1/√800 ≈ 3.5%,
// and the mean an error of 0.05 fBNN sd ≈ 0.05 GP sd; either moves only
// grid points within that distance of a criterion's edge. Where the ratio
// runs close to ½ over a stretch of the grid that is more than a few
// points: `gap` seed 5's trained network gave 0.93 here and 0.98 with
// another 400 draws, so the fractions carry a Monte Carlo error up to about
// 0.05, and the measured values (the package doc, "Checks") should clear 0.8 by more than that: the closest is `periodic` seed
// 3's mean at 0.88; every other fraction is ≥ 0.92, and the median ratios
// lie in 0.85–1.18. The training itself is
// deterministic (fixed seeds), so the test is not flaky; it is a
// regression check at the seeds the issue names.
func TestBandAgainstExactGP(t *testing.T) {
	if testing.Short() {
		// Each case trains a network for 8000 steps (gap's took 135 s of CPU,
		// periodic's over 50), too long for -short even alone; -short's
		// scenario claims (handlers) still train fBNN on periodic to its
		// claim.
		t.Skip("trains ten networks for 8000 steps (a quarter of an hour of CPU or more): make check")
	}
	for _, tc := range []struct{ data, kernel string }{
		{"gap", KernelRBF},
		{"periodic", KernelPeriodic},
	} {
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(fmt.Sprintf("%s/seed%d", tc.data, seed), func(t *testing.T) {
				t.Parallel()
				d := loadData(t, tc.data, seed)
				m := newMethod(t, d, sim.Controls{"kernel": sim.Choice(tc.kernel)}, seed)
				s := compareToGP(t, m, d, bandSteps, 400)
				t.Logf("std within ×2 of gp-exact at %.2f of the grid, mean within 2 GP sd at %.2f, median std ratio %.3f [%.3f, %.3f], RMSE to the truth outside the data %.2f",
					s.within2, s.meanOK, s.medRatio, s.minR, s.maxR, s.rmseOut)
				if s.within2 < 0.8 {
					t.Errorf("std within a factor of 2 at %.2f of the grid, want ≥ 0.80", s.within2)
				}
				if s.meanOK < 0.8 {
					t.Errorf("mean within 2 GP sd at %.2f of the grid, want ≥ 0.80", s.meanOK)
				}
				if s.medRatio < 0.5 || s.medRatio > 2 {
					t.Errorf("median std ratio %.3f, want in [0.5, 2]", s.medRatio)
				}
			})
		}
	}
}
