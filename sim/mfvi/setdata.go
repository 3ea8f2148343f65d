package mfvi

import (
	"slices"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// SetData makes d the training data from the next step on (sim.DataSetter):
// q(w), the noise and Adam's moments carry on; the ELBO's likelihood and
// its 1/N scaling now sum over d.
func (m *Method) SetData(d *sim.Dataset) error {
	if !m.ready {
		return &sim.FieldError{Field: "data", Message: Name + ": not initialised"}
	}
	if err := checkSameTask(Name, m.task, d); err != nil {
		return err
	}
	m.x, m.y = slices.Clone(d.X), slices.Clone(d.Y)
	m.train = model.NewNet(m.layers, m.x, true)
	return nil
}

// checkSameTask refuses data of another task than the method's.
func checkSameTask(method string, task sim.Task, d *sim.Dataset) error {
	if err := model.CheckData(method, d); err != nil {
		return &sim.FieldError{Field: "data", Message: err.Error()}
	}
	t := d.Task
	if t == "" {
		t = sim.Regression
	}
	if t != task {
		return &sim.FieldError{Field: "data", Message: method + ": the edited data are of another task"}
	}
	return nil
}

var _ sim.DataSetter = (*Method)(nil)
