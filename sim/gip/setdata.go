package gip

import (
	"fmt"
	"math"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
	"gonum.org/v1/gonum/mat"
)

// SetData makes d the training data from the next step on (sim.DataSetter).
// The inducing inputs, pseudo-outputs, precisions, noise and Adam's
// moments carry on: q(W) is defined by the inducing points, not by the
// data, which enter only the ELBO's likelihood. It refuses d with fewer
// points than inducing points (the engine clamps the control and starts
// again).
func (m *Method) SetData(d *sim.Dataset) error {
	if m.d == nil {
		return &sim.FieldError{Field: "data", Message: "gip: not initialised"}
	}
	if err := model.CheckData("gip", d); err != nil {
		return &sim.FieldError{Field: "data", Message: err.Error()}
	}
	if d.Task != "" && d.Task != sim.Regression {
		return &sim.FieldError{Field: "data", Message: "gip has a Gaussian likelihood and supports regression data only"}
	}
	if d.N() < m.m {
		return &sim.FieldError{Field: "data", Message: fmt.Sprintf("%d points is fewer than the %d inducing points", d.N(), m.m)}
	}
	n := d.N()
	m.d = d
	m.x = mat.NewDense(n, 1, append([]float64(nil), d.X...))
	m.y = mat.NewDense(n, 1, append([]float64(nil), d.Y...))
	m.tr, m.ev = nil, nil // N changed: new tape and buffers
	return nil
}

// NumInducing is the number M of inducing inputs.
func (m *Method) NumInducing() int { return m.m }

// SetInducing moves the first layer's inducing input i to x, model units
// (sim.Extras.SetInducing). Adam's moments for it carry on.
func (m *Method) SetInducing(i int, x float64) error {
	if m.u0 == nil || i < 0 || i >= m.m {
		return &sim.FieldError{Field: "n", Message: fmt.Sprintf("%d is not an inducing input's index in [0, %d]", i, m.m-1)}
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return &sim.FieldError{Field: "value", Message: fmt.Sprintf("%g is not a finite input", x)}
	}
	m.u0.Set(i, 0, x)
	return nil
}

// InducingView is the view "inducing": the first layer's inducing inputs
// in the user's units, for markers on the predictive plot's x-axis.
type InducingView struct {
	X []float64 `json:"x"`
}

// inducingView returns the current inducing inputs in the user's units.
func (m *Method) inducingView() InducingView {
	v := InducingView{X: make([]float64, m.m)}
	for i := range m.m {
		v.X[i] = m.d.XScale.ToUser(m.u0.At(i, 0))
	}
	return v
}

var _ sim.DataSetter = (*Method)(nil)
