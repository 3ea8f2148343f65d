package livi

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

const halfLog2Pi = 0.91893853320467274178032973640561763986139747363778 // ½ log 2π

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
func newBNNModel(method, name string, d *sim.Dataset) (*bnnModel, error) {
	if d == nil {
		return nil, errors.New(method + ": Init needs a data set and a random source")
	}
	if d.N() == 0 || len(d.Y) != d.N() {
		return nil, fmt.Errorf("%s: data set %q has %d inputs and %d targets; want the same positive number", method, d.Name, len(d.X), len(d.Y))
	}
	if name == "" {
		name = d.DefaultModel
	}
	if name == "" {
		name = model.BNN
	}
	b := &bnnModel{name: name}
	switch name {
	case model.BNN:
		b.arch = model.DefaultArch()
	case model.Linear:
		b.arch = model.Arch{Widths: []int{1, 1}}
	default:
		return nil, modelError(method, name)
	}
	b.task = d.Task
	switch b.task {
	case "":
		b.task = sim.Regression
	case sim.Regression, sim.Classification:
	default:
		return nil, fmt.Errorf("%s: unsupported task %q", method, b.task)
	}
	for i := range d.X {
		x, y := d.X[i], d.Y[i]
		if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
			return nil, fmt.Errorf("%s: data point %d (%g, %g) is not finite", method, i, x, y)
		}
		if b.task == sim.Classification && y != 0 && y != 1 {
			return nil, fmt.Errorf("%s: classification target %d is %g; want 0 or 1", method, i, y)
		}
	}
	b.x = append([]float64(nil), d.X...)
	b.y = append([]float64(nil), d.Y...)
	for l := 0; l < b.arch.Layers(); l++ {
		ly := model.Layer{Off: b.p, Rows: b.arch.InDim(l), Cols: b.arch.OutDim(l)}
		b.layers = append(b.layers, ly)
		b.p += ly.Rows * ly.Cols
	}
	return b, nil
}

// setPriorScale sets every layer's prior std to s/√(fan-in+1).
func (b *bnnModel) setPriorScale(s float64) {
	for l := range b.layers {
		b.layers[l].PriorStd = b.arch.PriorStd(l, s)
	}
}

// heInit fills w with He-normal draws, std √(2/(fan-in+1)), as mfvi
// initialises its means: the initial function is neither flat nor exploding.
func (b *bnnModel) heInit(w []float64, r *rand.Rand) {
	for _, ly := range b.layers {
		he := math.Sqrt(2 / float64(ly.Rows))
		for i := ly.Off; i < ly.Off+ly.Rows*ly.Cols; i++ {
			w[i] = he * r.NormFloat64()
		}
	}
}

// logLik returns log p(y | f) for the network outputs in t and, with grad
// set, writes d(−scale·log p)/df into t.OutGrad() and returns
// d(−scale·log p)/d log σ as dNoise.
func (b *bnnModel) logLik(t *model.Net, logNoise, scale float64, grad bool) (ll, dNoise float64) {
	var g []float64
	if grad {
		g = t.OutGrad()
	}
	if b.task == sim.Classification {
		for i, f := range t.Out {
			y := b.y[i]
			ll += numeric.BernoulliLogitLogPMF(y, f)
			if grad {
				g[i] = -scale * (y - numeric.Sigmoid(f))
			}
		}
		return ll, 0
	}
	inv := math.Exp(-2 * logNoise)
	var ss float64
	for i, f := range t.Out {
		r := b.y[i] - f
		ss += r * r
		if grad {
			g[i] = -scale * r * inv
		}
	}
	n := float64(len(t.Out))
	return -n*(halfLog2Pi+logNoise) - 0.5*ss*inv, -scale * (ss*inv - n)
}

// logPrior returns log p(w) under the layers' N(0, σ_l²) priors and, when dw
// is not nil, adds d(−scale·log p)/dw = scale·w/σ_l² into it.
func (b *bnnModel) logPrior(w, dw []float64, scale float64) float64 {
	var lp float64
	for _, ly := range b.layers {
		ip := 1 / (ly.PriorStd * ly.PriorStd)
		n := ly.Rows * ly.Cols
		var w2 float64
		for i := ly.Off; i < ly.Off+n; i++ {
			w2 += w[i] * w[i]
			if dw != nil {
				dw[i] += scale * w[i] * ip
			}
		}
		lp -= float64(n)*(halfLog2Pi+math.Log(ly.PriorStd)) + 0.5*w2*ip
	}
	return lp
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
