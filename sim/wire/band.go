package wire

import (
	"encoding/json"

	"github.com/posterior-playground/playground/sim"
)

// Mark records a live control change, so a plot can show cause and effect.
type Mark struct {
	Step  int64     `json:"step"`
	Name  string    `json:"name"`
	Value sim.Value `json:"value"`
}

// Band is a predictive band on the data set's grid, in the user's units:
// the mean and mean ± 2 standard deviations of f over sampled functions,
// and a few of the sampled functions.
type Band struct {
	X       []float64   `json:"x"`
	Mean    []float64   `json:"mean"`
	Lo      []float64   `json:"lo"`
	Hi      []float64   `json:"hi"`
	Samples [][]float64 `json:"samples"`

	enc []byte // the JSON, encoded once by Seal; viewers share it
}

// Seal encodes the band once; from then on it is immutable and MarshalJSON
// returns those bytes, so every viewer of a run sends the same bytes
// without encoding them again.
func (b *Band) Seal() {
	b.enc = nil
	b.enc, _ = b.MarshalJSON() // float slices always encode
}

// MarshalJSON returns the sealed encoding, or encodes the band when it was
// not sealed.
func (b *Band) MarshalJSON() ([]byte, error) {
	if b.enc != nil {
		return b.enc, nil
	}
	type plain Band // no methods: the default encoding
	return json.Marshal((*plain)(b))
}

// DataPoints is the training data and the truth on the grid, user units.
type DataPoints struct {
	Task  sim.Task  `json:"task"`
	X     []float64 `json:"x"`
	Y     []float64 `json:"y"`
	Grid  []float64 `json:"grid"`
	Truth []float64 `json:"truth,omitempty"` // on Grid; absent when unknown
}
