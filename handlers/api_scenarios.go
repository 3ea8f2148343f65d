package handlers

import (
	"net/http"

	"github.com/posterior-playground/playground/sim/scenario"
)

// scenarioBody is a scenario as GET /api/scenarios lists it: the
// scenario's fields (sim/scenario) and its page's link.
type scenarioBody struct {
	scenario.Scenario
	URL string `json:"url"`
}

// scenarios answers GET /api/scenarios[?on=data|target]: the scenarios on
// data (the play page's: "data", "methods", "controls") and on 2-D
// targets (the gallery page's: "target", "target_controls", "panels"),
// each with its claim and link, in display order.
func (a *API) scenarios(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	for key := range q {
		if key != "on" {
			writeError(w, a.log, http.StatusBadRequest, key, "unknown parameter (allowed: on)")
			return
		}
	}
	var list []scenario.Scenario
	switch q.Get("on") {
	case "":
		list = append(scenario.All(), scenario.OnTargets()...)
	case "data":
		list = scenario.All()
	case "target":
		list = scenario.OnTargets()
	default:
		writeError(w, a.log, http.StatusBadRequest, "on", q.Get("on")+" is not data or target")
		return
	}
	out := make([]scenarioBody, len(list))
	for i, s := range list {
		out[i] = scenarioBody{Scenario: s, URL: s.URL()}
	}
	writeJSON(w, a.log, http.StatusOK, out)
}
