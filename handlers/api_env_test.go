package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/gorilla/websocket"
	"go.uber.org/goleak"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/wire"
)

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// streamFake relaxes x towards prior_scale k: objective −(x − k)² − log k,
// which is at most −log k, so a change of k shows in the objective.
type streamFake struct{ k, x float64 }

func streamFakeSpec() sim.MethodSpec {
	return sim.MethodSpec{
		Name: "fake", Label: "Fake", Family: sim.FamilyVI,
		Controls: []sim.ControlSpec{
			{Name: "prior_scale", Label: "Prior scale", Min: 0.1, Max: 10, Step: 0.1, Default: sim.Num(1), Live: true},
			{Name: "width", Label: "Width", Min: 1, Max: 100, Step: 1, Default: sim.Num(10), Integer: true},
		},
		Traces: []string{"x"},
	}
}

func (f *streamFake) Spec() sim.MethodSpec { return streamFakeSpec() }
func (f *streamFake) Init(_ *sim.Dataset, c sim.Controls, _ *rand.Rand) error {
	f.k, f.x = c["prior_scale"].Num, 0
	return nil
}
func (f *streamFake) Step() sim.StepStats {
	f.x += 0.1 * (f.k - f.x)
	return sim.StepStats{Objective: -(f.x-f.k)*(f.x-f.k) - math.Log(f.k)}
}
func (f *streamFake) Set(name string, v sim.Value) error {
	if name == "prior_scale" {
		f.k = v.Num
	}
	return nil
}
func (f *streamFake) Predict(xs []float64, n int) sim.Predictive {
	p := sim.Predictive{X: xs, Samples: make([][]float64, n)}
	for s := range p.Samples {
		p.Samples[s] = make([]float64, len(xs))
		for i, x := range xs {
			p.Samples[s][i] = f.x * x
		}
	}
	return p
}
func (f *streamFake) Trace() []float64 { return []float64{f.x} }

func streamFakeFactory(cfg engine.RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error) {
	if cfg.Method != "fake" {
		return nil, nil, nil, &sim.FieldError{Field: "method", Message: "unknown method"}
	}
	if cfg.Data != "d" {
		return nil, nil, nil, &sim.FieldError{Field: "data", Message: "unknown data set"}
	}
	c, err := streamFakeSpec().Resolve(cfg.Controls)
	if err != nil {
		return nil, nil, nil, err
	}
	d := &sim.Dataset{Name: "d", Task: sim.Regression, X: []float64{0, 1}, Y: []float64{0, 1},
		Grid: []float64{-1, 0, 1}, XScale: sim.Identity, YScale: sim.Identity}
	return &streamFake{}, d, c, nil
}

// env is an API on an httptest server.
type env struct {
	t      *testing.T
	srv    *httptest.Server
	reg    *engine.Registry
	api    *API
	client *http.Client
}

type envOptions struct {
	registry engine.RegistryConfig
	api      APIConfig
	factory  func(*Uploads) engine.Factory // default: the fake
	// connState is the test server's http.Server.ConnState hook.
	connState func(net.Conn, http.ConnState)
}

func newEnv(t *testing.T, o envOptions) *env {
	t.Helper()
	if o.registry.Run.FrameRate == 0 {
		o.registry.Run.FrameRate = 100
	}
	uploads := NewUploads(4)
	factory := streamFakeFactory
	if o.factory != nil {
		factory = o.factory(uploads)
	}
	reg := engine.NewRegistry(o.registry, factory, quietLog)
	cfg := o.api
	cfg.Registry, cfg.Uploads, cfg.Log = reg, uploads, quietLog
	if cfg.Specs == nil {
		cfg.Specs = func() ([]sim.MethodSpec, error) { return []sim.MethodSpec{streamFakeSpec()}, nil }
	}
	api, err := NewAPI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := chi.NewRouter()
	r.Route("/api", api.Routes)
	srv := httptest.NewUnstartedServer(r)
	srv.Config.ConnState = o.connState
	srv.Start()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	// The jar keeps the session cookie: the runs this env creates are its
	// own, as a browser's are (session.go).
	e := &env{t: t, srv: srv, reg: reg, api: api, client: &http.Client{Transport: &http.Transport{}, Jar: jar}}
	t.Cleanup(func() {
		api.CloseStreams()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := api.WaitStreams(ctx); err != nil {
			t.Errorf("streams did not end: %v", err)
		}
		e.srv.Close()
		reg.Close()
		e.client.CloseIdleConnections()
	})
	return e
}

// roundTrip sends body with headers (empty values left out) and returns
// the status, the response's headers and its body: every request helper of
// these tests goes through it.
func (e *env) roundTrip(method, path, body string, headers map[string]string) (int, http.Header, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range headers {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b
}

// do sends a request and decodes a JSON answer into out (when not nil).
func (e *env) do(method, path, contentType, body string, out any) (int, http.Header) {
	e.t.Helper()
	code, h, b := e.roundTrip(method, path, body, map[string]string{"Content-Type": contentType})
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s %s: %d %q: %v", method, path, code, b, err)
		}
	}
	return code, h
}

// errorOf sends a request and decodes the JSON error of a 4xx or 5xx.
func (e *env) errorOf(method, path, body string, headers map[string]string) (int, wire.APIError, []byte) {
	e.t.Helper()
	code, _, b := e.roundTrip(method, path, body, headers)
	var ae wire.APIError
	if code >= 400 {
		if err := json.Unmarshal(b, &ae); err != nil {
			e.t.Fatalf("%s %s: %d with a body that is not a JSON error: %q", method, path, code, b)
		}
	}
	return code, ae, b
}

// create makes a fake run and returns its id once the run has left
// preparing: a create answers before the run's goroutine has initialised
// the method, which on a busy machine can be after a viewer's first frame.
func (e *env) create() string {
	e.t.Helper()
	id := e.createPreparing()
	run, err := e.reg.Get(id)
	if err != nil {
		e.t.Fatalf("create: %v", err)
	}
	enginetest.WaitFrame(e.t, run, time.Minute, func(f *engine.Frame) bool { return f.Status != engine.StatusPreparing })
	return id
}

// createPreparing makes a fake run and returns its id as the create
// answers, the run perhaps still preparing.
func (e *env) createPreparing() string {
	e.t.Helper()
	var out struct{ ID string }
	if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"d","method":"fake","seed":3}`, &out); code != http.StatusCreated || out.ID == "" {
		e.t.Fatalf("create: %d %+v", code, out)
	}
	return out.ID
}

// wantError checks an error answer's status and field.
func (e *env) wantError(method, path, body string, status int, field string) wire.APIError {
	e.t.Helper()
	var got wire.APIError
	ct := "application/json"
	if path == "/api/data" { // an upload is CSV (guard.go)
		ct = "text/csv"
	}
	code, h := e.do(method, path, ct, body, &got)
	if code != status || got.Field != field || got.Message == "" {
		e.t.Fatalf("%s %s %s: %d %+v, want %d naming %q", method, path, body, code, got, status, field)
	}
	if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		e.t.Fatalf("content type %q", ct)
	}
	return got
}

// dialer is a websocket dialer in the env's session (its cookie jar).
func (e *env) dialer() *websocket.Dialer {
	return &websocket.Dialer{Jar: e.client.Jar, HandshakeTimeout: 45 * time.Second}
}

func (e *env) wsURL(id string) string {
	return "ws" + strings.TrimPrefix(e.srv.URL, "http") + fmt.Sprintf("/api/runs/%s/stream", id)
}

// checkLeaks fails t if goroutines started during it outlive its cleanups
// (registered first, it runs last).
func checkLeaks(t *testing.T) {
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
}
