package fbnn

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/gp"
	"github.com/posterior-playground/playground/sim/model"
)

// Name is the method's catalogue name.
const Name = "fbnn"

// Fixed settings.
const (
	initLogStd = -4.0 // ρ of every weight at Init (see initWeights)
	maxBatch   = 100  // training inputs per step; all of them up to this
)

// Kernel names (the `kernel` control's options), those of package gp.
const (
	KernelRBF      = gp.RBF
	KernelPeriodic = gp.Periodic
)

// Prior fitting modes (the `prior_fit` control's options).
const (
	FitML   = "ml"
	FitNone = "none"
)

// Method is fBNN on the shared BNN. Create it with New.
type Method struct {
	sim.Env               // the engine's: its log, and Stop polled before every particle's pass
	layers  []model.Layer // model.DefaultArch's

	controls sim.Controls
	prior    gp.Kernel // the zero-mean GP prior p(f) in use
	k        int       // particles
	mRand    int       // random measurement points per step

	x, y    []float64 // training data
	boxLo   float64   // measurement points are uniform on [boxLo, boxHi]
	boxHi   float64
	batch   int   // training inputs per step
	perm    []int // permutation for batches (N > maxBatch)
	rng     *rand.Rand
	evalRng *rand.Rand // Predict only, so frames never shift training

	// Flat parameter slabs of P weights, row-major layer after layer.
	mu, ls   []float64 // posterior means and log stds
	gmu, gls []float64 // gradients of the loss
	std      []float64
	dw       []float64

	// The output layer's full covariance (outcov.go): the strictly lower
	// part of its Cholesky factor, nOut×nOut, and its gradient.
	outOff, nOut int
	lo, glo      []float64
	meanField    bool // tests only: keep L diagonal (the mean-field family)

	params, grads []*mat.Dense
	adam          *numeric.Adam

	st   *stepBufs  // sized for (k, mRand)
	pred *model.Net // one draw on the last Predict grid
	pw   []float64  // Predict's weights and noise
	pe   []float64

	// Last step's values, for Trace.
	lastKL, lastLL float64
	lastJ          int

	scoreEst int // scoreGauss or scoreSSGE (tests only)

	noise float64 // fixed observation noise std (the GP fit's)
	inj   float64 // injected noise std
	ready bool
}

// New returns an uninitialised method; the only model is "bnn" ("" means
// it too).
func New(modelName string) (sim.Method, error) {
	switch modelName {
	case "", model.BNN:
		return &Method{}, nil
	}
	return nil, &sim.FieldError{Field: "model", Message: fmt.Sprintf("unknown model %q for %s (allowed: %s)", modelName, Name, model.BNN)}
}

// Spec describes the method and its controls.
func (m *Method) Spec() sim.MethodSpec {
	s := sim.MethodSpec{
		Name:   Name,
		Label:  "Functional VI (fBNN)",
		Family: sim.FamilyVI,
		Models: []string{model.BNN},
		Controls: []sim.ControlSpec{
			{Name: "kernel", Label: "GP prior kernel", Help: "covariance of the functional prior: rbf, or periodic (carries a repeating pattern beyond the data)", Default: sim.Choice(KernelRBF), Options: []string{KernelRBF, KernelPeriodic}, Live: true},
			{Name: "prior_fit", Label: "Prior fit", Help: "ml: fit variance, lengthscale and period to the data by GP marginal likelihood (at Init, and again when the kernel changes); none: use the sliders. A slider moved later overrides its fitted value", Default: sim.Choice(FitML), Options: []string{FitML, FitNone}, Live: true},
			{Name: "variance", Label: "Prior variance", Help: "c², the prior's variance of f(x)", Min: fitMinVar, Max: fitMaxVar, Step: 0.01, Default: sim.Num(1), Log: true, Live: true, Unit: sim.UnitY2},
			{Name: "lengthscale", Label: "Lengthscale", Help: "ℓ of the kernel (for periodic, of sin(π(x−x')/p))", Min: fitMinLen, Max: fitMaxLen, Step: 0.01, Default: sim.Num(1), Log: true, Live: true, Unit: sim.UnitX},
			{Name: "period", Label: "Period", Help: "p of the periodic kernel", Min: fitMinPer, Max: fitMaxPer, Step: 0.01, Default: sim.Num(1), Log: true, Live: true, Unit: sim.UnitX},
			{Name: "measurement_points", Label: "Measurement points", Help: "M random inputs per step, uniform over the plotting range, where the KL to the prior is measured (with the training inputs)", Min: 1, Max: 200, Step: 1, Default: sim.Num(40), Integer: true, Live: true},
			{Name: "particles", Label: "Function samples", Help: "k samples of f per step, for the likelihood and the entropy gradient (a Gaussian fitted to them; the paper uses 100). A step's cost grows with k: 20 runs 2.4–2.6× faster than 50, but its entropy gradient is 0.86 of the truth where 50's is 0.95, so the band narrows", Min: 4, Max: 100, Step: 1, Default: sim.Num(defaultParticles), Integer: true, Live: true},
			{Name: "injected_noise", Label: "Injected noise", Help: "std of the noise added to f before the KL terms, so the prior is K + σ²I: the reference uses 0.01, which a 2×50 ReLU network cannot match against a periodic prior (it collapses to a constant)", Min: 0.01, Max: 0.5, Step: 0.01, Default: sim.Num(defaultInjected), Log: true, Live: true, Unit: sim.UnitY},
			{Name: "lr", Label: "Learning rate", Help: "Adam step size", Min: 1e-4, Max: 0.1, Step: 1e-4, Default: sim.Num(defaultLR), Log: true, Live: true},
		},
		Traces:    []string{"noise_std", "kl_sur", "exp_loglik", "ssge_j", "prior_variance", "prior_lengthscale", "prior_period"},
		TraceInfo: traceInfo(),

		MaxPoints: sim.MaxDataPoints, MaxPointsWhy: "the upload limit: a step uses a batch of at most 100 points",
	}
	s.Controls = append(s.Controls, model.ArchControls()...)
	return s
}

// NoiseStd returns the fixed observation noise std (the GP fit's).
func (m *Method) NoiseStd() float64 {
	if !m.ready {
		return 0
	}
	return m.noise
}

// Trace returns the noise std; the last step's KL surrogate (CE − S_H, whose
// gradient, not value, is the KL's) and expected log-likelihood (whole data
// set); the number of SSGE eigenfunctions; and the prior's hyperparameters
// in use (the period is carried, unused, under rbf).
func (m *Method) Trace() []float64 {
	if !m.ready {
		return make([]float64, len(m.Spec().Traces))
	}
	return []float64{m.NoiseStd(), m.lastKL, m.lastLL, float64(m.lastJ), m.prior.Variance, m.prior.Lengthscale, m.prior.Period}
}

// Extras are the noise.
func (m *Method) Extras() sim.Extras { return sim.Extras{NoiseStd: m.NoiseStd} }

var (
	_ sim.Method     = (*Method)(nil)
	_ sim.Extender   = (*Method)(nil)
	_ sim.EnvSetter  = (*Method)(nil)
	_ sim.EvalSeeder = (*Method)(nil)
)

// SeedEval restarts the evaluation stream (sim.EvalSeeder).
func (m *Method) SeedEval(seed uint64) { m.evalRng = rand.New(rand.NewPCG(seed, ^seed)) }
