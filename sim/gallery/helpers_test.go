package gallery

import (
	"context"
	"sync"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// testCache is shared by the tests: exact answers are computed once.
var testCache = sync.OnceValue(func() *Cache {
	c, err := NewCache(CacheConfig{})
	if err != nil {
		panic(err)
	}
	return c
})

func newRun(t testing.TB, cfg RunConfig) *Run {
	t.Helper()
	r, err := NewRun(context.Background(), testCache(), cfg)
	if err != nil {
		t.Fatalf("%+v: %v", cfg, err)
	}
	return r
}

// gaussian is the correlated Gaussian the tests use: ρ = 0.9, unit sds.
func gaussian(method string, seed uint64) RunConfig {
	return RunConfig{Target: "gaussian", TargetControls: sim.Controls{"rho": sim.Num(0.9)}, Method: method, Seed: seed}
}

// newEngineMethod is method with chains chains (0: the default) on ex,
// initialised with its default controls on stream 1.
func newEngineMethod(t testing.TB, ex *Exact, method string, chains int) *EngineMethod {
	t.Helper()
	m, err := NewEngineMethod(ex, method, chains)
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Spec().Resolve(sim.Controls{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Init(ex.Target, c, numeric.NewStream(1, 0)); err != nil {
		t.Fatal(err)
	}
	return m
}

// stopAfter is a context that reports cancellation from its k+1-th check
// on: a cancellation at a known step, without timing.
type stopAfter struct {
	context.Context
	k int
}

func (c *stopAfter) Err() error {
	if c.k == 0 {
		return context.Canceled
	}
	c.k--
	return nil
}
