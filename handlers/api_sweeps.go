package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/sweeps"
	"github.com/posterior-playground/playground/sim/wire"
)

// Sweeps in the browser: POST /api/sweeps starts one (of a method's
// control on a data set, or with "target" of a gallery target's control
// with several methods), GET /api/sweeps/{id}
// reports it, DELETE /api/sweeps/{id} cancels it, and
// GET /api/sweeps/{id}/stream follows it as Server-Sent Events.
//
// Why SSE and not a websocket: a sweep's viewer only listens (cancelling is
// a DELETE), so one plain HTTP response suffices. There is no reader
// goroutine, no ping/pong and no hijacking; EventSource reconnects by
// itself and resumes from Last-Event-ID, which the events' sequence numbers
// make exact. The costs are handled here: the route stays outside
// middleware.Timeout, every write is flushed under its own deadline (the
// server's WriteTimeout would otherwise end the response; net/http itself
// lifts the read deadline while the handler runs), and the stream ends when
// the API's streams close at shutdown, so Shutdown need not wait for it.

const sweepFields = "data, method, model, param, values, steps, seeds, eval_reps, iwbo_samples, seed, controls, target, methods, budget"

// sweepRoutes registers the sweep routes when the API has a registry: the
// event stream outside middleware.Timeout (it lives as long as the sweep).
func (a *API) sweepRoutes(r chi.Router) {
	if a.sweeps == nil {
		return
	}
	r.Get("/sweeps/{id}/stream", a.sweepStream)
	r.Group(func(r chi.Router) {
		r.Use(middleware.Timeout(a.timeout))
		r.Post("/sweeps", a.createSweep)
		r.Get("/sweeps/{id}", a.getSweep)
		r.Delete("/sweeps/{id}", a.deleteSweep)
	})
}

func (a *API) createSweep(w http.ResponseWriter, r *http.Request) {
	var in wire.CreateSweep
	if err := decodeJSON(w, r, &in, sweepFields); err != nil {
		a.writeSweepErr(w, r, err)
		return
	}
	req := sweeps.Request{Data: in.Data, Method: in.Method, Model: in.Model, Param: in.Param, Values: in.Values,
		Steps: orInt(in.Steps, sweeps.DefaultSteps), Seeds: orInt(in.Seeds, sweeps.DefaultSeeds),
		EvalReps: orInt(in.EvalReps, sweeps.DefaultEvalReps), IWBOSamples: orInt(in.IWBOSamples, sweeps.DefaultIWBOSamples),
		Seed: 1, Controls: in.Controls}
	if in.Seed != nil {
		req.Seed = *in.Seed
	}
	switch {
	case in.Target == "" && len(in.Methods) > 0:
		a.writeSweepErr(w, r, &sim.FieldError{Field: "methods", Message: "methods belong to a target sweep: give target (a data set's sweep takes one method)"})
		return
	case in.Target == "" && in.Budget != nil:
		a.writeSweepErr(w, r, &sim.FieldError{Field: "budget", Message: "budget belongs to a target sweep: give target (a data set's sweep takes steps)"})
		return
	case in.Target != "":
		if err := targetSweep(&req, in); err != nil {
			a.writeSweepErr(w, r, err)
			return
		}
	}
	if in.Values == "" {
		a.writeSweepErr(w, r, &sim.FieldError{Field: "values", Message: `required: "1,2,5", "linspace:a:b:n" or "logspace:a:b:n"`})
		return
	}
	s, err := a.createSweepFor(r, req) // clients_held.go
	if err != nil {
		a.writeSweepErr(w, r, err)
		return
	}
	info := s.Info()
	w.Header().Set("Location", "/api/sweeps/"+s.ID())
	writeJSON(w, a.log, http.StatusCreated, wire.SweepCreated{ID: s.ID(), Stream: "/api/sweeps/" + s.ID() + "/stream",
		Total: info.Total, Param: info.Param, Values: info.Values, LogX: info.LogX, Workers: info.Workers})
}

func (a *API) getSweep(w http.ResponseWriter, r *http.Request) {
	s, err := a.sweeps.Get(chi.URLParam(r, "id"))
	if err != nil {
		a.writeSweepErr(w, r, err)
		return
	}
	writeJSON(w, a.log, http.StatusOK, s.Info())
}

// deleteSweep cancels the sweep and answers, with its final state, once its
// workers have stopped (or after 5 s, should a run's evaluation be slow).
// Only the client that started it may: anyone may watch a sweep.
func (a *API) deleteSweep(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	if s, err := a.sweeps.Get(id); err != nil {
		a.writeSweepErr(w, r, err)
		return
	} else if s.Client() != a.clientKey(r) {
		writeError(w, a.log, http.StatusForbidden, "session", "this sweep belongs to another browser session: you can watch it, not cancel it")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	s, err := a.sweeps.Cancel(ctx, id)
	if err != nil {
		a.writeSweepErr(w, r, err)
		return
	}
	writeJSON(w, a.log, http.StatusOK, s.Info())
}

// sweepStream sends the sweep's events as Server-Sent Events ("progress"
// and "end", each with its sequence number as id) and ends after "end".
func (a *API) sweepStream(w http.ResponseWriter, r *http.Request) {
	s, err := a.sweeps.Get(chi.URLParam(r, "id"))
	if err != nil {
		a.writeSweepErr(w, r, err)
		return
	}
	from := 0
	if n, err := strconv.Atoi(r.Header.Get("Last-Event-ID")); err == nil && n > 0 {
		from = n
	}
	if evs, _, ended := s.Events(from); ended && len(evs) == 0 {
		w.WriteHeader(http.StatusNoContent) // tells EventSource not to reconnect
		return
	}
	leave, ok := a.enterStream(w, r)
	if !ok {
		return
	}
	defer leave()
	if !a.enter() {
		writeError(w, a.log, http.StatusServiceUnavailable, "", "the server is shutting down")
		return
	}
	defer a.wg.Done()
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	w.WriteHeader(http.StatusOK)
	send := func(b []byte) bool {
		rc.SetWriteDeadline(time.Now().Add(a.stream.WriteWait)) // ErrNotSupported: no deadline to move
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send([]byte("retry: 2000\n\n")) {
		return
	}
	ping := time.NewTicker(a.stream.PingPeriod)
	defer ping.Stop()
	var buf bytes.Buffer
	for {
		evs, changed, _ := s.Events(from)
		if len(evs) > 0 {
			buf.Reset()
			for _, ev := range evs {
				b, err := json.Marshal(ev)
				if err != nil {
					a.log.Error("encoding a sweep event", "sweep", s.ID(), "err", err)
					return
				}
				fmt.Fprintf(&buf, "id: %d\nevent: %s\ndata: %s\n\n", ev.Seq, ev.Type, b)
			}
			if !send(buf.Bytes()) {
				return
			}
			from = evs[len(evs)-1].Seq
			if evs[len(evs)-1].Type == "end" {
				return
			}
		}
		select {
		case <-changed:
		case <-ping.C:
			if !send([]byte(": ping\n\n")) { // a comment: keeps proxies open, finds dead viewers
				return
			}
		case <-r.Context().Done():
			return
		case <-a.closing:
			return
		}
	}
}

// writeSweepErr is writeErr with the sweeps' own errors: a cap (429,
// field "sweeps") and an unknown or expired sweep (404).
func (a *API) writeSweepErr(w http.ResponseWriter, r *http.Request, err error) {
	var le *engine.LimitError
	switch {
	case errors.As(err, &le):
		w.Header().Set("Retry-After", "30")
		writeError(w, a.log, http.StatusTooManyRequests, "sweeps", le.Message)
	case errors.Is(err, sweeps.ErrNotFound):
		writeError(w, a.log, http.StatusNotFound, "id", fmt.Sprintf("no such sweep (a finished sweep is kept for %v)", a.sweeps.Config().KeepFor))
	default:
		writeErr(w, r, a.log, err)
	}
}

// targetSweep makes req a sweep over in.Target's control: its methods and
// budget; the fields of a data set's sweep are refused, naming them.
func targetSweep(req *sweeps.Request, in wire.CreateSweep) error {
	for _, f := range []struct {
		name  string
		given bool
	}{{"method", in.Method != ""}, {"model", in.Model != ""}, {"steps", in.Steps != nil},
		{"eval_reps", in.EvalReps != nil}, {"iwbo_samples", in.IWBOSamples != nil}} {
		if f.given {
			return &sim.FieldError{Field: f.name, Message: "a target sweep takes methods and budget; " + f.name + " belongs to a data set's sweep"}
		}
	}
	req.Target, req.Budget = in.Target, sweeps.DefaultBudget
	if in.Budget != nil {
		req.Budget = *in.Budget
	}
	for _, m := range in.Methods {
		req.Arms = append(req.Arms, sweeps.Arm{Method: m.Method, Controls: m.Controls})
	}
	req.Steps, req.EvalReps, req.IWBOSamples = 0, 0, 0
	return nil
}

func orInt(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
