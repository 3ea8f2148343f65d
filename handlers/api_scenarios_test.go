package handlers

import (
	"net/http"
	"testing"

	"github.com/posterior-playground/playground/sim/scenario"
)

// GET /api/scenarios lists the scenarios on data, then those on 2-D
// targets, each with its link and claim; ?on= picks one kind, and a bad
// parameter is a 400 naming it.
func TestAPIScenarios(t *testing.T) {
	e := newEnv(t, envOptions{})
	type body struct {
		Slug   string            `json:"slug"`
		Data   string            `json:"data"`
		Target string            `json:"target"`
		Panels []scenario.Panel  `json:"panels"`
		URL    string            `json:"url"`
		Claim  *scenario.Claim   `json:"claim"`
		TC     map[string]string `json:"target_controls"`
	}
	var all, onTargets []body
	if code, _ := e.do("GET", "/api/scenarios", "", "", &all); code != 200 || len(all) != len(scenario.All())+len(scenario.OnTargets()) {
		t.Fatalf("scenarios: %d, %d of them", code, len(all))
	}
	if code, _ := e.do("GET", "/api/scenarios?on=target", "", "", &onTargets); code != 200 || len(onTargets) != len(scenario.OnTargets()) {
		t.Fatalf("scenarios on targets: %d, %d of them", code, len(onTargets))
	}
	for i, s := range all {
		onTarget := i >= len(scenario.All())
		if onTarget != (s.Target != "") || onTarget == (s.Data != "") || s.URL == "" || s.Claim == nil {
			t.Errorf("scenario %d %+v: want data or a target, a link and a claim", i, s)
		}
		if onTarget && (len(s.Panels) == 0 || s.URL[:9] != "/gallery?") {
			t.Errorf("scenario %s on %s: panels %v, link %s", s.Slug, s.Target, s.Panels, s.URL)
		}
	}
	e.wantError("GET", "/api/scenarios?on=both", "", http.StatusBadRequest, "on")
	e.wantError("GET", "/api/scenarios?x=1", "", http.StatusBadRequest, "x")
}
