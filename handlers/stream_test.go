package handlers

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/wire"
)

// inFrame is a server message as a client decodes it.
type inFrame struct {
	Type        string
	Full        bool
	Epoch       uint64
	Step        int64
	Status      string
	Message     string
	Budget      int64
	Controls    map[string]float64
	Objective   [][2]float64
	Trace       map[string][][2]float64
	Predictive  *wire.Band
	Marks       []wire.Mark
	Diagnostics map[string]float64
	StepsPerSec float64 `json:"steps_per_sec"`
	Data        *wire.DataPoints
	Field       string
}

func dial(t *testing.T, e *env, id string, h http.Header) *websocket.Conn {
	t.Helper()
	c, res, err := e.dialer().Dial(e.wsURL(id), h)
	if err != nil {
		t.Fatalf("dial: %v (%v)", err, res)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func next(t *testing.T, c *websocket.Conn) inFrame {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	var f inFrame
	if err := c.ReadJSON(&f); err != nil {
		t.Fatalf("read: %v", err)
	}
	return f
}

// until reads messages until ok holds for one, and returns it.
func until(t *testing.T, c *websocket.Conn, ok func(inFrame) bool) inFrame {
	t.Helper()
	for {
		if f := next(t, c); ok(f) {
			return f
		}
	}
}

func send(t *testing.T, c *websocket.Conn, msg string) {
	t.Helper()
	if err := c.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
		t.Fatal(err)
	}
}

// A viewer plays a run, sets prior_scale, and sees the new value in the
// controls and its effect in the objective: −(x − k)² − log k ≤ −log 5 after
// the change, while before it x had relaxed to k = 1 (objective → 0).
func TestStreamPlaySetAndSee(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	id := e.create()
	c := dial(t, e, id, nil)
	f := next(t, c)
	if f.Type != "frame" || !f.Full || f.Status != "paused" || f.Step != 0 || f.Data == nil || len(f.Data.X) != 2 ||
		f.Predictive == nil || len(f.Predictive.X) != 3 || f.Controls["prior_scale"] != 1 {
		t.Fatalf("first frame %+v", f)
	}
	send(t, c, `{"op":"play"}`)
	var seen [][2]float64
	f = until(t, c, func(f inFrame) bool {
		// Keep these points too: with short batches the points before the
		// change may all arrive in the frames before the set is sent.
		seen = append(seen, f.Objective...)
		return f.Status == "running" && f.Step > 200
	})
	send(t, c, `{"op":"set","name":"prior_scale","value":5}`)
	f = until(t, c, func(f inFrame) bool {
		seen = append(seen, f.Objective...)
		return f.Controls["prior_scale"] == 5
	})
	if len(f.Marks) != 1 || f.Marks[0].Name != "prior_scale" || f.Marks[0].Value != sim.Num(5) {
		t.Fatalf("marks %+v", f.Marks)
	}
	at := float64(f.Marks[0].Step)
	f = until(t, c, func(f inFrame) bool {
		seen = append(seen, f.Objective...)
		return f.Step > int64(at)+100
	})
	var before, after int
	for i, p := range seen {
		if i > 0 && p[0] <= seen[i-1][0] {
			t.Fatalf("points out of order: %v then %v", seen[i-1], p)
		}
		switch {
		case p[0] <= at && p[0] > 100: // x within 0.9^100 of k = 1
			before++
			if p[1] < -1e-4 {
				t.Fatalf("objective %v at step %v before the change", p[1], p[0])
			}
		case p[0] > at:
			after++
			if p[1] > -1.6094 { // −log 5
				t.Fatalf("objective %v at step %v after prior_scale 5", p[1], p[0])
			}
		}
	}
	if before == 0 || after == 0 {
		t.Fatalf("%d points before the change, %d after", before, after)
	}
}

func TestStreamRejectsBadMessages(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	id := e.create()
	c := dial(t, e, id, nil)
	next(t, c)
	for _, m := range []struct{ msg, field string }{
		{`not json`, "body"},
		{`{"op":"jump"}`, "op"},
		{`{}`, "op"},
		{`{"op":"play","colour":1}`, "colour"},
		{`{"op":"play","n":3}`, "n"},
		{`{"op":"step","n":0}`, "n"},
		{`{"op":"step","n":10001}`, "n"},
		{`{"op":"step","n":1.5}`, "n"},
		{`{"op":"set","value":1}`, "name"},
		{`{"op":"set","name":"prior_scale"}`, "value"},
		{`{"op":"set","name":"prior_scale","value":100}`, "prior_scale"},
		{`{"op":"set","name":"prior_scale","value":"big"}`, "prior_scale"},
		{`{"op":"set","name":"depth","value":1}`, "depth"},
		{`{"op":"speed","value":-1}`, "speed"},
		{`{"op":"speed","value":"fast"}`, "value"},
	} {
		send(t, c, m.msg)
		f := until(t, c, func(f inFrame) bool { return f.Type == "error" })
		if f.Field != m.field || f.Message == "" {
			t.Fatalf("%s: error %+v, want field %q", m.msg, f, m.field)
		}
	}
	// The connection is still open and nothing changed.
	send(t, c, `{"op":"step","n":3}`)
	f := until(t, c, func(f inFrame) bool { return f.Type == "frame" && f.Step == 3 })
	if f.Controls["prior_scale"] != 1 || f.Status != "paused" || len(f.Marks) != 0 {
		t.Fatalf("after bad messages: %+v", f)
	}
}

func TestStreamOrigins(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{api: APIConfig{AllowedOrigins: []string{"https://Lab.example:8443"}}})
	id := e.create()
	for _, o := range []string{"http://evil.example", "null", e.srv.URL + ".evil.example"} {
		_, res, err := e.dialer().Dial(e.wsURL(id), http.Header{"Origin": {o}})
		if !errors.Is(err, websocket.ErrBadHandshake) || res.StatusCode != http.StatusForbidden {
			t.Fatalf("origin %s: %v %v", o, err, res)
		}
		// The refusal names the serve flag that allows more origins.
		if body, _ := io.ReadAll(res.Body); !strings.Contains(string(body), "--allow-origin)") {
			t.Fatalf("origin %s: refusal %q does not name --allow-origin", o, body)
		}
	}
	for _, o := range []string{e.srv.URL, "https://lab.example:8443"} {
		c := dial(t, e, id, http.Header{"Origin": {o}})
		next(t, c)
		c.Close()
	}
	_, res, err := e.dialer().Dial(e.wsURL("nope"), nil)
	if err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown run: %v %v", err, res)
	}
	if _, err := NewAPI(APIConfig{Registry: e.reg, AllowedOrigins: []string{"lab.example"}}); err == nil {
		t.Fatal("an origin without a scheme was accepted")
	}
}

// A viewer that never reads does not hold the run back; a second viewer
// keeps getting frames, and the first frame of a late viewer carries the
// whole (decimated) history.
func TestStreamStalledViewer(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{registry: engine.RegistryConfig{Run: engine.RunOptions{HistoryCap: 256}}})
	id := e.create()
	stalled := dial(t, e, id, nil)
	_ = stalled // never read
	c := dial(t, e, id, nil)
	next(t, c)
	send(t, c, `{"op":"play"}`)
	until(t, c, func(f inFrame) bool { return f.Step > 300_000 })
	run, err := e.reg.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if run.Viewers() != 2 {
		t.Fatalf("%d viewers", run.Viewers())
	}
	late := dial(t, e, id, nil)
	f := next(t, late)
	if !f.Full || len(f.Objective) < 128 || len(f.Objective) > 256 || f.Objective[0][0] != 1 {
		t.Fatalf("late viewer's first frame: full %v, %d points from %v", f.Full, len(f.Objective), f.Objective[:1])
	}
}

// Deleting a run closes its streams with a normal closure.
func TestStreamRunDeleted(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	id := e.create()
	c := dial(t, e, id, nil)
	next(t, c)
	e.do("DELETE", "/api/runs/"+id, "", "", nil)
	for {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, _, err := c.ReadMessage()
		if err != nil {
			if !websocket.IsCloseError(err, websocket.CloseNormalClosure) {
				t.Fatalf("want a normal close, got %v", err)
			}
			return
		}
	}
}

func TestStreamShutdownSendsCloseFrame(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	id := e.create()
	c := dial(t, e, id, nil)
	next(t, c)
	e.api.CloseStreams()
	for {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, _, err := c.ReadMessage()
		if err != nil {
			if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
				t.Fatalf("want going away, got %v", err)
			}
			break
		}
	}
	_, res, err := e.dialer().Dial(e.wsURL(id), nil)
	if err == nil || res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a stream during shutdown: %v %v", err, res)
	}
}

func TestParseOpAcceptsGoodCommands(t *testing.T) {
	for _, m := range []string{`{"op":"play"}`, `{"op":"pause"}`, `{"op":"reset"}`, `{"op":"continue"}`, `{"op":"step"}`, `{"op":"step","n":10000}`,
		`{"op":"set","name":"kernel","value":"periodic"}`, `{"op":"speed","value":0}`} {
		if _, err := parseOp([]byte(m)); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	var fe *sim.FieldError
	if _, err := parseOp([]byte(`{"op":"play"} {"op":"pause"}`)); !errors.As(err, &fe) {
		t.Fatalf("two messages in one: %v", err)
	}
}

// A viewer that stops reading is dropped once a write waits longer than
// WriteWait; the run goes on. Small socket buffers on both ends make the
// stall show within a few frames.
func TestStreamDropsViewerThatCannotKeepUp(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{
		api: APIConfig{Stream: StreamConfig{WriteWait: 100 * time.Millisecond}},
		connState: func(c net.Conn, s http.ConnState) {
			if tc, ok := c.(*net.TCPConn); ok && s == http.StateNew {
				tc.SetWriteBuffer(1024)
			}
		},
	})
	id := e.create()
	d := smallBufferDialer()
	d.Jar = e.client.Jar // in the session that made the run: it may command it
	c, _, err := d.Dial(e.wsURL(id), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	run, _ := e.reg.Get(id)
	next(t, c)
	send(t, c, `{"op":"play"}`) // then never read again
	enginetest.Poll(t, 10*time.Second, "the stalled viewer was not dropped", func() bool { return run.Viewers() == 0 })
	if f := run.Latest(); f.Status != engine.StatusRunning || f.Step == 0 {
		t.Fatalf("the run: %s at step %d", f.Status, f.Step)
	}
}

// smallBufferDialer dials with a 1 KiB socket read buffer, so a viewer
// that stops reading stalls the server's writes within a few frames.
func smallBufferDialer() websocket.Dialer {
	return websocket.Dialer{NetDial: func(network, addr string) (net.Conn, error) {
		c, err := net.Dial(network, addr)
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetReadBuffer(1024)
		}
		return c, err
	}}
}
