package mcmc

import (
	"fmt"
	"runtime"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// Catalogue names of the samplers.
const (
	NameMetropolis = "metropolis"
	NameSGLD       = "sgld"
	NameHMC        = "hmc"
	NameNUTS       = "nuts"
)

// maxChains is the largest `chains` value; Spec().Traces has a slot per
// chain up to it (NaN, shown as null, for chains a run does not have).
const maxChains = 8

type kind int

const (
	kindMetropolis kind = iota
	kindSGLD
	kindHMC
	kindNUTS
)

// Method is one sampler on one model. Create it with NewMetropolis,
// NewSGLD, NewHMC or NewNUTS. Like every sim.Method it is used from one
// goroutine at a time; its chains run in goroutines of their own during
// Step only.
type Method struct {
	sim.Env // the engine's: its Stop handed to every chain, its Threads
	kind    kind
	model   string // requested model; "" until Init resolves it

	ready       bool
	controls    sim.Controls
	prob        problem
	params      []string
	chains      []*chain
	work        *workers
	chainTime   time.Duration // a chain's transition, last timed (stepChains)
	minParallel time.Duration // parallelMin; tests lower it to step tiny chains in parallel
	cleanup     runtime.Cleanup
	warmup      int
	iter        int // Steps done

	trace []float64
	diag  diagCache
	paths [][][2]float64 // linear model: each chain's (b0, b) over its first pathLen transitions (joint.go)
}

// NewMetropolis returns random-walk Metropolis for model "linear" or "bnn"
// ("" means the data set's default, resolved at Init).
func NewMetropolis(modelName string) (sim.Method, error) { return newMethod(kindMetropolis, modelName) }

// NewSGLD returns stochastic-gradient Langevin dynamics.
func NewSGLD(modelName string) (sim.Method, error) { return newMethod(kindSGLD, modelName) }

// NewHMC returns Hamiltonian Monte Carlo with warm-up adaptation.
func NewHMC(modelName string) (sim.Method, error) { return newMethod(kindHMC, modelName) }

// NewNUTS returns the no-U-turn sampler with warm-up adaptation.
func NewNUTS(modelName string) (sim.Method, error) { return newMethod(kindNUTS, modelName) }

func newMethod(k kind, modelName string) (*Method, error) {
	switch modelName {
	case "", model.BNN, model.Linear:
		return &Method{kind: k, model: modelName, minParallel: parallelMin}, nil
	}
	return nil, &sim.FieldError{Field: "model", Message: fmt.Sprintf("unknown model %q for %s (allowed: %s, %s)", modelName, k.name(), model.BNN, model.Linear)}
}

func (k kind) name() string {
	return [...]string{NameMetropolis, NameSGLD, NameHMC, NameNUTS}[k]
}

func (k kind) label() string {
	return [...]string{"Random-walk Metropolis", "SGLD", "HMC", "NUTS"}[k]
}

// Spec describes the sampler, its controls and its traces.
func (m *Method) Spec() sim.MethodSpec {
	bnn := m.model != model.Linear
	cs := []sim.ControlSpec{
		{Name: "chains", Label: "Chains", Help: "independent chains, run in parallel", Min: 1, Max: maxChains, Step: 1, Default: sim.Num(4), Integer: true},
		{Name: "warmup", Label: "Warm-up", Help: "first transitions, discarded (HMC and NUTS adapt here)", Min: 0, Max: 1_000_000, Step: 1, Default: sim.Num(1000), Integer: true},
	}
	switch m.kind {
	case kindMetropolis:
		// 0.05 accepts about 75% on linreg; the BNN's 2702 dimensions need
		// a far smaller step (1e-3 accepts about 70% on gap).
		def := 0.05
		if bnn {
			def = 1e-3
		}
		cs = append(cs, sim.ControlSpec{Name: "step", Label: "Proposal std", Help: "standard deviation τ of the Gaussian random-walk proposal", Min: 1e-5, Max: 10, Step: 1e-5, Default: sim.Num(def), Log: true, Live: true})
	case kindSGLD:
		// 1e-3 is stable on linreg (ULA bias < 1%); on gap 1e-4 blows up
		// early in warm-up, 1e-5 does not.
		def := 1e-3
		if bnn {
			def = 1e-5
		}
		cs = append(cs,
			sim.ControlSpec{Name: "step", Label: "Step ε", Help: "drift (ε/2)·∇log p plus Gaussian noise of variance ε", Min: 1e-8, Max: 1, Step: 1e-8, Default: sim.Num(def), Log: true, Live: true},
			sim.ControlSpec{Name: "batch", Label: "Batch size", Help: "data points per gradient estimate (at most N)", Min: 1, Max: 100_000, Step: 1, Default: sim.Num(32), Integer: true, Live: true})
	case kindHMC:
		// L·ε is the trajectory length. With the adapted metric the linear
		// posterior is nearly a unit Gaussian and ε ≈ 0.65, so L = 3 moves
		// about a third of an orbit; L = 10 would travel a whole orbit of
		// length 2π and come back where it started.
		def := 3.0
		if bnn {
			def = 20
		}
		cs = append(cs,
			sim.ControlSpec{Name: "step", Label: "Step size ε", Help: "leapfrog step; when adapting in warm-up, its starting point; a change overrides", Min: 1e-6, Max: 10, Step: 1e-6, Default: sim.Num(0.05), Log: true, Live: true},
			sim.ControlSpec{Name: "leapfrog_steps", Label: "Leapfrog steps", Help: "leapfrog steps L per transition", Min: 1, Max: 1000, Step: 1, Default: sim.Num(def), Integer: true, Live: true},
			sim.ControlSpec{Name: "adapt", Label: "Adapt in warm-up", Help: "on: tune ε (dual averaging) and the diagonal mass matrix in warm-up; off: fixed ε, unit mass", Min: 0, Max: 1, Step: 1, Default: sim.Num(1), Integer: true, Toggle: true})
	case kindNUTS:
		cs = append(cs,
			sim.ControlSpec{Name: "step", Label: "Step size ε", Help: "starting point of warm-up adaptation; a change overrides the adapted step", Min: 1e-6, Max: 10, Step: 1e-6, Default: sim.Num(0.05), Log: true, Live: true},
			sim.ControlSpec{Name: "max_depth", Label: "Max tree depth", Help: "at most 2^depth leapfrog steps per transition", Min: 1, Max: maxTreeDepth, Step: 1, Default: sim.Num(maxTreeDepth), Integer: true, Live: true})
	}
	if bnn {
		cs = append(cs, sim.ControlSpec{Name: "prior_scale", Label: "Prior scale", Help: "s in the prior std s/√(fan-in+1) of every weight", Min: 0.1, Max: 10, Step: 0.01, Default: sim.Num(2), Log: true, Live: true})
		if m.model == model.BNN { // "": SpecFor adds them for d's model
			cs = append(cs, model.ArchControls()...)
		}
	} else {
		cs = append(cs,
			sim.ControlSpec{Name: "prior_scale", Label: "Prior scale", Help: "with a fixed noise σ: s in the prior b0, b ~ N(0, s²/2); no effect otherwise (flat priors)", Min: 0.1, Max: 10, Step: 0.01, Default: sim.Num(2), Log: true, Live: true},
			model.FixedNoiseControl())
	}
	spec := sim.MethodSpec{
		Name:      m.kind.name(),
		Label:     m.kind.label(),
		Family:    sim.FamilyMCMC,
		Models:    []string{model.BNN, model.Linear},
		Controls:  cs,
		Traces:    traceNames(m.traceParams()),
		TraceInfo: traceInfo(m.traceParams()),

		MaxPoints: sim.MaxDataPoints, MaxPointsWhy: "the upload limit: a step costs linearly in N",
	}
	// The chains step in parallel (init.go); HMC and NUTS adapt the step
	// size by dual averaging in warm-up (adapt.go).
	spec.Capabilities = []sim.Capability{sim.Parallel}
	if m.kind == kindHMC || m.kind == kindNUTS {
		spec.Capabilities = append(spec.Capabilities, sim.AdaptsStepSize)
	}
	return spec
}

// traceParams are the summarised parameters traced per chain. For the BNN
// they are the regression names (noise is NaN for classification), so the
// traces do not depend on the data set.
func (m *Method) traceParams() []string {
	if m.model == model.Linear {
		return []string{"b0", "b", "sigma"}
	}
	return []string{"noise", "f_mid", "w1[0,0]", "w2[0,0]", "w3[0,0]"}
}

// traceNames lists "param.cK" for every chain slot, parameter by
// parameter, then the chain-averaged accept_rate, step_size and the
// cumulative divergences (warm-up included).
func traceNames(params []string) []string {
	var out []string
	for _, p := range params {
		for c := 1; c <= maxChains; c++ {
			out = append(out, fmt.Sprintf("%s.c%d", p, c))
		}
	}
	return append(out, "accept_rate", "step_size", "divergences")
}

// SpecFor is Spec for the model Init will use on d (the data set's default
// when none was asked for).
func (m *Method) SpecFor(d *sim.Dataset) sim.MethodSpec {
	if m.model != "" {
		return m.Spec()
	}
	return (&Method{kind: m.kind, model: model.Resolve("", d)}).Spec()
}

// Set changes a live control from the next Step on (sim.Set validates it).
func (m *Method) Set(name string, v sim.Value) error {
	if !m.ready {
		return fmt.Errorf("%s: Set before Init", m.kind.name())
	}
	x := v.Num
	warm := m.iter < m.warmup
	for _, ch := range m.chains {
		switch k := ch.k.(type) {
		case *hmc:
			if name == "leapfrog_steps" {
				k.L = int(x)
			}
		case *sgld:
			if name == "batch" {
				k.batch = int(x)
			}
		case *nuts:
			if name == "max_depth" {
				k.maxDepth = int(x)
			}
		}
		if name == "step" {
			ch.k.setStep(x, warm)
		}
	}
	if name == "prior_scale" {
		var p interface{ setPriorScale(float64) }
		switch t := m.prob.(type) {
		case *bnn:
			p = t
		case *linearHeld:
			p = t
		}
		if p != nil {
			p.setPriorScale(x)
			for _, ch := range m.chains {
				ch.refresh()
			}
		}
	}
	m.controls[name] = v
	return nil
}

// refresh re-evaluates the chain's log density (and gradient, if it keeps
// one) after the target changed.
func (c *chain) refresh() {
	if _, ok := c.k.(*metropolis); ok {
		c.logp = c.dens.logp(c.theta)
		return
	}
	c.evalGrad()
}

// SetEnv implements sim.EnvSetter: every chain polls e.Stop before each
// leapfrog step (and each transition), so an interrupted Step ends within
// one gradient evaluation per goroutine; the chains step in at most
// e.Threads goroutines (< 1: one per chain), and the draws do not depend
// on it.
func (m *Method) SetEnv(e sim.Env) {
	m.Env = e
	for _, c := range m.chains {
		c.halt = e.Stop
	}
}

// Close stops the chains' goroutines. The method stays usable: the next
// Step starts them again.
func (m *Method) Close() error {
	if m.work != nil {
		m.cleanup.Stop()
		m.work.stop()
		m.work = nil
	}
	return nil
}

// Extras are the noise, the chains' diagnostics, the linear model's joint
// view (joint.go) and exact posterior (exact.go), what the transitions
// cost and f's draws chain by chain (output.go).
func (m *Method) Extras() sim.Extras {
	return sim.Extras{
		NoiseStd: m.NoiseStd, Diagnostics: m.Diagnostics, Views: m.Views,
		ExactPosterior: m.ExactPosterior, Work: m.Work, FunctionDraws: m.FunctionDraws,
	}
}

// Work reports what the transitions cost (sim.Extras.Work).
func (m *Method) Work() sim.SamplerWork {
	return sim.SamplerWork{StepSize: m.StepSize(), Leapfrogs: m.Leapfrogs(), MeanTreeDepth: m.MeanTreeDepth()}
}

var (
	_ sim.Method    = (*Method)(nil)
	_ sim.Chains    = (*Method)(nil)
	_ sim.Extender  = (*Method)(nil)
	_ sim.EnvSetter = (*Method)(nil)
	_ sim.DataSpec  = (*Method)(nil)
)
