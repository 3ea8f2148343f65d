package engine_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/mcmc"
)

// slowInit is a method whose second Init waits, polling the run's
// interrupt as a long Init does, until released or interrupted: it holds
// a reset inside Init while the test queues another command behind it.
type slowInit struct {
	sim.Method
	stop    func() bool
	calls   int
	inInit  chan struct{} // closed when the second Init starts waiting
	release chan struct{}
	last    sim.Controls // the controls of the last Init that completed
}

func (s *slowInit) SetEnv(e sim.Env) { s.stop = e.Stop }

func (s *slowInit) Init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	s.calls++
	if s.calls == 2 {
		close(s.inInit)
		for {
			select {
			case <-s.release:
				return s.init(d, c, r)
			default:
			}
			if s.stop != nil && s.stop() {
				return errors.New("interrupted")
			}
			time.Sleep(time.Millisecond)
		}
	}
	return s.init(d, c, r)
}

func (s *slowInit) init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	if err := s.Method.Init(d, c, r); err != nil {
		return err
	}
	s.last = c
	return nil
}

func (s *slowInit) Close() error {
	if c, ok := s.Method.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// slowInitRun starts a Metropolis run on the linear model around slowInit,
// and sends first (a reset, or a set of a control that restarts the
// method) so that the run is inside its second Init when it returns.
func slowInitRun(t *testing.T, first func(context.Context, *engine.Run) error) (*engine.Run, *slowInit, chan error) {
	t.Helper()
	d, err := datasets.Load("linreg", 1)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := mcmc.NewMetropolis("linear")
	if err != nil {
		t.Fatal(err)
	}
	m := &slowInit{Method: inner, inInit: make(chan struct{}), release: make(chan struct{})}
	c, err := inner.Spec().Resolve(sim.Controls{"chains": sim.Num(2)})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	g := engine.NewRegistry(engine.RegistryConfig{}, func(engine.RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error) {
		return m, d, c, nil
	}, quiet)
	t.Cleanup(g.Close)
	r, err := g.Create(engine.RunConfig{Data: "linreg", Method: "metropolis"}, "t")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	firstDone := make(chan error, 1)
	go func() { firstDone <- first(ctx, r) }()
	wait(t, m.inInit, "the second Init started")
	return r, m, firstDone
}

// A reset queued behind a reset whose Init it interrupts is not a failure
// of the first: the first answers nil and the second starts the method.
func TestResetBehindResetIsNotAFailure(t *testing.T) {
	r, _, firstDone := slowInitRun(t, func(ctx context.Context, r *engine.Run) error { return r.Reset(ctx) })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := r.Reset(ctx); err != nil {
		t.Fatalf("the second reset: %v", err)
	}
	select {
	case err := <-firstDone:
		if err != nil {
			t.Fatalf("the first reset, interrupted by the second: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the first reset never answered")
	}
	enginetest.WaitFrame(t, r, time.Minute, func(f *engine.Frame) bool { return f.Status == engine.StatusPaused && f.Step == 0 })
}

// A set that restarts the method, interrupted by a reset queued behind
// it, keeps its value: the reset starts the method with it.
func TestRestartingSetKeptThroughReset(t *testing.T) {
	r, m, firstDone := slowInitRun(t, func(ctx context.Context, r *engine.Run) error {
		return r.Set(ctx, "chains", sim.Num(3))
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := r.Reset(ctx); err != nil {
		t.Fatalf("the reset: %v", err)
	}
	if err := <-firstDone; err != nil {
		t.Fatalf("the set, interrupted by the reset: %v", err)
	}
	enginetest.WaitFrame(t, r, time.Minute, func(f *engine.Frame) bool { return f.Status == engine.StatusPaused && f.Step == 0 })
	if got := m.last["chains"]; got != sim.Num(3) {
		t.Fatalf("the reset started the method with chains %v, want the set's 3", got)
	}
}
