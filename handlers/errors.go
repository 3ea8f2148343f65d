package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

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

// writeError writes {"field","message"} with status, the client's own
// input in them bounded (boundEcho).
func writeError(w http.ResponseWriter, log *slog.Logger, status int, field, message string) {
	writeJSON(w, log, status, wire.APIError{Field: cut(field, maxEcho), Message: boundEcho(message)})
}

// An error quotes the client's input back so that it can be found, not
// whole: a 1 MB CSV cell or control value is not sent back in its 400.
const (
	maxEcho    = 80   // characters of one quoted value
	maxMessage = 1024 // characters of a whole message
)

// boundEcho shortens every Go-quoted string in s (how messages quote
// input: %q) longer than maxEcho characters to its first maxEcho and an
// ellipsis, and s to maxMessage characters.
func boundEcho(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '"' {
			b.WriteByte(s[i])
			i++
			continue
		}
		q, err := strconv.QuotedPrefix(s[i:])
		if err != nil {
			b.WriteByte(s[i])
			i++
			continue
		}
		i += len(q)
		if v, err := strconv.Unquote(q); err == nil && len(v) > maxEcho && cut(v, maxEcho) != v {
			q = strconv.Quote(cut(v, maxEcho))
			q = q[:len(q)-1] + fmt.Sprintf(` (%d bytes)"`, len(v))
		}
		b.WriteString(q)
	}
	return cut(b.String(), maxMessage)
}

// cut shortens s to n characters, the last an ellipsis, when it is longer.
func cut(s string, n int) string {
	end, k := 0, 0
	for i := range s { // i: the start of the k-th character
		if k == n-1 {
			end = i
		}
		if k == n {
			return s[:end] + "…"
		}
		k++
	}
	return s
}

// writeErr maps an error to its status: a *sim.FieldError is 400, a run
// dearer than the server allows a run 422, a cap (the budget of all runs
// among them) 429, an unknown run 404, shutting down or a busy run 503,
// anything else 500 (logged, and not shown: it may hold internals).
func writeErr(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	var fe *sim.FieldError
	var le *engine.LimitError
	var ce *capError
	var cost *engine.CostError
	switch {
	case errors.As(err, &ce):
		w.Header().Set("Retry-After", retryAfter(ce.retry))
		writeError(w, log, http.StatusTooManyRequests, ce.field, ce.message)
	case errors.As(err, &cost) && cost.Total:
		w.Header().Set("Retry-After", "60")
		writeError(w, log, http.StatusTooManyRequests, cost.Field, cost.Message)
	case errors.As(err, &cost):
		writeError(w, log, http.StatusUnprocessableEntity, cost.Field, cost.Message)
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
