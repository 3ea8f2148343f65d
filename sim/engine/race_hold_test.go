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
// 20: every frame of it after the first 2 s says held. The dear one is the least
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
	// frames of the first 2 s are left out: held averages over about a
	// second (holdMemory), from before the race began.
	for i := range 800 {
		time.Sleep(5 * time.Millisecond)
		for j, r := range runs {
			f := r.Latest()
			if f.Seq == seen[j] || i < 400 || f.Status != StatusRunning {
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

// TestHoldMargin steps hold through blocks of 60 frames 100 ms apart,
// waiting a given share of each frame, one block after the other. A
// steady share over a half makes it held, and it stays held until the
// share falls under a quarter. Runs taking turns, waiting through some
// frames and stepping through others, read their average share: held
// changes at most once a block, never back and forth.
func TestHoldMargin(t *testing.T) {
	const frame = 100 * time.Millisecond
	t0 := time.Unix(0, 0)
	var h hold
	h.at(t0)
	n := 0
	// frames runs k frames waiting share(i) of frame i and returns how
	// often held changed and what the last frame said.
	frames := func(k int, share func(i int) float64) (flips int, last bool) {
		last = h.held
		for i := range k {
			start := t0.Add(time.Duration(n) * frame)
			n++
			w := time.Duration(share(i) * float64(frame))
			h.wait(true, start)
			h.wait(w == frame, start.Add(w)) // a whole frame's wait is still on at its end
			got := h.at(start.Add(frame))
			if !h.from.IsZero() {
				h.wait(false, start.Add(frame))
			}
			if got != last {
				flips++
			}
			last = got
		}
		return flips, last
	}
	steady := func(s float64) func(int) float64 { return func(int) float64 { return s } }
	// 60 frames are 6 s, six times holdMemory: the average is within
	// e^-6 of the share.
	for _, c := range []struct {
		what      string
		share     func(int) float64
		flips     int
		wantFinal bool
	}{
		{"a steady 45%", steady(0.45), 0, false},
		{"a steady 60%", steady(0.6), 1, true},
		{"then 30%", steady(0.3), 0, true},
		{"then 10%", steady(0.1), 1, false},
		{"turns of a frame, 80% and none", func(i int) float64 { return 0.8 * float64(i%2) }, 0, false},
		{"turns of 3 frames, 80% and none", func(i int) float64 { return 0.8 * float64(i/3%2) }, 0, false},
		{"turns of a frame, all and none: on the line, held once", func(i int) float64 { return float64(i % 2) }, 1, true},
		{"waiting through 2 frames of 3", func(i int) float64 { return float64(min(i%3, 1)) }, 0, true},
		{"turns of 3 frames, all and none", func(i int) float64 { return float64(i / 3 % 2) }, 0, true},
		{"then 10% again", steady(0.1), 1, false},
	} {
		if flips, last := frames(60, c.share); flips != c.flips || last != c.wantFinal {
			t.Errorf("%s: held changed %d times, ending %v; want %d, ending %v (average share %.3f)", c.what, flips, last, c.flips, c.wantFinal, h.share)
		}
	}
}
