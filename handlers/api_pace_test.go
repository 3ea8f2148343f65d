package handlers

import (
	"net/http"
	"testing"

	"github.com/posterior-playground/playground/sim/wire"
)

// TestAPIPace joins two of the session's runs into a pacing group and
// frees them again; a bad unit, no runs and an unknown run are refused
// naming the field. (The pacing itself is sim/engine's test.)
func TestAPIPace(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	var ids []string
	for range 2 {
		var c wire.RunCreated
		if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"d","method":"fake"}`, &c); code != http.StatusCreated {
			t.Fatalf("create: %d", code)
		}
		ids = append(ids, c.ID)
	}
	body := `{"runs":["` + ids[0] + `","` + ids[1] + `"],"unit":"grads"}`
	if code, _ := e.do("POST", "/api/pace", "application/json", body, nil); code != http.StatusNoContent {
		t.Fatalf("pace: %d", code)
	}
	if code, _ := e.do("POST", "/api/pace", "application/json", `{"runs":["`+ids[0]+`"],"unit":"off"}`, nil); code != http.StatusNoContent {
		t.Fatalf("pace off: %d", code)
	}
	e.wantError("POST", "/api/pace", `{"runs":["`+ids[0]+`"],"unit":"steps"}`, 400, "unit")
	e.wantError("POST", "/api/pace", `{"runs":[],"unit":"cpu"}`, 400, "runs")
	e.wantError("POST", "/api/pace", `{"runs":["nope"],"unit":"cpu"}`, 404, "id")
	e.wantError("POST", "/api/pace", `{"runs":["`+ids[0]+`"],"unit":"cpu","speed":1}`, 400, "speed")
}
