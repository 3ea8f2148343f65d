package gp

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// ExactName is the catalogue name of the exact GP.
const ExactName = "gp-exact"

// The most training points each GP method takes (MethodSpec.MaxPoints): a
// step factorises N×N matrices, so its cost grows as N³. BenchmarkStepSizes
// (-cpu 1, everything learned, on the 2-core development machine shared by
// several engineers, load average up to 14) measured one step of gp-exact at
// 20–88 ms for N = 400 (30–220 ms at 500), and of gpvi in its three costly
// settings at 8–77 ms for N = 300 (28–220 ms at 400): at these bounds a
// step stays under about 100 ms even on a busy core, and a run answers.
const (
	MaxExactPoints = 400
	MaxVIPoints    = 300
)

// Exact is conjugate GP regression with Gaussian noise: the posterior and
// the log marginal likelihood log N(y; 0, K + εI + σ²I) in closed form.
// Create it with NewExact.
type Exact struct {
	ready bool
	task  sim.Task
	x, y  []float64
	n     int

	controls    sim.Controls
	kern        kernel
	learnKernel bool
	learnNoise  bool
	evalRng     *rand.Rand

	hyp, logNoise   *mat.Dense // 1×3 (log c², log ℓ, log p), 1×1 (log σ)
	gHyp, gLogNoise *mat.Dense // gradients of −LML/N
	adamHyp         *numeric.Adam
	adamNoise       *numeric.Adam
	pHyp, dHyp      []*mat.Dense
	pNoise, dNoise  []*mat.Dense

	tape      *numeric.Tape
	k, eye    *mat.Dense // k = K + Jitter·I, refilled when kernDirty
	kernDirty bool
	yv        *mat.Dense
	lml       float64
}

// NewExact returns an uninitialised gp-exact method (model as for NewVI).
func NewExact(model string) (sim.Method, error) {
	if err := checkModel(ExactName, model); err != nil {
		return nil, err
	}
	return &Exact{}, nil
}

// Spec describes gp-exact and its controls.
func (m *Exact) Spec() sim.MethodSpec {
	cs := kernelControls("Gaussian noise std σ (the initial value when learned)", 0)
	cs = append(cs, sim.ControlSpec{Name: "lr", Label: "Learning rate", Help: "Adam step size for type-II maximum likelihood on −log p(y)/N", Min: 1e-4, Max: 0.5, Step: 1e-4, Default: sim.Num(0.01), Log: true, Live: true})
	return sim.MethodSpec{
		Name:      ExactName,
		Label:     "Exact GP (Gaussian noise)",
		Family:    sim.FamilyExact,
		Controls:  cs,
		Traces:    []string{"lengthscale", "variance", "period", "noise", "log_marginal"},
		TraceInfo: traceInfo(false),

		MaxPoints: MaxExactPoints, MaxPointsWhy: "a step factorises an N×N matrix, whose cost grows as N³: at this bound one step, with the kernel learned, takes under 100 ms",
	}
}

// Init sets gp-exact up on d (regression or 0/1 targets treated as real
// numbers). It draws two words from r to seed its prediction stream.
func (m *Exact) Init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	if err := checkData(ExactName, d); err != nil {
		return err
	}
	if r == nil {
		return fmt.Errorf("%s: Init needs a random source", ExactName)
	}
	cs := maps.Clone(c)
	n := d.N()
	m.task, m.n = d.Task, n
	m.x = append([]float64(nil), d.X...)
	m.y = append([]float64(nil), d.Y...)
	m.evalRng = rand.New(rand.NewPCG(r.Uint64(), r.Uint64()))
	m.hyp, m.logNoise = mat.NewDense(1, 3, nil), mat.NewDense(1, 1, nil)
	m.gHyp, m.gLogNoise = mat.NewDense(1, 3, nil), mat.NewDense(1, 1, nil)
	m.pHyp, m.dHyp = []*mat.Dense{m.hyp}, []*mat.Dense{m.gHyp}
	m.pNoise, m.dNoise = []*mat.Dense{m.logNoise}, []*mat.Dense{m.gLogNoise}
	m.adamHyp = numeric.NewAdam(numeric.DefaultAdam(cs["lr"].Num))
	m.adamNoise = numeric.NewAdam(numeric.DefaultAdam(cs["lr"].Num))
	m.tape = numeric.NewTape()
	m.k, m.eye = mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
	for i := range n {
		m.eye.Set(i, i, 1)
	}
	m.yv = mat.NewDense(n, 1, m.y)
	m.controls = cs
	for _, name := range []string{"kernel", "variance", "lengthscale", "period", "noise", "learn_kernel", "learn_noise", "lr"} {
		m.apply(name, cs[name])
	}
	m.ready = true
	m.lml = m.evaluate(false)
	return nil
}

func (m *Exact) apply(name string, v sim.Value) {
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
		m.logNoise.Set(0, 0, math.Log(v.Num))
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
		m.adamHyp.SetLR(v.Num)
		m.adamNoise.SetLR(v.Num)
	}
	m.hyp.Set(0, 0, m.kern.logVar)
	m.hyp.Set(0, 1, m.kern.logLen)
	m.hyp.Set(0, 2, m.kern.logPer)
	m.kernDirty = true
}

// Set changes a live control (all are live: the posterior is recomputed
// from the new hyperparameters at once).
func (m *Exact) Set(name string, v sim.Value) error {
	if !m.ready {
		return fmt.Errorf("%s: %w", ExactName, errNotReady)
	}
	m.apply(name, v)
	m.controls[name] = v
	m.lml = m.evaluate(false)
	return nil
}

// Step returns the log marginal likelihood. With learn_kernel or
// learn_noise set it first takes one Adam step of type-II maximum
// likelihood on −log p(y)/N (Objective is then the value before the step);
// otherwise it changes nothing. It allocates nothing after the first call.
func (m *Exact) Step() sim.StepStats {
	if !m.ready {
		return sim.StepStats{Objective: math.NaN()}
	}
	if !m.learnKernel && !m.learnNoise {
		return sim.StepStats{Objective: m.lml}
	}
	lml := m.evaluate(true)
	if math.IsNaN(lml) {
		return sim.StepStats{Objective: lml}
	}
	if m.learnKernel {
		m.adamHyp.Step(m.pHyp, m.dHyp)
		h := m.hyp.RawMatrix().Data
		m.kern.logVar, m.kern.logLen = h[0], h[1]
		if m.kern.periodic {
			m.kern.logPer = h[2]
		}
		h[2] = m.kern.logPer
		m.kernDirty = true
	}
	if m.learnNoise {
		m.adamNoise.Step(m.pNoise, m.dNoise)
	}
	m.lml = m.evaluate(false)
	return sim.StepStats{Objective: lml, Evals: 1} // one gradient of the log marginal
}

// evaluate returns log N(y; 0, K + εI + σ²I) through the tape, and with
// grad set writes the gradients of −LML/N into gHyp and gLogNoise.
func (m *Exact) evaluate(grad bool) float64 {
	t := m.tape
	t.Reset()
	if m.kernDirty {
		m.kern.fill(m.k.RawMatrix().Data, m.x, m.x, true)
		m.kernDirty = false
	}
	kv, lnv := t.Param(m.k), t.Param(m.logNoise)
	ky := t.Add(kv, t.Mul(t.Const(m.eye), t.Exp(t.Scale(lnv, 2))))
	l := t.Cholesky(ky)
	b := t.SolveLower(l, t.Const(m.yv))
	lml := t.Scale(t.Add(t.SumSquares(b), t.LogDetChol(l)), -0.5)
	if t.Err() != nil {
		return math.NaN()
	}
	v := t.Scalar(lml) - float64(m.n)*halfLog2Pi
	if !grad {
		return v
	}
	t.Backward(lml)
	s := -1 / float64(m.n)
	gVar, gLen, gPer := m.kern.natural().HyperGrad(t.Grad(kv).RawMatrix().Data, m.k.RawMatrix().Data, m.x)
	h := m.gHyp.RawMatrix().Data
	h[0], h[1], h[2] = s*gVar, s*gLen, s*gPer
	m.gLogNoise.Set(0, 0, s*t.Grad(lnv).At(0, 0))
	return v
}

// LogMarginal returns log p(y) = log N(y; 0, K + εI + σ²I).
func (m *Exact) LogMarginal() float64 { return m.lml }

// alphaLambda returns α = (K + εI + σ²I)⁻¹y and λ = 1/σ, the exact
// posterior in gpvi's parameterisation, through A = I + K/σ² (so that
// (K+σ²I)⁻¹ = A⁻¹/σ²).
func (m *Exact) alphaLambda() (alpha, lam []float64, err error) {
	sigma := math.Exp(m.logNoise.At(0, 0))
	lam = make([]float64, m.n)
	for i := range lam {
		lam[i] = 1 / sigma
	}
	l, _, err := factorA(&m.kern, m.x, lam)
	if err != nil {
		return nil, nil, err
	}
	alpha = make([]float64, m.n)
	for i, y := range m.y {
		alpha[i] = y / sigma
	}
	v := blas64.Vector{N: m.n, Inc: 1, Data: alpha}
	blas64.Trsv(blas.NoTrans, l, v)
	blas64.Trsv(blas.Trans, l, v)
	for i := range alpha {
		alpha[i] /= sigma
	}
	return alpha, lam, nil
}

// Posterior returns the exact posterior of f at xs:
// N(K*X (K+σ²I)⁻¹ y, K** + εI − K*X (K+σ²I)⁻¹ KX*).
func (m *Exact) Posterior(xs []float64) ([]float64, *mat.SymDense, error) {
	if !m.ready {
		return nil, nil, notReady(ExactName)
	}
	alpha, lam, err := m.alphaLambda()
	if err != nil {
		return nil, nil, err
	}
	return conditional(&m.kern, m.x, lam, alpha, xs, false)
}

// TrainPosterior returns the exact posterior of z on the training inputs
// (jittered prior K + εI, as gpvi's q(z)).
func (m *Exact) TrainPosterior() ([]float64, *mat.SymDense, error) {
	if !m.ready {
		return nil, nil, notReady(ExactName)
	}
	alpha, lam, err := m.alphaLambda()
	if err != nil {
		return nil, nil, err
	}
	return conditional(&m.kern, m.x, lam, alpha, m.x, true)
}

// Predict draws samples functions f from the exact posterior on xs (no
// observation noise).
func (m *Exact) Predict(xs []float64, samples int) sim.Predictive {
	if !m.ready {
		return sim.Predictive{X: append([]float64(nil), xs...)}
	}
	mean, cov, err := m.Posterior(xs)
	return predict(mean, cov, err, xs, samples, false, m.evalRng)
}

// PredictMoments writes the exact posterior mean and std of f at xs.
func (m *Exact) PredictMoments(xs, mean, std []float64) bool {
	if !m.ready {
		return false
	}
	mu, cov, err := m.Posterior(xs)
	return momentsTo(mean, std, mu, cov, err)
}

// NoiseStd returns σ.
func (m *Exact) NoiseStd() float64 {
	if !m.ready {
		return 0
	}
	return math.Exp(m.logNoise.At(0, 0))
}

// Trace returns lengthscale, variance, period, noise σ and log p(y).
func (m *Exact) Trace() []float64 {
	if !m.ready {
		return make([]float64, 5)
	}
	return []float64{m.kern.lengthscale(), m.kern.variance(), m.kern.period(), m.NoiseStd(), m.lml}
}

// Settled reports that a Step would change nothing while neither the kernel
// nor the noise is learned: the posterior is exact and Set recomputes it.
func (m *Exact) Settled() (why string, settled bool) {
	if m.learnKernel || m.learnNoise {
		return "", false
	}
	return "exact posterior, nothing to iterate: a control change recomputes it (turn on Learn kernel or Learn noise to fit them)", true
}

// Extras are the noise, the closed-form predictive moments, the exact log
// marginal likelihood and Settled.
func (m *Exact) Extras() sim.Extras {
	return sim.Extras{NoiseStd: m.NoiseStd, PredictMoments: m.PredictMoments, LogMarginal: m.LogMarginal, Settled: m.Settled}
}

var (
	_ sim.Method     = (*Exact)(nil)
	_ sim.Extender   = (*Exact)(nil)
	_ sim.EvalSeeder = (*Exact)(nil)
)

// SeedEval restarts the evaluation stream (sim.EvalSeeder).
func (m *Exact) SeedEval(seed uint64) { m.evalRng = rand.New(rand.NewPCG(seed, ^seed)) }
