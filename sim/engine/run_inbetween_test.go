package engine

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// widening is the fake whose functions f_s(x) = z_s·g(x), z_s = s − (S−1)/2,
// g(x) = 1 + (x + 2)/4 > 0 on the grid, have std(z)·g(x) at x: linear in
// x, so reading the std off the grid and interpolating is exact, and the
// in-between ratio is g(c)/mean g(x_i) whatever the number of samples.
type widening struct{ *fakeMethod }

func wideningG(x float64) float64 { return 1 + (x+2)/4 }

func (w widening) Predict(xs []float64, samples int) sim.Predictive {
	p := sim.Predictive{X: xs, Samples: make([][]float64, samples)}
	for s := range p.Samples {
		p.Samples[s] = make([]float64, len(xs))
		for i, x := range xs {
			p.Samples[s][i] = (float64(s) - float64(samples-1)/2) * wideningG(x)
		}
	}
	return p
}

// gapDataset has an asymmetric gap: two inputs left of it, two right, so
// the ratio is not 1 by symmetry. Units are scaled, to check the ratio does
// not depend on them.
func gapDataset() *sim.Dataset {
	d := fakeDataset()
	d.X, d.Y = []float64{-2, -1.8, 1, 2}, []float64{0, 0, 0, 0}
	d.Grid = []float64{-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2}
	d.HasGap, d.GapCentre = true, -0.4
	return d
}

// TestFrameInbetweenRatio: a frame on data with a gap carries the
// in-between ratio, equal to the summary's route (f's std evaluated at the
// training inputs and the gap's centre, then sim.InbetweenRatio) and to
// the closed form; without a gap there is none.
func TestFrameInbetweenRatio(t *testing.T) {
	d := gapDataset()
	m := widening{&fakeMethod{}}
	r, err := NewRun("t", m, d, fakeControls(), 7, RunOptions{Log: quiet, FrameRate: 200})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	defer func() { cancel(); <-r.Done() }()
	if err := r.Step(bg(), 1); err != nil {
		t.Fatal(err)
	}
	f := waitFrame(t, r, func(f *Frame) bool { return f.Step == 1 && f.Predictive != nil })
	got, ok := f.Diagnostics["inbetween_ratio"]
	if !ok {
		t.Fatalf("no inbetween_ratio in %v", f.Diagnostics)
	}

	// The summary's route (sim/experiment): predict at the inputs and the
	// gap's centre, std per input, then the shared formula.
	const samples = 20 // RunOptions' default BandSamples
	p := m.Predict(append(slices.Clone(d.X), d.GapCentre), samples)
	sd := make([]float64, len(p.X))
	col := make([]float64, samples)
	for i := range sd {
		for s := range col {
			col[s] = p.Samples[s][i]
		}
		_, sd[i] = numeric.MeanStd(col)
	}
	summary := sim.InbetweenRatio(sd[:len(d.X)], sd[len(d.X)])

	var mean float64
	for _, x := range d.X {
		mean += wideningG(x) / float64(len(d.X))
	}
	exact := wideningG(d.GapCentre) / mean // 1.4 / 1.3
	// Both routes are a few dozen floating-point operations from the same
	// numbers: they agree to rounding.
	if math.Abs(got-summary) > 1e-12 || math.Abs(got-exact) > 1e-12 {
		t.Errorf("frame's ratio %.15g, summary's formula %.15g, exact %.15g", got, summary, exact)
	}

	if v := bandInbetween(p, fakeDataset()); !math.IsNaN(v) {
		t.Errorf("ratio without a gap: %v, want NaN", v)
	}
}

func TestInterp(t *testing.T) {
	xs, ys := []float64{0, 1, 3}, []float64{2, 4, 0}
	for _, c := range []struct{ x, want float64 }{{-1, 2}, {0, 2}, {0.5, 3}, {1, 4}, {2, 2}, {3, 0}, {5, 0}} {
		if got := interp(xs, ys, c.x); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("interp(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}
