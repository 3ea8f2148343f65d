package gallery

import (
	"container/list"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/target"
)

// CacheConfig bounds a Cache. Its zero value is the default.
type CacheConfig struct {
	// GridSize is the cells per axis of every grid, in
	// [target.MinGridSize, target.MaxGridSize]; 0 means MinGridSize.
	GridSize int
	// MaxGrids bounds the entries kept, in [1, 1024]; 0 means 32.
	MaxGrids int
	// MaxBytes bounds the entries' memory (Exact.Bytes summed), at least
	// one entry's; 0 means 256 MiB.
	MaxBytes int64
}

// Defaults of a zero CacheConfig.
const (
	DefaultMaxGrids = 32
	DefaultMaxBytes = 256 << 20
)

// ReferenceDraws is the number of exact reference draws an Exact holds.
const ReferenceDraws = 1000

// Exact is a target's exact answer as the gallery uses it: the grid in
// the coordinates the methods step in, the grid in the coordinates the
// page shows (the same grid unless the target is target.Displayed) and
// reference draws from the shown grid. It is immutable and shared.
type Exact struct {
	Key    string        // target name and canonical controls
	Target target.Target // the target the methods step on
	// Grid is the exact answer in Target's coordinates: KL(q‖p) of a fit
	// is computed on it (KL does not depend on the coordinates).
	Grid *target.Grid
	// Shown is the exact answer in the shown coordinates: moments, errors
	// and the report's exact_mean and exact_sd are taken from it.
	Shown *target.Grid
	// Reference holds ReferenceDraws independent draws from Shown, drawn
	// with a fixed stream, for the energy distance.
	Reference []target.Point
	// Bytes is the entry's approximate memory, what the cache bounds.
	Bytes int64
}

// ToShown maps a point from Target's coordinates to the shown ones.
func (e *Exact) ToShown(p target.Point) target.Point {
	if d, ok := e.Target.(target.Displayed); ok {
		return d.ToShown(p)
	}
	return p
}

// Cache holds exact answers by target and controls, computing each once
// however many callers ask for it at the same time, and dropping the
// least recently used past its bounds. It is safe for concurrent use; its
// zero value is not ready: use NewCache.
type Cache struct {
	cfg     CacheConfig
	mu      sync.Mutex
	entries map[string]*entry
	lru     list.List // of *entry, most recently used at the front
	bytes   int64
	stats   CacheStats
}

// CacheStats counts a cache's work.
type CacheStats struct {
	Entries  int   // entries held
	Bytes    int64 // their memory
	Computed int64 // exact answers computed (each once per key while held)
	Hits     int64 // requests served from an entry or an answer in flight
	Evicted  int64 // entries dropped past the bounds
}

type entry struct {
	key  string
	done chan struct{} // closed once ex or err is set
	ex   *Exact
	err  error
	elem *list.Element // nil until computed
}

// NewCache returns an empty cache, checking cfg's ranges.
func NewCache(cfg CacheConfig) (*Cache, error) {
	if cfg.GridSize == 0 {
		cfg.GridSize = target.MinGridSize
	}
	if cfg.MaxGrids == 0 {
		cfg.MaxGrids = DefaultMaxGrids
	}
	if cfg.MaxBytes == 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.GridSize < target.MinGridSize || cfg.GridSize > target.MaxGridSize {
		return nil, rangeError("grid_size", float64(cfg.GridSize), target.MinGridSize, target.MaxGridSize)
	}
	if cfg.MaxGrids < 1 || cfg.MaxGrids > 1024 {
		return nil, rangeError("max_grids", float64(cfg.MaxGrids), 1, 1024)
	}
	if one := entryBytes(cfg.GridSize, 2); cfg.MaxBytes < one {
		return nil, &sim.FieldError{Field: "max_bytes", Message: fmt.Sprintf("%d is below one entry's %d bytes", cfg.MaxBytes, one)}
	}
	return &Cache{cfg: cfg, entries: map[string]*entry{}}, nil
}

// entryBytes is the memory of an entry of uniform grids n cells a side:
// each holds two n² fields (cell masses, log densities) and two
// marginals. Two such grids bound any entry: one on sinh-mapped axes
// holds three n² fields.
func entryBytes(n, grids int) int64 {
	return int64(grids)*(2*int64(n)*int64(n)+2*int64(n))*8 + ReferenceDraws*16
}

// Key returns the cache key of a target: its name and every control with
// defaults filled in, sorted, so that equal targets share a key. It
// checks the name and the controls as target.New does.
func Key(name string, controls sim.Controls) (string, error) {
	if _, err := target.New(name, controls); err != nil {
		return "", err
	}
	spec, _ := target.Lookup(name)
	var b strings.Builder
	b.WriteString(name)
	cs := slices.Clone(spec.Controls)
	slices.SortFunc(cs, func(a, b sim.ControlSpec) int { return strings.Compare(a.Name, b.Name) })
	for i, c := range cs {
		v := c.Default
		if x, ok := controls[c.Name]; ok {
			v = x
		}
		b.WriteString(map[bool]string{true: "?", false: "&"}[i == 0])
		b.WriteString(c.Name + "=" + strconv.FormatFloat(v.Num, 'g', -1, 64))
	}
	return b.String(), nil
}

// Exact returns the exact answer for the named built-in target and
// controls, computing it unless it is held or being computed. A caller
// that finds it in flight waits for it or for ctx; the computation
// itself is bounded (GridSize² evaluations per grid) and finishes even if
// the caller that started it gives up, so that others waiting get it. A
// bad name or control is a *sim.FieldError; a failed computation is not
// cached.
func (c *Cache) Exact(ctx context.Context, name string, controls sim.Controls) (*Exact, error) {
	key, err := Key(name, controls)
	if err != nil {
		return nil, err
	}
	return c.get(ctx, key, func() (target.Target, error) { return target.New(name, controls) })
}

// ExactFor is Exact for a target the caller built (a typed density),
// held under key: the caller's promise that equal keys are equal targets
// (a typed density's source text, say). Its keys are apart from the
// built-in targets'.
func (c *Cache) ExactFor(ctx context.Context, key string, t target.Target) (*Exact, error) {
	if key == "" || t == nil {
		return nil, &sim.FieldError{Field: "target", Message: "want a target and a key for it"}
	}
	return c.get(ctx, "for:"+key, func() (target.Target, error) { return t, nil })
}

// get returns the entry under key, computing it from build's target if
// no one holds or is computing it.
func (c *Cache) get(ctx context.Context, key string, build func() (target.Target, error)) (*Exact, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		c.stats.Hits++
		if e.elem != nil {
			c.lru.MoveToFront(e.elem)
		}
		c.mu.Unlock()
		select {
		case <-e.done:
			return e.ex, e.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	e := &entry{key: key, done: make(chan struct{})}
	c.entries[key] = e
	c.stats.Computed++
	c.mu.Unlock()

	e.ex, e.err = compute(key, build, c.cfg.GridSize)

	c.mu.Lock()
	if e.err != nil {
		delete(c.entries, key)
	} else {
		e.elem = c.lru.PushFront(e)
		c.bytes += e.ex.Bytes
		c.evict(e)
	}
	c.mu.Unlock()
	close(e.done)
	return e.ex, e.err
}

// evict drops the least recently used entries other than keep while the
// cache is over a bound.
func (c *Cache) evict(keep *entry) {
	for c.lru.Len() > c.cfg.MaxGrids || c.bytes > c.cfg.MaxBytes {
		old := c.lru.Back().Value.(*entry)
		if old == keep {
			return
		}
		c.lru.Remove(old.elem)
		delete(c.entries, old.key)
		c.bytes -= old.ex.Bytes
		c.stats.Evicted++
	}
}

// Stats returns the cache's counts.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Entries, s.Bytes = c.lru.Len(), c.bytes
	return s
}

// compute builds the target and its grids.
func compute(key string, build func() (target.Target, error), n int) (*Exact, error) {
	t, err := build()
	if err != nil {
		return nil, err
	}
	g, err := target.NewGrid(t, n)
	if err != nil {
		return nil, err
	}
	ex := &Exact{Key: key, Target: t, Grid: g, Shown: g, Bytes: g.Bytes() + ReferenceDraws*16}
	if d, ok := t.(target.Displayed); ok {
		if ex.Shown, err = target.NewGrid(d.Shown(), n); err != nil {
			return nil, err
		}
		ex.Bytes += ex.Shown.Bytes()
	}
	ex.Reference = make([]target.Point, ReferenceDraws)
	if err := ex.Shown.Draws(ex.Reference, referenceStream()); err != nil {
		return nil, err
	}
	return ex, nil
}

// referenceStream is the fixed stream of every entry's reference draws.
func referenceStream() *rand.Rand { return numeric.NewStream(0x9e3779b97f4a7c15, 0) }

// rangeError is a *sim.FieldError for x outside [lo, hi].
func rangeError(field string, x, lo, hi float64) error {
	return &sim.FieldError{Field: field, Message: fmt.Sprintf("%g is outside the allowed range [%g, %g]", x, lo, hi)}
}
