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
package cli
