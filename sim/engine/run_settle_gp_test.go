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

// The exact GP with its kernel held, run live: played, it spends no step
// budget; each kernel variance change (1 → 0.1 → 10) shows at once as a
// new band, a new log marginal (the frame's objective) and a new point of
// the variance trace, one step each. Learning the kernel, it steps.
func TestExactGPRecomputesOnEveryChange(t *testing.T) {
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
	r, err := engine.NewRun("gp", m, d, c, 1, engine.RunOptions{MaxSteps: 10_000_000, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
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
	// Settled at once, by the reply to play: one step records the state.
	prev := enginetest.WaitFrame(t, r, 10*time.Second, func(f *engine.Frame) bool { return f.Status == engine.StatusSettled && f.Predictive != nil })
	if prev.Step != 1 {
		t.Fatalf("settled gp-exact at step %d, want 1 (one recording step)", prev.Step)
	}
	for i, c2 := range []float64{0.1, 10} {
		if err := r.Set(bg, "variance", sim.Num(c2)); err != nil {
			t.Fatal(err)
		}
		f := enginetest.WaitFrame(t, r, 10*time.Second, func(f *engine.Frame) bool { return f.Step == prev.Step+1 && f.Predictive != prev.Predictive })
		if f.Objective == prev.Objective || f.Diagnostics["objective"] != f.Objective {
			t.Errorf("variance %g: log marginal %g, was %g (diagnostics %v)", c2, f.Objective, prev.Objective, f.Diagnostics)
		}
		if slices.Equal(f.Predictive.Hi, prev.Predictive.Hi) || slices.Equal(f.Predictive.Mean, prev.Predictive.Mean) {
			t.Errorf("variance %g: the band did not change", c2)
		}
		var cur engine.Cursor
		r.Read(&cur)
		v := cur.Traces[slices.Index(r.TraceNames(), "variance")]
		if n := len(v); n != i+2 || v[n-1].Step != f.Step || v[n-1].Value < 0.99*c2 || v[n-1].Value > 1.01*c2 {
			t.Errorf("variance %g: trace %v", c2, v)
		}
		prev = f
	}
	if prev.Step >= 10 || prev.Status != engine.StatusSettled {
		t.Fatalf("three settings cost %d steps (%s), want < 10", prev.Step, prev.Status)
	}
	if err := r.Set(bg, "learn_kernel", sim.Num(1)); err != nil {
		t.Fatal(err)
	}
	enginetest.WaitFrame(t, r, 10*time.Second, func(f *engine.Frame) bool { return f.Status == engine.StatusRunning && f.Step > prev.Step+50 })
}
