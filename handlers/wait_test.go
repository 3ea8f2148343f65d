package handlers

import (
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim/engine"
)

// The handlers' tests go through real sockets, which a synctest bubble
// cannot hold, so they run on the wall clock. They wait for the thing
// itself instead of sleeping: a run's frame on its notify channel
// (waitRun), a sweep's event on its channel (sweepEnv.waitInfo), and only
// where nothing signals the change, a condition polled until a deadline
// (waitFor).

// waitRun waits until run publishes a frame satisfying ok and returns it.
func waitRun(t testing.TB, run *engine.Run, timeout time.Duration, ok func(*engine.Frame) bool) *engine.Frame {
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

// waitFor polls cond every few milliseconds until it holds, and fails the
// test with what after timeout. It is for conditions no channel signals,
// such as a run's viewer count.
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
