package engine

import (
	"errors"
	"testing"
	"time"

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
