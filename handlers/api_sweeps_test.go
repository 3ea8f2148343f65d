package handlers

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/posterior-playground/playground/sim/sweeps"
	"github.com/posterior-playground/playground/sim/wire"
)

// sweepEnv is the API with a sweep registry on an httptest server. The
// client key is the X-Client header, so tests can act as several clients.
type sweepEnv struct {
	*env
	sweeps *sweeps.Registry
}

// tiny is a sweep that runs in well under a second: GIP with 5 inducing
// points, 20 steps, 2 × 10 importance samples per value.
const tiny = `{"data":"gap","method":"gip","param":"prior_scale","values":"0.5,1,2","steps":20,"eval_reps":2,"iwbo_samples":10,"controls":{"inducing":5}}`

// slow runs mean-field for 1000 steps on each of ten values, one worker:
// about a second per value, so a test can see progress and cancel.
const slow = `{"data":"gap","method":"mfvi","param":"prior_scale","values":"linspace:0.5:3:10","steps":1000,"eval_reps":2,"iwbo_samples":10}`

func newSweepEnv(t *testing.T, cfg sweeps.Config, serverTimeout time.Duration) *sweepEnv {
	t.Helper()
	cfg.Log = quietLog
	reg := sweeps.New(cfg)
	e := &sweepEnv{sweeps: reg}
	// Its clients stand for machines of their own: no cap per address.
	e.env = newEnvWith(t, APIConfig{Sweeps: reg, ClientKey: func(r *http.Request) string { return r.Header.Get("X-Client") },
		Clients: ClientLimits{Sweeps: 1 << 20}}, serverTimeout)
	t.Cleanup(reg.Close) // runs before the env's cleanup: streams end with the sweeps
	return e
}

// newEnvWith is newEnv with the server's read and write timeouts set (0:
// none), to show that a stream outlives them.
func newEnvWith(t *testing.T, cfg APIConfig, serverTimeout time.Duration) *env {
	if serverTimeout == 0 {
		return newEnv(t, envOptions{api: cfg})
	}
	e := newEnv(t, envOptions{api: cfg})
	// Replace the server by one with the timeouts, on the same API.
	e.srv.Close()
	r := chi.NewRouter()
	r.Route("/api", e.api.Routes)
	srv := httptest.NewUnstartedServer(r)
	srv.Config.ReadTimeout, srv.Config.WriteTimeout = serverTimeout, serverTimeout
	srv.Start()
	e.srv = srv
	return e
}

// post starts a sweep as client and returns its id.
func (e *sweepEnv) post(client, body string) string {
	e.t.Helper()
	var out wire.SweepCreated
	code, _ := e.doAs(client, "POST", "/api/sweeps", body, &out)
	if code != http.StatusCreated || out.ID == "" {
		e.t.Fatalf("POST /api/sweeps %s: %d %+v", body, code, out)
	}
	return out.ID
}

func (e *sweepEnv) doAs(client, method, path, body string, out any) (int, http.Header) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Client", client)
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s %s: %d %q: %v", method, path, res.StatusCode, b, err)
		}
	}
	return res.StatusCode, res.Header
}

func (e *sweepEnv) info(id string) sweeps.Info {
	e.t.Helper()
	var in sweeps.Info
	if code, _ := e.doAs("a", "GET", "/api/sweeps/"+id, "", &in); code != http.StatusOK {
		e.t.Fatalf("GET sweep %s: %d", id, code)
	}
	return in
}

// waitInfo reads GET /api/sweeps/{id} until ok holds, again after each of
// the sweep's events (every change of its Info records one).
func (e *sweepEnv) waitInfo(id string, d time.Duration, ok func(sweeps.Info) bool) sweeps.Info {
	e.t.Helper()
	s, err := e.sweeps.Get(id)
	if err != nil {
		e.t.Fatal(err)
	}
	deadline := time.After(d)
	for {
		_, changed, _ := s.Events(math.MaxInt) // before the read: no event slips between
		in := e.info(id)
		if ok(in) {
			return in
		}
		select {
		case <-changed:
		case <-deadline:
			e.t.Fatalf("after %v the sweep is %+v", d, in)
		}
	}
}

// sse is one Server-Sent Event: its id, name and data.
type sse struct {
	id, event string
	data      []byte
}

// readEvents reads a stream's events until it ends.
func readEvents(t *testing.T, body io.Reader) []sse {
	t.Helper()
	var (
		out []sse
		cur sse
	)
	sc := bufio.NewScanner(body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.event != "" || cur.data != nil {
				out = append(out, cur)
			}
			cur = sse{}
		case strings.HasPrefix(line, "id: "):
			cur.id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "event: "):
			cur.event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = []byte(strings.TrimPrefix(line, "data: "))
		}
	}
	return out
}

func (e *sweepEnv) stream(id string, lastEventID string) *http.Response {
	e.t.Helper()
	req, _ := http.NewRequest("GET", e.srv.URL+"/api/sweeps/"+id+"/stream", nil)
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	return res
}

func TestSweepCreateRejectsBadInput(t *testing.T) {
	checkLeaks(t)
	e := newSweepEnv(t, sweeps.Config{}, 0)
	base := map[string]any{"data": "gap", "method": "gip", "param": "prior_scale", "values": "0.5,1", "steps": 20}
	with := func(k string, v any) string {
		m := map[string]any{}
		for key, val := range base {
			m[key] = val
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	for _, c := range []struct{ body, field string }{
		{`{"data":"gap",`, "body"},
		{with("colour", "red"), "colour"},
		{with("data", nil), "data"},
		{with("data", "nope"), "data"},
		{with("data", "upload:abc"), "data"},
		{with("method", "nope"), "method"},
		{with("method", "metropolis"), "method"}, // a sampler has no ELBO
		{with("param", nil), "param"},
		{with("param", "colour"), "param"},
		{with("values", nil), "values"},
		{with("values", "one,two"), "values"},
		{with("values", "logspace:-1:2:3"), "values"},
		{with("values", "0.01,1"), "values"}, // prior_scale is in [0.1, 10]
		{with("values", "linspace:0.5:3:51"), "values"},
		{strings.Replace(with("seeds", 5), `"values":"0.5,1"`, `"values":"linspace:0.5:3:11"`, 1), "seeds"}, // 11 × 5 > 50
		{with("steps", 0), "steps"},
		{with("steps", 20001), "steps"},
		{with("steps", "many"), "steps"},
		{with("eval_reps", 0), "eval_reps"},
		{with("iwbo_samples", 2001), "iwbo_samples"},
		{with("controls", map[string]any{"lr": 5}), "controls.lr"},
		{with("controls", map[string]any{"colour": 1}), "controls.colour"},
	} {
		var got wire.APIError
		code, _ := e.doAs("a", "POST", "/api/sweeps", c.body, &got)
		if code != http.StatusBadRequest || got.Field != c.field || got.Message == "" {
			t.Errorf("%s: %d %+v, want 400 naming %q", c.body, code, got, c.field)
		}
		t.Logf("%s: %s", got.Field, got.Message)
	}
	if code, _ := e.doAs("a", "GET", "/api/sweeps/nope", "", nil); code != http.StatusNotFound {
		t.Errorf("GET of an unknown sweep: %d, want 404", code)
	}
}

func TestSweepCaps(t *testing.T) {
	checkLeaks(t)
	e := newSweepEnv(t, sweeps.Config{MaxSweeps: 2, MaxPerClient: 1, Workers: 1}, 0)
	first := e.post("a", slow)
	var got wire.APIError
	code, h := e.doAs("a", "POST", "/api/sweeps", slow, &got)
	if code != http.StatusTooManyRequests || got.Field != "sweeps" || h.Get("Retry-After") == "" {
		t.Errorf("a second sweep of one client: %d %+v, want 429 naming sweeps with Retry-After", code, got)
	}
	e.post("b", slow)
	if code, _ := e.doAs("c", "POST", "/api/sweeps", slow, &got); code != http.StatusTooManyRequests || !strings.Contains(got.Message, "maximum of 2") {
		t.Errorf("a third sweep in all: %d %+v, want 429 with the total cap", code, got)
	}
	// Cancelling frees the client's slot at once: DELETE answers after the
	// workers stopped.
	if code, _ := e.doAs("a", "DELETE", "/api/sweeps/"+first, "", nil); code != http.StatusOK {
		t.Fatalf("DELETE: %d", code)
	}
	e.post("a", tiny)
}

func TestSweepProgressAndStream(t *testing.T) {
	checkLeaks(t)
	// The server's read and write timeouts are shorter than the sweep: the
	// stream must outlive both.
	e := newSweepEnv(t, sweeps.Config{Workers: 2}, 300*time.Millisecond)
	id := e.post("a", strings.Replace(tiny, `"0.5,1,2"`, `"logspace:0.316:3.16:6"`, 1))
	res := e.stream(id, "")
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); res.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("stream: %d %q", res.StatusCode, ct)
	}
	start := time.Now()
	evs := readEvents(t, res.Body)
	t.Logf("6 values streamed in %v", time.Since(start).Round(time.Millisecond))
	if len(evs) != 1+6+1 {
		t.Fatalf("%d events, want start + 6 runs + end: %q", len(evs), evs)
	}
	seen := map[int]bool{}
	for i, ev := range evs {
		var m map[string]any
		if err := json.Unmarshal(ev.data, &m); err != nil {
			t.Fatal(err)
		}
		if ev.id != strconv.Itoa(i+1) || m["seq"] != float64(i+1) || m["type"] != ev.event {
			t.Errorf("event %d: id %q, data %s", i, ev.id, ev.data)
		}
		// Runs arrive in order of completion: one more finished each time.
		if m["finished"] != float64(min(i, 6)) || m["total"] != 6.0 {
			t.Errorf("event %d: finished %v of %v, want %d of 6", i, m["finished"], m["total"], min(i, 6))
		}
		switch {
		case i == 0:
			if ev.event != "progress" || m["point"] != nil {
				t.Errorf("first event %s", ev.data)
			}
		case i == len(evs)-1:
			if ev.event != "end" || m["status"] != "done" {
				t.Errorf("last event %s, want end, done", ev.data)
			}
		default:
			p, ok := m["point"].(map[string]any)
			if ev.event != "progress" || !ok {
				t.Fatalf("event %d has no point: %s", i, ev.data)
			}
			for _, k := range []string{"index", "value", "elbo_mean", "elbo_se", "iwbo_mean", "iwbo_se", "seeds"} {
				if _, ok := p[k].(float64); !ok {
					t.Errorf("point %s lacks %q", ev.data, k)
				}
			}
			idx := int(p["index"].(float64))
			if seen[idx] {
				t.Errorf("value %d reported twice", idx)
			}
			seen[idx] = true
		}
	}
	// GET agrees, in the order of the values.
	in := e.info(id)
	if in.Status != sweeps.Done || in.Finished != 6 || len(in.Points) != 6 || !in.LogX || in.Ended == nil {
		t.Fatalf("GET after the end: %+v", in)
	}
	for i, p := range in.Points {
		if p.Index != i || p.Value != in.Values[i] || p.Seeds != 1 {
			t.Errorf("point %d: %+v (values %v)", i, p, in.Values)
		}
		// The IWBO is at least the ELBO in expectation; with K = 10 and
		// two repetitions each, allow 3 combined standard errors.
		if p.IWBOMean < p.ELBOMean-3*(p.ELBOSE+p.IWBOSE) {
			t.Errorf("point %d: IWBO %g ± %g below ELBO %g ± %g", i, p.IWBOMean, p.IWBOSE, p.ELBOMean, p.ELBOSE)
		}
	}
	// A viewer that reconnects after the end is told not to come back
	// (204); one that missed the last two events gets just those.
	if r := e.stream(id, "8"); r.StatusCode != http.StatusNoContent {
		t.Errorf("reconnect after the end: %d, want 204", r.StatusCode)
	} else {
		r.Body.Close()
	}
	r := e.stream(id, "6")
	if evs := readEvents(t, r.Body); len(evs) != 2 || evs[0].id != "7" || evs[1].event != "end" {
		t.Errorf("resuming after event 6: %q", evs)
	}
	r.Body.Close()
}

func TestSweepCancel(t *testing.T) {
	checkLeaks(t)
	e := newSweepEnv(t, sweeps.Config{Workers: 1}, 0)
	id := e.post("a", slow)
	res := e.stream(id, "")
	defer res.Body.Close()
	got := make(chan []sse, 1)
	go func() { got <- readEvents(t, res.Body) }()
	in := e.waitInfo(id, 30*time.Second, func(in sweeps.Info) bool { return in.Finished >= 1 })
	if in.Status != sweeps.Running || in.Total != 10 {
		t.Fatalf("while running: %+v", in)
	}
	var out sweeps.Info
	if code, _ := e.doAs("a", "DELETE", "/api/sweeps/"+id, "", &out); code != http.StatusOK || out.Status != sweeps.Cancelled {
		t.Fatalf("DELETE: %d %+v", code, out)
	}
	s, err := e.sweeps.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.Done():
	default:
		t.Fatal("DELETE answered before the sweep's workers stopped")
	}
	// No progress after the cancel: the state stays as DELETE left it. The
	// sweep's Done is closed, so experiment.Sweep has returned after
	// waiting for its workers, the only callers of progress: the state read
	// now is final, without waiting for a run that might have been in flight.
	after := e.info(id)
	if after.Status != sweeps.Cancelled || after.Finished != out.Finished || len(after.Points) != len(out.Points) || after.Finished == after.Total {
		t.Errorf("after the cancel %+v, at the cancel %+v", after, out)
	}
	// The stream ended with a cancelled end event and nothing after it.
	select {
	case evs := <-got:
		last := evs[len(evs)-1]
		if last.event != "end" || !strings.Contains(string(last.data), `"status":"cancelled"`) {
			t.Errorf("the stream ended with %s %s", last.event, last.data)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stream did not end after the cancel")
	}
	// A second DELETE changes nothing.
	if code, _ := e.doAs("a", "DELETE", "/api/sweeps/"+id, "", &out); code != http.StatusOK || out.Status != sweeps.Cancelled {
		t.Errorf("second DELETE: %d %+v", code, out)
	}
}

// TestSweepStreamEndsAtShutdown: a viewer of a running sweep is let go
// when the API's streams close, so http.Server.Shutdown need not wait for it.
func TestSweepStreamEndsAtShutdown(t *testing.T) {
	checkLeaks(t)
	e := newSweepEnv(t, sweeps.Config{Workers: 1}, 0)
	id := e.post("a", slow)
	res := e.stream(id, "")
	defer res.Body.Close()
	done := make(chan struct{})
	go func() {
		io.Copy(io.Discard, res.Body)
		close(done)
	}()
	e.api.CloseStreams()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := e.api.WaitStreams(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the stream is still open after CloseStreams")
	}
	if code, _ := e.doAs("a", "GET", "/api/sweeps/"+id+"/stream", "", nil); code != http.StatusServiceUnavailable {
		t.Errorf("a new stream while closing: %d, want 503", code)
	}
}
