package engine

import (
	"context"
	"sync/atomic"
	"testing"
)

// closingMethod counts Close calls, as a sampler with chain goroutines would
// need them.
type closingMethod struct {
	fakeMethod
	closed atomic.Int32
}

func (c *closingMethod) Close() error { c.closed.Add(1); return nil }

func TestRunClosesItsMethodWhenItEnds(t *testing.T) {
	m := &closingMethod{}
	r, err := NewRun("c", m, fakeDataset(), fakeControls(), 7, RunOptions{Log: quiet, FrameRate: 200})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	if err := r.Step(bg(), 3); err != nil {
		t.Fatal(err)
	}
	if n := m.closed.Load(); n != 0 {
		t.Fatalf("Close called %d times while the run is alive", n)
	}
	cancel()
	<-r.Done()
	if n := m.closed.Load(); n != 1 {
		t.Fatalf("Close called %d times after the run ended, want 1", n)
	}
}
