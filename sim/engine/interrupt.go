package engine

import "github.com/posterior-playground/playground/sim"

// Interrupting a step in flight. A method that implements
// sim.EnvSetter polls the run's halt count at a fine grain (a leapfrog
// step, an ensemble member) and returns from Step at once when it is
// positive; the run then marks the method stale and never steps it again
// before it is initialised anew. The count is raised when the run's
// context ends (a delete, an expiry, the registry's Close) and while a
// reset waits in the mailbox, the reset being what initialises the method
// again: a reset is counted in after it is queued and out when the run
// takes it, so the count is positive only while a queued reset is still
// to be applied, and a reset that could not be queued (ErrRunBusy)
// interrupts nothing. The count may dip below zero for a moment, when the
// run takes a reset before its sender counts it in.

// haltCancelled is added to the halt count when the run's context ends:
// more than any number of queued resets could take back.
const haltCancelled = 1 << 40

// offerEnv hands a method that takes one (sim.EnvSetter) the run's
// environment: the run's logger, so its lines carry the run's id, and the
// poll of the run's halt count as its Stop. The poll holds the count
// alone, not the run, so a method's workers never keep a dropped run
// alive. The cores keep the Env to tell the method its Threads.
func (r *Run) offerEnv() {
	e, ok := r.m.(sim.EnvSetter)
	if !ok {
		return
	}
	h := r.halt
	r.cores.env = sim.Env{Log: r.opt.Log, Stop: func() bool { return h.Load() > 0 }}
	e.SetEnv(r.cores.env)
}

// interrupted reports whether the step in flight is no longer wanted.
func (r *Run) interrupted() bool { return r.halt.Load() > 0 }

// cancelled interrupts the step in flight for good: the run's context ended.
func (r *Run) cancelled() { r.halt.Add(haltCancelled) }

// queued counts a command in once it is in the mailbox: a reset
// interrupts the step in flight, whose work it would throw away.
func (r *Run) queued(c command) {
	if restarts(c) {
		r.halt.Add(1)
	}
}

// dequeued counts a command out as the run takes it.
func (r *Run) dequeued(c command) {
	if restarts(c) {
		r.halt.Add(-1)
	}
}

// restarts reports whether c initialises the method again whatever its
// state: a reset.
func restarts(c command) bool { return c.op != nil && c.op.name == OpReset }
