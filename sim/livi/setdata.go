package livi

import (
	"slices"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// setData points the shared model at d's points, refusing another task.
func (b *bnnModel) setData(method string, d *sim.Dataset) error {
	if err := model.CheckData(method, d); err != nil {
		return &sim.FieldError{Field: "data", Message: err.Error()}
	}
	t := d.Task
	if t == "" {
		t = sim.Regression
	}
	if t != b.task {
		return &sim.FieldError{Field: "data", Message: method + ": the edited data are of another task"}
	}
	b.x, b.y = slices.Clone(d.X), slices.Clone(d.Y)
	return nil
}

// SetData makes d the training data from the next step on (sim.DataSetter):
// the generator, the noise and Adam's moments carry on.
func (m *Method) SetData(d *sim.Dataset) error {
	if !m.ready {
		return &sim.FieldError{Field: "data", Message: Name + ": not initialised"}
	}
	if err := m.bm.setData(Name, d); err != nil {
		return err
	}
	m.train = model.NewNet(m.bm.layers, m.bm.x, true)
	return nil
}

// SetData makes d the training data from the next step on (sim.DataSetter):
// every member carries on from its weights.
func (p *Point) SetData(d *sim.Dataset) error {
	if !p.ready {
		return &sim.FieldError{Field: "data", Message: p.name + ": not initialised"}
	}
	if err := p.bm.setData(p.name, d); err != nil {
		return err
	}
	p.train = model.NewNet(p.bm.layers, p.bm.x, true)
	p.fsum = make([]float64, len(p.bm.x))
	p.fsq = make([]float64, len(p.bm.x))
	p.disagree = 0
	return nil
}

var (
	_ sim.DataSetter = (*Method)(nil)
	_ sim.DataSetter = (*Point)(nil)
)
