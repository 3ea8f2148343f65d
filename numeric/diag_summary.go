package numeric

import (
	"encoding/json"
	"math"
)

// ParamSummary is one row of ArviZ's summary for a scalar parameter: pooled
// mean and standard deviation (ddof 1), type-7 quantiles of the pooled draws,
// bulk and tail ESS and rank-normalised split R̂.
//
// Undefined values are NaN. encoding/json cannot encode NaN, so ParamSummary
// marshals non-finite fields as null, and null unmarshals to NaN.
type ParamSummary struct {
	Mean    float64 `json:"mean"`
	SD      float64 `json:"sd"`
	Q05     float64 `json:"q05"`
	Q50     float64 `json:"q50"`
	Q95     float64 `json:"q95"`
	ESSBulk float64 `json:"ess_bulk"`
	ESSTail float64 `json:"ess_tail"`
	RHat    float64 `json:"rhat"`
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
	nan := math.NaN()
	s := ParamSummary{nan, nan, nan, nan, nan, nan, nan, nan}
	c, n := chainShape(chains)
	if c*n == 0 || hasNaN(chains) {
		return s
	}
	var w *diagWork
	var sorted []float64
	if n >= minDiagDraws {
		w = newDiagWork(chains)
		bulk := w.bulk()
		sorted = w.sortedDraws(chains) // needs w.pairs as bulk left it; rhat reuses them

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

// paramSummaryJSON mirrors ParamSummary with nullable fields.
type paramSummaryJSON struct {
	Mean    *float64 `json:"mean"`
	SD      *float64 `json:"sd"`
	Q05     *float64 `json:"q05"`
	Q50     *float64 `json:"q50"`
	Q95     *float64 `json:"q95"`
	ESSBulk *float64 `json:"ess_bulk"`
	ESSTail *float64 `json:"ess_tail"`
	RHat    *float64 `json:"rhat"`
}

func (p *ParamSummary) fields() [8]*float64 {
	return [8]*float64{&p.Mean, &p.SD, &p.Q05, &p.Q50, &p.Q95, &p.ESSBulk, &p.ESSTail, &p.RHat}
}

func (j *paramSummaryJSON) fields() [8]**float64 {
	return [8]**float64{&j.Mean, &j.SD, &j.Q05, &j.Q50, &j.Q95, &j.ESSBulk, &j.ESSTail, &j.RHat}
}

// MarshalJSON writes non-finite fields as null.
func (p ParamSummary) MarshalJSON() ([]byte, error) {
	var j paramSummaryJSON
	jf := j.fields()
	for i, f := range p.fields() {
		if !math.IsNaN(*f) && !math.IsInf(*f, 0) {
			*jf[i] = f
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads null or missing fields as NaN.
func (p *ParamSummary) UnmarshalJSON(data []byte) error {
	var j paramSummaryJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	jf := j.fields()
	for i, f := range p.fields() {
		*f = math.NaN()
		if *jf[i] != nil {
			*f = **jf[i]
		}
	}
	return nil
}
