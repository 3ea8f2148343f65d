package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/posterior-playground/playground/sim/scenario"
)

// Every response carries the security headers, whatever answers it.
func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	s := newServer(t, Config{FrameAncestors: []string{"https://moodle.uni.example", "https://*.slides.example:8443/"}})
	defer s.Close()
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	wantCSP := "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self' blob:; " +
		"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self' https://moodle.uni.example https://*.slides.example:8443"
	for _, path := range []string{"/", "/play?data=gap&methods=mfvi", "/healthz", "/api/methods", "/api/nope", "/static/app/app.css", "/nope"} {
		res, _ := get(t, srv.URL+path)
		h := res.Header
		if got := h.Get("Content-Security-Policy"); got != wantCSP {
			t.Errorf("%s: CSP %q\nwant %q", path, got, wantCSP)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "same-origin" || h.Get("X-Frame-Options") != "" {
			t.Errorf("%s: %d nosniff %q referrer %q x-frame-options %q", path, res.StatusCode,
				h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"), h.Get("X-Frame-Options"))
		}
	}

	plain := newServer(t, Config{})
	defer plain.Close()
	w := httptest.NewRecorder()
	plain.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if csp := w.Header().Get("Content-Security-Policy"); !strings.HasSuffix(csp, "; frame-ancestors 'self'") || w.Header().Get("X-Frame-Options") != "SAMEORIGIN" {
		t.Errorf("default framing: CSP %q, X-Frame-Options %q", csp, w.Header().Get("X-Frame-Options"))
	}

	for _, bad := range []string{"moodle.example", "https://a.example/path", "https://a.example; script-src *", "ftp://a.example",
		"https://*", "https://a.*.example", "'unsafe-inline'", "https://a.example?x"} {
		if _, err := New(Config{FrameAncestors: []string{bad}}, quiet); err == nil {
			t.Errorf("frame ancestor %q accepted", bad)
		}
	}
}

// The policy allows no inline code, so every page must do without: no
// script element without src, no style element, no style or on* attribute.
// The home page, every scenario (the sweep cards among them) and a plain
// play page are checked.
func TestPagesNeedNoInlineCode(t *testing.T) {
	s := newServer(t, Config{})
	defer s.Close()
	paths := []string{"/", "/play?data=gap&methods=mfvi,gip,hmc,gp-exact"}
	for _, sc := range scenario.All() {
		paths = append(paths, sc.URL())
	}
	sweeps := 0
	for _, path := range paths {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d", path, w.Code)
		}
		if strings.Contains(w.Body.String(), `id="sweep"`) {
			sweeps++
		}
		for _, problem := range inlineCode(t, w.Body) {
			t.Errorf("%s: %s", path, problem)
		}
	}
	if sweeps == 0 {
		t.Fatal("no scenario rendered a sweep card: the check missed the sweep template")
	}
}

// inlineCode lists the elements and attributes of an HTML page that a
// policy without 'unsafe-inline' would block.
func inlineCode(t *testing.T, r io.Reader) (problems []string) {
	t.Helper()
	z := html.NewTokenizer(r)
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				t.Fatal(z.Err())
			}
			return problems
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			hasSrc, jsonData := false, false
			for _, a := range tok.Attr {
				switch {
				case a.Key == "style" || strings.HasPrefix(a.Key, "on"):
					problems = append(problems, "<"+tok.Data+" "+a.Key+"=…>")
				case a.Key == "src":
					hasSrc = true
				case a.Key == "type" && a.Val == "application/json": // data, not run
					jsonData = true
				case a.Key == "href" && strings.HasPrefix(strings.TrimSpace(strings.ToLower(a.Val)), "javascript:"):
					problems = append(problems, "a javascript: link")
				}
			}
			if tok.Data == "style" || (tok.Data == "script" && !hasSrc && !jsonData) {
				problems = append(problems, "an inline <"+tok.Data+"> element")
			}
		}
	}
}
