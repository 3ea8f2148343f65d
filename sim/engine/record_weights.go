package engine

import (
	"github.com/posterior-playground/playground/sim/wire"

	"github.com/posterior-playground/playground/sim"

	"fmt"
	"math"
	"slices"
	"time"
)

// Weight marginals: a frame of a weight-space VI method (sim.Weights) may
// carry the marginal density of one chosen weight θ_i, as a histogram of
// draws from q (an implicit q such as LIVI's, whose marginals have no
// closed form) or as a Gaussian's mean and std (mean-field VI). The viewer chooses i with the "weight" command.
const (
	// WeightDraws is the number of draws behind a histogram.
	WeightDraws = 2000
	// WeightBins is the number of histogram bins, spread over the draws'
	// 0.5%–99.5% quantiles so a few far draws do not squash the rest.
	WeightBins = 48

	// weightsInterval is the shortest time between two weight sets while
	// stepping (at most 2 per second); weightsCostShare bounds the run
	// goroutine's time spent on them to about 1/weightsCostShare.
	weightsInterval  = 500 * time.Millisecond
	weightsCostShare = 10
)

// weightsRec adds the chosen weight's marginal to the frames as the
// extra "weights": when the method moved, the index changed or the run
// was reset, at most every weightsInterval while stepping.
type weightsRec struct {
	noSteps
	r     *Run
	index int
	set   *wire.WeightSet
	step  int64
	epoch uint64
	next  time.Time
	stale bool // the index changed: recompute at the next publish
	out   payload[*wire.WeightSet]
}

func (*weightsRec) reset(change) {} // a new step or epoch shows at the next frame

// numWeights returns the method's weight count, or 0 when it offers no
// weight marginals.
func (w *weightsRec) numWeights() int {
	n := 0
	if ws, ok := w.r.m.(sim.Weights); ok {
		_ = w.r.safely("NumWeights", func() { n = ws.NumWeights() })
	}
	return n
}

// choose validates and applies a "weight" command.
func (w *weightsRec) choose(i int64) error {
	n := w.numWeights()
	if n == 0 {
		return &sim.FieldError{Field: "op", Message: fmt.Sprintf("method %s has no weight marginals to show", w.r.Spec().Name)}
	}
	if i < 0 || i >= int64(n) {
		return &sim.FieldError{Field: "n", Message: fmt.Sprintf("weight index %d is outside the allowed range [0, %d]", i, n-1)}
	}
	w.index, w.stale = int(i), true
	return nil
}

func (w *weightsRec) contribute(f *Frame, now time.Time) {
	if !w.r.st.ready {
		return
	}
	w.out.add(f, w.r.opt.Log, "weights", w.current(now))
}

// current returns the weight set for a frame published now: a new one
// when the method moved, the index changed or the run was reset, and the
// last is old enough (at once while paused or after a change of index).
func (w *weightsRec) current(now time.Time) *wire.WeightSet {
	r := w.r
	if r.st.status == StatusDiverged {
		return w.set
	}
	moved := w.set == nil || w.step != r.st.step || w.epoch != r.box.epoch
	if !moved && !w.stale {
		return w.set
	}
	if !w.stale && r.st.active() && now.Before(w.next) {
		return w.set
	}
	t0 := time.Now()
	var s *wire.WeightSet
	if err := r.safely("Marginal", func() { s = w.make() }); err != nil {
		return w.set
	}
	w.set, w.step, w.epoch, w.stale = s, r.st.step, r.box.epoch, false
	w.next = now.Add(max(weightsInterval, time.Since(t0)*weightsCostShare))
	return w.set
}

// make computes the chosen weight's marginal; nil when the method offers
// none or its numbers are not finite.
func (w *weightsRec) make() *wire.WeightSet {
	n := w.numWeights()
	if n == 0 {
		return nil
	}
	i := min(w.index, n-1)
	m := w.r.m.(sim.Weights) // n > 0
	s := &wire.WeightSet{Step: w.r.st.step, Index: i, NumWeights: n, Name: m.WeightName(i)}
	q, ok := m.Marginal(i, WeightDraws)
	switch {
	case !ok:
		return nil
	case q.Draws != nil:
		if !histogram(s, q.Draws) {
			return nil
		}
	default:
		if !finite(q.Mean) || !finite(q.Std) {
			return nil
		}
		s.Kind, s.Mean, s.Std = "gaussian", q.Mean, q.Std
	}
	if s.Seal() != nil {
		return nil
	}
	return s
}

// histogram fills s's sample summaries from draws; false when there are
// fewer than two or any is not finite.
func histogram(s *wire.WeightSet, draws []float64) bool {
	if len(draws) < 2 {
		return false
	}
	v := slices.Clone(draws)
	var sum float64
	for _, x := range v {
		if !finite(x) {
			return false
		}
		sum += x
	}
	nf := float64(len(v))
	mean := sum / nf
	var m2, m4 float64
	for _, x := range v {
		d := (x - mean) * (x - mean)
		m2 += d
		m4 += d * d
	}
	m2, m4 = m2/nf, m4/nf
	slices.Sort(v)
	q := func(p float64) float64 { return v[int(math.Round(p*(nf-1)))] }
	lo, hi := q(0.005), q(0.995)
	if !(hi > lo) {
		lo, hi = lo-0.5, hi+0.5
	}
	width := (hi - lo) / WeightBins
	s.Edges = make([]float64, WeightBins+1)
	for k := range s.Edges {
		s.Edges[k] = lo + float64(k)*width
	}
	s.Density = make([]float64, WeightBins)
	var outside int
	for _, x := range v {
		if x < lo || x > hi {
			outside++
			continue
		}
		s.Density[min(WeightBins-1, int((x-lo)/width))]++
	}
	for k := range s.Density {
		s.Density[k] /= nf * width
	}
	s.Kind, s.Draws, s.Mean, s.Std = "samples", len(v), mean, math.Sqrt(m2*nf/(nf-1))
	if m2 > 0 {
		s.Kurtosis = m4/(m2*m2) - 3
	}
	s.Outside = float64(outside) / nf
	s.Quantiles = []float64{q(0.01), q(0.5), q(0.99)}
	return true
}

func (r *Run) weightCmd(c command) error { return r.rec.weights.choose(c.n) }
