// Package cli is the playground command line, which main calls through
// [Main]. Its commands:
//
//   - serve (the default) runs the live dashboard on --addr until the context
//     is cancelled.
//   - run trains one method headless on a built-in data set (--data) or a
//     CSV (--data-file) and prints its summary, as a table or as one JSON
//     object (--json); --draws writes the draws to a CSV file. With
//     --budget-grads N instead of --steps it steps until the method has
//     spent N gradient evaluations (density evaluations for metropolis;
//     sim.StepStats.Evals), so every method given the same N stops within
//     one step of it, and the summary's evals says what was spent.
//     With --target it runs one of the 2-D gallery's methods (samplers and
//     variational families, gallery.Methods) on a built-in target
//     (target.Specs) or on a log density typed in Stan's notation, for
//     --steps or until --budget-grads evaluations are spent, and prints
//     each coordinate's mean and sd beside the exact answer's, with the
//     run's distance to it, as a table or as the gallery's Report (--json).
//     A text that does not parse exits 2 with the position of the
//     character first ("1:15: unknown function ...").
//   - sweep runs one method for each value of one numeric control (--param,
//     --values) and prints both bounds per value; --shard K/N runs one part,
//     and "sweep merge PART..." combines the parts into exactly the whole
//     sweep's output.
//   - help [CMD] prints the usage, or a command's flags, methods and data
//     sets (and for run the 2-D targets and their methods, with their
//     controls); with --method it lists that method's controls from the
//     catalog's spec (ranges, defaults, live or not), with --target the
//     target's and the gallery methods' controls.
//
// Every method control is also a flag (--prior_scale 3), checked against
// the method's spec. Bad input exits with status 2 and one line on stderr
// naming the field and what is allowed.
//
// # What run prints
//
// On data, run prints experiment.Summary; with --json exactly one JSON
// object on stdout, and progress on stderr. elbo_mean and elbo_se are over
// --eval-reps single-sample ELBO estimates, iwbo_mean and iwbo_se over as
// many repetitions of --iwbo-samples importance samples (null for a
// method with no evidence bound); grid holds the band of f (mean, sd,
// 2.5% and 97.5% quantiles, epistemic only) on the data set's plotting
// grid or --grid; rmse_truth and rmse_truth_outside are the predictive
// mean's RMS error to the noiseless truth on the grid and outside the
// inputs' range (null for a CSV, which has no truth); units is "model"
// for a built-in data set (its standardised units, as its source plots
// it) or "file" for a CSV, whose bounds then include the
// standardisation's log-Jacobian. A sampler adds its acceptance rate,
// divergences, step size, leapfrogs and ESS per second, and per parameter
// (params) the mean, sd, 5/50/95% quantiles, bulk and tail ESS and R-hat.
// On a target, run prints gallery.Report, as a table or as JSON.
//
// --draws FILE writes the draws as the Stan ecosystem's draws tables lay
// them out: .chain, .iteration and .draw (from 1; .draw counts across
// chains), then a sampler's every kept draw of its parameters, or for
// any other method one chain of 500 draws of f, a column f[x] per grid
// point. Summarising the file column by column gives the summary's
// numbers (sim/experiment TestDrawsRoundTripSampler, TestDrawsRoundTripVI).
//
// A sweep runs its (value, seed) pairs in parallel across the cores, with
// a progress bar on stderr; the parts of a sharded sweep merge into
// exactly what the whole sweep prints (TestSweepShardMergeIsByteForByte),
// and web/deploy/README.md runs one as a Kubernetes Indexed Job and as a
// Slurm array.
//
// Limits: --steps at most 10,000,000, --budget-grads 10⁹, --eval-reps
// 1000, --iwbo-samples 100,000, a sweep 1000 runs, a CSV 1 MiB and 10,000
// rows.
package cli
