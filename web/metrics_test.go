package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
)

// scrape fetches /metrics and parses it with Prometheus's own text parser.
func scrape(t *testing.T, base string) map[string]*dto.MetricFamily {
	t.Helper()
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %d", res.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	return fams
}

// value is the value of the family's sample whose labels include want, and
// whether there is one.
func value(fams map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

// /metrics parses, and its numbers follow a run as it is created, watched,
// stepped and commanded.
func TestMetrics(t *testing.T) {
	s := newServer(t, Config{})
	defer s.Close()
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()

	fams := scrape(t, srv.URL)
	for _, name := range []string{"go_goroutines", "go_memstats_heap_inuse_bytes", "process_resident_memory_bytes", "playground_viewers"} {
		if _, ok := value(fams, name, nil); !ok {
			t.Errorf("no %s", name)
		}
	}

	res, err := http.Post(srv.URL+"/api/runs", "application/json", strings.NewReader(`{"data":"d","method":"count"}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID string }
	err = json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Registry().Get(created.ID)
	if err != nil {
		t.Fatal(err)
	}
	fams = scrape(t, srv.URL)
	if v, _ := value(fams, "playground_runs", map[string]string{"status": "paused", "method": "count"}); v != 1 {
		t.Errorf("paused count runs %v, want 1", v)
	}
	if v, ok := value(fams, "playground_steps_total", map[string]string{"method": "count"}); !ok || v != 0 {
		t.Errorf("steps before stepping: %v %v", v, ok)
	}
	if v, _ := value(fams, "playground_http_request_duration_seconds", map[string]string{"method": "POST", "route": "/api/runs", "code": "201"}); v != 1 {
		t.Errorf("create requests timed: %v, want 1", v)
	}

	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/api/runs/"+run.ID()+"/stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if _, _, err := ws.ReadMessage(); err != nil { // the first frame
		t.Fatal(err)
	}
	for _, op := range []string{`{"op":"step","n":5}`, `{"op":"set","name":"lr","value":7}`} {
		res, err := http.Post(srv.URL+"/api/runs/"+run.ID()+"/ops", "application/json", strings.NewReader(op))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	enginetest.WaitFrame(t, run, 5*time.Second, func(f *engine.Frame) bool { return f.Step == 5 })

	fams = scrape(t, srv.URL)
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"playground_steps_total", map[string]string{"method": "count"}, 5},
		{"playground_viewers", nil, 1},
		{"playground_commands_total", map[string]string{"outcome": "applied"}, 1},
		{"playground_commands_total", map[string]string{"outcome": "refused"}, 1},
	} {
		if v, _ := value(fams, c.name, c.labels); v != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, v, c.want)
		}
	}
	if v, _ := value(fams, "playground_stream_frames_sent_total", nil); v < 1 {
		t.Errorf("frames sent %v, want at least the first", v)
	}
	if v, _ := value(fams, "playground_stream_frame_bytes_sent_total", nil); v < 10 {
		t.Errorf("frame bytes sent %v", v)
	}
	if _, ok := value(fams, "playground_http_request_duration_seconds", map[string]string{"route": "/api/runs/{id}/stream"}); ok {
		t.Error("the stream's lifetime was timed as a request")
	}
}

// HEAD works wherever GET does.
func TestHead(t *testing.T) {
	s := newServer(t, Config{})
	defer s.Close()
	for _, path := range []string{"/healthz", "/", "/metrics", "/static/app/app.css"} {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodHead, path, nil))
		b, _ := io.ReadAll(w.Result().Body)
		if w.Code != http.StatusOK {
			t.Errorf("HEAD %s: %d %q", path, w.Code, b)
		}
	}
}
