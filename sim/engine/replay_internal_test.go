package engine

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/wire"
)

// A reset during a replay ends the replay (the run starts afresh, as a
// reset says), and a step past the link's path is reported, not hidden.
func TestReplayGivesUpOnResetAndOvershoot(t *testing.T) {
	r := startRun(t, &fakeMethod{stepDelay: 100 * time.Microsecond}, RunOptions{})
	done := make(chan error, 1)
	go func() { done <- replay(bg(), r, wire.Replay{Step: 1_000_000}) }()
	waitFrame(t, r, func(f *Frame) bool { return f.Step > 10 })
	if err := r.Reset(bg()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, errReplayReset) {
			t.Fatalf("replay after a reset: %v, want errReplayReset", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the replay went on after a reset")
	}

	r2 := startRun(t, &fakeMethod{stepDelay: 100 * time.Microsecond}, RunOptions{})
	if err := r2.Play(bg()); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, r2, func(f *Frame) bool { return f.Step > 20 })
	if err := replay(bg(), r2, wire.Replay{Step: 5}); !errors.Is(err, errReplayOvershot) {
		t.Fatalf("replay of a run already past its step: %v, want errReplayOvershot", err)
	}
}

// A method with nothing to iterate takes no step towards a replay's step:
// its replay ends at once where it stands, played, so its frames say
// "settled" (a viewer waiting for the step knows it is over), having
// spent one step to record its state. A change in the link that gives it
// something to iterate is applied and the replay steps on to its step.
func TestReplayOfASettledMethodEndsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeMethod{stepDelay: time.Millisecond}
		r := startStatic(t, f, RunOptions{})
		waitFrame(t, r, func(g *Frame) bool { return g.Status == StatusPaused })
		if err := replay(bg(), r, wire.Replay{Step: 300}); err != nil {
			t.Fatalf("replay: %v", err)
		}
		g := waitFrame(t, r, func(g *Frame) bool { return g.Status == StatusSettled })
		time.Sleep(time.Second) // fake time: nothing more may happen
		synctest.Wait()
		if h := r.Latest(); h.Step != 1 || f.steps != 1 || h.Status != StatusSettled || h.Epoch != g.Epoch {
			t.Fatalf("after the replay: step %d, %d method steps, status %s; want settled at step 1 after one recording step", h.Step, f.steps, h.Status)
		}

		f2 := &fakeMethod{stepDelay: time.Millisecond}
		r2 := startStatic(t, f2, RunOptions{})
		p := wire.Replay{Step: 50, Changes: []wire.Mark{{Step: 0, Name: "prior_scale", Value: sim.Num(3)}, {Step: 1, Name: "lr", Value: sim.Num(0.1)}}}
		if err := replay(bg(), r2, p); err != nil {
			t.Fatalf("replay with changes: %v", err)
		}
		if h := r2.Latest(); h.Step != 50 || h.Status != StatusPaused || h.Controls["lr"] != sim.Num(0.1) || h.Controls["prior_scale"] != sim.Num(3) {
			t.Fatalf("after a replay whose change makes it iterate: step %d, status %s, controls %v; want paused at 50", h.Step, h.Status, h.Controls)
		}
	})
}
