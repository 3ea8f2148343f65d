package engine

import (
	"context"
	"fmt"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/target"
	"github.com/posterior-playground/playground/sim/wire"
)

// Run owns one initialised Method and steps it in one goroutine (Start):
// its status machine takes commands between steps (ops.go), and it
// publishes a Frame at a bounded rate into a latest-wins mailbox (Read);
// viewers never block it. What a frame shows is recorded by its recorders
// (record.go), and runs share the cores (cores.go).
type Run struct {
	id   string
	cfg  RunConfig  // set by the registry
	opt  RunOptions // Log carries the run's id
	seed uint64
	m    sim.Stepper // a sim.Method on data, a target.Method on a target
	prob problem     // the data and the spec fitted to them (run_data.go)

	box    mailbox // commands in, frames out
	counts counts
	// halt is positive while the step in flight is no longer wanted: the
	// run's context ended (haltCancelled is added) or resets wait in the
	// mailbox (one each, counted in after they are queued and out when
	// applied). A method polls it as its sim.Env.Stop (interrupt.go).
	halt *atomic.Int64

	cost admission // the run's workload against its registry's budget (budget.go)

	// Owned by the run goroutine (and NewRun before Start).
	st    state // the status machine (run_state.go)
	ctl   controls
	pace  pace
	acct  account // the budget spent, and the pacing group that paces by it (race_run.go)
	cores cores
	rec   recorders
}

// controls are the run's controls, the ones it was last initialised with
// and the marks of the changes since, for the plots. Frames share them:
// each change makes new ones.
type controls struct {
	now   sim.Controls
	start sim.Controls // at the last (re)init: a replay's base
	marks []wire.Mark
}

// counts are the run's counters that other goroutines read.
type counts struct {
	started atomic.Bool
	viewers atomic.Int64
	taken   atomic.Int64 // steps over the run's life, resets included
}

// NewRun initialises m on d with fully resolved controls c and a fresh
// random stream for seed, and publishes a first frame. It does not start
// stepping: call Start. A data set larger than the method accepts
// (sim.MethodSpec.CheckData) and Init errors (and panics) are returned.
func NewRun(id string, m sim.Method, d *sim.Dataset, c sim.Controls, seed uint64, opt RunOptions) (*Run, error) {
	if d == nil {
		return nil, &sim.FieldError{Field: "data", Message: "required: the data set the method is fitted to"}
	}
	return newReadyRun(id, m, d, nil, c, seed, opt)
}

// NewTargetRun is NewRun for a method fitted to a target density t, which
// has no data: its frames carry no data, no band and no data diagnostics,
// and the data commands are refused.
func NewTargetRun(id string, m target.Method, t target.Target, c sim.Controls, seed uint64, opt RunOptions) (*Run, error) {
	if t == nil {
		return nil, &sim.FieldError{Field: "target", Message: "required: the target density the method is fitted to"}
	}
	return newReadyRun(id, m, nil, t, c, seed, opt)
}

// newReadyRun builds a run, initialises its method and publishes its
// first frame.
func newReadyRun(id string, m sim.Stepper, d *sim.Dataset, t target.Target, c sim.Controls, seed uint64, opt RunOptions) (*Run, error) {
	r, err := newRun(id, m, d, t, c, seed, opt)
	if err != nil {
		return nil, err
	}
	if err := r.initMethod(r.ctl.now); err != nil {
		return nil, err
	}
	r.st.initialised()
	r.publish(time.Now())
	return r, nil
}

// newRun builds a run of m on d (a sim.Method) or t (a target.Method),
// preparing: everything but the method's Init, which is cheap; the caller
// initialises it (NewRun) or lets the run goroutine do so (prepare). It
// publishes no frame. It refuses a data set larger than the method accepts
// before anything is built.
func newRun(id string, m sim.Stepper, d *sim.Dataset, t target.Target, c sim.Controls, seed uint64, opt RunOptions) (*Run, error) {
	opt = opt.withDefaults()
	opt.Log = opt.Log.With("run", id)
	r := &Run{
		id: id, m: m, seed: seed, opt: opt,
		ctl:  controls{now: cloneControls(c), start: cloneControls(c)},
		st:   state{status: StatusPreparing, budget: opt.MaxSteps, unrecorded: true},
		pace: pace{speed: opt.Speed}, cores: newCores(opt),
		halt: new(atomic.Int64),
	}
	r.offerEnv()
	var spec sim.MethodSpec
	if err := r.safely("Spec", func() { spec = specFor(m, d) }); err != nil {
		return nil, err
	}
	if err := spec.CheckData(d); err != nil {
		return nil, err
	}
	r.prob.init(d, t, &spec)
	r.cores.parallel = spec.Has(sim.Parallel) // a method's, whatever its data
	r.box = newMailbox(append([]string(nil), spec.Traces...), opt.HistoryCap)
	r.rec = newRecorders(r, spec)
	return r, nil
}

// prepare initialises the method of a run created preparing, in the run's
// goroutine before any command, and publishes the outcome: paused, or
// diverged with Init's error (a set or a reset tries again).
func (r *Run) prepare() {
	if r.st.status != StatusPreparing {
		return
	}
	if err := r.initMethod(r.ctl.now); err != nil {
		name := r.Spec().Name
		if r.interrupted() { // deleted or reset while it started: not the controls' fault
			r.st.stale = true
			r.st.diverge("interrupted while starting; reset to start again")
			return
		}
		r.opt.Log.Warn("run could not start", "method", name, "err", err)
		r.st.diverge(fmt.Sprintf("%s could not start with these controls: %v; change a control, or delete the run", name, err))
	} else {
		r.st.initialised()
	}
	r.publish(time.Now())
}

// ID is the run's identifier.
func (r *Run) ID() string { return r.id }

// Config is what the run was created from (zero unless made by a Registry).
func (r *Run) Config() RunConfig { return r.cfg }

// Spec is the method's spec fitted to the run's current data: commands are
// checked against it, and it is refitted when the data are edited.
func (r *Run) Spec() sim.MethodSpec { return *r.prob.spec.Load() }

// TraceNames names the trace series, in the order of Cursor.Traces.
func (r *Run) TraceNames() []string { return r.box.traces }

// Data is the training data in the user's units.
// It changes when the data are edited (SetData).
func (r *Run) Data() *wire.DataPoints { return r.prob.points.Load() }

// Done is closed when the run's goroutine has returned.
func (r *Run) Done() <-chan struct{} { return r.box.done }

// Viewers is the number of viewers attached with AddViewer.
func (r *Run) Viewers() int { return int(r.counts.viewers.Load()) }

// StepsTaken counts the steps the run has taken over its life, resets
// included, for monitoring: unlike Frame.Step it never goes back.
func (r *Run) StepsTaken() int64 { return r.counts.taken.Load() }

// AddViewer counts a viewer in and returns the function that counts it out.
func (r *Run) AddViewer() (release func()) {
	r.counts.viewers.Add(1)
	var once sync.Once
	return func() { once.Do(func() { r.counts.viewers.Add(-1) }) }
}

// Start steps the run in a new goroutine until ctx is cancelled. It may be
// called once. The goroutine, and any its method starts (a sampler's
// chains), carry the profiler labels run and method, so a CPU profile of
// the server splits by run (go tool pprof -tagfocus run=ID).
func (r *Run) Start(ctx context.Context) {
	r.markStarted()
	go r.labelled(ctx)
}

// labelled is loop under the run's profiler labels.
func (r *Run) labelled(ctx context.Context) {
	pprof.Do(ctx, pprof.Labels("run", r.id, "method", r.cfg.Method), r.loop)
}

func (r *Run) markStarted() {
	if r.counts.started.Swap(true) {
		panic("sim: Run.Start called twice")
	}
}

// initMethod initialises the method with controls c and a fresh stream.
func (r *Run) initMethod(c sim.Controls) error {
	var err error
	if perr := r.safely("Init", func() { err = r.prob.initMethod(r.m, c, numeric.NewStream(r.seed, sim.StreamRun)) }); perr != nil {
		return perr
	}
	if err == nil {
		r.st.stale = false
	}
	return err
}

// safely calls fn and turns a panic into an error, logging its stack.
func (r *Run) safely(what string, fn func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = r.recovered(what, p)
		}
	}()
	fn()
	return nil
}

func cloneControls(c sim.Controls) sim.Controls {
	out := make(sim.Controls, len(c))
	for k, v := range c {
		out[k] = v
	}
	return out
}
