package engine_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/target"
	"github.com/posterior-playground/playground/sim/wire"
)

// stdNormal2 is the standard normal density in the plane.
type stdNormal2 struct{}

func (stdNormal2) Name() string                      { return "gaussian" }
func (stdNormal2) Params() [2]string                 { return [2]string{"x", "y"} }
func (stdNormal2) Box() target.Box                   { return target.Box{XMin: -4, XMax: 4, YMin: -4, YMax: 4} }
func (stdNormal2) LogDensity(p target.Point) float64 { return -0.5 * (p[0]*p[0] + p[1]*p[1]) }
func (s stdNormal2) LogDensityGrad(p target.Point) (float64, target.Point) {
	return s.LogDensity(p), target.Point{-p[0], -p[1]}
}

// walker is a random-walk Metropolis sampler on a target density: the
// smallest target.Method. It has no Predict: a run on a target has no band
// to ask for. Its view "position" is where it stands.
type walker struct {
	t     target.Target
	rng   *rand.Rand
	p     target.Point
	lp    float64
	width float64
	tr    []float64
}

func (*walker) Spec() sim.MethodSpec {
	return sim.MethodSpec{Name: "walker", Label: "Random walk", Family: sim.FamilyMCMC,
		Controls: []sim.ControlSpec{{Name: "width", Label: "Proposal width", Min: 0.01, Max: 5, Step: 0.01, Default: sim.Num(1), Live: true}},
		Traces:   []string{"x", "y"}}
}

func (w *walker) Init(t target.Target, c sim.Controls, r *rand.Rand) error {
	w.t, w.rng, w.width = t, r, c["width"].Num
	w.p = target.Point{}
	w.lp = t.LogDensity(w.p)
	w.tr = make([]float64, 2)
	return nil
}

func (w *walker) Step() sim.StepStats {
	q := target.Point{w.p[0] + w.width*w.rng.NormFloat64(), w.p[1] + w.width*w.rng.NormFloat64()}
	if lq := w.t.LogDensity(q); math.Log(w.rng.Float64()) < lq-w.lp {
		w.p, w.lp = q, lq
	}
	return sim.StepStats{Objective: w.lp}
}

func (w *walker) Set(name string, v sim.Value) error {
	w.width = v.Num
	return nil
}

func (w *walker) Trace() []float64 {
	w.tr[0], w.tr[1] = w.p[0], w.p[1]
	return w.tr
}

func (w *walker) Views() map[string]any { return map[string]any{"position": w.p} }

func (w *walker) Extras() sim.Extras { return sim.Extras{Views: w.Views} }

var _ target.Method = (*walker)(nil)

// A method fitted to a target density, with no data, runs through the
// engine: frames stream with its objective and traces and its own view,
// no band is drawn (it has no Predict to ask) and no data are shown; a
// control is checked against its spec and set live, and the data commands
// are refused, naming the op.
func TestTargetRunStreamsWithoutBand(t *testing.T) {
	w := &walker{}
	c, err := w.Spec().Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.NewTargetRun("target", w, stdNormal2{}, c, 1, engine.RunOptions{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	defer func() { cancel(); <-r.Done() }()
	bg := context.Background()
	if err := r.Set(bg, "width", sim.Num(9)); err == nil {
		t.Error("width 9, outside [0.01, 5], was accepted")
	}
	if err := r.Set(bg, "width", sim.Num(0.5)); err != nil {
		t.Fatal(err)
	}
	if err := r.Step(bg, 200); err != nil {
		t.Fatal(err)
	}
	var cur engine.Cursor
	var objective, xs int
	f := enginetest.WaitFrame(t, r, 10*time.Second, func(f *engine.Frame) bool {
		if f.Predictive != nil || f.Data != nil {
			t.Fatalf("step %d: a frame of a target's run carries a band (%v) or data (%v)", f.Step, f.Predictive != nil, f.Data != nil)
		}
		r.Read(&cur)
		objective, xs = objective+len(cur.Objective), xs+len(cur.Traces[0])
		return f.Step == 200 && f.Status == engine.StatusPaused
	})
	r.Read(&cur)
	objective, xs = objective+len(cur.Objective), xs+len(cur.Traces[0])
	if objective != 200 || xs != 200 {
		t.Errorf("streamed %d objective and %d trace points over 200 steps, want 200 of each", objective, xs)
	}
	if _, ok := f.Diagnostics["objective"]; !ok || f.Extra("position") == nil {
		t.Errorf("frame at step 200: diagnostics %v, extras %v: want the objective and the view", f.Diagnostics, f.Extras)
	}
	if f.Controls["width"] != sim.Num(0.5) || len(f.Marks) != 1 {
		t.Errorf("controls %v, marks %v: want width 0.5, marked", f.Controls, f.Marks)
	}
	for _, op := range []wire.Op{{Op: engine.OpData, X: []float64{0}, Y: []float64{0}}, {Op: engine.OpData}} {
		var fe *sim.FieldError
		if err := r.Do(bg, op, nil); !errors.As(err, &fe) || fe.Field != "op" {
			t.Errorf("data command %+v on a target: %v, want a field error naming op", op, err)
		}
	}
	if r.Data() != nil {
		t.Error("a target's run has data")
	}
}
