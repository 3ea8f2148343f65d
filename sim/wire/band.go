package wire

import (
	"math"
	"strconv"

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
	// FMean and FSD are f's mean and sd on the grid in closed form, user
	// units, for a method that has them (sim.Extras.PredictMoments: the
	// GP methods); nil otherwise. Mean, Lo and Hi are over the sampled
	// functions and carry their Monte Carlo error; these do not, so a
	// fit can be measured against an exact posterior from them
	// (sim.MomentsError; the play page's race chart). They are written in
	// full: a fit that has converged is nearer the exact than 6 digits
	// tell apart (its error would read 0, off a log axis).
	FMean []float64 `json:"f_mean,omitempty"`
	FSD   []float64 `json:"f_sd,omitempty"`

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
//
// Numbers are written to 6 significant digits, as the draws are: a plot
// 2,000 pixels high resolves 4, and full precision would double the bytes
// every viewer is sent (about 34 KB a band at 201 points); the band CSV
// and JSON exports carry these values. Non-finite values are null.
func (b *Band) MarshalJSON() ([]byte, error) {
	if b.enc != nil {
		return b.enc, nil
	}
	out := make([]byte, 0, 16*(4+len(b.Samples))*len(b.X)+48*len(b.FMean)+64) // x, mean, lo, hi and the samples; f_mean and f_sd in full
	out = append(out, `{"x":`...)
	out = appendBandFloats(out, b.X)
	out = append(out, `,"mean":`...)
	out = appendBandFloats(out, b.Mean)
	out = append(out, `,"lo":`...)
	out = appendBandFloats(out, b.Lo)
	out = append(out, `,"hi":`...)
	out = appendBandFloats(out, b.Hi)
	out = append(out, `,"samples":`...)
	if b.Samples == nil {
		out = append(out, "null"...)
	} else {
		out = append(out, '[')
		for i, s := range b.Samples {
			if i > 0 {
				out = append(out, ',')
			}
			out = appendBandFloats(out, s)
		}
		out = append(out, ']')
	}
	if b.FMean != nil && b.FSD != nil {
		out = append(out, `,"f_mean":`...)
		out = appendFullFloats(out, b.FMean)
		out = append(out, `,"f_sd":`...)
		out = appendFullFloats(out, b.FSD)
	}
	return append(out, '}'), nil
}

func appendBandFloats(b []byte, v []float64) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendFloat(b, x)
	}
	return append(b, ']')
}

// appendFullFloats writes v to the shortest decimals that read back as
// the same float64s; non-finite values are null.
func appendFullFloats(b []byte, v []float64) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendFloat(b, x, 'g', -1, 64)
		}
	}
	return append(b, ']')
}

// DataPoints is the training data and the truth on the grid, user units.
type DataPoints struct {
	Task  sim.Task  `json:"task"`
	X     []float64 `json:"x"`
	Y     []float64 `json:"y"`
	Grid  []float64 `json:"grid"`
	Truth []float64 `json:"truth,omitempty"` // on Grid; absent when unknown
}
