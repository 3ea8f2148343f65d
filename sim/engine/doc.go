// Package engine runs methods live: a Run owns one initialised sim.Method,
// steps it in its own goroutine, takes commands between steps and publishes
// immutable frames into a latest-wins mailbox; a Registry holds the runs,
// enforces their caps and pauses or deletes those nobody watches.
//
// A run is preparing (a Registry's run while its goroutine initialises the
// method, so a create never waits for a costly Init), paused (the start),
// running, settled, done or diverged. Commands sent while preparing, or
// during a step that takes long, are queued: a command is answered by the
// run, or acknowledged as *Queued and then applied or refused, never both;
// one the run cannot take is ErrRunBusy, never applied. Settled:
// played, but the method has nothing to iterate in its settings
// (sim.Settler, the exact GP with its kernel held); it is stepped once
// after each change, to record the recomputed state, and spends no step
// budget otherwise. Done: the step budget is spent; a live control is then
// refused with a *sim.FieldError (it could not act), Continue grants
// another budget as large and runs on, Reset or a non-live control starts
// again with a fresh one. Diverged: stopped on a NaN objective, a panic or
// an Init that failed while preparing, until Reset or a control change.
//
// Methods never import engine: they implement the contract in package sim,
// and the engine reads what they offer through sim's optional interfaces
// (Chains, WeightSampler, Diagnoser, …). Controls reach a method validated:
// the engine checks every value against the method's spec before Init or
// Set sees it.
package engine
