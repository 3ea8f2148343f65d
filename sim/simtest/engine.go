package simtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"

	"go.uber.org/goleak"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
)

// nanAfter is the method it embeds, except that its objective turns NaN
// after good steps: what any method's divergence looks like to the engine.
// It hides the method's optional interfaces but for io.Closer
// (nanAfterCloser), so the engine still closes it.
type nanAfter struct {
	sim.Method
	good, steps int
	last        float64 // the last good objective
}

func (w *nanAfter) Step() sim.StepStats {
	w.steps++
	if w.steps > w.good {
		return sim.StepStats{Objective: math.NaN()}
	}
	st := w.Method.Step()
	w.last = st.Objective
	return st
}

type nanAfterCloser struct{ *nanAfter }

func (w nanAfterCloser) Close() error { return w.Method.(io.Closer).Close() }

// checkDiverged runs the method live in an engine.Run whose objective turns
// NaN after o.Steps good steps, and checks the run stops there as
// diverged, keeps its band and refuses to step; then that cancelling the
// run ends its goroutine and the method's.
func checkDiverged(nm NewFunc, d *sim.Dataset, o Options) error {
	before := goleak.IgnoreCurrent()
	m, err := nm()
	if err != nil {
		return fmt.Errorf("constructor: %w", err)
	}
	c, err := sim.SpecFor(m, d).Resolve(o.Controls)
	if err != nil {
		closeMethod(m)
		return fmt.Errorf("resolving the controls: %w", err)
	}
	w := &nanAfter{Method: m, good: o.Steps, last: math.NaN()}
	var wm sim.Method = w
	if _, ok := m.(io.Closer); ok {
		wm = nanAfterCloser{w}
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	r, err := engine.NewRun("simtest", wm, d, c, o.Seed, engine.RunOptions{
		FrameRate: 1000, BandSamples: o.Samples, Log: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		closeMethod(m)
		return fmt.Errorf("engine.NewRun: %w", err)
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	r.Start(runCtx)
	errs := divergedErrors(ctx, r, w, o)
	stop()
	select {
	case <-r.Done():
	case <-ctx.Done():
		return errors.Join(append(errs, fmt.Errorf("the run goroutine did not end within %v of its context's cancellation", o.Timeout))...)
	}
	if err := goleak.Find(before); err != nil {
		errs = append(errs, fmt.Errorf("after the run's context was cancelled: %w", err))
	}
	return errors.Join(errs...)
}

func divergedErrors(ctx context.Context, r *engine.Run, w *nanAfter, o Options) []error {
	if err := r.Step(ctx, int64(o.Steps)+3); err != nil {
		return []error{fmt.Errorf("Step(%d): %w", o.Steps+3, err)}
	}
	var cur engine.Cursor
	f, next := r.Read(&cur)
	for f.Status != engine.StatusDiverged {
		select {
		case <-next:
		case <-ctx.Done():
			return []error{fmt.Errorf("no diverged frame within %v; the latest is %s at step %d (%s)", o.Timeout, f.Status, f.Step, f.Message)}
		}
		f, next = r.Read(&cur)
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if f.Step != int64(o.Steps) {
		bad("diverged at step %d, want %d (the last good one)", f.Step, o.Steps)
	}
	if !same(f.Objective, w.last) {
		bad("the diverged frame's objective is %v, want the last good one %v", f.Objective, w.last)
	}
	if f.Message == "" {
		bad("the diverged frame has no message")
	}
	if f.Predictive == nil {
		bad("the diverged frame has no band")
	}
	if err := asFieldError(r.Step(ctx, 1), "op"); err != nil {
		bad("Step after divergence: %v", err)
	}
	return errs
}

// checkGoroutines steps a method, initialises it again, steps it and
// closes it (when it is an io.Closer): no goroutine may be left.
func checkGoroutines(nm NewFunc, d *sim.Dataset, o Options) error {
	before := goleak.IgnoreCurrent()
	m, _, err := fresh(nm, d, o)
	if err != nil {
		return err
	}
	for range o.Steps {
		m.Step()
	}
	if _, err := sim.Init(m, d, o.Controls, numeric.NewStream(o.Seed+1, sim.StreamRun)); err != nil {
		closeMethod(m)
		return fmt.Errorf("initialising again: %w", err)
	}
	for range o.Steps {
		m.Step()
	}
	what := "after steps, a second Init and more steps"
	if cl, ok := m.(io.Closer); ok {
		if err := cl.Close(); err != nil {
			return fmt.Errorf("Close: %w", err)
		}
		what += " and Close"
	}
	if err := goleak.Find(before); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
