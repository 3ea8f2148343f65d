package engine

import (
	"github.com/posterior-playground/playground/sim/wire"

	"github.com/posterior-playground/playground/sim"

	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// weightFake adds weight marginals to fakeMethod: three weights whose draws
// are N(index, 1) from a fixed stream; calls counts Marginal calls
// (read by the test goroutine, written by the run's).
type weightFake struct {
	fakeMethod
	calls atomic.Int64
	er    *rand.Rand
}

func (w *weightFake) NumWeights() int { return 3 }

func (w *weightFake) Marginal(index, n int) (sim.Marginal, bool) {
	w.calls.Add(1)
	if index < 0 || index >= 3 {
		return sim.Marginal{}, false
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(index) + w.er.NormFloat64()
	}
	return sim.Marginal{Draws: out}, true
}

func (w *weightFake) WeightName(index int) string { return "w" + string(rune('0'+index)) }

type gaussFake struct{ fakeMethod }

func (g *gaussFake) NumWeights() int       { return 2 }
func (g *gaussFake) WeightName(int) string { return "" }
func (g *gaussFake) Marginal(i, _ int) (sim.Marginal, bool) {
	return sim.Marginal{Mean: float64(i), Std: 0.5}, i >= 0 && i < 2
}

func startMethodRun(t *testing.T, m sim.Method) *Run {
	t.Helper()
	r, err := NewRun("t", m, fakeDataset(), fakeControls(), 7, RunOptions{Log: quiet, FrameRate: 200})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	t.Cleanup(func() { cancel(); <-r.Done() })
	return r
}

// The first frame carries weight 0's histogram; a density times the bin
// width sums to the fraction of draws inside the edges, exactly.
func TestRunWeightsHistogram(t *testing.T) {
	w := &weightFake{er: rand.New(rand.NewPCG(1, 2))}
	r := startMethodRun(t, w)
	f := waitFrame(t, r, func(f *Frame) bool { return weightsOf(f) != nil })
	s := weightsOf(f)
	if s.Kind != "samples" || s.Index != 0 || s.NumWeights != 3 || s.Draws != WeightDraws || s.Name != "w0" {
		t.Fatalf("set %+v", s)
	}
	if len(s.Edges) != WeightBins+1 || len(s.Density) != WeightBins {
		t.Fatalf("%d edges, %d bins", len(s.Edges), len(s.Density))
	}
	var mass float64
	for k, d := range s.Density {
		mass += d * (s.Edges[k+1] - s.Edges[k])
	}
	if math.Abs(mass+s.Outside-1) > 1e-12 {
		t.Fatalf("mass %g + outside %g ≠ 1", mass, s.Outside)
	}
	// N(0, 1) draws, n = 2000: the mean's s.e. is 1/√2000 ≈ 0.022, the
	// std's ≈ 0.016, the excess kurtosis's ≈ √(24/2000) ≈ 0.11; 4 s.e.
	if math.Abs(s.Mean) > 0.09 || math.Abs(s.Std-1) > 0.064 || math.Abs(s.Kurtosis) > 0.44 {
		t.Fatalf("mean %g std %g kurtosis %g", s.Mean, s.Std, s.Kurtosis)
	}
	if raw, _ := s.MarshalJSON(); !strings.Contains(string(raw), `"kind":"samples"`) {
		t.Fatalf("raw %s", raw)
	}
}

// An index outside [0, 2] is refused with the field and the range; a valid
// one shows at once while paused.
func TestRunWeightsSetValidated(t *testing.T) {
	w := &weightFake{er: rand.New(rand.NewPCG(1, 2))}
	r := startMethodRun(t, w)
	for _, bad := range []int64{-1, 3, 1 << 20} {
		err := r.SetWeight(bg(), bad)
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != "n" || !strings.Contains(fe.Message, "[0, 2]") {
			t.Fatalf("SetWeight(%d) = %v", bad, err)
		}
	}
	if err := r.SetWeight(bg(), 2); err != nil {
		t.Fatal(err)
	}
	f := waitFrame(t, r, func(f *Frame) bool { return weightsOf(f) != nil && weightsOf(f).Index == 2 })
	if math.Abs(weightsOf(f).Mean-2) > 0.09 { // N(2, 1) draws, 4 s.e.
		t.Fatalf("mean %g", weightsOf(f).Mean)
	}
	if f.Step != 0 {
		t.Fatalf("step %d: the run should not have moved", f.Step)
	}
}

// While stepping, marginals are drawn at most every weightsInterval.
func TestRunWeightsRateBounded(t *testing.T) { synctest.Test(t, testRunWeightsRateBounded) }

func testRunWeightsRateBounded(t *testing.T) {
	w := &weightFake{fakeMethod: fakeMethod{stepDelay: 100 * time.Microsecond}, er: rand.New(rand.NewPCG(1, 2))}
	r := startMethodRun(t, w)
	waitFrame(t, r, func(f *Frame) bool { return weightsOf(f) != nil })
	c0 := w.calls.Load()
	start := time.Now()
	if err := r.Play(bg()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1200 * time.Millisecond) // fake time (run_test.go)
	r.Pause(bg())
	el := time.Since(start)
	calls := w.calls.Load() - c0
	// One set when play starts, then one per interval, one after the pause.
	if limit := el.Seconds()/weightsInterval.Seconds() + 2; float64(calls) > limit || calls < 2 {
		t.Fatalf("%d weight sets in %v (limit %.1f)", calls, el, limit)
	}
}

// A Gaussian method sends its mean and std; a method with neither
// interface sends nothing and refuses the command on "op".
func TestRunWeightsGaussianAndNone(t *testing.T) {
	r := startMethodRun(t, &gaussFake{})
	if err := r.SetWeight(bg(), 1); err != nil {
		t.Fatal(err)
	}
	f := waitFrame(t, r, func(f *Frame) bool { return weightsOf(f) != nil && weightsOf(f).Index == 1 })
	if s := weightsOf(f); s.Kind != "gaussian" || s.Mean != 1 || s.Std != 0.5 || s.Density != nil {
		t.Fatalf("set %+v", s)
	}
	r2 := startMethodRun(t, &fakeMethod{})
	var fe *sim.FieldError
	if err := r2.SetWeight(bg(), 0); !errors.As(err, &fe) || fe.Field != "op" {
		t.Fatalf("SetWeight on a method without weights = %v", err)
	}
	if weightsOf(r2.Latest()) != nil {
		t.Fatal("weights on a method without marginals")
	}
}

// The histogram of 0, 1, …, n−1 is flat and its excess kurtosis is the
// discrete uniform's, −6(n²+1)/(5(n²−1)).
func TestWeightSetHistogramUniform(t *testing.T) {
	const n = 4800 // a multiple of WeightBins
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(n - 1 - i)
	}
	var s wire.WeightSet
	if !histogram(&s, v) {
		t.Fatal("histogram refused finite draws")
	}
	nn := float64(n) * float64(n)
	if want := -6 * (nn + 1) / (5 * (nn - 1)); math.Abs(s.Kurtosis-want) > 1e-9 {
		t.Fatalf("kurtosis %g, want %g", s.Kurtosis, want)
	}
	if s.Mean != float64(n-1)/2 {
		t.Fatalf("mean %g", s.Mean)
	}
	// The edges are the 0.5% and 99.5% draws, 24 and 4775: the 48 draws
	// below 24 or above 4775 are outside, and each bin of width 4751/48 ≈
	// 98.98 holds 98 or 99 whole numbers (the last also holds 4775).
	if s.Edges[0] != 24 || s.Edges[WeightBins] != 4775 || s.Outside != 48.0/n {
		t.Fatalf("edges [%g, %g], outside %g; want [24, 4775] and %g", s.Edges[0], s.Edges[WeightBins], s.Outside, 48.0/n)
	}
	width := s.Edges[1] - s.Edges[0]
	for k, d := range s.Density {
		if c := d * n * width; c < 98-1e-9 || c > 100+1e-9 {
			t.Fatalf("bin %d holds %g draws, want 98 to 100: not flat", k, c)
		}
	}
	if histogram(&s, []float64{1, math.NaN()}) {
		t.Fatal("histogram accepted NaN")
	}
}
