// Package numeric is the mathematics of Posterior Playground: a small
// reverse-mode automatic differentiation tape over dense float64 matrices,
// probability distributions, a seeded random number source, the Adam
// optimiser and the statistics used by the diagnostics.
//
// It knows nothing about models, data sets or the web.
//
// # The tape
//
// A Tape records operations on matrices as they run. Each operation returns a
// Var, a handle to a node on the tape. After the forward pass, Backward(v)
// propagates d v / d x into every node, and Grad(x) returns it.
//
// A training loop records the same sequence of operations every step. Reset
// rewinds the tape but keeps every node's value and gradient buffers, so the
// second and later passes of the same sequence allocate nothing. Parameters
// and constants are recorded with Param and Const, which alias the caller's
// matrix instead of copying it.
//
// Operations never panic on numerical failure: a failed Cholesky
// factorisation records an error on the tape, returned by Err, and later
// operations carry on with whatever values they have. Shape mismatches are
// programming errors and panic, as they do in gonum/mat.
//
// Values are row-major *mat.Dense. A 1×1 matrix is a scalar; Scalar reads it.
//
// # Broadcasting
//
// Add, Sub, Mul and Div accept operands of equal shape, or one operand that
// is a 1×c row (repeated down the rows of the other), an r×1 column (repeated
// across its columns) or a 1×1 scalar. The result has the larger shape, and
// the gradient of a broadcast operand is summed over the repeated axis.
//
// # BLAS
//
// Importing numeric installs fastblas.Implementation() as gonum's blas64
// implementation (in an init function), so the tape, gonum's mat and lapack
// and every package above run their matrix products and triangular solves on
// the AVX2/FMA kernels where the CPU has them, and on gonum's code otherwise
// or when built with the purego tag.
//
// # Diagnostics
//
// RHat, ESSBulk and ESSTail are ArviZ's rank-normalised split-chain
// statistics, checked against ArviZ's values to 1e-12. ESS sums the
// autocovariances directly while Geyer's initial pairs stop within 16
// lags (a well-mixing chain's, and the tail indicators'), and by FFT
// otherwise; the two routes agree to 1e-14 relative (tested). Summarize
// computes every statistic of one parameter at once; a Summarizer keeps
// its scratch between calls, so summarising chains of one shape again
// allocates nothing. ParetoKhat is the Pareto k̂ of importance ratios
// (PSIS), as R's loo computes it: TestParetoKhatLoo holds it to loo's
// values on fixed log-ratios (testdata/psis, made by make.R there) within
// 1e-6; the gallery reports it for every variational fit.
//
// # Performance
//
// make bench prints these figures: one step of each method, and the
// numeric kernels, as Go benchmarks with -benchmem (add -cpu 1 for one
// core, as below). Each benchmark also
// reports cpu-ns/op, the process's user and system CPU time per operation
// (package sim/cputime), which a machine shared with other jobs inflates
// far less than the wall time of ns/op. The table is CPU time per
// operation on one core (-cpu 1) of a two-core AMD EPYC (16 float64 FLOP a
// cycle with AVX2/FMA), the least and most of three runs on an
// otherwise idle machine, the gip row the range of 22 runs; every one
// allocates nothing per operation. On a loaded machine the same
// benchmarks read two to four times slower.
//
//	benchmark                                              CPU time / op  rate
//	sim/gip   BenchmarkStep (gap, M = 100, 2×50 network)   379–409 µs     ≈ 2,580 steps/s at the median
//	sim/mfvi  BenchmarkStep (gap)                          68.7–70.9 µs   14,100–14,600 steps/s
//	sim/mcmc  BenchmarkGrad/gap (2×50, N = 100)            25.4–25.7 µs   one log-density gradient
//	sim/livi  BenchmarkStep/sv-bound                       599–616 µs     1,630–1,670 steps/s
//	sim/livi  BenchmarkStep/jacobian                       811–837 µs     1,190–1,230 steps/s
//	sim/fbnn  BenchmarkStep (periodic, 50 particles)       2.24–2.31 ms   433–446 steps/s
//	sim/fbnn  BenchmarkStepGap (gap, 50 particles)         4.65–5.15 ms   194–215 steps/s
//	sim/mcmc  BenchmarkTransition/gap/hmc (20 leapfrogs)   605–618 µs     1,620–1,650 transitions/s
//	sim/mcmc  BenchmarkTransition/gap/nuts (early warm-up) 32.3–36.7 ms   27–31 transitions/s
//
// The same machine loaded by other jobs (load average about 20 on its two
// cores) reads two to three times slower: there the gip step measured
// 0.60–1.06 ms of CPU time (median 0.93 ms, nine runs) and mean-field's
// 108–143 µs (median 127 µs, eleven).
//
// numeric/fastblas's BenchmarkGIPGemmPeak puts a GIP step's four products
// against the one-core FMA peak BenchmarkFMAPeak measures in the same
// process, 45–48 GFLOP/s on this machine idle (16 FLOP a cycle at about
// 3 GHz). Idle, four runs each of the current kernels (medians, least–most):
// ΦᵀΛΦ (TN, 51×100×51) 71% (63–75), ΦᵀΛV (TN, 51×100×50) 81% (67–104),
// ΦW (NN, 100×51×50) 85% (74–92), dU·Wᵀ (NT, 100×50×51) 78% (74–93). The
// spread is the machine's: a share above 100% is a run whose peak
// measurement was slowed, and five runs in a row of the same binary ranged
// 44–75%; only alternated runs compare two builds. Timed in short bursts,
// the 6×8 main tiles run at the peak and the rest of a call is packing and
// the narrow edge panels.
//
// The gallery's methods on its 2-D targets, CPU time on one core with
// both cores busy beside them (least–most of two or three runs; each
// allocates nothing per step): sim/sampler's BenchmarkMetropolisGaussian
// 115–142 ns a transition (7.0–8.7 million a CPU-second) and
// BenchmarkNUTSBanana 270–290 ns a gradient (3.4–3.7 million gradient
// evaluations a CPU-second, 5.5 a transition); sim/family's BenchmarkStep
// under reverse KL (32 of q's draws a step): mean-field 8.5–9.6 µs,
// full-rank 9.5–10.3 µs, the flow 93–102 µs (9,900–10,800 steps a
// CPU-second), SVGD 275 µs; the flow under forward KL (256 draws a step)
// 0.74–0.81 ms.
//
// The BNN gradient does about 0.63 MFLOP, not the dense 1.6: on data
// sorted by x, each first-layer ReLU unit is active on one run of rows, and
// the products skip the rest (model.Net.UseSpans).
// A gip step is about 9 MFLOP of products and triangular solves on 51- and
// 100-wide shapes; an fbnn step at 50 particles is 47 MFLOP on periodic
// and 110 on gap, each particle's products its own, so fbnn is the slowest of the
// variational methods (its particles control, "Function samples" on the
// page, trades band accuracy for speed: package fbnn). A NUTS transition early in warm-up
// takes on the order of a thousand leapfrog steps.
//
// make bench-compare runs the key benchmarks interleaved, A/B, between a
// base ref and HEAD: on a shared machine only paired, alternated runs
// resolve a change of a few per cent. numeric/fastblas's BenchmarkFMAPeak
// measures one core's FMA ceiling, and BenchmarkGIPGemmPeak a GIP step's
// products as a share of it.
//
// Three scripts compare with other implementations on identical data, by
// CPU time on one core, and print the ratios:
//
//   - .ci/bench/nuts-vs-stan/run: bulk ESS per CPU-second of NUTS against
//     Stan's (rstan) on the linear model, warm-up included, with one ESS
//     implementation for both: 18.8× over five pairs on a loaded machine
//     (6.7× against Stan's own sampling loop alone, the strictest
//     accounting); make bench-compare's nuts-linear-cli has not slowed
//     since.
//   - .ci/bench/nuts-vs-stan/targets: the same on the gallery's
//     non-centred funnel and banana, seeds 1–5. Measured on a loaded
//     machine (the ESS per draw is the same on both sides; the playground
//     spends 0.12–0.18 CPU-seconds where rstan's sampling() spends
//     0.71–0.99): funnel median 6.2× (4.8–6.7×), banana median 4.5×
//     (0.6–10.6×). The banana's low seed is one chain caught in the far
//     tail, where its step is too long for the narrow direction, for
//     hundreds of transitions; Stan's chains are caught about as often
//     (21 of ours, 14 of Stan's in 1,600 chains each) at other seeds.
//   - .ci/bench/vs-torch: GIP's and mean-field's steps per CPU-second
//     against PyTorch 1.13 eager, one thread each, with a check that their
//     ELBOs after training agree across seeds. Idle, seven alternated
//     pairs: GIP 15.7× (13.8–18.7×), mean-field 24.4× (21.7–34.7×); another
//     idle run of three pairs, GIP 17.8× (17.7–20.1×) and mean-field
//     20.1× (16.9–25.7×). PyTorch's own rate varies most between pairs.
package numeric
