package gp

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// VIName is the catalogue name of the variational GP.
const VIName = "gpvi"

// VI is Opper–Archambeau Gaussian variational inference for a GP with a
// factorising likelihood. Create it with NewVI.
type VI struct {
	ready bool
	task  sim.Task
	x, y  []float64
	n     int

	controls    sim.Controls
	kern        kernel
	lik         lik
	likName     string // resolved likelihood (never Auto)
	expect      string // GaussHermite, Adaptive or MonteCarlo
	mcSamples   int
	learnKernel bool
	learnNoise  bool

	rng     *rand.Rand // training draws (Monte Carlo ε)
	evalRng *rand.Rand // ELBO, IWBO and Predict draws
	gh      ghRule
	panels  panelRule

	// Parameters: α (N×1), ρ = log λ (N×1), kernel hyperparameters
	// (1×3: log c², log ℓ, log p), log noise scale (1×1); and the gradients
	// of the loss −F/N with respect to them.
	alpha, rho, hyp, logScale     *mat.Dense
	gAlpha, gRho, gHyp, gLogScale *mat.Dense
	lr                            float64 // α's damped Newton step (newtonMean)
	adamRho, adamHyp, adamNoise   *numeric.Adam
	pRho, dRho                    []*mat.Dense
	pHyp, dHyp, pNoise, dNoise    []*mat.Dense
	resid, sqrtT, solve, chol     []float64 // newtonMean's buffers: N, N, N, N×N

	tape *numeric.Tape
	k    *mat.Dense // K + Jitter·I on the training inputs (a tape Param)
	// kernDirty marks k stale after a change of the kernel's parameters.
	kernDirty bool
	eye       *mat.Dense
	gm, gv    *mat.Dense // ∂E/∂m, ∂E/∂v, constants on the tape
	mean      []float64  // m = Kα after the last evaluation
	vars      []float64  // Σ_nn after the last evaluation
	eps       []float64  // Monte Carlo draws, N·mcSamples

	ell, kl float64 // expected log-likelihood and KL of the last evaluation
}

// NewVI returns an uninitialised gpvi method. GP methods have no
// weight-space model: model may be "" or a data set's default, and is
// ignored.
func NewVI(model string) (sim.Method, error) {
	if err := checkModel(VIName, model); err != nil {
		return nil, err
	}
	return &VI{}, nil
}

// Spec describes gpvi and its controls.
func (m *VI) Spec() sim.MethodSpec {
	cs := kernelControls("Gaussian noise std or Cauchy scale (the initial value when learned)", 1)
	cs = append(cs,
		sim.ControlSpec{Name: "likelihood", Label: "Likelihood", Help: "p(y|f): auto is bernoulli for classification data and gaussian for regression", Default: sim.Choice(Auto), Options: []string{Auto, Gaussian, Cauchy, Bernoulli}, Live: true},
		sim.ControlSpec{Name: "expectation", Label: "Expectation", Help: "E_q[log p(y|f)] by 20-point Gauss–Hermite (GPflow's default), adaptive Gauss–Legendre panels (accurate to ~1e-10 even for a Cauchy much narrower than q), or reparameterised Monte Carlo", Default: sim.Choice(GaussHermite), Options: []string{GaussHermite, Adaptive, MonteCarlo}, Live: true},
		sim.ControlSpec{Name: "mc_samples", Label: "MC samples", Help: "draws per data point when expectation is monte-carlo", Min: 1, Max: 64, Step: 1, Default: sim.Num(1), Integer: true, Live: true},
		sim.ControlSpec{Name: "lr", Label: "Learning rate", Help: "step size: the fraction of a Newton step the mean takes, and Adam's step size on −F/N for log λ and the learned kernel and noise", Min: 1e-4, Max: 0.5, Step: 1e-4, Default: sim.Num(0.01), Log: true, Live: true},
	)
	return sim.MethodSpec{
		Name:      VIName,
		Label:     "Variational GP (Opper–Archambeau)",
		Family:    sim.FamilyVI,
		Controls:  cs,
		Traces:    []string{"lengthscale", "variance", "period", "noise", "kl", "exp_loglik"},
		TraceInfo: traceInfo(true),

		MaxPoints: MaxVIPoints, MaxPointsWhy: "a step factorises N×N matrices, whose cost grows as N³: at this bound one step takes under 100 ms",
	}
}

// Init sets gpvi up on d: α = 0 and λ = 1 (GPflow's initialisation). It
// draws two words from r to seed the evaluation stream; every later training
// draw (Monte Carlo expectations only) comes from r.
func (m *VI) Init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	if err := checkData(VIName, d); err != nil {
		return err
	}
	if r == nil {
		return fmt.Errorf("%s: Init needs a random source", VIName)
	}
	cs := maps.Clone(c)
	task := d.Task
	if task == "" {
		task = sim.Regression
	}
	if _, err := resolveLik(cs["likelihood"].Choice, task, d.Y); err != nil {
		return err
	}
	n := d.N()
	m.task, m.n = task, n
	m.x = append([]float64(nil), d.X...)
	m.y = append([]float64(nil), d.Y...)
	m.evalRng = rand.New(rand.NewPCG(r.Uint64(), r.Uint64()))
	m.rng = r
	m.gh = newGHRule(GHPoints)
	m.panels = newPanelRule()

	m.alpha, m.rho = mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
	m.hyp, m.logScale = mat.NewDense(1, 3, nil), mat.NewDense(1, 1, nil)
	m.gAlpha, m.gRho = mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
	m.gHyp, m.gLogScale = mat.NewDense(1, 3, nil), mat.NewDense(1, 1, nil)
	m.pRho, m.dRho = []*mat.Dense{m.rho}, []*mat.Dense{m.gRho}
	m.pHyp, m.dHyp = []*mat.Dense{m.hyp}, []*mat.Dense{m.gHyp}
	m.pNoise, m.dNoise = []*mat.Dense{m.logScale}, []*mat.Dense{m.gLogScale}
	lr := cs["lr"].Num
	m.adamRho = numeric.NewAdam(numeric.DefaultAdam(lr))
	m.adamHyp = numeric.NewAdam(numeric.DefaultAdam(lr))
	m.adamNoise = numeric.NewAdam(numeric.DefaultAdam(lr))

	m.tape = numeric.NewTape()
	m.k = mat.NewDense(n, n, nil)
	m.eye = mat.NewDense(n, n, nil)
	for i := range n {
		m.eye.Set(i, i, 1)
	}
	m.gm, m.gv = mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
	m.resid, m.sqrtT, m.solve = make([]float64, n), make([]float64, n), make([]float64, n)
	m.chol = make([]float64, n*n)
	m.mean, m.vars = make([]float64, n), make([]float64, n)

	m.controls = cs
	for _, name := range []string{"kernel", "variance", "lengthscale", "period", "noise", "likelihood", "expectation", "mc_samples", "learn_kernel", "learn_noise", "lr"} {
		m.apply(name, cs[name])
	}
	m.ready = true
	_, m.ell, m.kl = m.evaluate(false, Adaptive)
	return nil
}

// resolveLik maps the likelihood control to a likelihood for the task,
// rejecting Bernoulli on targets other than 0 and 1.
func resolveLik(name string, task sim.Task, y []float64) (string, error) {
	if name == Auto {
		name = Gaussian
		if task == sim.Classification {
			name = Bernoulli
		}
	}
	if name == Bernoulli {
		for i, v := range y {
			if v != 0 && v != 1 {
				return "", &sim.FieldError{Field: "likelihood", Message: fmt.Sprintf("bernoulli needs targets 0 or 1; target %d is %g (use gaussian or cauchy for regression data)", i, v)}
			}
		}
	}
	return name, nil
}

// apply sets one validated control (Init has sized every buffer).
func (m *VI) apply(name string, v sim.Value) {
	switch name {
	case "kernel":
		m.kern.periodic = v.Choice == Periodic
	case "variance":
		m.kern.logVar = math.Log(v.Num)
	case "lengthscale":
		m.kern.logLen = math.Log(v.Num)
	case "period":
		m.kern.logPer = math.Log(v.Num)
	case "noise":
		m.logScale.Set(0, 0, math.Log(v.Num))
	case "likelihood":
		m.likName, _ = resolveLik(v.Choice, m.task, m.y)
		switch m.likName {
		case Gaussian:
			m.lik = likGaussian
		case Cauchy:
			m.lik = likCauchy
		default:
			m.lik = likBernoulli
		}
	case "expectation":
		m.expect = v.Choice
	case "mc_samples":
		m.mcSamples = int(v.Num)
		m.eps = make([]float64, m.n*m.mcSamples)
	case "learn_kernel":
		on := v.Num == 1
		if on && !m.learnKernel {
			m.adamHyp.Reset()
		}
		m.learnKernel = on
	case "learn_noise":
		on := v.Num == 1
		if on && !m.learnNoise {
			m.adamNoise.Reset()
		}
		m.learnNoise = on
	case "lr":
		m.lr = v.Num
		m.adamRho.SetLR(v.Num)
		m.adamHyp.SetLR(v.Num)
		m.adamNoise.SetLR(v.Num)
	}
	m.syncHyp()
	m.kernDirty = true
}

// syncHyp copies the kernel's log-parameters into the Adam matrix.
func (m *VI) syncHyp() {
	m.hyp.Set(0, 0, m.kern.logVar)
	m.hyp.Set(0, 1, m.kern.logLen)
	m.hyp.Set(0, 2, m.kern.logPer)
}

// Set changes a live control from the next step on (every control is
// live: kernel changes rebuild K at the next step, and α, λ carry over). It
// validates v and changes nothing on error.
func (m *VI) Set(name string, v sim.Value) error {
	if !m.ready {
		return fmt.Errorf("%s: %w", VIName, errNotReady)
	}
	if name == "likelihood" {
		if _, err := resolveLik(v.Choice, m.task, m.y); err != nil {
			return err
		}
	}
	m.apply(name, v)
	m.controls[name] = v
	return nil
}

// NoiseStd returns the likelihood's scale: the Gaussian noise std, the
// Cauchy scale γ (a Cauchy has no std; γ is its half-width at half
// maximum), and 0 for the Bernoulli likelihood.
func (m *VI) NoiseStd() float64 {
	if !m.ready || m.lik == likBernoulli {
		return 0
	}
	return math.Exp(m.logScale.At(0, 0))
}

// Trace returns lengthscale, variance, period, noise scale, KL(q‖p) and the
// expected log-likelihood Σ E_q log p(y_n|z_n) of the last step.
func (m *VI) Trace() []float64 {
	if !m.ready {
		return make([]float64, 6)
	}
	return []float64{m.kern.lengthscale(), m.kern.variance(), m.kern.period(), m.NoiseStd(), m.kl, m.ell}
}

// Likelihood returns the likelihood in use (gaussian, cauchy or bernoulli).
func (m *VI) Likelihood() string { return m.likName }

// Extras are the noise, both evidence bounds and the closed-form
// predictive moments.
func (m *VI) Extras() sim.Extras {
	return sim.Extras{NoiseStd: m.NoiseStd, ELBO: m.ELBO, IWBO: m.IWBO, PredictMoments: m.PredictMoments}
}

var (
	_ sim.Method     = (*VI)(nil)
	_ sim.Extender   = (*VI)(nil)
	_ sim.EvalSeeder = (*VI)(nil)
)

// SeedEval restarts the evaluation stream (sim.EvalSeeder).
func (m *VI) SeedEval(seed uint64) { m.evalRng = rand.New(rand.NewPCG(seed, ^seed)) }
