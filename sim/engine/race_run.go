package engine

import (
	"context"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/cputime"
)

// account is the budget a run has spent since its last initialisation,
// and its place in the pacing group (race.go) that paces it by that
// budget. It is owned by the run goroutine; the group reads the lane's
// copy under its own lock.
type account struct {
	spent spent
	lane  *lane // nil: in no group
	hold  hold  // how long the run waits for its group, for Frame.Held
}

// join makes the account a member of g, counting what it has spent,
// leaving any group it was in; nil leaves.
func (a *account) join(g *Group, racing bool) {
	a.leave()
	if g != nil {
		a.lane = g.join(a.spent.in(g.unit), racing)
	}
}

// leave leaves the account's pacing group, if any.
func (a *account) leave() {
	if a.lane != nil {
		a.lane.leave()
		a.lane = nil
	}
}

// sync tells the account's group what it has spent and whether it races.
func (a *account) sync(racing bool) {
	if a.lane != nil {
		a.lane.update(a.spent.in(a.lane.g.unit), racing)
	}
}

// may reports whether the account's group lets its run step now (always,
// in none).
func (a *account) may() bool { return a.lane == nil || a.lane.may() }

// wake is the channel the account's group wakes its run on; nil (never
// ready) in none.
func (a *account) wake() <-chan struct{} {
	if a.lane == nil {
		return nil
	}
	return a.lane.wake
}

// perStep reports whether the run is paced by CPU time, so that its
// group must know what it spent after every step.
func (a *account) perStep() bool { return a.lane != nil && a.lane.g.unit == UnitCPU }

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
	r.acct.join(c.group, r.st.racing())
	return nil
}

// syncRace tells the run's group what it has spent and whether it races.
func (r *Run) syncRace() { r.acct.sync(r.st.racing()) }

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
		r.acct.spent.cpu += t1 - t0
	} else {
		r.acct.spent.cpu += time.Since(w0) // no thread clock: the wall's
	}
	r.syncRace()
	return more
}
