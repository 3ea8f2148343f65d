package gallery

import (
	"math"
	"slices"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/family"
	"github.com/posterior-playground/playground/sim/target"
)

// Report is a run's summary against the exact answer: the command line's
// JSON.
type Report struct {
	// The target and method with every control, defaults filled in.
	Target         string       `json:"target"`
	TargetControls sim.Controls `json:"target_controls"`
	Method         string       `json:"method"`
	MethodControls sim.Controls `json:"method_controls"`
	Chains         int          `json:"chains"`
	Seed           uint64       `json:"seed"`
	Steps          int64        `json:"steps"`
	// Params holds one entry per shown coordinate, keyed by its name
	// (x, y; the funnel's v, x).
	Params        map[string]ParamReport `json:"params"`
	GradientEvals int64                  `json:"gradient_evals"`
	DensityEvals  int64                  `json:"density_evals"`
	// EnergyDistance is to the exact reference draws (Measure.Distance);
	// absent for a family with a density, whose distance is KLExact.
	EnergyDistance *Float `json:"energy_distance,omitempty"`
	MeanError      Float  `json:"mean_error"`
	CovError       Float  `json:"cov_error"`
	LogZ           Float  `json:"log_z"` // the exact log Z on the grid
	// A sampler's divergent transitions and mean acceptance after warm-up.
	Divergences *int64 `json:"divergences,omitempty"`
	Acceptance  *Float `json:"acceptance,omitempty"`
	// A family with a density: KL(q‖p) on the whole grid, the last step's ELBO
	// estimate (its gap below LogZ is KL(q‖p)), and Pareto k̂ of the
	// log-ratios log p̃ − log q of paretoDraws draws of q (PSIS's check;
	// reliable at most ParetoKThreshold).
	KLExact          *Float `json:"kl_exact,omitempty"`
	ELBO             *Float `json:"elbo,omitempty"`
	ParetoK          *Float `json:"pareto_k,omitempty"`
	ParetoKThreshold *Float `json:"pareto_k_threshold,omitempty"`
}

// ParamReport is one coordinate's summary beside the exact answer's.
type ParamReport struct {
	Mean Float `json:"mean"` // q's, or the kept draws'
	SD   Float `json:"sd"`
	// Q05 and Q95 are the 5% and 95% quantiles: the kept draws', or of
	// 2,048 draws of q (SVGD: its particles).
	Q05       Float  `json:"q05"`
	Q95       Float  `json:"q95"`
	RHat      *Float `json:"rhat,omitempty"`     // a sampler's, over its chains' kept draws
	ESSBulk   *Float `json:"ess_bulk,omitempty"` // a sampler's
	ExactMean Float  `json:"exact_mean"`
	ExactSD   Float  `json:"exact_sd"`
	ExactQ05  Float  `json:"exact_q05"`
	ExactQ95  Float  `json:"exact_q95"`
}

// exact fills p's exact fields from coordinate a of g.
func (p ParamReport) exact(g *target.Grid, a int) ParamReport {
	p.ExactMean, p.ExactSD = Float(g.Mean[a]), Float(math.Sqrt(g.Cov[a][a]))
	p.ExactQ05, p.ExactQ95 = Float(g.Quantile(a, 0.05)), Float(g.Quantile(a, 0.95))
	return p
}

// effective is given over the specs' defaults.
func effective(specs []sim.ControlSpec, given sim.Controls) sim.Controls {
	out := sim.Controls{}
	for _, c := range specs {
		out[c.Name] = c.Default
	}
	for k, v := range given {
		out[k] = v
	}
	return out
}

// targetControls is the built-in target's controls with defaults filled
// in; nil for a target the caller built.
func (r *Run) targetControls() sim.Controls {
	if r.custom {
		return nil
	}
	spec, _ := target.Lookup(r.cfg.Target)
	return effective(spec.Controls, r.cfg.TargetControls)
}

func ptr(x float64) *Float { f := Float(x); return &f }

// Report summarises the run now. A family's Pareto k̂ spends paretoDraws
// target evaluations that are not counted in its budget (they are the
// check's, not the fit's).
func (r *Run) Report() Report {
	g := r.ex.Shown
	c := r.Counts()
	m := r.Measure()
	rep := Report{
		Target: r.cfg.Target, TargetControls: r.targetControls(),
		Method: r.cfg.Method, MethodControls: effective(r.spec.Controls, r.cfg.MethodControls),
		Chains: r.cfg.Chains, Seed: r.cfg.Seed, Steps: r.steps,
		Params:        map[string]ParamReport{},
		GradientEvals: c.Gradient, DensityEvals: c.Density,
		MeanError: m.MeanError, CovError: m.CovError, LogZ: Float(g.LogZ),
	}
	if !math.IsNaN(float64(m.Distance)) || r.dens == nil {
		rep.EnergyDistance = &m.Distance
	}
	if r.fit == nil {
		rep.Divergences, rep.Acceptance = &m.Divergences, &m.Acceptance
		for a, name := range g.Params {
			s := numeric.Summarize(r.series(a))
			rep.Params[name] = ParamReport{Mean: Float(s.Mean), SD: Float(s.SD), Q05: Float(s.Q05), Q95: Float(s.Q95),
				RHat: ptr(s.RHat), ESSBulk: ptr(s.ESSBulk)}.exact(g, a)
		}
		return rep
	}
	mean, cov := r.moments()
	pts := r.qPoints()
	xs := make([]float64, len(pts))
	for a, name := range g.Params {
		for i, p := range pts {
			xs[i] = p[a]
		}
		slices.Sort(xs)
		rep.Params[name] = ParamReport{Mean: Float(mean[a]), SD: Float(math.Sqrt(cov[a][a])),
			Q05: Float(numeric.Quantile(xs, 0.05)), Q95: Float(numeric.Quantile(xs, 0.95))}.exact(g, a)
	}
	if r.dens != nil {
		rep.KLExact, rep.ELBO = ptr(r.ex.Grid.KL(r.dens.LogDensity)), &m.ELBO
		rep.ParetoK = &m.ParetoK
		rep.ParetoKThreshold = ptr(numeric.ParetoKThreshold(paretoDraws))
	}
	return rep
}

// constantRatios is the spread of log-ratios, in nats, below which the
// importance ratios count as constant.
const constantRatios = 1e-6

// paretoK is k̂ of log p̃ − log q over paretoDraws draws of q, in the
// coordinates q is fitted in (the ratios do not depend on them). Where
// every log-ratio is within constantRatios of the others q is p up to
// its normaliser, the ratios are bounded and have every moment: k = 0.
// (numeric.ParetoKhat, as loo does, fails to fit a tail that flat and
// reports +Inf, which would flag the best fit there is as the worst.)
func paretoK(q family.Density, t target.Target) float64 {
	pts := make([]target.Point, paretoDraws)
	q.Draw(pts)
	lr := make([]float64, len(pts))
	for i, p := range pts {
		lr[i] = t.LogDensity(p) - q.LogDensity(p)
	}
	if lo, hi := slices.Min(lr), slices.Max(lr); hi-lo < constantRatios {
		return 0
	}
	return numeric.ParetoKhat(lr)
}
