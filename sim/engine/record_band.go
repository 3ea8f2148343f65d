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

// bandRec draws the predictive band on the data's grid: after a step or a
// change, at most every minBandInterval while stepping and within
// 1/bandCostShare of the time, at once while paused. A run has one only
// when its method predicts on data (a target density has no band).
type bandRec struct {
	noSteps
	r     *Run
	m     sim.Method
	band  *wire.Band
	ratio float64 // the in-between ratio of band's samples; NaN without a gap (record_band_inbetween.go)
	step  int64   // step the band was drawn at
	fresh bool    // false after a change between steps
	next  time.Time
}

func (b *bandRec) reset(e change) {
	if e == changeInit {
		b.band = nil
	}
	b.fresh = false
}

func (b *bandRec) contribute(f *Frame, now time.Time) {
	r := b.r
	stale := !b.fresh || b.step != r.st.step
	if r.st.shows() && stale && (!r.st.active() || !now.Before(b.next)) {
		t0 := time.Now()
		b.draw()
		b.next = t0.Add(max(r.cores.frame, minBandInterval, time.Since(t0)*bandCostShare))
	}
	f.Predictive = b.band
	if b.band != nil && finite(b.ratio) { // data with a gap
		f.Diagnostics["inbetween_ratio"] = b.ratio
	}
}

// draw predicts on the grid. A band with NaN or Inf in it is dropped and
// the last good one kept; a panic stops the run.
func (b *bandRec) draw() {
	r := b.r
	var p sim.Predictive
	if es, ok := r.m.(sim.EvalSeeder); ok {
		es.SeedEval(sim.EvalSeed(r.seed, r.st.step)) // the band depends on the step, not on how many were drawn
	}
	if err := r.safely("Predict", func() { p = b.m.Predict(r.prob.d.Grid, r.opt.BandSamples) }); err != nil {
		r.diverge(err.Error())
		return
	}
	if band := makeBand(p, r.prob.d, r.opt.ShownSamples); band != nil {
		if err := r.safely("PredictMoments", func() { addMoments(band, b.m, r.prob.d) }); err != nil {
			r.diverge(err.Error())
			return
		}
		band.Seal() // encoded once here, not once per viewer; immutable from now on
		b.ratio = bandInbetween(p, r.prob.d)
		b.band = band
	}
	b.step, b.fresh = r.st.step, true
}

// makeBand summarises sampled functions (model units) as mean ± 2 std in
// the user's units with the first shown samples; nil when p is empty,
// ragged or not finite.
func makeBand(p sim.Predictive, d *sim.Dataset, shown int) *wire.Band {
	if d.Task == sim.Classification && probabilities(p) {
		return makeProbBand(p, d, shown) // a band through the sigmoid (record_band_prob.go)
	}
	b := newBand(p, shown)
	if b == nil {
		return nil
	}
	n, ys := len(p.X), d.YScale
	for i := range n {
		mean, sd := meanSD(p.Samples, i)
		sd *= math.Abs(ys.Std)
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

// meanSD is the mean and sample std of the sampled functions at grid point
// i; the std is 0 for fewer than two.
func meanSD(samples [][]float64, i int) (mean, sd float64) {
	s := len(samples)
	var sum float64
	for _, f := range samples {
		sum += f[i]
	}
	mean = sum / float64(s)
	if s < 2 {
		return mean, 0
	}
	var ss float64
	for _, f := range samples {
		ss += (f[i] - mean) * (f[i] - mean)
	}
	return mean, math.Sqrt(ss / float64(s-1))
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
