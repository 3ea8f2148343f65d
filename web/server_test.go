package web

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/goleak"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
)

// TestMain gives the tests' default HTTP client and websocket dialer one
// cookie jar: they are one browser session, so a run a test creates with
// one it may command with the other (handlers/session.go). Tests of several
// sessions make their own jars (newSession).
func TestMain(m *testing.M) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		panic(err)
	}
	http.DefaultClient.Jar, websocket.DefaultDialer.Jar = jar, jar
	goleak.VerifyTestMain(m)
}

// newSession returns an HTTP client and a websocket dialer of a new browser
// session: they share a cookie jar of their own.
func newSession(t testing.TB) (*http.Client, *websocket.Dialer) {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Transport: &http.Transport{}, Timeout: 10 * time.Second, Jar: jar},
		&websocket.Dialer{Jar: jar, HandshakeTimeout: 30 * time.Second}
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// countFake counts steps; its objective is minus the step count.
type countFake struct{ n float64 }

func countSpec() sim.MethodSpec {
	return sim.MethodSpec{Name: "count", Family: sim.FamilyVI,
		Controls: []sim.ControlSpec{{Name: "lr", Min: 0, Max: 1, Default: sim.Num(0.5), Live: true}}}
}
func (f *countFake) Spec() sim.MethodSpec                              { return countSpec() }
func (f *countFake) Init(*sim.Dataset, sim.Controls, *rand.Rand) error { f.n = 0; return nil }
func (f *countFake) Step() sim.StepStats                               { f.n++; return sim.StepStats{Objective: -f.n} }
func (f *countFake) Set(string, sim.Value) error                       { return nil }
func (f *countFake) Trace() []float64                                  { return nil }
func (f *countFake) Predict(xs []float64, n int) sim.Predictive        { return sim.Predictive{X: xs} }

func countFactory(cfg engine.RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error) {
	if cfg.Method != "count" {
		return nil, nil, nil, &sim.FieldError{Field: "method", Message: "unknown"}
	}
	c, err := countSpec().Resolve(cfg.Controls)
	d := &sim.Dataset{X: []float64{0}, Y: []float64{0}, Grid: []float64{0, 1}, XScale: sim.Identity, YScale: sim.Identity}
	return &countFake{}, d, c, err
}

func newServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	cfg.Factory = countFactory
	cfg.Specs = func() ([]sim.MethodSpec, error) { return []sim.MethodSpec{countSpec()}, nil }
	s, err := New(cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func createRun(t *testing.T, base string) string {
	t.Helper()
	res, err := http.Post(base+"/api/runs", "application/json", strings.NewReader(`{"data":"d","method":"count"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct{ ID string }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != 201 {
		t.Fatalf("create: %d %v", res.StatusCode, err)
	}
	return out.ID
}

func TestServerRoutes(t *testing.T) {
	s := newServer(t, Config{})
	defer s.Close()
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	defer http.DefaultClient.CloseIdleConnections()
	if res, body := get(t, ts.URL+"/healthz"); res.StatusCode != 200 || body != "ok\n" {
		t.Fatalf("healthz: %d %q", res.StatusCode, body)
	}
	if res, _ := get(t, ts.URL+"/static/app/app.css"); res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/css") {
		t.Fatalf("static: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if res, _ := get(t, ts.URL+"/static/app/"); res.StatusCode != 404 {
		t.Fatalf("directory listing: %d", res.StatusCode)
	}
	if res, body := get(t, ts.URL+"/api/methods"); res.StatusCode != 200 || !strings.Contains(body, `"name":"count"`) {
		t.Fatalf("methods: %d %s", res.StatusCode, body)
	}
	if res, body := get(t, ts.URL+"/api/runs/nope"); res.StatusCode != 404 || !strings.Contains(body, `"field":"id"`) {
		t.Fatalf("unknown run: %d %s", res.StatusCode, body)
	}
	if res, _ := get(t, ts.URL+"/"); res.StatusCode >= 500 {
		t.Fatalf("home page: %d", res.StatusCode)
	}
	// The stream passes the whole middleware chain (Hijacker intact).
	id := createRun(t, ts.URL)
	ws := "ws" + strings.TrimPrefix(ts.URL, "http") + "/api/runs/" + id + "/stream"
	c, _, err := websocket.DefaultDialer.Dial(ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Type, Status string }
	for f.Status == "" || f.Status == "preparing" { // the run prepares after the create returned
		if err := c.ReadJSON(&f); err != nil || f.Type != "frame" {
			t.Fatalf("frame %+v %v", f, err)
		}
	}
	if f.Status != "paused" {
		t.Fatalf("after preparing: %+v", f)
	}
	c.Close()
	_, res, err := websocket.DefaultDialer.Dial(ws, http.Header{"Origin": {"http://elsewhere.example"}})
	if err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-origin stream: %v %v", err, res)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	if _, err := New(Config{AllowedOrigins: []string{"*"}}, quiet); err == nil {
		t.Fatal("origin * accepted")
	}
	if _, err := New(Config{TrustedProxies: []string{"10.0.0.1"}}, quiet); err == nil {
		t.Fatal("a proxy address without a prefix length accepted")
	}
}

// Cancelling Serve's context closes open streams with a close frame
// ("going away"), stops the runs and returns; no goroutine is left
// (TestMain checks).
func TestServerGracefulShutdown(t *testing.T) {
	s := newServer(t, Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ctx, ln) }()
	base := "http://" + ln.Addr().String()
	id := createRun(t, base)
	http.DefaultClient.CloseIdleConnections()
	c, _, err := websocket.DefaultDialer.Dial("ws://"+ln.Addr().String()+"/api/runs/"+id+"/stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.WriteMessage(websocket.TextMessage, []byte(`{"op":"play"}`))
	var f struct{ Step int64 }
	for f.Step < 1000 {
		if err := c.ReadJSON(&f); err != nil {
			t.Fatal(err)
		}
	}
	run, err := s.Registry().Get(id)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	for {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, _, err := c.ReadMessage(); err != nil {
			if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
				t.Fatalf("want a going-away close frame, got %v", err)
			}
			break
		}
	}
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
	select {
	case <-run.Done():
	default:
		t.Fatal("the run still steps after shutdown")
	}
	if c, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		c.Close()
		t.Fatal("still listening")
	}
}

// DefaultConfig writes out what New applies to a zero Config: both build
// the same registries. The run registry leaves Run's zero values to NewRun,
// which applies engine.DefaultRunOptions; web only sets the batch time.
func TestDefaultConfigMatchesZeroConfig(t *testing.T) {
	zs, ds := newServer(t, Config{}), newServer(t, DefaultConfig())
	defer zs.Close()
	defer ds.Close()
	zero, def := zs.Registry().Config(), ds.Registry().Config()
	// Each registry counts its own stepping runs: a counter of its own,
	// not a setting to compare.
	if zero.Run.Stepping == nil || def.Run.Stepping == nil || zero.Run.Stepping == def.Run.Stepping {
		t.Fatal("each registry should have a stepping count of its own")
	}
	zero.Run.Stepping, def.Run.Stepping = nil, nil
	if want := (engine.RunOptions{MaxSteps: zero.MaxSteps, Log: quiet, BatchTime: serverBatchTime}); zero.Run != want {
		t.Fatalf("zero Config's run options %+v, want %+v", zero.Run, want)
	}
	want := zero
	want.Run = engine.DefaultRunOptions()
	want.Run.MaxSteps, want.Run.Log, want.Run.BatchTime = zero.MaxSteps, quiet, serverBatchTime
	if def != want {
		t.Fatalf("DefaultConfig's registry %+v, zero Config's %+v", def, want)
	}
	if zsw, dsw := zs.sweeps.Config(), ds.sweeps.Config(); zsw.MaxSweeps != dsw.MaxSweeps ||
		zsw.MaxPerClient != dsw.MaxPerClient || zsw.Workers != dsw.Workers || zsw.KeepFor != dsw.KeepFor ||
		zsw.MaxKept != dsw.MaxKept || zsw.Limits != dsw.Limits || zsw.Log != quiet || dsw.Log != quiet {
		t.Fatalf("DefaultConfig's sweeps %+v, zero Config's %+v", dsw, zsw)
	}
}
