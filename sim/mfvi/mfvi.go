package mfvi

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// Name is the method's catalogue name.
const Name = "mfvi"

// Initial posterior std as a fraction of the prior std. Small initial
// variances let the means fit the data before the KL widens q; starting
// near the prior instead makes the reparameterised gradients so noisy that
// mean-field BNNs collapse to the prior (Blundell et al. 2015 start at
// softplus(−5) ≈ 7e-3; Tomczak et al. 2020 discuss the effect).
const initStdFrac = 1e-3

// Method is mean-field Gaussian VI on one model. Create it with New.
type Method struct {
	model string // requested model; "" until Init resolves it
	arch  model.Arch
	task  sim.Task

	controls   sim.Controls
	priorScale float64
	klWeight   float64
	mc         int

	x, y []float64 // copies of the training data

	rng     *rand.Rand // training draws (ε of every step)
	evalRng *rand.Rand // ELBO, IWBO and Predict, so frames never shift training

	layers []model.Layer
	// Flat parameter slabs, P = arch.NumWeights(), row-major layer after layer.
	mu, ls   []float64 // posterior means and log stds
	logNoise []float64 // 1 element: log σ of the observation noise
	gmu, gls []float64 // gradients of the loss −ELBO/N
	gnoise   []float64
	std      []float64 // exp(ls) for the current step
	eps, w   []float64 // one sample's noise and weights
	dw       []float64 // d loss / d w for one sample

	params, grads []*mat.Dense
	adam          *numeric.Adam

	train *model.Net // buffers for the training inputs
	pred  *model.Net // buffers for the last Predict grid
	iw    []float64

	frozenNoise bool // keep logNoise fixed: model.FixedNoise on the linear model, and tests
	ready       bool
}

// New returns an uninitialised method for model "bnn" or "linear"; ""
// means the data set's DefaultModel, resolved at Init.
func New(modelName string) (sim.Method, error) {
	switch modelName {
	case "", model.BNN, model.Linear:
		return &Method{model: modelName}, nil
	}
	return nil, modelError(modelName)
}

func modelError(name string) error {
	return &sim.FieldError{Field: "model", Message: fmt.Sprintf("unknown model %q for %s (allowed: %s, %s)", name, Name, model.BNN, model.Linear)}
}

// SpecFor is Spec for the model Init will use on d, whose traces differ
// (b0, b and noise_std on the linear model).
func (m *Method) SpecFor(d *sim.Dataset) sim.MethodSpec {
	if m.model != "" {
		return m.Spec()
	}
	return (&Method{model: model.Resolve("", d)}).Spec()
}

// Spec describes the method and its controls.
func (m *Method) Spec() sim.MethodSpec {
	traces := []string{"noise_std", "kl", "mean_std", "w0"}
	var extra []sim.ControlSpec
	if m.model == model.Linear {
		traces = []string{"b0", "b", "noise_std"}
		extra = append(extra, model.FixedNoiseControl())
	} else if m.model == model.BNN { // "": SpecFor adds the resolved model's
		extra = append(extra, model.ArchControls()...)
	}
	return sim.MethodSpec{
		Name:   Name,
		Label:  "Mean-field VI",
		Family: sim.FamilyVI,
		Models: []string{model.BNN, model.Linear},
		Controls: append([]sim.ControlSpec{
			{Name: "prior_scale", Label: "Prior scale", Help: "s in the prior std s/√(fan-in+1) of every weight", Min: 0.1, Max: 10, Step: 0.01, Default: sim.Num(2), Log: true, Live: true},
			{Name: "lr", Label: "Learning rate", Help: "Adam step size", Min: 1e-4, Max: 0.1, Step: 1e-4, Default: sim.Num(0.01), Log: true, Live: true},
			{Name: "mc_samples", Label: "MC samples", Help: "weight samples averaged per gradient step", Min: 1, Max: 32, Step: 1, Default: sim.Num(1), Integer: true, Live: true},
			{Name: "kl_weight", Label: "KL weight", Help: "multiplies the KL term; 1 is the true ELBO, less fits the data harder (KL annealing)", Min: 0, Max: 1, Step: 0.01, Default: sim.Num(1), Live: true},
		}, extra...),
		Traces:    traces,
		TraceInfo: traceInfo(),

		MaxPoints: sim.MaxDataPoints, MaxPointsWhy: "the upload limit: a step costs linearly in N",
	}
}

// Set changes a live control from the next step on (sim.Set validates it).
func (m *Method) Set(name string, v sim.Value) error {
	if !m.ready {
		return fmt.Errorf("%s: Set before Init", Name)
	}
	m.apply(name, v.Num)
	m.controls[name] = v
	return nil
}

// apply sets one validated control.
func (m *Method) apply(name string, v float64) {
	switch name {
	case "prior_scale":
		m.priorScale = v
		for l := range m.layers {
			m.layers[l].PriorStd = m.arch.PriorStd(l, v)
		}
	case "lr":
		m.adam.SetLR(v)
	case "mc_samples":
		m.mc = int(v)
	case "kl_weight":
		m.klWeight = v
	}
}

// NoiseStd returns the learned observation noise std (0 for classification,
// whose Bernoulli likelihood has none).
func (m *Method) NoiseStd() float64 {
	if !m.ready || m.task == sim.Classification {
		return 0
	}
	return math.Exp(m.logNoise[0])
}

// Trace returns, for the BNN, the noise std, the KL(q‖p), the mean posterior
// std over all weights and the mean of the first input weight; for the
// linear model the posterior means of b0 and b and the noise std.
func (m *Method) Trace() []float64 {
	if !m.ready {
		return make([]float64, len(m.Spec().Traces))
	}
	if m.model == model.Linear {
		// W is 2×1: row 0 multiplies x, row 1 is the bias.
		return []float64{m.mu[1], m.mu[0], m.NoiseStd()}
	}
	var s float64
	for _, l := range m.ls {
		s += math.Exp(l)
	}
	return []float64{m.NoiseStd(), m.kl(false), s / float64(len(m.ls)), m.mu[0]}
}

// Extras are the noise, both evidence bounds and the linear model's joint
// view (joint.go).
func (m *Method) Extras() sim.Extras {
	return sim.Extras{NoiseStd: m.NoiseStd, ELBO: m.ELBO, IWBO: m.IWBO, Views: m.Views}
}

var (
	_ sim.Method     = (*Method)(nil)
	_ sim.Extender   = (*Method)(nil)
	_ sim.DataSpec   = (*Method)(nil)
	_ sim.EvalSeeder = (*Method)(nil)
)

// SeedEval restarts the evaluation stream (sim.EvalSeeder).
func (m *Method) SeedEval(seed uint64) { m.evalRng = rand.New(rand.NewPCG(seed, ^seed)) }
