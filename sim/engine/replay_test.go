package engine_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/experiment"
	"github.com/posterior-playground/playground/sim/wire"
)

// A link's replay trains a new run to the original's state: the band drawn
// at the link's step equals the original's byte for byte, though the
// original ran freely (other batches, bands drawn at other steps) and the
// replay in step commands. Real methods, because the property is theirs
// (deterministic steps, bands seeded by step) as much as the engine's.
func TestReplayReproducesTheBandBitForBit(t *testing.T) {
	for _, method := range []string{"mfvi", "gip"} {
		t.Run(method, func(t *testing.T) {
			factory := func(cfg engine.RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error) {
				d, err := datasets.Load(cfg.Data, cfg.Seed)
				if err != nil {
					return nil, nil, nil, err
				}
				m, d, _, c, err := experiment.NewMethod(d, cfg.Method, cfg.Model, cfg.Controls, false)
				return m, d, c, err
			}
			reg := engine.NewRegistry(engine.RegistryConfig{}, factory, slog.New(slog.NewTextHandler(io.Discard, nil)))
			defer reg.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cfg := engine.RunConfig{Data: "gap", Method: method, Seed: 3}

			// The original: free running with bands drawn as it goes, two
			// live changes at whatever step the loop had reached.
			orig, err := reg.Create(cfg, "a")
			if err != nil {
				t.Fatal(err)
			}
			if err := orig.Play(ctx); err != nil {
				t.Fatal(err)
			}
			enginetest.WaitFrame(t, orig, 60*time.Second, func(f *engine.Frame) bool { return f.Step >= 40 })
			if err := orig.Set(ctx, "lr", sim.Num(0.005)); err != nil {
				t.Fatal(err)
			}
			enginetest.WaitFrame(t, orig, 60*time.Second, func(f *engine.Frame) bool { return f.Step >= 90 })
			if err := orig.Set(ctx, "prior_scale", sim.Num(3)); err != nil {
				t.Fatal(err)
			}
			enginetest.WaitFrame(t, orig, 60*time.Second, func(f *engine.Frame) bool { return f.Step >= 130 })
			if err := orig.Pause(ctx); err != nil {
				t.Fatal(err)
			}
			// A paused run redraws its band at its step before it publishes,
			// so a paused frame's band is its step's.
			end := enginetest.WaitFrame(t, orig, 60*time.Second, func(f *engine.Frame) bool {
				return f.Status == engine.StatusPaused && f.Predictive != nil
			})
			link := wire.Replay{Step: end.Step, Changes: slices.Clone(end.Marks)} // a link's changes: the marks since the last reset
			if len(link.Changes) != 2 {
				t.Fatalf("marks %v", link.Changes)
			}

			// The replay, from the link.
			cfg.Replay = &link
			rep, err := reg.Create(cfg, "b")
			if err != nil {
				t.Fatal(err)
			}
			got := enginetest.WaitFrame(t, rep, 60*time.Second, func(f *engine.Frame) bool {
				return f.Step == link.Step && f.Status == engine.StatusPaused && f.Pending == 0 && f.Predictive != nil
			})
			a, _ := end.Predictive.MarshalJSON()
			b, _ := got.Predictive.MarshalJSON()
			if !bytes.Equal(a, b) {
				t.Fatalf("replayed band differs from the original's at step %d:\n%.200s\n%.200s", link.Step, a, b)
			}
			if got.Objective != end.Objective {
				t.Fatalf("objective %v, original %v", got.Objective, end.Objective)
			}
		})
	}
}

// A replay out of bounds or through a control that is not live is refused
// with a field error, and no run is made.
func TestReplayRefusesBadLinks(t *testing.T) {
	factory := func(cfg engine.RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error) {
		d, _ := datasets.Load("gap", 1)
		m, d, _, c, err := experiment.NewMethod(d, "mfvi", "", nil, false)
		return m, d, c, err
	}
	reg := engine.NewRegistry(engine.RegistryConfig{}, factory, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer reg.Close()
	for _, c := range []struct {
		p     wire.Replay
		field string
	}{
		{wire.Replay{Step: engine.MaxReplaySteps + 1}, "replay.step"},
		{wire.Replay{Step: -1}, "replay.step"},
		{wire.Replay{Step: 10, Changes: []wire.Mark{{Step: 11, Name: "lr", Value: sim.Num(0.01)}}}, "replay.changes"},
		{wire.Replay{Step: 10, Changes: []wire.Mark{{Step: 5, Name: "lr", Value: sim.Num(0.01)}, {Step: 4, Name: "lr", Value: sim.Num(0.02)}}}, "replay.changes"},
		{wire.Replay{Step: 10, Changes: []wire.Mark{{Step: 5, Name: "lr", Value: sim.Num(7)}}}, "lr"},
		{wire.Replay{Step: 10, Changes: []wire.Mark{{Step: 5, Name: "nope", Value: sim.Num(1)}}}, "nope"},
	} {
		_, err := reg.Create(engine.RunConfig{Data: "gap", Method: "mfvi", Seed: 1, Replay: &c.p}, "a")
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("replay %+v: %v, want a field error on %s", c.p, err, c.field)
		}
	}
	if reg.Len() != 0 {
		t.Fatalf("%d runs made", reg.Len())
	}
}
