package handlers

import (
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

func (a *API) createRun(w http.ResponseWriter, r *http.Request) {
	var req wire.CreateRun
	if err := decodeJSON(w, r, &req, "data, method, model, seed, controls, replay, target, target_controls, chains"); err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	if req.Target != "" {
		a.createTargetRun(w, r, req)
		return
	}
	cfg := engine.RunConfig{Data: req.Data, Method: req.Method, Model: req.Model, Seed: 1, Controls: req.Controls, Replay: req.Replay}
	if req.Seed != nil {
		cfg.Seed = *req.Seed
	}
	run, err := a.createRunFor(r, cfg) // clients_held.go: the caps per client address
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	c := run.Config()
	w.Header().Set("Location", "/api/runs/"+run.ID())
	writeJSON(w, a.log, http.StatusCreated, wire.RunCreated{ID: run.ID(), Stream: "/api/runs/" + run.ID() + "/stream",
		Data: c.Data, Method: c.Method, Model: c.Model, Seed: c.Seed, Controls: c.Controls, Traces: runTraces(run.TraceNames(), c.Controls)})
}

func (a *API) getRun(w http.ResponseWriter, r *http.Request) {
	run, err := a.reg.Get(chi.URLParam(r, "id"))
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	f, c := run.Latest(), run.Config()
	info := wire.RunInfo{ID: run.ID(), Config: c, Method: c.Method, Data: wire.RunData{Name: c.Data, DataPoints: run.Data()},
		Status: string(f.Status), Message: f.Message, Step: f.Step, Epoch: f.Epoch, Controls: f.Controls, Start: f.Start, Speed: f.Speed,
		Viewers: run.Viewers(), Traces: runTraces(run.TraceNames(), f.Controls), Spec: run.Spec(), Yours: a.owns(r, run.ID()) == nil,
		Summary: wire.RunSummary{StepsPerSec: f.StepsPerSec, Diagnostics: f.Diagnostics}}
	if !math.IsNaN(f.Objective) {
		info.Summary.Objective = &f.Objective
	}
	writeJSON(w, a.log, http.StatusOK, info)
}

func (a *API) deleteRun(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	if err := a.owns(r, id); err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	if err := a.reg.Delete(id); err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// postOp handles POST /api/runs/{id}/ops: one command, as on the stream,
// for scripts without a websocket. 204: applied; 202 with a wire.Queued:
// taken during a long step, applied when it ends; 4xx/503: refused, never
// applied.
func (a *API) postOp(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	if err := a.owns(r, id); err != nil {
		a.observer.Command(false)
		writeErr(w, r, a.log, err)
		return
	}
	run, err := a.reg.Get(id)
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, a.stream.ReadLimit))
	if err != nil {
		writeError(w, a.log, http.StatusBadRequest, "body", fmt.Sprintf("larger than %d bytes", a.stream.ReadLimit))
		return
	}
	op, err := parseOp(body)
	if err == nil {
		err = runOp(r.Context(), op, run, a.stream.CommandWait)
	}
	q, queued := errors.AsType[*engine.Queued](err)
	a.observer.Command(err == nil || queued)
	switch {
	case queued: // taken, not yet applied: say so, with the step it follows
		writeJSON(w, a.log, http.StatusAccepted, queuedBody(q))
	case err != nil:
		writeErr(w, r, a.log, err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// listRuns answers GET /api/runs: the session's own runs, so the page can
// list them and free them.
func (a *API) listRuns(w http.ResponseWriter, r *http.Request) {
	out := []wire.RunBrief{}
	for _, run := range a.reg.RunsOf(a.clientKey(r)) {
		f, c := run.Latest(), run.Config()
		out = append(out, wire.RunBrief{ID: run.ID(), Method: c.Method, Data: c.Data, Seed: c.Seed,
			Status: string(f.Status), Step: f.Step, Viewers: run.Viewers()})
	}
	writeJSON(w, a.log, http.StatusOK, out)
}

// owns says whether the request's client owns the run with id: nil,
// ErrNotYours, or the registry's ErrNotFound.
func (a *API) owns(r *http.Request, id string) error {
	owner, err := a.reg.Owner(id)
	if err != nil {
		return err
	}
	if owner != a.clientKey(r) {
		return ErrNotYours
	}
	return nil
}
