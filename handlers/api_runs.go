package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

const maxJSONBody = 64 << 10

func (a *API) createRun(w http.ResponseWriter, r *http.Request) {
	var req wire.CreateRun
	if err := decodeJSON(w, r, &req, "data, method, model, seed, controls, replay"); err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	cfg := engine.RunConfig{Data: req.Data, Method: req.Method, Model: req.Model, Seed: 1, Controls: req.Controls, Replay: req.Replay}
	if req.Seed != nil {
		cfg.Seed = *req.Seed
	}
	run, err := a.reg.Create(cfg, a.clientKey(r))
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	c := run.Config()
	w.Header().Set("Location", "/api/runs/"+run.ID())
	writeJSON(w, a.log, http.StatusCreated, wire.RunCreated{ID: run.ID(), Stream: "/api/runs/" + run.ID() + "/stream",
		Data: c.Data, Method: c.Method, Model: c.Model, Seed: c.Seed, Controls: c.Controls, Traces: run.TraceNames()})
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
		Viewers: run.Viewers(), Traces: run.TraceNames(), Spec: run.Spec(),
		Summary: wire.RunSummary{StepsPerSec: f.StepsPerSec, Diagnostics: f.Diagnostics}}
	if !math.IsNaN(f.Objective) {
		info.Summary.Objective = &f.Objective
	}
	writeJSON(w, a.log, http.StatusOK, info)
}

func (a *API) deleteRun(w http.ResponseWriter, r *http.Request) {
	if err := a.reg.Delete(chi.URLParam(r, "id")); err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// postOp handles POST /api/runs/{id}/ops: one command, as on the stream,
// for scripts without a websocket.
func (a *API) postOp(w http.ResponseWriter, r *http.Request) {
	run, err := a.reg.Get(chi.URLParam(r, "id"))
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
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		err = applyOp(ctx, op, run)
		cancel()
	}
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// decodeJSON reads one JSON object into v, rejecting unknown fields,
// trailing data and bodies over maxJSONBody with a *sim.FieldError.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any, allowed string) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxJSONBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonFieldError(err, allowed)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &sim.FieldError{Field: "body", Message: "want a single JSON object, found more after it"}
	}
	return nil
}

// jsonFieldError names the field a decoding error is about.
func jsonFieldError(err error, allowed string) error {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
		big *http.MaxBytesError
	)
	switch {
	case errors.Is(err, io.EOF):
		return &sim.FieldError{Field: "body", Message: "empty; want a JSON object"}
	case errors.As(err, &syn):
		return &sim.FieldError{Field: "body", Message: fmt.Sprintf("malformed JSON at byte %d: %v", syn.Offset, syn)}
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return &sim.FieldError{Field: field, Message: fmt.Sprintf("want a %s, got a JSON %s", typ.Type, typ.Value)}
	case errors.As(err, &big):
		return &sim.FieldError{Field: "body", Message: fmt.Sprintf("larger than the limit of %d bytes", big.Limit)}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		quoted := strings.TrimPrefix(err.Error(), "json: unknown field ")
		name, uerr := strconv.Unquote(quoted)
		if uerr != nil || name == "" { // a key "" must still name a field
			return &sim.FieldError{Field: "body", Message: "unknown field " + quoted + " (allowed: " + allowed + ")"}
		}
		return &sim.FieldError{Field: name, Message: "unknown field (allowed: " + allowed + ")"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &sim.FieldError{Field: "body", Message: "malformed JSON: it ends too early"}
	}
	// A control value that is neither a number nor a string.
	return &sim.FieldError{Field: "controls", Message: err.Error()}
}
