package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The cookieless flood, replayed against the defaults behind a trusted
// proxy: one address sending 60 uploads and 200 creates without a cookie
// (each request a new session) holds at most its address's share — 60 of
// the 64 runs, 28 of the 32 uploads — every refusal a 429 with
// Retry-After, and a browser on another address still gets both.
func TestCookielessFloodLeavesOthersTheirShare(t *testing.T) {
	cfg := DefaultConfig()
	cfg.TrustedProxies = []string{"127.0.0.1/32", "::1/128"}
	s := newServer(t, cfg)
	defer s.Close()
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{}} // no cookie jar: every request a new session
	defer client.CloseIdleConnections()
	send := func(path, ct, body, addr string) (int, http.Header, string) {
		req, _ := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("X-Forwarded-For", addr)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, string(b)
	}
	flood := func(path, ct, body string, n int) (created int) {
		for range n {
			code, h, b := send(path, ct, body, "203.0.113.66")
			switch {
			case code == http.StatusCreated:
				created++
			case code != http.StatusTooManyRequests || h.Get("Retry-After") == "":
				t.Fatalf("flood %s: %d %s, Retry-After %q", path, code, b, h.Get("Retry-After"))
			}
		}
		return created
	}
	csv := "x,y\n1,2\n2,3\n3,5\n"
	uploads := flood("/api/data", "text/csv", csv, 60)
	runs := flood("/api/runs", "application/json", `{"data":"d","method":"count"}`, 200)
	t.Logf("the flood: %d runs of %d created, %d uploads of %d", runs, s.reg.Config().MaxRuns, uploads, 32)
	if runs > 60 || s.reg.Len() > 60 || uploads > 28 {
		t.Fatalf("one address holds %d runs and %d uploads: more than its share (60, 28)", s.reg.Len(), uploads)
	}
	if code, _, b := send("/api/runs", "application/json", `{"data":"d","method":"count"}`, "198.51.100.7"); code != http.StatusCreated {
		t.Fatalf("another address's run after the flood: %d %s", code, b)
	}
	code, _, b := send("/api/data", "text/csv", csv, "198.51.100.7")
	var up struct{ Data string }
	if json.Unmarshal([]byte(b), &up); code != http.StatusCreated || up.Data == "" {
		t.Fatalf("another address's upload after the flood: %d %s", code, b)
	}
}
