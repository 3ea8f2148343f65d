package handlers

import (
	"fmt"

	"github.com/posterior-playground/playground/sim/scenario"
	"github.com/posterior-playground/playground/sim/sweeps"
	"github.com/posterior-playground/playground/templates"
)

// sweepView fills the sweep card for a page, or nil when the page has no
// panel of the sweep's method (a scenario link whose methods were changed).
func sweepView(s *scenario.Sweep, c PlayConfig) *templates.SweepView {
	if s == nil {
		return nil
	}
	for _, pc := range c.Panels {
		if pc.Method != s.Method {
			continue
		}
		ctl, ok := pc.Spec.Control(s.Param)
		if !ok {
			return nil
		}
		lim := sweeps.DefaultLimits()
		v := &templates.SweepView{Method: s.Method, MethodLabel: pc.Spec.Label, Param: s.Param, ParamLabel: ctl.Label,
			Values: s.Values, Steps: s.Steps, EvalReps: s.EvalReps, IWBOSamples: s.IWBOSamples, Seeds: s.Seeds,
			MaxSteps: lim.MaxSteps, MaxRuns: lim.MaxRuns, MaxEvalReps: lim.MaxEvalReps, MaxIWBOSamples: lim.MaxIWBOSamples,
			LogX: ctl.Log}
		if v.Steps == 0 {
			v.Steps = sweeps.DefaultSteps
		}
		if v.EvalReps == 0 {
			v.EvalReps = sweeps.DefaultEvalReps
		}
		if v.IWBOSamples == 0 {
			v.IWBOSamples = sweeps.DefaultIWBOSamples
		}
		if v.Seeds == 0 {
			v.Seeds = sweeps.DefaultSeeds
		}
		v.Note = fmt.Sprintf("The default of %d training steps per value keeps the sweep interactive; the GIP notebook's figures used 10000, "+
			"so expect lower bounds where training is slow. Each value is one run of %s on the page's data set and seed, "+
			"with the panel's other controls as they are when you press Run sweep.", v.Steps, pc.Spec.Label)
		return v
	}
	return nil
}
