package handlers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
)

// A browser session is a random id in an HttpOnly, SameSite=Lax cookie. Runs,
// uploads and sweeps belong to the session that made them: the run caps
// count per session (so a class behind one address is not one client), and
// only the owning session may command or delete a run. Anyone who knows a
// run's id may watch it read-only — the lecturer's "share live" link.
const sessionCookie = "pg_session"

// sessionIDLen is the length of a session id: 128 random bits in hex.
const sessionIDLen = 32

type sessionKey struct{}

// ErrNotYours is a command or delete for a run of another session.
var ErrNotYours = errors.New("this run belongs to another browser session: you can watch it, not change it (fork it to experiment with your own copy)")

// Sessions gives every request a session: the cookie's, or a new one set on
// the response. It is cheap (no state on the server: the id is only a key),
// so it runs for pages and API alike.
func Sessions(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if SessionOf(r) != "" { // already given, further out
			next.ServeHTTP(w, r)
			return
		}
		id := ""
		if c, err := r.Cookie(sessionCookie); err == nil && validSessionID(c.Value) {
			id = c.Value
		}
		if id == "" {
			var b [sessionIDLen / 2]byte
			rand.Read(b[:]) // never fails (crypto/rand's documentation)
			id = hex.EncodeToString(b[:])
			http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: id, Path: "/", HttpOnly: true,
				SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), sessionKey{}, id)))
	})
}

// SessionOf is the request's session id, or "" outside Sessions.
func SessionOf(r *http.Request) string {
	id, _ := r.Context().Value(sessionKey{}).(string)
	return id
}

func validSessionID(s string) bool {
	if len(s) != sessionIDLen {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
