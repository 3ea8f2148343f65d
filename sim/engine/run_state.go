package engine

import (
	"fmt"
	"math"

	"github.com/posterior-playground/playground/sim"
)

// state is a run's status machine: where the run stands (Status), its
// step and the steps it may still take, and whether its method may be
// asked anything. Its transitions are its methods; it is owned by the run
// goroutine (and NewRun before Start), so it needs no lock. A frame
// carries a copy of what it says (publish).
type state struct {
	ready      bool // the method was initialised: it may be asked for bands, traces and extras
	stale      bool // a step was interrupted: the method must be initialised again before it steps
	status     Status
	message    string // why the run diverged, is done or settled
	step       int64
	pending    int64 // steps left from a step command
	budget     int64 // step at which the run is done; 0 unlimited (extend raises it)
	unrecorded bool  // the method changed (Init, Set) since its last step
}

// active reports whether the run should be stepping.
func (s *state) active() bool {
	return s.status == StatusRunning || (s.status == StatusPaused && s.pending > 0)
}

// shows reports whether the method may be asked what it shows (a band, a
// view, its diagnostics): it was initialised and has not diverged.
func (s *state) shows() bool { return s.ready && s.status != StatusDiverged }

// racing reports whether the run counts in its pacing group's least spent:
// it has not stopped (a diverged or done run, a settled closed form, spends
// no more). A paused run counts: it holds the race until it plays again,
// so runs played one after the other start level.
func (s *state) racing() bool {
	switch s.status {
	case StatusDiverged, StatusDone, StatusSettled:
		return false
	}
	return true
}

// stopped returns an error when the run cannot step until it is reset.
func (s *state) stopped() error {
	switch s.status {
	case StatusDiverged:
		return &sim.FieldError{Field: "op", Message: "the run diverged (" + s.message + "); reset it to start again"}
	case StatusDone:
		return &sim.FieldError{Field: "op", Message: s.message}
	}
	return nil
}

// initialised: the method was initialised (NewRun, prepare) and waits,
// paused, for a play.
func (s *state) initialised() { s.ready, s.status = true, StatusPaused }

// restarted: the method was initialised again (reinit), at step 0 with a
// fresh step budget of maxSteps. A running (or settled) run keeps running
// when keepRunning.
func (s *state) restarted(keepRunning bool, maxSteps int64) {
	s.ready = true
	if !keepRunning || (s.status != StatusRunning && s.status != StatusSettled) {
		s.status = StatusPaused
	}
	s.step, s.pending, s.message = 0, 0, ""
	s.budget = maxSteps
}

// play runs the run on; pending single steps are dropped.
func (s *state) play() error {
	if err := s.stopped(); err != nil {
		return err
	}
	s.status, s.pending = StatusRunning, 0
	return nil
}

// pause stops a running (or settled) run, and pending single steps.
func (s *state) pause() {
	if s.status == StatusRunning || s.status == StatusSettled {
		s.status, s.message = StatusPaused, ""
	}
	s.pending = 0
}

// stepN takes n steps and leaves the run paused.
func (s *state) stepN(n int64) error {
	if err := s.stopped(); err != nil {
		return err
	}
	s.status, s.pending = StatusPaused, n
	return nil
}

// stepped counts a step taken: the method's state is recorded.
func (s *state) stepped() {
	s.step++
	s.unrecorded = false
	if s.pending > 0 {
		s.pending--
	}
}

// changed: the method changed between steps (Init, Set), so its state is
// not yet recorded (sim.Extras.Settled).
func (s *state) changed() { s.unrecorded = true }

// diverge stops the run for good (a reset starts it again), saying why.
func (s *state) diverge(msg string) {
	s.status, s.message, s.pending = StatusDiverged, msg, 0
}

// inBudget reports whether the run may take another step within its step
// budget.
func (s *state) inBudget() bool { return s.budget <= 0 || s.step < s.budget }

// checkBudget ends a run that reached its step budget as done; maxSteps
// is the budget Continue grants.
func (s *state) checkBudget(maxSteps int64) {
	if s.budget > 0 && s.step >= s.budget && s.status != StatusDiverged {
		s.status, s.pending = StatusDone, 0
		s.message = fmt.Sprintf("step budget of %d steps spent: continue for another %d, or reset", maxSteps, maxSteps)
	}
}

// extend grants a done run another step budget of maxSteps and runs it.
func (s *state) extend(maxSteps int64) error {
	switch {
	case s.status == StatusDiverged:
		return s.stopped()
	case s.status != StatusDone:
		left := "no step budget"
		if s.budget > 0 {
			left = fmt.Sprintf("%d of its budget's steps left", s.budget-s.step)
		}
		return &sim.FieldError{Field: "op", Message: fmt.Sprintf("nothing to continue: the run has not spent its step budget (%s); play runs it", left)}
	}
	s.budget = min(s.budget, math.MaxInt64-maxSteps) + maxSteps
	s.status, s.message, s.pending = StatusRunning, "", 0
	return nil
}

// settled: the method has nothing to iterate (sim.Extras.Settled, saying
// why); a run that was playing shows it, a paused one stays paused, and
// pending single steps are dropped.
func (s *state) settled(why string) {
	s.pending = 0
	switch s.status {
	case StatusRunning, StatusSettled:
		s.status, s.message = StatusSettled, why
	}
}

// unsettled: a settled run's method has something to iterate again, and
// it runs on. It reports whether it was settled.
func (s *state) unsettled() bool {
	if s.status != StatusSettled {
		return false
	}
	s.status, s.message = StatusRunning, ""
	return true
}
