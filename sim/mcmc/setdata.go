package mcmc

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// SetData makes d the target's data from the next transition on
// (sim.DataSetter). Every chain carries on from where it is, but the
// warm-up starts again: the step size and metric adapted to the old
// posterior, and the draws kept so far were of it, so they are dropped.
func (m *Method) SetData(d *sim.Dataset) error {
	name := m.kind.name()
	if !m.ready {
		return &sim.FieldError{Field: "data", Message: name + ": not initialised"}
	}
	if err := model.CheckData(name, d); err != nil {
		return &sim.FieldError{Field: "data", Message: err.Error()}
	}
	prob, err := m.problemFor(d)
	if err != nil {
		return err
	}
	if prob.dim() != m.prob.dim() {
		return &sim.FieldError{Field: "data", Message: fmt.Sprintf("%s: the edited data change the target's dimension", name)}
	}
	thetas := make([][]float64, len(m.chains))
	for k, c := range m.chains {
		thetas[k] = slices.Clone(c.theta)
	}
	src := m.chains[0].rng // the chains' streams seed the new ones: a run stays a function of its seed and edits
	if err := m.initProblem(prob, m.controls, rand.New(rand.NewPCG(src.Uint64(), src.Uint64()))); err != nil {
		return err
	}
	for k, c := range m.chains {
		if k < len(thetas) {
			copy(c.theta, thetas[k])
			c.k.init(c) // at the carried-over point
		}
	}
	m.paths = m.paths[:0]
	m.recordPaths()
	return nil
}

// problemFor builds the target on d for the model Init resolved, as Init
// does.
func (m *Method) problemFor(d *sim.Dataset) (problem, error) {
	x, y := slices.Clone(d.X), slices.Clone(d.Y)
	cs := m.controls
	switch m.model {
	case model.Linear:
		if d.Task == sim.Classification {
			return nil, &sim.FieldError{Field: "data", Message: "the linear model needs regression data"}
		}
		if d.N() < 4 {
			return nil, &sim.FieldError{Field: "data", Message: fmt.Sprintf("%s: the linear model's posterior (flat priors) needs at least 4 points, have %d", m.kind.name(), d.N())}
		}
		if fn := cs[model.FixedNoise].Num; fn > 0 {
			return newLinearHeld(x, y, fn, cs["prior_scale"].Num), nil
		}
		return &linear{x: x, y: y}, nil
	case model.BNN:
		dd := *d
		dd.X, dd.Y = x, y
		arch, err := model.ArchFromControls(cs)
		if err != nil {
			return nil, err
		}
		return newBNN(arch, &dd, cs["prior_scale"].Num), nil
	}
	return nil, &sim.FieldError{Field: "data", Message: fmt.Sprintf("unknown model %q", m.model)}
}

var _ sim.DataSetter = (*Method)(nil)
