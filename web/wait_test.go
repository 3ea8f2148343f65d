package web

import (
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim/engine"
)

// waitRunFrame waits until run publishes a frame satisfying ok, on the
// run's notify channel, and returns it.
func waitRunFrame(t testing.TB, run *engine.Run, timeout time.Duration, ok func(*engine.Frame) bool) *engine.Frame {
	t.Helper()
	deadline := time.After(timeout)
	var c engine.Cursor
	for {
		f, changed := run.Read(&c)
		if ok(f) {
			return f
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("no such frame after %v; last: step %d status %s", timeout, f.Step, f.Status)
		}
	}
}

// waitFor polls cond every few milliseconds until it holds, and fails the
// test with what after timeout; for conditions no channel signals.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(timeout)
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("after %v: %s", timeout, what)
		}
	}
}
