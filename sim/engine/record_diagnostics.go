package engine

import (
	"math"
	"time"
)

// diagnosticsRec adds the method's finite diagnostics to each frame: its
// noise std in the user's units and what it reports (sim.Extras NoiseStd
// and Diagnostics). Method calls that panic are skipped (Step will report
// the failure).
type diagnosticsRec struct {
	r     *Run
	noise func() float64            // nil: none
	diag  func() map[string]float64 // nil: none
}

func (diagnosticsRec) reset(change)                      {}
func (diagnosticsRec) before() bool                      { return false }
func (diagnosticsRec) observe(int64, float64, []float64) {}

func (g diagnosticsRec) contribute(f *Frame, _ time.Time) {
	r, out := g.r, f.Diagnostics
	if !r.st.shows() {
		return
	}
	if g.noise != nil && r.prob.d != nil {
		var v float64
		if r.safely("NoiseStd", func() { v = g.noise() }) == nil && finite(v) {
			out["noise_std"] = v * math.Abs(r.prob.d.YScale.Std) // user units
		}
	}
	if g.diag != nil {
		var m map[string]float64
		if r.safely("Diagnostics", func() { m = g.diag() }) == nil {
			for k, v := range m {
				if finite(v) {
					out[k] = v
				}
			}
		}
	}
}
