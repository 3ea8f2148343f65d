package fbnn

import (
	"math"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

// SetData with the same points carries on bit for bit as a twin (the
// prior fit is a function of the data); with half of them q carries over
// and the next step trains on the new points.
func TestSetData(t *testing.T) {
	d, err := datasets.Load("gap", 1)
	if err != nil {
		t.Fatal(err)
	}
	mk := func() *Method {
		mm, _ := New("")
		m := mm.(*Method)
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
	if err := a.SetData(&same); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if oa, ob := a.Step().Objective, b.Step().Objective; oa != ob {
			t.Fatalf("step %d after SetData of the same data: objective %v, twin's %v", i, oa, ob)
		}
	}
	mu := slices.Clone(a.mu)
	half := *d
	half.X, half.Y = d.X[:d.N()/2], d.Y[:d.N()/2]
	if err := a.SetData(&half); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.mu, mu) || len(a.x) != half.N() || len(a.perm) != half.N() {
		t.Fatalf("after SetData: means changed %v, %d inputs, %d in the permutation; want %d", !slices.Equal(a.mu, mu), len(a.x), len(a.perm), half.N())
	}
	if o := a.Step().Objective; math.IsNaN(o) || math.IsInf(o, 0) {
		t.Fatalf("objective %v on the new data", o)
	}
}
