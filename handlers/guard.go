package handlers

import (
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
)

// Cross-site writes. A page on another site can make a visitor's browser
// send a POST with one of the "simple" content types (text/plain and the
// two form encodings) and no CORS preflight; any other type, and DELETE or
// PUT at all, needs a preflight, which this server never answers. So every
// write must declare its body's type (JSON, or text/csv for an upload), and
// when the browser names the page that sent it, that origin must be one
// checkOrigin allows: the same rule as for opening a stream.

// bodyTypes maps a write route's path below /api to its body's media type
// when that is not application/json.
var bodyTypes = map[string]string{"/data": "text/csv"}

// guardWrites refuses a state-changing request from a disallowed Origin
// (403, field "origin") or with an undeclared body type (415, field
// "content-type"). A DELETE without a body needs no type: browsers cannot
// send it cross-site without a preflight.
func (a *API) guardWrites(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost && r.Method != http.MethodDelete {
			next.ServeHTTP(w, r) // reads, and methods no route takes: the router's 405 says which are allowed
			return
		}
		if !a.checkOrigin(r) {
			writeError(w, a.log, http.StatusForbidden, "origin",
				fmt.Sprintf("requests from %s may not change anything here (allowed: the page's own origin and --allow-origin)", r.Header.Get("Origin")))
			return
		}
		if r.Method == http.MethodDelete && r.ContentLength == 0 {
			next.ServeHTTP(w, r)
			return
		}
		want := bodyTypes[routePath(r)]
		if want == "" {
			want = "application/json"
		}
		ct := r.Header.Get("Content-Type")
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != want {
			writeError(w, a.log, http.StatusUnsupportedMediaType, "content-type",
				fmt.Sprintf("want Content-Type: %s, got %q", want, ct))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// allowedMethods lists the methods routes answers path with, for a 405's
// Allow header; HEAD goes with GET (the server answers HEAD as GET).
func allowedMethods(routes chi.Routes, path string) string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := m
		if m == http.MethodHead {
			probe = http.MethodGet
		}
		if routes.Match(chi.NewRouteContext(), probe, path) {
			allow = append(allow, m)
		}
	}
	return strings.Join(allow, ", ")
}

// routePath is the request's path below the router's mount point.
func routePath(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePath != "" {
		return rc.RoutePath
	}
	return r.URL.Path
}
