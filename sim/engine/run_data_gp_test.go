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
