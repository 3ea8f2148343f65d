package handlers

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/target"
	"github.com/posterior-playground/playground/sim/target/stan"
	"github.com/posterior-playground/playground/sim/wire"
)

// createTargetRun is POST /api/runs with a target: a gallery method on a
// built-in target (its name and controls) or on a density typed in
// Stan's notation. It is admitted as a run on data is (admitRun), before
// its exact answer comes from the API's cache; every bad field is a 400
// naming it, and nothing is created.
func (a *API) createTargetRun(w http.ResponseWriter, r *http.Request, req wire.CreateRun) {
	if req.Data != "" || req.Model != "" {
		writeErr(w, r, a.log, &sim.FieldError{Field: "target", Message: "a run is on a data set or on a target, not both: drop data and model"})
		return
	}
	run, err := a.admitRun(r, func(owner string) (*engine.Run, error) {
		ex, err := a.exactFor(r, req)
		if err != nil {
			return nil, err
		}
		m, err := gallery.NewEngineMethod(ex, req.Method, req.Chains)
		if err != nil {
			return nil, err
		}
		cfg := engine.RunConfig{Target: ex.Target.Name(), Method: req.Method, Seed: 1, Replay: req.Replay}
		if req.Seed != nil {
			cfg.Seed = *req.Seed
		}
		return a.reg.CreateTarget(cfg, owner, m, ex.Target, req.Controls)
	})
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	c := run.Config()
	w.Header().Set("Location", "/api/runs/"+run.ID())
	writeJSON(w, a.log, http.StatusCreated, wire.RunCreated{ID: run.ID(), Stream: "/api/runs/" + run.ID() + "/stream",
		Method: c.Method, Seed: c.Seed, Controls: c.Controls, Traces: run.TraceNames()})
}

// exactFor returns the exact answer of the request's target: a built-in
// one by name, or a typed density, whose parse error names the target
// field with the error's line and column first.
func (a *API) exactFor(r *http.Request, req wire.CreateRun) (*gallery.Exact, error) {
	if _, ok := target.Lookup(req.Target); ok {
		return a.gallery.Exact(r.Context(), req.Target, req.TargetControls)
	}
	if len(req.TargetControls) > 0 {
		return nil, &sim.FieldError{Field: "target_controls", Message: "a typed density has no controls: its text says everything"}
	}
	if !strings.ContainsAny(req.Target, " ~;{}()\n") {
		var names []string
		for _, s := range target.Specs() {
			names = append(names, s.Name)
		}
		slices.Sort(names)
		return nil, &sim.FieldError{Field: "target", Message: fmt.Sprintf("%q is not one of %v, nor a density in Stan's notation", req.Target, names)}
	}
	d, err := stan.Parse(req.Target)
	if se, ok := errors.AsType[*stan.Error](err); ok {
		return nil, &sim.FieldError{Field: "target", Message: se.Error()}
	}
	if err != nil {
		return nil, &sim.FieldError{Field: "target", Message: err.Error()}
	}
	sum := sha256.Sum256([]byte(req.Target))
	return a.gallery.ExactFor(r.Context(), hex.EncodeToString(sum[:]), d)
}
