package engine

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/cost"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/wire"
)

// Command kinds: the ops a viewer sends (wire.Op.Op). Each is one row of
// the command table, opTable.
const (
	OpPlay  = "play"
	OpPause = "pause"
	OpStep  = "step"
	OpReset = "reset"
	OpSet   = "set"
	OpSpeed = "speed"
	// OpContinue grants a done run another step budget and runs it.
	OpContinue = "continue"
	// OpWeight chooses the weight whose marginal frames carry (n = index).
	OpWeight = "weight"
	// OpData replaces the training data (an edit in the plot).
	OpData = "data"
	// OpInducing moves one inducing input (sim.Extras.SetInducing).
	OpInducing = "inducing"
)

// MaxIndex bounds a weight's or an inducing input's index in a command
// before the run checks it against its method's own count.
const MaxIndex = 1 << 24

// An opDef is one row of the command table: everything the engine knows of
// a command, so that the stream, the HTTP ops endpoint and a replay all go
// through the same decoding, checks and effect.
type opDef struct {
	name string
	// args are the wire.Op fields the op reads; any other one given is
	// refused, naming it.
	args []string
	// shape checks what needs no run: required arguments, the engine's own
	// limits. Nil: nothing beyond args.
	shape func(m wire.Op) error
	// make decodes m for r, checking it against the run's current spec and
	// data, on the caller's goroutine: a bad command is refused at once,
	// even during a long step. Nil: the op has no arguments.
	make func(r *Run, m wire.Op, edits EditDecoder) (command, error)
	// apply is the command's effect, on the run goroutine.
	apply func(r *Run, c command) error
	// marks: the op changes the method between steps (a change mark on
	// the plots), so a settled method records its new state.
	marks bool
	// still: the op touches neither the method nor the run's status (the
	// speed cap, the weight shown): nothing to settle afterwards.
	still bool
}

// EditDecoder builds the data set an encoded edit (wire.Op.Edit) asks
// for on base, the run's data set: the encoding is the transport's (a
// link's). Errors are *sim.FieldError naming field.
type EditDecoder func(field, edit string, base *sim.Dataset) (*sim.Dataset, error)

// opTable is the command table. It is never written.
var opTable = []opDef{
	{name: OpPlay, apply: (*Run).play},
	{name: OpPause, apply: (*Run).pause},
	{name: OpStep, args: []string{"n"}, shape: stepShape, make: makeStep, apply: (*Run).stepCmd},
	{name: OpReset, apply: (*Run).reset},
	{name: OpContinue, apply: (*Run).extend},
	{name: OpSet, args: []string{"name", "value"}, shape: setShape, make: makeSet, apply: (*Run).setCmd, marks: true},
	{name: OpSpeed, args: []string{"value"}, shape: speedShape, make: makeSpeed, apply: (*Run).speedCmd, still: true},
	{name: OpWeight, args: []string{"n"}, shape: indexShape("a weight index"), make: makeIndex, apply: (*Run).weightCmd, still: true},  // record_weights.go
	{name: OpData, args: []string{"x", "y", "edit"}, shape: dataShape, make: makeData, apply: (*Run).dataCmd, marks: true},             // run_data.go
	{name: OpInducing, args: []string{"n", "value"}, shape: inducingShape, make: makeInducing, apply: (*Run).inducingCmd, marks: true}, // run_data.go
}

// opFields are wire.Op's argument fields, in the order errors name them.
var opFields = []string{"n", "name", "value", "x", "y", "edit"}

// OpNames lists the commands a viewer may send.
func OpNames() string {
	names := make([]string, len(opTable))
	for i, d := range opTable {
		names[i] = d.name
	}
	return strings.Join(names, ", ")
}

// lookupOp returns m's row of the table.
func lookupOp(name string) (*opDef, error) {
	for i := range opTable {
		if opTable[i].name == name {
			return &opTable[i], nil
		}
	}
	if name == "" {
		return nil, &sim.FieldError{Field: "op", Message: "required: one of " + OpNames()}
	}
	return nil, &sim.FieldError{Field: "op", Message: fmt.Sprintf("unknown op %q (allowed: %s)", name, OpNames())}
}

// CheckOp checks m's shape against the command table, needing no run: a
// known op, its required arguments, no argument it does not read, and the
// engine's own limits. Values that depend on the run (a control's range,
// the data's) are checked by Run.Do.
func CheckOp(m wire.Op) error {
	d, err := lookupOp(m.Op)
	if err != nil {
		return err
	}
	return d.check(m)
}

func (d *opDef) check(m wire.Op) error {
	if d.shape != nil {
		if err := d.shape(m); err != nil {
			return err
		}
	}
	present := map[string]bool{"n": m.N != nil, "name": m.Name != nil, "value": m.Value != nil, "x": m.X != nil, "y": m.Y != nil, "edit": m.Edit != nil}
	for _, a := range d.args {
		delete(present, a)
	}
	for _, f := range opFields {
		if present[f] {
			return &sim.FieldError{Field: f, Message: fmt.Sprintf("not used by op %q", m.Op)}
		}
	}
	return nil
}

// Do checks the command m against the table and the run's current spec and
// data, hands it to the run goroutine and waits for its answer until ctx
// ends (see send for the answers). edits decodes an encoded data edit; nil
// refuses one.
func (r *Run) Do(ctx context.Context, m wire.Op, edits EditDecoder) error {
	d, err := lookupOp(m.Op)
	if err != nil {
		return err
	}
	if err := d.check(m); err != nil {
		return err
	}
	c := command{op: d}
	if d.make != nil {
		if c, err = d.make(r, m, edits); err != nil {
			return err
		}
		c.op = d
	}
	return r.send(ctx, c)
}

// run applies c on the run goroutine: its effect, then settling unless the
// op is still.
func (d *opDef) run(r *Run, c command) error {
	err := d.apply(r, c)
	if !d.still {
		r.settle(d.marks && err == nil)
	}
	return err
}

// whole reports whether f is a whole number in [lo, hi].
func whole(f float64, lo, hi int64) bool {
	return f == float64(int64(f)) && f >= float64(lo) && f <= float64(hi)
}

func stepShape(m wire.Op) error {
	if m.N != nil && !whole(*m.N, 1, MaxStepCommand) {
		return &sim.FieldError{Field: "n", Message: fmt.Sprintf("%g is not a whole number in the allowed range [1, %d]", *m.N, MaxStepCommand)}
	}
	return nil
}

func makeStep(_ *Run, m wire.Op, _ EditDecoder) (command, error) {
	c := command{n: 1}
	if m.N != nil {
		c.n = int64(*m.N)
	}
	return c, nil
}

func setShape(m wire.Op) error {
	switch {
	case m.Name == nil || *m.Name == "":
		return &sim.FieldError{Field: "name", Message: "required: the control to set"}
	case m.Value == nil:
		return &sim.FieldError{Field: "value", Message: "required: a number, or one of a choice control's options"}
	}
	return nil
}

// makeSet checks the value against the run's spec now, so a bad one is
// refused at once, naming the control; the run checks again only if its
// spec was refitted (a data edit) before the command is applied.
func makeSet(r *Run, m wire.Op, _ EditDecoder) (command, error) {
	spec := r.prob.spec.Load()
	c, err := spec.Check(*m.Name, *m.Value)
	if err != nil {
		return command{}, err
	}
	v := c.Canonical(*m.Value)
	if err := r.admitChange(func(w *cost.Workload) { w.Controls[*m.Name] = v }); err != nil {
		return command{}, err
	}
	return command{name: *m.Name, value: *m.Value, spec: spec}, nil
}

func speedShape(m wire.Op) error {
	switch {
	case m.Value == nil || m.Value.IsChoice():
		return &sim.FieldError{Field: "value", Message: fmt.Sprintf("want steps per second, a number in [0, %d] (0: as fast as possible)", MaxSpeed)}
	case !(m.Value.Num >= 0 && m.Value.Num <= MaxSpeed):
		return &sim.FieldError{Field: "speed", Message: fmt.Sprintf("%g is outside the allowed range [0, %d] steps per second (0: as fast as possible)", m.Value.Num, MaxSpeed)}
	}
	return nil
}

func makeSpeed(_ *Run, m wire.Op, _ EditDecoder) (command, error) {
	return command{value: *m.Value}, nil
}

// indexShape checks an index n in [0, MaxIndex]: the run checks it against
// its method's count.
func indexShape(what string) func(wire.Op) error {
	return func(m wire.Op) error {
		if m.N == nil || !whole(*m.N, 0, MaxIndex) {
			return &sim.FieldError{Field: "n", Message: fmt.Sprintf("want %s, a whole number in [0, %d]", what, MaxIndex)}
		}
		return nil
	}
}

func makeIndex(_ *Run, m wire.Op, _ EditDecoder) (command, error) {
	return command{n: int64(*m.N)}, nil
}

func inducingShape(m wire.Op) error {
	if err := indexShape("an inducing input's index")(m); err != nil {
		return err
	}
	if m.Value == nil || m.Value.IsChoice() {
		return &sim.FieldError{Field: "value", Message: "want the inducing input's new x, a number in the plot's x-range"}
	}
	return nil
}

func makeInducing(_ *Run, m wire.Op, _ EditDecoder) (command, error) {
	x := m.Value.Num
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return command{}, notFinite(x)
	}
	return command{n: int64(*m.N), value: sim.Num(x)}, nil
}

func notFinite(x float64) error {
	return &sim.FieldError{Field: "value", Message: fmt.Sprintf("%g is not a finite input", x)}
}

// dataShape checks a data command: an edit, or x and y, or neither (the
// data set restored).
func dataShape(m wire.Op) error {
	switch {
	case m.Edit != nil && (m.X != nil || m.Y != nil):
		return &sim.FieldError{Field: "data", Message: "give the points as an edit or as x and y, not both"}
	case (m.X == nil) != (m.Y == nil):
		return &sim.FieldError{Field: "data", Message: "want both x and y (the points in the user's units), or neither to restore the data set"}
	case m.X != nil && len(m.X) != len(m.Y):
		return &sim.FieldError{Field: "data", Message: fmt.Sprintf("%d inputs x and %d targets y; want as many of each", len(m.X), len(m.Y))}
	}
	return nil
}

// makeData builds the data set a data command asks for on the run's base
// data set and checks it (checkEdited).
func makeData(r *Run, m wire.Op, edits EditDecoder) (command, error) {
	d, err := r.prob.base, error(nil)
	switch {
	case d == nil:
		return command{}, errNoData()
	case m.Edit != nil && edits == nil:
		return command{}, &sim.FieldError{Field: "edit", Message: "an encoded edit is not read here: give x and y"}
	case m.Edit != nil:
		d, err = edits("data", *m.Edit, r.prob.base)
	case m.X != nil:
		d, err = datasets.Edit(r.prob.base, m.X, m.Y)
	}
	if err != nil {
		return command{}, err
	}
	if err := r.checkEdited(d); err != nil {
		return command{}, err
	}
	if err := r.admitChange(func(w *cost.Workload) { w.Rows = d.N() }); err != nil {
		return command{}, err
	}
	return command{data: d}, nil
}

// Shorthands: each sends its op through the table (Do).

// Play starts stepping.
func (r *Run) Play(ctx context.Context) error { return r.Do(ctx, wire.Op{Op: OpPlay}, nil) }

// Pause stops stepping and cancels pending single steps.
func (r *Run) Pause(ctx context.Context) error { return r.Do(ctx, wire.Op{Op: OpPause}, nil) }

// Step performs n steps (1 ≤ n ≤ MaxStepCommand) and leaves the run paused.
func (r *Run) Step(ctx context.Context, n int64) error {
	f := float64(n)
	return r.Do(ctx, wire.Op{Op: OpStep, N: &f}, nil)
}

// Continue grants a run that spent its step budget (StatusDone) another
// budget as large as the first and plays it. It returns a *FieldError for
// a run that is not done.
func (r *Run) Continue(ctx context.Context) error { return r.Do(ctx, wire.Op{Op: OpContinue}, nil) }

// Reset re-initialises the method on the same data set with the current
// controls and a fresh random stream from the seed; the run is paused at
// step 0.
func (r *Run) Reset(ctx context.Context) error { return r.Do(ctx, wire.Op{Op: OpReset}, nil) }

// Set changes a control. It returns a *FieldError and changes nothing when
// the name or value does not fit the run's spec (fitted to its current
// data), or when the control is live and the run is done (the change could
// not act: Continue or Reset first). A live control acts on the running
// method; any other control re-initialises it, as Reset does.
func (r *Run) Set(ctx context.Context, name string, v sim.Value) error {
	return r.Do(ctx, wire.Op{Op: OpSet, Name: &name, Value: &v}, nil)
}

// SetSpeed caps the steps per second (0 removes the cap).
func (r *Run) SetSpeed(ctx context.Context, stepsPerSec float64) error {
	v := sim.Num(stepsPerSec)
	return r.Do(ctx, wire.Op{Op: OpSpeed, Value: &v}, nil)
}

// SetWeight chooses the weight whose marginal the frames carry. It returns
// a *FieldError naming "n" and the allowed range when index is outside [0,
// NumWeights()), or "op" when the method has no weight marginals.
//
// The index is checked by the run, against its method's count (a command
// from the wire is first held to [0, MaxIndex]).
func (r *Run) SetWeight(ctx context.Context, index int64) error {
	return r.sendOp(ctx, OpWeight, command{n: index})
}

// SetInducing moves inducing input i of a method with inducing inputs
// (sim.Extras.SetInducing) to x,
// in the user's units; the optimiser continues from there (a change mark
// "inducing input").
func (r *Run) SetInducing(ctx context.Context, i int, x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return notFinite(x)
	}
	return r.sendOp(ctx, OpInducing, command{n: int64(i), value: sim.Num(x)})
}

// sendOp sends the decoded command c of the op name, whose arguments the
// typed shorthands give: its effect checks them against the run.
func (r *Run) sendOp(ctx context.Context, name string, c command) error {
	def, err := lookupOp(name)
	if err != nil {
		return err
	}
	c.op = def
	return r.send(ctx, c)
}

// The effects of the ops without a file of their own, on the run goroutine.

func (r *Run) play(command) error {
	if err := r.st.play(); err != nil {
		return err
	}
	r.rebaseSpeed(time.Now())
	return nil
}

func (r *Run) pause(command) error {
	r.st.pause()
	return nil
}

func (r *Run) stepCmd(c command) error {
	return r.st.stepN(c.n)
}

func (r *Run) reset(command) error {
	err := r.reinit(r.ctl.now, false)
	if err != nil && r.interrupted() {
		// Another reset waits in the mailbox (or the run is ending) and
		// interrupted this one's Init: that reset starts the method
		// again, so this one is not a failure.
		r.st.stale = true
		return nil
	}
	if err != nil {
		r.diverge("reset failed: " + err.Error())
	}
	return err
}

func (r *Run) setCmd(c command) error { return r.set(c.name, c.value, c.spec) }

func (r *Run) speedCmd(c command) error {
	r.pace.speed = c.value.Num
	r.rebaseSpeed(time.Now())
	return nil
}
