package handlers

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

// writeJSON writes v with status; an encoding failure is logged (the status
// line has gone out by then).
func writeJSON(w http.ResponseWriter, log *slog.Logger, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		log.Error("encoding a response", "err", err)
		b, status = []byte(`{"field":"","message":"internal error"}`), http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// writeError writes {"field","message"} with status.
func writeError(w http.ResponseWriter, log *slog.Logger, status int, field, message string) {
	writeJSON(w, log, status, wire.APIError{Field: field, Message: message})
}

// writeErr maps an error to its status: a *sim.FieldError is 400, a cap is
// 429, an unknown run 404, shutting down or a busy run 503, anything else 500 (logged,
// and not shown: it may hold internals).
func writeErr(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	var fe *sim.FieldError
	var le *engine.LimitError
	switch {
	case errors.As(err, &fe):
		writeError(w, log, http.StatusBadRequest, fe.Field, fe.Message)
	case errors.As(err, &le):
		w.Header().Set("Retry-After", "10")
		writeError(w, log, http.StatusTooManyRequests, "runs", le.Message)
	case errors.Is(err, ErrNotYours):
		writeError(w, log, http.StatusForbidden, "session", err.Error())
	case errors.Is(err, engine.ErrNotFound):
		writeError(w, log, http.StatusNotFound, "id", "no such run (it may have been deleted after being left unwatched)")
	case errors.Is(err, engine.ErrRegistryClosed), errors.Is(err, engine.ErrRunClosed):
		writeError(w, log, http.StatusServiceUnavailable, "", err.Error())
	case errors.Is(err, engine.ErrRunBusy):
		w.Header().Set("Retry-After", "1")
		writeError(w, log, http.StatusServiceUnavailable, "op", err.Error())
	default:
		log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		writeError(w, log, http.StatusInternalServerError, "", "internal error")
	}
}
