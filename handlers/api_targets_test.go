package handlers

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/wire"
)

// A run of a gallery method on a target is created over HTTP, from a
// built-in target's name and controls or from a density's text, and its
// stream carries the plane: the exact answer once, then the draws.
func TestAPICreateTargetRun(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	var created wire.RunCreated
	code, _ := e.do("POST", "/api/runs", "application/json",
		`{"target":"gaussian","target_controls":{"rho":0.9},"method":"metropolis","chains":2,"seed":4}`, &created)
	if code != http.StatusCreated || created.Method != "metropolis" || created.Seed != 4 {
		t.Fatalf("create: %d %+v", code, created)
	}
	c := dial(t, e, created.ID, nil)
	send(t, c, `{"op":"play"}`)
	var exacts, draws int
	deadline := time.Now().Add(10 * time.Second)
	for draws == 0 && time.Now().Before(deadline) {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, msg, err := c.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Exact *gallery.PlaneExact `json:"plane_exact"`
			Plane *gallery.Plane      `json:"plane"`
		}
		if err := json.Unmarshal(msg, &f); err != nil {
			t.Fatal(err)
		}
		if f.Exact != nil {
			exacts++
			if n := f.Exact.Exact.N; len(f.Exact.Exact.Values) != n*n || f.Exact.Params != [2]string{"x", "y"} {
				t.Fatalf("exact grid of %d values at n %d, params %v", len(f.Exact.Exact.Values), n, f.Exact.Params)
			}
		}
		if f.Plane != nil && f.Plane.Draws != nil {
			draws += len(f.Plane.Draws.X)
		}
	}
	send(t, c, `{"op":"pause"}`)
	if exacts != 1 || draws == 0 {
		t.Fatalf("the stream carried the exact answer %d times and %d draws: want once, and draws", exacts, draws)
	}

	typed := "a ~ normal(0, 1);\nb ~ normal(a, 1);"
	if code, _ := e.do("POST", "/api/runs", "application/json", mustJSON(t, map[string]any{"target": typed, "method": "mala"}), &created); code != http.StatusCreated {
		t.Fatalf("a typed density: %d", code)
	}
}

// A bad target, target control or method control is a 400 naming the
// field (a typed density's error its line and column first), and
// nothing is created.
func TestAPICreateTargetRunRejectsBadInput(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	for _, c := range []struct{ body, field string }{
		{`{"target":"funel","method":"nuts"}`, "target"},
		{`{"target":"gaussian","target_controls":{"rho":2},"method":"nuts"}`, "rho"},
		{`{"target":"gaussian","method":"nuts","controls":{"max_depth":99}}`, "max_depth"},
		{`{"target":"gaussian","method":"gibbs"}`, "method"},
		{`{"target":"gaussian","method":"nuts","chains":99}`, "chains"},
		{`{"target":"gaussian","method":"nuts","data":"d"}`, "target"},
		{mustJSON(t, map[string]any{"target": "a ~ normal(0, 1);\nb ~ wibble(3);", "method": "nuts"}), "target"},
		{`{"target":"gaussian","method":"mfvi","replay":{"step":-1}}`, "replay.step"},
		{`{"target":"gaussian","method":"mfvi","replay":{"step":10,"changes":[{"step":5,"name":"samples","value":3}]}}`, "samples"},
		{`{"target":"gaussian","method":"mfvi","replay":{"step":10,"changes":[{"step":50,"name":"lr","value":0.1}]}}`, "replay.changes"},
	} {
		got := e.wantError("POST", "/api/runs", c.body, 400, c.field)
		if strings.Contains(c.body, "wibble") && !startsWithPosition(got.Message) {
			t.Errorf("typed density's error %q: want its line:column first", got.Message)
		}
	}
	if e.reg.Len() != 0 {
		t.Fatalf("%d runs after bad requests", e.reg.Len())
	}
}

func startsWithPosition(s string) bool {
	line, rest, ok := strings.Cut(s, ":")
	col, _, ok2 := strings.Cut(rest, ":")
	return ok && ok2 && line != "" && col != "" && strings.Trim(line+col, "0123456789") == ""
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
