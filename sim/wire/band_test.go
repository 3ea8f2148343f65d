package wire_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim/wire"
)

// A band with closed-form moments sends them as f_mean and f_sd, decoded
// by encoding/json to the very float64s sealed (unlike the band's other
// numbers, written to 6 significant digits); a band without them has
// neither key.
func TestBandMomentsJSON(t *testing.T) {
	b := &wire.Band{X: []float64{-1, 1}, Mean: []float64{0.1, 0.2}, Lo: []float64{-1, -1}, Hi: []float64{1, 1},
		FMean: []float64{0.123456789, -2.5}, FSD: []float64{0.0314159265, 1}}
	b.Seal()
	enc, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var back wire.Band
	if err := json.Unmarshal(enc, &back); err != nil {
		t.Fatal(err)
	}
	for i := range b.FMean {
		for _, c := range []struct {
			name      string
			got, want float64
		}{{"f_mean", back.FMean[i], b.FMean[i]}, {"f_sd", back.FSD[i], b.FSD[i]}} {
			if c.got != c.want {
				t.Errorf("%s[%d] = %v, want %v", c.name, i, c.got, c.want)
			}
		}
	}
	b.FMean, b.FSD = nil, nil
	b.Seal()
	if enc, _ := json.Marshal(b); strings.Contains(string(enc), "f_mean") || strings.Contains(string(enc), "f_sd") {
		t.Errorf("a band without moments encodes them: %s", enc)
	}
}
