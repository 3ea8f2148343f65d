package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
)

// gatedRegistry is a registry whose every run is f.
func gatedRegistry(t *testing.T, f *fakeMethod) *Registry {
	t.Helper()
	g := NewRegistry(RegistryConfig{Run: RunOptions{FrameRate: 200}}, func(cfg RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error) {
		c, err := f.Spec().Resolve(cfg.Controls)
		return f, fakeDataset(), c, err
	}, quiet)
	t.Cleanup(g.Close)
	return g
}

// short is a context for a command's wait: long enough for an idle run to
// answer, short against a step held by a gate.
func short(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	t.Cleanup(cancel)
	return ctx
}

// A data set larger than the method accepts is refused by Create, naming
// data and the bound, before the method is initialised.
func TestCreateRefusesTooManyPointsBeforeInit(t *testing.T) {
	f := &fakeMethod{maxPoints: len(fakeDataset().X) - 1}
	g := gatedRegistry(t, f)
	_, err := g.Create(RunConfig{Data: "d", Method: "fake"}, "a")
	fe, ok := errors.AsType[*sim.FieldError](err)
	if !ok || fe.Field != "data" || !strings.Contains(fe.Message, "at most 2") || !strings.Contains(fe.Message, "a fake bound") {
		t.Fatalf("got %v", err)
	}
	if n := f.inits.Load(); n != 0 {
		t.Fatalf("Init ran %d times for a refused create", n)
	}
	if g.Len() != 0 {
		t.Fatalf("%d runs kept", g.Len())
	}
	f.maxPoints = len(fakeDataset().X)
	if _, err := g.Create(RunConfig{Data: "d", Method: "fake"}, "a"); err != nil {
		t.Fatalf("at the bound: %v", err)
	}
}

// Create returns while the method's Init is still running: the run is
// preparing, a bad command is refused at once naming the control, a good
// one is acknowledged as queued and applied exactly once when the run is
// ready, and the run then shows paused.
func TestCreateReturnsWhilePreparing(t *testing.T) {
	f := &fakeMethod{initGate: make(chan struct{})}
	g := gatedRegistry(t, f)
	r, err := g.Create(RunConfig{Data: "d", Method: "fake"}, "a") // Init is blocked: Create must not wait for it
	if err != nil {
		t.Fatal(err)
	}
	if st := r.Latest().Status; st != StatusPreparing {
		t.Fatalf("status %s right after create, want preparing", st)
	}
	fe, ok := errors.AsType[*sim.FieldError](r.Set(short(t), "nope", sim.Num(1)))
	if !ok || fe.Field != "nope" || !strings.Contains(fe.Message, "unknown control") {
		t.Fatalf("an unknown control while preparing: %v", fe)
	}
	if _, ok := errors.AsType[*sim.FieldError](r.Set(short(t), "lr", sim.Num(5))); !ok {
		t.Fatal("an out-of-range value while preparing was not refused at once")
	}
	err = r.Set(short(t), "lr", sim.Num(0.3))
	q, ok := errors.AsType[*Queued](err)
	if !ok || q.Status != StatusPreparing || q.Field != "lr" || !strings.Contains(q.Error(), "preparing") {
		t.Fatalf("a set while preparing: %v", err)
	}
	if f.inits.Load() != 0 || f.sets.Load() != 0 {
		t.Fatal("the gate did not hold Init")
	}
	close(f.initGate)
	if err := q.Wait(bg()); err != nil {
		t.Fatalf("the queued set, once ready: %v", err)
	}
	fr := waitFrame(t, r, func(f *Frame) bool { return f.Status == StatusPaused && f.Controls["lr"] == sim.Num(0.3) })
	if f.inits.Load() != 1 || f.sets.Load() != 1 || len(fr.Marks) != 1 {
		t.Fatalf("after release: %d inits, %d sets, marks %v; want 1, 1, one", f.inits.Load(), f.sets.Load(), fr.Marks)
	}
	if fr.Predictive == nil {
		t.Fatal("no band once ready")
	}
}

// A run whose Init fails while preparing is diverged with the reason, and
// answers commands.
func TestPrepareFailureDiverges(t *testing.T) {
	f := &fakeMethod{initErr: func(c sim.Controls) error {
		if c["width"].Num > 50 {
			return errors.New("too wide")
		}
		return nil
	}}
	g := gatedRegistry(t, f)
	r, err := g.Create(RunConfig{Data: "d", Method: "fake", Controls: sim.Controls{"width": sim.Num(60)}}, "a")
	if err != nil {
		t.Fatal(err)
	}
	fr := waitFrame(t, r, func(f *Frame) bool { return f.Status != StatusPreparing })
	if fr.Status != StatusDiverged || !strings.Contains(fr.Message, "too wide") || fr.Predictive != nil {
		t.Fatalf("after a failed Init: %s %q", fr.Status, fr.Message)
	}
	if err := r.Play(bg()); err == nil {
		t.Fatal("play on a run that could not start")
	}
	if err := r.Set(bg(), "width", sim.Num(20)); err != nil { // a non-live set initialises again
		t.Fatal(err)
	}
	if fr := waitFrame(t, r, func(f *Frame) bool { return f.Status == StatusPaused }); fr.Controls["width"] != sim.Num(20) {
		t.Fatalf("after a good width: %v", fr.Controls)
	}
}

// During a long step a command is either refused at once (a bad name or
// value, naming the control) or acknowledged as queued; the queued one is
// applied exactly once when the step ends, and never reported failed.
func TestCommandDuringLongStep(t *testing.T) {
	f := &fakeMethod{stepGate: make(chan struct{}), stepEntered: make(chan struct{}, 1)}
	r := startRun(t, f, RunOptions{})
	if err := r.Step(bg(), 1); err != nil {
		t.Fatal(err)
	}
	<-f.stepEntered // the run is inside Step until the gate opens
	start := time.Now()
	fe, ok := errors.AsType[*sim.FieldError](r.Set(short(t), "nope", sim.Num(1)))
	if !ok || fe.Field != "nope" {
		t.Fatalf("an unknown control during a step: %v", fe)
	}
	if d := time.Since(start); d > 150*time.Millisecond {
		t.Logf("the refusal took %v (a loaded machine?)", d) // it waited for nothing; not a pass/fail on time
	}
	err := r.Set(short(t), "lr", sim.Num(0.05))
	q, ok := errors.AsType[*Queued](err)
	if !ok || q.Step != 0 || q.Field != "lr" {
		t.Fatalf("a set during a long step: %v, want queued after step 0", err)
	}
	if f.sets.Load() != 0 {
		t.Fatal("applied during the step")
	}
	f.stepGate <- struct{}{}
	if err := q.Wait(bg()); err != nil {
		t.Fatalf("the queued set: %v", err)
	}
	fr := waitFrame(t, r, func(f *Frame) bool { return f.Step == 1 && f.Controls["lr"] == sim.Num(0.05) })
	if f.sets.Load() != 1 || len(fr.Marks) != 1 || fr.Marks[0].Step != 1 {
		t.Fatalf("%d sets, marks %v; want one, at step 1", f.sets.Load(), fr.Marks)
	}
	close(f.stepGate)
}

// A command the run cannot even take (its queue is full behind a long
// step) is refused with ErrRunBusy and never applied.
func TestCommandBusyIsNeverApplied(t *testing.T) {
	f := &fakeMethod{stepGate: make(chan struct{}), stepEntered: make(chan struct{}, 1)}
	r := startRun(t, f, RunOptions{})
	if err := r.Step(bg(), 1); err != nil {
		t.Fatal(err)
	}
	<-f.stepEntered
	var queued []*Queued
	busy := 0
	var lastQueued sim.Value
	for i := range cap(r.box.ctrl) + 1 {
		v := sim.Num(0.01 * float64(i+1)) // every command a new value
		ctx, cancel := context.WithTimeout(bg(), 20*time.Millisecond)
		err := r.Set(ctx, "lr", v)
		cancel()
		if q, ok := errors.AsType[*Queued](err); ok {
			queued, lastQueued = append(queued, q), v
		} else if errors.Is(err, ErrRunBusy) {
			busy++
		} else {
			t.Fatalf("got %v", err)
		}
	}
	if len(queued) != cap(r.box.ctrl) || busy != 1 {
		t.Fatalf("%d queued, %d busy; want %d and 1", len(queued), busy, cap(r.box.ctrl))
	}
	close(f.stepGate)
	for _, q := range queued {
		if err := q.Wait(bg()); err != nil {
			t.Fatal(err)
		}
	}
	// Every queued set was applied once, in order; the busy one never.
	if n := f.sets.Load(); n != int64(len(queued)) {
		t.Fatalf("%d sets reached the method, want %d", n, len(queued))
	}
	waitFrame(t, r, func(f *Frame) bool { return f.Controls["lr"] == lastQueued })
	if err := r.Pause(bg()); err != nil { // a round trip: anything still queued is handled by now
		t.Fatal(err)
	}
	if n := f.sets.Load(); n != int64(len(queued)) || r.Latest().Controls["lr"] != lastQueued {
		t.Fatalf("later: %d sets, lr %v", n, r.Latest().Controls["lr"])
	}
}
