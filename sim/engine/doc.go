// Package engine runs methods live: a Run owns one initialised sim.Method,
// steps it in its own goroutine, applies commands between steps and
// publishes immutable frames into a latest-wins mailbox; a Registry holds
// the runs, enforces their caps and pauses or deletes those nobody
// watches.
//
// # The loop
//
// A run's goroutine repeats: take the commands waiting in its mailbox, step
// the method for one batch, publish a frame when one is due (FrameRate,
// 25 a second by default), and sleep when paused or held back by the speed
// cap. Every command is answered by the run itself, between two steps, so
// a method is only ever called from the run's goroutine. Viewers read the latest
// frame (Latest, or Read with a Cursor that returns the history points
// since that viewer's last frame) and never wait for the run; a slow
// viewer misses frames, it does not slow the run.
//
// Objective and trace histories are numeric.History buffers that decimate
// when full (keep every other point, double the stride), so a run of ten
// million steps holds HistoryCap points per series. The predictive band is
// redrawn at most every 100 ms and in at most a tenth of the run's wall
// time, so a method whose Predict is dear keeps nine tenths of its core
// for training. Run goroutines carry the profiler labels run and method, so
// a server's CPU profile splits by run (go tool pprof -tagfocus=method=hmc).
//
// # Status
//
// A run is preparing, paused, running, settled, done or diverged.
//
//   - Preparing: a Registry's run while its goroutine initialises the
//     method, so a create never waits for a costly Init. An Init that fails
//     leaves the run diverged with the reason.
//   - Paused: the start. Step n takes n steps (at most MaxStepCommand) and
//     pauses again.
//   - Running: stepping, at most Speed steps a second when a cap is set
//     (at most MaxSpeed).
//   - Settled: played, but the method has nothing to iterate in its
//     settings (sim.Settler: the exact GP with its kernel and noise held).
//     It is stepped once after each control change, to record the
//     recomputed band and objective, and spends no step budget otherwise.
//   - Done: the step budget (RegistryConfig.MaxSteps, 10,000,000 by
//     default) is spent. A live control is refused with a *sim.FieldError,
//     since it could not act; Continue grants another budget as large,
//     Reset or a restarting control starts again with a fresh one.
//   - Diverged: stopped on a NaN or infinite objective (the last good band
//     is kept), on a panic inside the method (recovered, logged with its
//     stack and reported on the stream), or on a failed Init, until Reset
//     or a control change.
//
// # Commands
//
// Play, Pause, Step, Reset, Continue, Set, SetSpeed, SetData, SetInducing
// and SetWeight each send one command and wait for the run's answer. A
// value is checked against the run's current spec (the spec fitted to its
// current data) and a bad one comes back as a *sim.FieldError that changed
// nothing. A command sent while the run is preparing, or inside a step
// longer than the caller's wait, is acknowledged as *Queued: it is applied
// or refused when the run is next between steps (Queued.Wait gives that
// answer), never both. Up to 16 commands wait per run; one more is
// ErrRunBusy and is never applied. Every applied control change is a mark
// on the plots (at most 64 kept); a change that restarts the method starts
// the run again at step 0.
//
// A run replays a shared link (Replay): from the seed and the controls it
// trains to the link's step, applying each recorded change at the step it
// was made (at most MaxReplaySteps steps and MaxReplayChanges changes),
// then pauses. Bands are seeded by step (sim.EvalSeed), so the replayed
// band equals the original's byte for byte (TestReplayReproducesTheBandBitForBit).
//
// # Interrupting a step
//
// A step is never cut for time, but it is interrupted when its work is no
// longer wanted: when the run is deleted, expires, is reset or the
// registry closes. A method that implements sim.Interruptible is handed a
// poll before Init and checks it at a fine grain (NUTS and HMC before
// every leapfrog step, fBNN before every particle's pass, LIVI before
// every sample, an ensemble before every member), returning at once when
// it says stop. The run discards the interrupted step (it is neither
// counted nor recorded) and never steps the method again before Init: a
// reset initialises it anew, a deleted run drops it. A reset raises the
// poll only once it is queued, so one refused as ErrRunBusy interrupts
// nothing (interrupt.go; TestDeleteInterruptsTheStep,
// TestResetInterruptsTheStep, TestCloseInterruptsTheSteps).
//
// # Sharing the cores
//
// The runs of one Registry count how many of them are stepping. While no
// more step than there are cores, each batch lasts up to BatchTime (the
// server uses 2 ms). When more step than there are cores, they take turns,
// one batch each, and a batch is cut to the run's share of a frame
// interval (at least a millisecond), so every run comes round within one
// frame (TestBatchTimeSharesTheFrameInterval). A step is never cut: a
// batch that runs past its budget is paid back by skipping turns, counted
// in the thread's CPU time (package cputime) so that the OS holding the
// thread off a loaded machine's cores is not charged to the run
// (TestBatchBudgetPaysBackOverruns). A sampler that steps its chains in
// several goroutines (sim.Threaded) is given as many as the other stepping
// runs leave cores, one when they are all taken; its draws are the same
// bit for bit for any count (mcmc's TestSetThreadsKeepsTheDraws).
//
// # Recording
//
// Besides the objective, traces and band, a run records what its method's
// family shows and adds it to the frame as a wire.Extra under its own key:
// a sampler's recent draws per chain with R-hat, ESS and rank plots (at
// most DrawWindow draws per chain sent, StatsWindow used for the
// statistics, refreshed at most twice a second), one weight's marginal
// for a weight-space method, and any view a method offers through
// sim.Views. Each is encoded once per change and shared by every viewer.
//
// # The registry
//
// A Registry caps the runs at MaxRuns (64) in all and MaxRunsPerClient (8)
// per client; beyond, Create returns a *LimitError saying what to do. A
// run nobody watches is paused after IdleTimeout (30 s) and deleted after
// ExpireAfter (1 min), freeing its slot. With Instance set every run id
// begins with the instance's name, so a balancer can route a run's
// requests to the instance that holds it. Close stops every run.
//
// Methods never import engine: they implement the contract in package
// sim, and the engine reads what they offer through sim's optional
// capabilities.
package engine
