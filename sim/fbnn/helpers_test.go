package fbnn

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

// newMethod returns an initialised method on d.
func newMethod(t testing.TB, d *sim.Dataset, c sim.Controls, seed uint64) *Method {
	t.Helper()
	mm, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	m := mm.(*Method)
	if _, err := sim.Init(m, d, c, numeric.NewRand(seed)); err != nil {
		t.Fatal(err)
	}
	return m
}

func loadData(t testing.TB, name string, seed uint64) *sim.Dataset {
	t.Helper()
	d, err := datasets.Load(name, seed)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// surrogateLoss returns the loss whose gradient Step follows, for the draws
// in m.st and with the SSGE score in m.st.score held fixed (it is a
// stop-gradient in the surrogate):
//
//	−(1/(k·b)) Σ_i Σ_batch log N(y; f_i, σ²) + [CE(f̃) + (1/k) Σ_i ĝ_iᵀ f̃_i]/N.
func surrogateLoss(m *Method) float64 {
	st := m.st
	for i, l := range m.ls {
		m.std[i] = math.Exp(l)
	}
	m.forward(st)
	f := st.net.out
	sig := m.noise
	var ll float64
	for i := range st.k {
		for j, idx := range st.idx {
			ll += numeric.NormalLogPDF(m.y[idx], f[i*st.n+j], sig)
		}
	}
	ce, ok := crossEntropy(m.prior, st.xs, st.ft, st.a, st.z, m.inj)
	if !ok {
		panic("cross-entropy failed")
	}
	var ent float64
	for i := range st.k {
		for j := range st.n {
			ent += st.score.At(i, j) * st.ft.At(i, j)
		}
	}
	kf, nf := float64(st.k), float64(len(m.x))
	return -ll/(kf*float64(st.b)) + (ce+ent/kf)/nf
}
