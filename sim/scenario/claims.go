package scenario

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/model"
	"github.com/posterior-playground/playground/sim/wire"
)

// A Claim is what a scenario's picture teaches, said in a sentence and
// written as checks on what the page shows: each panel's latest frame (its
// band and diagnostics) and the data. Played from step 0 with the
// scenario's controls, it holds at Step and at every later step checked,
// up to five times Step, for seeds 1–5 (TestScenarioClaims); the page
// evaluates the same checks on its live frames (static/app/claim.js), from
// Step on only (and past any sampler's warm-up, which Step must exceed),
// and says the claim holds once it has held at several checks in a row.
// Each claim bounds the method it is about absolutely, not only relative
// to another panel: a relative bound alone passes when the other method
// is worse, however poor the first.
type Claim struct {
	Text   string  `json:"text"`
	Step   int64   `json:"step"`
	Checks []Check `json:"checks"`
}

// Check bounds one measure of one panel: value Op Value, or, with Than,
// value Op Value × the same measure of panel Than. On a 2-D target,
// Method and Than name panels (Panel.Name), and Param names the target's
// coordinate a per-coordinate measure is of (x, y; the funnel's v, x).
type Check struct {
	Method  string  `json:"method"`
	Measure Measure `json:"measure"`
	Param   string  `json:"param,omitempty"`
	Op      string  `json:"op"` // ">=" or "<="
	Value   float64 `json:"value"`
	Than    string  `json:"than,omitempty"`
}

// Measure names a number the page shows or draws.
type Measure string

// The measures a check may bound. The first three are frame diagnostics;
// the truth errors are read off the band's mean and the data's noiseless
// truth on the plotting grid (user units); the slope's sd ratio off the
// joint (b0, b) view of a method on the linear model.
const (
	InbetweenRatio Measure = "inbetween_ratio" // f's std at the gap's centre over its mean std on the data (sim.InbetweenRatio)
	NoiseStd       Measure = "noise_std"       // the method's observation noise std, user units
	Objective      Measure = "objective"       // the latest objective (an ELBO, a log marginal)
	// TruthRMSE is the root mean square of mean − truth over the grid.
	TruthRMSE Measure = "truth_rmse"
	// TruthRMSEOutside is TruthRMSE over the grid points outside the
	// training inputs' range: how a method extrapolates.
	TruthRMSEOutside Measure = "truth_rmse_outside"
	// SlopeSDRatio is the method's posterior sd of the slope b over the
	// exact posterior's, as the joint view's table shows it ("sd / exact
	// sd"): q's sd for VI, the sd over all retained draws for a sampler.
	SlopeSDRatio Measure = "slope_sd_ratio"
)

// measures are all the measures a check may bound.
var measures = []Measure{InbetweenRatio, NoiseStd, Objective, TruthRMSE, TruthRMSEOutside, SlopeSDRatio,
	SDRatio, KL, ESSPerEval, RHat, Divergences, Q05Error}

// measure returns m (of coordinate param, for a per-coordinate measure of
// the plane) of frame f on data d, NaN when the frame does not show it
// (no band yet, no truth, a diagnostic the method lacks).
func measure(m Measure, param string, f *engine.Frame, d *wire.DataPoints) float64 {
	if slices.Contains(planeMeasures, m) {
		return planeMeasure(m, param, f)
	}
	switch m {
	case InbetweenRatio, NoiseStd, Objective:
		if v, ok := f.Diagnostics[string(m)]; ok {
			return v
		}
		return math.NaN()
	case TruthRMSE, TruthRMSEOutside:
		return truthRMSE(f.Predictive, d, m == TruthRMSEOutside)
	case SlopeSDRatio:
		for _, e := range f.Extras {
			if j, ok := e.Value.(*model.Joint); ok && e.Key == "joint" {
				return sdRatio(j, 1)
			}
		}
	}
	return math.NaN()
}

// sdRatio is the sd of coordinate i (0: b0, 1: b) under j's method over
// the exact posterior's, NaN when either is unknown. The method's sd is
// read as the joint view reads it (joint_data.js's moments): q's, else the
// sampler's over all retained draws, else the shown draws' (n − 1).
func sdRatio(j *model.Joint, i int) float64 {
	if j.Exact == nil {
		return math.NaN()
	}
	var sd float64
	switch {
	case j.Gaussian != nil:
		sd = math.Sqrt(j.Gaussian.Cov[i][i])
	case len(j.Moments) == 2:
		sd = j.Moments[i].SD
	default:
		v := [2][]float64{j.B0, j.B}[i]
		if len(v) < 2 {
			return math.NaN()
		}
		var s, ss float64
		for _, x := range v {
			s += x
		}
		mean := s / float64(len(v))
		for _, x := range v {
			ss += (x - mean) * (x - mean)
		}
		sd = math.Sqrt(ss / float64(len(v)-1))
	}
	return sd / math.Sqrt(j.Exact.Cov[i][i])
}

// truthRMSE is the RMS of the band's mean less the truth on the grid (all
// of it, or outside the training inputs' range only).
func truthRMSE(b *wire.Band, d *wire.DataPoints, outside bool) float64 {
	if b == nil || d == nil || len(d.Truth) != len(b.Mean) || len(d.X) == 0 {
		return math.NaN()
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range d.X {
		lo, hi = min(lo, x), max(hi, x)
	}
	var ss float64
	n := 0
	for i, x := range b.X {
		if outside && x >= lo && x <= hi {
			continue
		}
		e := b.Mean[i] - d.Truth[i]
		ss += e * e
		n++
	}
	if n == 0 {
		return math.NaN()
	}
	return math.Sqrt(ss / float64(n))
}

// Holds checks c against frames, one per method of the scenario in the
// order of methods, on data d. It returns nil when every check holds, or
// an error naming each that does not, with the values seen.
func (c *Claim) Holds(methods []string, frames []*engine.Frame, d *wire.DataPoints) error {
	value := func(method string, m Measure, param string) float64 {
		for i, name := range methods {
			if name == method && i < len(frames) && frames[i] != nil {
				return measure(m, param, frames[i], d)
			}
		}
		return math.NaN()
	}
	var failed []string
	for _, ch := range c.Checks {
		v, bound := value(ch.Method, ch.Measure, ch.Param), ch.Value
		what := fmt.Sprintf("%g", ch.Value)
		if ch.Than != "" {
			other := value(ch.Than, ch.Measure, ch.Param)
			bound = ch.Value * other
			what = fmt.Sprintf("%g × %s's %.4g", ch.Value, ch.Than, other)
		}
		ok := false
		switch ch.Op {
		case ">=":
			ok = v >= bound
		case "<=":
			ok = v <= bound
		}
		if !ok { // NaN fails both
			m := string(ch.Measure)
			if ch.Param != "" {
				m += " of " + ch.Param
			}
			failed = append(failed, fmt.Sprintf("%s's %s is %.4g, want %s %s", ch.Method, m, v, ch.Op, what))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%s", strings.Join(failed, "; "))
	}
	return nil
}
