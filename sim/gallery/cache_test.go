package gallery

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/target"
)

// TestCacheOnce: many concurrent requests for one target compute its
// exact answer once and all get the same one.
func TestCacheOnce(t *testing.T) {
	c, err := NewCache(CacheConfig{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 16
	got := make([]*Exact, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Half ask with the default written out: the same key.
			ctl := sim.Controls{"curvature": sim.Num(1)}
			if i%2 == 0 {
				ctl = nil
			}
			e, err := c.Exact(context.Background(), "banana", ctl)
			if err != nil {
				t.Error(err)
			}
			got[i] = e
		}()
	}
	wg.Wait()
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("request %d got another answer", i)
		}
	}
	s := c.Stats()
	if s.Computed != 1 || s.Hits != n-1 || s.Entries != 1 {
		t.Errorf("stats %+v, want one computation and %d hits", s, n-1)
	}
	if g := got[0].Grid; g.N < 256 {
		t.Errorf("grid of %d cells a side, want at least 256", g.N)
	}
}

// TestCacheBounds: past MaxGrids the least recently used entry goes;
// past MaxBytes as many as it takes.
func TestCacheBounds(t *testing.T) {
	ctx := context.Background()
	c, err := NewCache(CacheConfig{MaxGrids: 2})
	if err != nil {
		t.Fatal(err)
	}
	rho := func(x float64) sim.Controls { return sim.Controls{"rho": sim.Num(x)} }
	a, _ := c.Exact(ctx, "gaussian", rho(0.1))
	c.Exact(ctx, "gaussian", rho(0.2))
	c.Exact(ctx, "gaussian", rho(0.1)) // a is now the most recent
	c.Exact(ctx, "gaussian", rho(0.3)) // drops 0.2
	if s := c.Stats(); s.Entries != 2 || s.Evicted != 1 || s.Computed != 3 {
		t.Errorf("stats %+v, want 2 entries, 1 evicted, 3 computed", s)
	}
	if b, _ := c.Exact(ctx, "gaussian", rho(0.1)); b != a {
		t.Error("the recently used entry was dropped")
	}
	c.Exact(ctx, "gaussian", rho(0.2))
	if s := c.Stats(); s.Computed != 4 {
		t.Errorf("computed %d, want the dropped entry computed again (4)", s.Computed)
	}

	// The non-centred funnel holds two grids: twice a Gaussian's bytes.
	one := entryBytes(256, 1)
	c, _ = NewCache(CacheConfig{MaxBytes: 2 * one})
	c.Exact(ctx, "gaussian", nil)
	c.Exact(ctx, "ring", nil)
	e, _ := c.Exact(ctx, "funnel", sim.Controls{"centred": sim.Num(0)})
	if s := c.Stats(); s.Entries != 1 || s.Bytes != e.Bytes || s.Bytes > 2*one {
		t.Errorf("stats %+v, want only the funnel's %d bytes", s, e.Bytes)
	}
}

func TestCacheErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg   CacheConfig
		field string
	}{
		{CacheConfig{GridSize: 100}, "grid_size"},
		{CacheConfig{MaxGrids: -1}, "max_grids"},
		{CacheConfig{MaxBytes: 1000}, "max_bytes"},
	} {
		_, err := NewCache(tc.cfg)
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%+v: error %v, want a field error on %s", tc.cfg, err, tc.field)
		}
	}
	c, _ := NewCache(CacheConfig{})
	for _, tc := range []struct {
		name  string
		ctl   sim.Controls
		field string
	}{
		{"nope", nil, "target"},
		{"gaussian", sim.Controls{"rho": sim.Num(1.5)}, "rho"},
		{"gaussian", sim.Controls{"curvature": sim.Num(1)}, "curvature"},
	} {
		_, err := c.Exact(context.Background(), tc.name, tc.ctl)
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s %v: error %v, want a field error on %s", tc.name, tc.ctl, err, tc.field)
		}
	}
	if s := c.Stats(); s.Entries != 0 || s.Computed != 0 {
		t.Errorf("bad requests left %+v", s)
	}
}

// TestExactFor: a target the caller builds is held under its own key,
// apart from the built-in targets', and a run on it reports its name.
func TestExactFor(t *testing.T) {
	c, _ := NewCache(CacheConfig{})
	ctx := context.Background()
	tg, err := target.New("banana", nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.ExactFor(ctx, "banana", tg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.Exact(ctx, "banana", nil)
	if a == b || a.Key == b.Key || a.Grid.LogZ != b.Grid.LogZ {
		t.Errorf("keys %q and %q share an entry, or differ in log Z", a.Key, b.Key)
	}
	if again, _ := c.ExactFor(ctx, "banana", tg); again != a {
		t.Error("ExactFor computed its key twice")
	}
	r, err := NewRunOn(a, RunConfig{Method: "mala", Target: "ignored"})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Config().Target; got != "banana" {
		t.Errorf("run on %q", got)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Exact(cancelled, "ring", nil); !errors.Is(err, context.Canceled) || c.Stats().Computed != 2 {
		t.Errorf("a cancelled request: %v, %+v", err, c.Stats())
	}
}
