// Package simtest checks that a sim.Method keeps the contract in package
// sim, as testing/fstest checks an fs.FS: TestMethod runs every check on
// one method and data set and reports each violation with what was asked
// and what came back.
//
// The contract it checks:
//
//   - Spec: a name, a family, control names that are unique, ranges with
//     Min ≤ Max and a default that passes its own Validate; trace names
//     that are unique; SpecFor(m, d) names the same controls, live alike
//     (it may append those of the model d resolves to),
//     and Trace returns one value per trace name.
//   - Determinism: two fresh methods with the same controls and the same
//     seed's stream (numeric.NewStream(seed, sim.StreamRun)) produce the
//     same objectives, traces and Predict draws, bit for bit; Predict
//     calls between steps do not change the training trajectory
//     (evaluation draws on a stream of its own); another seed changes
//     something.
//   - A rejected Set changes nothing: sim.Set refuses an unknown name, an
//     out-of-range or wrong-kind value and a non-live control with a
//     *sim.FieldError naming the control, and the method then steps as a
//     twin that was never asked; a valid value the method itself refuses
//     leaves it unchanged too, and one it takes, it takes alike in both
//     twins.
//   - Predict returns X equal to (and not sharing memory with) xs and
//     exactly samples functions of len(xs), finite after a step; none for
//     samples = 0.
//   - sim.Extras are set by the method's type and construction: the same
//     fields before Init, after it and after a step.
//   - A NaN objective ends a live run as engine.StatusDiverged at the last
//     good step, with its band kept and stepping refused.
//   - No goroutine outlives the method: after steps, a re-initialisation
//     and Close (for an io.Closer), and after an engine run's context is
//     cancelled, the goroutines are those before it.
//
// The checks run sequentially, not in parallel: the goroutine check
// compares against a snapshot taken when it starts.
package simtest
