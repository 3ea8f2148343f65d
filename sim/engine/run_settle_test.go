package engine

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/posterior-playground/playground/sim"
)

// staticFake is the fake with nothing to iterate while its lr is 0, as the
// exact GP with its hyperparameters held.
type staticFake struct{ *fakeMethod }

func (s staticFake) Settled() (string, bool) { return "nothing to iterate at lr 0", s.lr == 0 }

func (s staticFake) Extras() sim.Extras {
	x := s.fakeMethod.Extras()
	x.Settled = s.Settled
	return x
}

// startStatic starts a run of a staticFake with lr 0.
func startStatic(t *testing.T, f *fakeMethod, opt RunOptions) *Run {
	t.Helper()
	opt.Log, opt.FrameRate = quiet, 200
	c := fakeControls()
	c["lr"] = sim.Num(0)
	r, err := NewRun("t", staticFake{f}, fakeDataset(), c, 7, opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	t.Cleanup(func() {
		cancel()
		<-r.Done()
	})
	return r
}

// A method with nothing to iterate is stepped once after each change, to
// record it, and not again: it spends no budget while played, a control
// change shows at once (objective, trace, band), and a change that gives it
// something to iterate makes it run on.
func TestRunSettledMethodSpendsNoSteps(t *testing.T) { synctest.Test(t, testRunSettled) }

func testRunSettled(t *testing.T) {
	f := &fakeMethod{stepDelay: time.Millisecond}
	r := startStatic(t, f, RunOptions{MaxSteps: 1000})
	if err := r.Play(bg()); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, r, func(g *Frame) bool { return g.Status == StatusSettled })
	time.Sleep(2 * time.Second) // fake time: a running run would spend its whole budget
	synctest.Wait()
	if g := r.Latest(); g.Step != 1 || f.steps != 1 || g.Message == "" || g.StepsPerSec != 0 {
		t.Fatalf("settled run: step %d, %d method steps, message %q, %g steps/s; want one recording step", g.Step, f.steps, g.Message, g.StepsPerSec)
	}
	predicts := f.predicts
	var g *Frame

	// A change is recorded at once by one step: objective −(x−5)² − log 5
	// with x ≈ 0 (lr 0 never moves it), trace k = 5, a fresh band.
	if err := r.Set(bg(), "prior_scale", sim.Num(5)); err != nil {
		t.Fatal(err)
	}
	g = waitFrame(t, r, func(g *Frame) bool { return g.Step == 2 })
	if want := -25 - math.Log(5); math.Abs(g.Objective-want) > 0.5 || g.Status != StatusSettled {
		t.Fatalf("after prior_scale 5: objective %g (want ≈ %g), status %s", g.Objective, want, g.Status)
	}
	if len(g.Marks) != 1 || g.Marks[0].Step != 1 || f.predicts == predicts {
		t.Fatalf("marks %v, predicts %d → %d: want a mark at step 1 and a fresh band", g.Marks, predicts, f.predicts)
	}
	var c Cursor
	r.Read(&c)
	if n := len(c.Traces[1]); n != 2 || c.Traces[1][1].Step != 2 || c.Traces[1][1].Value != 5 {
		t.Fatalf("trace k: %v, want the new value at step 2", c.Traces[1])
	}

	// Something to iterate: it runs on, and stops again with lr back at 0.
	if err := r.Set(bg(), "lr", sim.Num(0.1)); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, r, func(g *Frame) bool { return g.Status == StatusRunning && g.Step > 20 })
	if err := r.Set(bg(), "lr", sim.Num(0)); err != nil {
		t.Fatal(err)
	}
	g = waitFrame(t, r, func(g *Frame) bool { return g.Status == StatusSettled })
	time.Sleep(time.Second)
	synctest.Wait()
	if h := r.Latest(); h.Step != g.Step {
		t.Fatalf("settled again at step %d, then stepped to %d", g.Step, h.Step)
	}

	// Paused, a change is still recorded at once; step commands spend
	// nothing more; play makes it settled, pause paused.
	if err := r.Pause(bg()); err != nil {
		t.Fatal(err)
	}
	at := r.Latest().Step
	if err := r.Set(bg(), "prior_scale", sim.Num(2)); err != nil {
		t.Fatal(err)
	}
	if err := r.Step(bg(), 100); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	synctest.Wait()
	if g = r.Latest(); g.Step != at+1 || g.Status != StatusPaused || g.Controls["prior_scale"] != sim.Num(2) {
		t.Fatalf("paused change: step %d (want %d), status %s, controls %v", g.Step, at+1, g.Status, g.Controls)
	}
}

// A run that spends its budget is done: a live change is refused (it could
// not act) and leaves no mark, play is refused, continue grants another
// budget and runs on, a non-live change or a reset starts again.
func TestRunBudgetContinue(t *testing.T) { synctest.Test(t, testRunBudgetContinue) }

func testRunBudgetContinue(t *testing.T) {
	r := startRun(t, &fakeMethod{stepDelay: time.Millisecond}, RunOptions{MaxSteps: 100})
	var fe *sim.FieldError
	if err := r.Continue(bg()); !errors.As(err, &fe) || fe.Field != "op" || !strings.Contains(fe.Message, "100 of its budget's steps left") {
		t.Fatalf("continue before the budget is spent = %v", err)
	}
	if err := r.Play(bg()); err != nil {
		t.Fatal(err)
	}
	g := waitFrame(t, r, func(g *Frame) bool { return g.Status == StatusDone })
	if g.Step != 100 || g.Budget != 100 || !strings.Contains(g.Message, "step budget of 100 steps spent") {
		t.Fatalf("done: step %d, budget %d, message %q", g.Step, g.Budget, g.Message)
	}
	if err := r.Set(bg(), "prior_scale", sim.Num(5)); !errors.As(err, &fe) || fe.Field != "prior_scale" || !strings.Contains(fe.Message, "continue") {
		t.Fatalf("live set on a done run = %v, want a FieldError saying continue or reset", err)
	}
	if err := r.Play(bg()); !errors.As(err, &fe) || fe.Field != "op" {
		t.Fatalf("play on a done run = %v", err)
	}
	if g = r.Latest(); len(g.Marks) != 0 || g.Controls["prior_scale"] != sim.Num(1) {
		t.Fatalf("a refused change left marks %v, controls %v", g.Marks, g.Controls)
	}

	if err := r.Continue(bg()); err != nil {
		t.Fatal(err)
	}
	if err := r.Set(bg(), "prior_scale", sim.Num(5)); err != nil {
		t.Fatal(err)
	}
	g = waitFrame(t, r, func(g *Frame) bool { return g.Status == StatusDone && g.Step == 200 })
	if g.Budget != 200 || len(g.Marks) != 1 || g.Marks[0].Step < 100 {
		t.Fatalf("continued: budget %d, marks %v", g.Budget, g.Marks)
	}

	// A non-live change starts again with a fresh budget.
	if err := r.Set(bg(), "width", sim.Num(20)); err != nil {
		t.Fatal(err)
	}
	if g = waitFrame(t, r, func(g *Frame) bool { return g.Epoch == 1 }); g.Status != StatusPaused || g.Step != 0 || g.Budget != 100 || g.Message != "" {
		t.Fatalf("after a non-live set on a done run: %s at step %d, budget %d, %q", g.Status, g.Step, g.Budget, g.Message)
	}
	r.Play(bg())
	waitFrame(t, r, func(g *Frame) bool { return g.Status == StatusDone })
	if err := r.Reset(bg()); err != nil {
		t.Fatal(err)
	}
	if g = waitFrame(t, r, func(g *Frame) bool { return g.Epoch == 2 }); g.Status != StatusPaused || g.Step != 0 || g.Budget != 100 {
		t.Fatalf("after reset: %s at step %d, budget %d", g.Status, g.Step, g.Budget)
	}
}
