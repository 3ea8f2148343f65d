package livi

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// Catalogue names of the point-estimate baselines.
const (
	NameMAP      = "map"
	NameEnsemble = "ensemble"
)

// FamilyPoint marks methods that optimise point estimates; their objective
// is the log joint log p(y|θ) + log p(θ) (an unnormalised log posterior),
// not an ELBO. sim declares no such family, so it is declared here.
const FamilyPoint sim.Family = "point"

// Point is a MAP network (one member) or a deep ensemble (K MAP networks
// from different initialisations, Lakshminarayanan et al. 2017, each with
// its own learned noise), on the same model and prior as LIVI and mfvi.
// Create it with NewMAP or NewEnsemble.
type Point struct {
	sim.Env // the engine's: Stop polled before every member's gradient
	name    string
	model   string
	bm      *bnnModel

	controls sim.Controls
	lr       float64 // for the optimisers of members added later

	rng     *rand.Rand // initialisation of members added later
	evalRng *rand.Rand // Predict's choice of members
	members []*member

	train, pred *model.Net // shared buffers: members step one after another
	fsum, fsq   []float64  // per training input: Σ_k f_k, Σ_k f_k² this step
	disagree    float64    // mean over inputs of the std across members
	frozenNoise bool       // test hook
	ready       bool
}

// member is one network and its optimiser.
type member struct {
	w, dw            []float64
	logNoise, gnoise []float64
	params, grads    []*mat.Dense
	adam             *numeric.Adam
}

// NewMAP returns an uninitialised MAP method for "bnn" or "linear" ("" is
// the data set's default).
func NewMAP(modelName string) (sim.Method, error) {
	if err := checkModel(NameMAP, modelName); err != nil {
		return nil, err
	}
	return &Point{name: NameMAP, model: modelName}, nil
}

// NewEnsemble returns an uninitialised deep ensemble for "bnn" or "linear".
func NewEnsemble(modelName string) (sim.Method, error) {
	if err := checkModel(NameEnsemble, modelName); err != nil {
		return nil, err
	}
	return &Point{name: NameEnsemble, model: modelName}, nil
}

// Spec describes the method and its controls.
func (p *Point) Spec() sim.MethodSpec {
	s := sim.MethodSpec{
		Name:   p.name,
		Label:  "MAP network",
		Family: FamilyPoint,
		Models: []string{model.BNN, model.Linear},
		Controls: []sim.ControlSpec{
			{Name: "prior_scale", Label: "Prior scale", Help: "s in the prior std s/√(fan-in+1) of every weight", Min: 0.1, Max: 10, Step: 0.01, Default: sim.Num(2), Log: true, Live: true},
			{Name: "lr", Label: "Learning rate", Help: "Adam step size", Min: 1e-4, Max: 0.1, Step: 1e-4, Default: sim.Num(0.01), Log: true, Live: true},
		},
		Traces:    []string{"noise_std", "weight_rms"},
		TraceInfo: traceInfo(),

		MaxPoints: sim.MaxDataPoints, MaxPointsWhy: "the upload limit: a step costs linearly in N",
	}
	if p.name == NameEnsemble {
		s.Label = "Deep ensemble"
		s.Controls = append(s.Controls, sim.ControlSpec{Name: "members", Label: "Members K", Help: "number of MAP networks from different initialisations; more are added or the last ones dropped", Min: 2, Max: 10, Step: 1, Default: sim.Num(5), Integer: true, Live: true})
		s.Traces = []string{"noise_std", "disagreement"}
	}
	if p.model == model.BNN { // "": SpecFor adds them for d's model
		s.Controls = append(s.Controls, model.ArchControls()...)
	}
	return s
}

// SpecFor is Spec for the model Init will use on d: the network's controls
// when it is the bnn.
func (p *Point) SpecFor(d *sim.Dataset) sim.MethodSpec {
	if p.model != "" {
		return p.Spec()
	}
	return (&Point{name: p.name, model: model.Resolve("", d)}).Spec()
}

// Init sets the method up on d. Randomness is drawn from r in this order:
// two words seeding the evaluation stream, then each member's initial
// weights (He-normal, as mfvi's means) from its own stream seeded by two
// words of r. Training itself is deterministic (full batch).
func (p *Point) Init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	if r == nil {
		return errors.New(p.name + ": Init needs a data set and a random source")
	}
	bm, err := newBNNModel(p.name, p.model, d, c)
	if err != nil {
		return err
	}
	p.model = bm.name
	cs := maps.Clone(c)
	p.bm = bm
	p.evalRng = rand.New(rand.NewPCG(r.Uint64(), r.Uint64()))
	p.rng = r
	p.members = p.members[:0]
	p.controls = cs
	bm.setPriorScale(cs["prior_scale"].Num)
	p.lr = cs["lr"].Num
	k := 1
	if p.name == NameEnsemble {
		k = int(cs["members"].Num)
	}
	p.resize(k)
	p.train = model.NewNet(bm.layers, bm.x, true)
	p.pred = nil
	p.fsum = make([]float64, len(bm.x))
	p.fsq = make([]float64, len(bm.x))
	p.disagree = 0
	p.frozenNoise = false
	p.ready = true
	return nil
}

// resize keeps the first k members, adding new ones drawn from p.rng.
func (p *Point) resize(k int) {
	for len(p.members) < k {
		r := rand.New(rand.NewPCG(p.rng.Uint64(), p.rng.Uint64()))
		n := p.bm.p
		slab := make([]float64, 2*n+2)
		mb := &member{w: slab[:n:n], dw: slab[n : 2*n : 2*n], logNoise: slab[2*n : 2*n+1], gnoise: slab[2*n+1:]}
		model.HeInit(p.bm.layers, mb.w, r)
		mb.logNoise[0] = model.InitLogNoise
		mb.params = []*mat.Dense{mat.NewDense(1, n, mb.w), mat.NewDense(1, 1, mb.logNoise)}
		mb.grads = []*mat.Dense{mat.NewDense(1, n, mb.dw), mat.NewDense(1, 1, mb.gnoise)}
		mb.adam = numeric.NewAdam(numeric.DefaultAdam(p.lr))
		p.members = append(p.members, mb)
	}
	clear(p.members[k:])
	p.members = p.members[:k]
}

// Set changes a live control from the next step on; it validates v and
// changes nothing on error.
func (p *Point) Set(name string, v sim.Value) error {
	if !p.ready {
		return fmt.Errorf("%s: Set before Init", p.name)
	}
	switch name {
	case "prior_scale":
		p.bm.setPriorScale(v.Num)
	case "lr":
		p.lr = v.Num
		for _, mb := range p.members {
			mb.adam.SetLR(v.Num)
		}
	case "members":
		p.resize(int(v.Num))
	}
	p.controls[name] = v
	return nil
}

// Step takes one Adam step on −(log p(y|θ) + log p(θ))/N for every member.
// Objective is the members' mean log joint before the update. It allocates
// nothing after the first call.
func (p *Point) Step() sim.StepStats {
	if !p.ready {
		return sim.StepStats{Objective: math.NaN()}
	}
	clear(p.fsum)
	clear(p.fsq)
	var obj float64
	for _, mb := range p.members {
		if p.Interrupted() {
			return sim.StepStats{Objective: math.NaN()} // the engine discards the half-stepped ensemble
		}
		obj += p.memberGrad(mb)
		for i, f := range p.train.Out {
			p.fsum[i] += f
			p.fsq[i] += f * f
		}
		if p.frozenNoise {
			mb.gnoise[0] = 0
		}
		mb.adam.Step(mb.params, mb.grads)
	}
	k := float64(len(p.members))
	var sd float64
	for i, s := range p.fsum {
		mean := s / k
		sd += math.Sqrt(max(p.fsq[i]/k-mean*mean, 0))
	}
	p.disagree = sd / float64(len(p.fsum))
	return sim.StepStats{Objective: obj / k, Evals: int64(len(p.members))} // one gradient per member
}

// memberGrad sets mb's gradient of −log joint/N and returns the log joint.
func (p *Point) memberGrad(mb *member) float64 {
	scale := 1 / float64(len(p.bm.x))
	p.train.Forward(p.bm.layers, mb.w)
	ll, dn := p.bm.logLik(p.train, mb.logNoise[0], scale, true)
	mb.gnoise[0] = dn
	p.train.Backward(p.bm.layers, mb.w, mb.dw)
	return ll + p.bm.logPrior(mb.w, mb.dw, scale)
}

// Predict returns samples functions (probabilities for classification):
// sample s is member (o + s) mod K for a uniformly drawn offset o, so each
// sample is a uniform draw from the members and the members appear equally
// often. For MAP every sample is the one network's function.
func (p *Point) Predict(xs []float64, samples int) sim.Predictive {
	out := sim.Predictive{X: append([]float64(nil), xs...)}
	if !p.ready || samples < 1 || len(xs) == 0 {
		return out
	}
	p.pred = p.bm.predictNet(p.pred, xs)
	k := len(p.members)
	o := p.evalRng.IntN(k)
	fs := make([][]float64, k)
	out.Samples = make([][]float64, samples)
	for s := range out.Samples {
		i := (o + s) % k
		if fs[i] == nil {
			p.pred.Forward(p.bm.layers, p.members[i].w)
			fs[i] = append([]float64(nil), p.pred.Out...)
			p.bm.link(fs[i])
		}
		out.Samples[s] = append([]float64(nil), fs[i]...)
	}
	return out
}

// NoiseStd returns the observation noise std: for an ensemble the root mean
// of the members' variances, the noise of their mixture's average member.
func (p *Point) NoiseStd() float64 {
	if !p.ready || p.bm.task == sim.Classification {
		return 0
	}
	var v float64
	for _, mb := range p.members {
		v += math.Exp(2 * mb.logNoise[0])
	}
	return math.Sqrt(v / float64(len(p.members)))
}

// Trace returns the noise std and, for MAP, the root mean square weight; for
// an ensemble, the members' disagreement: the std across members of f at a
// training input, averaged over the inputs, at the last step.
func (p *Point) Trace() []float64 {
	if !p.ready {
		return make([]float64, 2)
	}
	if p.name == NameEnsemble {
		return []float64{p.NoiseStd(), p.disagree}
	}
	var s float64
	for _, w := range p.members[0].w {
		s += w * w
	}
	return []float64{p.NoiseStd(), math.Sqrt(s / float64(len(p.members[0].w)))}
}

// Extras are the noise.
func (p *Point) Extras() sim.Extras { return sim.Extras{NoiseStd: p.NoiseStd} }

var (
	_ sim.Method     = (*Point)(nil)
	_ sim.Extender   = (*Point)(nil)
	_ sim.EnvSetter  = (*Point)(nil)
	_ sim.EvalSeeder = (*Point)(nil)
	_ sim.DataSpec   = (*Point)(nil)
)

// SeedEval restarts the evaluation stream (sim.EvalSeeder).
func (p *Point) SeedEval(seed uint64) { p.evalRng = rand.New(rand.NewPCG(seed, ^seed)) }
