package engine

import (
	"math"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/wire"
)

// addMoments puts f's closed-form mean and sd on the grid (user units) on
// band, for a method that has them (sim.Extras.PredictMoments), so that
// the page can measure one GP against another without the band's Monte
// Carlo error (static/app/race_page.js). It leaves band as it is when the
// method has none here or they are not finite.
func addMoments(band *wire.Band, m sim.Method, d *sim.Dataset) {
	predict := sim.ExtrasOf(m).PredictMoments
	if predict == nil || d.Task == sim.Classification {
		return // a classifier's band is of probabilities, not of f
	}
	n := len(d.Grid)
	mean, sd := make([]float64, n), make([]float64, n)
	if !predict(d.Grid, mean, sd) {
		return
	}
	ys := d.YScale
	for i := range n {
		mean[i], sd[i] = ys.ToUser(mean[i]), sd[i]*math.Abs(ys.Std)
		if !finite(mean[i]) || !finite(sd[i]) {
			return
		}
	}
	band.FMean, band.FSD = mean, sd
}
