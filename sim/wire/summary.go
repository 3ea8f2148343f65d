package wire

import (
	"encoding/json"
	"math"

	"github.com/posterior-playground/playground/numeric"
)

// ParamSummary is numeric.ParamSummary on the wire: non-finite fields are
// written as null, and null or missing fields read back as NaN.
type ParamSummary numeric.ParamSummary

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
