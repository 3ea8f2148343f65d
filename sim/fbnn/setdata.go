package fbnn

import (
	"slices"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// SetData makes d the training data from the next step on (sim.DataSetter):
// q(w) and Adam's moments carry on; the GP prior's noise (and, when fitted,
// its kernel) is fitted again to d, as Init fits it, and the batches are
// drawn from d. The measurement box is the plotting grid, which an edit
// keeps.
func (m *Method) SetData(d *sim.Dataset) error {
	if !m.ready {
		return &sim.FieldError{Field: "data", Message: Name + ": not initialised"}
	}
	if d.Task != "" && d.Task != sim.Regression {
		return &sim.FieldError{Field: "data", Message: Name + " supports regression data only"}
	}
	if err := model.CheckData(Name, d); err != nil {
		return &sim.FieldError{Field: "data", Message: err.Error()}
	}
	if lo, hi := slices.Min(d.X), slices.Max(d.X); lo < m.boxLo || hi > m.boxHi {
		return &sim.FieldError{Field: "data", Message: Name + ": an edited point lies outside the measurement box"}
	}
	m.x, m.y = slices.Clone(d.X), slices.Clone(d.Y)
	m.prior = m.controlPrior()
	m.refit(m.controls["prior_fit"].Choice == FitML)
	m.batch = min(len(m.x), maxBatch)
	m.perm = m.perm[:0]
	for i := range m.x {
		m.perm = append(m.perm, i)
	}
	m.st = newStepBufs(m.layers, len(m.mu), m.k, m.batch, m.mRand)
	return nil
}

var _ sim.DataSetter = (*Method)(nil)
