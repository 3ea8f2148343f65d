package engine_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/gp"
	"github.com/posterior-playground/playground/sim/mcmc"
)

// The exact GP, a closed form without sim.DataSetter, recomputes on edited
// data: a played run settles again on the new data (a new epoch, one
// recording step) with a new log marginal and band, and the data mark.
func TestExactGPRecomputesOnEditedData(t *testing.T) {
	d, err := datasets.Load("gp-cauchy", 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := gp.NewExact("")
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.SpecFor(m, d).Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.NewRun("gp", m, d, c, 1, engine.RunOptions{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	defer func() { cancel(); <-r.Done() }()
	bg := context.Background()
	if err := r.Play(bg); err != nil {
		t.Fatal(err)
	}
	prev := enginetest.WaitFrame(t, r, 10*time.Second, func(f *engine.Frame) bool { return f.Status == engine.StatusSettled && f.Predictive != nil })
	xu, yu := make([]float64, 0, d.N()), make([]float64, 0, d.N())
	for i := 0; i < d.N(); i += 2 { // every other point
		xu, yu = append(xu, d.XScale.ToUser(d.X[i])), append(yu, d.YScale.ToUser(d.Y[i]))
	}
	e, err := datasets.Edit(d, xu, yu)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetData(bg, e); err != nil {
		t.Fatal(err)
	}
	f := enginetest.WaitFrame(t, r, 10*time.Second, func(f *engine.Frame) bool {
		return f.Epoch == prev.Epoch+1 && f.Status == engine.StatusSettled && f.Step == 1 && f.Predictive != nil
	})
	if f.Objective == prev.Objective || slices.Equal(f.Predictive.Hi, prev.Predictive.Hi) || len(f.Data.X) != e.N() {
		t.Errorf("after the edit: log marginal %g (was %g), band changed %v, %d points (want %d)", f.Objective, prev.Objective, !slices.Equal(f.Predictive.Hi, prev.Predictive.Hi), len(f.Data.X), e.N())
	}
	if len(f.Marks) != 1 || f.Marks[0].Name != engine.OpData {
		t.Errorf("marks %v, want the data mark", f.Marks)
	}
}

// A sampler takes edited data live: same epoch and step, the warm-up
// starts again (the frame's "warmup" diagnostic), and the kept draws of
// the old posterior are gone.
func TestSamplerWarmupRestartsOnEditedData(t *testing.T) {
	d, err := datasets.Load("linreg", 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mcmc.NewNUTS("linear")
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.SpecFor(m, d).Resolve(sim.Controls{"warmup": sim.Num(100)})
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.NewRun("nuts", m, d, c, 1, engine.RunOptions{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	defer func() { cancel(); <-r.Done() }()
	bg := context.Background()
	if err := r.Step(bg, 300); err != nil {
		t.Fatal(err)
	}
	prev := enginetest.WaitFrame(t, r, 20*time.Second, func(f *engine.Frame) bool { return f.Step == 300 })
	if prev.Diagnostics["warmup"] != 0 {
		t.Fatalf("still warming up at step 300 of a 100-step warm-up: %v", prev.Diagnostics)
	}
	kept := func() (n int) {
		if err := r.Inspect(bg, func(m sim.Stepper, _ *sim.Dataset) { n = len(m.(sim.Chains).Draws("b")[0]) }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if kept() == 0 {
		t.Fatal("no kept draws after the warm-up")
	}
	xu, yu := make([]float64, 0, d.N()), make([]float64, 0, d.N())
	for i := 0; i < d.N(); i += 2 {
		xu, yu = append(xu, d.XScale.ToUser(d.X[i])), append(yu, d.YScale.ToUser(d.Y[i]))
	}
	e, err := datasets.Edit(d, xu, yu)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetData(bg, e); err != nil {
		t.Fatal(err)
	}
	f := enginetest.WaitFrame(t, r, 10*time.Second, func(f *engine.Frame) bool { return len(f.Marks) == 1 })
	if f.Epoch != prev.Epoch || f.Step != 300 || f.Diagnostics["warmup"] != 1 || kept() != 0 {
		t.Fatalf("after the edit: epoch %d step %d warmup %v, %d kept draws; want epoch %d, step 300, warming up, none kept", f.Epoch, f.Step, f.Diagnostics["warmup"], kept(), prev.Epoch)
	}
}
