package livi

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

// For livi, map and ensemble: SetData with the same points carries on bit
// for bit as a twin; with half of them the next step trains on them.
func TestSetData(t *testing.T) {
	d, err := datasets.Load("gap", 1)
	if err != nil {
		t.Fatal(err)
	}
	for name, newM := range map[string]func(string) (sim.Method, error){"livi": New, "map": NewMAP, "ensemble": NewEnsemble} {
		t.Run(name, func(t *testing.T) {
			mk := func() sim.Method {
				m, err := newM("")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := sim.Init(m, d, nil, numeric.NewRand(3)); err != nil {
					t.Fatal(err)
				}
				return m
			}
			a, b := mk(), mk()
			for range 3 {
				a.Step()
				b.Step()
			}
			same := *d
			if err := a.(sim.DataSetter).SetData(&same); err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				if oa, ob := a.Step().Objective, b.Step().Objective; oa != ob {
					t.Fatalf("step %d after SetData of the same data: objective %v, twin's %v", i, oa, ob)
				}
			}
			half := *d
			half.X, half.Y = d.X[:d.N()/2], d.Y[:d.N()/2]
			if err := a.(sim.DataSetter).SetData(&half); err != nil {
				t.Fatal(err)
			}
			if o := a.Step().Objective; math.IsNaN(o) || math.IsInf(o, 0) {
				t.Fatalf("objective %v on the new data", o)
			}
		})
	}
}
