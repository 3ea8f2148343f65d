// Package sim is the contract between Posterior Playground's inference
// methods and everything that runs them: what a method does (Stepper),
// what it is fitted to (a data set: Method; a target density:
// target.Method), the few optional capabilities it may add, control specs
// and their one validation, data sets, and the typed FieldError that
// carries a bad value from the command line or the browser back to its
// field.
//
// # The contract
//
// A Stepper is what every method does, whatever its problem: a spec, Step,
// Set of a live control, and Trace. A Method is a Stepper fitted to a
// data set (Init on a *Dataset) that predicts f on a grid, the band a run
// shows; a target.Method is one fitted to a two-dimensional target
// density (Init on a target.Target), with no data and no band. A problem
// that is neither is a new Init and nothing else: the engine runs any
// Stepper (engine.NewRun, engine.NewTargetRun).
//
// A method owns its parameters and buffers and is driven one Step at a
// time by a single goroutine. It draws training randomness only from the
// *rand.Rand handed to Init, and evaluation randomness (ELBO and IWBO
// estimates, the draws behind a predictive band) from a second stream
// seeded from it, so a seed reproduces a run bit for bit however often a
// browser asks for a band. A method that starts goroutines implements
// io.Closer.
//
// What else a method offers it says in three places. Its spec says what the
// engine or a view treats differently (Capabilities: AdaptsStepSize,
// Parallel), how many points it takes (MaxPoints) and how to read its
// traces (TraceInfo). Extras (extras.go) is a struct of optional functions
// it returns, each nil when the method has no such thing, as gonum's
// optimize.Problem holds Func, Grad and Hess: its noise std, its
// diagnostics, its own views, ELBO and IWBO estimates, an exact log
// marginal, closed-form predictive moments, Settled (nothing to iterate),
// moving an inducing input, and a sampler's exact posterior, work and
// per-chain function draws; a new read-out is a field, not a new type
// assertion. And six optional interfaces (optional.go, and Extender in
// extras.go), each with more than one implementer and a reason to be an
// interface rather than a field, say the rest:
//
//	Extender    returns the Extras: every method on data
//	EnvSetter   takes the run's Env (logger, stop poll, threads) before Init:
//	            gip, fbnn, livi, map and ensemble, the samplers
//	EvalSeeder  reseeds the evaluation stream before a band: every method
//	            whose Predict draws random numbers (all but the samplers)
//	DataSetter  carries on from its parameters on edited data: mfvi, gip,
//	            livi, fbnn, map and ensemble, the samplers
//	Weights     one weight's marginal, Gaussian or drawn: mfvi, livi
//	Chains      a sampler's chains, a value the draws table and the summary
//	            take: metropolis, sgld, hmc, nuts
//
// DataSpec (gip, mfvi, livi, map and ensemble, the samplers) belongs with
// the spec: it is how SpecFor fits one to the data.
//
// A method describes itself with a MethodSpec: its name, family, models
// and controls, each control a ControlSpec with a range, a default and
// whether it acts live or restarts the run. The spec a run is checked
// against is fitted to its data (SpecFor: gip takes at most one inducing
// point per training point), and Resolve, Init and Set check every value
// against it before the method sees it, so a method's own Init and Set
// only ever receive valid values. A refused value is a *FieldError naming
// the control and the allowed range, and changes nothing.
//
// # Packages
//
// Imports point one way: web/cli → web → handlers → sim/engine →
// sim/wire → sim → numeric. A method package imports only sim, sim/model,
// sim/target, numeric and, where it builds on one, another method package
// (fbnn's prior is gp's kernel; the gallery's runs use sampler and
// family); never the engine, the wire format or net/http. numeric imports
// nothing of sim.
//
//	numeric            autodiff tape, distributions, Adam, diagnostics (R-hat, ESS, Pareto k̂), RNG
//	numeric/fastblas   AVX2/FMA GEMM and triangular kernels, installed as gonum's BLAS
//	sim                this contract
//	sim/model          the shared network, its prior and hand-written passes
//	sim/datasets       the built-in data sets and the CSV loader
//	sim/mfvi, sim/gip, sim/livi, sim/fbnn, sim/gp, sim/mcmc
//	                   one package per family of methods on data
//	sim/target         2-D target densities (problems with no data) and their exact answer on a grid
//	sim/target/stan    log densities typed in Stan's notation, compiled to targets
//	sim/sampler        the 2-D samplers: Metropolis, MALA, HMC, NUTS, Langevin, with their mechanics recorded
//	sim/family         the 2-D variational families: mean-field, full-rank, a flow, SVGD
//	sim/gallery        a 2-D run: exact answers cached, equal-budget pacing, history against the truth, Report
//	sim/catalog        method names to constructors, for the server and the CLI
//	sim/simtest        the conformance suite every catalog method passes
//	sim/scenario       the home page's scenarios and their claims
//	sim/engine         the live run loop and the registry of runs
//	sim/wire           every JSON shape on the wire
//	sim/experiment     headless train-and-evaluate and sweeps
//	sim/sweeps         sweeps started from the browser
//	handlers           pages, the JSON API and the websocket stream
//	web                server assembly, middleware, limits, shutdown
//	web/cli            the playground command: serve, run (data or --target), sweep
//	static/app         the browser's ES modules: panels, plots, views (plane.js: the 2-D plane)
//
// # Adding a method
//
// A method on data is one package implementing Method, one entry in
// sim/catalog and a data set to check it on. The catalog's tests run sim/simtest over
// every entry: the spec is sane, a seed reproduces a run bit for bit, a
// refused Set changes nothing, Predict has the right shape, a NaN
// objective ends the run as diverged, and Close leaves no goroutine
// behind. Its own tests hold it to its exact special case. A 2-D sampler
// or family is a Config and a Step in sim/sampler or sim/family, listed in
// gallery.Methods, and tested against the exact grid's moments and
// marginals; the engine takes a method on a target as a target.Method.
//
// # Design
//
// One package per family, not one file per method in sim: each method
// owns its buffers and tests, and a half-finished method cannot break
// another's build. sim/catalog is the one place that names them all (it
// cannot live in sim, which the methods import).
//
// Hot loops are differentiated by hand where it pays: model.Net is the
// network's forward and backward pass on BLAS, which writes ReLU outputs
// straight into buffers with a permanent ones column and skips the zero
// activations; mfvi, livi, map, ensemble, fbnn and the samplers step
// through it, and tests hold it to the numeric tape's gradients. gip and
// gp run on the tape.
//
// Built-in data sets are standardised for the methods (model units); the
// command line reports them in model units, as their sources plot them,
// and the dashboard plots them in the data's own units. A CSV file is
// reported in the file's units.
package sim
