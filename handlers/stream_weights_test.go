package handlers

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

// The weight command needs a whole, non-negative n and nothing else; errors
// name the field and the allowed range.
func TestParseOpWeight(t *testing.T) {
	m, err := parseOp([]byte(`{"op":"weight","n":2650}`))
	if err != nil || m.Op != engine.OpWeight || *m.N != 2650 {
		t.Fatalf("valid weight op: %+v, %v", m, err)
	}
	for msg, field := range map[string]string{
		`{"op":"weight"}`:                      "n",
		`{"op":"weight","n":-1}`:               "n",
		`{"op":"weight","n":1.5}`:              "n",
		`{"op":"weight","n":1e300}`:            "n",
		`{"op":"weight","n":"3"}`:              "n",
		`{"op":"weight","n":3,"name":"x"}`:     "name",
		`{"op":"weight","n":3,"value":1}`:      "value",
		`{"op":"weight","n":3,"colour":"red"}`: "colour",
	} {
		_, err := parseOp([]byte(msg))
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("%s: error %v, want one naming %q", msg, err, field)
			continue
		}
		if field == "n" && msg != `{"op":"weight","n":"3"}` && !strings.Contains(fe.Message, "[0, 16777216]") {
			t.Errorf("%s: message %q does not give the range", msg, fe.Message)
		}
	}
}

// TestStreamWeightOp: a LIVI run's stream carries a weight histogram; the
// weight command changes the index, an index past the method's weights is
// answered with an error frame naming "n" and the range, and an HMC run
// (no weight marginals) refuses the command on "op".
func TestStreamWeightOp(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{factory: NewFactory, api: APIConfig{Specs: catalog.Specs}})
	var livi, hmc wire.RunCreated
	if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"linreg","method":"livi","seed":1}`, &livi); code != http.StatusCreated {
		t.Fatalf("livi on linreg: %d", code)
	}
	if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"linreg","method":"hmc","seed":1}`, &hmc); code != http.StatusCreated {
		t.Fatalf("hmc on linreg: %d", code)
	}
	type msg struct {
		Type    string `json:"type"`
		Field   string `json:"field"`
		Message string `json:"message"`
		Weights *struct {
			Index      int       `json:"index"`
			NumWeights int       `json:"num_weights"`
			Kind       string    `json:"kind"`
			Density    []float64 `json:"density"`
		} `json:"weights"`
	}
	// next reads until ok accepts a message.
	next := func(c interface {
		ReadMessage() (int, []byte, error)
		SetReadDeadline(time.Time) error
	}, ok func(msg) bool) msg {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, b, err := c.ReadMessage()
			if err != nil {
				t.Fatal(err)
			}
			var m msg
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if ok(m) {
				return m
			}
		}
		t.Fatal("no such message")
		return msg{}
	}
	c := dial(t, e, livi.ID, nil)
	m := next(c, func(m msg) bool { return m.Weights != nil })
	if w := m.Weights; w.Index != 0 || w.NumWeights != 2 || w.Kind != "samples" || len(w.Density) != engine.WeightBins {
		t.Fatalf("first weights %+v", w)
	}
	send(t, c, `{"op":"weight","n":1}`)
	next(c, func(m msg) bool { return m.Weights != nil && m.Weights.Index == 1 })
	send(t, c, `{"op":"weight","n":2}`)
	if m := next(c, func(m msg) bool { return m.Type == "error" }); m.Field != "n" || !strings.Contains(m.Message, "[0, 1]") {
		t.Fatalf("error %+v", m)
	}
	h := dial(t, e, hmc.ID, nil)
	send(t, h, `{"op":"weight","n":0}`)
	if m := next(h, func(m msg) bool { return m.Type == "error" }); m.Field != "op" {
		t.Fatalf("hmc error %+v", m)
	}
}
