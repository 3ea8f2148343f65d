package gip

import (
	"errors"
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

func initGap(t *testing.T, c sim.Controls) (*Method, *sim.Dataset) {
	t.Helper()
	d, err := datasets.Load("gap", 1)
	if err != nil {
		t.Fatal(err)
	}
	mm, _ := New("")
	m := mm.(*Method)
	if _, err := sim.Init(m, d, c, numeric.NewRand(3)); err != nil {
		t.Fatal(err)
	}
	return m, d
}

// SetData with the same points changes nothing: the run goes on bit for
// bit as a twin's; with other points the inducing inputs carry over, the
// ELBO takes the new points, and fewer points than inducing points
// are refused, changing nothing.
func TestSetData(t *testing.T) {
	c := sim.Controls{"inducing": sim.Num(10)}
	a, d := initGap(t, c)
	b, _ := initGap(t, c)
	for range 5 {
		a.Step()
		b.Step()
	}
	same := *d
	if err := a.SetData(&same); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if oa, ob := a.Step().Objective, b.Step().Objective; oa != ob {
			t.Fatalf("step %d after SetData of the same data: objective %v, twin's %v", i, oa, ob)
		}
	}
	u := append([]float64(nil), a.u0.RawMatrix().Data...)
	half := *d
	half.X, half.Y = d.X[:d.N()/2], d.Y[:d.N()/2]
	if err := a.SetData(&half); err != nil {
		t.Fatal(err)
	}
	for i, v := range a.u0.RawMatrix().Data {
		if v != u[i] {
			t.Fatalf("inducing input %d moved on SetData: %v → %v", i, u[i], v)
		}
	}
	// The next step records its ELBO on the new points.
	if fa := a.Step().Objective; math.IsNaN(fa) || math.IsInf(fa, 0) || a.tr == nil {
		t.Fatalf("ELBO on half the data %v", fa)
	}
	if r, _ := a.x.Dims(); r != half.N() {
		t.Fatalf("the ELBO's inputs have %d rows, want the new %d points", r, half.N())
	}
	tiny := *d
	tiny.X, tiny.Y = d.X[:5], d.Y[:5]
	if err := a.SetData(&tiny); err == nil {
		t.Fatal("took 5 points with 10 inducing points")
	}
	if a.d != &half {
		t.Fatal("a refused SetData changed the data")
	}
}

// SetInducing moves one first-layer inducing input; bad ones are refused.
func TestSetInducing(t *testing.T) {
	m, d := initGap(t, sim.Controls{"inducing": sim.Num(10)})
	if err := m.SetInducing(3, 0.25); err != nil || m.u0.At(3, 0) != 0.25 {
		t.Fatalf("SetInducing(3, 0.25): %v, u0[3] = %v", err, m.u0.At(3, 0))
	}
	for _, bad := range []struct {
		i int
		x float64
	}{{10, 0}, {-1, 0}, {0, math.NaN()}} {
		if err := m.SetInducing(bad.i, bad.x); !errors.As(err, new(*sim.FieldError)) {
			t.Errorf("SetInducing(%d, %v) = %v, want a field error", bad.i, bad.x, err)
		}
	}
	v := m.Views()["inducing"].(InducingView)
	if len(v.X) != 10 || v.X[3] != d.XScale.ToUser(0.25) {
		t.Fatalf("inducing view %v, want 10 inputs in user units with the moved one", v.X)
	}
	m.Step()
}
