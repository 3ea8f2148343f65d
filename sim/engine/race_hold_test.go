package engine

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/posterior-playground/playground/sim"
)

// evalsFake is fakeMethod with steps that each spend cost evaluations.
type evalsFake struct {
	*fakeMethod
	cost int64
}

func (m evalsFake) Step() sim.StepStats {
	st := m.fakeMethod.Step()
	st.Evals = m.cost
	return st
}

// TestHeldRunSaysSo races a cheap run (10 evaluations in 1 ms a step)
// against a dear one (10 evaluations in 20 ms) at equal evaluations, on
// the fake clock, beside the cheap one unpaced. The cheap racer may step
// only once the dear one has spent as much, so it waits 19 ms of every
// 20: every frame of it once it runs says held. The dear one is the least
// and never waits; the unpaced one never waits for anyone: no frame of
// either says held.
func TestHeldRunSaysSo(t *testing.T) { synctest.Test(t, testHeldRunSaysSo) }

func testHeldRunSaysSo(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := NewGroup(UnitEvals)
	mk := func(delay time.Duration, paced bool) *Run {
		r, err := NewRun("r", evalsFake{&fakeMethod{stepDelay: delay}, 10}, fakeDataset(), fakeControls(), 1, RunOptions{Log: quiet, FrameRate: 50})
		if err != nil {
			t.Fatal(err)
		}
		r.Start(ctx)
		if paced {
			if err := r.Pace(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		return r
	}
	cheap, dear, alone := mk(time.Millisecond, true), mk(20*time.Millisecond, true), mk(time.Millisecond, false)
	runs := []*Run{cheap, dear, alone}
	for _, r := range runs {
		if err := r.Play(ctx); err != nil {
			t.Fatal(err)
		}
	}
	held := make([]int, len(runs))
	frames := make([]int, len(runs))
	seen := make([]uint64, len(runs))
	// One frame is due every 20 ms; reading every 5 ms sees each. The
	// first frames after play (the first 100 ms) are left out: they count
	// from before the race began.
	for i := range 400 {
		time.Sleep(5 * time.Millisecond)
		for j, r := range runs {
			f := r.Latest()
			if f.Seq == seen[j] || i < 20 || f.Status != StatusRunning {
				continue
			}
			seen[j] = f.Seq
			frames[j]++
			if f.Held {
				held[j]++
			}
		}
	}
	for j, name := range []string{"cheap racer", "dear racer", "unpaced"} {
		if frames[j] < 10 {
			t.Fatalf("%s: %d running frames in 2 s of frames due every 20 ms", name, frames[j])
		}
	}
	t.Logf("frames %v held %v", frames, held)
	if held[0] != frames[0] {
		t.Errorf("cheap racer: %d of %d frames say held, want all", held[0], frames[0])
	}
	if held[1] != 0 || held[2] != 0 {
		t.Errorf("dear racer: %d of %d frames say held; unpaced: %d of %d; want none", held[1], frames[1], held[2], frames[2])
	}
	if ev := cheap.Latest().Evals; ev > dear.Latest().Evals+10 {
		t.Errorf("the cheap racer spent %d evaluations, ahead of the dear one's %d by more than a step", ev, dear.Latest().Evals)
	}
	cancel()
	for _, r := range runs {
		<-r.Done()
	}
}

// TestHoldMargin steps hold through frames 100 ms apart, waiting a given
// share of each: held from more than half, and then until less than a
// quarter, so a run near the line does not flash.
func TestHoldMargin(t *testing.T) {
	var h hold
	t0 := time.Unix(0, 0)
	if h.at(t0) {
		t.Fatal("the first frame says held")
	}
	const frame = 100 * time.Millisecond
	for i, c := range []struct {
		waited time.Duration
		want   bool
	}{
		{40 * time.Millisecond, false}, // under half
		{60 * time.Millisecond, true},  // over half
		{30 * time.Millisecond, true},  // held, and over a quarter
		{20 * time.Millisecond, false}, // under a quarter
		{50 * time.Millisecond, false}, // exactly half is not more
		{100 * time.Millisecond, true}, // the whole frame, still waiting at its end
	} {
		start := t0.Add(time.Duration(i) * frame)
		h.wait(true, start)
		h.wait(c.waited == frame, start.Add(c.waited)) // the last one still waits
		if got := h.at(start.Add(frame)); got != c.want {
			t.Errorf("frame %d, waited %v of %v: held %v, want %v", i+1, c.waited, frame, got, c.want)
		}
		if !h.from.IsZero() {
			h.wait(false, start.Add(frame))
		}
	}
}
