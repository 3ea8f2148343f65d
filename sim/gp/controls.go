package gp

import (
	"errors"
	"fmt"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// DefaultNoise is the default observation noise scale: e^−2, the OA seed's
// initial Cauchy log-scale (and the scale gp-cauchy's data were drawn with).
const DefaultNoise = 0.1353352832366127 // e^−2

// kernelControls are the controls both methods share: the kernel and its
// hyperparameters, the noise scale and the type-II toggles.
func kernelControls(noiseHelp string, learnNoiseDefault float64) []sim.ControlSpec {
	return []sim.ControlSpec{
		{Name: "kernel", Label: "Kernel", Help: "covariance function: exponentiated quadratic (rbf) or periodic", Default: sim.Choice(RBF), Options: []string{RBF, Periodic}, Live: true},
		{Name: "variance", Label: "Kernel variance c²", Help: "c², the prior variance of f", Min: 1e-3, Max: 100, Step: 1e-3, Default: sim.Num(1), Log: true, Live: true, Unit: sim.UnitY2},
		{Name: "lengthscale", Label: "Lengthscale ℓ", Help: "ℓ, how far apart inputs decorrelate", Min: 0.01, Max: 100, Step: 0.01, Default: sim.Num(1), Log: true, Live: true, Unit: sim.UnitX},
		{Name: "period", Label: "Period p", Help: "p of the periodic kernel (ignored by rbf)", Min: 0.05, Max: 100, Step: 0.01, Default: sim.Num(1), Log: true, Live: true, Unit: sim.UnitX},
		{Name: "noise", Label: "Noise scale σ", Help: noiseHelp, Min: 1e-3, Max: 10, Step: 1e-3, Default: sim.Num(DefaultNoise), Log: true, Live: true, Unit: sim.UnitY},
		{Name: "learn_kernel", Label: "Learn kernel", Help: "on: fit variance, lengthscale (and period) by type-II maximum likelihood; off: keep the sliders' values", Min: 0, Max: 1, Step: 1, Default: sim.Num(0), Integer: true, Live: true, Toggle: true},
		{Name: "learn_noise", Label: "Learn noise", Help: "on: fit the noise scale by maximising the objective; off: keep the slider's value", Min: 0, Max: 1, Step: 1, Default: sim.Num(learnNoiseDefault), Integer: true, Live: true, Toggle: true},
	}
}

// checkData validates a data set for a GP method (model.CheckData's checks:
// 0/1 targets for classification, finite points).
func checkData(name string, d *sim.Dataset) error {
	if d == nil {
		return fmt.Errorf("%s: Init needs a data set", name)
	}
	return model.CheckData(name, d)
}

// checkModel accepts the names a GP method may be handed as a model: "",
// "gp", or a data set's DefaultModel (bnn, linear), which GP methods ignore
// (sim.Dataset.DefaultModel); anything else is a mistake worth reporting.
func checkModel(method, name string) error {
	switch name {
	case "", "gp", model.BNN, model.Linear:
		return nil
	}
	return &sim.FieldError{Field: "model", Message: fmt.Sprintf("method %s is a GP and takes no weight-space model (got %q)", method, name)}
}

var errNotReady = errors.New("Set before Init")
