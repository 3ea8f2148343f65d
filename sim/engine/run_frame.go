package engine

import (
	"github.com/posterior-playground/playground/sim/wire"

	"github.com/posterior-playground/playground/sim"

	"math"
	"time"
)

// While a run steps, bands are redrawn at most every minBandInterval and
// in at most about 1/bandCostShare of the wall time: ten bands a second
// look live, and a method whose Predict is dear (GIP's costs about as much
// as six of its steps) keeps nine tenths of its core for training. Frames
// still go out at the frame rate with every new objective and trace point.
const (
	bandCostShare   = 10
	minBandInterval = 100 * time.Millisecond
)

// publish draws the band if the method moved, builds a frame and swaps it
// into the mailbox, waking every viewer.
func (r *Run) publish(now time.Time) {
	stale := !r.bandFresh || r.bandStep != r.step // reinit clears bandFresh
	if r.ready && r.status != StatusDiverged && stale && (!r.active() || !now.Before(r.nextBand)) {
		t0 := time.Now()
		r.drawBand()
		r.nextBand = t0.Add(max(r.frameInterval(), minBandInterval, time.Since(t0)*bandCostShare))
	}
	if r.active() && !r.rateTime.IsZero() {
		if dt := now.Sub(r.rateTime).Seconds(); dt > 0 {
			inst := float64(r.step-r.rateStep) / dt
			r.stepsPerS = 0.5*r.stepsPerS + 0.5*inst // smooths batch jitter
		}
	} else if !r.active() {
		r.stepsPerS = 0
	}
	r.rateStep, r.rateTime = r.step, now
	f := &Frame{
		Step: r.step, Pending: r.pending, Status: r.status, Message: r.message, Budget: r.budget, Controls: r.controls, Start: r.start, Speed: r.speed,
		Objective: r.lastObj, StepsPerSec: r.stepsPerS, Predictive: r.band, Marks: r.marks,
		Diagnostics: r.diagnostics(), Time: now, Data: r.data.Load(),
	}
	if r.ready {
		f.Extras = r.frameExtras(now) // run_extras.go
	}
	if f.Marks == nil {
		f.Marks = []wire.Mark{}
	}
	r.mu.Lock()
	if r.frame != nil {
		f.Seq = r.frame.Seq + 1
	}
	f.Epoch = r.epoch
	r.frame = f
	close(r.notify)
	r.notify = make(chan struct{})
	r.mu.Unlock()
	r.dirty = false
	r.nextFrame = now.Add(r.frameInterval())
}

// drawBand predicts on the grid. A band with NaN or Inf in it is dropped
// and the last good one kept; a panic stops the run.
func (r *Run) drawBand() {
	var p sim.Predictive
	if es, ok := r.m.(sim.EvalSeeder); ok {
		es.SeedEval(sim.EvalSeed(r.seed, r.step)) // the band depends on the step, not on how many were drawn
	}
	if err := r.safely("Predict", func() { p = r.m.Predict(r.d.Grid, r.opt.BandSamples) }); err != nil {
		r.diverge(err.Error())
		return
	}
	if b := makeBand(p, r.d, r.opt.ShownSamples); b != nil {
		b.Seal() // encoded once here, not once per viewer; b is immutable from now on
		r.bandRatio = bandInbetween(p, r.d)
		r.band = b
	}
	r.bandStep, r.bandFresh = r.step, true
}

// makeBand summarises sampled functions (model units) as mean ± 2 std in
// the user's units with the first shown samples; nil when p is empty,
// ragged or not finite.
func makeBand(p sim.Predictive, d *sim.Dataset, shown int) *wire.Band {
	if d.Task == sim.Classification && probabilities(p) {
		return makeProbBand(p, d, shown) // a band through the sigmoid (run_band_prob.go)
	}
	b := newBand(p, shown)
	if b == nil {
		return nil
	}
	n, s, ys := len(p.X), len(p.Samples), d.YScale
	for i := range n {
		var sum float64
		for _, f := range p.Samples {
			sum += f[i]
		}
		mean := sum / float64(s)
		var ss float64
		for _, f := range p.Samples {
			ss += (f[i] - mean) * (f[i] - mean)
		}
		sd := 0.0
		if s > 1 {
			sd = math.Sqrt(ss/float64(s-1)) * math.Abs(ys.Std)
		}
		b.X[i] = d.XScale.ToUser(p.X[i])
		b.Mean[i] = ys.ToUser(mean)
		b.Lo[i], b.Hi[i] = b.Mean[i]-2*sd, b.Mean[i]+2*sd
		if !finite(b.X[i]) || !finite(b.Lo[i]) || !finite(b.Hi[i]) {
			return nil
		}
	}
	for k := range b.Samples {
		b.Samples[k] = make([]float64, n)
		for i, v := range p.Samples[k] {
			b.Samples[k][i] = ys.ToUser(v)
			if !finite(b.Samples[k][i]) {
				return nil
			}
		}
	}
	return b
}

// newBand allocates a band for p's grid with room for shown samples; nil
// when p is empty or ragged.
func newBand(p sim.Predictive, shown int) *wire.Band {
	n, s := len(p.X), len(p.Samples)
	if n == 0 || s == 0 {
		return nil
	}
	for _, f := range p.Samples {
		if len(f) != n {
			return nil
		}
	}
	return &wire.Band{X: make([]float64, n), Mean: make([]float64, n), Lo: make([]float64, n), Hi: make([]float64, n),
		Samples: make([][]float64, min(shown, s))}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// diagnostics collects the finite values worth showing; method calls that
// panic are skipped (Step will report the failure).
func (r *Run) diagnostics() map[string]float64 {
	out := make(map[string]float64)
	if finite(r.lastObj) {
		out["objective"] = r.lastObj
	}
	if r.band != nil && finite(r.bandRatio) { // data with a gap (run_inbetween.go)
		out["inbetween_ratio"] = r.bandRatio
	}
	if r.status == StatusDiverged || !r.ready {
		return out
	}
	if nm, ok := r.m.(sim.NoiseModel); ok {
		var v float64
		if r.safely("NoiseStd", func() { v = nm.NoiseStd() }) == nil && finite(v) {
			out["noise_std"] = v * math.Abs(r.d.YScale.Std) // user units
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
	return out
}
