package livi

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
const Name = "livi"

// genHidden is the generator's hidden width h. The cost of a step is
// dominated by three D×h×d products (J = W₂M, ∇W₂ = GMᵀ, W₂ᵀG), so h is
// kept well below the paper's h ≈ D (105 there, 2701 here).
const genHidden = 64

// initSpread scales the initial W₂ rows so that each weight's initial spread
// under q is about initSpread × its prior std: small, so the likelihood
// gradients are not drowned in noise at the start (as mfvi starts with small
// variances), while the entropy term grows the spread where the data allow.
const initSpread = 0.05

// Method is LIVI on one model. Create it with New.
type Method struct {
	sim.Env // the engine's: Stop polled before every MC sample
	model   string
	bm      *bnnModel

	controls    sim.Controls
	objective   string
	sigma       float64 // output noise σ
	priorScale  float64
	priorWeight float64 // w_p: multiplies log p(θ) in the gradient only
	mc          int

	rng     *rand.Rand // training draws
	evalRng *rand.Rand // ELBO, Predict and WeightSamples

	gen      generator
	grad     genGrad
	v2       []float64 // h×D: the optimised V with W₂ᵀ = V ⊙ u
	u2       []float64 // D: u_i = 1/√((fan-in+1)·h)
	logNoise []float64 // 1 element: log σ_y
	gnoise   []float64
	params   []*mat.Dense
	grads    []*mat.Dense
	w2       *mat.Dense // gen.w2t, which Adam's step writes as V ⊙ u
	adam     *numeric.Adam

	work               *genWork  // evaluation: ELBO, Predict, WeightSamples
	tw                 *genWork  // training
	eps, theta, dtheta []float64 // length D
	train, pred        *model.Net

	// Last step's entropy term (averaged over samples) and the Jacobian of
	// its first sample, for the traces.
	// lastJ is Jᵀ in m.tw.jt (one sample) or lastJBuf (more).
	lastTerm float64
	lastJ    []float64
	lastJBuf []float64
	traceK   *symWork

	frozenNoise bool // test hook
	ready       bool
}

// New returns an uninitialised LIVI method for model "bnn" or "linear"; ""
// means the data set's DefaultModel, resolved at Init.
func New(modelName string) (sim.Method, error) {
	if err := checkModel(Name, modelName); err != nil {
		return nil, err
	}
	return &Method{model: modelName}, nil
}

// defaultNoiseDim is d for the BNN: 20 noise dimensions already give a
// 20-dimensional family of functions per seed, at ≈3·D·h·d ≈ 10 MFLOP per
// sample for the Jacobian term; the paper's d = 60–85 was for D = 105. The
// linear model has D = 2, and d > D adds nothing.
func (m *Method) defaultNoiseDim() float64 {
	if m.model == model.Linear {
		return 2
	}
	return 20
}

// SpecFor is Spec for the model Init will use on d (whose defaults differ:
// d = 2 on the linear model).
func (m *Method) SpecFor(d *sim.Dataset) sim.MethodSpec {
	if m.model != "" {
		return m.Spec()
	}
	return (&Method{model: model.Resolve("", d)}).Spec()
}

// Spec describes the method and its controls.
func (m *Method) Spec() sim.MethodSpec {
	s := sim.MethodSpec{
		Name:   Name,
		Label:  "Implicit VI (LIVI)",
		Family: sim.FamilyVI,
		Models: []string{model.BNN, model.Linear},
		Controls: []sim.ControlSpec{
			{Name: "objective", Label: "Entropy term", Help: "jacobian: ½ log det(JᵀJ + σ²I) exactly; sv-bound: its lower bound (d/2) log(s_min² + σ²)", Default: sim.Choice(objJacobian), Options: []string{objJacobian, objSVBound}, Live: true},
			{Name: "noise_dim", Label: "Noise dimension d", Help: "dimension of the generator's input noise z; a change keeps the existing columns of W₁", Min: 2, Max: 100, Step: 1, Default: sim.Num(m.defaultNoiseDim()), Integer: true, Live: true},
			{Name: "output_noise", Label: "Output noise σ", Help: "fixed std of the noise added to every generated weight", Min: 1e-4, Max: 0.1, Step: 1e-4, Default: sim.Num(0.01), Log: true, Live: true},
			{Name: "prior_scale", Label: "Prior scale", Help: "s in the prior std s/√(fan-in+1) of every weight", Min: 0.1, Max: 10, Step: 0.01, Default: sim.Num(2), Log: true, Live: true},
			{Name: "prior_weight", Label: "Prior weight", Help: "w_p multiplying log p(θ) in the training objective; 1 is the true bound, the LIVI notebook used 0.1 (the reported objective always uses 1)", Min: 0.01, Max: 1, Step: 0.01, Default: sim.Num(1), Log: true, Live: true},
			{Name: "lr", Label: "Learning rate", Help: "Adam step size", Min: 1e-4, Max: 0.1, Step: 1e-4, Default: sim.Num(1e-3), Log: true, Live: true},
			{Name: "mc_samples", Label: "MC samples", Help: "generator samples averaged per gradient step", Min: 1, Max: 16, Step: 1, Default: sim.Num(1), Integer: true, Live: true},
		},
		Traces:    []string{"noise_std", "logdet", "smin", "layer1_share"},
		TraceInfo: traceInfo(),

		MaxPoints: sim.MaxDataPoints, MaxPointsWhy: "the upload limit: a step costs linearly in N",
	}
	if m.model == model.BNN { // "": SpecFor adds them for d's model
		s.Controls = append(s.Controls, model.ArchControls()...)
	}
	return s
}

// Set changes a live control from the next step on. It validates v against
// the spec and changes nothing on error.
func (m *Method) Set(name string, v sim.Value) error {
	if !m.ready {
		return fmt.Errorf("%s: Set before Init", Name)
	}
	m.apply(name, v)
	m.controls[name] = v
	return nil
}

// apply sets one validated control.
func (m *Method) apply(name string, v sim.Value) {
	switch name {
	case "objective":
		m.objective = v.Choice
	case "noise_dim":
		if d := int(v.Num); d != m.gen.d {
			m.resizeNoise(d)
		}
	case "output_noise":
		m.sigma = v.Num
	case "prior_scale":
		m.priorScale = v.Num
		m.bm.setPriorScale(v.Num)
	case "prior_weight":
		m.priorWeight = v.Num
	case "lr":
		m.adam.SetLR(v.Num)
	case "mc_samples":
		m.mc = int(v.Num)
	}
}

// NoiseStd returns the learned observation noise std (0 for classification).
func (m *Method) NoiseStd() float64 {
	if !m.ready || m.bm.task == sim.Classification {
		return 0
	}
	return math.Exp(m.logNoise[0])
}

// NumWeights returns D, the length of θ (0 before Init).
func (m *Method) NumWeights() int {
	if !m.ready {
		return 0
	}
	return m.bm.p
}

// Trace returns the noise std, the last step's entropy term (½ log det(JᵀJ
// + σ²I), or the sv-bound when that is the objective), the smallest
// singular value of J at the last step's first sample, and layer1_share:
// the first layer's share of q's local spread tr(JJᵀ) there, which shows
// where the generator spends its d directions.
func (m *Method) Trace() []float64 {
	if !m.ready {
		return make([]float64, 4)
	}
	g := m.gen
	mulDot(m.traceK.a, m.lastJ, m.lastJ, g.d, g.d, g.out)
	smin := math.NaN()
	if m.traceK.eigen() {
		smin = math.Sqrt(max(m.traceK.eval[0], 0))
	}
	return []float64{m.NoiseStd(), m.lastTerm, smin, layerShare(m.lastJ, g.out, m.bm.layers[0])}
}

// layerShare returns Σ_{i in ly} Σ_k J_ik² / Σ_i Σ_k J_ik² for jt = Jᵀ (d×D,
// row-major), NaN if J is zero.
func layerShare(jt []float64, D int, ly model.Layer) float64 {
	lo, hi := ly.Off, ly.Off+ly.Rows*ly.Cols
	var in, all float64
	for k := 0; k+D <= len(jt); k += D {
		row := jt[k : k+D]
		for i, v := range row {
			all += v * v
			if i >= lo && i < hi {
				in += v * v
			}
		}
	}
	if all == 0 {
		return math.NaN()
	}
	return in / all
}

func (m *Method) entropyConst() float64 { return entropyConst(m.bm.p, m.gen.d, m.sigma) }

// entropyConst is D/2·(1 + log 2π) + (D−d)/2·log σ², the part of the
// linearised entropy that does not depend on the generator.
func entropyConst(D, d int, sigma float64) float64 {
	return 0.5*float64(D)*(1+2*model.HalfLog2Pi) + 0.5*float64(D-d)*math.Log(sigma*sigma)
}

// Extras are the noise and the ELBO estimate; no IWBO, which needs
// log q(θ) (eval.go).
func (m *Method) Extras() sim.Extras { return sim.Extras{NoiseStd: m.NoiseStd, ELBO: m.ELBO} }

var (
	_ sim.Method     = (*Method)(nil)
	_ sim.Extender   = (*Method)(nil)
	_ sim.EnvSetter  = (*Method)(nil)
	_ sim.EvalSeeder = (*Method)(nil)
	_ sim.DataSpec   = (*Method)(nil)
)

// SeedEval restarts the evaluation stream (sim.EvalSeeder).
func (m *Method) SeedEval(seed uint64) { m.evalRng = rand.New(rand.NewPCG(seed, ^seed)) }
