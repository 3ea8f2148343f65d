package engine

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/wire"
)

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
	// Evals and CPU are the budget spent since the last initialisation:
	// the evaluations its steps reported (sim.StepStats.Evals) and their
	// CPU time on the run's thread (for a method stepping in several
	// goroutines, unless paced by CPU time or crowded, the wall time of
	// its batches). A chart may take either as its x-axis.
	Evals int64
	CPU   time.Duration
	// Held: the run is paced by a Group and waited for the others (it
	// was ahead of the least spent) for most of the time since the last
	// frame (hold says how much is most).
	Held        bool
	Predictive  *wire.Band // nil until a band could be drawn
	Marks       []wire.Mark
	Diagnostics map[string]float64 // finite values only
	Time        time.Time
	// Extras are the family-specific parts, each sent under its key: a
	// sampler's "draws" (record_draws.go), a weight's marginal "weights"
	// (record_weights.go), and whatever views the method offers (sim.Extras.Views,
	// record_views.go). Shared and immutable like the rest.
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

// mailbox is a run's way in and out: the commands it takes between
// steps, and its latest-wins publication — the latest frame, and the
// history of the objective and the traces with the epoch it belongs to.
// The run goroutine writes the publication, holding mu only to add a point
// or publish; viewers hold mu only to copy. Fields other than hist and
// frame are written by the run goroutine alone, which reads them without
// mu.
type mailbox struct {
	ctrl   chan command
	done   chan struct{} // closed when the run goroutine has returned
	traces []string      // the trace series' names, hist's columns 1…; fixed

	mu     sync.Mutex
	hist   *numeric.History // column 0 the objective, then the traces
	epoch  uint64           // counts re-initialisations
	frame  *Frame
	notify chan struct{} // closed and replaced on every publish
}

func newMailbox(traces []string, historyCap int) mailbox {
	return mailbox{ctrl: make(chan command, 16), done: make(chan struct{}), traces: traces,
		hist: numeric.NewHistory(historyCap, 1+len(traces)), notify: make(chan struct{})}
}

// latest returns the latest frame.
func (b *mailbox) latest() *Frame {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.frame
}

// put publishes f, numbering it, and wakes every viewer.
func (b *mailbox) put(f *Frame) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.frame != nil {
		f.Seq = b.frame.Seq + 1
	}
	f.Epoch = b.epoch
	b.frame = f
	close(b.notify)
	b.notify = make(chan struct{})
}

// newEpoch clears the history for a re-initialised method: its points
// belong to the next epoch, whose first frame the next put publishes.
func (b *mailbox) newEpoch() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.hist.Reset()
	b.epoch++
}

// add records a step's row in the history.
func (b *mailbox) add(step int64, row []float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.hist.Add(step, row)
}

// Latest returns the latest frame.
func (r *Run) Latest() *Frame { return r.box.latest() }

// Read returns the latest frame, fills c with the points kept since c's
// previous Read, and returns a channel closed when a newer frame is
// published. It never waits for the run.
func (r *Run) Read(c *Cursor) (*Frame, <-chan struct{}) { return r.box.read(c) }

func (b *mailbox) read(c *Cursor) (*Frame, <-chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.frame
	c.Full = !c.started || c.epoch != f.Epoch
	if c.Full {
		c.after = math.MinInt64
	}
	c.NewFrame = !c.started || c.seq != f.Seq
	c.started, c.epoch, c.seq = true, f.Epoch, f.Seq
	if len(c.Traces) != len(b.traces) {
		c.Traces = make([][]numeric.Point, len(b.traces))
	}
	c.Objective = c.Objective[:0]
	for i := range c.Traces {
		c.Traces[i] = c.Traces[i][:0]
	}
	if f.Epoch != b.epoch {
		// Reset, but its first frame is not out yet: the history belongs
		// to the next epoch; the next Read sends it whole.
		return f, b.notify
	}
	c.Objective = b.hist.Since(c.after, 0, c.Objective)
	for i := range c.Traces {
		c.Traces[i] = b.hist.Since(c.after, i+1, c.Traces[i])
	}
	if last, ok := b.hist.Last(); ok && last > c.after {
		c.after = last
	}
	return f, b.notify
}

// A command is an op decoded for the run goroutine (Do), or an Inspect.
type command struct {
	op    *opDef // nil: inspect
	n     int64
	name  string
	value sim.Value
	spec  *sim.MethodSpec                 // the spec a set was checked against
	fn    func(sim.Stepper, *sim.Dataset) // Inspect
	data  *sim.Dataset                    // OpData
	group *Group                          // Pace: the group to join, nil to leave
	reply chan error
}

// opName is the command's op, for Queued and errors.
func (c command) opName() string {
	if c.op == nil {
		return opInspect
	}
	return c.op.name
}

// opInspect runs a function on the run goroutine (Inspect).
const opInspect = "inspect"

// Inspect calls f with the method and its data set (nil on a target
// density) on the run goroutine,
// between two steps, and returns when f has. f may read the method (a
// sampler's kept draws) but not change it nor keep it; the run's state,
// its frames and its step budget are untouched. A panic in f is returned
// as an error, as the method's own panics are.
func (r *Run) Inspect(ctx context.Context, f func(m sim.Stepper, d *sim.Dataset)) error {
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
	case r.box.ctrl <- c:
		r.queued(c)
	case <-r.box.done:
		return ErrRunClosed
	case <-ctx.Done():
		return ErrRunBusy
	}
	q := &Queued{Op: c.opName(), reply: reply, done: r.box.done}
	if c.op != nil && c.op.name == OpSet {
		q.Field = c.name
	}
	select {
	case err := <-reply:
		return err
	case <-r.box.done:
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
