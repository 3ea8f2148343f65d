package web

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/posterior-playground/playground/handlers"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/sweeps"
	"github.com/posterior-playground/playground/static"
	"github.com/posterior-playground/playground/web/metrics"
)

// Config configures the server. Zero values take the defaults.
type Config struct {
	Addr           string   // listen address, default ":8080"
	AllowedOrigins []string // origins besides the page's own that may open streams and write, "scheme://host[:port]"
	// FrameAncestors may embed the pages in a frame besides the page's own
	// origin (course sites, slides): "scheme://host[:port]", the host
	// perhaps "*.domain".
	FrameAncestors []string
	// RegistryConfig holds the run limits (MaxRuns, MaxRunsPerClient,
	// MaxSteps, IdleTimeout, ExpireAfter) and the options of every run (Run:
	// FrameRate, …), with sim's defaults, except that Run.BatchTime defaults
	// to serverBatchTime and Run.Log to New's logger.
	engine.RegistryConfig
	MaxUploads int // uploaded CSV data sets kept, default 32
	// TrustedProxies are CIDR prefixes of reverse proxies whose
	// X-Forwarded-For names the client; empty trusts none (the TCP peer is
	// the client), so a client cannot dodge the per-client cap.
	TrustedProxies  []string
	RequestTimeout  time.Duration // every route but the stream, default 15s
	ShutdownTimeout time.Duration // default 10s
	// DrainDelay is how long, on shutdown, /readyz fails (503) while the
	// server still serves, before it stops accepting: time for a load
	// balancer to send new clients elsewhere. Default 0.
	DrainDelay time.Duration

	// Clients caps what one client address holds over all its browser
	// sessions (sessions started, runs, uploads, sweeps, exports, streams),
	// with handlers' defaults, sized for a class of 60 behind one NAT.
	Clients handlers.ClientLimits
	// Exports bounds the draws files being written (in all, and how slow a
	// download may be), with handlers' defaults.
	Exports handlers.ExportConfig

	Stream handlers.StreamConfig
	// Factory builds runs; nil uses the catalog and the built-in data sets
	// (handlers.NewFactory). Tests inject fakes here.
	Factory engine.Factory
	// Specs lists methods for GET /api/methods; nil uses the catalog.
	Specs func() ([]sim.MethodSpec, error)

	// Sweeps configures the sweeps in the browser with package sweeps'
	// defaults (2 at once, 1 per client, GOMAXPROCS−1 workers each, …);
	// Log defaults to New's logger.
	Sweeps sweeps.Config
}

// DefaultConfig returns the defaults New would apply, written out, for flags
// to start from.
func DefaultConfig() Config {
	c := Config{
		Addr: ":8080", RegistryConfig: engine.DefaultRegistryConfig(), MaxUploads: 32,
		RequestTimeout: 15 * time.Second, ShutdownTimeout: 10 * time.Second,
		Sweeps: sweeps.DefaultConfig(),
	}
	c.Run.BatchTime = serverBatchTime
	return c
}

// serverBatchTime is the longest stretch a run steps before it yields. A
// classroom puts tens of CPU-bound runs on a few cores; the scheduler then
// serves each run, each request and each websocket writer in turn, so a
// run's batch is everyone else's wait. With sim's default of 10 ms, 20 runs
// on 2 cores publish at most ~10 frames/s each and an HTTP request waits
// ~100 ms per scheduling hop; with 2 ms frames doubled in TestLoad. Yielding
// costs little; the steps lost (~20% there) go to drawing the bands of the
// extra frames.
const serverBatchTime = 2 * time.Millisecond

// Server is the assembled application.
type Server struct {
	cfg       Config
	log       *slog.Logger
	reg       *engine.Registry
	sweeps    *sweeps.Registry
	api       *handlers.API
	metrics   *metrics.Metrics
	csp       string // Content-Security-Policy of every response
	handler   http.Handler
	closeOnce sync.Once
	draining  atomic.Bool // /readyz fails from the start of shutdown
}

// New assembles the server. It starts the run registry's janitor: call
// ListenAndServe, Serve or Close to stop it.
func New(cfg Config, log *slog.Logger) (*Server, error) {
	if log == nil {
		log = slog.Default()
	}
	if cfg.Addr == "" {
		cfg.Addr = ":8080"
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = 15 * time.Second
	}
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = 10 * time.Second
	}
	if cfg.Instance != "" && !engine.ValidInstance(cfg.Instance) {
		return nil, fmt.Errorf("instance %q: want 1 to 16 lower-case letters and digits", cfg.Instance)
	}
	for _, p := range cfg.TrustedProxies {
		if _, err := netip.ParsePrefix(p); err != nil {
			return nil, fmt.Errorf("trusted proxy %q: want a CIDR prefix such as 10.0.0.0/8", p)
		}
	}
	csp, err := contentSecurityPolicy(cfg.FrameAncestors)
	if err != nil {
		return nil, err
	}
	uploads := handlers.NewUploads(cfg.MaxUploads)
	factory := cfg.Factory
	if factory == nil {
		factory = handlers.NewFactory(uploads)
	}
	if cfg.Run.BatchTime <= 0 {
		cfg.Run.BatchTime = serverBatchTime
	}
	reg := engine.NewRegistry(cfg.RegistryConfig, factory, log) // which sets a nil Run.Log to log
	if cfg.Sweeps.Log == nil {
		cfg.Sweeps.Log = log
	}
	sw := sweeps.New(cfg.Sweeps)
	m := metrics.New(reg)
	api, err := handlers.NewAPI(handlers.APIConfig{
		Registry: reg, Uploads: uploads, Specs: cfg.Specs, AllowedOrigins: cfg.AllowedOrigins,
		RequestTimeout: cfg.RequestTimeout, Stream: cfg.Stream, Log: log,
		Sweeps: sw, Observer: m, Clients: cfg.Clients, Exports: cfg.Exports,
		Gallery: sw.Config().Gallery, // one cache of exact answers, bounded once, for the runs and the sweeps
	})
	if err != nil {
		reg.Close()
		sw.Close()
		return nil, err
	}
	s := &Server{cfg: cfg, log: log, reg: reg, sweeps: sw, api: api, metrics: m, csp: csp}
	s.handler = s.routes()
	return s, nil
}

// routes builds the router. No middleware here wraps the ResponseWriter
// in a way that hides http.Hijacker, and middleware.Timeout is applied
// inside the API to every route but the stream.
func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	r.Use(middleware.RequestID)
	if len(s.cfg.TrustedProxies) > 0 {
		r.Use(middleware.ClientIPFromXFF(s.cfg.TrustedProxies...))
	} else {
		r.Use(middleware.ClientIPFromRemoteAddr)
	}
	r.Use(s.sessions) // runs, uploads and sweeps belong to a browser session
	r.Use(requestLogger(s.log))
	r.Use(middleware.Recoverer)
	r.Use(s.metrics.Middleware)
	r.Use(securityHeaders(s.csp, len(s.cfg.FrameAncestors) > 0))
	r.Use(middleware.GetHead) // HEAD answers as GET, without the body

	r.Route("/api", s.api.Routes)
	r.Group(func(r chi.Router) {
		r.Use(middleware.Timeout(s.cfg.RequestTimeout))
		// Liveness: the process serves. Readiness: it takes new clients,
		// which it stops doing first when it shuts down. HEAD answers both
		// (middleware.GetHead).
		r.Get("/healthz", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Write([]byte("ok\n"))
		})
		r.Get("/readyz", s.readyz)
		r.Method(http.MethodGet, "/metrics", s.metrics.Handler())
		r.Handle("/static/*", http.StripPrefix("/static/", staticFiles(static.Files)))
		handlers.NewPages(s.log, s.api.Uploads()).Routes(r)
	})
	return r
}

// sessions gives the pages and the API a browser session (the API's new
// ones rate-limited per client address), and the probes, metrics and
// static files none: a balancer's health checks must not spend the
// sessions its address may start.
func (s *Server) sessions(next http.Handler) http.Handler {
	withSession := s.api.Sessions(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case p == "/healthz", p == "/readyz", p == "/metrics", strings.HasPrefix(p, "/static/"):
			next.ServeHTTP(w, r)
		default:
			withSession.ServeHTTP(w, r)
		}
	})
}

// readyz answers 200 while the server takes new clients and 503 from the
// moment it starts to shut down.
func (s *Server) readyz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if s.draining.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("draining: the server is shutting down\n"))
		return
	}
	w.Write([]byte("ready\n"))
}

// staticFiles serves the embedded files, without directory listings.
func staticFiles(fsys fs.FS) http.Handler {
	files := http.FileServerFS(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "" || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=300")
		files.ServeHTTP(w, r)
	})
}

// clientIP is the client's address for the access log: the peer's, or a
// trusted proxy's X-Forwarded-For.
func clientIP(r *http.Request) string {
	if ip := middleware.GetClientIP(r.Context()); ip != "" {
		return ip
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// Handler is the server's handler, for httptest. Call Close after.
func (s *Server) Handler() http.Handler { return s.handler }

// Registry is the run registry.
func (s *Server) Registry() *engine.Registry { return s.reg }

// ListenAndServe listens on cfg.Addr and serves until ctx is cancelled,
// then shuts down gracefully.
func (s *Server) ListenAndServe(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		s.Close()
		return err
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx is cancelled, then stops accepting, closes
// every stream with a close frame ("going away"), waits for requests in
// flight (up to ShutdownTimeout) and stops the runs. /readyz fails from the
// moment ctx ends, for DrainDelay before the server stops accepting.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second, // whole request, a 1 MiB upload included
		WriteTimeout:      s.cfg.RequestTimeout + 5*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	// Shutdown does not touch hijacked connections: close the streams.
	srv.RegisterOnShutdown(s.api.CloseStreams)
	s.log.Info("listening", "addr", ln.Addr().String())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		s.Close()
		return err
	case <-ctx.Done():
	}
	s.draining.Store(true)
	if s.cfg.DrainDelay > 0 {
		s.log.Info("draining: /readyz fails while the server still serves", "for", s.cfg.DrainDelay)
		time.Sleep(s.cfg.DrainDelay)
	}
	s.log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	s.close(sctx)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// Close closes every stream and stops every run; for a Server used
// through Handler. Serve and ListenAndServe call it themselves.
func (s *Server) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	s.close(ctx)
}

func (s *Server) close(ctx context.Context) {
	s.draining.Store(true)
	s.closeOnce.Do(func() {
		s.api.CloseStreams()
		if err := s.api.WaitStreams(ctx); err != nil {
			s.log.Warn("streams did not close in time; dropped them", "err", err)
		}
		s.reg.Close()
		s.sweeps.Close()
	})
}
