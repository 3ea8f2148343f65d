package engine

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/wire"
)

// settingFake is fakeMethod with sim.DataSetter: it records the data it
// was handed, or refuses them when refuse is set.
type settingFake struct {
	*fakeMethod
	got    *sim.Dataset
	sets   int
	refuse bool
}

func (s *settingFake) SetData(d *sim.Dataset) error {
	if s.refuse {
		return errors.New("cannot take these data")
	}
	s.got, s.sets = d, s.sets+1
	return nil
}

// startMethod starts a run of any method on the fake data set.
func startMethod(t testing.TB, m sim.Method) *Run {
	t.Helper()
	r, err := NewRun("t", m, fakeDataset(), fakeControls(), 7, RunOptions{Log: quiet, FrameRate: 200})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	t.Cleanup(func() {
		cancel()
		select {
		case <-r.Done():
		case <-time.After(5 * time.Second):
			t.Error("run goroutine did not end after cancel")
		}
	})
	return r
}

// edited is the fake data set with its points replaced (model units).
func edited(x, y []float64) *sim.Dataset {
	d := fakeDataset()
	d.X, d.Y = x, y
	return d
}

// A method with SetData takes an edit between two steps and carries on
// from its state: same epoch, same step, a change mark, the new points in
// the frames (user units).
func TestRunSetDataContinues(t *testing.T) {
	sf := &settingFake{fakeMethod: &fakeMethod{}}
	r := startMethod(t, sf)
	if err := r.Step(bg(), 20); err != nil {
		t.Fatal(err)
	}
	before := waitFrame(t, r, func(f *Frame) bool { return f.Step == 20 })
	d := edited([]float64{-1, -0.5, 0.5, 1}, []float64{1, 0, 0, 1})
	if err := r.SetData(bg(), d); err != nil {
		t.Fatal(err)
	}
	f := waitFrame(t, r, func(f *Frame) bool { return len(f.Marks) == 1 })
	want := wire.Mark{Step: 20, Name: OpData, Value: sim.Choice("4 points")}
	if f.Epoch != before.Epoch || f.Step != 20 || f.Marks[0] != want {
		t.Fatalf("after an edit: epoch %d step %d marks %v; want epoch %d step 20 and mark %v", f.Epoch, f.Step, f.Marks, before.Epoch, want)
	}
	if sf.got != d || sf.sets != 1 || sf.inits.Load() != 1 {
		t.Fatalf("method got %p (want %p) in %d SetData calls and %d Inits; want one SetData and no new Init", sf.got, d, sf.sets, sf.inits.Load())
	}
	// XScale 10 + 2x, YScale −3 + 4y.
	if f.Data == nil || !slices.Equal(f.Data.X, []float64{8, 9, 11, 12}) || !slices.Equal(f.Data.Y, []float64{1, -3, -3, 1}) || r.Data() != f.Data {
		t.Fatalf("frame data %+v, want the edited points in user units", f.Data)
	}
	if before.Data == f.Data || len(before.Data.X) != 3 {
		t.Fatalf("the first frame's data changed: %+v", before.Data)
	}
	if err := r.Step(bg(), 5); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, r, func(f *Frame) bool { return f.Step == 25 })
	// Reset restarts on the edited data, not the first.
	if err := r.Reset(bg()); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := r.Inspect(bg(), func(_ sim.Stepper, d *sim.Dataset) { n = d.N() }); err != nil || n != 4 {
		t.Fatalf("after reset the run's data have %d points (%v), want the edit's 4", n, err)
	}
}

// A method without SetData (or one that refuses the data) starts again
// from step 0 on the edit, a playing run playing on.
func TestRunSetDataRestarts(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    func(*fakeMethod) sim.Method
	}{
		{"no SetData", func(f *fakeMethod) sim.Method { return f }},
		{"SetData refuses", func(f *fakeMethod) sim.Method { return &settingFake{fakeMethod: f, refuse: true} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fm := &fakeMethod{stepDelay: time.Millisecond}
			r := startMethod(t, tc.m(fm))
			if err := r.Play(bg()); err != nil {
				t.Fatal(err)
			}
			waitFrame(t, r, func(f *Frame) bool { return f.Step >= 10 })
			if err := r.SetData(bg(), edited([]float64{-1, 1}, []float64{0, 1})); err != nil {
				t.Fatal(err)
			}
			f := waitFrame(t, r, func(f *Frame) bool { return f.Epoch == 1 })
			if fm.inits.Load() != 2 || len(f.Marks) != 1 || f.Marks[0] != (wire.Mark{Step: 0, Name: OpData, Value: sim.Choice("2 points")}) || len(f.Data.X) != 2 {
				t.Fatalf("after an edit: %d inits, marks %v, %d points; want a second Init, a mark at step 0 and 2 points", fm.inits.Load(), f.Marks, len(f.Data.X))
			}
			waitFrame(t, r, func(f *Frame) bool { return f.Epoch == 1 && f.Status == StatusRunning && f.Step > 0 })
		})
	}
}

// An edit the run cannot take is refused naming data, and nothing changes.
func TestRunSetDataRefused(t *testing.T) {
	fm := &fakeMethod{maxPoints: 4}
	sf := &settingFake{fakeMethod: fm}
	r := startMethod(t, sf)
	if err := r.Step(bg(), 3); err != nil {
		t.Fatal(err)
	}
	before := waitFrame(t, r, func(f *Frame) bool { return f.Step == 3 })
	otherScale := edited([]float64{0, 1}, []float64{0, 1})
	otherScale.XScale.Std = 3
	tooMany := edited([]float64{-1, -0.5, 0, 0.5, 1}, []float64{0, 0, 0, 0, 0})
	for name, d := range map[string]*sim.Dataset{"nil": nil, "other units": otherScale, "too many points": tooMany} {
		err := r.SetData(bg(), d)
		if fe, ok := errors.AsType[*sim.FieldError](err); !ok || fe.Field != "data" || fe.Message == "" {
			t.Errorf("%s: %v, want a field error naming data", name, err)
		}
	}
	if err := r.Step(bg(), 1); err != nil {
		t.Fatal(err)
	}
	f := waitFrame(t, r, func(f *Frame) bool { return f.Step == 4 })
	if f.Epoch != before.Epoch || len(f.Marks) != 0 || f.Data != before.Data || sf.sets != 0 || fm.inits.Load() != 1 {
		t.Fatalf("refused edits changed the run: epoch %d marks %v data %p→%p, %d SetData, %d inits", f.Epoch, f.Marks, before.Data, f.Data, sf.sets, fm.inits.Load())
	}
}

// inducingFake is fakeMethod with two inducing inputs.
type inducingFake struct {
	*fakeMethod
	u []float64
}

func (f *inducingFake) Extras() sim.Extras {
	x := f.fakeMethod.Extras()
	x.SetInducing = f.SetInducing
	return x
}

func (f *inducingFake) SetInducing(i int, x float64) error {
	if i < 0 || i >= len(f.u) {
		return &sim.FieldError{Field: "n", Message: "no such inducing input"}
	}
	f.u[i] = x
	return nil
}

// A moved inducing input is set in the method, in model units, with a
// change mark; an index or a position off the plot is refused, changing
// nothing; a method without inducing inputs refuses the command.
func TestRunSetInducing(t *testing.T) {
	inf := &inducingFake{fakeMethod: &fakeMethod{}, u: []float64{0, 0.5}}
	r := startMethod(t, inf)
	if err := r.Step(bg(), 2); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, r, func(f *Frame) bool { return f.Step == 2 })
	if err := r.SetInducing(bg(), 1, 12); err != nil { // user 12 = model 1
		t.Fatal(err)
	}
	f := waitFrame(t, r, func(f *Frame) bool { return len(f.Marks) == 1 })
	if inf.u[1] != 1 || f.Marks[0].Name != InducingMark || f.Marks[0].Step != 2 {
		t.Fatalf("inducing inputs %v, marks %v; want u[1] = 1 and a mark at step 2", inf.u, f.Marks)
	}
	for _, bad := range []struct {
		i     int
		x     float64
		field string
	}{{2, 10, "n"}, {-1, 10, "n"}, {0, 100, "value"}} {
		err := r.SetInducing(bg(), bad.i, bad.x)
		if fe, ok := errors.AsType[*sim.FieldError](err); !ok || fe.Field != bad.field {
			t.Errorf("SetInducing(%d, %g) = %v, want a field error naming %s", bad.i, bad.x, err, bad.field)
		}
	}
	if !slices.Equal(inf.u, []float64{0, 1}) {
		t.Fatalf("refused moves changed the inputs: %v", inf.u)
	}
	plain := startRun(t, &fakeMethod{}, RunOptions{})
	if err := plain.SetInducing(bg(), 0, 10); err == nil {
		t.Fatal("a method without inducing inputs took a move")
	}
}

// clampFake is settingFake whose spec's prior_scale is at most the number
// of points, as gip's inducing control is.
type clampFake struct{ *settingFake }

func (c *clampFake) SpecFor(d *sim.Dataset) sim.MethodSpec {
	s := c.Spec()
	s.Controls[0].Max = min(s.Controls[0].Max, float64(d.N()))
	return s
}

// A live control that no longer fits the edited data is set to its new
// bound in the running method, with its own mark, and the run carries on.
func TestRunSetDataClampsLiveControl(t *testing.T) {
	cf := &clampFake{&settingFake{fakeMethod: &fakeMethod{}}}
	r, err := NewRun("t", cf, fakeDataset(), sim.Controls{"prior_scale": sim.Num(3), "lr": sim.Num(0.1), "width": sim.Num(10), "kernel": sim.Choice("eq"), "boom": sim.Num(0)}, 7, RunOptions{Log: quiet, FrameRate: 200})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	defer func() { cancel(); <-r.Done() }()
	if err := r.Step(bg(), 4); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, r, func(f *Frame) bool { return f.Step == 4 })
	if err := r.SetData(bg(), edited([]float64{-1, 1}, []float64{0, 1})); err != nil {
		t.Fatal(err)
	}
	f := waitFrame(t, r, func(f *Frame) bool { return len(f.Marks) == 2 })
	if f.Step != 4 || f.Controls["prior_scale"] != sim.Num(2) || cf.k != 2 || cf.sets != 1 || cf.inits.Load() != 1 ||
		f.Marks[0] != (wire.Mark{Step: 4, Name: "prior_scale", Value: sim.Num(2)}) || f.Marks[1].Name != OpData {
		t.Fatalf("step %d, prior_scale %v (method %v), %d SetData, %d inits, marks %v; want prior_scale set to 2 live and the data taken at step 4",
			f.Step, f.Controls["prior_scale"], cf.k, cf.sets, cf.inits.Load(), f.Marks)
	}
}
