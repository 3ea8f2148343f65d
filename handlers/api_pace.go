package handlers

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
)

// maxPaced bounds the runs one pacing group takes: a page's panels.
const maxPaced = 16

// paceRequest is POST /api/pace's body: the session's runs to pace
// together by unit ("grads" or "cpu"), or to free from any group ("off").
type paceRequest struct {
	Runs []string `json:"runs"`
	Unit string   `json:"unit"`
}

// postPace handles POST /api/pace: the runs named join one new pacing
// group (engine.Group), leaving any they were in, so that from then on
// each steps only while it has spent no more than the least of them (an
// equal-budget race: play them to see it); unit "off" frees them. 204
// when every run has; a run not the session's is refused before any
// joins.
func (a *API) postPace(w http.ResponseWriter, r *http.Request) {
	var req paceRequest
	if err := decodeJSON(w, r, &req, "runs, unit"); err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	var g *engine.Group
	if req.Unit != "off" {
		u, err := engine.ParseUnit("unit", req.Unit)
		if err != nil {
			writeErr(w, r, a.log, &sim.FieldError{Field: "unit", Message: fmt.Sprintf("%q is not a pacing unit (allowed: grads, cpu, off)", req.Unit)})
			return
		}
		g = engine.NewGroup(u)
	}
	if len(req.Runs) == 0 || len(req.Runs) > maxPaced {
		writeErr(w, r, a.log, &sim.FieldError{Field: "runs", Message: fmt.Sprintf("%d runs: give 1 to %d of the session's run ids", len(req.Runs), maxPaced)})
		return
	}
	runs := make([]*engine.Run, 0, len(req.Runs))
	for _, id := range req.Runs {
		if err := a.owns(r, id); err != nil {
			writeErr(w, r, a.log, err)
			return
		}
		run, err := a.reg.Get(id)
		if err != nil {
			writeErr(w, r, a.log, err)
			return
		}
		runs = append(runs, run)
	}
	for _, run := range runs {
		err := run.Pace(r.Context(), g)
		if q, ok := errors.AsType[*engine.Queued](err); ok { // inside a long step: it joins when the step ends
			err = q.Wait(r.Context())
		}
		if err != nil {
			writeErr(w, r, a.log, err)
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}
