package mcmc

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// fdCheck compares a gradient with central finite differences of f.
func fdCheck(t *testing.T, label string, f func([]float64) float64, th, grad []float64, tol float64) {
	t.Helper()
	const h = 1e-6
	x := append([]float64(nil), th...)
	for i := range x {
		x[i] = th[i] + h
		fp := f(x)
		x[i] = th[i] - h
		fm := f(x)
		x[i] = th[i]
		fd := (fp - fm) / (2 * h)
		if math.Abs(fd-grad[i]) > tol*(1+math.Abs(fd)) {
			t.Errorf("%s: d/dθ%d = %.9g, finite difference %.9g", label, i, grad[i], fd)
		}
	}
}

func TestLinearGradient(t *testing.T) {
	d := loadData(t, "linreg")
	l := &linear{x: d.X, y: d.Y}
	g := make([]float64, 3)
	for _, th := range [][]float64{{-1, 2, math.Log(0.5)}, {0.3, -0.7, 0.4}, {2, 5, -1.5}} {
		lp := l.logpGrad(th, g)
		if got := l.logp(th); math.Abs(got-lp) > 1e-12*math.Abs(lp) {
			t.Errorf("logp %v, logpGrad %v", got, lp)
		}
		fdCheck(t, "linear", l.logp, th, g, 1e-6)
		// A minibatch is the prior plus N/n times the batch's likelihood.
		batch := []int{3, 7, 11, 19}
		wantLp := func(th []float64) float64 {
			var ll float64
			for _, i := range batch {
				ll += numeric.NormalLogPDF(d.Y[i], th[0]+th[1]*d.X[i], math.Exp(th[2]))
			}
			return ll*float64(d.N())/float64(len(batch)) + th[2]
		}
		lpb := l.logpGradBatch(th, g, batch)
		if w := wantLp(th); math.Abs(lpb-w) > 1e-9*math.Abs(w) {
			t.Errorf("batch logp %v, want %v", lpb, w)
		}
		fdCheck(t, "linear batch", wantLp, th, g, 1e-6)
	}
}

// TestExactLinearByQuadrature checks the closed-form moments used below
// against a direct 3-D quadrature of exp(log π) of the sampled target, i.e.
// it checks that sampling log σ with its Jacobian e^s gives the posterior of
// a flat prior on σ > 0, and the Inv-Gamma((N−3)/2, S/2) shape of the package documentation.
func TestExactLinearByQuadrature(t *testing.T) {
	d := loadData(t, "linreg")
	ex := exactLinear(d.X, d.Y)
	l := &linear{x: d.X, y: d.Y}
	// Grids over ±9 posterior sds (b0, b) and s = log σ in [log 0.25, log 1.6].
	const n = 100
	lo := [3]float64{ex.mean[0] - 9*ex.sd[0], ex.mean[1] - 9*ex.sd[1], math.Log(0.25)}
	hi := [3]float64{ex.mean[0] + 9*ex.sd[0], ex.mean[1] + 9*ex.sd[1], math.Log(1.6)}
	var step [3]float64
	for i := range step {
		step[i] = (hi[i] - lo[i]) / n
	}
	th := make([]float64, 3)
	ref := l.logp([]float64{ex.mean[0], ex.mean[1], math.Log(ex.mean[2])})
	var z float64
	var m1, m2 [3]float64
	for i := range n {
		th[0] = lo[0] + (float64(i)+0.5)*step[0]
		for j := range n {
			th[1] = lo[1] + (float64(j)+0.5)*step[1]
			for k := range n {
				th[2] = lo[2] + (float64(k)+0.5)*step[2]
				w := math.Exp(l.logp(th) - ref)
				v := [3]float64{th[0], th[1], math.Exp(th[2])}
				z += w
				for q := range 3 {
					m1[q] += w * v[q]
					m2[q] += w * v[q] * v[q]
				}
			}
		}
	}
	for q, name := range []string{"b0", "b", "sigma"} {
		mean := m1[q] / z
		sd := math.Sqrt(m2[q]/z - mean*mean)
		// Midpoint rule on a smooth integrand over 100 cells: relative
		// errors far below 1e-3; the tails beyond the grid hold < 1e-6.
		if math.Abs(mean-ex.mean[q]) > 1e-3*math.Abs(ex.mean[q]) || math.Abs(sd-ex.sd[q]) > 2e-3*ex.sd[q] {
			t.Errorf("%s: quadrature mean %.6f sd %.6f, closed form %.6f %.6f", name, mean, sd, ex.mean[q], ex.sd[q])
		}
	}
}

// Run lengths on linreg: enough draws that each sampler's MCSE is a few
// percent of the posterior sd while the package's tests stay fast.
var linregRuns = []struct {
	k      kind
	c      sim.Controls
	steps  int
	minESS float64
}{
	{kindMetropolis, sim.Controls{"step": sim.Num(0.08)}, 30_000, 1000},
	{kindSGLD, sim.Controls{"step": sim.Num(1e-3)}, 60_000, 1000},
	{kindHMC, nil, 6_000, 1000},
	{kindNUTS, nil, 6_000, 1000},
}

// TestLinregExactPosterior is issue 5's check: on linreg every sampler's
// posterior means and sds of b0, b and σ agree with the exact posterior
// within 4 Monte Carlo standard errors; HMC and NUTS reach R-hat < 1.01.
// SGLD (step 1e-3, full batch as N = 30 < 32) is biased by O(ε): the ULA
// variance of a Gaussian of variance s² is s²/(1 − ε/(4s²)), here < 1%
// above the target for the narrowest direction, below its ~3% MCSE.
func TestLinregExactPosterior(t *testing.T) {
	d := loadData(t, "linreg")
	ex := exactLinear(d.X, d.Y)
	for _, r := range linregRuns {
		t.Run(r.k.name(), func(t *testing.T) {
			m := newSampler(t, r.k, "linear")
			c := sim.Controls{"warmup": sim.Num(1000)}
			for k, v := range r.c {
				c[k] = v
			}
			run(t, m, d, c, 7, r.steps)
			t.Logf("acceptance %.3f, step %.4g, divergences %d, gradients %d", m.AcceptanceRate(), m.StepSize(), m.Divergences(), m.GradEvals())
			for j, p := range m.Params() {
				ch := m.Draws(p)
				if e := numeric.ESSBulk(ch); e < r.minESS {
					t.Errorf("%s: bulk ESS %.0f < %.0f", p, e, r.minESS)
				}
				checkMoments(t, p, ch, ex.mean[j], ex.sd[j])
				if r.k == kindHMC || r.k == kindNUTS {
					if rh := numeric.RHat(ch); !(rh < 1.01) {
						t.Errorf("%s: R-hat %.4f, want < 1.01", p, rh)
					}
				}
			}
			if r.k == kindHMC || r.k == kindNUTS {
				if m.Divergences() != 0 {
					t.Errorf("%d divergences on a smooth posterior", m.Divergences())
				}
			}
		})
	}
}
