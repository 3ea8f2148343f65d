package mcmc

import (
	"math"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// The held-σ target's gradient and minibatch estimate against finite
// differences and the sum of normal log densities.
func TestLinearHeldGradient(t *testing.T) {
	d := loadData(t, "linreg-offset")
	const sigma, s = 0.5, 1.7
	l := newLinearHeld(d.X, d.Y, sigma, s)
	tau := s / math.Sqrt2
	g := make([]float64, 2)
	for _, th := range [][]float64{{-1, 2}, {0.3, -0.7}, {2, 5}} {
		want := func(th []float64, batch []int) float64 {
			var ll float64
			for _, i := range batch {
				ll += numeric.NormalLogPDF(d.Y[i], th[0]+th[1]*d.X[i], sigma)
			}
			lp := numeric.NormalLogPDF(th[0], 0, tau) + numeric.NormalLogPDF(th[1], 0, tau)
			return ll*float64(d.N())/float64(len(batch)) + lp
		}
		all := make([]int, d.N())
		for i := range all {
			all[i] = i
		}
		// log π up to a constant: compare differences from a reference point.
		ref := []float64{0, 0}
		lp := l.logpGrad(th, g)
		if got, w := lp-l.logp(ref), want(th, all)-want(ref, all); math.Abs(got-w) > 1e-9*(1+math.Abs(w)) {
			t.Errorf("log π(θ) − log π(0) = %v, want %v", got, w)
		}
		fdCheck(t, "held", l.logp, th, g, 1e-6)
		batch := []int{3, 7, 11, 19}
		lpb := l.logpGradBatch(th, g, batch)
		if got, w := lpb-l.logpGradBatch(ref, make([]float64, 2), batch), want(th, batch)-want(ref, batch); math.Abs(got-w) > 1e-9*(1+math.Abs(w)) {
			t.Errorf("batch: %v, want %v", got, w)
		}
		fdCheck(t, "held batch", func(th []float64) float64 { return want(th, batch) }, th, g, 1e-6)
	}
}

// With the fixed_noise control HMC samples the same posterior as the VI
// methods: its means and sds of b0 and b agree with model.LinearPosterior's
// within 4 Monte Carlo standard errors (ESS-based, checkMoments), and its
// page's exact values and joint view carry that posterior, tilt included.
func TestHMCFixedNoiseExact(t *testing.T) {
	d := loadData(t, "linreg-offset")
	m := newSampler(t, kindHMC, model.Linear)
	c := sim.Controls{"warmup": sim.Num(500), model.FixedNoise: sim.Num(0.5), "prior_scale": sim.Num(1.5)}
	run(t, m, d, c, 7, 4000)
	exact, _ := model.LinearPosterior(d.X, d.Y, 0.5, 1.5/math.Sqrt2)
	sd := exact.SD()
	if p := m.Params(); len(p) != 2 || p[0] != "b0" || p[1] != "b" {
		t.Fatalf("params %v, want [b0 b] (σ is held)", p)
	}
	if m.NoiseStd() != 0.5 {
		t.Errorf("noise %v, want the held 0.5", m.NoiseStd())
	}
	for i, p := range m.Params() {
		checkMoments(t, p, m.Draws(p), exact.Mean[i], sd[i])
	}
	mom, ok := m.ExactPosterior(d, c)
	if !ok || mom["b0"] != (sim.Moments{Mean: exact.Mean[0], SD: sd[0]}) || mom["b"] != (sim.Moments{Mean: exact.Mean[1], SD: sd[1]}) || len(mom) != 2 {
		t.Errorf("ExactPosterior %v, want %+v", mom, exact)
	}
	j := m.Views()["joint"].(*model.Joint)
	if j.Exact == nil || *j.Exact != exact || j.ExactCorr != exact.Corr() || len(j.Chains) != 4 || len(j.B0) != 4*jointPerChain || len(j.B) != len(j.B0) || j.Warmup {
		t.Fatalf("joint %+v", j)
	}
	for i, p := range m.Params() {
		ch := m.Draws(p)
		var all []float64
		for _, c := range ch {
			all = append(all, c...)
		}
		mean, _ := numeric.MeanStd(all)
		if len(j.Moments) != 2 || math.Abs(j.Moments[i].Mean-mean) > 1e-12 {
			t.Errorf("joint's moments %+v, draws' mean of %s %v", j.Moments, p, mean)
		}
	}
	// The draws' correlation is the exact tilt: with ~1000 pooled, nearly
	// independent draws its s.e. is (1 − ρ²)/√1000 ≈ 0.007; 4 of those.
	if r := corr(j.B0, j.B); math.Abs(r-exact.Corr()) > 4*(1-r*r)/math.Sqrt(float64(len(j.B0))) {
		t.Errorf("draws' correlation %.4f, exact %.4f", r, exact.Corr())
	}
	// The warm-up paths start at the chains' dispersed starting points,
	// far outside the posterior, and end inside it.
	if len(j.Paths) != 4 || !j.PathDone {
		t.Fatalf("paths: %d chains, done %v", len(j.Paths), j.PathDone)
	}
	maha := func(p [2]float64) float64 {
		c := exact.Cov
		det := c[0][0]*c[1][1] - c[0][1]*c[0][1]
		d0, d1 := p[0]-exact.Mean[0], p[1]-exact.Mean[1]
		return math.Sqrt((c[1][1]*d0*d0 - 2*c[0][1]*d0*d1 + c[0][0]*d1*d1) / det)
	}
	var far float64
	for k, p := range j.Paths {
		if len(p) != pathLen+1 {
			t.Errorf("chain %d: path of %d states, want %d", k, len(p), pathLen+1)
		}
		far = max(far, maha(p[0]))
		reached := slices.IndexFunc(p, func(q [2]float64) bool { return maha(q) < 3 })
		t.Logf("chain %d: starts %.1f sd from the posterior mean, within 3 sd after %d transitions, ends %.1f sd away", k, maha(p[0]), reached, maha(p[len(p)-1]))
		// P(distance > 4.5) = e^(−4.5²/2) ≈ 4e-5 for a 2-D Gaussian draw.
		if maha(p[len(p)-1]) > 4.5 {
			t.Errorf("chain %d ends its path %.1f sd from the posterior mean", k, maha(p[len(p)-1]))
		}
	}
	if far < 5 {
		t.Errorf("the chains start at most %.1f sd from the posterior mean; warm-up has nothing to show", far)
	}
	// prior_scale acts live on the held target.
	if err := sim.Set(m, nil, "prior_scale", sim.Num(3)); err != nil {
		t.Fatal(err)
	}
	if g := m.Views()["joint"].(*model.Joint).Exact; g == nil || *g == exact {
		t.Error("prior_scale change did not change the exact posterior")
	}
}

func corr(a, b []float64) float64 {
	ma, sa := numeric.MeanStd(a)
	mb, sb := numeric.MeanStd(b)
	var c float64
	for i := range a {
		c += (a[i] - ma) * (b[i] - mb)
	}
	return c / float64(len(a)) / (sa * sb)
}
