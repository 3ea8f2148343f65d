package sim

// Extras is what a method reports or offers beyond Method and the optional
// interfaces, each a function that is nil when the method has no such
// thing, as gonum's optimize.Problem holds Func, Grad and Hess: a method
// sets the ones it has, and a reader asks for a field, not for a type. The
// fields are set by the method's type and construction, not its state, so
// a reader may ask once and keep them; calling one follows the field's
// rules on when it may be called.
type Extras struct {
	// NoiseStd returns the observation noise standard deviation, model
	// units (0 where the task has none, a classification): every method
	// with a noise model.
	NoiseStd func() float64

	// Views returns the method's view data by key, sent with its frames
	// for a view the browser keeps under the same key
	// (static/app/views.js): GIP's inducing inputs, say. Adding a view is
	// this function and one browser module. The keys are plain lower-case
	// names, none of a frame's own keys nor the engine's "draws" and
	// "weights". Each value must encode with encoding/json and is encoded
	// at once; the method may reuse it afterwards. The engine asks between
	// steps, a few times a second at most.
	Views func() map[string]any

	// Diagnostics returns diagnostics worth showing with each frame (an
	// acceptance rate, a step size).
	Diagnostics func() map[string]float64

	// ELBO returns one single-sample estimate of the ELBO (nats, whole
	// data set), for the summary's elbo_* keys: a variational method's.
	// It is unbiased where IWBO is set too; an implicit q (livi) has no
	// density, so its estimate is of an approximation of the ELBO.
	ELBO func() float64
	// IWBO returns one estimate of the importance-weighted bound with k
	// samples, for the summary's iwbo_* keys: a variational method whose
	// q has a density. A sweep of an evidence bound needs it.
	IWBO func(k int) float64
	// LogMarginal returns the log marginal likelihood log p(y) of the
	// model-unit targets, nats, where it is exact (gp-exact).
	LogMarginal func() float64
	// PredictMoments writes the mean and std of f at xs (model units, no
	// observation noise) into mean and std, each len(xs), where f is
	// Gaussian with moments in closed form (the GP methods): the summary
	// uses them instead of a Monte Carlo estimate. It returns false,
	// leaving them unspecified, when f is not Gaussian in the units
	// Predict returns (a classifier's probabilities) or the method cannot
	// say.
	PredictMoments func(xs, mean, std []float64) bool

	// Settled reports whether a Step would change nothing in the method's
	// current settings, and why, in words for the panel ("nothing to
	// iterate: …"): the exact GP with its kernel and noise held is a
	// closed form, recomputed by Init and Set. The engine asks after every
	// command; while the answer is yes it steps the method once after each
	// change (Init or Set), to record the recomputed objective and traces,
	// and then not again, so the run spends no step budget waiting and
	// reports the status "settled" instead of running.
	Settled func() (why string, settled bool)

	// SetInducing moves inducing input i to x (model units), for a method
	// with inducing inputs a person may move by hand (GIP's first layer,
	// shown by the view "inducing"): the optimiser carries on from the
	// moved input. It returns a *FieldError, and changes nothing, for an i
	// outside the inputs or a non-finite x.
	SetInducing func(i int, x float64) error

	// ExactPosterior returns the exact posterior moments on d, under
	// controls c (which may change the target: a fixed noise, a prior), of
	// the parameters Chains.Draws reports, by name and in its units, for a
	// sampler whose posterior is known in closed form on some data (the
	// linear model); ok is false when there is none on d. It may be called
	// before Init.
	ExactPosterior func(d *Dataset, c Controls) (moments map[string]Moments, ok bool)
	// Work reports what a sampler's transitions cost, for the summary.
	Work func() SamplerWork
	// FunctionDraws returns f at xs (model units, no observation noise)
	// for at most perChain evenly spaced kept draws of each chain, indexed
	// [chain][draw][i], so f at chosen inputs can be diagnosed chain by
	// chain (R̂, ESS); every chain has the same number of draws, and none
	// before the first kept draw. A sampler that keeps whole parameter
	// draws sets it.
	FunctionDraws func(xs []float64, perChain int) [][][]float64
}

// Extender is implemented by methods with Extras.
type Extender interface {
	Extras() Extras
}

// ExtrasOf returns m's Extras, none when m is not an Extender.
func ExtrasOf(m any) Extras {
	if e, ok := m.(Extender); ok {
		return e.Extras()
	}
	return Extras{}
}

// SamplerWork is what a sampler's transitions cost.
type SamplerWork struct {
	// StepSize is the chains' mean current step size.
	StepSize float64
	// Leapfrogs counts leapfrog steps so far over all chains, warm-up and
	// step-size searches included.
	Leapfrogs int64
	// MeanTreeDepth is the mean NUTS tree depth over the kept
	// transitions; NaN for samplers without trees or before any kept
	// transition.
	MeanTreeDepth float64
}

// Moments is a posterior mean and standard deviation.
type Moments struct {
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
}
