// Package metrics exposes the server's state to Prometheus: runs by status
// and method, viewers and steps read from the run registry at scrape time,
// frames and bytes the streams sent and commands by outcome counted as they
// happen, request latencies by route, and the Go runtime's and process's
// own metrics. Each server has its own prometheus.Registry; nothing is
// registered globally.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/posterior-playground/playground/sim/engine"
)

const namespace = "playground"

// Metrics holds the server's collectors. Its methods are safe for
// concurrent use.
type Metrics struct {
	reg      *prometheus.Registry
	frames   prometheus.Counter
	bytes    prometheus.Counter
	applied  prometheus.Counter
	refused  prometheus.Counter
	requests *prometheus.HistogramVec
}

// New returns the metrics of a server whose runs live in runs.
func New(runs *engine.Registry) *Metrics {
	commands := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "commands_total",
		Help: "Commands to runs (stream messages and POST /api/runs/{id}/ops), by outcome."}, []string{"outcome"})
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		frames: prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "stream_frames_sent_total",
			Help: "Run frames written to websocket viewers."}),
		bytes: prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "stream_frame_bytes_sent_total",
			Help: "Bytes of run frames written to websocket viewers (payload, before framing)."}),
		applied: commands.WithLabelValues("applied"),
		refused: commands.WithLabelValues("refused"),
		requests: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: "http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by method, route pattern and status code; streams are left out.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 15}},
			[]string{"method", "route", "code"}),
	}
	m.reg.MustRegister(m.frames, m.bytes, commands, m.requests, registryCollector{runs},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus exposition formats.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Registry is the registry the metrics are in, for tests and for adding
// more.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// FrameSent counts one frame of n bytes written to a viewer. It allocates
// nothing.
func (m *Metrics) FrameSent(n int) {
	m.frames.Inc()
	m.bytes.Add(float64(n))
}

// Command counts one command, applied or refused.
func (m *Metrics) Command(applied bool) {
	if applied {
		m.applied.Inc()
	} else {
		m.refused.Inc()
	}
}

// Middleware times each request by its chi route pattern (known once the
// router has matched it), its method and its status. Websocket upgrades and
// event streams, whose duration is the viewer's stay, are left out, and so
// are unmatched paths' own names: they count under route "unmatched".
func (m *Metrics) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		start := time.Now()
		next.ServeHTTP(ww, r)
		route := ""
		if rc := chi.RouteContext(r.Context()); rc != nil {
			route = rc.RoutePattern()
		}
		status := ww.Status()
		if status == 0 || status == http.StatusSwitchingProtocols || ww.Header().Get("Content-Type") == "text/event-stream" {
			return // hijacked, upgraded or streamed
		}
		if route == "" {
			route = "unmatched"
		}
		m.requests.WithLabelValues(method(r.Method), route, strconv.Itoa(status)).Observe(time.Since(start).Seconds())
	})
}

// method bounds the method label to the standard methods.
func method(s string) string {
	switch s {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return s
	}
	return "other"
}

// registryCollector reads the run registry at scrape time.
type registryCollector struct{ runs *engine.Registry }

var (
	runsDesc = prometheus.NewDesc(namespace+"_runs", "Live runs, by status and method.", []string{"status", "method"}, nil)
	viewDesc = prometheus.NewDesc(namespace+"_viewers", "Websocket viewers watching runs.", nil, nil)
	stepDesc = prometheus.NewDesc(namespace+"_steps_total",
		"Steps taken by runs since the server started, by method (deleted runs included; rate() is steps/s).", []string{"method"}, nil)
)

func (c registryCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- runsDesc
	ch <- viewDesc
	ch <- stepDesc
}

func (c registryCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.runs.Stats()
	for k, n := range s.Runs {
		ch <- prometheus.MustNewConstMetric(runsDesc, prometheus.GaugeValue, float64(n), string(k.Status), k.Method)
	}
	ch <- prometheus.MustNewConstMetric(viewDesc, prometheus.GaugeValue, float64(s.Viewers))
	for method, n := range s.Steps {
		ch <- prometheus.MustNewConstMetric(stepDesc, prometheus.CounterValue, float64(n), method)
	}
}
