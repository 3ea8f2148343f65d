package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/sweeps"
)

// Admission of runs, sweeps and streams against the caps per client
// address (clients.go), and 429s that say what holds the slots and when
// they free.

// createRunFor is the registry's Create behind the session's and the
// address's caps (admitRun).
func (a *API) createRunFor(r *http.Request, cfg engine.RunConfig) (*engine.Run, error) {
	return a.admitRun(r, func(owner string) (*engine.Run, error) { return a.reg.Create(cfg, owner) })
}

// admitRun calls create, which builds a run owned by owner, behind the
// session's and the address's caps: a request without a session (its
// address starts too many) and an address holding its runs are refused
// before create does any work — for a run on a target, before its exact
// answer is computed.
func (a *API) admitRun(r *http.Request, create func(owner string) (*engine.Run, error)) (*engine.Run, error) {
	if err, ok := r.Context().Value(noSessionKey{}).(*capError); ok && SessionOf(r) == "" {
		return nil, err
	}
	addr := clientAddr(r)
	held, ok := a.runsBy.reserve(addr, a.limits.Runs, a.runLive)
	if !ok {
		return nil, a.runsHeldError(held, fmt.Sprintf("your network address (%s) holds %d runs, the most one address may (every browser behind it counts)", addr, len(held)))
	}
	run, err := create(a.clientKey(r))
	id := ""
	if err == nil {
		id = run.ID()
	}
	a.runsBy.done(addr, id)
	if le, ok := errors.AsType[*engine.LimitError](err); ok {
		return nil, a.runLimitError(r, le)
	}
	return run, err
}

func (a *API) runLive(id string) bool {
	_, err := a.reg.Get(id)
	return err == nil
}

// runLimitError restates a registry's cap with what holds it: the whole
// server's runs, or the session's.
func (a *API) runLimitError(r *http.Request, le *engine.LimitError) error {
	cfg := a.reg.Config()
	if a.reg.Len() >= cfg.MaxRuns {
		var held []string
		for id := range a.runsBy.all() {
			if a.runLive(id) {
				held = append(held, id)
			}
		}
		return a.runsHeldError(held, fmt.Sprintf("the server is running its maximum of %d runs", cfg.MaxRuns))
	}
	var held []string
	for _, run := range a.reg.RunsOf(a.clientKey(r)) {
		held = append(held, run.ID())
	}
	err := a.runsHeldError(held, "")
	err.message = le.Message + "; " + err.message
	return err
}

// runsHeldError is a 429 naming runs: what happened, then which of the
// held runs are watched (kept while anyone watches) and which free by
// themselves, and when.
func (a *API) runsHeldError(held []string, what string) *capError {
	expire := a.reg.Config().ExpireAfter
	watched := 0
	for _, id := range held {
		if run, err := a.reg.Get(id); err == nil && run.Viewers() > 0 {
			watched++
		}
	}
	var why string
	switch unwatched := len(held) - watched; {
	case watched == 0:
		why = fmt.Sprintf("none of them is being watched, so each is freed %s after it was last watched (or made): a slot frees within %[1]s", humanDuration(expire))
	case unwatched > 0:
		why = fmt.Sprintf("%d of them are watched (a run is kept while anyone watches it) and %d are not: each of those is freed %s after its last viewer left, so a slot frees within %[3]s", watched, unwatched, humanDuration(expire))
	default:
		why = fmt.Sprintf("all %d are being watched, and a watched run is kept: none frees by itself until its viewers leave, then within %s; close a panel or a tab, or free one under \u201cYour runs\u201d", watched, humanDuration(expire))
	}
	msg := why
	if what != "" {
		msg = what + ": " + why
	}
	return &capError{field: "runs", message: msg, retry: expire}
}

// humanDuration says d as a person would: "a minute", "90 seconds".
func humanDuration(d time.Duration) string {
	switch s := int(d.Round(time.Second) / time.Second); {
	case s == 3600:
		return "an hour"
	case s == 60:
		return "a minute"
	case s%60 == 0:
		return fmt.Sprintf("%d minutes", s/60)
	case s == 1:
		return "a second"
	default:
		return fmt.Sprintf("%d seconds", s)
	}
}

// createSweepFor is the sweep registry's Create behind the session's and
// the address's caps.
func (a *API) createSweepFor(r *http.Request, req sweeps.Request) (*sweeps.Sweep, error) {
	if err, ok := r.Context().Value(noSessionKey{}).(*capError); ok && SessionOf(r) == "" {
		return nil, err
	}
	addr := clientAddr(r)
	live := func(id string) bool {
		s, err := a.sweeps.Get(id)
		return err == nil && s.Info().Status == sweeps.Running
	}
	if held, ok := a.sweepsBy.reserve(addr, a.limits.Sweeps, live); !ok {
		return nil, &capError{field: "sweeps", retry: 30 * time.Second, message: fmt.Sprintf(
			"your network address (%s) is running %d sweep(s) %v, the most one address may at once: a slot frees when one finishes or is cancelled", addr, max(len(held), a.limits.Sweeps), held)}
	}
	s, err := a.sweeps.Create(req, a.clientKey(r))
	id := ""
	if err == nil {
		id = s.ID()
	}
	a.sweepsBy.done(addr, id)
	return s, err
}

// enterStream takes one of the address's stream slots, or answers 429 and
// returns false; leave gives it back.
func (a *API) enterStream(w http.ResponseWriter, r *http.Request) (leave func(), ok bool) {
	addr := clientAddr(r)
	if held, ok := a.streams.acquire(addr, a.limits.Streams, 0); !ok {
		writeErr(w, r, a.log, &capError{field: "streams", retry: 5 * time.Second, message: fmt.Sprintf(
			"your network address (%s) has %d streams open, the most one address may (every tab's panels behind it count): a slot frees when a panel or tab closes", addr, held)})
		return nil, false
	}
	return func() { a.streams.release(addr) }, true
}
