package engine_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/mcmc"
)

// probe is NUTS seen through the engine's interrupt poll: it closes mid
// when the step in flight has polled 20 times (20 leapfrog steps into a
// tree of up to 1023), and, with one chain (which steps on the run's
// goroutine, so the counts are read without a race), records the leapfrog
// count when the poll first answers true and when each Step returns.
type probe struct {
	sim.Method
	record   bool
	polls    atomic.Int64
	mid      chan struct{}
	atSignal int64 // leapfrogs when the poll first said stop; -1 before
	atReturn int64 // leapfrogs when the last Step returned
}

func (p *probe) leapfrogs() int64 { return p.Method.(*mcmc.Method).Leapfrogs() }

func (p *probe) SetEnv(e sim.Env) {
	stop := e.Stop
	e.Stop = func() bool {
		s := stop()
		if s && p.record && p.atSignal < 0 {
			p.atSignal = p.leapfrogs()
		}
		if p.polls.Add(1) == 20 {
			close(p.mid)
		}
		return s
	}
	p.Method.(sim.EnvSetter).SetEnv(e)
}

func (p *probe) Step() sim.StepStats {
	s := p.Method.Step()
	if p.record {
		p.atReturn = p.leapfrogs()
	}
	return s
}

func (p *probe) Close() error { return p.Method.(io.Closer).Close() }

// longNUTS starts, in a registry, NUTS on the largest network the arch
// control allows with a step so small that no tree U-turns before depth
// 10: a Step is 1023 leapfrog steps a chain, seconds of CPU.
func longNUTS(t *testing.T, chains int) (*engine.Registry, *engine.Run, *probe) {
	t.Helper()
	d, err := datasets.Load("gap", 1)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := mcmc.NewNUTS("bnn")
	if err != nil {
		t.Fatal(err)
	}
	p := &probe{Method: inner, record: chains == 1, mid: make(chan struct{}), atSignal: -1}
	c, err := inner.Spec().Resolve(sim.Controls{"chains": sim.Num(float64(chains)), "arch": sim.Choice("256,256,256,256"),
		"max_depth": sim.Num(10), "warmup": sim.Num(0), "step": sim.Num(1e-5)})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	// Past the default budget on purpose: a step must be long to interrupt.
	unbounded := engine.Budget{RunBytes: 1 << 40, TotalBytes: 1 << 40, StepFLOPs: 1e18, PollFLOPs: 1e18}
	g := engine.NewRegistry(engine.RegistryConfig{Budget: unbounded}, func(engine.RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error) {
		return p, d, c, nil
	}, quiet)
	t.Cleanup(g.Close)
	r, err := g.Create(engine.RunConfig{Data: "gap", Method: "nuts"}, "t")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := r.Play(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.mid:
	case <-ctx.Done():
		t.Fatal("the step never got 20 leapfrog steps in")
	}
	return g, r, p
}

// wait waits for ch, failing after a generous minute (no timing is
// asserted: a loaded machine may be slow).
func wait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		t.Fatalf("%s: not after a minute", what)
	}
}

// checkOneLeapfrog checks that the interrupted step did at most one
// leapfrog step after the poll first said stop (the check comes before
// each leapfrog, so in fact none).
func checkOneLeapfrog(t *testing.T, p *probe) {
	t.Helper()
	t.Logf("interrupted at %d leapfrog steps; the step returned at %d", p.atSignal, p.atReturn)
	if p.atSignal < 0 {
		t.Fatal("the step never saw the interrupt")
	}
	if after := p.atReturn - p.atSignal; after > 1 {
		t.Errorf("%d leapfrog steps after the interrupt, want at most 1", after)
	}
}

// TestDeleteInterruptsTheStep deletes a run in the middle of a NUTS tree:
// the step stops within a leapfrog step and the run's goroutine returns
// (goleak, in TestMain, finds none left at the end).
func TestDeleteInterruptsTheStep(t *testing.T) {
	g, r, p := longNUTS(t, 1)
	if err := g.Delete(r.ID()); err != nil {
		t.Fatal(err)
	}
	wait(t, r.Done(), "the deleted run's goroutine returned")
	checkOneLeapfrog(t, p)
}

// TestResetInterruptsTheStep resets a run in the middle of a NUTS tree:
// the reset is applied without waiting for the tree, which stopped within
// a leapfrog step, and the run starts again at step 0.
func TestResetInterruptsTheStep(t *testing.T) {
	_, r, p := longNUTS(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	checkOneLeapfrog(t, p)
	var cur engine.Cursor
	f, next := r.Read(&cur)
	for f.Epoch == 0 { // the reset's frame
		wait(t, next, "a frame after the reset")
		f, next = r.Read(&cur)
	}
	if f.Step != 0 || f.Status != engine.StatusPaused {
		t.Errorf("after the reset: step %d, status %s; want 0, paused", f.Step, f.Status)
	}
}

// TestCloseInterruptsTheSteps closes a registry while eight chains step a
// long tree each in parallel: Close returns with every run goroutine (and
// the chains' workers) gone.
func TestCloseInterruptsTheSteps(t *testing.T) {
	g, r, _ := longNUTS(t, 8)
	closed := make(chan struct{})
	var once sync.Once
	go func() {
		g.Close()
		once.Do(func() { close(closed) })
	}()
	wait(t, closed, "Close returned")
	wait(t, r.Done(), "the run's goroutine returned")
}
