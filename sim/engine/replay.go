package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/wire"
)

// Limits of a replay: a link may ask for at most MaxReplaySteps steps (a
// GIP run replays them in about two minutes on one core) and
// MaxReplayChanges control changes, the marks a run keeps.
const (
	MaxReplaySteps   = 200_000
	MaxReplayChanges = maxMarks
)

// CheckReplay validates a replay against the run's method: steps in [0,
// MaxReplaySteps], changes in step order, none after the target, each a
// live control with a valid value.
func CheckReplay(p *wire.Replay, spec sim.MethodSpec) error {
	if p.Step < 0 || p.Step > MaxReplaySteps {
		return &sim.FieldError{Field: "replay.step", Message: fmt.Sprintf("%d is outside the allowed range [0, %d] (a replay trains every step again)", p.Step, MaxReplaySteps)}
	}
	if len(p.Changes) > MaxReplayChanges {
		return &sim.FieldError{Field: "replay.changes", Message: fmt.Sprintf("%d changes; at most %d", len(p.Changes), MaxReplayChanges)}
	}
	for i, c := range p.Changes {
		if c.Step < 0 || c.Step > p.Step || (i > 0 && c.Step < p.Changes[i-1].Step) {
			return &sim.FieldError{Field: "replay.changes", Message: fmt.Sprintf("change %d (%s at step %d) is out of order or after the replay's step %d", i+1, c.Name, c.Step, p.Step)}
		}
		cs, err := spec.Check(c.Name, c.Value)
		if err != nil {
			return err
		}
		if !cs.Live {
			return &sim.FieldError{Field: c.Name, Message: "not a live control: a link carries it in the run's controls, not among its changes"}
		}
	}
	return nil
}

// errReplayOvershot is a replay whose run stepped past a change's step
// because someone else commanded it: the state is no longer the link's.
var errReplayOvershot = errors.New("the run was commanded during its replay and left the link's path")

// replay drives r through p with the run's own commands: step to each
// change's step, apply it, and step on to p.Step, leaving r paused there.
// A run is deterministic for its seed whatever its batches, so the state —
// and, as bands are seeded by step (sim.EvalSeeder), the band — equal the
// original's at that step, bit for bit.
//
// A method with nothing to iterate (sim.Extras.Settled) takes no steps but the
// one that records a change, so it never reaches a later step: while it
// is settled the replay does not step it, applies the changes as they
// come (a change that gives it something to iterate steps it on), and
// ends where it stands, played, so the run says "settled" and a viewer
// waiting for p.Step knows the replay is over.
func replay(ctx context.Context, r *Run, p wire.Replay) error {
	epoch := r.Latest().Epoch
	for _, c := range p.Changes {
		if err := stepTo(ctx, r, epoch, c.Step); err != nil && !errors.Is(err, errReplaySettled) {
			return err
		}
		if err := r.Set(ctx, c.Name, c.Value); err != nil {
			return fmt.Errorf("replaying %s = %s at step %d: %w", c.Name, c.Value, c.Step, err)
		}
	}
	err := stepTo(ctx, r, epoch, p.Step)
	if !errors.Is(err, errReplaySettled) {
		return err
	}
	if r.Latest().Epoch != epoch {
		return errReplayReset
	}
	return r.Play(ctx) // settled: records its state if it has not, spends nothing
}

// errReplaySettled is a replay whose method has nothing to iterate: no
// step command would move it.
var errReplaySettled = errors.New("the method has nothing to iterate")

// replayState is what stepTo needs that the latest frame may not show
// yet, asked on the run goroutine (which owns the method and the step):
// the run's step (a settled method's step recording a change is published
// with the next frame) and whether its method has nothing to iterate.
func replayState(ctx context.Context, r *Run) (step int64, settled bool, err error) {
	err = r.Inspect(ctx, func(m sim.Stepper, _ *sim.Dataset) {
		step = r.st.step
		if s := sim.ExtrasOf(m).Settled; s != nil {
			_, settled = s()
		}
	})
	return step, settled, err
}

// errReplayReset is a replay whose run was reset: it starts afresh instead.
var errReplayReset = errors.New("the run was reset during its replay")

// stepTo steps a paused run to step target with step commands and waits for
// it to get there; it gives up when the run leaves epoch (a reset), and
// returns errReplaySettled, sending nothing, when the method is settled.
func stepTo(ctx context.Context, r *Run, epoch uint64, target int64) error {
	var cur Cursor
	sent := int64(-1) // the step a command was sent at, until a frame shows it taken
	for {
		f, changed := r.Read(&cur)
		if sent >= 0 && (f.Step > sent || f.Pending > 0) {
			sent = -1 // frames from here on come after the command
		}
		switch {
		case f.Epoch != epoch:
			return errReplayReset
		case f.Step > target:
			return errReplayOvershot
		case f.Status == StatusDiverged || f.Status == StatusDone:
			return fmt.Errorf("the run stopped at step %d: %s", f.Step, f.Message)
		case sent >= 0: // a frame from before the command was taken
		case f.Status == StatusPaused && f.Pending == 0 && f.Step == target:
			return nil
		case f.Status == StatusPaused && f.Pending == 0:
			step, settled, err := replayState(ctx, r)
			switch {
			case err != nil:
				return err
			case step != f.Step: // the frame is behind: wait for the next
			case settled:
				return errReplaySettled
			default:
				if err := r.Step(ctx, min(target-f.Step, MaxStepCommand)); err != nil {
					return err
				}
				sent = f.Step
				continue
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
