package gp

import (
	"fmt"
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// viParams lists gpvi's parameters as (name, get, set) for finite
// differences: every α_n and log λ_n, the kernel's log-hyperparameters and
// the log noise scale.
func viParams(m *VI) []struct {
	name string
	ptr  *float64
	grad func() float64
} {
	var ps []struct {
		name string
		ptr  *float64
		grad func() float64
	}
	add := func(name string, p *float64, g func() float64) {
		ps = append(ps, struct {
			name string
			ptr  *float64
			grad func() float64
		}{name, p, g})
	}
	a, ga := m.alpha.RawMatrix().Data, m.gAlpha.RawMatrix().Data
	r, gr := m.rho.RawMatrix().Data, m.gRho.RawMatrix().Data
	for i := range a {
		add(fmt.Sprintf("alpha[%d]", i), &a[i], func() float64 { return ga[i] })
		add(fmt.Sprintf("loglambda[%d]", i), &r[i], func() float64 { return gr[i] })
	}
	gh := m.gHyp.RawMatrix().Data
	add("log variance", &m.kern.logVar, func() float64 { return gh[0] })
	add("log lengthscale", &m.kern.logLen, func() float64 { return gh[1] })
	if m.kern.periodic {
		add("log period", &m.kern.logPer, func() float64 { return gh[2] })
	}
	if m.lik != likBernoulli {
		ls := m.logScale.RawMatrix().Data
		add("log scale", &ls[0], func() float64 { return m.gLogScale.At(0, 0) })
	}
	return ps
}

// The loss −F/N against central differences, h = 1e-5, for every parameter
// and every likelihood, kernel and deterministic expectation rule (the
// adaptive rule's panels move with m and v, but it is accurate to ~1e-10,
// so its finite differences still agree to ~1e-5·1e-10/h ≪ 1e-6). Truncation error is O(h²·F”') ≈ 1e-10
// and rounding O(ε|F|/h) ≈ 1e-10 for |F/N| ~ 1, so 1e-6 (relative to
// max(1, |g|)) flags any real error while never failing on noise.
func TestFreeEnergyGradients(t *testing.T) {
	cases := []struct {
		lik, kern string
		task      sim.Task
	}{
		{Gaussian, RBF, sim.Regression},
		{Gaussian, Periodic, sim.Regression},
		{Cauchy, RBF, sim.Regression},
		{Cauchy, Periodic, sim.Regression},
		{Bernoulli, RBF, sim.Classification},
		{Bernoulli, Periodic, sim.Classification},
	}
	for _, tc := range cases {
		for _, expect := range []string{GaussHermite, Adaptive} {
			d := toyData(12, tc.task)
			m := newVI(t, d, sim.Controls{"likelihood": sim.Choice(tc.lik), "kernel": sim.Choice(tc.kern),
				"noise": sim.Num(0.4), "lengthscale": sim.Num(1.3), "variance": sim.Num(1.7), "period": sim.Num(3.1)})
			r := numeric.NewRand(5)
			for i := range m.n {
				m.alpha.Set(i, 0, 0.3*r.NormFloat64())
				m.rho.Set(i, 0, 0.5*r.NormFloat64())
			}
			loss := func() float64 {
				m.kernDirty = true // the loop may have moved a hyperparameter
				fe, _, _ := m.evaluate(false, expect)
				return -fe / float64(m.n)
			}
			m.evaluate(true, expect)
			ps := viParams(m)
			analytic := make([]float64, len(ps))
			for i, p := range ps {
				analytic[i] = p.grad()
			}
			const h = 1e-5
			for i, p := range ps {
				old := *p.ptr
				*p.ptr = old + h
				up := loss()
				*p.ptr = old - h
				down := loss()
				*p.ptr = old
				fd := (up - down) / (2 * h)
				if math.Abs(fd-analytic[i]) > 1e-6*max(1, math.Abs(fd)) {
					t.Errorf("%s/%s/%s: d loss/d %s = %.10g, finite difference %.10g", tc.lik, tc.kern, expect, p.name, analytic[i], fd)
				}
			}
		}
	}
}

// gp-exact's −log p(y)/N against central differences in the kernel's
// log-hyperparameters and log σ (tolerance as above).
func TestLogMarginalGradients(t *testing.T) {
	for _, kern := range []string{RBF, Periodic} {
		d := toyData(15, sim.Regression)
		m := newExact(t, d, sim.Controls{"kernel": sim.Choice(kern), "noise": sim.Num(0.4), "lengthscale": sim.Num(1.3), "variance": sim.Num(1.7), "period": sim.Num(3.1)})
		m.evaluate(true)
		g := m.gHyp.RawMatrix().Data
		ln := m.logNoise.RawMatrix().Data
		ps := []struct {
			name string
			ptr  *float64
			g    float64
		}{{"log variance", &m.kern.logVar, g[0]}, {"log lengthscale", &m.kern.logLen, g[1]}, {"log noise", &ln[0], m.gLogNoise.At(0, 0)}}
		if kern == Periodic {
			ps = append(ps, struct {
				name string
				ptr  *float64
				g    float64
			}{"log period", &m.kern.logPer, g[2]})
		}
		const h = 1e-5
		for _, p := range ps {
			old := *p.ptr
			*p.ptr = old + h
			m.kernDirty = true
			up := -m.evaluate(false) / float64(m.n)
			*p.ptr = old - h
			m.kernDirty = true
			down := -m.evaluate(false) / float64(m.n)
			*p.ptr = old
			fd := (up - down) / (2 * h)
			if math.Abs(fd-p.g) > 1e-6*max(1, math.Abs(fd)) {
				t.Errorf("%s: d loss/d %s = %.10g, finite difference %.10g", kern, p.name, p.g, fd)
			}
		}
	}
}
