package handlers

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/wire"
)

// A run on a target replays a link's state as a run on data does: a
// full-rank fit stepped to 60, its live learning rate changed there and
// stepped on to 120, and a second run created with that replay, reach
// the same measures at step 120 (the run is deterministic for its seed,
// whatever its batches, and its measures are taken by steps alone).
func TestTargetRunReplaysLink(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	body := `{"target":"gaussian","target_controls":{"rho":0.9},"method":"fullrank","seed":3`
	var a wire.RunCreated
	if code, _ := e.do("POST", "/api/runs", "application/json", body+`}`, &a); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	ca := dial(t, e, a.ID, nil)
	untilPaused(t, ca, 0)
	send(t, ca, `{"op":"step","n":60}`)
	untilPaused(t, ca, 60)
	send(t, ca, `{"op":"set","name":"lr","value":0.02}`)
	send(t, ca, `{"op":"step","n":60}`)
	want := untilPaused(t, ca, 120)

	var b wire.RunCreated
	replay := `,"replay":{"step":120,"changes":[{"step":60,"name":"lr","value":0.02}]}}`
	if code, _ := e.do("POST", "/api/runs", "application/json", body+replay, &b); code != http.StatusCreated {
		t.Fatalf("create with a replay: %d", code)
	}
	got := untilPaused(t, dial(t, e, b.ID, nil), 120)
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if string(wj) != string(gj) {
		t.Errorf("replayed to step 120 the run measures\n%s\nthe original\n%s", gj, wj)
	}
}

// untilPaused reads c's frames until the run is paused at step, and
// returns the latest plane's measures.
func untilPaused(t *testing.T, c *websocket.Conn, step int64) gallery.Measure {
	t.Helper()
	var m gallery.Measure
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		var f struct {
			Step   int64          `json:"step"`
			Status string         `json:"status"`
			Plane  *gallery.Plane `json:"plane"`
		}
		if err := c.ReadJSON(&f); err != nil {
			t.Fatal(err)
		}
		if f.Plane != nil {
			m = f.Plane.Measure
		}
		if f.Status == "paused" && f.Step == step && m.Steps == step {
			return m
		}
	}
	t.Fatalf("the run did not pause at step %d", step)
	return m
}
