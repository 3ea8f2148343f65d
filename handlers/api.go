package handlers

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/gorilla/websocket"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/sweeps"
)

// APIConfig assembles the JSON API and the run stream.
type APIConfig struct {
	Registry *engine.Registry // required
	Uploads  *Uploads         // default NewUploads(0)
	// Specs lists the methods for GET /api/methods; default catalog.Specs.
	// An error is a broken method: the route answers 500 and logs it.
	Specs func() ([]sim.MethodSpec, error)
	// SpecsFor lists them fitted to a data set, for GET
	// /api/methods?data=NAME&seed=S; default catalog.SpecsFor.
	SpecsFor func(*sim.Dataset) ([]sim.MethodSpec, error)
	// AllowedOrigins may open a stream besides the page's own origin, as
	// "scheme://host[:port]".
	AllowedOrigins []string
	RequestTimeout time.Duration // for every route but the stream, default 15s
	// ClientKey names the client that owns a run or sweep and whose caps it
	// counts against; default its browser session (SessionOf, session.go).
	ClientKey func(*http.Request) string
	Stream    StreamConfig
	Log       *slog.Logger
	// Sweeps runs the browser's sweeps; nil: no /api/sweeps routes.
	Sweeps *sweeps.Registry
	// Observer counts frames and commands (the server's metrics); nil
	// counts nothing.
	Observer Observer
	// Clients caps what one client address holds (clients.go).
	Clients ClientLimits
	// Exports bounds the draws files being written (api_draws.go).
	Exports ExportConfig
	// Gallery caches the exact answers of the runs on a target density;
	// nil: a cache with gallery.CacheConfig's defaults.
	Gallery *gallery.Cache
}

// Observer is told what the streams and command routes do, for monitoring.
// Its methods are called on hot paths: they must be cheap, allocate
// nothing and be safe for concurrent use.
type Observer interface {
	FrameSent(bytes int)  // a run frame of this many bytes went to a viewer
	Command(applied bool) // a command was applied, or refused with an error
}

// nopObserver counts nothing.
type nopObserver struct{}

func (nopObserver) FrameSent(int) {}
func (nopObserver) Command(bool)  {}

// API serves /api: methods, data sets, uploads, runs and their streams.
type API struct {
	reg       *engine.Registry
	uploads   *Uploads
	specs     func() ([]sim.MethodSpec, error)
	specsFor  func(*sim.Dataset) ([]sim.MethodSpec, error)
	origins   map[string]bool
	timeout   time.Duration
	clientKey func(*http.Request) string
	stream    StreamConfig
	log       *slog.Logger
	upgrader  websocket.Upgrader
	sweeps    *sweeps.Registry // nil: no sweeps
	observer  Observer
	limits    ClientLimits
	exportCfg ExportConfig

	// What client addresses hold (clients.go).
	sessionRate      *sessionRate
	streams, exports inFlight
	runsBy, sweepsBy owned
	gallery          *gallery.Cache

	mu      sync.Mutex
	conns   map[*wsConn]struct{}
	hubs    map[*engine.Run]*hub // the watched runs' (stream_hub.go)
	closing chan struct{}        // closed by CloseStreams
	closed  bool
	wg      sync.WaitGroup // stream handlers
}

// NewAPI returns the API. It rejects malformed allowed origins.
func NewAPI(cfg APIConfig) (*API, error) {
	if cfg.Registry == nil {
		return nil, fmt.Errorf("handlers: APIConfig.Registry is required")
	}
	a := &API{reg: cfg.Registry, uploads: cfg.Uploads, specs: cfg.Specs, specsFor: cfg.SpecsFor, origins: map[string]bool{},
		timeout: cfg.RequestTimeout, clientKey: cfg.ClientKey, stream: cfg.Stream.withDefaults(), log: cfg.Log,
		conns: map[*wsConn]struct{}{}, closing: make(chan struct{})}
	a.sweeps, a.observer = cfg.Sweeps, cfg.Observer
	a.limits, a.exportCfg = cfg.Clients.withDefaults(), cfg.Exports.withDefaults()
	a.sessionRate = &sessionRate{burst: float64(a.limits.SessionBurst), rate: a.limits.SessionRate, now: time.Now}
	if a.observer == nil {
		a.observer = nopObserver{}
	}
	if a.uploads == nil {
		a.uploads = NewUploads(0)
	}
	if a.gallery = cfg.Gallery; a.gallery == nil {
		c, err := gallery.NewCache(gallery.CacheConfig{})
		if err != nil {
			return nil, err
		}
		a.gallery = c
	}
	if a.specs == nil {
		a.specs = catalog.Specs
	}
	if a.specsFor == nil {
		a.specsFor = catalog.SpecsFor
	}
	if a.timeout <= 0 {
		a.timeout = 15 * time.Second
	}
	if a.clientKey == nil {
		a.clientKey = SessionOf
	}
	if a.log == nil {
		a.log = slog.Default()
	}
	for _, o := range cfg.AllowedOrigins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			return nil, fmt.Errorf("allowed origin %q: want scheme://host[:port]", o)
		}
		a.origins[strings.ToLower(u.Scheme+"://"+u.Host)] = true
	}
	a.upgrader = websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 16 << 10, CheckOrigin: a.checkOrigin}
	return a, nil
}

// Uploads is the store of uploaded data sets (for NewFactory).
func (a *API) Uploads() *Uploads { return a.uploads }

// Routes registers the API on r, which must be mounted at /api. The stream
// route stays outside middleware.Timeout: it lives long and is hijacked;
// so does the draws download, which bounds itself.
func (a *API) Routes(r chi.Router) {
	r.Use(a.Sessions)    // clients.go
	r.Use(a.guardWrites) // guard.go
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, a.log, http.StatusNotFound, "path", "no such API endpoint: "+r.URL.Path)
	})
	routes := r
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		allow := allowedMethods(routes, routePath(r)) // guard.go
		w.Header().Set("Allow", allow)
		writeError(w, a.log, http.StatusMethodNotAllowed, "method", r.Method+" is not allowed on "+r.URL.Path+" (allowed: "+allow+")")
	})
	r.Get("/runs/{id}/stream", a.serveStream)
	a.sweepRoutes(r) // api_sweeps.go
	r.Group(func(r chi.Router) {
		r.Use(middleware.Timeout(a.timeout))
		r.Get("/methods", a.methods)
		r.Get("/datasets", a.datasets)
		r.Get("/scenarios", a.scenarios) // api_scenarios.go
		r.Post("/data", a.upload)
		r.Post("/runs", a.createRun)
		r.Get("/runs", a.listRuns)
		r.Get("/runs/{id}", a.getRun)
		r.Delete("/runs/{id}", a.deleteRun)
		r.Post("/runs/{id}/ops", a.postOp)
		r.Post("/pace", a.postPace) // api_pace.go
	})
	r.Get("/runs/{id}/draws.csv", a.getDraws) // api_draws.go: deadlines of its own
}

// methods answers GET /api/methods: every method's spec, its controls'
// ranges fitted to a data set when the query names one (data, and seed for
// a built-in set, default 1), as runs on it check them.
func (a *API) methods(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	for key := range q {
		if key != "data" && key != "seed" {
			writeError(w, a.log, http.StatusBadRequest, key, "unknown parameter (allowed: data, seed)")
			return
		}
	}
	var specs []sim.MethodSpec
	var err error
	if name := q.Get("data"); name != "" {
		seed := uint64(defaultSeed)
		if s := q.Get("seed"); s != "" {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				writeError(w, a.log, http.StatusBadRequest, "seed", fmt.Sprintf("%q is not a whole number in [0, %d]", s, uint64(1<<64-1)))
				return
			}
			seed = v
		}
		d, lerr := loadData(name, seed, a.uploads)
		if lerr != nil {
			writeErr(w, r, a.log, lerr)
			return
		}
		specs, err = a.specsFor(d)
	} else if q.Has("seed") {
		writeError(w, a.log, http.StatusBadRequest, "seed", "used only with data")
		return
	} else {
		specs, err = a.specs()
	}
	if err != nil {
		a.log.Error("listing methods", "err", err)
		writeError(w, a.log, http.StatusInternalServerError, "", "internal error")
		return
	}
	if specs == nil {
		specs = []sim.MethodSpec{}
	}
	writeJSON(w, a.log, http.StatusOK, specs)
}

func (a *API) datasets(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, a.log, http.StatusOK, datasets.Infos())
}

// checkOrigin is gorilla's same-origin rule plus the allow-list. Requests
// without an Origin header come from non-browser clients and pass.
func (a *API) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	if a.origins[strings.ToLower(origin)] {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && strings.EqualFold(u.Host, r.Host)
}
