package sim

import "math"

// MomentsError is how far a fit's predictive moments of f (mean, sd, at
// the same inputs) are from the exact ones (exactMean, exactSD): the
// largest distance of the means in units of the exact sd,
// max |m − m*|/sd*, and the largest relative error of the sds,
// max |sd/sd* − 1|. Both are scale-free, so model and user units give
// the same numbers. The equal-budget race of the variational GP against
// the exact GP is judged by them, in its test (sim/experiment) and on
// the play page's race chart (static/app/race_page.js, which computes
// the same two maxima from the frames' closed-form moments). Both are
// NaN when the lengths differ, there are no inputs, or an exact sd is
// not positive.
func MomentsError(mean, sd, exactMean, exactSD []float64) (meanErr, sdErr float64) {
	n := len(exactMean)
	if n == 0 || len(mean) != n || len(sd) != n || len(exactSD) != n {
		return math.NaN(), math.NaN()
	}
	for i := range n {
		if !(exactSD[i] > 0) {
			return math.NaN(), math.NaN()
		}
		meanErr = max(meanErr, math.Abs(mean[i]-exactMean[i])/exactSD[i])
		sdErr = max(sdErr, math.Abs(sd[i]/exactSD[i]-1))
	}
	return meanErr, sdErr
}
