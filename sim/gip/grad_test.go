package gip

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// evalLoss is −ELBO/N from the plain float64 path with the trainer's noise.
func evalLoss(m *Method, tr *trainer) float64 {
	eps := make([][]float64, len(tr.eps[0]))
	for l, e := range tr.eps[0] {
		eps[l] = e.RawMatrix().Data
	}
	ev := newEvaluator(m, m.d.N())
	r := m.pass(ev, m.d.X, eps, true)
	return -(m.logLik(ev) - r.kl) / float64(m.d.N())
}

// The tape and the plain evaluation path compute the same ELBO for the same
// noise (both float64; they differ only in the order of operations).
func TestTapeMatchesEvaluation(t *testing.T) {
	m := newTest(t, model.DefaultArch(), gapData(5, 100), nil, 5)
	for range 20 {
		m.Step()
	}
	tr := newTrainer(m)
	tr.fillNoise(m)
	elbo, _, ok := m.gradStep(tr)
	want := -evalLoss(m, tr) * float64(m.d.N())
	if !ok || math.Abs(elbo-want) > 1e-9*math.Max(1, math.Abs(want)) {
		t.Errorf("tape ELBO %.12g, evaluation ELBO %.12g", elbo, want)
	}
}

// Central finite differences (h = 1e−5, truncation O(h²) and rounding
// O(ε|f|/h), both ~1e−10 here) of the loss with fixed noise E against the
// tape's gradients for U₀, every V_l, every log λ_l and log σ_n.
func TestFiniteDifferenceGradients(t *testing.T) {
	m := newTest(t, model.Arch{Widths: []int{1, 6, 5, 1}}, gapData(6, 12), sim.Controls{ctlInducing: sim.Num(7)}, 6)
	r := rand.New(rand.NewPCG(6, 6))
	for l := range m.v {
		for i := range m.v[l].RawMatrix().Data {
			m.v[l].RawMatrix().Data[i] = r.NormFloat64()
		}
		for i := range m.logLam[l].RawMatrix().Data {
			m.logLam[l].RawMatrix().Data[i] = r.NormFloat64()
		}
	}
	tr := newTrainer(m)
	tr.fillNoise(m)
	if _, _, ok := m.gradStep(tr); !ok {
		t.Fatal(tr.t.Err())
	}
	names := []string{"U0"}
	for l := range m.v {
		names = append(names, "V"+string(rune('1'+l)))
	}
	for l := range m.logLam {
		names = append(names, "logλ"+string(rune('1'+l)))
	}
	names = append(names, "logσ")
	const h = 1e-5
	checked := 0
	for i, p := range tr.params {
		g := tr.grads[i].RawMatrix().Data
		data := p.RawMatrix().Data
		for j := range data {
			x := data[j]
			data[j] = x + h
			up := evalLoss(m, tr)
			data[j] = x - h
			dn := evalLoss(m, tr)
			data[j] = x
			fd := (up - dn) / (2 * h)
			if math.Abs(fd-g[j]) > 1e-6*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s[%d]: tape %.10g, finite difference %.10g", names[i], j, g[j], fd)
			}
			checked++
		}
	}
	t.Logf("checked %d partial derivatives", checked)
}
