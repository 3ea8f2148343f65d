package handlers

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/gp"
	"github.com/posterior-playground/playground/sim/wire"
)

// countingMethod counts the Inits of the method it wraps, each let through
// when gate closes.
type countingMethod struct {
	sim.Method
	inits *atomic.Int64
	gate  chan struct{}
}

func (c countingMethod) SpecFor(d *sim.Dataset) sim.MethodSpec { return sim.SpecFor(c.Method, d) }
func (c countingMethod) Init(d *sim.Dataset, ctl sim.Controls, r *rand.Rand) error {
	<-c.gate
	c.inits.Add(1)
	return c.Method.Init(d, ctl, r)
}

// csvRows is an upload of n points.
func csvRows(n int) string {
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range n {
		fmt.Fprintf(&b, "%d,%g\n", i, float64(i%7)/7)
	}
	return b.String()
}

// A GP create with one point more than the method accepts is a 400 naming
// data and the bound, refused before any method is initialised; one at the
// bound is created before its Init runs (held by a gate here), shows
// preparing, and pauses once Init has run.
func TestGPCreateBoundedByPoints(t *testing.T) {
	checkLeaks(t)
	var inits atomic.Int64
	gate := make(chan struct{})
	e := newEnv(t, envOptions{factory: func(u *Uploads) engine.Factory {
		real := NewFactory(u)
		return func(cfg engine.RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error) {
			m, d, c, err := real(cfg)
			if err != nil {
				return nil, nil, nil, err
			}
			return countingMethod{m, &inits, gate}, d, c, nil
		}
	}})
	upload := func(n int) string {
		var up wire.Upload
		if code, _ := e.do("POST", "/api/data", "text/csv", csvRows(n), &up); code != http.StatusCreated || up.N != n {
			t.Fatalf("upload of %d rows: %d %+v", n, code, up)
		}
		return up.Data
	}
	for _, m := range []struct {
		name  string
		bound int
	}{{gp.ExactName, gp.MaxExactPoints}, {gp.VIName, gp.MaxVIPoints}} {
		over := upload(m.bound + 1)
		got := e.wantError("POST", "/api/runs", `{"data":"`+over+`","method":"`+m.name+`"}`, http.StatusBadRequest, "data")
		if !strings.Contains(got.Message, fmt.Sprintf("at most %d", m.bound)) || !strings.Contains(got.Message, m.name) {
			t.Errorf("%s at %d points: %q", m.name, m.bound+1, got.Message)
		}
		if n := inits.Load(); n != 0 || e.reg.Len() != 0 {
			t.Fatalf("%s at %d points: %d Inits ran, %d runs kept", m.name, m.bound+1, n, e.reg.Len())
		}
	}
	at := upload(gp.MaxExactPoints)
	var out wire.RunCreated
	if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"`+at+`","method":"gp-exact"}`, &out); code != http.StatusCreated {
		t.Fatalf("gp-exact at its bound: %d", code)
	}
	c := dial(t, e, out.ID, nil)
	var f struct{ Status, Message string } // the frames' controls include choices, which inFrame cannot take
	read := func() {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if err := c.ReadJSON(&f); err != nil {
			t.Fatal(err)
		}
	}
	if read(); f.Status != "preparing" || inits.Load() != 0 {
		t.Fatalf("gp-exact at its bound, before its Init: %s, %d Inits", f.Status, inits.Load())
	}
	close(gate)
	for f.Status == "preparing" {
		read()
	}
	if f.Status != "paused" {
		t.Fatalf("gp-exact at its bound: %s %q", f.Status, f.Message)
	}
	if n := inits.Load(); n != 1 {
		t.Fatalf("%d Inits, want 1", n)
	}
}

// gatedFake is streamFake whose Init waits for initGate to close and whose
// Step, when stepGate is set, signals stepEntered and waits for stepGate;
// sets counts the control changes that reached it.
type gatedFake struct {
	streamFake
	initGate, stepGate chan struct{}
	stepEntered        chan struct{}
	sets               atomic.Int64
}

func (g *gatedFake) Init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	<-g.initGate
	return g.streamFake.Init(d, c, r)
}

func (g *gatedFake) Step() sim.StepStats {
	if g.stepGate != nil {
		select {
		case g.stepEntered <- struct{}{}:
		default:
		}
		<-g.stepGate
	}
	return g.streamFake.Step()
}

func (g *gatedFake) Set(name string, v sim.Value) error {
	g.sets.Add(1)
	return g.streamFake.Set(name, v)
}

func gatedEnv(t *testing.T, g *gatedFake) *env {
	return newEnv(t, envOptions{
		api: APIConfig{Stream: StreamConfig{CommandWait: 500 * time.Millisecond}},
		factory: func(*Uploads) engine.Factory {
			return func(cfg engine.RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error) {
				_, d, c, err := streamFakeFactory(cfg)
				return g, d, c, err
			}
		},
	})
}

// postSet posts a set op and decodes a 202's acknowledgement.
func postSet(e *env, id, name string, v float64) (int, wire.Queued) {
	var q wire.Queued
	code, _ := e.do("POST", "/api/runs/"+id+"/ops", "application/json", fmt.Sprintf(`{"op":"set","name":%q,"value":%g}`, name, v), &q)
	return code, q
}

// A create returns while the method's Init is blocked: the stream shows
// preparing, then paused once Init ends; a set while preparing is
// acknowledged as queued and applied once, a bad one refused at once.
func TestCreateReturnsWhilePreparingEndToEnd(t *testing.T) {
	checkLeaks(t)
	g := &gatedFake{initGate: make(chan struct{})}
	e := gatedEnv(t, g)
	id := e.createPreparing() // Init cannot have run: its gate opens below
	c := dial(t, e, id, nil)
	if f := next(t, c); f.Status != "preparing" {
		t.Fatalf("first frame: %s", f.Status)
	}
	if code, q := postSet(e, id, "prior_scale", 2); code != http.StatusAccepted || q.Type != "queued" || q.Status != "preparing" || q.Field != "prior_scale" {
		t.Fatalf("a set while preparing: %d %+v", code, q)
	}
	e.wantError("POST", "/api/runs/"+id+"/ops", `{"op":"set","name":"nope","value":1}`, http.StatusBadRequest, "nope")
	e.wantError("POST", "/api/runs/"+id+"/ops", `{"op":"set","name":"prior_scale","value":50}`, http.StatusBadRequest, "prior_scale")
	close(g.initGate)
	f := until(t, c, func(f inFrame) bool { return f.Status == "paused" })
	if f.Controls["prior_scale"] != 2 {
		f = until(t, c, func(f inFrame) bool { return f.Controls["prior_scale"] == 2 })
	}
	if n := g.sets.Load(); n != 1 || len(f.Marks) != 1 {
		t.Fatalf("%d sets reached the method, marks %v; want 1", n, f.Marks)
	}
}

// A command during a long step is never a 500: a set is acknowledged as
// queued (202 over HTTP, a "queued" message on the stream) and applied
// exactly once when the step ends; an unknown control is refused at once,
// naming it.
func TestCommandDuringLongStepEndToEnd(t *testing.T) {
	checkLeaks(t)
	g := &gatedFake{initGate: make(chan struct{}), stepGate: make(chan struct{}), stepEntered: make(chan struct{}, 1)}
	close(g.initGate)
	e := gatedEnv(t, g)
	id := e.create()
	c := dial(t, e, id, nil)
	until(t, c, func(f inFrame) bool { return f.Status == "paused" })
	if code, _ := e.do("POST", "/api/runs/"+id+"/ops", "application/json", `{"op":"step"}`, nil); code != http.StatusNoContent {
		t.Fatalf("step: %d", code)
	}
	<-g.stepEntered // the step now lasts until the gate opens
	if code, q := postSet(e, id, "prior_scale", 3); code != http.StatusAccepted || q.Step != 0 || q.Field != "prior_scale" || !strings.Contains(q.Message, "when that step ends") {
		t.Fatalf("a set during a long step: %d %+v", code, q)
	}
	got := e.wantError("POST", "/api/runs/"+id+"/ops", `{"op":"set","name":"nope","value":1}`, http.StatusBadRequest, "nope")
	if !strings.Contains(got.Message, "unknown control") {
		t.Fatalf("an unknown control: %q", got.Message)
	}
	send(t, c, `{"op":"set","name":"prior_scale","value":4}`)
	if m := until(t, c, func(f inFrame) bool { return f.Type != "frame" }); m.Type != "queued" || m.Field != "prior_scale" {
		t.Fatalf("on the stream: %+v", m)
	}
	send(t, c, `{"op":"set","name":"nope","value":1}`)
	if m := until(t, c, func(f inFrame) bool { return f.Type != "frame" }); m.Type != "error" || m.Field != "nope" {
		t.Fatalf("an unknown control on the stream: %+v", m)
	}
	if g.sets.Load() != 0 {
		t.Fatal("a set reached the method inside its step")
	}
	close(g.stepGate)
	f := until(t, c, func(f inFrame) bool { return f.Type == "frame" && f.Controls["prior_scale"] == 4 })
	if n := g.sets.Load(); n != 2 || len(f.Marks) != 2 || f.Marks[0].Value != sim.Num(3) {
		t.Fatalf("%d sets reached the method, marks %v; want 3 then 4, once each", n, f.Marks)
	}
}
