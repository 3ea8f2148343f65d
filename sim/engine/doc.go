// Package engine runs methods live: a Run owns one initialised method,
// steps it in its own goroutine, applies commands between steps and
// publishes immutable frames into a latest-wins mailbox; a Registry holds
// the runs, enforces their caps and pauses or deletes those nobody
// watches.
//
// # Rules
//
// A method is only ever called from its run's goroutine: every command,
// and Inspect, is a message answered between two steps. Viewers never
// wait for the run: they read the latest frame (Latest, or Read with a
// Cursor that returns the history points since that viewer's last frame),
// and a slow viewer misses frames, it does not slow the run. A Frame and
// everything it points to are immutable once published and shared by
// every viewer. A seed reproduces a run bit for bit whatever its batches,
// its viewers or the cores it is given.
//
// # The loop
//
// Run is the loop and its status machine (run.go, run_loop.go); its parts
// are small types with one job each, owned by the run goroutine:
//
//	run_state.go    the status machine: status, step, the steps asked for, the budget
//	mailbox.go      commands in, the latest frame and the histories out
//	ops.go          the command table and Run.Do
//	pace.go         the speed cap, when the next frame is due, steps per second
//	cores.go        sharing the machine's cores between the runs of a Registry
//	run_publish.go  a frame: the status, controls and marks, and each recorder's part
//	record*.go      the recorders, one per view
//	run_data.go     what the method is fitted to: data and edits, or a target
//	replay.go       a shared link's steps and changes, played again
//	race*.go        pacing groups: runs stepped at equal budgets (Group, Run.Pace),
//	                a run's account of what it spent, and when a frame says it is
//	                held back by its group (Frame.Held)
//	budget.go       admission by cost: the budget, a run's workload, refusals
//
// The goroutine repeats: take the waiting commands, step the method for
// one batch, publish a frame when one is due (RunOptions.FrameRate, 25 a
// second by default), and sleep while paused or held back by the speed
// cap. Goroutines carry the profiler labels run and method (go tool pprof
// -tagfocus=method=hmc).
//
// # Problems
//
// A run is fitted to a data set (NewRun, a sim.Method: a regression or a
// classification, with a predictive band) or to a target density with no
// data (NewTargetRun, a target.Method: a sampler or a variational family
// in the plane). A target's run has no band recorder, publishes no data, and
// refuses the data commands with a *sim.FieldError. Each run has one
// spec, fitted to its current data (sim.SpecFor: gip takes at most one
// inducing point per training point) and refitted when an edit changes
// them; every command is checked against it.
//
// # Commands
//
// An op is one row of the command table (opTable in ops.go): its name, the
// wire.Op fields it reads, a shape check that needs no run, its decoding
// and validation against the run's spec and data, its effect on the run
// goroutine, and whether it marks the plots. The websocket and the HTTP
// ops endpoint go through Run.Do, a replay through the same rows; CheckOp
// checks a message's shape alone, OpNames lists the ops. Play, Pause,
// Step, Set and the other methods build the message and take its row.
//
// A bad value is a *sim.FieldError that changed nothing. A command sent
// while the run is preparing, or inside a step longer than the caller's
// wait, is acknowledged as *Queued: it is applied or refused when the run
// is next between steps (Queued.Wait gives that answer), never both. Up to
// 16 commands wait per run; one more is ErrRunBusy and is never applied.
// Every applied control change is a mark on the plots (the last 64 kept);
// a change that restarts the method starts the run again at step 0.
//
// A Registry's run created with RunConfig.Replay plays a shared link
// again: from the seed and the start controls
// it trains to the link's step, applying each recorded change at its step
// (at most MaxReplaySteps steps and MaxReplayChanges changes), then
// pauses. Bands are seeded by step (sim.EvalSeed), so a replayed band
// equals the original's byte for byte.
//
// # Status
//
// A run is preparing (a Registry's run while its goroutine initialises the
// method, so a create never waits for a costly Init), paused (the start;
// Step n takes n steps, at most MaxStepCommand), running (at most Speed
// steps a second when capped), settled (played, but the method has nothing
// to iterate: sim.Extras.Settled, stepped once after each change), done
// (the step budget, 10,000,000 by default, is spent: live controls are
// refused, Continue grants as many again) or diverged (a NaN or infinite
// objective, a panic inside the method, recovered and logged, or a failed
// Init, until Reset or a control change). The Status constants say more.
//
// # Recording
//
// What a frame shows is recorded by recorders (record.go), one per view:
// the objective and trace histories (numeric.History buffers that
// decimate when full, HistoryCap points per series however long the
// run), the predictive band (redrawn at most every 100 ms and in at most
// a tenth of the run's wall time), the method's diagnostics, a sampler's
// recent draws per chain with R-hat, ESS and rank plots (sim.Chains), one
// weight's marginal (sim.Weights) and the method's own views
// (sim.Extras.Views).
// A recorder has four calls:
//
//	reset(change)          the method changed: a new epoch, its data, or a control
//	before() bool          whether it needs this step's trace
//	observe(step, obj, tr) one step
//	contribute(frame, now) its part of a frame published now
//
// A part beyond the frame's own fields is a wire.Extra under the
// recorder's key, encoded once per change and shared by every viewer.
//
// # Interrupting a step
//
// A step is never cut for time, but it is interrupted when its work is no
// longer wanted: when the run is deleted, expires, is reset or the
// registry closes. A method that implements sim.EnvSetter is handed a poll
// (sim.Env.Stop) before Init and checks it at a fine grain (NUTS and HMC
// before every leapfrog step, fBNN before every particle's pass, LIVI
// before every sample, an ensemble before every member), returning at once
// when it says stop. The run discards the interrupted step (it is neither
// counted nor recorded) and never steps the method again before Init: a
// reset initialises it anew, a deleted run drops it. A reset raises the
// poll only once it is queued, so one refused as ErrRunBusy interrupts
// nothing (interrupt.go; TestDeleteInterruptsTheStep,
// TestResetInterruptsTheStep, TestCloseInterruptsTheSteps).
//
// # Sharing the cores
//
// The runs of one Registry count how many of them are stepping. While no
// more step than there are cores, a batch lasts up to BatchTime. When
// more step, they take turns, one batch each, a batch cut to the run's
// share of a frame interval (at least a millisecond), so every run comes
// round within one frame. A step is never cut: a batch that overruns is
// paid back by skipping turns, counted in the thread's CPU time (package
// cputime) so that a loaded machine's scheduling is not charged to the
// run. A method that steps in several goroutines (its spec declares
// sim.Parallel) is given the cores the other stepping runs leave as its
// sim.Env.Threads (sim.EnvSetter), one when all are taken.
//
// A method on a target that shows itself in the plane (PlaneMethod: the
// gallery's methods, run by NewTargetRun or Registry.CreateTarget) adds
// the plane view: the exact answer under PlaneExactKey, one payload for
// as long as the answer is the same, so a viewer is sent it once; under
// PlaneKey the draws and divergences since the last frame (bounded), the
// latest transition and SVGD's particles; under PlaneQKey q's density,
// one payload per new density, so a viewer that skipped its frame, or
// joins a paused run, is still sent it; under PlaneHistoryKey its history
// against the truth, a new payload only when it grows. A run on a target
// replays a link's state as a run on data does.
//
// # The registry
//
// A Registry caps the runs at MaxRuns (64) in all and MaxRunsPerClient (8)
// per client; beyond, Create returns a *LimitError saying what to do. It
// admits runs by cost (budget.go): before a run is built, package cost
// estimates its memory, the arithmetic of a step and that between two
// polls of its interrupt, and a run past Budget's bounds is refused with a
// *CostError naming what to lower; the runs' estimates together are held
// to Budget.TotalBytes, each counted at the dearest it was admitted at
// until it is removed. A control set or a data edit is admitted the same
// way before the run takes it (makeSet, makeData, SetData). A
// run nobody watches is paused after IdleTimeout (30 s) and deleted after
// ExpireAfter (1 min), freeing its slot. With Instance set every run id
// begins with the instance's name, so a balancer can route a run's
// requests to the instance that holds it. Close stops every run.
//
// # Extending
//
//   - An op: one row of opTable with its shape, make and apply functions
//     (and in wire.Op, its name, and a field if it takes a new argument).
//     Nothing else dispatches on op names.
//   - A view: one recorder file (record_NAME.go) added in newRecorders,
//     and one browser module under static/app registered in views.js. A
//     view a method computes itself needs no recorder: it sets
//     sim.Extras.Views, and the views recorder carries it.
//   - A method: implement sim.Method (data) or target.Method (a target);
//     the engine reads what else it offers as below. Methods never import
//     engine.
//
// # What the engine asks of a method
//
// Beyond Spec, Step, Set, Trace and Init (and Predict on data), the engine
// asks a method through sim's six optional interfaces, each with more than
// one implementer, the first of which returns a struct of optional
// functions:
//
//	sim.Extender    its sim.Extras: NoiseStd and Diagnostics for each frame,
//	                Views, Settled after every command, SetInducing for the
//	                inducing op
//	sim.EnvSetter   the run's logger and stop poll before Init, and, for a
//	                sim.Parallel spec, the threads before a batch whose share
//	                of the cores changed
//	sim.EvalSeeder  the band's evaluation seed (sim.EvalSeed) before every band
//	sim.DataSetter  an edited data set, else the method is initialised again
//	sim.Weights     the chosen weight's marginal, for the weights view
//	sim.Chains      a sampler's draws and counters, for the draws view
//
// sim.DataSpec fits the run's spec to its data (sim.SpecFor), and
// io.Closer ends a method's goroutines when the run ends. A run on a target
// adds PlaneMethod, this package's own, for the plane view. Everything a
// method only reports is a field of sim.Extras rather than an interface,
// so a new read-out asks for a field instead of adding a type assertion.
package engine
