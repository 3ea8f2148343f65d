package engine

import (
	"math"
	"time"

	"github.com/posterior-playground/playground/sim"
)

// diagnosticsRec adds the method's finite diagnostics to each frame: its
// noise std in the user's units (sim.NoiseModel) and what it reports
// (sim.Diagnoser). Method calls that panic are skipped (Step will report
// the failure).
type diagnosticsRec struct{ r *Run }

func (diagnosticsRec) reset(change)                      {}
func (diagnosticsRec) before() bool                      { return false }
func (diagnosticsRec) observe(int64, float64, []float64) {}

func (g diagnosticsRec) contribute(f *Frame, _ time.Time) {
	r, out := g.r, f.Diagnostics
	if r.status == StatusDiverged || !r.ready {
		return
	}
	if nm, ok := r.m.(sim.NoiseModel); ok && r.prob.d != nil {
		var v float64
		if r.safely("NoiseStd", func() { v = nm.NoiseStd() }) == nil && finite(v) {
			out["noise_std"] = v * math.Abs(r.prob.d.YScale.Std) // user units
		}
	}
	if dg, ok := r.m.(sim.Diagnoser); ok {
		var m map[string]float64
		if r.safely("Diagnostics", func() { m = dg.Diagnostics() }) == nil {
			for k, v := range m {
				if finite(v) {
					out[k] = v
				}
			}
		}
	}
}
