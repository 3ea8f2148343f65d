// Package sweeps keeps the sweeps a browser starts: it checks a request
// against browser-sized limits, runs experiment.Sweep in the background on a
// bounded number of workers, records each point as its value completes, lets
// viewers follow the progress, cancels on request, and forgets finished
// sweeps after a while so memory stays bounded.
//
// A sweep is over a method's control on a data set (its points are the
// ELBO and IWBO), or, with Request.Target, over a gallery target's control
// (ρ of the correlated Gaussian, the mixture's separation, the funnel's
// centring): at each value every arm (a method with its controls) runs to
// the same budget of evaluations on each seed, and its point holds, per
// arm, each coordinate's sd beside the exact one from the value's grid
// (their ratio shows a fit too sure), KL(q‖p) on the grid or the energy
// distance, and the errors of the moments. The exact answers come from a
// gallery.Cache, computed once per value. RunTarget runs one outside the
// registry, for the command line.
package sweeps

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/experiment"
)

// Request is one sweep as the browser asks for it: param takes each of
// values (as the CLI reads them: "1,2,5", "linspace:a:b:n",
// "logspace:a:b:n"), each value trained for steps on seeds seeds and
// evaluated with eval_reps repetitions of iwbo_samples importance samples.
//
// With Target set it is a sweep over a gallery target's control instead:
// param is the target's control, controls the target's others, and at
// each value every arm of Arms runs to Budget evaluations on seeds seeds
// and is measured against that value's exact answer (steps, eval_reps and
// iwbo_samples are not read).
type Request struct {
	Target string `json:"target,omitempty"`
	Arms   []Arm  `json:"methods,omitempty"`
	Budget int64  `json:"budget,omitempty"`

	Data        string       `json:"data"`
	Method      string       `json:"method"`
	Model       string       `json:"model,omitempty"`
	Param       string       `json:"param"`
	Values      string       `json:"values"`
	Steps       int          `json:"steps"`
	Seeds       int          `json:"seeds"`
	EvalReps    int          `json:"eval_reps"`
	IWBOSamples int          `json:"iwbo_samples"`
	Seed        uint64       `json:"seed"`
	Controls    sim.Controls `json:"controls"` // the other controls; param's entry is ignored
}

// Defaults of a browser sweep: the GIP notebook's evaluation, but 2000
// training steps rather than its 10000, so a sweep finishes in minutes.
const (
	DefaultSteps       = 2000
	DefaultSeeds       = 1
	DefaultEvalReps    = 10
	DefaultIWBOSamples = 1000
)

// Limits caps what one browser sweep may ask for. Zero values take the
// defaults.
type Limits struct {
	MaxSteps       int   // training steps per run, default 20,000
	MaxRuns        int   // values × seeds, default 50
	MaxEvalReps    int   // default 50
	MaxIWBOSamples int   // default 2000
	MaxBudget      int64 // a target sweep's evaluations per run, default 1,000,000
	MaxArms        int   // a target sweep's methods, default 6
}

func (l Limits) withDefaults() Limits {
	if l.MaxSteps <= 0 {
		l.MaxSteps = 20_000
	}
	if l.MaxRuns <= 0 {
		l.MaxRuns = 50
	}
	if l.MaxEvalReps <= 0 {
		l.MaxEvalReps = 50
	}
	if l.MaxIWBOSamples <= 0 {
		l.MaxIWBOSamples = 2000
	}
	if l.MaxBudget <= 0 {
		l.MaxBudget = 1_000_000
	}
	if l.MaxArms <= 0 {
		l.MaxArms = 6
	}
	return l
}

// plan is a checked request: the base configuration and the values.
type plan struct {
	req    Request
	base   experiment.Config
	values []float64
	logX   bool        // the control is on a log scale (prior_scale): plot it so
	runs   int         // values × seeds, × arms for a target sweep
	tgt    *targetPlan // a target sweep's; nil for a data set's
}

// check validates r against l without running anything. Every error is a
// *sim.FieldError naming the request's field (JSON names).
func check(r Request, l Limits) (*plan, error) {
	bad := func(field, format string, a ...any) error {
		return &sim.FieldError{Field: field, Message: fmt.Sprintf(format, a...)}
	}
	switch {
	case r.Data == "":
		return nil, bad("data", "required: one of %s (or target, to sweep a gallery target's control)", strings.Join(datasets.Names(), ", "))
	case !slices.Contains(datasets.Names(), r.Data):
		return nil, bad("data", "unknown data set %q; sweeps run on the built-in data sets (allowed: %s)", r.Data, strings.Join(datasets.Names(), ", "))
	case r.Method == "":
		return nil, bad("method", "required: one of %s", strings.Join(catalog.MethodNames(), ", "))
	case r.Param == "":
		return nil, bad("param", "required: the control to sweep")
	case r.Steps < 1 || r.Steps > l.MaxSteps:
		return nil, bad("steps", "%d is outside [1, %d] (the browser's limit; the CLI allows more)", r.Steps, l.MaxSteps)
	case r.Seeds < 1:
		return nil, bad("seeds", "%d is below 1", r.Seeds)
	case r.EvalReps < 1 || r.EvalReps > l.MaxEvalReps:
		return nil, bad("eval_reps", "%d is outside [1, %d]", r.EvalReps, l.MaxEvalReps)
	case r.IWBOSamples < 1 || r.IWBOSamples > l.MaxIWBOSamples:
		return nil, bad("iwbo_samples", "%d is outside [1, %d]", r.IWBOSamples, l.MaxIWBOSamples)
	}
	values, err := experiment.ParseValues(r.Values)
	if err != nil {
		return nil, err // names "values"
	}
	switch {
	case len(values) > l.MaxRuns:
		return nil, bad("values", "%d values; the browser runs at most %d per sweep", len(values), l.MaxRuns)
	case len(values)*r.Seeds > l.MaxRuns:
		return nil, bad("seeds", "%d values × %d seeds = %d runs; the browser runs at most %d per sweep", len(values), r.Seeds, len(values)*r.Seeds, l.MaxRuns)
	}
	controls := sim.Controls{}
	for k, v := range r.Controls {
		if k != r.Param {
			controls[k] = v
		}
	}
	base := experiment.Config{Data: r.Data, Method: r.Method, Model: r.Model, Seed: r.Seed, Steps: r.Steps,
		Controls: controls, EvalReps: r.EvalReps, IWBOSamples: r.IWBOSamples}
	p, err := experiment.Prepare(base)
	if err != nil {
		return nil, controlsField(err)
	}
	if sim.ExtrasOf(p.Instance()).IWBO == nil {
		return nil, bad("method", "%s has no evidence bound (ELBO, IWBO) to sweep", r.Method)
	}
	spec, ok := p.Spec.Control(r.Param)
	if !ok || spec.Textual() {
		return nil, bad("param", "%q is not a numeric control of %s (allowed: %s)", r.Param, r.Method, strings.Join(numericControls(p.Spec), ", "))
	}
	for _, v := range values {
		if err := spec.Validate(sim.Num(v)); err != nil {
			msg := err.Error()
			if fe, ok := errors.AsType[*sim.FieldError](err); ok {
				msg = fe.Message
			}
			return nil, bad("values", "%s = %g: %s", r.Param, v, msg)
		}
	}
	return &plan{req: r, base: base, values: values, logX: spec.Log && spec.Min > 0 && allPositive(values), runs: len(values) * r.Seeds}, nil
}

// controlsField names a control error by its place in the request
// ("controls.lr"); other fields keep their names.
func controlsField(err error) error {
	fe, ok := errors.AsType[*sim.FieldError](err)
	if !ok {
		return err
	}
	switch fe.Field {
	case "data", "method", "model", "steps":
		return fe
	case "eval-reps":
		return &sim.FieldError{Field: "eval_reps", Message: fe.Message}
	case "iwbo-samples":
		return &sim.FieldError{Field: "iwbo_samples", Message: fe.Message}
	}
	return &sim.FieldError{Field: "controls." + fe.Field, Message: fe.Message}
}

func numericControls(s sim.MethodSpec) []string {
	var out []string
	for _, c := range s.Controls {
		if !c.Textual() {
			out = append(out, c.Name)
		}
	}
	return out
}

func allPositive(v []float64) bool {
	for _, x := range v {
		if !(x > 0) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// DefaultLimits returns the limits a zero Limits stands for.
func DefaultLimits() Limits { return Limits{}.withDefaults() }
