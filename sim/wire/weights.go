package wire

import "encoding/json"

// WeightSet is the marginal of one weight at one step. Like a Frame it is
// immutable once published and marshals to the JSON encoded when it was made.
type WeightSet struct {
	Step       int64     `json:"step"`
	Index      int       `json:"index"`
	NumWeights int       `json:"num_weights"`
	Name       string    `json:"name,omitempty"`
	Kind       string    `json:"kind"` // "samples" (histogram) or "gaussian"
	Mean       float64   `json:"mean"`
	Std        float64   `json:"std"`
	Draws      int       `json:"draws,omitempty"`     // samples: draws behind the histogram
	Edges      []float64 `json:"edges,omitempty"`     // samples: bin edges
	Density    []float64 `json:"density,omitempty"`   // samples: density per bin (all draws count in the normalisation)
	Kurtosis   float64   `json:"kurtosis"`            // excess kurtosis: 0 for a Gaussian, > 0 heavy tails
	Outside    float64   `json:"outside,omitempty"`   // samples: fraction of draws outside the edges
	Quantiles  []float64 `json:"quantiles,omitempty"` // samples: 1%, 50%, 99%

	raw []byte
}

// Seal encodes the set once; from then on it is immutable and MarshalJSON
// returns those bytes.
func (w *WeightSet) Seal() error {
	w.raw = nil
	raw, err := w.MarshalJSON()
	w.raw = raw
	return err
}

// MarshalJSON returns the sealed encoding, or encodes the set when it was
// not sealed.
func (w *WeightSet) MarshalJSON() ([]byte, error) {
	if w.raw != nil {
		return w.raw, nil
	}
	type plain WeightSet
	return json.Marshal((*plain)(w))
}
