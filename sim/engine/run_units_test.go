package engine

import (
	"context"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
)

// unitFake traces x in the targets' units (sim.TraceInfo.Unit).
type unitFake struct{ *fakeMethod }

func (u unitFake) Spec() sim.MethodSpec {
	s := u.fakeMethod.Spec()
	s.TraceInfo = map[string]sim.TraceInfo{"x": {Label: "x", Unit: sim.UnitY}, "k": {Label: "k"}}
	return s
}

// A trace with a data unit is recorded in the plot's units (the fake data
// set's y std is 4), as the noise readout is; one without is as traced.
func TestRunTracesInPlotUnits(t *testing.T) {
	f := &fakeMethod{}
	r, err := NewRun("t", unitFake{f}, fakeDataset(), fakeControls(), 7, RunOptions{Log: quiet, FrameRate: 200})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	defer func() {
		cancel()
		<-r.Done()
	}()
	if err := r.Step(ctx, 5); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, r, func(f *Frame) bool { return f.Step >= 5 })
	var c Cursor
	r.Read(&c)
	deadline := time.Now().Add(5 * time.Second)
	for len(c.Traces) < 2 || len(c.Traces[0]) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no traces in the history")
		}
		time.Sleep(10 * time.Millisecond)
		r.Read(&c)
	}
	x, k := c.Traces[0][len(c.Traces[0])-1].Value, c.Traces[1][len(c.Traces[1])-1].Value
	r.Inspect(ctx, func(sim.Stepper, *sim.Dataset) {
		if want := 4 * f.x; x != want {
			t.Errorf("x traced %v; want 4 × the method's %v = %v (y units)", x, f.x, want)
		}
		if k != f.k {
			t.Errorf("k traced %v; want the method's %v unchanged (no unit)", k, f.k)
		}
	})
}
