package sim

import "math"

// InbetweenRatio is the in-between ratio: the posterior std of f at the
// gap's centre, sdGap, over the mean of its std at the training inputs,
// sdData. A well-calibrated model is more uncertain between clusters of
// data than on them (ratio > 1); mean-field VI is known to give about 0.5.
// The summary of `playground run` and the live frames both compute it here.
// It is NaN without data or when f is certain at every training input.
func InbetweenRatio(sdData []float64, sdGap float64) float64 {
	var onData float64
	for _, s := range sdData {
		onData += s
	}
	onData /= float64(len(sdData))
	if !(onData > 0) {
		return math.NaN()
	}
	return sdGap / onData
}
