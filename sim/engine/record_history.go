package engine

import (
	"math"
	"time"

	"github.com/posterior-playground/playground/sim"
)

// historyRec records the objective and the traces of the steps the
// mailbox's bounded history keeps, in the plot's units, and the latest
// finite objective for the frame.
type historyRec struct {
	r     *Run
	scale []float64 // model → plot units of each trace (sim.TraceInfo.Unit)
	row   []float64
	keep  bool    // the history keeps the coming step
	last  float64 // latest objective, NaN before the first step
}

// init sizes the recorder for spec's traces on the run's data.
func (h *historyRec) init(spec sim.MethodSpec) {
	traces := h.r.box.traces
	h.scale = make([]float64, len(traces))
	for i, name := range traces {
		h.scale[i] = spec.TraceInfo[name].Unit.PlotFactor(h.r.prob.base)
	}
	h.row = make([]float64, 1+len(traces))
	h.last = math.NaN()
}

func (h *historyRec) reset(e change) {
	if e == changeInit {
		h.last = math.NaN() // the mailbox's history starts a new epoch (reinit)
	}
}

func (h *historyRec) before() bool {
	h.keep = h.r.box.hist.Wants()
	return h.keep
}

func (h *historyRec) observe(step int64, obj float64, tr []float64) {
	h.last = obj
	if !h.keep {
		// Only counts the step (its stride counter, which viewers never
		// read): no lock, so a decimated history does not contend with
		// viewers' copies on every step.
		h.r.box.hist.Add(step, nil)
		return
	}
	h.row[0] = obj
	for i := range h.scale {
		h.row[i+1] = math.NaN()
		if i < len(tr) {
			h.row[i+1] = tr[i] * h.scale[i]
		}
	}
	h.r.box.add(step, h.row)
}

func (h *historyRec) contribute(f *Frame, _ time.Time) {
	f.Objective = h.last
	if finite(h.last) {
		f.Diagnostics["objective"] = h.last
	}
}
