package gallery

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/numeric"
)

// TestParetoK: k̂ estimates the shape of the importance ratios' right
// tail. For Gaussians q = N(0, Σq) and p = N(0, Σ), E_q[(p/q)^r] is
// finite iff (1−r)Σq⁻¹ + rΣ⁻¹ is positive definite. Full-rank's optimum
// is q = p, whose ratios are constant: k = 0 (the report's k̂ is 0 when
// they are constant to 1e-6 nats, and under 0.5, the level at which the
// estimate is pulled toward, when q is near p). Mean-field's on ρ = 0.9 is
// Σq = (1−ρ²)I, and along (1, 1), where Σ⁻¹'s eigenvalue is 1/(1+ρ),
// the moments stop at r = 1/(1 − (1−ρ²)/(1+ρ)) = 1/ρ: k = ρ = 0.9, past
// the threshold (0.7 at 4,000 draws) where importance sampling fails.
// The estimate's sd at k = 0.9 from the 4,000 draws' tail of 190 is
// about (1+k)/√190 ≈ 0.14, so 0.7 is 1.4 sd below, and the check is
// taken over three seeds' median.
func TestParetoK(t *testing.T) {
	var ks []float64
	for seed := range uint64(3) {
		for _, m := range []string{"mfvi", "fullrank"} {
			r := newRun(t, gaussian(m, 10+seed))
			if err := r.StepToBudget(context.Background(), 50_000); err != nil {
				t.Fatal(err)
			}
			k := float64(*r.Report().ParetoK)
			t.Logf("%s seed %d: k̂ %.3f", m, seed, k)
			if m == "fullrank" && k > 0.5 {
				t.Errorf("fullrank: k̂ %.3f, want about 0 (q = p)", k)
			}
			if m == "mfvi" {
				ks = append(ks, k)
			}
		}
	}
	slices.Sort(ks)
	if med := ks[1]; !(med > numeric.ParetoKThreshold(paretoDraws)) {
		t.Errorf("mfvi: median k̂ %.3f, want past %.2f (k = ρ = 0.9)", med, numeric.ParetoKThreshold(paretoDraws))
	}
}

// TestViewFamily: a fit's view holds q's density on the contour grid,
// which integrates to one over the box (q is within it but for a tail of
// less than 1e-4 at the optimum: the box is ±5 sd), its draws, and for
// SVGD its particles and no density.
func TestViewFamily(t *testing.T) {
	for _, m := range []string{"fullrank", "svgd"} {
		r := newRun(t, gaussian(m, 9))
		if err := r.StepToBudget(context.Background(), 50_000); err != nil {
			t.Fatal(err)
		}
		var v View
		r.View(&v)
		if m == "svgd" {
			if len(v.QDensity) != 0 || len(v.QDraws) != 100 {
				t.Errorf("svgd: %d density cells, %d particles, want 0 and 100", len(v.QDensity), len(v.QDraws))
			}
			continue
		}
		if len(v.QDraws) != QDraws || len(v.QDensity) != ContourSize*ContourSize {
			t.Fatalf("%s: %d draws, %d cells", m, len(v.QDraws), len(v.QDensity))
		}
		b := v.QBox
		cell := (b.XMax - b.XMin) * (b.YMax - b.YMin) / (ContourSize * ContourSize)
		var mass float64
		for _, d := range v.QDensity {
			mass += d * cell
		}
		// The midpoint rule on 64² cells of a Gaussian of sd 1 over a box
		// of about 10 sd: spacing 0.16 sd, an error far below 1e-3.
		if math.Abs(mass-1) > 1e-3 {
			t.Errorf("%s: q's density sums to %.5f over the box", m, mass)
		}
	}
}

// TestCoarseKL: the history's KL on the 64² subgrid agrees with the
// whole grid's for a Gaussian q and p (mean-field's optimum on ρ = 0.9):
// both are midpoint rules of one smooth integral, each far finer than
// the densities' scale, so they agree to 1e-6 nats.
func TestCoarseKL(t *testing.T) {
	r := newRun(t, gaussian("mfvi", 11))
	if err := r.StepToBudget(context.Background(), 20_000); err != nil {
		t.Fatal(err)
	}
	full, coarse := r.ex.Grid.KL(r.dens.LogDensity), r.coarseKL()
	if math.Abs(full-coarse) > 1e-6 {
		t.Errorf("KL %.8f on the grid, %.8f on the subgrid", full, coarse)
	}
}
