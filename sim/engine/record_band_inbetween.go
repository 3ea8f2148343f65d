package engine

import (
	"math"

	"github.com/posterior-playground/playground/sim"
)

// bandInbetween is the in-between ratio (sim.InbetweenRatio) read off the
// functions sampled for a band: f's sample std on the grid p.X (model
// units, ascending), interpolated linearly to the training inputs and the
// gap's centre. NaN when d has no gap or p is too small to have a std. The
// summary of `playground run` evaluates f at those inputs directly from 500
// samples; a band has BandSamples (default 20), so the live number is
// noisier, and exact where the std is linear between grid points.
func bandInbetween(p sim.Predictive, d *sim.Dataset) float64 {
	n, s := len(p.X), len(p.Samples)
	if !d.HasGap || len(d.X) == 0 || n == 0 || s < 2 {
		return math.NaN()
	}
	sd := make([]float64, n)
	for i := range n {
		_, sd[i] = meanSD(p.Samples, i)
	}
	onData := make([]float64, len(d.X))
	for i, x := range d.X {
		onData[i] = interp(p.X, sd, x)
	}
	return sim.InbetweenRatio(onData, interp(p.X, sd, d.GapCentre))
}

// interp is the piecewise-linear interpolant of (xs, ys) at x, xs
// ascending, held constant beyond the ends.
func interp(xs, ys []float64, x float64) float64 {
	if x <= xs[0] {
		return ys[0]
	}
	for i := 1; i < len(xs); i++ {
		if x <= xs[i] {
			t := (x - xs[i-1]) / (xs[i] - xs[i-1])
			return ys[i-1] + t*(ys[i]-ys[i-1])
		}
	}
	return ys[len(ys)-1]
}
