package scenario

import (
	"math"
	"slices"

	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/gallery"
)

// The measures of a panel on a 2-D target, read off its frame's plane
// extras as the gallery page reads them: "plane" (its measure, the cheap
// ones now), "plane_history" (the costly ones, at doublings of the
// budget: the latest point that has the measure) and "plane_exact" (the
// exact answer's sds and quantiles).
const (
	// SDRatio is a coordinate's sd over the exact one: q's, or over a
	// sampler's every post-warm-up draw (the plane's measure.sd over
	// √plane_exact.cov[a][a]).
	SDRatio Measure = "sd_ratio"
	// KL is KL(q‖p) of a family with a density: the history's latest kl.
	KL Measure = "kl"
	// ESSPerEval is a sampler's smallest bulk ESS per evaluation spent,
	// warm-up included: the history's latest ess_per_eval.
	ESSPerEval Measure = "ess_per_eval"
	// RHat is a sampler's largest R̂: the history's latest rhat.
	RHat Measure = "rhat"
	// Divergences counts a sampler's divergent transitions after
	// warm-up: the plane's measure.divergences.
	Divergences Measure = "divergences"
	// Q05Error is how far a coordinate's 5% quantile is from the exact
	// one, in exact sds: |the history's latest q05[a] −
	// plane_exact.q05[a]| / √plane_exact.cov[a][a].
	Q05Error Measure = "q05_error"
)

// planeMeasures are the measures read off the plane.
var planeMeasures = []Measure{SDRatio, KL, ESSPerEval, RHat, Divergences, Q05Error}

// planeMeasure returns m of coordinate param from f's plane extras, NaN
// when f does not have it (no plane yet, no history point with it, a
// coordinate the target does not have).
func planeMeasure(m Measure, param string, f *engine.Frame) float64 {
	nan := math.NaN()
	if f == nil {
		return nan
	}
	ex, _ := extraValue(f, engine.PlaneExactKey).(*gallery.PlaneExact)
	pl, _ := extraValue(f, engine.PlaneKey).(*gallery.Plane)
	hist, _ := extraValue(f, engine.PlaneHistoryKey).([]gallery.Measure)
	if ex == nil || pl == nil {
		return nan
	}
	a := slices.Index(ex.Params[:], param)
	latest := func(get func(gallery.Measure) gallery.Float) float64 {
		for i := len(hist) - 1; i >= 0; i-- {
			if v := float64(get(hist[i])); !math.IsNaN(v) {
				return v
			}
		}
		return nan
	}
	switch m {
	case SDRatio:
		if a < 0 {
			return nan
		}
		return float64(pl.Measure.SD[a]) / math.Sqrt(ex.Cov[a][a])
	case KL:
		return latest(func(h gallery.Measure) gallery.Float { return h.KL })
	case ESSPerEval:
		return latest(func(h gallery.Measure) gallery.Float { return h.ESSPerEval })
	case RHat:
		return latest(func(h gallery.Measure) gallery.Float { return h.RHat })
	case Divergences:
		return float64(pl.Measure.Divergences)
	case Q05Error:
		if a < 0 {
			return nan
		}
		q := latest(func(h gallery.Measure) gallery.Float { return h.Q05[a] })
		return math.Abs(q-ex.Q05[a]) / math.Sqrt(ex.Cov[a][a])
	}
	return nan
}

// extraValue is the value of f's extra under key, nil when it has none.
func extraValue(f *engine.Frame, key string) any {
	if x := f.Extra(key); x != nil {
		return x.Value
	}
	return nil
}
