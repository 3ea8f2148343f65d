package livi

import (
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

func loadData(t testing.TB, name string) *sim.Dataset {
	t.Helper()
	d, err := datasets.Load(name, 1)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// newLIVI returns an initialised LIVI method on d.
func newLIVI(t testing.TB, d *sim.Dataset, modelName string, c sim.Controls, seed uint64) *Method {
	t.Helper()
	mm, err := New(modelName)
	if err != nil {
		t.Fatal(err)
	}
	m := mm.(*Method)
	if _, err := sim.Init(m, d, c, numeric.NewRand(seed)); err != nil {
		t.Fatal(err)
	}
	return m
}

// newPoint returns an initialised MAP (ensemble false) or ensemble on d.
func newPoint(t testing.TB, d *sim.Dataset, ensemble bool, modelName string, c sim.Controls, seed uint64) *Point {
	t.Helper()
	ctor := NewMAP
	if ensemble {
		ctor = NewEnsemble
	}
	mm, err := ctor(modelName)
	if err != nil {
		t.Fatal(err)
	}
	p := mm.(*Point)
	if _, err := sim.Init(p, d, c, numeric.NewRand(seed)); err != nil {
		t.Fatal(err)
	}
	return p
}

// predStd returns the std over samples of f at each input.
func predStd(p sim.Predictive) []float64 {
	out := make([]float64, len(p.X))
	col := make([]float64, len(p.Samples))
	for i := range p.X {
		for s, f := range p.Samples {
			col[s] = f[i]
		}
		_, out[i] = numeric.MeanStd(col)
	}
	return out
}
