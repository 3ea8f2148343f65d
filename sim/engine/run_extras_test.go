package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/posterior-playground/playground/sim"
)

// viewsFake is a method with views of its own (sim.Extras.Views): "where" holds
// the fake's state, "bad" a key the engine keeps for itself.
type viewsFake struct {
	fakeMethod
	asks atomic.Int64 // read by the test while the run may ask again
}

func (v *viewsFake) Extras() sim.Extras {
	x := v.fakeMethod.Extras()
	x.Views = v.Views
	return x
}

func (v *viewsFake) Views() map[string]any {
	v.asks.Add(1)
	return map[string]any{"where": map[string]float64{"x": v.x, "k": v.k}, "draws": 1}
}

// A method's views reach every frame as an extra under their key, encoded
// once per ask; an engine key is refused; while stepping they are asked at
// most every viewsInterval (about 1/viewsCostShare of the time otherwise).
func TestRunCarriesMethodViews(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &viewsFake{fakeMethod: fakeMethod{stepDelay: time.Millisecond}}
		r, err := NewRun("t", f, fakeDataset(), fakeControls(), 7, RunOptions{Log: quiet, FrameRate: 200})
		if err != nil {
			t.Fatal(err)
		}
		first := r.Latest().Extra("where")
		if first == nil || r.Latest().Extra("draws") != nil {
			t.Fatalf("first frame extras %v: want where and no draws", r.Latest().Extras)
		}
		raw, _ := first.MarshalJSON()
		var where map[string]float64
		if err := json.Unmarshal(raw, &where); err != nil || where["k"] != 1 || where["x"] != f.x || len(where) != 2 {
			t.Fatalf("where = %s (%v)", raw, err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		defer func() { cancel(); <-r.Done() }()
		r.Start(ctx)
		if err := r.Play(ctx); err != nil {
			t.Fatal(err)
		}
		asks0 := f.asks.Load()
		time.Sleep(2 * time.Second) // fake time: 2000 steps of 1 ms
		if err := r.Pause(ctx); err != nil {
			t.Fatal(err)
		}
		asks := int(f.asks.Load() - asks0)
		// At most one ask per viewsInterval (plus the pause's), and at least
		// one per second.
		if limit := int(2*time.Second/viewsInterval) + 2; asks > limit || asks < 2 {
			t.Fatalf("%d asks in 2 s of stepping, want 2 to %d", asks, limit)
		}
		// The paused frame goes out at the next frame time (5 ms at 200
		// frames/s): fake time moves only when every goroutine sleeps, so
		// wait it out before reading the frame.
		time.Sleep(2 * r.cores.frame)
		synctest.Wait()
		last := r.Latest()
		if last.Status != StatusPaused {
			t.Fatalf("latest frame %s, want the paused one", last.Status)
		}
		x := last.Extra("where")
		if x == nil || x == first {
			t.Fatal("no new views after stepping")
		}
		if got := x.Value.(map[string]float64)["x"]; got != f.x {
			t.Fatalf("views x = %g, method's x = %g: not asked after the last step", got, f.x)
		}
		if len(last.Extras) != 1 {
			t.Fatalf("extras %v", last.Extras)
		}
	})
}

// loggingFake logs through the logger the engine hands it (sim.EnvSetter).
type loggingFake struct {
	fakeMethod
	log *slog.Logger
}

func (l *loggingFake) SetEnv(e sim.Env) { l.log = e.Log }

// A method's log lines carry its run's id.
func TestRunHandsMethodItsLogger(t *testing.T) {
	var buf bytes.Buffer
	f := &loggingFake{}
	if _, err := NewRun("run-42", f, fakeDataset(), fakeControls(), 7, RunOptions{Log: slog.New(slog.NewTextHandler(&buf, nil))}); err != nil {
		t.Fatal(err)
	}
	if f.log == nil {
		t.Fatal("the run gave the method no logger")
	}
	f.log.Warn("step skipped")
	if !strings.Contains(buf.String(), "run=run-42") || !strings.Contains(buf.String(), "step skipped") {
		t.Fatalf("log line %q lacks the run's id", buf.String())
	}
}
