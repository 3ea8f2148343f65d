package engine

import (
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// Inspect hands f the run's own method and data set between steps, and
// leaves the run as it was: paused at the same step. A panic in f comes
// back as an error and the run goes on.
func TestRunInspect(t *testing.T) {
	fm := &fakeMethod{}
	r := startRun(t, fm, RunOptions{})
	r.Step(bg(), 4)
	waitFrame(t, r, func(f *Frame) bool { return f.Step == 4 })
	var steps int64
	var n int
	if err := r.Inspect(bg(), func(m sim.Stepper, d *sim.Dataset) { steps, n = m.(*fakeMethod).steps, d.N() }); err != nil {
		t.Fatal(err)
	}
	if steps != 4 || n != fakeDataset().N() {
		t.Fatalf("inspected %d steps on %d points, want 4 on %d", steps, n, fakeDataset().N())
	}
	if g := r.Latest(); g.Step != 4 || g.Status != StatusPaused || fm.steps != 4 {
		t.Fatalf("after Inspect: step %d %s, method at %d steps; want paused at 4", g.Step, g.Status, fm.steps)
	}
	err := r.Inspect(bg(), func(sim.Stepper, *sim.Dataset) { panic("boom") })
	if err == nil || !strings.Contains(err.Error(), "Inspect") {
		t.Fatalf("a panicking Inspect returned %v", err)
	}
	r.Step(bg(), 1)
	waitFrame(t, r, func(f *Frame) bool { return f.Step == 5 && f.Status == StatusPaused })
}
