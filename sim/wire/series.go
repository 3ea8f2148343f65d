package wire

import (
	"math"
	"strconv"

	"github.com/posterior-playground/playground/numeric"
)

// Series is a run of recorded points. It marshals to [[step,value],…],
// with null for a NaN or infinite value.
type Series []numeric.Point

// MarshalJSON writes [[step,value],…].
func (s Series) MarshalJSON() ([]byte, error) {
	if s == nil {
		return []byte("null"), nil
	}
	b := make([]byte, 0, 2+len(s)*24)
	b = append(b, '[')
	for i, p := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, p.Step, 10)
		b = append(b, ',')
		if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendFloat(b, p.Value, 'g', -1, 64)
		}
		b = append(b, ']')
	}
	return append(b, ']'), nil
}
