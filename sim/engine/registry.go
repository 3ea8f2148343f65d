package engine

import (
	"runtime/debug"
	"sync/atomic"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/cost"
	"github.com/posterior-playground/playground/sim/target"
	"github.com/posterior-playground/playground/sim/wire"

	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
)

// RunConfig names what to run: a data set, a method and model, a seed and
// overrides of the method's default controls (the API's shape of it).
type RunConfig = wire.RunConfig

// Factory builds an uninitialised method for cfg, its data set, and the
// method's full set of controls (cfg.Controls resolved against its spec).
// Errors naming a field are *FieldError. It is injected because sim cannot
// import the catalog of methods.
type Factory func(cfg RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error)

// Errors of the registry.
var (
	ErrTooManyRuns    = errors.New("too many runs")
	ErrNotFound       = errors.New("no such run")
	ErrRegistryClosed = errors.New("the server is shutting down")
)

// LimitError is a cap on runs being reached; it matches ErrTooManyRuns.
type LimitError struct{ Message string }

func (e *LimitError) Error() string { return e.Message }

// Unwrap makes errors.Is(err, ErrTooManyRuns) true.
func (e *LimitError) Unwrap() error { return ErrTooManyRuns }

// RegistryConfig sets the registry's limits. Zero values take the defaults.
type RegistryConfig struct {
	MaxRuns          int           // runs at once, default 64
	MaxRunsPerClient int           // runs at once per client key, default 8
	MaxSteps         int64         // step budget per run, default 10,000,000
	IdleTimeout      time.Duration // a run nobody watches this long pauses, default 30 s
	// ExpireAfter: a run nobody watches this long is deleted, freeing its
	// slot, default 1 min (a closed tab must not hold a classroom's slots).
	ExpireAfter time.Duration
	Run         RunOptions // options of every run (MaxSteps is overridden)
	// Budget bounds what runs may cost (budget.go): memory per run and in
	// all, arithmetic per step and between two polls of its interrupt.
	Budget Budget
	// Instance, when set, begins every run id ("i2-3f…"), so that a
	// balancer in front of several instances routes a run's requests to the
	// instance that holds it. ValidInstance says what it may be.
	Instance string
}

// ValidInstance reports whether name may be a RegistryConfig.Instance: 1 to
// 16 lower-case letters and digits, so that "name-" prefixes an id safely
// in a URL path and a balancer's rule.
func ValidInstance(name string) bool {
	if len(name) < 1 || len(name) > 16 {
		return false
	}
	for _, c := range name {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func (c RegistryConfig) withDefaults() RegistryConfig {
	if c.MaxRuns <= 0 {
		c.MaxRuns = 64
	}
	if c.MaxRunsPerClient <= 0 {
		c.MaxRunsPerClient = 8
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = 10_000_000
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 30 * time.Second
	}
	if c.ExpireAfter <= 0 {
		c.ExpireAfter = time.Minute
	}
	c.Run.MaxSteps = c.MaxSteps
	c.Budget = c.Budget.withDefaults()
	return c
}

// DefaultRegistryConfig returns the limits a zero RegistryConfig takes and
// DefaultRunOptions, written out, for flags to start from.
func DefaultRegistryConfig() RegistryConfig {
	c := RegistryConfig{}.withDefaults()
	c.Run = DefaultRunOptions()
	return c
}

// Registry holds the live runs by id, enforces the caps, pauses runs that
// nobody watches and deletes those abandoned for long.
type Registry struct {
	cfg     RegistryConfig
	factory Factory
	log     *slog.Logger
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup // run goroutines and the janitor

	mu        sync.Mutex
	runs      map[string]*entry
	perClient map[string]int
	reserved  int   // slots held by Creates in progress
	spent     int64 // the runs' estimated bytes (Budget), each counted at its dearest admitted
	closed    bool
	retired   map[string]int64 // steps of removed runs, by method (Stats)
}

type entry struct {
	run       *Run
	client    string
	cancel    context.CancelFunc
	idleSince time.Time // when the last viewer left (or creation)
	bytes     int64     // its estimated memory, counted in spent
}

// NewRegistry returns a registry building runs with factory. It starts a
// janitor goroutine; Close stops it and every run.
func NewRegistry(cfg RegistryConfig, factory Factory, log *slog.Logger) *Registry {
	if log == nil {
		log = slog.Default()
	}
	cfg = cfg.withDefaults()
	if cfg.Run.Log == nil {
		cfg.Run.Log = log
	}
	if cfg.Run.Stepping == nil { // the registry's runs share the cores
		cfg.Run.Stepping = new(atomic.Int64)
	}
	ctx, cancel := context.WithCancel(context.Background())
	g := &Registry{cfg: cfg, factory: factory, log: log, ctx: ctx, cancel: cancel,
		runs: make(map[string]*entry), perClient: make(map[string]int), retired: make(map[string]int64)}
	g.wg.Go(g.janitor)
	return g
}

// Config returns the registry's limits after defaults.
func (g *Registry) Config() RegistryConfig { return g.cfg }

// Create builds and starts a run for client (a client key such as its IP
// address) and returns at once: the run starts preparing and initialises
// its method in its own goroutine (a costly Init never holds the request),
// then pauses; with cfg.Replay it then trains to the replay's step,
// applying its changes, and pauses there. An Init that fails leaves the run
// diverged with the reason. Errors: *FieldError for a bad configuration (a
// data set larger than the method accepts among them), *LimitError when a
// cap is reached, ErrRegistryClosed.
func (g *Registry) Create(cfg RunConfig, client string) (*Run, error) {
	return g.create(cfg, client, func() (*Run, error) { return g.build(cfg) })
}

// CreateTarget is Create for method m fitted to the target density t
// (cfg names them: cfg.Target, cfg.Method) with controls c, defaults
// filled in for those not given: the same caps, the same life, and with
// cfg.Replay the same replay of a link's state.
func (g *Registry) CreateTarget(cfg RunConfig, client string, m target.Method, t target.Target, c sim.Controls) (*Run, error) {
	return g.create(cfg, client, func() (*Run, error) { return g.buildTarget(cfg, m, t, c) })
}

// create takes a slot for client, builds the run and starts it.
func (g *Registry) create(cfg RunConfig, client string, build func() (*Run, error)) (*Run, error) {
	if err := g.reserve(client); err != nil {
		return nil, err
	}
	run, err := build()
	var w cost.Workload
	var c cost.Cost
	if err == nil { // the method is not initialised yet: it holds nothing
		w = run.workload()
		c = cost.Estimate(w)
		err = g.cfg.Budget.checkCost(w, c)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reserved--
	if err == nil && g.closed {
		err = ErrRegistryClosed
	}
	if err == nil && g.spent+c.Bytes > g.cfg.Budget.TotalBytes {
		err = totalError(w, c, g.spent, g.cfg.Budget.TotalBytes)
	}
	if err != nil {
		g.release(client)
		return nil, err
	}
	ctx, cancel := context.WithCancel(g.ctx)
	e := &entry{run: run, client: client, cancel: cancel, idleSince: time.Now(), bytes: c.Bytes}
	g.runs[run.id] = e
	g.spent += c.Bytes
	run.cost.last = w
	run.cost.admit = func(w cost.Workload) error { return g.admitChange(e, w) }
	run.markStarted()
	g.wg.Go(func() { run.labelled(ctx) })
	if p := cfg.Replay; p != nil {
		g.wg.Go(func() {
			if err := replay(ctx, run, *p); err != nil && ctx.Err() == nil {
				g.log.Warn("replay stopped", "run", run.id, "target", p.Step, "err", err)
			}
		})
	}
	g.log.Info("run created", "run", run.id, "client", client, "data", cfg.Data, "method", cfg.Method, "seed", cfg.Seed)
	return run, nil
}

// reserve takes a slot for client or says which cap is reached.
func (g *Registry) reserve(client string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.closed:
		return ErrRegistryClosed
	case len(g.runs)+g.reserved >= g.cfg.MaxRuns:
		return &LimitError{fmt.Sprintf("the server is running its maximum of %d runs; try again in %s (runs nobody watches are freed within %[2]s)", g.cfg.MaxRuns, humanDuration(g.cfg.ExpireAfter))}
	case g.perClient[client] >= g.cfg.MaxRunsPerClient:
		return &LimitError{fmt.Sprintf("you have %d runs open, the most one browser may have: close a panel or a tab, or free one under \u201cYour runs\u201d; a run nobody watches is freed within %s", g.cfg.MaxRunsPerClient, humanDuration(g.cfg.ExpireAfter))}
	}
	g.reserved++
	g.perClient[client]++
	return nil
}

// release gives back a client's slot; g.mu must be held.
func (g *Registry) release(client string) {
	if g.perClient[client]--; g.perClient[client] <= 0 {
		delete(g.perClient, client)
	}
}

func (g *Registry) build(cfg RunConfig) (*Run, error) {
	m, d, controls, err := g.factory(cfg)
	if err != nil {
		return nil, err
	}
	id, err := newID(g.cfg.Instance)
	if err != nil {
		return nil, err
	}
	run, err := newRun(id, m, d, nil, controls, cfg.Seed, g.cfg.Run)
	if err != nil {
		var fe *sim.FieldError
		if errors.As(err, &fe) {
			return nil, err
		}
		return nil, &sim.FieldError{Field: "method", Message: fmt.Sprintf("%s cannot start on %s with these controls: %v", cfg.Method, cfg.Data, err)}
	}
	run.publish(time.Now()) // preparing: the run goroutine initialises the method
	if cfg.Replay != nil {
		if err := CheckReplay(cfg.Replay, run.Spec()); err != nil {
			return nil, err
		}
	}
	cfg.Controls = cloneControls(controls)
	if cfg.Model == "" && len(run.Spec().Models) > 0 {
		cfg.Model = run.Spec().Models[0] // the method's default, unless the data set's is supported
		if slices.Contains(run.Spec().Models, d.DefaultModel) {
			cfg.Model = d.DefaultModel
		}
	}
	run.cfg = cfg
	return run, nil
}

// buildTarget builds a run of m on t, preparing.
func (g *Registry) buildTarget(cfg RunConfig, m target.Method, t target.Target, controls sim.Controls) (*Run, error) {
	c, err := m.Spec().Resolve(controls)
	if err != nil {
		return nil, err
	}
	id, err := newID(g.cfg.Instance)
	if err != nil {
		return nil, err
	}
	run, err := newRun(id, m, nil, t, c, cfg.Seed, g.cfg.Run)
	if err != nil {
		return nil, err
	}
	run.publish(time.Now()) // preparing: the run goroutine initialises the method
	if cfg.Replay != nil {
		if err := CheckReplay(cfg.Replay, run.Spec()); err != nil {
			return nil, err
		}
	}
	cfg.Controls = cloneControls(c)
	run.cfg = cfg
	return run, nil
}

// humanDuration says d as a person would: "a minute", "90 seconds", "5 minutes".
func humanDuration(d time.Duration) string {
	switch s := int(d.Round(time.Second) / time.Second); {
	case s == 60:
		return "a minute"
	case s%60 == 0:
		return fmt.Sprintf("%d minutes", s/60)
	case s == 1:
		return "a second"
	default:
		return fmt.Sprintf("%d seconds", s)
	}
}

// newID is 16 random hex digits, after "instance-" when instance is set.
func newID(instance string) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	if instance != "" {
		return instance + "-" + hex.EncodeToString(b[:]), nil
	}
	return hex.EncodeToString(b[:]), nil
}

// Get returns the run with id, or ErrNotFound.
func (g *Registry) Get(id string) (*Run, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	e, ok := g.runs[id]
	if !ok {
		return nil, ErrNotFound
	}
	return e.run, nil
}

// Owner returns the client that created the run with id, or ErrNotFound.
func (g *Registry) Owner(id string) (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	e, ok := g.runs[id]
	if !ok {
		return "", ErrNotFound
	}
	return e.client, nil
}

// RunsOf returns client's runs, by id.
func (g *Registry) RunsOf(client string) []*Run {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []*Run
	for _, e := range g.runs {
		if e.client == client {
			out = append(out, e.run)
		}
	}
	slices.SortFunc(out, func(a, b *Run) int { return strings.Compare(a.id, b.id) })
	return out
}

// Len is the number of runs.
func (g *Registry) Len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.runs)
}

// Delete stops and removes the run with id.
func (g *Registry) Delete(id string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	e, ok := g.runs[id]
	if !ok {
		return ErrNotFound
	}
	g.remove(id, e)
	return nil
}

// remove stops a run; g.mu must be held. Its steps so far stay counted in
// Stats (the few it may take while stopping are not).
func (g *Registry) remove(id string, e *entry) {
	g.retired[e.run.Spec().Name] += e.run.StepsTaken()
	delete(g.runs, id)
	g.spent -= e.bytes
	if e.bytes >= returnBytes {
		g.returnMemory(e.run.Done())
	}
	e.bytes = 0
	g.release(e.client)
	e.cancel()
}

// returnBytes is the estimate from which a removed run's memory is given
// back to the operating system as soon as the run has stopped: Go's
// scavenger returns freed pages over minutes, so a server whose users
// create and delete dear runs held the peak of them all (four cycles of a
// 250 MB NUTS run left it at 740 MiB resident, the heap in use at 15).
const returnBytes = 64 << 20

// returnMemory waits for a run's goroutine to end (done) and returns the
// freed heap to the operating system; a shutdown does not wait. The
// goroutine holds the channel alone, not the run, so the run's memory is
// unreachable by then.
func (g *Registry) returnMemory(done <-chan struct{}) {
	g.wg.Go(func() {
		select {
		case <-done:
			debug.FreeOSMemory()
		case <-g.ctx.Done():
		}
	})
}

// admitChange admits a live run's new workload w: within the bounds of a
// run, and, when dearer than the run counts, within what the other runs
// leave. The run then counts at the dearer of the two.
func (g *Registry) admitChange(e *entry, w cost.Workload) error {
	c := cost.Estimate(w)
	if err := g.cfg.Budget.checkCost(w, c); err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.runs[e.run.id] != e || c.Bytes <= e.bytes {
		return nil // removed (its commands fail as they reach it), or no dearer
	}
	if others := g.spent - e.bytes; others+c.Bytes > g.cfg.Budget.TotalBytes {
		return totalError(w, c, others, g.cfg.Budget.TotalBytes)
	}
	g.spent += c.Bytes - e.bytes
	e.bytes = c.Bytes
	return nil
}

// Spent returns the memory the runs are estimated to hold together, as
// the budget counts it.
func (g *Registry) Spent() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.spent
}

// RunKey groups runs for Stats.
type RunKey struct {
	Status Status
	Method string
}

// Stats is a snapshot of the registry, for monitoring.
type Stats struct {
	Runs    map[RunKey]int   // live runs by status and method
	Viewers int              // stream viewers over every run
	Steps   map[string]int64 // steps taken by method since the registry started, deleted runs included
}

// Stats returns a snapshot of the runs, their viewers and their steps.
func (g *Registry) Stats() Stats {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := Stats{Runs: make(map[RunKey]int), Steps: make(map[string]int64, len(g.retired))}
	for m, n := range g.retired {
		s.Steps[m] = n
	}
	for _, e := range g.runs {
		m := e.run.Spec().Name
		s.Runs[RunKey{Status: e.run.Latest().Status, Method: m}]++
		s.Viewers += e.run.Viewers()
		s.Steps[m] += e.run.StepsTaken()
	}
	return s
}

// Watch counts a viewer in on the run with id. release counts it out; when
// the last viewer leaves, the idle clock starts.
func (g *Registry) Watch(id string) (run *Run, release func(), err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	e, ok := g.runs[id]
	if !ok {
		return nil, nil, ErrNotFound
	}
	leave := e.run.AddViewer()
	var once sync.Once
	return e.run, func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			leave()
			e.idleSince = time.Now()
		})
	}, nil
}

// janitor pauses runs nobody watches and deletes abandoned ones.
func (g *Registry) janitor() {
	every := max(10*time.Millisecond, min(g.cfg.IdleTimeout, g.cfg.ExpireAfter)/4)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-g.ctx.Done():
			return
		case now := <-t.C:
			g.sweep(now)
		}
	}
}

func (g *Registry) sweep(now time.Time) {
	var idle []*Run
	g.mu.Lock()
	for id, e := range g.runs {
		if e.run.Viewers() > 0 {
			continue
		}
		switch unwatched := now.Sub(e.idleSince); {
		case unwatched >= g.cfg.ExpireAfter:
			g.log.Info("run expired", "run", id, "unwatched", unwatched.Round(time.Second))
			g.remove(id, e)
		case unwatched >= g.cfg.IdleTimeout && e.run.Latest().Status == StatusRunning:
			idle = append(idle, e.run)
		}
	}
	g.mu.Unlock()
	for _, r := range idle {
		ctx, cancel := context.WithTimeout(g.ctx, time.Second)
		if err := r.Pause(ctx); err == nil {
			g.log.Info("run paused: nobody is watching", "run", r.id)
		}
		cancel()
	}
}

// Close stops every run and the janitor and waits for their goroutines:
// a step in flight of a method polling sim.Env.Stop stops within its next
// poll. Later Creates fail with ErrRegistryClosed.
func (g *Registry) Close() {
	g.mu.Lock()
	g.closed = true
	for id, e := range g.runs {
		g.remove(id, e)
	}
	g.mu.Unlock()
	g.cancel()
	done := make(chan struct{})
	go func() {
		g.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(closeWait):
		// A method that does not poll (sim.Env.Stop) finishes its
		// step first; one stuck inside it is left.
		g.log.Error("runs did not stop in time; leaving them", "waited", closeWait)
	}
}

// closeWait bounds how long Close waits for runs to stop.
const closeWait = 10 * time.Second
