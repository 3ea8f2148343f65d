package gallery

import (
	"context"
	"fmt"
	"maps"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/family"
	"github.com/posterior-playground/playground/sim/sampler"
	"github.com/posterior-playground/playground/sim/target"
)

// Bounds of a run.
const (
	MaxChains       = 8      // a sampler's chains at most
	DefaultChains   = 4      // a sampler's chains when RunConfig.Chains is 0
	MaxKeptDraws    = 20_000 // draws a run keeps at most, over all its chains
	MaxStepsPerCall = 1 << 30
	// MaxDivergencesKept bounds where the latest divergent transitions
	// are kept for the plane.
	MaxDivergencesKept = 1000
)

// RunConfig is what a gallery run is built from. Its zero value names no
// target or method; every other zero field is the default.
type RunConfig struct {
	Target         string       // a built-in target's name (target.Specs)
	TargetControls sim.Controls // the target's controls; defaults for those not given
	Method         string       // a method's name (Methods)
	MethodControls sim.Controls // the method's controls; defaults for those not given
	// Chains is a sampler's number of chains, in [1, MaxChains]; 0 means
	// DefaultChains. A family is one fit: 0 or 1.
	Chains int
	Seed   uint64 // fixes every random stream: a seed reproduces a run bit for bit
	// MaxDraws bounds the draws kept for the plot and the diagnostics,
	// over all chains, in [Chains, MaxKeptDraws]; 0 means MaxKeptDraws.
	// Each chain keeps its latest MaxDraws/Chains; the running moments
	// behind the error in mean and covariance take every draw.
	MaxDraws int
	// Start, when set, is where every chain starts, or where q's mean
	// (SVGD: the particles' centre) starts, in the coordinates the method
	// steps in (the non-centred funnel's (v, z)): a clicked point, to
	// watch chains find the mass. Nil: a sampler's chains start at
	// independent exact draws, a family at the box's centre.
	Start *target.Point
}

// Run is one method on one target, stepped by its caller and measured
// against the exact answer. It is used by one goroutine at a time.
type Run struct {
	cfg    RunConfig
	spec   MethodSpec
	ex     *Exact
	custom bool // made by NewRunOn: the target's controls are its own

	// A sampler's chains, each keeping its latest draws (shown
	// coordinates) in a ring, and one Record for the latest transition.
	chains    []sampler.Sampler
	rings     []ring
	rec       *sampler.Record
	recChain  int
	recorded  bool
	mom       moments // every post-warm-up draw, shown coordinates
	trans     int64   // post-warm-up transitions
	divergent int64
	divAt     ring // where the latest divergent transitions ended, shown coordinates
	acceptSum float64

	// A family, and its density when it has one (not SVGD).
	fit  family.Fit
	dens family.Density

	steps int64
	hist  history
	work  work
}

// NewRun builds a run: the target's exact answer from cache, then the
// method. Unless cfg.Start says otherwise a sampler's chains start at
// independent draws from the exact answer (stationary from the first transition, so that a lecturer sees
// mixing rather than burn-in, and R̂ still flags chains that cannot cross
// between modes they started in); a family starts at the box's centre.
// Every bad field is a *sim.FieldError naming it and its range.
func NewRun(ctx context.Context, cache *Cache, cfg RunConfig) (*Run, error) {
	if _, err := checkRun(&cfg); err != nil {
		return nil, err
	}
	ex, err := cache.Exact(ctx, cfg.Target, cfg.TargetControls)
	if err != nil {
		return nil, err
	}
	return makeRun(ex, cfg)
}

// NewRunOn is NewRun on an exact answer the caller holds (from
// Cache.ExactFor, for a typed density): cfg.Target and TargetControls are
// not read, and the run's Config names ex.Target.
func NewRunOn(ex *Exact, cfg RunConfig) (*Run, error) {
	cfg.Target, cfg.TargetControls = ex.Target.Name(), nil
	r, err := makeRun(ex, cfg)
	if r != nil {
		r.custom = true
	}
	return r, err
}

// checkRun checks cfg's method, chains and draws, filling in defaults,
// and returns the method's spec.
func checkRun(cfg *RunConfig) (MethodSpec, error) {
	spec, err := methodSpec(cfg.Method, cfg.MethodControls)
	if err != nil {
		return spec, err
	}
	chains := cfg.Chains
	switch {
	case spec.Sampler && chains == 0:
		chains = DefaultChains
	case spec.Sampler && (chains < 1 || chains > MaxChains):
		return spec, rangeError("chains", float64(chains), 1, MaxChains)
	case !spec.Sampler && chains > 1 || chains < 0:
		return spec, &sim.FieldError{Field: "chains", Message: fmt.Sprintf("%d: a variational family is one fit, want 1", chains)}
	case !spec.Sampler:
		chains = 1
	}
	cfg.Chains = chains
	if cfg.MaxDraws == 0 {
		cfg.MaxDraws = MaxKeptDraws
	}
	if cfg.MaxDraws < chains || cfg.MaxDraws > MaxKeptDraws {
		return spec, rangeError("max_draws", float64(cfg.MaxDraws), float64(chains), MaxKeptDraws)
	}
	return spec, nil
}

func makeRun(ex *Exact, cfg RunConfig) (*Run, error) {
	spec, err := checkRun(&cfg)
	if err != nil {
		return nil, err
	}
	cfg.TargetControls, cfg.MethodControls = maps.Clone(cfg.TargetControls), maps.Clone(cfg.MethodControls)
	r := &Run{cfg: cfg, spec: spec, ex: ex}
	if spec.Sampler {
		err = r.startChains()
	} else {
		err = r.startFamily()
	}
	if err != nil {
		return nil, err
	}
	r.hist = newHistory()
	r.work = newWork(r)
	return r, nil
}

func (r *Run) startChains() error {
	n := r.cfg.Chains
	r.chains = make([]sampler.Sampler, n)
	r.rings = make([]ring, n)
	starts := make([]target.Point, n)
	if p := r.cfg.Start; p != nil {
		for c := range starts {
			starts[c] = *p
		}
	} else if err := r.ex.Grid.Draws(starts, numeric.NewStream(r.cfg.Seed, MaxChains)); err != nil {
		return err
	}
	for c := range n {
		s, err := sampler.New(r.cfg.Method, r.ex.Target, r.cfg.MethodControls, numeric.NewStream(r.cfg.Seed, uint64(c)), starts[c])
		if err != nil {
			return err
		}
		r.chains[c] = s
		r.rings[c] = newRing(r.cfg.MaxDraws / n)
	}
	// The most points a transition can record, whatever its controls
	// become: a proposal has none beyond Start and Proposal.
	points := map[string]int{"hmc": sampler.MaxLeapfrogs + 1, "nuts": 1 << sampler.MaxTreeDepth}[r.cfg.Method]
	r.rec = sampler.NewRecord(points)
	r.divAt = newRing(MaxDivergencesKept)
	return nil
}

func (r *Run) startFamily() error {
	fc := familyConfig(r.cfg.MethodControls, r.cfg.Seed)
	fc.Start = r.cfg.Start
	q, err := family.New(r.cfg.Method, r.ex.Target, fc)
	if err != nil {
		return err
	}
	r.fit = q
	r.dens, _ = q.(family.Density)
	return nil
}

// Config returns the run's configuration with its defaults filled in.
func (r *Run) Config() RunConfig { return r.cfg }

// Exact returns the exact answer the run is measured against.
func (r *Run) Exact() *Exact { return r.ex }

// Spec returns the run's method's spec.
func (r *Run) Spec() MethodSpec { return r.spec }

// Steps returns the steps taken: rounds of one transition per chain, or
// optimiser steps.
func (r *Run) Steps() int64 { return r.steps }

// Counts returns the target evaluations spent, density and gradient
// (summed over chains). A family's are all gradient evaluations, or all
// density evaluations under forward KL, which needs no gradient.
func (r *Run) Counts() sampler.Counts {
	if r.fit != nil {
		if r.cfg.MethodControls["divergence"].Choice == "forward_kl" {
			return sampler.Counts{Density: r.fit.Evals()}
		}
		return sampler.Counts{Gradient: r.fit.Evals()}
	}
	var c sampler.Counts
	for _, s := range r.chains {
		k := s.Counts()
		c.Density += k.Density
		c.Gradient += k.Gradient
	}
	return c
}

// Evals returns the budget spent: density plus gradient evaluations, the
// x-axis on which every method is compared (Metropolis and forward KL
// spend only density evaluations, the rest only gradient ones).
func (r *Run) Evals() int64 {
	c := r.Counts()
	return c.Density + c.Gradient
}

// Step takes n steps, checking ctx before each: n rounds of one
// transition of every chain, or n optimiser steps. The last transition
// of the last chain is recorded for View. It allocates nothing in the
// steady state (between the measurements at doublings of the budget, see
// History).
func (r *Run) Step(ctx context.Context, n int) error {
	if n < 0 || n > MaxStepsPerCall {
		return rangeError("steps", float64(n), 0, MaxStepsPerCall)
	}
	for i := range n {
		if err := ctx.Err(); err != nil {
			return err
		}
		r.step(i == n-1)
	}
	return nil
}

// StepToBudget steps until the run has spent at least budget target
// evaluations (Evals), checking ctx before each step. Runs paced to the
// same budget end within one step's cost of each other: each stops at
// the first step that reaches it.
func (r *Run) StepToBudget(ctx context.Context, budget int64) error {
	if budget < 0 {
		return &sim.FieldError{Field: "budget", Message: fmt.Sprintf("%d is negative, want a count of evaluations", budget)}
	}
	for r.Evals() < budget {
		if err := ctx.Err(); err != nil {
			return err
		}
		r.step(true)
	}
	return nil
}

// step takes one step, recording the transition when record is set.
func (r *Run) step(record bool) {
	if r.fit != nil {
		r.fit.Step()
	} else {
		last := len(r.chains) - 1
		for c, s := range r.chains {
			var rec *sampler.Record
			if record && c == last {
				rec, r.recChain, r.recorded = r.rec, c, true
			}
			tr := s.Step(rec)
			if tr.Warmup {
				continue
			}
			r.trans++
			r.acceptSum += tr.Accept
			p := r.ex.ToShown(s.Position())
			if tr.Divergent {
				r.divergent++
				r.divAt.push(p)
			}
			r.rings[c].push(p)
			r.mom.add(p)
		}
	}
	r.steps++
	r.observe()
}

// Set changes a live control between steps, checked against its spec:
// any of a sampler's (in every chain), a family's learning rate (Adam's
// moments kept). A family's other controls shape it: changing one means
// a new run.
func (r *Run) Set(name string, v sim.Value) error {
	if _, err := methodSpec(r.cfg.Method, sim.Controls{name: v}); err != nil {
		return err
	}
	if r.fit != nil {
		if name != "lr" {
			return &sim.FieldError{Field: name, Message: fmt.Sprintf("%s's %s is not live: start a new run", r.cfg.Method, name)}
		}
		if err := r.fit.SetLR(v.Num); err != nil {
			return err
		}
	}
	for _, s := range r.chains {
		if err := sampler.Set(s, name, v); err != nil {
			return err
		}
	}
	if r.cfg.MethodControls == nil {
		r.cfg.MethodControls = sim.Controls{}
	}
	r.cfg.MethodControls[name] = v
	return nil
}
