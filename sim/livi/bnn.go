package livi

import (
	"errors"
	"fmt"
	"math"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// bnnModel is what the three methods share: the network (or the linear
// model as a network without hidden layers), its prior and the likelihood of
// the training data.
type bnnModel struct {
	name   string
	arch   model.Arch
	task   sim.Task
	layers []model.Layer
	p      int // number of weights
	x, y   []float64
}

func modelError(method, name string) error {
	return &sim.FieldError{Field: "model", Message: fmt.Sprintf("unknown model %q for %s (allowed: %s, %s)", name, method, model.BNN, model.Linear)}
}

// checkModel accepts the names New accepts.
func checkModel(method, name string) error {
	switch name {
	case "", model.BNN, model.Linear:
		return nil
	}
	return modelError(method, name)
}

// newBNNModel validates d and resolves the model name ("" means the data
// set's default, then bnn).
func newBNNModel(method, name string, d *sim.Dataset, c sim.Controls) (*bnnModel, error) {
	if d == nil {
		return nil, errors.New(method + ": Init needs a data set and a random source")
	}
	if err := model.CheckData(method, d); err != nil {
		return nil, err
	}
	name = model.Resolve(name, d)
	arch, ok, err := model.ArchOf(name, c)
	if !ok {
		return nil, modelError(method, name)
	}
	if err != nil {
		return nil, err
	}
	b := &bnnModel{name: name, arch: arch}
	b.task = d.Task
	switch b.task {
	case "":
		b.task = sim.Regression
	case sim.Regression, sim.Classification:
	default:
		return nil, fmt.Errorf("%s: unsupported task %q", method, b.task)
	}
	b.x = append([]float64(nil), d.X...)
	b.y = append([]float64(nil), d.Y...)
	b.layers, b.p = model.Layout(b.arch)
	return b, nil
}

// setPriorScale sets every layer's prior std to s/√(fan-in+1).
func (b *bnnModel) setPriorScale(s float64) {
	for l := range b.layers {
		b.layers[l].PriorStd = b.arch.PriorStd(l, s)
	}
}

// logLik returns log p(y | f) for the network outputs in t (see model.LogLik).
func (b *bnnModel) logLik(t *model.Net, logNoise, scale float64, grad bool) (ll, dNoise float64) {
	return model.LogLik(t, b.task, b.y, logNoise, scale, grad)
}

// logPrior returns log p(w) under the layers' N(0, σ_l²) priors and, when dw
// is not nil, adds d(−scale·log p)/dw = scale·w/σ_l² into it.
func (b *bnnModel) logPrior(w, dw []float64, scale float64) float64 {
	return model.LogPrior(b.layers, w, dw, scale)
}

// priorStdOf returns the prior std of weight i.
func (b *bnnModel) priorStdOf(i int) float64 {
	for _, ly := range b.layers {
		if i < ly.Off+ly.Rows*ly.Cols {
			return ly.PriorStd
		}
	}
	return math.NaN()
}

// predictNet returns buffers for xs, reusing old when its inputs are xs.
func (b *bnnModel) predictNet(old *model.Net, xs []float64) *model.Net {
	if old != nil && old.SameInputs(xs) {
		return old
	}
	return model.NewNet(b.layers, xs, false)
}

// link maps f to the reported scale: probabilities for classification.
func (b *bnnModel) link(f []float64) {
	if b.task != sim.Classification {
		return
	}
	for i, v := range f {
		f[i] = numeric.Sigmoid(v)
	}
}
