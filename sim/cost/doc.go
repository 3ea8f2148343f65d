// Package cost estimates what a run will cost before it is built: the
// memory its method holds (Cost.Bytes), the arithmetic of one step
// (Cost.StepFLOPs) and the longest stretch of arithmetic between two
// polls of the engine's interrupt (Cost.PollFLOPs), from the method, its
// model and controls and the number of training points (Workload). It is
// pure and cheap: a server admits or refuses a run, and every live change
// to it, on the estimate alone.
//
// # What is counted
//
// Memory is the method's own buffers at their largest, in float64s: the
// activations and gradients of a network on every training point (one
// model.Net per chain, per particle or per Monte Carlo sample where the
// method keeps them apart), the weight vectors of the optimiser or the
// integrator (a NUTS chain keeps 124 of them: the trajectory's ends and
// one set per tree level), and the draws a sampler keeps at their cap.
// The structure of each formula is read off the method's code; the
// constants that code does not fix (a tape's nodes per weight in gip,
// the generator's buffers in livi) were measured once and are named where
// they are used. TestEstimateAgainstMeasuredHeap builds methods at
// several sizes and compares the estimate with the heap they hold after a
// collection.
//
// Arithmetic is counted, not measured: a network's forward pass on one
// point is 2·Σ (fan-in + 1)·fan-out multiply–adds, its gradient about
// three times that, and a step is as many gradients as the method takes
// at most (NUTS: 2^max_depth leapfrog steps a chain, every chain). On the
// machines this runs on one core does about 10⁹–10¹⁰ of them a second.
//
// The estimate errs high: a store of draws is counted full, NUTS's tree
// at its full depth, and the Go runtime's own overhead is left to the
// budget (a heap grows to about twice its live bytes between collections
// at the default GOGC).
package cost
