package handlers

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/gorilla/websocket"

	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/sweeps"
	"github.com/posterior-playground/playground/sim/wire"
)

// addrEnv is newEnv behind middleware that takes the client's address from
// X-Test-Addr, as the server does from a trusted proxy's X-Forwarded-For:
// one loopback test stands for clients on several addresses.
func addrEnv(t *testing.T, o envOptions) *env {
	t.Helper()
	e := newEnv(t, o)
	e.srv.Close()
	r := chi.NewRouter()
	r.Use(middleware.ClientIPFromHeader("X-Test-Addr"))
	r.Route("/api", e.api.Routes)
	srv := httptest.NewUnstartedServer(r)
	srv.Config.ConnState = o.connState
	srv.Start()
	e.srv = srv
	return e
}

// cookieless sends a request as a client that keeps no cookie, from addr.
func cookieless(t *testing.T, e *env, addr, method, path, body string) (int, http.Header, wire.APIError) {
	t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if strings.HasSuffix(path, "/data") {
		req.Header.Set("Content-Type", "text/csv")
	}
	req.Header.Set("X-Test-Addr", addr)
	res, err := (&http.Client{Transport: e.client.Transport}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var ae wire.APIError
	if res.StatusCode >= 400 {
		if err := json.Unmarshal(b, &ae); err != nil {
			t.Fatalf("%s %s: %d %q is not a JSON error", method, path, res.StatusCode, b)
		}
	}
	return res.StatusCode, res.Header, ae
}

// A cookieless flood from one address — every request a new session —
// holds at most that address's share: its runs stop at the per-address cap
// (or at its sessions' caps, the sessions it may start being capped too),
// each refusal a 429 with Retry-After that says what holds the slots, and
// a client on another address still gets runs. A deleted run's slot is
// free at once.
func TestCookielessFloodHoldsItsShare(t *testing.T) {
	checkLeaks(t)
	const perAddr, burst, perSession = 5, 8, 2
	e := addrEnv(t, envOptions{
		registry: engine.RegistryConfig{MaxRuns: 12, MaxRunsPerClient: perSession},
		api:      APIConfig{Clients: ClientLimits{Runs: perAddr, SessionBurst: burst, SessionRate: 1e-9}},
	})
	created := 0
	for range 40 {
		code, h, ae := cookieless(t, e, "192.0.2.7", "POST", "/api/runs", `{"data":"d","method":"fake"}`)
		switch code {
		case http.StatusCreated:
			created++
		case http.StatusTooManyRequests:
			if h.Get("Retry-After") == "" || (ae.Field != "runs" && ae.Field != "session") {
				t.Fatalf("a refusal: %d %+v, Retry-After %q", code, ae, h.Get("Retry-After"))
			}
		default:
			t.Fatalf("flood request: %d %+v", code, ae)
		}
	}
	if n := e.reg.Len(); created > perAddr || n > perAddr {
		t.Fatalf("a cookieless flood holds %d runs (%d created), its address's share is %d", n, created, perAddr)
	}
	// Each cookieless request is a new session: burst of them may create,
	// then none. So the flood got min(burst, perAddr) runs.
	if created != min(burst, perAddr) {
		t.Errorf("the flood created %d runs, want min(burst %d, per address %d)", created, burst, perAddr)
	}
	code, h, ae := cookieless(t, e, "192.0.2.7", "POST", "/api/runs", `{"data":"d","method":"fake"}`)
	if code != http.StatusTooManyRequests || ae.Field != "session" || h.Get("Retry-After") == "" || !strings.Contains(ae.Message, "cookie") {
		t.Fatalf("past the sessions it may start: %d %+v", code, ae)
	}
	// Watching needs no session: a list answers, without a cookie set.
	if code, h, _ := cookieless(t, e, "192.0.2.7", "GET", "/api/runs", ""); code != http.StatusOK || h.Get("Set-Cookie") != "" {
		t.Fatalf("a listing past the session rate: %d, Set-Cookie %q", code, h.Get("Set-Cookie"))
	}
	// Another address is untouched.
	for range 3 {
		if code, _, ae := cookieless(t, e, "198.51.100.9", "POST", "/api/runs", `{"data":"d","method":"fake"}`); code != http.StatusCreated {
			t.Fatalf("another address: %d %+v", code, ae)
		}
	}
}

// The per-address run cap counts runs over the address's sessions, frees
// a slot the moment a run is deleted, and its 429 says how many of the
// held runs are watched (kept) and when the others free.
func TestRunsPerAddressTruthfulRefusal(t *testing.T) {
	checkLeaks(t)
	e := addrEnv(t, envOptions{api: APIConfig{Clients: ClientLimits{Runs: 3}}})
	var ids []string
	for i := range 3 {
		s := asSession(t, e) // three browsers behind one address
		var out wire.RunCreated
		code, _ := s.doAddr("POST", "/api/runs", `{"data":"d","method":"fake"}`, "203.0.113.5", &out)
		if code != http.StatusCreated {
			t.Fatalf("run %d: %d", i, code)
		}
		ids = append(ids, out.ID)
	}
	s := asSession(t, e)
	var ae wire.APIError
	code, h := s.doAddr("POST", "/api/runs", `{"data":"d","method":"fake"}`, "203.0.113.5", &ae)
	if code != http.StatusTooManyRequests || ae.Field != "runs" || h.Get("Retry-After") != "60" ||
		!strings.Contains(ae.Message, "holds 3 runs") || !strings.Contains(ae.Message, "none of them is being watched") || !strings.Contains(ae.Message, "a minute") {
		t.Fatalf("the fourth run of an address: %d %+v Retry-After %q", code, ae, h.Get("Retry-After"))
	}
	// Watched runs are kept: the refusal says none frees by itself.
	for _, id := range ids {
		c, _, err := (&websocket.Dialer{}).Dial(e.wsURL(id), http.Header{"X-Test-Addr": {"192.0.2.99"}})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	for run, _ := e.reg.Get(ids[2]); run.Viewers() == 0; run, _ = e.reg.Get(ids[2]) {
		time.Sleep(time.Millisecond) // the dial returns before the server counts the viewer
	}
	code, _ = s.doAddr("POST", "/api/runs", `{"data":"d","method":"fake"}`, "203.0.113.5", &ae)
	if code != http.StatusTooManyRequests || !strings.Contains(ae.Message, "all 3 are being watched") {
		t.Fatalf("with every run watched: %d %q", code, ae.Message)
	}
	if err := e.reg.Delete(ids[0]); err != nil {
		t.Fatal(err)
	}
	if code, _ := s.doAddr("POST", "/api/runs", `{"data":"d","method":"fake"}`, "203.0.113.5", nil); code != http.StatusCreated {
		t.Fatalf("after a delete: %d, want the freed slot", code)
	}
}

// Streams are capped per address: past the cap a dial is a 429 naming
// streams, and a closed stream's slot is free again.
func TestStreamsPerAddress(t *testing.T) {
	checkLeaks(t)
	e := addrEnv(t, envOptions{api: APIConfig{Clients: ClientLimits{Streams: 2}}})
	id := e.create()
	h := http.Header{"X-Test-Addr": {"192.0.2.1"}}
	a := dial(t, e, id, h)
	dial(t, e, id, h)
	_, res, err := e.dialer().Dial(e.wsURL(id), h)
	if err == nil || res == nil || res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a third stream of the address: %v %v", err, res)
	}
	if _, _, err := e.dialer().Dial(e.wsURL(id), http.Header{"X-Test-Addr": {"192.0.2.2"}}); err != nil {
		t.Fatalf("another address: %v", err)
	}
	a.Close()
	deadline := time.Now().Add(10 * time.Second) // a hang guard, not a measurement
	for {
		c, _, err := e.dialer().Dial(e.wsURL(id), h)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the closed stream's slot was not freed: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// doAddr is do from client address addr.
func (e *env) doAddr(method, path, body, addr string, out any) (int, http.Header) {
	e.t.Helper()
	code, h, b := e.roundTrip(method, path, body, map[string]string{"Content-Type": "application/json", "X-Test-Addr": addr})
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s %s: %d %q: %v", method, path, code, b, err)
		}
	}
	return code, h
}

// Uploads are capped per address over its sessions, and a full store says
// when its least recently used file frees; a request that could not start
// a session may not upload at all.
func TestUploadsPerAddress(t *testing.T) {
	checkLeaks(t)
	e := addrEnv(t, envOptions{factory: NewFactory, api: APIConfig{Specs: catalog.Specs, Clients: ClientLimits{Uploads: 2, SessionBurst: 3, SessionRate: 1e-9}}})
	csv := "x,y\n1,2\n2,3\n3,5\n"
	for i := range 2 {
		if code, _ := asSession(t, e).doCSV(csv, "192.0.2.3", nil); code != http.StatusCreated {
			t.Fatalf("upload %d: %d", i, code)
		}
	}
	var ae wire.APIError
	code, h := asSession(t, e).doCSV(csv, "192.0.2.3", &ae)
	if code != http.StatusTooManyRequests || ae.Field != "data" || !strings.Contains(ae.Message, "holds 2 uploaded files") || h.Get("Retry-After") != "3600" {
		t.Fatalf("a third upload of the address: %d %+v Retry-After %q", code, ae, h.Get("Retry-After"))
	}
	// The store of 4 (newEnv's) fills from other addresses; the refusal
	// says when the next file frees.
	for i := range 2 {
		if code, _ := asSession(t, e).doCSV(csv, "198.51.100.1", nil); code != http.StatusCreated {
			t.Fatalf("upload %d from another address: %d", i, code)
		}
	}
	code, h = asSession(t, e).doCSV(csv, "198.51.100.2", &ae)
	if code != http.StatusTooManyRequests || ae.Field != "data" || !strings.Contains(ae.Message, "maximum of 4") || h.Get("Retry-After") != "3600" {
		t.Fatalf("a full store: %d %+v Retry-After %q", code, ae, h.Get("Retry-After"))
	}
	// The address has started its 3 sessions: a cookieless upload is refused
	// before its body is read.
	if code, _, ae := cookieless(t, e, "192.0.2.3", "POST", "/api/data", csv); code != http.StatusTooManyRequests || ae.Field != "session" {
		t.Fatalf("an upload past the session rate: %d %+v", code, ae)
	}
}

// Sweeps are capped per address over its sessions.
func TestSweepsPerAddress(t *testing.T) {
	checkLeaks(t)
	reg := sweeps.New(sweeps.Config{MaxSweeps: 2, MaxPerClient: 1, Workers: 1, Log: quietLog})
	e := addrEnv(t, envOptions{api: APIConfig{Sweeps: reg}}) // the default: 1 an address
	t.Cleanup(reg.Close)
	if code, _ := asSession(t, e).doAddr("POST", "/api/sweeps", slow, "192.0.2.4", nil); code != http.StatusCreated {
		t.Fatalf("a sweep: %d", code)
	}
	var ae wire.APIError
	code, h := asSession(t, e).doAddr("POST", "/api/sweeps", slow, "192.0.2.4", &ae)
	if code != http.StatusTooManyRequests || ae.Field != "sweeps" || h.Get("Retry-After") == "" || !strings.Contains(ae.Message, "frees when") {
		t.Fatalf("a second sweep of the address: %d %+v", code, ae)
	}
	if code, _ := asSession(t, e).doAddr("POST", "/api/sweeps", slow, "192.0.2.5", &ae); code != http.StatusCreated {
		t.Fatalf("a sweep from another address: %d %+v", code, ae)
	}
}

// doCSV uploads body from client address addr.
func (e *env) doCSV(body, addr string, out any) (int, http.Header) {
	e.t.Helper()
	code, h, b := e.roundTrip("POST", "/api/data", body, map[string]string{"Content-Type": "text/csv", "X-Test-Addr": addr})
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("upload: %d %q: %v", code, b, err)
		}
	}
	return code, h
}

// A run on a target density is admitted as a run on data is: it counts
// against its address's runs, and the refusal comes before the target's
// exact answer is computed (the typed density below is never parsed into
// a grid: the cache stays empty).
func TestTargetRunsCountPerAddress(t *testing.T) {
	checkLeaks(t)
	e := addrEnv(t, envOptions{api: APIConfig{Clients: ClientLimits{Runs: 1}}})
	s := asSession(t, e)
	if code, _ := s.doAddr("POST", "/api/runs", `{"target":"gaussian","method":"metropolis"}`, "203.0.113.7", nil); code != http.StatusCreated {
		t.Fatalf("the address's first run: %d", code)
	}
	before := e.api.gallery.Stats()
	var ae wire.APIError
	body := `{"target":"x ~ normal(0, 1); y ~ normal(x, 2);","method":"nuts"}`
	code, _ := asSession(t, e).doAddr("POST", "/api/runs", body, "203.0.113.7", &ae)
	if code != http.StatusTooManyRequests || ae.Field != "runs" || !strings.Contains(ae.Message, "holds 1 runs") {
		t.Fatalf("a second browser's target run from the same address: %d %+v, want 429 naming runs", code, ae)
	}
	if after := e.api.gallery.Stats(); after != before {
		t.Fatalf("the refused run computed an exact answer: cache %+v → %+v", before, after)
	}
}
