package engine

import (
	"runtime/pprof"

	"github.com/posterior-playground/playground/sim/wire"

	"github.com/posterior-playground/playground/sim"

	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/posterior-playground/playground/numeric"
)

// Status is the state of a Run.
type Status string

const (
	// StatusPreparing: created by a Registry, its method is being
	// initialised in the run's goroutine, so a create never waits for a
	// costly Init; commands queue until it is paused. An Init that fails
	// leaves the run diverged with the reason.
	StatusPreparing Status = "preparing"
	StatusRunning   Status = "running"
	StatusPaused    Status = "paused"
	StatusDiverged  Status = "diverged" // NaN/Inf objective or a panic; stepping stopped
	// StatusDone: the step budget is spent. Live controls are refused (they
	// would not act); Continue grants another budget, Reset starts again.
	StatusDone Status = "done"
	// StatusSettled: played, but the method has nothing to iterate in its
	// current settings (sim.Settler): it is not stepped and spends no
	// budget; a control change recomputes it and records one step, and a
	// change that gives it something to iterate makes it run on.
	StatusSettled Status = "settled"
)

// Limits on what a command may ask for.
const (
	MaxStepCommand = 10_000    // largest n in a step command
	MaxSpeed       = 1_000_000 // largest steps-per-second cap
	maxMarks       = 64        // control changes kept for the UI
)

// ErrRunClosed is returned by commands sent to a run whose goroutine ended.
var ErrRunClosed = errors.New("run closed")

// ErrRunBusy is returned by a command the run could not take before the
// caller's context ended: commands already wait for a step in progress to
// end. It was not queued and will never be applied.
var ErrRunBusy = errors.New("the run is busy: commands already wait for a long step to end; this one was not applied, try again shortly")

// Queued is a command's answer when the run took it but had not answered
// within the caller's wait, because it is inside a long step or still
// preparing. It was not refused: the run applies it, or refuses it, when
// it is next between steps; Wait gives that answer. A queued command is
// never applied after an error was returned for it.
type Queued struct {
	Op     string
	Field  string // the control, for a set
	Step   int64  // the run's published step when it was queued: it applies after the step in progress
	Status Status // the run's published status then

	reply <-chan error
	done  <-chan struct{}
}

func (q *Queued) Error() string {
	if q.Status == StatusPreparing {
		return fmt.Sprintf("queued: the run is preparing; %s is applied when it is ready", q.what())
	}
	return fmt.Sprintf("queued: the run is inside a long step after step %d; %s is applied when that step ends", q.Step, q.what())
}

func (q *Queued) what() string {
	if q.Field != "" {
		return fmt.Sprintf("%s %s", q.Op, q.Field)
	}
	return q.Op
}

// Wait returns the run's answer to the queued command: nil once applied,
// the error that refused it, ErrRunClosed when the run ended first, or
// ctx.Err() when ctx ends first (the command stays queued).
func (q *Queued) Wait(ctx context.Context) error {
	select {
	case err := <-q.reply:
		return err
	case <-q.done:
		select {
		case err := <-q.reply: // answered just before the run ended
			return err
		default:
			return ErrRunClosed
		}
	case <-ctx.Done():
		return ctx.Err()
	}
}

// RunOptions tunes a Run. Zero values take the defaults.
type RunOptions struct {
	MaxSteps     int64         // step budget; 0 is unlimited
	FrameRate    float64       // frames published per second, default 25
	HistoryCap   int           // points kept per series, default 1024
	BandSamples  int           // functions drawn for the band, default 20
	ShownSamples int           // sampled functions sent, default 5
	Speed        float64       // initial steps-per-second cap; 0 is as fast as possible
	Log          *slog.Logger  // default slog.Default()
	BatchTime    time.Duration // longest stretch of steps between command checks, default 10ms
	// Stepping, when set, counts the runs sharing it that are stepping now
	// (a Registry's runs). With more of them than cores a batch is cut
	// short so that every run comes round often enough to publish at its
	// frame rate: the Go scheduler takes them in turn, one batch each.
	Stepping *atomic.Int64
}

func (o RunOptions) withDefaults() RunOptions {
	if o.FrameRate <= 0 {
		o.FrameRate = 25
	}
	if o.HistoryCap <= 0 {
		o.HistoryCap = 1024
	}
	if o.BandSamples <= 0 {
		o.BandSamples = 20
	}
	if o.ShownSamples <= 0 {
		o.ShownSamples = 5
	}
	o.ShownSamples = min(o.ShownSamples, o.BandSamples)
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.BatchTime <= 0 {
		o.BatchTime = 10 * time.Millisecond
	}
	return o
}

// DefaultRunOptions returns the options a zero RunOptions takes, written
// out, for flags to start from. Log stays nil (slog.Default() when used) so
// a caller's logger still replaces it.
func DefaultRunOptions() RunOptions {
	o := RunOptions{}.withDefaults()
	o.Log = nil
	return o
}

// Frame is one published state of a run. A Frame and everything it points
// to are immutable once published; viewers share them.
type Frame struct {
	Seq         uint64 // publication counter
	Epoch       uint64 // counts re-initialisations; steps restart at 0
	Step        int64
	Pending     int64 // steps left of a step command
	Status      Status
	Message     string // why it diverged, stopped or settled
	Budget      int64  // the step at which it stops as done; 0 unlimited
	Controls    sim.Controls
	Start       sim.Controls // the controls at the last (re)initialisation: a replay's base
	Speed       float64      // steps-per-second cap, 0 none
	Objective   float64      // latest finite objective, NaN before the first step
	StepsPerSec float64
	Predictive  *wire.Band // nil until a band could be drawn
	Marks       []wire.Mark
	Diagnostics map[string]float64 // finite values only
	Time        time.Time
	// Extras are the family-specific parts, each sent under its key: a
	// sampler's "draws" (run_draws.go), a weight's marginal "weights"
	// (run_weights.go), and whatever views the method offers (sim.Views,
	// run_extras.go). Shared and immutable like the rest.
	Extras []*wire.Extra
	// Data are the training points in the user's units, the same pointer
	// until an edit (OpData) replaces them.
	Data *wire.DataPoints
}

// Extra returns the frame's extra under key, or nil.
func (f *Frame) Extra(key string) *wire.Extra {
	for _, x := range f.Extras {
		if x.Key == key {
			return x
		}
	}
	return nil
}

// Run owns one initialised Method and steps it in one goroutine (Start). It
// takes commands between steps and publishes a Frame at a bounded rate into
// a latest-wins mailbox (Read); viewers never block it.
type Run struct {
	id   string
	cfg  RunConfig // set by the registry
	m    sim.Method
	d    *sim.Dataset
	spec atomic.Pointer[sim.MethodSpec] // fitted to the current data, refitted on an edit (run_data.go)
	seed uint64
	opt  RunOptions
	log  *slog.Logger
	base *sim.Dataset                    // the data set the run was created on (run_data.go)
	data atomic.Pointer[wire.DataPoints] // the training data in the user's units, as last published

	ctrl    chan command
	done    chan struct{}
	started atomic.Bool
	viewers atomic.Int64
	taken   atomic.Int64 // steps over the run's life, resets included

	// Owned by the run goroutine (and NewRun before Start).
	ready      bool // the method was initialised: it may be asked for bands, traces and extras
	controls   sim.Controls
	start      sim.Controls // controls at the last (re)init; shared by frames, never written
	status     Status
	message    string
	step       int64
	budget     int64 // step at which the run is done; 0 unlimited (Continue raises it)
	unrecorded bool  // the method changed (Init, Set) since its last step
	pending    int64 // steps left from a step command
	speed      float64
	speedBase  time.Time
	speedStep  int64
	lastObj    float64
	marks      []wire.Mark
	band       *wire.Band
	bandRatio  float64 // the in-between ratio of band's samples; NaN without a gap (run_inbetween.go)
	bandStep   int64   // step the band was drawn at
	bandFresh  bool    // false after a control change or a re-initialisation
	nextBand   time.Time
	dirty      bool // something changed since the last publish
	nextFrame  time.Time
	rateStep   int64 // for steps per second
	rateTime   time.Time
	stepsPerS  float64
	threads    int           // what sim.Threaded was last told; 0: nothing yet
	overrun    time.Duration // how far the last batch ran past its budget, while runs take turns (batchBudget)
	row        []float64
	traceNames []string
	traceScale []float64     // model → plot units of each trace (sim.TraceInfo.Unit)
	drawRec    *drawRecorder // samplers' recent draws (run_draws.go)
	drawsOff   bool          // the method is not a sampler with per-chain traces
	weights    weightState   // the chosen weight's marginal (run_weights.go)
	extras     extraState    // the frame's extras (run_extras.go)

	// mu guards the history and the mailbox. The run holds it only to add a
	// point or publish; viewers only to copy.
	mu     sync.Mutex
	hist   *numeric.History // column 0 the objective, then the traces
	epoch  uint64
	frame  *Frame
	notify chan struct{} // closed and replaced on every publish
}

// NewRun initialises m on d with fully resolved controls c and a fresh
// random stream for seed, and publishes a first frame. It does not start
// stepping: call Start. A data set larger than the method accepts
// (sim.MethodSpec.CheckData) and Init errors (and panics) are returned.
func NewRun(id string, m sim.Method, d *sim.Dataset, c sim.Controls, seed uint64, opt RunOptions) (*Run, error) {
	r, err := newRun(id, m, d, c, seed, opt)
	if err != nil {
		return nil, err
	}
	if err := r.initMethod(r.controls); err != nil {
		return nil, err
	}
	r.ready, r.status = true, StatusPaused
	r.publish(time.Now())
	return r, nil
}

// newRun builds a run of m on d, preparing: everything but the method's
// Init, which is cheap; the caller initialises it (NewRun) or lets the run
// goroutine do so (prepare). It publishes no frame. It refuses a data set
// larger than the method accepts before anything is built.
func newRun(id string, m sim.Method, d *sim.Dataset, c sim.Controls, seed uint64, opt RunOptions) (*Run, error) {
	opt = opt.withDefaults()
	r := &Run{
		id: id, m: m, d: d, seed: seed, opt: opt, log: opt.Log.With("run", id),
		ctrl: make(chan command, 16), done: make(chan struct{}), notify: make(chan struct{}),
		controls: cloneControls(c), start: cloneControls(c), status: StatusPreparing, speed: opt.Speed, lastObj: math.NaN(),
		budget: opt.MaxSteps, unrecorded: true,
	}
	var spec sim.MethodSpec
	if err := r.safely("Spec", func() { spec = sim.SpecFor(m, d) }); err != nil {
		return nil, err
	}
	if err := spec.CheckData(d); err != nil {
		return nil, err
	}
	r.spec.Store(&spec)
	if l, ok := m.(sim.Logger); ok {
		l.SetLogger(r.log) // the method's lines carry the run's id
	}
	r.traceNames = append([]string(nil), spec.Traces...)
	r.traceScale = make([]float64, len(r.traceNames))
	for i, name := range r.traceNames {
		r.traceScale[i] = spec.TraceInfo[name].Unit.PlotFactor(d)
	}
	r.row = make([]float64, 1+len(r.traceNames))
	r.hist = numeric.NewHistory(opt.HistoryCap, len(r.row))
	r.base = d
	r.data.Store(dataPoints(d))
	return r, nil
}

// prepare initialises the method of a run created preparing, in the run's
// goroutine before any command, and publishes the outcome: paused, or
// diverged with Init's error (a set or a reset tries again).
func (r *Run) prepare() {
	if r.status != StatusPreparing {
		return
	}
	if err := r.initMethod(r.controls); err != nil {
		name := r.Spec().Name
		r.log.Warn("run could not start", "method", name, "err", err)
		r.status, r.message = StatusDiverged, fmt.Sprintf("%s could not start with these controls: %v; change a control, or delete the run", name, err)
	} else {
		r.ready, r.status = true, StatusPaused
	}
	r.publish(time.Now())
}

// ID is the run's identifier.
func (r *Run) ID() string { return r.id }

// Config is what the run was created from (zero unless made by a Registry).
func (r *Run) Config() RunConfig { return r.cfg }

// Spec is the method's spec fitted to the run's current data: commands are
// checked against it, and it is refitted when the data are edited.
func (r *Run) Spec() sim.MethodSpec { return *r.spec.Load() }

// TraceNames names the trace series, in the order of Cursor.Traces.
func (r *Run) TraceNames() []string { return r.traceNames }

// Data is the training data in the user's units.
// It changes when the data are edited (SetData).
func (r *Run) Data() *wire.DataPoints { return r.data.Load() }

// Done is closed when the run's goroutine has returned.
func (r *Run) Done() <-chan struct{} { return r.done }

// Viewers is the number of viewers attached with AddViewer.
func (r *Run) Viewers() int { return int(r.viewers.Load()) }

// StepsTaken counts the steps the run has taken over its life, resets
// included, for monitoring: unlike Frame.Step it never goes back.
func (r *Run) StepsTaken() int64 { return r.taken.Load() }

// AddViewer counts a viewer in and returns the function that counts it out.
func (r *Run) AddViewer() (release func()) {
	r.viewers.Add(1)
	var once sync.Once
	return func() { once.Do(func() { r.viewers.Add(-1) }) }
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
	if r.started.Swap(true) {
		panic("sim: Run.Start called twice")
	}
}

// Latest returns the latest frame.
func (r *Run) Latest() *Frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.frame
}

// Cursor is one viewer's position in a run's histories, so each viewer gets
// the points it has not seen: a slow viewer sees fewer frames, each carrying
// every point kept since its last one.
type Cursor struct {
	started bool
	epoch   uint64
	after   int64
	seq     uint64

	// Filled by Read.
	Objective []numeric.Point
	Traces    [][]numeric.Point // in the order of TraceNames
	Full      bool              // the points replace what the viewer had (first read, or after a reset)
	NewFrame  bool              // the frame differs from the one the last Read returned
}

// Read returns the latest frame, fills c with the points kept since c's
// previous Read, and returns a channel closed when a newer frame is
// published. It never waits for the run.
func (r *Run) Read(c *Cursor) (*Frame, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.frame
	c.Full = !c.started || c.epoch != f.Epoch
	if c.Full {
		c.after = math.MinInt64
	}
	c.NewFrame = !c.started || c.seq != f.Seq
	c.started, c.epoch, c.seq = true, f.Epoch, f.Seq
	if len(c.Traces) != len(r.traceNames) {
		c.Traces = make([][]numeric.Point, len(r.traceNames))
	}
	c.Objective = c.Objective[:0]
	for i := range c.Traces {
		c.Traces[i] = c.Traces[i][:0]
	}
	if f.Epoch != r.epoch {
		// Reset, but its first frame is not out yet: the history belongs
		// to the next epoch; the next Read sends it whole.
		return f, r.notify
	}
	c.Objective = r.hist.Since(c.after, 0, c.Objective)
	for i := range c.Traces {
		c.Traces[i] = r.hist.Since(c.after, i+1, c.Traces[i])
	}
	if last, ok := r.hist.Last(); ok && last > c.after {
		c.after = last
	}
	return r.frame, r.notify
}

type command struct {
	op    *opDef // nil: inspect
	n     int64
	name  string
	value sim.Value
	spec  *sim.MethodSpec                // the spec a set was checked against
	fn    func(sim.Method, *sim.Dataset) // Inspect
	data  *sim.Dataset                   // OpData
	reply chan error
}

// name is the command's op, for Queued and errors.
func (c command) opName() string {
	if c.op == nil {
		return opInspect
	}
	return c.op.name
}

// opInspect runs a function on the run goroutine (Inspect).
const opInspect = "inspect"

// Inspect calls f with the method and the data set on the run goroutine,
// between two steps, and returns when f has. f may read the method (a
// sampler's kept draws) but not change it nor keep it; the run's state,
// its frames and its step budget are untouched. A panic in f is returned
// as an error, as the method's own panics are.
func (r *Run) Inspect(ctx context.Context, f func(m sim.Method, d *sim.Dataset)) error {
	err := r.send(ctx, command{fn: f})
	if q, ok := errors.AsType[*Queued](err); ok { // inside a long step: wait for it to end
		err = q.Wait(ctx)
	}
	return err
}

// send hands a command to the run goroutine and waits for its answer until
// ctx ends. Its answer is always true: the run's own answer (nil: applied),
// ErrRunBusy when the command could not be queued (never applied), or
// *Queued when it was queued but not yet answered (applied or refused
// later, never both).
func (r *Run) send(ctx context.Context, c command) error {
	reply := make(chan error, 1)
	c.reply = reply
	select {
	case r.ctrl <- c:
	case <-r.done:
		return ErrRunClosed
	case <-ctx.Done():
		return ErrRunBusy
	}
	q := &Queued{Op: c.opName(), reply: reply, done: r.done}
	if c.op != nil && c.op.name == OpSet {
		q.Field = c.name
	}
	select {
	case err := <-reply:
		return err
	case <-r.done:
		return q.Wait(ctx)
	case <-ctx.Done():
		select {
		case err := <-reply: // answered as the wait ended
			return err
		default:
		}
		f := r.Latest()
		q.Step, q.Status = f.Step, f.Status
		return q
	}
}

// initMethod initialises the method with controls c and a fresh stream.
func (r *Run) initMethod(c sim.Controls) error {
	var err error
	if perr := r.safely("Init", func() { err = r.m.Init(r.d, c, numeric.NewStream(r.seed, sim.StreamRun)) }); perr != nil {
		return perr
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

// dataPoints maps d to the user's units for plotting.
func dataPoints(d *sim.Dataset) *wire.DataPoints {
	p := &wire.DataPoints{Task: d.Task, X: make([]float64, len(d.X)), Y: make([]float64, len(d.Y)), Grid: make([]float64, len(d.Grid))}
	for i, x := range d.X {
		p.X[i] = d.XScale.ToUser(x)
	}
	for i, y := range d.Y {
		if d.Task == sim.Classification {
			p.Y[i] = y // labels are 0 and 1 in any units
		} else {
			p.Y[i] = d.YScale.ToUser(y)
		}
	}
	for i, x := range d.Grid {
		p.Grid[i] = d.XScale.ToUser(x)
	}
	if d.Truth != nil {
		p.Truth = make([]float64, len(d.Grid))
		for i, x := range d.Grid {
			t := d.Truth(x)
			if d.Task != sim.Classification {
				t = d.YScale.ToUser(t)
			}
			p.Truth[i] = t
		}
	}
	return p
}
