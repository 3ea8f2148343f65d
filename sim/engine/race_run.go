package engine

import (
	"context"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/cputime"
)

// spent is the budget a run has spent since its last initialisation.
type spent struct {
	evals int64         // sim.StepStats.Evals, summed
	cpu   time.Duration // CPU time of its steps on the run's thread
}

// in returns the spent budget in unit u.
func (s spent) in(u Unit) float64 {
	if u == UnitCPU {
		return s.cpu.Seconds()
	}
	return float64(s.evals)
}

// opPace is the command that joins or leaves a pacing group. It is no
// viewer's op (a group spans runs: Registry.Pace makes one), so it is not
// in the command table.
var opPace = &opDef{name: "pace", apply: (*Run).paceCmd, still: true}

// Pace makes the run a member of g, leaving any group it was in; nil
// leaves. It waits for the run goroutine until ctx ends, as Do does.
func (r *Run) Pace(ctx context.Context, g *Group) error {
	return r.send(ctx, command{op: opPace, group: g})
}

func (r *Run) paceCmd(c command) error {
	r.leaveRace()
	if c.group != nil {
		r.race = c.group.join(r.spent.in(c.group.unit), r.racing())
	}
	return nil
}

// leaveRace leaves the run's pacing group, if any.
func (r *Run) leaveRace() {
	if r.race != nil {
		r.race.leave()
		r.race = nil
	}
}

// racing reports whether the run counts in its group's least spent: it
// has not stopped (a diverged or done run, a settled closed form, spends
// no more). A paused run counts: it holds the race until it plays again,
// so runs played one after the other start level.
func (r *Run) racing() bool {
	switch r.status {
	case StatusDiverged, StatusDone, StatusSettled:
		return false
	}
	return true
}

// syncRace tells the run's group what it has spent and whether it races.
func (r *Run) syncRace() {
	if r.race != nil {
		r.race.update(r.spent.in(r.race.g.unit), r.racing())
	}
}

// mayStep reports whether the run's group lets it step now (always, in
// none).
func (r *Run) mayStep() bool { return r.race == nil || r.race.may() }

// raceWake is the channel the run's group wakes it on; nil (never ready)
// in none.
func (r *Run) raceWake() <-chan struct{} {
	if r.race == nil {
		return nil
	}
	return r.race.wake
}

// oneThread makes a method that steps in several goroutines
// (a spec with sim.Parallel: a sampler's chains) step on the run's thread alone while
// the run is paced by CPU time, which is measured on that thread: its
// chains' work is then all counted. The cores' next share tells it again
// once the run is paced no more (with a Registry's shared count).
func (r *Run) oneThread() {
	if e, ok := r.m.(sim.EnvSetter); ok && r.cores.parallel && r.cores.env.Threads != 1 {
		r.cores.env.Threads = 1
		e.SetEnv(r.cores.env)
	}
}

// stepTimed is stepOnce, adding the step's CPU time to the spent budget
// when perStep (a CPU-paced run, whose group must know it after every
// step; the thread is locked by the batch).
func (r *Run) stepTimed(perStep bool) bool {
	if !perStep {
		return r.stepOnce()
	}
	t0, ok := cputime.Thread()
	w0 := time.Now()
	more := r.stepOnce()
	if t1, ok1 := cputime.Thread(); ok && ok1 {
		r.spent.cpu += t1 - t0
	} else {
		r.spent.cpu += time.Since(w0) // no thread clock: the wall's
	}
	r.syncRace()
	return more
}
