package sweeps

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/experiment"
	"github.com/posterior-playground/playground/sim/gallery"
)

// ErrNotFound is an unknown or expired sweep.
var ErrNotFound = errors.New("no such sweep")

// Config sets the registry's limits. Zero values take the defaults.
type Config struct {
	MaxSweeps    int // sweeps running at once, default 2
	MaxPerClient int // sweeps running at once per client key, default 1
	// Workers is the goroutines per sweep, default GOMAXPROCS−1 (at least
	// 1), so a sweep leaves a core's worth of time to the live runs.
	Workers int
	KeepFor time.Duration // a finished sweep is kept this long, default 15 min
	MaxKept int           // finished sweeps kept at most (oldest go first), default 32
	Limits  Limits
	// Gallery holds the exact answers of a target sweep's values; nil: a
	// cache of its own with gallery.CacheConfig's defaults, made by New.
	Gallery *gallery.Cache
	Log     *slog.Logger
	Now     func() time.Time // default time.Now; tests move the clock
}

func (c Config) withDefaults() Config {
	if c.MaxSweeps <= 0 {
		c.MaxSweeps = 2
	}
	if c.MaxPerClient <= 0 {
		c.MaxPerClient = 1
	}
	if c.Workers <= 0 {
		c.Workers = max(1, runtime.GOMAXPROCS(0)-1)
	}
	if c.KeepFor <= 0 {
		c.KeepFor = 15 * time.Minute
	}
	if c.MaxKept <= 0 {
		c.MaxKept = 32
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	c.Limits = c.Limits.withDefaults()
	return c
}

// DefaultConfig returns the settings a zero Config takes, written out, for
// flags to start from. Workers stays 0 (GOMAXPROCS−1 when New runs, as
// GOMAXPROCS may change), Log and Now nil, so a caller's logger still
// replaces the default.
func DefaultConfig() Config {
	c := Config{}.withDefaults()
	c.Workers, c.Log, c.Now = 0, nil, nil
	return c
}

// Registry holds the sweeps by id and enforces the caps. Its memory is
// bounded: at most MaxSweeps running and MaxKept finished sweeps, each of
// at most Limits.MaxRuns runs.
type Registry struct {
	cfg    Config
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu        sync.Mutex
	sweeps    map[string]*Sweep
	running   int
	perClient map[string]int
	closed    bool
}

// New returns an empty registry. Close stops its sweeps.
func New(cfg Config) *Registry {
	if cfg.Gallery == nil {
		// A zero CacheConfig is valid: NewCache cannot fail on it.
		cfg.Gallery, _ = gallery.NewCache(gallery.CacheConfig{})
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Registry{cfg: cfg.withDefaults(), ctx: ctx, cancel: cancel,
		sweeps: map[string]*Sweep{}, perClient: map[string]int{}}
}

// Config returns the registry's settings after defaults.
func (g *Registry) Config() Config { return g.cfg }

// Create checks r and starts the sweep for client. Errors: a
// *sim.FieldError for a bad request, a *engine.LimitError when a cap is
// reached, engine.ErrRegistryClosed after Close.
func (g *Registry) Create(r Request, client string) (*Sweep, error) {
	var p *plan
	var err error
	if r.Target != "" {
		p, err = checkTarget(r, g.cfg.Limits, g.cfg.Gallery)
	} else {
		p, err = check(r, g.cfg.Limits)
	}
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.prune()
	switch {
	case g.closed:
		return nil, engine.ErrRegistryClosed
	case g.running >= g.cfg.MaxSweeps:
		return nil, &engine.LimitError{Message: fmt.Sprintf("the server is running its maximum of %d sweeps; try again when one finishes", g.cfg.MaxSweeps)}
	case g.perClient[client] >= g.cfg.MaxPerClient:
		return nil, &engine.LimitError{Message: fmt.Sprintf("you have %d sweep(s) running, the most one client may; cancel it or wait for it to finish", g.perClient[client])}
	}
	ctx, cancel := context.WithCancel(g.ctx)
	s := newSweep(newID(), client, p, g.cfg.Workers, g.cfg.Now)
	s.cancel = cancel
	g.sweeps[s.id] = s
	g.running++
	g.perClient[client]++
	g.wg.Go(func() { g.run(ctx, s) })
	return s, nil
}

// run is the sweep's goroutine: experiment.Sweep, then the end event and
// the release of its slot.
func (g *Registry) run(ctx context.Context, s *Sweep) {
	defer close(s.done)
	defer g.release(s.client)
	defer s.cancel()
	p := s.plan
	start := time.Now()
	var err error
	if p.tgt != nil {
		err = runTarget(ctx, p, s.workers, s.progress)
	} else {
		_, err = experiment.Sweep(ctx, p.base, p.req.Param, p.values, p.req.Seeds, s.workers, s.dataProgress)
	}
	switch {
	case err == nil:
		s.end(Done, "")
		g.cfg.Log.Info("sweep done", "sweep", s.id, "target", p.req.Target, "param", p.req.Param, "runs", s.total, "duration", time.Since(start).Round(time.Millisecond))
	case ctx.Err() != nil:
		s.end(Cancelled, "cancelled")
	default:
		var fe *sim.FieldError
		if !errors.As(err, &fe) && !errors.Is(err, experiment.ErrDiverged) {
			g.cfg.Log.Warn("sweep failed", "sweep", s.id, "err", err)
		}
		s.end(Failed, err.Error())
	}
}

func (g *Registry) release(client string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.running--
	if g.perClient[client]--; g.perClient[client] <= 0 {
		delete(g.perClient, client)
	}
}

// Get returns the sweep with id, or ErrNotFound.
func (g *Registry) Get(id string) (*Sweep, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.prune()
	s, ok := g.sweeps[id]
	if !ok {
		return nil, ErrNotFound
	}
	return s, nil
}

// Cancel stops the sweep: it ends at once for its viewers (status
// cancelled, no further progress), and Cancel waits until its workers have
// stopped or ctx ends. Cancelling a finished sweep changes nothing.
func (g *Registry) Cancel(ctx context.Context, id string) (*Sweep, error) {
	s, err := g.Get(id)
	if err != nil {
		return nil, err
	}
	s.end(Cancelled, "cancelled")
	s.cancel()
	select {
	case <-s.done:
	case <-ctx.Done():
	}
	return s, nil
}

// Close cancels every sweep and waits for their workers; later Creates
// fail with engine.ErrRegistryClosed.
func (g *Registry) Close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.cancel()
	g.wg.Wait()
}

// prune forgets sweeps that ended more than KeepFor ago and, past
// MaxKept, the oldest finished ones. Under g.mu.
func (g *Registry) prune() {
	now := g.cfg.Now()
	var ended []*Sweep
	for id, s := range g.sweeps {
		t := s.endedAt()
		switch {
		case t.IsZero():
		case now.Sub(t) > g.cfg.KeepFor:
			delete(g.sweeps, id)
		default:
			ended = append(ended, s)
		}
	}
	if extra := len(ended) - g.cfg.MaxKept; extra > 0 {
		sort.Slice(ended, func(i, j int) bool { return ended[i].endedAt().Before(ended[j].endedAt()) })
		for _, s := range ended[:extra] {
			delete(g.sweeps, s.id)
		}
	}
}

func newID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
