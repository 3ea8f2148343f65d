package sweeps

import (
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
)

// clock is a settable time for the expiry tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// tiny runs in well under a second: GIP with 5 inducing points, 20 steps.
func tiny() Request {
	return Request{Data: "gap", Method: "gip", Param: "prior_scale", Values: "0.5,2", Steps: 20, Seeds: 1,
		EvalReps: 2, IWBOSamples: 10, Seed: 1, Controls: sim.Controls{"inducing": sim.Num(5)}}
}

func TestFinishedSweepsExpire(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	clk := &clock{t: time.Unix(1_000_000, 0)}
	g := New(Config{KeepFor: time.Minute, MaxKept: 1, Now: clk.now, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	defer g.Close()

	first, err := g.Create(tiny(), "a")
	if err != nil {
		t.Fatal(err)
	}
	<-first.Done()
	if in := first.Info(); in.Status != Done || len(in.Points) != 2 || in.Finished != 2 {
		t.Fatalf("first sweep: %+v", in)
	}
	// Kept for KeepFor after it ended, then forgotten.
	clk.add(59 * time.Second)
	if _, err := g.Get(first.ID()); err != nil {
		t.Fatalf("within KeepFor: %v", err)
	}
	clk.add(2 * time.Second)
	if _, err := g.Get(first.ID()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after KeepFor: %v, want ErrNotFound", err)
	}

	// Past MaxKept finished sweeps, the oldest goes first.
	second, err := g.Create(tiny(), "a")
	if err != nil {
		t.Fatal(err)
	}
	<-second.Done()
	clk.add(time.Second)
	third, err := g.Create(tiny(), "a")
	if err != nil {
		t.Fatal(err)
	}
	<-third.Done()
	if _, err := g.Get(second.ID()); !errors.Is(err, ErrNotFound) {
		t.Errorf("the older of two finished sweeps with MaxKept 1: %v, want ErrNotFound", err)
	}
	if _, err := g.Get(third.ID()); err != nil {
		t.Errorf("the newest finished sweep: %v", err)
	}
}

func TestClosedRegistryRefuses(t *testing.T) {
	g := New(Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	g.Close()
	if _, err := g.Create(tiny(), "a"); !errors.Is(err, engine.ErrRegistryClosed) {
		t.Fatalf("Create after Close: %v", err)
	}
}
