package engine

import "github.com/posterior-playground/playground/sim"

// Interrupting a step in flight. A method that implements
// sim.Interruptible polls the run's halt count at a fine grain (a leapfrog
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

// offerInterrupt hands an Interruptible method the poll of the run's halt
// count. The poll holds the count alone, not the run, so a method's
// workers never keep a dropped run alive.
func (r *Run) offerInterrupt() {
	i, ok := r.m.(sim.Interruptible)
	if !ok {
		return
	}
	h := r.halt
	i.SetInterrupt(func() bool { return h.Load() > 0 })
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
