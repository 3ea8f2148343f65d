package gp

import (
	"math"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

func rmseTruth(d *sim.Dataset, mean []float64) float64 {
	var s float64
	for i, x := range d.Grid {
		e := mean[i] - d.Truth(x)
		s += e * e
	}
	return math.Sqrt(s / float64(len(d.Grid)))
}

// train runs Adam at 0.05, then 0.01.
func train(t testing.TB, m sim.Method, n1, n2 int) {
	t.Helper()
	for _, ph := range []struct {
		lr float64
		n  int
	}{{0.05, n1}, {0.01, n2}} {
		if err := sim.Set(m, nil, "lr", sim.Num(ph.lr)); err != nil {
			t.Fatal(err)
		}
		for range ph.n {
			m.Step()
		}
	}
}

// On gp-cauchy the Cauchy-likelihood gpvi's predictive median (the mean of
// the Gaussian q(f*)) is closer to the true function on the grid than the
// Gaussian-noise gp-exact's posterior mean, both with the kernel the data
// came from (variance 1, lengthscale 1) and noise scale e^−2 (gpvi learns
// its γ). Measured RMSEs are logged; the comparison is the claim.
func TestRobustRegressionBeatsExact(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		d, err := datasets.Load("gp-cauchy", seed)
		if err != nil {
			t.Fatal(err)
		}
		e := newExact(t, d, nil)
		pe, _, err := e.Posterior(d.Grid)
		if err != nil {
			t.Fatal(err)
		}
		m := newVI(t, d, sim.Controls{"likelihood": sim.Choice(Cauchy)})
		train(t, m, 2000, 1000)
		pm, _, err := m.Posterior(d.Grid)
		if err != nil {
			t.Fatal(err)
		}
		rv, re := rmseTruth(d, pm), rmseTruth(d, pe)
		t.Logf("seed %d: RMSE to truth gpvi-cauchy %.4f (γ = %.3f), gp-exact %.4f", seed, rv, m.NoiseStd(), re)
		if rv >= re {
			t.Errorf("seed %d: gpvi-cauchy RMSE %.4f not below gp-exact's %.4f", seed, rv, re)
		}
	}
}

// On gp-classification, with the seed's kernel (variance e², the data's),
// the 95% band of p(x) = sigmoid(f), f ~ q(f*), contains the true p(x) at
// most grid points. The band's ends are sigmoid(mean ± 1.96 sd), the exact
// 2.5% and 97.5% quantiles of sigmoid(f) (sigmoid is monotone), and the
// band from 2000 Predict samples agrees to Monte Carlo error. Measured over
// seeds 1–6 after 5000 steps on the former 41-point grid: 41, 41, 35, 40,
// 39, 39 of 41 points; the test trains 2000 steps and asks for 80% on each
// of seeds 1–3, where it finds 201, 201 and 169 of 201 (84%).
// The exact band is deterministic for a seed (quadrature, no sampling), so 80% is the issue's
// "most of the range", not a Monte Carlo tolerance. (With the default variance 1 the prior
// is too narrow for this truth and coverage falls to 30–70%.)
func TestClassificationBandCoversTruth(t *testing.T) {
	if raceDetector {
		t.Skip("one goroutine's training: nothing for the race detector to find")
	}
	for seed := uint64(1); seed <= 3; seed++ {
		d, err := datasets.Load("gp-classification", seed)
		if err != nil {
			t.Fatal(err)
		}
		m := newVI(t, d, sim.Controls{"variance": sim.Num(math.E * math.E)})
		if m.Likelihood() != Bernoulli {
			t.Fatalf("auto likelihood on classification data is %s", m.Likelihood())
		}
		train(t, m, 1500, 500)
		mean, cov, err := m.Posterior(d.Grid)
		if err != nil {
			t.Fatal(err)
		}
		p := m.Predict(d.Grid, 2000)
		in, inMC := 0, 0
		col := make([]float64, len(p.Samples))
		for i, x := range d.Grid {
			sd := math.Sqrt(cov.At(i, i))
			lo, hi := numeric.Sigmoid(mean[i]-1.96*sd), numeric.Sigmoid(mean[i]+1.96*sd)
			truth := d.Truth(x)
			if truth >= lo && truth <= hi {
				in++
			}
			for s, f := range p.Samples {
				col[s] = f[i]
			}
			slices.Sort(col)
			mlo, mhi := numeric.Quantile(col, 0.025), numeric.Quantile(col, 0.975)
			// A 2.5% quantile from 2000 draws has sd ≈ √(.025·.975/2000)/density
			// ≈ 0.0035/density in probability units, the density of p =
			// sigmoid(f), f ~ N(m, sd²), at its quantile q being
			// φ(1.96)/(sd·q(1−q)). Five of those sds: over 201 points × 2
			// ends × 3 seeds a false alarm has odds below 1e-3 even if
			// every comparison were independent. (A flat 0.05 held on the
			// 41-point grid; on 201 points the upper tail, where the density
			// falls to ~0.16, strayed 0.06 at a few neighbouring points.)
			qsd := func(q float64) float64 { return 0.0035 * sd * q * (1 - q) / 0.0584 }
			if math.Abs(mlo-lo) > 5*qsd(lo) || math.Abs(mhi-hi) > 5*qsd(hi) {
				t.Errorf("seed %d x=%.2f: sampled band [%.3f, %.3f], exact [%.3f, %.3f]", seed, x, mlo, mhi, lo, hi)
			}
			if truth >= mlo && truth <= mhi {
				inMC++
			}
		}
		frac := float64(in) / float64(len(d.Grid))
		t.Logf("seed %d: band contains p(x) at %d/%d grid points (%.0f%%), sampled band %d/%d", seed, in, len(d.Grid), 100*frac, inMC, len(d.Grid))
		if frac < 0.8 {
			t.Errorf("seed %d: coverage %.2f < 0.8", seed, frac)
		}
	}
}
