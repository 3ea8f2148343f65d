package gallery

import (
	"context"
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/sampler"
)

// The races: methods paced to equal budgets of gradient evaluations
// (Pace) against the grid's exact answer, on the seeds every claim holds
// on. Each claim was measured first on seeds 1–5; the bounds below are
// argued from the mathematics of the family or from Monte Carlo error,
// with the margins the comments give.
var raceSeeds = []uint64{1, 2, 3, 4, 5}

// race runs methods on cfg's target, one run each per seed, paced
// together to every budget in order, and calls check after each.
func race(t *testing.T, cfg func(method string, seed uint64) RunConfig, methods []string, budgets []int64, check func(seed uint64, budget int64, runs map[string]*Run)) {
	t.Helper()
	for _, seed := range raceSeeds {
		runs := make([]*Run, len(methods))
		byName := map[string]*Run{}
		for i, m := range methods {
			runs[i] = newRun(t, cfg(m, seed))
			byName[m] = runs[i]
		}
		for _, b := range budgets {
			if err := Pace(context.Background(), runs, b); err != nil {
				t.Fatal(err)
			}
			check(seed, b, byName)
		}
	}
}

// covMeanField is mean-field's covariance error at its reverse-KL optimum
// on the unit-sd Gaussian with correlation ρ: q's sds are √(1−ρ²) and its
// correlation 0 (GALLERY.md), so C − C* has diagonal −ρ² and off-diagonal
// −ρ, and the error is √(2ρ⁴ + 2ρ²) / √(2 + 2ρ²).
func covMeanField(rho float64) float64 {
	return math.Sqrt(2*math.Pow(rho, 4)+2*rho*rho) / math.Sqrt(2+2*rho*rho)
}

// TestRaceGaussian: on the correlated Gaussian (ρ = 0.9) at equal gradient
// evaluations, NUTS's covariance error falls below mean-field's, which
// stays at its family's floor, while full-rank, whose family holds the
// target, is the closest of the three.
//
// Bounds. Mean-field: from 4,000 evaluations on, every point of its
// history is within 0.03 of covMeanField(0.9) ≈ 0.900: the error is the
// family's (its optimum is too narrow), and what moves it is the
// optimiser's noise at a fixed learning rate, measured at ±0.011 over the
// seeds (0.03 is about three times that). Full-rank: below 0.02 from
// 16,000 on (measured ≤ 0.001). NUTS at 64,000 and 128,000 evaluations
// (≥ 12,000 kept draws over 4 chains): the relative Frobenius error of a
// sample covariance of n effectively independent Gaussian draws has sd
// ≈ √((4 + 2(1+ρ²))/n)/‖C*‖ = 1.45/√n; with an ESS of a few hundred for
// the second moments, that is below 0.1, and the bound 0.3 is three of
// those (measured at most 0.097 at 64,000).
func TestRaceGaussian(t *testing.T) {
	if testing.Short() {
		t.Skip("races three methods to 128,000 gradient evaluations on five seeds")
	}
	floor := covMeanField(0.9)
	race(t, gaussian, []string{"nuts", "mfvi", "fullrank"}, []int64{16_000, 64_000, 128_000}, func(seed uint64, b int64, runs map[string]*Run) {
		for _, p := range runs["mfvi"].History(nil) {
			if p.Evals >= 4000 && math.Abs(float64(p.CovError)-floor) > 0.03 {
				t.Errorf("seed %d: mean-field's covariance error at %d evaluations is %.3f, want its family's %.3f ± 0.03", seed, p.Evals, p.CovError, floor)
			}
		}
		fr := runs["fullrank"].Measure()
		if fr.CovError > 0.02 {
			t.Errorf("seed %d, %d evaluations: full-rank's covariance error %.3f, want below 0.02", seed, b, fr.CovError)
		}
		if b < 64_000 {
			return // NUTS is in warm-up
		}
		nuts, mf := runs["nuts"].Measure(), runs["mfvi"].Measure()
		if !(nuts.CovError < 0.3 && nuts.CovError < mf.CovError) {
			t.Errorf("seed %d, %d evaluations: NUTS's covariance error %.3f, want below 0.3 and mean-field's %.3f", seed, b, nuts.CovError, mf.CovError)
		}
	})
}

// TestRaceFunnel: on Neal's funnel (centred) at equal gradient
// evaluations, neither Gaussian family gets the covariance: both stay
// above 0.95 at every budget from 1,000 on (they start wider and shrink
// into the neck), while NUTS at 256,000 is below 0.8 on every
// seed.
//
// Bounds. The funnel's covariance is all x's variance, E e^v = e^{9/2}
// ≈ 90, carried by its mouth (v ≫ 0); a reverse-KL Gaussian fits the bulk
// (sd x of order one) and misses nearly all of it, so its error is near 1
// whatever the seed (measured 0.962–0.994 over the history). NUTS's error
// is a Monte Carlo one on a heavy-tailed x (Var x² / (E x²)² = 3e⁹ − 1),
// large and seed-dependent: measured 0.03–0.59 at 256,000; 0.8 keeps a
// margin of 0.2 over the worst seed, and 0.15 below the families' floor.
// NUTS keeps the identity metric here, the one those numbers are of: with
// the metric adapted to a window's variance of x (as heavy-tailed) its
// chains reach further into the mouth and the same estimator overshoots
// instead (measured 0.39–2.99 over the seeds; at 2.99 the draws' sd of x
// is 19, the exact 9.5).
func TestRaceFunnel(t *testing.T) {
	if testing.Short() {
		t.Skip("races three methods to 256,000 gradient evaluations on five seeds")
	}
	funnel := func(m string, seed uint64) RunConfig {
		c := RunConfig{Target: "funnel", Method: m, Seed: seed}
		if m == "nuts" {
			c.MethodControls = sim.Controls{"metric": sim.Choice(sampler.MetricUnit)}
		}
		return c
	}
	race(t, funnel, []string{"nuts", "mfvi", "fullrank"}, []int64{256_000}, func(seed uint64, b int64, runs map[string]*Run) {
		for _, m := range []string{"mfvi", "fullrank"} {
			for _, p := range runs[m].History(nil) {
				if p.Evals >= 1000 && p.CovError < 0.95 {
					t.Errorf("seed %d: %s's covariance error at %d evaluations is %.3f, want above 0.95", seed, m, p.Evals, p.CovError)
				}
			}
		}
		if nuts := runs["nuts"].Measure(); !(nuts.CovError < 0.8) {
			t.Errorf("seed %d, %d evaluations: NUTS's covariance error %.3f, want below 0.8", seed, b, nuts.CovError)
		}
	})
}
