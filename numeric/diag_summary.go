package numeric

import (
	"math"
)

// ParamSummary is one row of ArviZ's summary for a scalar parameter: pooled
// mean and standard deviation (ddof 1), type-7 quantiles of the pooled draws,
// bulk and tail ESS and rank-normalised split R̂.
//
// Undefined values are NaN (wire.ParamSummary writes them as null).
type ParamSummary struct {
	Mean    float64
	SD      float64
	Q05     float64
	Q50     float64
	Q95     float64
	ESSBulk float64
	ESSTail float64
	RHat    float64
}

// Summarize returns the summary of the draws chains[c][i]. The statistics
// need at least one draw (SD two); the diagnostics follow RHat, ESSBulk and
// ESSTail (NaN for fewer than 4 draws per chain or any NaN draw) and equal
// them exactly, sharing the split, rank-normalised and sorted arrays.
//
// Unlike ArviZ's summary, R̂ is computed for a single chain too, and the
// tail R̂ folds about the median of the split draws as az.rhat does (the
// summary's internal version folds about the median of all draws; the two
// differ only when n is odd).
func Summarize(chains [][]float64) ParamSummary {
	var s Summarizer
	return s.Summarize(chains)
}

// Summarizer is Summarize with its scratch kept between calls: summarising
// many arrays of one shape (a function at every point of a grid) builds the
// buffers, the FFT plan and the table of normal scores once. The results
// are Summarize's, bit for bit. The zero value is ready; a Summarizer is
// used by one goroutine at a time.
type Summarizer struct {
	w diagWork
}

// Summarize returns Summarize(chains).
func (z *Summarizer) Summarize(chains [][]float64) ParamSummary {
	nan := math.NaN()
	s := ParamSummary{nan, nan, nan, nan, nan, nan, nan, nan}
	c, n := chainShape(chains)
	if c*n == 0 || hasNaN(chains) {
		return s
	}
	var sorted []float64
	if n >= minDiagDraws {
		w := &z.w
		w.reset(chains)
		bulk := w.bulk()
		sorted = w.sortedDraws(chains) // needs w.rank.pairs as bulk left them; rhat reuses them

		s.ESSBulk = w.ess.ess(bulk)
		s.RHat = w.rhat(bulk)
		s.ESSTail = w.essTail(sorted)
	} else {
		sorted = sortedPool(chains)
	}
	mean, std := MeanStd(sorted)
	s.Mean = mean
	if size := float64(c * n); size > 1 {
		s.SD = std * math.Sqrt(size/(size-1))
	}
	s.Q05, s.Q50, s.Q95 = Quantile(sorted, 0.05), Quantile(sorted, 0.5), Quantile(sorted, 0.95)
	return s
}
