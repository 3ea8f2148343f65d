package gallery

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/target"
)

// EngineMethod is a gallery method on one exact answer as the run
// engine's problem (a target.Method): Init builds a Run, Step takes one
// step of it (one transition of every chain, or one optimiser step), Set
// sets a live control, and the plane (plane.go) is what the engine's
// plane recorder puts into its frames. It is used by one goroutine at a
// time, like the Run it wraps.
type EngineMethod struct {
	ex     *Exact
	spec   MethodSpec
	chains int
	run    *Run
	pl     planeState
	exact  *PlaneExact // made on the first ask
}

// NewEngineMethod makes method, with chains chains (a sampler's; 0 the
// default), a target.Method on ex: every bad field is a
// *sim.FieldError naming it.
func NewEngineMethod(ex *Exact, method string, chains int) (*EngineMethod, error) {
	cfg := RunConfig{Method: method, Chains: chains}
	spec, err := checkRun(&cfg)
	if err != nil {
		return nil, err
	}
	return &EngineMethod{ex: ex, spec: spec, chains: cfg.Chains}, nil
}

// Spec is the engine's spec of the method: its controls, and its family
// (MCMC for a sampler, VI for a variational family).
func (m *EngineMethod) Spec() sim.MethodSpec {
	fam := sim.FamilyVI
	if m.spec.Sampler {
		fam = sim.FamilyMCMC
	}
	return sim.MethodSpec{Name: m.spec.Name, Label: m.spec.Label, Family: fam, Controls: m.spec.Controls}
}

// Init builds a new Run of the method on t, which must be the exact
// answer's target, seeded from r.
func (m *EngineMethod) Init(t target.Target, c sim.Controls, r *rand.Rand) error {
	if t != m.ex.Target {
		return &sim.FieldError{Field: "target", Message: fmt.Sprintf("%s: not the target this method's exact answer is of (%s)", t.Name(), m.ex.Target.Name())}
	}
	run, err := NewRunOn(m.ex, RunConfig{Method: m.spec.Name, MethodControls: c, Chains: m.chains, Seed: r.Uint64()})
	if err != nil {
		return err
	}
	m.run, m.pl = run, planeState{}
	return nil
}

// Step takes one step. Its objective is the ELBO for a family with a
// density, the log density at the last chain's position for a sampler
// (one evaluation outside the budget), 0 for SVGD; its Evals are the
// budget the step spent (Run.Evals).
func (m *EngineMethod) Step() sim.StepStats {
	before := m.run.Evals()
	_ = m.run.Step(context.Background(), 1) // 1 is in range, and the context is never done
	var obj float64
	switch {
	case m.run.dens != nil:
		obj = m.run.dens.Objective().ELBO
	case m.run.fit == nil:
		c := m.run.chains[len(m.run.chains)-1]
		obj = m.ex.Target.LogDensity(c.Position())
	}
	if math.IsInf(obj, -1) {
		obj = -math.MaxFloat64 // a chain at the edge of the support has not diverged
	}
	return sim.StepStats{Objective: obj, Evals: m.run.Evals() - before}
}

// Set sets a live control.
func (m *EngineMethod) Set(name string, v sim.Value) error { return m.run.Set(name, v) }

// Trace returns no traces: the plane and its history show the run.
func (m *EngineMethod) Trace() []float64 { return nil }

// Run is the gallery run the method steps (nil before Init).
func (m *EngineMethod) Run() *Run { return m.run }

// qInterval is the shortest time between two of q's density grids in the
// plane: 4,096 evaluations of log q and 40 kB of a frame each.
const qInterval = 200 * time.Millisecond

var _ target.Method = (*EngineMethod)(nil)

// PlaneExact is the exact answer's part of the plane, made once.
func (m *EngineMethod) PlaneExact() any {
	if m.exact == nil {
		m.exact = NewPlaneExact(m.ex)
	}
	return m.exact
}

// PlaneHistory is the run's history against the truth and its length.
func (m *EngineMethod) PlaneHistory() (any, int) {
	h := m.run.History(nil)
	return h, len(h)
}
