package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/handlers"
)

// The caps per client address count the address --trust-proxy makes the
// server believe: a trusted proxy's X-Forwarded-For, and nobody else's.
func TestClientCapsFollowTrustProxy(t *testing.T) {
	ts := &http.Transport{}
	defer ts.CloseIdleConnections()
	post := func(t *testing.T, base, forwarded string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", base+"/api/runs", strings.NewReader(`{"data":"d","method":"count"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", forwarded)
		res, err := (&http.Client{Transport: ts}).Do(req) // no cookie jar: a new session each time
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for _, trusted := range []bool{true, false} {
		cfg := Config{Clients: handlers.ClientLimits{Runs: 2}}
		if trusted {
			cfg.TrustedProxies = []string{"127.0.0.1/32", "::1/128"}
		}
		s := newServer(t, cfg)
		srv := httptest.NewServer(s.Handler())
		for i := range 2 {
			if code, body := post(t, srv.URL, "203.0.113.1"); code != http.StatusCreated {
				t.Fatalf("trusted %v: run %d: %d %s", trusted, i, code, body)
			}
		}
		if code, body := post(t, srv.URL, "203.0.113.1"); code != http.StatusTooManyRequests || !strings.Contains(body, `"field":"runs"`) {
			t.Fatalf("trusted %v: a third run from one address: %d %s", trusted, code, body)
		}
		code, body := post(t, srv.URL, "203.0.113.2")
		if want := map[bool]int{true: http.StatusCreated, false: http.StatusTooManyRequests}[trusted]; code != want {
			t.Errorf("trusted %v: another forwarded address: %d %s, want %d", trusted, code, body, want)
		}
		srv.Close()
		s.Close()
	}
}

// The probes, metrics and static files start no session: a balancer's
// checks do not spend the sessions its address may start. A page does.
func TestProbesStartNoSession(t *testing.T) {
	s := newServer(t, Config{})
	defer s.Close()
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{}} // no jar
	defer client.CloseIdleConnections()
	for path, want := range map[string]bool{"/healthz": false, "/readyz": false, "/metrics": false, "/static/app/app.css": false, "/api/runs": true} {
		res, err := client.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if got := res.Header.Get("Set-Cookie") != ""; res.StatusCode != http.StatusOK || got != want {
			t.Errorf("GET %s: %d, sets a session cookie %v, want %v", path, res.StatusCode, got, want)
		}
	}
}
