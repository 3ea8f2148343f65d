package engine_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/wire"
)

// A gallery method on a gallery target runs through the engine: with no
// band asked for, its frames carry the plane: the exact grid (one payload
// for the run's life, so a viewer is sent it once), the latest draws, numbered,
// in the chains' colours, NUTS's latest tree, and the history
// against the truth; a live control is set through the command table,
// and a value outside its range is refused naming it.
func TestGalleryRunStreamsThePlane(t *testing.T) {
	cache, err := gallery.NewCache(gallery.CacheConfig{})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := cache.Exact(context.Background(), "funnel", nil)
	if err != nil {
		t.Fatal(err)
	}
	const chains = 2
	m, err := gallery.NewEngineMethod(ex, "nuts", chains)
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Spec().Resolve(sim.Controls{"warmup": sim.Num(20)})
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.NewTargetRun("plane", m, ex.Target, c, 1, engine.RunOptions{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	defer func() { cancel(); <-r.Done() }()
	bg := context.Background()
	if err := r.Set(bg, "max_depth", sim.Num(99)); err == nil {
		t.Error("max_depth 99 was accepted")
	}
	if err := r.Set(bg, "max_depth", sim.Num(6)); err != nil {
		t.Fatal(err)
	}
	const steps = 120
	if err := r.Step(bg, steps); err != nil {
		t.Fatal(err)
	}
	var exact, plane *wire.Extra
	seen := map[string]bool{}
	var draws int
	var last gallery.Plane
	enginetest.WaitFrame(t, r, 20*time.Second, func(f *engine.Frame) bool {
		if f.Predictive != nil {
			t.Fatalf("step %d: a gallery run's frame carries a band", f.Step)
		}
		if x := f.Extra(engine.PlaneExactKey); x != nil {
			if exact != nil && x != exact {
				t.Fatalf("step %d: the exact answer was encoded again", f.Step)
			}
			exact, seen[engine.PlaneExactKey] = x, true
		}
		if x := f.Extra(engine.PlaneHistoryKey); x != nil {
			seen[engine.PlaneHistoryKey] = true
		}
		if x := f.Extra(engine.PlaneKey); x != nil && x != plane {
			plane = x
			var p gallery.Plane
			b, _ := json.Marshal(x)
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			if p.Draws != nil {
				draws += len(p.Draws.X)
			}
			last = p
		}
		return f.Step == steps && f.Status == engine.StatusPaused
	})
	if !seen[engine.PlaneExactKey] || !seen[engine.PlaneHistoryKey] {
		t.Fatalf("extras seen %v: want the exact answer and the history", seen)
	}
	var pe gallery.PlaneExact
	b, _ := json.Marshal(r.Latest().Extra(engine.PlaneExactKey))
	if err := json.Unmarshal(b, &pe); err != nil {
		t.Fatal(err)
	}
	if n := pe.Exact.N; n < 64 || n > gallery.MaxPlaneGrid || len(pe.Exact.Values) != n*n || pe.Params != ex.Shown.Params {
		t.Errorf("exact grid n %d with %d values, params %v: want n in [64, %d], n² values, %v", n, len(pe.Exact.Values), pe.Params, gallery.MaxPlaneGrid, ex.Shown.Params)
	}
	// The draws after warm-up, one per chain per step, numbered by the
	// last plane's totals; this reader may have missed frames (latest
	// wins), so it saw between 1 and that many (a plane's tail overlaps
	// the one before: a draw may come twice).
	var total int64
	for _, n := range last.Totals {
		total += n
	}
	if want := int64(chains * (steps - 20)); total != want || draws == 0 {
		t.Errorf("%d draws numbered, %d streamed: want %d numbered, some streamed", total, draws, want)
	}
	tr := last.Transition
	if tr == nil || tr.Kind != "nuts" || len(tr.Path) < 2 || len(tr.Doublings) == 0 || tr.Doublings[len(tr.Doublings)-1].Depth >= 6 {
		t.Errorf("latest transition %+v: want a NUTS tree of depth below 6", tr)
	}
	if last.Chains != chains || last.Measure.Steps != steps {
		t.Errorf("plane of %d chains at %d steps, want %d and %d", last.Chains, last.Measure.Steps, chains, steps)
	}
}
