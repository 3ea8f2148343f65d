package sim

import "log/slog"

// The optional interfaces. A method implements those that fit it, and the
// engine, the experiment runner and the views use them when present. Each
// has several implementers and is an interface rather than a field of
// Extras for a reason: EnvSetter and DataSetter are the engine handing the
// method something, EvalSeeder is what every method whose Predict draws
// random numbers must take, and Weights and Chains are groups of calls
// that go together (Chains is passed around as a value, to the draws
// table and the summary). What a method merely reports or offers, one
// function at a time, is a field of Extras (extras.go).

// StreamRun is the method's random stream for a seed, as in the headless
// experiment, so a live run and `playground run` start alike.
const StreamRun uint64 = 1

// Weights is implemented by methods whose approximate posterior is over a
// network's weights and can show one weight's marginal (mean-field VI,
// LIVI): the viewer picks the weight, the engine draws its density.
type Weights interface {
	// NumWeights is the length of the flat weight vector (0 before Init).
	NumWeights() int
	// WeightName names a weight for the panel ("layer 2, unit 3 → unit
	// 17").
	WeightName(index int) string
	// Marginal returns the marginal of weight index under q, with n draws
	// when q's marginals have no closed form; ok is false outside
	// [0, NumWeights()) or before Init. Drawing must not disturb the
	// training stream.
	Marginal(index, n int) (q Marginal, ok bool)
}

// Marginal is one weight's marginal under q: a Gaussian's Mean and Std
// (mean-field VI), or, when Draws is set, the draws alone (an implicit q
// such as LIVI's, whose marginals have no closed form).
type Marginal struct {
	Mean, Std float64
	Draws     []float64
}

// EvalSeeder is implemented by methods whose Predict draws random numbers
// (from their evaluation stream). The engine reseeds that stream from the
// run's seed and step before every band, so a band is a function of the
// method's state at that step alone: a run replayed to the same step draws
// the same band, bit for bit, however many bands either drew on the way.
type EvalSeeder interface {
	// SeedEval restarts the evaluation stream from seed. It must not touch
	// the training stream.
	SeedEval(seed uint64)
}

// EvalSeed is the evaluation seed of a run's band at step: distinct for
// every (seed, step) pair.
func EvalSeed(seed uint64, step int64) uint64 {
	return mix(seed ^ mix(uint64(step)+0x9e3779b97f4a7c15))
}

// mix is SplitMix64's finaliser: a bijection that spreads nearby inputs.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// DataSetter is implemented by methods whose objective or target can take
// new training data between two steps and carry on from their current
// parameters: the VI objectives, a sampler's target (its warm-up starts
// again). The engine hands them an edited data set (the same task, grid
// and scales as the one they were initialised on); a method without it is
// initialised again on the new data.
type DataSetter interface {
	// SetData makes d the training data from the next step on. It returns
	// an error, and changes nothing, when the method cannot continue on d
	// (the engine then initialises it again).
	SetData(d *Dataset) error
}

// Chains is implemented by samplers, for the summary's acceptance_rate,
// divergences, ess_per_sec and params keys and the dashboard's MCMC panels.
type Chains interface {
	// Params names the sampled quantities Draws can return.
	Params() []string
	// Draws returns a copy of the retained (post-warm-up) draws of param,
	// chains × draws, every chain the same length; nil for an unknown name.
	Draws(param string) [][]float64
	// AcceptanceRate is the mean acceptance statistic after warm-up.
	AcceptanceRate() float64
	// Divergences counts divergent transitions after warm-up.
	Divergences() int
	// GradEvals counts gradient evaluations of the log density so far.
	GradEvals() int64
	// Warmup reports whether the sampler is still in warm-up.
	Warmup() bool
	// ChainDivergences returns every chain's count of divergent
	// transitions so far (warm-up included), appended to dst[:0], so the
	// dashboard can mark which draws diverged.
	ChainDivergences(dst []int) []int
}

// Env is what the engine tells a method about the run it steps in: where
// its lines go, whether its work is still wanted and how many goroutines a
// Step may use. The zero Env is a method on its own: slog.Default(), never
// interrupted, as many goroutines as it likes. A method that embeds Env
// implements EnvSetter and reads it through Logger and Interrupted.
type Env struct {
	// Log takes the method's lines (a skipped step, a failed fit), so they
	// carry the run's id; nil: slog.Default().
	Log *slog.Logger
	// Stop reports whether the run no longer wants the work in progress:
	// it turns true when the run is deleted, expires, is reset or the
	// server shuts down. A method whose Step or Init can run long (a NUTS
	// tree of a thousand leapfrog steps, an ensemble's pass over its
	// members) polls it at a fine grain (before each leapfrog step, each
	// member) and, once it is true, returns from Step or Init at once with
	// any result. The engine then discards the method's state: it
	// initialises the method again before any other call, or drops it.
	// Polling must change nothing, so a run that is never interrupted
	// steps bit for bit as one without it. nil: never.
	Stop func() bool
	// Threads is how many goroutines a Step may use (a sampler's chains):
	// the cores left over when fewer runs step than there are cores, and
	// one when as many or more do, so that panels side by side share the
	// cores evenly instead of by how many goroutines each wakes. The
	// method's results must not depend on it. < 1: as many as it likes.
	Threads int
}

// EnvSetter is implemented by methods that log, poll Env.Stop or step in
// several goroutines. The engine hands them the run's Env before Init,
// and, when the spec declares Parallel, again with only Threads changed
// before a batch whose share of the cores differs from the last; SetEnv
// must be cheap.
type EnvSetter interface {
	SetEnv(e Env)
}

// SetEnv implements EnvSetter for a method that embeds Env.
func (e *Env) SetEnv(v Env) { *e = v }

// Interrupted reports whether the work in progress is no longer wanted.
func (e *Env) Interrupted() bool { return e.Stop != nil && e.Stop() }

// Logger returns Log, or slog.Default() when it is nil.
func (e *Env) Logger() *slog.Logger {
	if e.Log == nil {
		return slog.Default()
	}
	return e.Log
}
