package handlers

import (
	"bytes"
	"errors"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
)

// faultFake is streamFake that returns NaN at step nanAt or panics at step
// panicAt (0: never), counting from its last Init.
type faultFake struct {
	streamFake
	nanAt, infAt, panicAt, steps int64
	panicInit                    bool
}

func (f *faultFake) Init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	if f.panicInit {
		panic("the fake method cannot start")
	}
	f.steps = 0
	return f.streamFake.Init(d, c, r)
}

func (f *faultFake) Step() sim.StepStats {
	f.steps++
	switch f.steps {
	case f.panicAt:
		panic("the fake method exploded")
	case f.nanAt:
		return sim.StepStats{Objective: math.NaN()}
	case f.infAt:
		return sim.StepStats{Objective: math.Inf(-1)}
	}
	return f.streamFake.Step()
}

// faultFactory serves "fake" as usual, "nan" going NaN at step 50,
// "inf" going −Inf at step 20, "panic" panicking at step 30 and
// "initpanic" panicking in Init.
func faultFactory(*Uploads) engine.Factory {
	return func(cfg engine.RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error) {
		kind := cfg.Method
		cfg.Method = "fake"
		m, d, c, err := streamFakeFactory(cfg)
		if err != nil {
			return nil, nil, nil, err
		}
		switch kind {
		case "nan":
			return &faultFake{nanAt: 50}, d, c, nil
		case "panic":
			return &faultFake{panicAt: 30}, d, c, nil
		case "inf":
			return &faultFake{infAt: 20}, d, c, nil
		case "initpanic":
			return &faultFake{panicInit: true}, d, c, nil
		case "fake":
			return m, d, c, nil
		}
		return nil, nil, nil, &sim.FieldError{Field: "method", Message: "unknown method"}
	}
}

// lockedLog collects log output from several goroutines.
type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func createMethod(e *env, method string) string {
	e.t.Helper()
	var out struct{ ID string }
	if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"d","method":"`+method+`"}`, &out); code != http.StatusCreated {
		e.t.Fatalf("create %s: %d", method, code)
	}
	return out.ID
}

// A method that goes NaN: every viewer is told the run diverged and why,
// the run keeps its last good state (step, objective, band) for a viewer
// that joins later, and refuses to play until reset.
func TestStreamDivergedEndToEnd(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{factory: faultFactory})
	id := createMethod(e, "nan")
	c := dial(t, e, id, nil)
	next(t, c)
	send(t, c, `{"op":"play"}`)
	var points [][2]float64
	f := until(t, c, func(f inFrame) bool {
		points = append(points, f.Objective...)
		return f.Status == "diverged"
	})
	if f.Step != 49 || !strings.Contains(f.Message, "NaN") || !strings.Contains(f.Message, "step 50") {
		t.Fatalf("diverged frame: step %d, message %q", f.Step, f.Message)
	}
	for _, p := range points {
		if math.IsNaN(p[1]) || math.IsInf(p[1], 0) || p[0] > 49 {
			t.Fatalf("objective point %v streamed from a diverged method", p)
		}
	}
	if len(points) == 0 || points[len(points)-1][0] != 49 {
		t.Fatalf("the last objective point is not step 49: %v", points[max(0, len(points)-3):])
	}
	send(t, c, `{"op":"play"}`)
	if f := until(t, c, func(f inFrame) bool { return f.Type == "error" }); f.Field != "op" || !strings.Contains(f.Message, "diverged") {
		t.Fatalf("play after divergence: %+v", f)
	}
	late := dial(t, e, id, nil)
	f = next(t, late)
	if !f.Full || f.Status != "diverged" || f.Step != 49 || f.Predictive == nil || len(f.Predictive.Mean) != 3 ||
		len(f.Objective) != 49 || f.Diagnostics["objective"] != f.Objective[48][1] {
		t.Fatalf("a late viewer's first frame: %+v", f)
	}
	send(t, c, `{"op":"reset"}`)
	f = until(t, c, func(f inFrame) bool { return f.Type == "frame" && f.Epoch == 1 })
	if f.Status != "paused" || f.Step != 0 || f.Message != "" {
		t.Fatalf("after reset: %+v", f)
	}
}

// −Inf diverges the run as NaN does.
func TestStreamInfDiverges(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{factory: faultFactory})
	c := dial(t, e, createMethod(e, "inf"), nil)
	next(t, c)
	send(t, c, `{"op":"play"}`)
	if f := until(t, c, func(f inFrame) bool { return f.Status == "diverged" }); f.Step != 19 || !strings.Contains(f.Message, "-Inf at step 20") {
		t.Fatalf("diverged frame: step %d, message %q", f.Step, f.Message)
	}
}

// A method that panics: the panic is recovered and logged with its stack,
// viewers are told, and the server goes on serving other requests, other
// runs, and the same connection.
func TestStreamPanicRecoveredEndToEnd(t *testing.T) {
	checkLeaks(t)
	var logs lockedLog
	log := slog.New(slog.NewTextHandler(&logs, nil))
	e := newEnv(t, envOptions{factory: faultFactory, registry: engine.RegistryConfig{Run: engine.RunOptions{Log: log}}})
	id := createMethod(e, "panic")
	c := dial(t, e, id, nil)
	next(t, c)
	send(t, c, `{"op":"play"}`)
	f := until(t, c, func(f inFrame) bool { return f.Status == "diverged" })
	if f.Step != 29 || !strings.Contains(f.Message, "internal error in the method's Step") || !strings.Contains(f.Message, "exploded") {
		t.Fatalf("diverged frame: step %d, message %q", f.Step, f.Message)
	}
	if l := logs.String(); !strings.Contains(l, "panic in method") || !strings.Contains(l, "stack=") || !strings.Contains(l, "faultFake).Step") {
		t.Fatalf("the log lacks the panic and its stack:\n%s", l)
	}
	// The server keeps serving.
	if code, _ := e.do("GET", "/api/methods", "", "", nil); code != http.StatusOK {
		t.Fatalf("GET /api/methods after the panic: %d", code)
	}
	other := createMethod(e, "fake")
	if code, _ := e.do("POST", "/api/runs/"+other+"/ops", "application/json", `{"op":"step","n":5}`, nil); code != http.StatusNoContent {
		t.Fatalf("step another run: %d", code)
	}
	o := dial(t, e, other, nil)
	if f := until(t, o, func(f inFrame) bool { return f.Step == 5 }); f.Status != "paused" {
		t.Fatalf("another run after the panic: %+v", f)
	}
	send(t, c, `{"op":"reset"}`)
	if f := until(t, c, func(f inFrame) bool { return f.Type == "frame" && f.Epoch == 1 }); f.Status != "paused" || f.Step != 0 {
		t.Fatalf("the panicked run after reset: %+v", f)
	}
	// A panic in Init, which runs after the create returned (the run is
	// preparing), leaves the run diverged with the reason.
	ip := dial(t, e, createMethod(e, "initpanic"), nil)
	if f := until(t, ip, func(f inFrame) bool { return f.Status != "preparing" }); f.Status != "diverged" || !strings.Contains(f.Message, "internal error in the method's Init") {
		t.Fatalf("a panic in Init: %s %q", f.Status, f.Message)
	}
	if !strings.Contains(logs.String(), "faultFake).Init") {
		t.Fatalf("the log lacks the Init panic's stack")
	}
}

// A message over the read limit closes the connection with 1009 (message
// too big); a message at the limit is read.
func TestStreamReadLimit(t *testing.T) {
	checkLeaks(t)
	const limit = 512
	e := newEnv(t, envOptions{api: APIConfig{Stream: StreamConfig{ReadLimit: limit}}})
	id := e.create()
	c := dial(t, e, id, nil)
	next(t, c)
	atLimit := `{"op":"step","n":2}`
	atLimit += strings.Repeat(" ", limit-len(atLimit))
	send(t, c, atLimit)
	if f := until(t, c, func(f inFrame) bool { return f.Type == "error" || f.Step == 2 }); f.Type != "frame" {
		t.Fatalf("a message of exactly %d bytes: %+v", limit, f)
	}
	send(t, c, `{"op":"set","name":"`+strings.Repeat("x", limit)+`","value":1}`)
	for {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, _, err := c.ReadMessage()
		if err != nil {
			if !websocket.IsCloseError(err, websocket.CloseMessageTooBig) {
				t.Fatalf("after an oversized message: %v, want close 1009", err)
			}
			break
		}
	}
	run, _ := e.reg.Get(id)
	enginetest.Poll(t, 5*time.Second, "the closed viewer is still counted", func() bool { return run.Viewers() == 0 })
	// The same limit guards POST /ops.
	e.wantError("POST", "/api/runs/"+id+"/ops", `{"op":"play","x":"`+strings.Repeat("x", limit)+`"}`, http.StatusBadRequest, "body")
}

// Messages the fuzzer's invariants do not pin down by name.
func TestStreamBadValuesNameTheirField(t *testing.T) {
	for _, m := range []struct{ msg, field string }{
		{`{"op":"set","name":"prior_scale","value":{}}`, "prior_scale"}, // issue 19: the control, not "value"
		{`{"op":"set","name":"prior_scale","value":[1]}`, "prior_scale"},
		{`{"":1}`, "body"},
		{`{"op":"play","a\"b":1}`, `a"b`},
		{`{"op":5}`, "op"},
		{`{"op":"step","n":"3"}`, "n"},
	} {
		_, err := parseOp([]byte(m.msg))
		fe, ok := errors.AsType[*sim.FieldError](err)
		if !ok || fe.Field != m.field || fe.Message == "" {
			t.Errorf("%s: %#v, want a field error naming %q", m.msg, err, m.field)
		}
	}
}

// A viewer that never reads (small socket buffers, so its writer blocks
// within a few frames) does not slow its run and does not make the server
// hold more memory. Its steps per second (best of a few windows) are
// compared with the same run's without it, before and after, so load from
// elsewhere on the machine affects both alike; the factor 2 leaves room for
// that noise, while a run that waited for its viewer would stop outright
// (the factor is checked in `make load`, with PLAYGROUND_LOAD set; the stop
// always). A writer that queued
// frames would grow the heap by about a frame (KiBs: up to 1024 history
// points) per publish, 100 a second per stalled viewer here; the bound of
// 4 MiB over 1.5 s with 3 stalled viewers catches that.
func TestStreamStalledReaderNeitherSlowsNorGrows(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{
		registry: engine.RegistryConfig{MaxSteps: 1 << 50}, // the fake steps millions a second
		connState: func(c net.Conn, s http.ConnState) {
			if tc, ok := c.(*net.TCPConn); ok && s == http.StateNew {
				tc.SetWriteBuffer(1024)
			}
		},
	})
	id := e.create()
	run, _ := e.reg.Get(id)
	if code, _ := e.do("POST", "/api/runs/"+id+"/ops", "application/json", `{"op":"play"}`, nil); code != http.StatusNoContent {
		t.Fatalf("play: %d", code)
	}
	rate := func(d time.Duration) float64 {
		s0, t0 := run.Latest().Step, time.Now()
		time.Sleep(d) // a measurement window: wall time must pass
		return float64(run.Latest().Step-s0) / time.Since(t0).Seconds()
	}
	enginetest.WaitFrame(t, run, 5*time.Second, func(f *engine.Frame) bool { return f.Status == engine.StatusRunning && f.Step > 0 })
	before := max(rate(250*time.Millisecond), rate(250*time.Millisecond))

	d := smallBufferDialer()
	d.Jar = e.client.Jar // in the session that made the run: it may command it
	var stalled []*websocket.Conn
	for range 3 {
		c, _, err := d.Dial(e.wsURL(id), nil)
		if err != nil {
			t.Fatal(err)
		}
		stalled = append(stalled, c) // never read
	}
	enginetest.Poll(t, 5*time.Second, "3 viewers attached", func() bool { return run.Viewers() == 3 })
	// The socket buffers fill and the writers block: nothing signals it, and
	// at 100 frames a second 300 ms of frames is far more than 2 KiB of buffers.
	time.Sleep(300 * time.Millisecond)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heap0 := ms.HeapInuse
	var during float64 // the best of three windows, as before and after are each one's best
	for range 3 {
		during = max(during, rate(500*time.Millisecond))
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heap1 := ms.HeapInuse
	if n := run.Viewers(); n != 3 {
		t.Fatalf("%d viewers during the measurement, want the 3 stalled ones (WriteWait is 10 s)", n)
	}
	for _, c := range stalled {
		c.Close()
	}
	enginetest.Poll(t, 5*time.Second, "the three stalled handlers finish", func() bool { return run.Viewers() == 0 })
	after := max(rate(250*time.Millisecond), rate(250*time.Millisecond))
	t.Logf("steps/s: %.0f before, %.0f with 3 stalled viewers, %.0f after; heap in use %+.2f MiB while stalled",
		before, during, after, (float64(heap1)-float64(heap0))/(1<<20))
	// A run that waited for its viewers would stop: that holds on any
	// machine. The factor 2 needs an otherwise idle one (`make load`).
	if base := max(before, after); base <= 0 || during <= 0 {
		t.Errorf("steps/s with stalled viewers %.0f, without %.0f: the run stopped", during, base)
	} else if os.Getenv("PLAYGROUND_LOAD") != "" && during < base/2 {
		t.Errorf("steps/s with stalled viewers %.0f, without %.0f: want at least half", during, base)
	}
	if heap1 > heap0 && heap1-heap0 > 4<<20 {
		t.Errorf("heap in use grew by %.1f MiB while 3 viewers stalled", float64(heap1-heap0)/(1<<20))
	}
	if f := run.Latest(); f.Status != engine.StatusRunning {
		t.Fatalf("run %s", f.Status)
	}
}
