package sweeps

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/experiment"
	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/target"
)

// Arm is one method of a target sweep with its controls: mean-field under
// reverse KL and mean-field under forward KL are two arms.
type Arm struct {
	Method   string       `json:"method"`
	Controls sim.Controls `json:"controls,omitempty"`
}

// DefaultBudget is a target sweep's evaluations per run when the request
// gives none. NUTS's four chains warm up for 1,000 transitions each, and
// on ρ = 0.99 a transition takes trees of depth 5 or 6 (32 to 64
// gradients): about 250,000 evaluations before its first kept draw. A
// Gaussian family's Adam settles within 40,000 (1,250 steps of 32 draws).
const DefaultBudget = 400_000

// ArmPoint is one arm's result at one value of a target sweep, averaged
// over the seeds (standard errors over seeds, 0 with one seed).
type ArmPoint struct {
	Method   string         `json:"method"`
	Controls sim.Controls   `json:"controls,omitempty"`
	Params   []ParamPoint   `json:"params"`             // one per shown coordinate, in the target's order
	KL       *gallery.Float `json:"kl_exact,omitempty"` // KL(q‖p) on the grid: a family with a density
	Distance *gallery.Float `json:"energy_distance,omitempty"`
	MeanErr  gallery.Float  `json:"mean_error"`
	CovErr   gallery.Float  `json:"cov_error"`
	Divs     *gallery.Float `json:"divergences,omitempty"` // a sampler's, mean over seeds
	Evals    int64          `json:"evals"`                 // per run, the first seed's
}

// ParamPoint is one coordinate of an ArmPoint: q's (or the draws') mean
// and sd beside the exact ones, and the sd ratio that shows a fit too sure.
type ParamPoint struct {
	Name      string        `json:"name"`
	Mean      gallery.Float `json:"mean"`
	SD        gallery.Float `json:"sd"`
	ExactMean gallery.Float `json:"exact_mean"`
	ExactSD   gallery.Float `json:"exact_sd"`
	SDRatio   gallery.Float `json:"sd_ratio"`
	SDRatioSE gallery.Float `json:"sd_ratio_se"`
}

// targetPlan is a checked target sweep.
type targetPlan struct {
	cache    *gallery.Cache
	target   string
	controls sim.Controls // the target's other controls
	arms     []Arm
	budget   int64
}

// checkTarget validates a target sweep (r.Target set) against l. Errors
// name the request's field: "target", "param", "values", "methods[i].method",
// "methods[i].controls.NAME", "controls.NAME", "budget", "seeds".
func checkTarget(r Request, l Limits, cache *gallery.Cache) (*plan, error) {
	bad := func(field, format string, a ...any) error {
		return &sim.FieldError{Field: field, Message: fmt.Sprintf(format, a...)}
	}
	spec, ok := target.Lookup(r.Target)
	if !ok {
		var names []string
		for _, s := range target.Specs() {
			names = append(names, s.Name)
		}
		return nil, bad("target", "unknown target %q (allowed: %s)", r.Target, strings.Join(names, ", "))
	}
	var names []string
	for _, c := range spec.Controls {
		names = append(names, c.Name)
	}
	i := slices.IndexFunc(spec.Controls, func(c sim.ControlSpec) bool { return c.Name == r.Param })
	switch {
	case len(names) == 0:
		var with []string
		for _, s := range target.Specs() {
			if len(s.Controls) > 0 {
				with = append(with, s.Name)
			}
		}
		return nil, bad("param", "%s has no controls to sweep (targets with controls: %s)", r.Target, strings.Join(with, ", "))
	case r.Param == "":
		return nil, bad("param", "required: the control of %s to sweep (allowed: %s)", r.Target, strings.Join(names, ", "))
	case i < 0:
		return nil, bad("param", "%q is not a control of %s (allowed: %s)", r.Param, r.Target, strings.Join(names, ", "))
	case r.Data != "":
		return nil, bad("data", "a target sweep has no data set: give target or data, not both")
	case len(r.Arms) == 0:
		return nil, bad("methods", "required: the methods to run at each value, e.g. [{\"method\": \"mfvi\"}]")
	case len(r.Arms) > l.MaxArms:
		return nil, bad("methods", "%d methods; a sweep runs at most %d", len(r.Arms), l.MaxArms)
	case r.Budget < 1 || r.Budget > l.MaxBudget:
		return nil, bad("budget", "%d is outside [1, %d] evaluations per run", r.Budget, l.MaxBudget)
	case r.Seeds < 1:
		return nil, bad("seeds", "%d is below 1", r.Seeds)
	}
	values, err := experiment.ParseValues(r.Values)
	if err != nil {
		return nil, err
	}
	ctl := spec.Controls[i]
	for _, v := range values {
		if err := ctl.Validate(sim.Num(v)); err != nil {
			return nil, bad("values", "%s = %g: %s", r.Param, v, fieldMessage(err))
		}
	}
	if runs := len(values) * len(r.Arms) * r.Seeds; runs > l.MaxRuns {
		return nil, bad("values", "%d values × %d methods × %d seeds = %d runs; the browser runs at most %d per sweep", len(values), len(r.Arms), r.Seeds, runs, l.MaxRuns)
	}
	controls := sim.Controls{}
	for k, v := range r.Controls {
		if k != r.Param {
			controls[k] = v
		}
	}
	if _, err := target.New(r.Target, controls); err != nil {
		return nil, prefixField("controls.", err)
	}
	for j, a := range r.Arms {
		// Chains and draws at their defaults: checkRun fills them in.
		if err := checkArm(a); err != nil {
			return nil, prefixField(fmt.Sprintf("methods[%d].", j), err)
		}
	}
	tp := &targetPlan{cache: cache, target: r.Target, controls: controls, arms: slices.Clone(r.Arms), budget: r.Budget}
	return &plan{req: r, values: values, tgt: tp, runs: len(values) * len(r.Arms) * r.Seeds}, nil
}

// checkArm checks an arm's method and controls against the gallery's
// specs: errors name "method" or "controls.NAME".
func checkArm(a Arm) error {
	spec, ok := gallery.LookupMethod(a.Method)
	if !ok {
		var names []string
		for _, m := range gallery.Methods() {
			names = append(names, m.Name)
		}
		return &sim.FieldError{Field: "method", Message: fmt.Sprintf("unknown method %q (allowed: %s)", a.Method, strings.Join(names, ", "))}
	}
	for k, v := range a.Controls {
		i := slices.IndexFunc(spec.Controls, func(c sim.ControlSpec) bool { return c.Name == k })
		if i < 0 {
			return &sim.FieldError{Field: "controls." + k, Message: fmt.Sprintf("%s has no control %q", a.Method, k)}
		}
		if err := spec.Controls[i].Validate(v); err != nil {
			return &sim.FieldError{Field: "controls." + k, Message: fieldMessage(err)}
		}
	}
	return nil
}

// fieldMessage is err's message without its field's name.
func fieldMessage(err error) string {
	if fe, ok := errors.AsType[*sim.FieldError](err); ok {
		return fe.Message
	}
	return err.Error()
}

// prefixField names a field error by its place in the request.
func prefixField(prefix string, err error) error {
	fe, ok := errors.AsType[*sim.FieldError](err)
	if !ok {
		return err
	}
	return &sim.FieldError{Field: prefix + fe.Field, Message: fe.Message}
}

// RunTarget checks r, a target sweep, against l and runs it to the end on
// workers goroutines (≤ 0: one), outside any registry: the command
// line's sweep. progress, if not nil, is called as runs finish, with the
// point when all of a value's runs are in. The points are in the order
// of the values.
func RunTarget(ctx context.Context, r Request, l Limits, cache *gallery.Cache, workers int, progress func(finished, total int, p *Point)) ([]Point, error) {
	p, err := checkTarget(r, l.withDefaults(), cache)
	if err != nil {
		return nil, err
	}
	points := make([]Point, len(p.values))
	err = runTarget(ctx, p, workers, func(finished int, pt *Point) {
		if pt != nil {
			points[pt.Index] = *pt
		}
		if progress != nil {
			progress(finished, p.runs, pt)
		}
	})
	if err != nil {
		return nil, err
	}
	return points, nil
}

// runTarget runs every (value, arm, seed) of a target sweep on workers
// goroutines, values in order, and reports each value's point when all of
// its runs are in. The exact answer of each value comes from the cache
// (computed once, whichever worker asks first). It stops at the first
// failure or when ctx ends.
func runTarget(ctx context.Context, p *plan, workers int, progress func(finished int, pt *Point)) error {
	tp, seeds := p.tgt, p.req.Seeds
	perValue := len(tp.arms) * seeds
	reports := make([][]result, len(p.values))
	left := make([]int, len(p.values))
	for i := range reports {
		reports[i], left[i] = make([]result, perValue), perValue
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := make(chan int)
	var mu sync.Mutex
	finished := 0
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Go(func() {
			for j := range jobs {
				v, k := j/perValue, j%perValue
				rep, err := tp.run(ctx, p.req.Param, p.values[v], k/seeds, p.req.Seed+uint64(k%seeds))
				if err != nil {
					cancel(err)
					continue
				}
				mu.Lock()
				reports[v][k] = rep
				finished++
				left[v]--
				var pt *Point
				if left[v] == 0 {
					pt = tp.point(v, p.values[v], reports[v], seeds)
				}
				progress(finished, pt)
				mu.Unlock()
			}
		})
	}
feed:
	for j := range len(p.values) * perValue {
		select {
		case jobs <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return context.Cause(ctx)
}

// result is a run's report and its shown coordinates' names, in order.
type result struct {
	gallery.Report
	params [2]string
}

// run is one arm at one value and seed, to the budget, and its report.
func (tp *targetPlan) run(ctx context.Context, param string, value float64, arm int, seed uint64) (result, error) {
	controls := sim.Controls{param: sim.Num(value)}
	for k, v := range tp.controls {
		controls[k] = v
	}
	a := tp.arms[arm]
	r, err := gallery.NewRun(ctx, tp.cache, gallery.RunConfig{Target: tp.target, TargetControls: controls,
		Method: a.Method, MethodControls: a.Controls, Seed: seed})
	if err != nil {
		return result{}, err
	}
	if err := r.StepToBudget(ctx, tp.budget); err != nil {
		return result{}, err
	}
	return result{r.Report(), r.Exact().Shown.Params}, nil
}

// point averages a value's reports (arm-major, seeds within) into its
// point.
func (tp *targetPlan) point(index int, value float64, reps []result, seeds int) *Point {
	pt := &Point{SweepPoint: experiment.SweepPoint{Index: index, Value: value, Seeds: seeds}, Arms: []ArmPoint{}}
	for a, arm := range tp.arms {
		rs := reps[a*seeds : (a+1)*seeds]
		first := rs[0]
		ap := ArmPoint{Method: arm.Method, Controls: arm.Controls, Evals: first.GradientEvals + first.DensityEvals}
		ap.MeanErr = gallery.Float(meanOf(rs, func(r gallery.Report) float64 { return float64(r.MeanError) }))
		ap.CovErr = gallery.Float(meanOf(rs, func(r gallery.Report) float64 { return float64(r.CovError) }))
		if first.KLExact != nil {
			ap.KL = ptrF(meanOf(rs, func(r gallery.Report) float64 { return float64(*r.KLExact) }))
		}
		if first.EnergyDistance != nil {
			ap.Distance = ptrF(meanOf(rs, func(r gallery.Report) float64 { return float64(*r.EnergyDistance) }))
		}
		if first.Divergences != nil {
			ap.Divs = ptrF(meanOf(rs, func(r gallery.Report) float64 { return float64(*r.Divergences) }))
		}
		for _, name := range first.params {
			ratios := make([]float64, len(rs))
			for s, r := range rs {
				ratios[s] = float64(r.Params[name].SD / r.Params[name].ExactSD)
			}
			m, se := meanSE(ratios)
			pp := first.Params[name]
			ap.Params = append(ap.Params, ParamPoint{Name: name,
				Mean:      gallery.Float(meanOf(rs, func(r gallery.Report) float64 { return float64(r.Params[name].Mean) })),
				SD:        gallery.Float(meanOf(rs, func(r gallery.Report) float64 { return float64(r.Params[name].SD) })),
				ExactMean: pp.ExactMean, ExactSD: pp.ExactSD, SDRatio: gallery.Float(m), SDRatioSE: gallery.Float(se)})
		}
		pt.Arms = append(pt.Arms, ap)
	}
	return pt
}

func meanOf(rs []result, f func(gallery.Report) float64) float64 {
	s := 0.0
	for _, r := range rs {
		s += f(r.Report)
	}
	return s / float64(len(rs))
}

// meanSE is the mean of xs and its standard error (the sample sd over
// √n; 0 for one value).
func meanSE(xs []float64) (mean, se float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}

func ptrF(x float64) *gallery.Float { f := gallery.Float(x); return &f }
