package engine

import (
	"context"
	"errors"
	"fmt"
)

// Status is the state of a Run.
type Status string

const (
	// StatusPreparing: created by a Registry, its method is being
	// initialised in the run's goroutine, so a create never waits for a
	// costly Init; commands queue until it is paused. An Init that fails
	// leaves the run diverged with the reason.
	StatusPreparing Status = "preparing"
	StatusRunning   Status = "running"
	StatusPaused    Status = "paused"
	StatusDiverged  Status = "diverged" // NaN/Inf objective or a panic; stepping stopped
	// StatusDone: the step budget is spent. Live controls are refused (they
	// would not act); Continue grants another budget, Reset starts again.
	StatusDone Status = "done"
	// StatusSettled: played, but the method has nothing to iterate in its
	// current settings (sim.Extras.Settled): it is not stepped and spends no
	// budget; a control change recomputes it and records one step, and a
	// change that gives it something to iterate makes it run on.
	StatusSettled Status = "settled"
)

// Limits on what a command may ask for.
const (
	MaxStepCommand = 10_000    // largest n in a step command
	MaxSpeed       = 1_000_000 // largest steps-per-second cap
	maxMarks       = 64        // control changes kept for the UI
)

// ErrRunClosed is returned by commands sent to a run whose goroutine ended.
var ErrRunClosed = errors.New("run closed")

// ErrRunBusy is returned by a command the run could not take before the
// caller's context ended: commands already wait for a step in progress to
// end. It was not queued and will never be applied.
var ErrRunBusy = errors.New("the run is busy: commands already wait for a long step to end; this one was not applied, try again shortly")

// Queued is a command's answer when the run took it but had not answered
// within the caller's wait, because it is inside a long step or still
// preparing. It was not refused: the run applies it, or refuses it, when
// it is next between steps; Wait gives that answer. A queued command is
// never applied after an error was returned for it.
type Queued struct {
	Op     string
	Field  string // the control, for a set
	Step   int64  // the run's published step when it was queued: it applies after the step in progress
	Status Status // the run's published status then

	reply <-chan error
	done  <-chan struct{}
}

func (q *Queued) Error() string {
	if q.Status == StatusPreparing {
		return fmt.Sprintf("queued: the run is preparing; %s is applied when it is ready", q.what())
	}
	return fmt.Sprintf("queued: the run is inside a long step after step %d; %s is applied when that step ends", q.Step, q.what())
}

func (q *Queued) what() string {
	if q.Field != "" {
		return fmt.Sprintf("%s %s", q.Op, q.Field)
	}
	return q.Op
}

// Wait returns the run's answer to the queued command: nil once applied,
// the error that refused it, ErrRunClosed when the run ended first, or
// ctx.Err() when ctx ends first (the command stays queued).
func (q *Queued) Wait(ctx context.Context) error {
	select {
	case err := <-q.reply:
		return err
	case <-q.done:
		select {
		case err := <-q.reply: // answered just before the run ended
			return err
		default:
			return ErrRunClosed
		}
	case <-ctx.Done():
		return ctx.Err()
	}
}
