// Package engine runs methods live: a Run owns one initialised sim.Method,
// steps it in its own goroutine, takes commands between steps and publishes
// immutable frames into a latest-wins mailbox; a Registry holds the runs,
// enforces their caps and pauses or deletes those nobody watches.
//
// Methods never import engine: they implement the contract in package sim,
// and the engine reads what they offer through sim's optional interfaces
// (Chains, WeightSampler, Diagnoser, …). Controls reach a method validated:
// the engine checks every value against the method's spec before Init or
// Set sees it.
package engine
