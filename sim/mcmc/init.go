package mcmc

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// Init sets the sampler up on d. The linear model needs regression data;
// the BNN takes either task. Randomness: one word from r seeds the chains'
// streams, numeric.NewStream(seed, k) for chain k, which draw the starting
// points and then every transition.
func (m *Method) Init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	name := m.kind.name()
	if d == nil || r == nil {
		return fmt.Errorf("%s: Init needs a data set and a random source", name)
	}
	if err := model.CheckData(name, d); err != nil {
		return err
	}
	modelName := m.model
	if modelName == "" {
		modelName = d.DefaultModel
	}
	if modelName == "" {
		modelName = model.BNN
	}
	old := m.model
	m.model = modelName
	cs := maps.Clone(c)
	var prob problem
	switch modelName {
	case model.Linear:
		if d.Task == sim.Classification {
			m.model = old
			return &sim.FieldError{Field: "model", Message: "the linear model needs regression data"}
		}
		if d.N() < 4 {
			m.model = old
			return fmt.Errorf("%s: the linear model's posterior (flat priors) needs at least 4 points, have %d", name, d.N())
		}
		x, y := append([]float64(nil), d.X...), append([]float64(nil), d.Y...)
		if fn := cs[model.FixedNoise].Num; fn > 0 {
			prob = newLinearHeld(x, y, fn, cs["prior_scale"].Num)
		} else {
			prob = &linear{x: x, y: y}
		}
	case model.BNN:
		dd := *d
		dd.X, dd.Y = append([]float64(nil), d.X...), append([]float64(nil), d.Y...)
		arch, err := model.ArchFromControls(cs)
		if err != nil {
			m.model = old
			return err
		}
		prob = newBNN(arch, &dd, cs["prior_scale"].Num)
	default:
		m.model = old
		return &sim.FieldError{Field: "model", Message: fmt.Sprintf("unknown model %q", modelName)}
	}
	return m.initProblem(prob, cs, r)
}

// errInterrupted is Init's error when the engine interrupted it.
var errInterrupted = errors.New("interrupted")

// initProblem sets the sampler up on any target (the tests use Gaussians).
func (m *Method) initProblem(prob problem, cs sim.Controls, r *rand.Rand) error {
	if r == nil {
		return errors.New("mcmc: no random source")
	}
	m.Close()
	n := int(cs["chains"].Num)
	m.warmup = int(cs["warmup"].Num)
	m.prob, m.params, m.controls = prob, prob.params(), cs
	dim := prob.dim()
	fullCap := min(max(fullFloats/dim, 64), maxDraws)
	seed := r.Uint64()
	m.chains = m.chains[:0]
	for k := range n {
		if m.Interrupted() { // each chain's first gradient may be dear
			m.ready = false
			return errInterrupted
		}
		c := &chain{
			id: k, rng: numeric.NewStream(seed, uint64(k)), dens: prob.newDensity(),
			theta: make([]float64, dim), grad: make([]float64, dim), warmup: m.warmup,
			summ:  make([]float64, len(m.params)),
			draws: newStore(len(m.params), maxDraws), full: newStore(dim, fullCap),
			halt: m.Stop,
		}
		if pd, ok := c.dens.(interface{ pollWith(*func() bool) }); ok {
			pd.pollWith(&c.halt) // between row blocks of a large data set
		}
		prob.initState(c.theta, c.rng)
		c.k = m.newKernel(dim, prob.numData(), cs)
		c.k.init(c)
		m.chains = append(m.chains, c)
	}
	m.iter = 0
	m.paths = m.paths[:0]
	m.recordPaths()
	m.trace = make([]float64, len(m.Spec().Traces))
	m.diag = diagCache{}
	m.ready = true
	return nil
}

func (m *Method) newKernel(dim, nData int, cs sim.Controls) kernel {
	step := cs["step"].Num
	switch m.kind {
	case kindMetropolis:
		return &metropolis{step: step}
	case kindSGLD:
		k := &sgld{step: step, batch: int(cs["batch"].Num)}
		k.setData(nData)
		return k
	case kindHMC:
		return newHMC(dim, m.warmup, step, int(cs["leapfrog_steps"].Num), cs["adapt"].Num == 1)
	default:
		return newNUTS(dim, m.warmup, step, int(cs["max_depth"].Num))
	}
}

// parallelMin is the least time a chain's transition must take for the
// chains to step in parallel: waking a worker on an idle core costs tens
// of microseconds (hundreds on a virtual machine), more than a linear
// model's whole transition (HMC on linreg: under 1 µs a chain), which in
// parallel ran 40 times slower than in turn.
const parallelMin = 50 * time.Microsecond

// timeEvery is how often (in steps) a transition is timed for parallelMin.
const timeEvery = 8

// stepChains advances every chain once, in parallel when Env.Threads allows
// and a transition is long enough to pay for it.
func (m *Method) stepChains() {
	if m.work == nil {
		m.work = startWorkers(m.chains)
		m.cleanup = runtime.AddCleanup(m, func(w *workers) { w.stop() }, m.work)
	}
	k := goroutines(len(m.chains), m.Threads, m.chainTime, m.minParallel)
	timed := m.iter%timeEvery == 0
	if d := m.work.round(m.chains, k, timed); timed {
		m.chainTime = d
	}
}

// goroutines is how many goroutines n chains step in: one per chain, at
// most threads (≥ 1), and one while a chain's transition (chainTime; 0
// before the first is timed) is shorter than least.
func goroutines(n, threads int, chainTime, least time.Duration) int {
	if chainTime < least {
		return 1
	}
	if threads >= 1 {
		return min(n, threads)
	}
	return n
}

// Step performs one transition of every chain, in parallel, and returns
// the mean log posterior density over the chains' new states, and the
// gradient evaluations the transitions made (Metropolis: its density
// evaluations, one per chain). After the
// first call it allocates nothing except while the draw stores grow
// towards their caps.
func (m *Method) Step() sim.StepStats {
	if !m.ready {
		return sim.StepStats{Objective: math.NaN()}
	}
	before := m.GradEvals()
	if len(m.chains) == 1 {
		m.chains[0].advance()
	} else {
		m.stepChains()
	}
	m.iter++
	m.recordPaths()
	var s float64
	for _, c := range m.chains {
		if c.panicked != nil {
			p := c.panicked
			c.panicked = nil
			panic(fmt.Sprintf("%s chain %d: %v", m.kind.name(), c.id+1, p))
		}
		s += c.logp
	}
	evals := m.GradEvals() - before
	if m.kind == kindMetropolis {
		evals = int64(len(m.chains)) // one density evaluation per chain
	}
	return sim.StepStats{Objective: s / float64(len(m.chains)), Evals: evals}
}
