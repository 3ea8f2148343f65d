package gip

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// smallMethod is a 1→8→8→1 GIP on 20 gap-like points with 10 inducing
// points and random pseudo-data, so no conditional is trivial.
func smallMethod(t testing.TB, seed uint64) *Method {
	m := newTest(t, model.Arch{Widths: []int{1, 8, 8, 1}}, gapData(seed, 20), sim.Controls{ctlInducing: sim.Num(10)}, seed)
	r := rand.New(rand.NewPCG(seed, 9))
	for l := range m.v {
		for i := range m.v[l].RawMatrix().Data {
			m.v[l].RawMatrix().Data[i] = r.NormFloat64()
		}
		for i := range m.logLam[l].RawMatrix().Data {
			m.logLam[l].RawMatrix().Data[i] = 2*r.Float64() - 1
		}
	}
	return m
}

// Per layer, E_q[log p(W_l) − log q(W_l|W_<l) | W_<l] = −KL_l, so the
// per-sample difference (log p − log q) − (−Σ KL_l) has mean zero.
func TestDensityBookkeeping(t *testing.T) {
	m := smallMethod(t, 11)
	ev := m.dataEvaluator()
	const S = 4000
	diff := make([]float64, S)
	for s := range diff {
		r := m.pass(ev, m.d.X, nil, true)
		diff[s] = r.logP - r.logQ + r.kl
	}
	mu, se := numeric.MeanSE(diff)
	if se == 0 || math.Abs(mu) > 4*se {
		t.Errorf("mean of log p − log q + KL = %g ± %g, want 0 within 4 s.e.", mu, se)
	}
	t.Logf("mean(log p − log q + KL) = %.4f ± %.4f", mu, se)
}

// IWBO₁ is an unbiased estimate of the ELBO; E[IWBO_k] is non-decreasing in
// k. Checked on a briefly trained model, to 4 standard errors of the
// difference of independent Monte Carlo means.
func TestIWBOProperties(t *testing.T) {
	m := smallMethod(t, 12)
	for range 300 {
		m.Step()
	}
	const S = 3000
	elbo, iw1 := make([]float64, S), make([]float64, S)
	for i := range S {
		elbo[i] = m.ELBO()
		iw1[i] = m.IWBO(1)
	}
	me, se := numeric.MeanSE(elbo)
	mi, si := numeric.MeanSE(iw1)
	if d := math.Abs(me - mi); d > 4*math.Hypot(se, si) {
		t.Errorf("mean ELBO %g ± %g, mean IWBO₁ %g ± %g", me, se, mi, si)
	}
	t.Logf("ELBO %.3f ± %.3f, IWBO_1 %.3f ± %.3f", me, se, mi, si)

	prev, prevSE := mi, si
	for _, k := range []int{8, 64} {
		reps := make([]float64, 4096/k)
		for i := range reps {
			reps[i] = m.IWBO(k)
		}
		mk, sk := numeric.MeanSE(reps)
		t.Logf("IWBO_%d %.3f ± %.3f", k, mk, sk)
		if mk < prev-4*math.Hypot(prevSE, sk) {
			t.Errorf("E[IWBO_%d] = %g ± %g below the previous k's %g ± %g", k, mk, sk, prev, prevSE)
		}
		prev, prevSE = mk, sk
	}
}
