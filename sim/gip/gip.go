package gip

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
	"gonum.org/v1/gonum/mat"
)

// Control names.
const (
	ctlPriorScale = "prior_scale"
	ctlInducing   = "inducing"
	ctlLR         = "lr"
	ctlMC         = "mc_samples"
)

// maxInducing caps the inducing control's spec; Init and Set also reject
// more inducing points than training points.
const maxInducing = 1000

// Method is a GIP BNN. Build it with New; it is used from one goroutine.
type Method struct {
	sim.Env          // the engine's: its log (Stop and Threads unused)
	requested string // as given to New; "" means the data set's default
	modelName string // the model in use ("" until Init resolves the default)
	arch      model.Arch

	d    *sim.Dataset
	ctl  sim.Controls
	rng  *rand.Rand // training noise and inducing-point draws
	erng *rand.Rand // evaluation noise (ELBO, IWBO, Predict), so display does not perturb training

	scale       float64 // prior_scale
	m           int     // number of inducing points
	mc          int     // Monte Carlo samples per step
	freezeNoise bool    // keep log σ_n fixed: model.FixedNoise on the linear model, and tests

	// Parameters.
	u0     *mat.Dense   // U₀, M×1
	v      []*mat.Dense // V_l, M×N_l
	logLam []*mat.Dense // log λ_l, M×1
	logSig *mat.Dense   // log σ_n, 1×1

	x, y *mat.Dense // N×1 training inputs and targets
	adam *numeric.Adam
	tr   *trainer
	ev   *evaluator // on the training inputs (ELBO, IWBO)
	pev  *evaluator // on the last Predict grid's length
	iw   []float64  // IWBO's per-sample log weights

	last   struct{ elbo, kl float64 }
	warned bool // a failed step has been logged
}

// New returns an uninitialised GIP method on model "" (the data set's
// default), "bnn" or "linear".
func New(modelName string) (sim.Method, error) {
	switch modelName {
	case "", model.BNN, model.Linear:
	default:
		return nil, &sim.FieldError{Field: "model", Message: fmt.Sprintf("gip supports models %q and %q, not %q", model.BNN, model.Linear, modelName)}
	}
	m := &Method{requested: modelName, modelName: modelName}
	m.arch, _ = model.ArchFor(modelName) // "" is resolved at Init
	return m, nil
}

// Spec describes the method and its controls.
func (m *Method) Spec() sim.MethodSpec {
	models := []string{model.BNN, model.Linear}
	if m.modelName == model.Linear {
		models = []string{model.Linear, model.BNN}
	}
	var extra []sim.ControlSpec
	if m.modelName == model.Linear {
		extra = append(extra, model.FixedNoiseControl())
	} else if m.modelName == model.BNN { // "": SpecFor adds them for d's
		extra = append(extra, model.ArchControls()...)
	}
	return sim.MethodSpec{
		Name:   "gip",
		Label:  "Global inducing points",
		Family: sim.FamilyVI,
		Models: models,
		Controls: append([]sim.ControlSpec{
			{Name: ctlPriorScale, Label: "Prior scale", Help: "s in the weight prior N(0, s²/(fan-in+1))",
				Min: 0.1, Max: 10, Step: 0.01, Default: sim.Num(2), Log: true, Live: true},
			{Name: ctlInducing, Label: "Inducing points", Help: "number M of global inducing inputs (at most the number of training points)",
				Min: 1, Max: maxInducing, Step: 1, Default: sim.Num(100), Integer: true, Live: true},
			{Name: ctlLR, Label: "Learning rate", Help: "Adam step size",
				Min: 1e-4, Max: 0.1, Step: 1e-4, Default: sim.Num(0.01), Log: true, Live: true},
			{Name: ctlMC, Label: "MC samples", Help: "weight samples averaged per step",
				Min: 1, Max: 32, Step: 1, Default: sim.Num(1), Integer: true, Live: true},
		}, extra...),
		Traces:    []string{"noise_std", "kl", "mean_log_prec", "u_spread"},
		TraceInfo: traceInfo(),

		MaxPoints: sim.MaxDataPoints, MaxPointsWhy: "the upload limit: a step costs linearly in N",
	}
}

// Init sets the method up on d. It draws the inducing inputs and two
// independent generators (training, evaluation) from r.
func (m *Method) Init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	if d == nil || r == nil {
		return &sim.FieldError{Field: "data", Message: "gip needs a data set and a random source"}
	}
	if err := model.CheckData("gip", d); err != nil {
		return err
	}
	if d.Task != "" && d.Task != sim.Regression {
		return &sim.FieldError{Field: "data", Message: "gip has a Gaussian likelihood and supports regression data only"}
	}
	c = maps.Clone(c)
	n := d.N()
	name := m.modelName
	if m.requested == "" {
		name = model.Resolve("", d)
	}
	arch, ok, err := model.ArchOf(name, c)
	if !ok {
		return &sim.FieldError{Field: "model", Message: fmt.Sprintf("data set %q has default model %q; gip supports %q and %q", d.Name, name, model.BNN, model.Linear)}
	}
	if err != nil {
		return err
	}
	m.modelName, m.arch = name, arch

	m.d, m.ctl = d, c
	m.rng = rand.New(rand.NewPCG(r.Uint64(), r.Uint64()))
	m.erng = rand.New(rand.NewPCG(r.Uint64(), r.Uint64()))
	m.scale = c[ctlPriorScale].Num
	m.mc = int(c[ctlMC].Num)
	m.adam = numeric.NewAdam(numeric.DefaultAdam(c[ctlLR].Num))

	m.x = mat.NewDense(n, 1, append([]float64(nil), d.X...))
	m.y = mat.NewDense(n, 1, append([]float64(nil), d.Y...))
	m.logSig = mat.NewDense(1, 1, []float64{model.InitLogNoise})
	m.freezeNoise = false
	if fn := c[model.FixedNoise].Num; fn > 0 && m.modelName == model.Linear {
		m.logSig.Set(0, 0, math.Log(fn)) // one posterior with the samplers' (package model)
		m.freezeNoise = true
	}
	m.v, m.logLam, m.u0 = nil, nil, nil
	m.m = 0
	m.resize(int(c[ctlInducing].Num))
	return nil
}

// SpecFor fits the spec to d: at most one inducing point per training
// point, and the default M clamped to N.
func (m *Method) SpecFor(d *sim.Dataset) sim.MethodSpec {
	spec := m.Spec()
	if m.modelName == "" && model.Resolve("", d) == model.BNN {
		spec.Controls = append(spec.Controls, model.ArchControls()...)
	}
	n := float64(d.N())
	for i := range spec.Controls {
		if c := &spec.Controls[i]; c.Name == ctlInducing && n >= 1 {
			c.Max = min(c.Max, n)
			c.Default = sim.Num(min(c.Default.Num, n))
			c.Bound = "the number of training points"
		}
	}
	return spec
}

// Set changes a live control (sim.Set validates it against SpecFor).
func (m *Method) Set(name string, v sim.Value) error {
	if m.d == nil {
		return &sim.FieldError{Field: name, Message: "method is not initialised"}
	}
	switch name {
	case ctlInducing:
		m.resize(int(v.Num))
	case ctlPriorScale:
		m.scale = v.Num
	case ctlLR:
		m.adam.SetLR(v.Num)
	case ctlMC:
		m.mc = int(v.Num)
		m.tr = nil // a different recorded sequence: rebuild the tape
	}
	m.ctl[name] = v
	return nil
}

// resize sets the number of inducing points to k, keeping existing rows of
// U₀, V_l and log λ_l and filling new rows from a random subset of the
// training inputs (V rows 0, log λ 0), as at initialisation.
func (m *Method) resize(k int) {
	n := m.d.N()
	old := m.m
	u0 := mat.NewDense(k, 1, nil)
	keep := min(old, k)
	for i := range keep {
		u0.Set(i, 0, m.u0.At(i, 0))
	}
	if k > keep {
		perm := m.rng.Perm(n)
		for i := keep; i < k; i++ {
			u0.Set(i, 0, m.d.X[perm[i-keep]])
		}
	}
	m.u0 = u0

	L := m.arch.Layers()
	v := make([]*mat.Dense, L)
	ll := make([]*mat.Dense, L)
	for l := range L {
		d := m.arch.OutDim(l)
		v[l] = mat.NewDense(k, d, nil)
		ll[l] = mat.NewDense(k, 1, nil)
		if l < len(m.v) {
			v[l].Slice(0, keep, 0, d).(*mat.Dense).Copy(m.v[l].Slice(0, keep, 0, d))
			ll[l].Slice(0, keep, 0, 1).(*mat.Dense).Copy(m.logLam[l].Slice(0, keep, 0, 1))
		}
	}
	m.v, m.logLam = v, ll
	m.m = k
	m.tr = nil // shapes changed: new tape and buffers
	m.ev, m.pev = nil, nil
}

// priorStd returns σ_l for layer l at the current prior scale.
func (m *Method) priorStd(l int) float64 { return m.arch.PriorStd(l, m.scale) }

// NoiseStd returns the learned observation noise std σ_n.
func (m *Method) NoiseStd() float64 { return math.Exp(m.logSig.At(0, 0)) }

// Trace returns noise_std, the last step's KL, the mean log pseudo-precision
// over all layers, and the std of the inducing inputs.
func (m *Method) Trace() []float64 {
	var sl float64
	var cnt int
	for _, ll := range m.logLam {
		for _, x := range ll.RawMatrix().Data {
			sl += x
			cnt++
		}
	}
	_, spread := numeric.MeanStd(m.u0.RawMatrix().Data)
	return []float64{m.NoiseStd(), m.last.kl, sl / float64(cnt), spread}
}

// Extras are the noise, both evidence bounds, the view of the inducing
// inputs (joint.go) and moving one of them by hand (setdata.go).
func (m *Method) Extras() sim.Extras {
	return sim.Extras{NoiseStd: m.NoiseStd, ELBO: m.ELBO, IWBO: m.IWBO, Views: m.Views, SetInducing: m.SetInducing}
}

var (
	_ sim.Method     = (*Method)(nil)
	_ sim.Extender   = (*Method)(nil)
	_ sim.EnvSetter  = (*Method)(nil)
	_ sim.EvalSeeder = (*Method)(nil)
	_ sim.DataSpec   = (*Method)(nil)
)

// SeedEval restarts the evaluation stream (sim.EvalSeeder).
func (m *Method) SeedEval(seed uint64) { m.erng = rand.New(rand.NewPCG(seed, ^seed)) }
