package simtest

import (
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// Options tunes TestMethod. Zero values take the defaults.
type Options struct {
	// Steps is the length of every compared trajectory and the number of
	// good steps before the NaN in the divergence check; default 5. A few
	// are enough to see a wrong stream or a changed state: keep it small
	// for dear steps (NUTS on a network).
	Steps int
	// Samples is the functions asked of Predict; default 4.
	Samples int
	// Seed seeds every run's stream; default 1.
	Seed uint64
	// Controls override the spec's defaults for every run (fewer chains, a
	// shorter warm-up); they must be valid for SpecFor(m, d).
	Controls sim.Controls
	// Timeout bounds the wait for a live run's frames; default 1 minute.
	Timeout time.Duration
}

func (o Options) withDefaults() Options {
	if o.Steps <= 0 {
		o.Steps = 5
	}
	if o.Samples <= 0 {
		o.Samples = 4
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Timeout <= 0 {
		o.Timeout = time.Minute
	}
	return o
}

// NewFunc returns a new, uninitialised method; each call a fresh one.
type NewFunc func() (sim.Method, error)

// check is one part of the contract: nil when m keeps it, otherwise every
// violation found, joined.
type check struct {
	name string
	fn   func(nm NewFunc, d *sim.Dataset, o Options) error
}

var checks = []check{
	{"Spec", checkSpec},
	{"Determinism", checkDeterminism},
	{"RejectedSet", checkSet},
	{"PredictShape", checkPredict},
	{"EvalSeed", checkEvalSeed},
	{"Extras", checkExtras},
	{"NaNDiverges", checkDiverged},
	{"Goroutines", checkGoroutines},
}

// TestMethod checks that the methods newMethod returns keep the contract
// of package sim on d (see the package documentation), each part in a
// subtest. A constructor that fails fails the test.
func TestMethod(t *testing.T, newMethod NewFunc, d *sim.Dataset, opt Options) {
	t.Helper()
	opt = opt.withDefaults()
	m, err := newMethod()
	if err != nil {
		t.Fatalf("constructor: %v", err)
	}
	closeMethod(m)
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if err := guard(func() error { return c.fn(newMethod, d, opt) }); err != nil {
				t.Error(err)
			}
		})
	}
}

// guard turns a panic in a check (a method's panic) into an error.
func guard(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return fn()
}

// fresh returns a new method initialised on d with o.Controls and the
// stream of o.Seed, and the controls it was given.
func fresh(nm NewFunc, d *sim.Dataset, o Options) (sim.Method, sim.Controls, error) {
	m, err := nm()
	if err != nil {
		return nil, nil, fmt.Errorf("constructor: %w", err)
	}
	c, err := sim.Init(m, d, o.Controls, numeric.NewStream(o.Seed, sim.StreamRun))
	if err != nil {
		closeMethod(m)
		return nil, nil, fmt.Errorf("initialising: %w", err)
	}
	return m, c, nil
}

// closeMethod closes m when it is an io.Closer.
func closeMethod(m sim.Method) {
	if c, ok := m.(io.Closer); ok {
		c.Close()
	}
}

// point is what one step shows: the objective and the traces.
type point struct {
	obj   float64
	trace []float64
}

func stepOnce(m sim.Method) point {
	obj := m.Step().Objective
	return point{obj, slices.Clone(m.Trace())}
}

// same reports whether a and b have the same bits (NaN equals NaN).
func same(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// diffPoint describes the first difference between a and b; "" if none.
func diffPoint(a, b point, traces []string) string {
	if !same(a.obj, b.obj) {
		return fmt.Sprintf("objective %v ≠ %v", a.obj, b.obj)
	}
	if len(a.trace) != len(b.trace) {
		return fmt.Sprintf("%d trace values ≠ %d", len(a.trace), len(b.trace))
	}
	for i := range a.trace {
		if !same(a.trace[i], b.trace[i]) {
			name := fmt.Sprint(i)
			if i < len(traces) {
				name = traces[i]
			}
			return fmt.Sprintf("trace %s %v ≠ %v", name, a.trace[i], b.trace[i])
		}
	}
	return ""
}

// diffPredictive describes the first difference between a and b; "" if
// none.
func diffPredictive(a, b sim.Predictive) string {
	if !slices.EqualFunc(a.X, b.X, same) {
		return fmt.Sprintf("X %v ≠ %v", a.X, b.X)
	}
	if len(a.Samples) != len(b.Samples) {
		return fmt.Sprintf("%d samples ≠ %d", len(a.Samples), len(b.Samples))
	}
	for s := range a.Samples {
		if len(a.Samples[s]) != len(b.Samples[s]) {
			return fmt.Sprintf("sample %d: length %d ≠ %d", s, len(a.Samples[s]), len(b.Samples[s]))
		}
		for i := range a.Samples[s] {
			if !same(a.Samples[s][i], b.Samples[s][i]) {
				return fmt.Sprintf("sample %d at x=%v: %v ≠ %v", s, a.X[i], a.Samples[s][i], b.Samples[s][i])
			}
		}
	}
	return ""
}

// asFieldError checks that err is a *sim.FieldError naming field.
func asFieldError(err error, field string) error {
	if err == nil {
		return errors.New("accepted, want a *sim.FieldError")
	}
	fe, ok := errors.AsType[*sim.FieldError](err)
	if !ok {
		return fmt.Errorf("returned %T (%v), want a *sim.FieldError", err, err)
	}
	if fe.Field != field {
		return fmt.Errorf("the *sim.FieldError names %q, want %q (%v)", fe.Field, field, err)
	}
	if fe.Message == "" {
		return errors.New("the *sim.FieldError has no message")
	}
	return nil
}
