// Package enginetest has helpers for tests that drive runs over real
// sockets or pages, which a synctest bubble cannot hold: they wait for the
// thing itself (a run's frame on its notify channel) instead of sleeping,
// and poll only what nothing signals.
package enginetest

import (
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim/engine"
)

// WaitFrame waits until run publishes a frame satisfying ok and returns it;
// after timeout it fails the test with the last frame's state.
func WaitFrame(t testing.TB, run *engine.Run, timeout time.Duration, ok func(*engine.Frame) bool) *engine.Frame {
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
			t.Fatalf("no such frame after %v; last: step %d status %s message %q", timeout, f.Step, f.Status, f.Message)
		}
	}
}

// Poll checks cond every few milliseconds until it holds, and fails the
// test with what after timeout. It is for conditions no channel signals,
// such as a run's viewer count.
func Poll(t testing.TB, timeout time.Duration, what string, cond func() bool) {
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
