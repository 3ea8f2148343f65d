package wire_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/wire"
)

func TestParamSummaryJSON(t *testing.T) {
	s := wire.ParamSummary{Mean: 1.5, SD: 0.25, Q05: -1, Q50: 1.5, Q95: 4, ESSBulk: 812.5, ESSTail: math.Inf(1), RHat: math.NaN()}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"mean":1.5,"sd":0.25,"q05":-1,"q50":1.5,"q95":4,"ess_bulk":812.5,"ess_tail":null,"rhat":null}`
	if string(b) != want {
		t.Errorf("Marshal = %s, want %s", b, want)
	}
	var back wire.ParamSummary
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Mean != 1.5 || back.ESSBulk != 812.5 || !math.IsNaN(back.ESSTail) || !math.IsNaN(back.RHat) {
		t.Errorf("round trip = %+v", back)
	}
	// Also inside a slice or a struct, by value.
	if b, err := json.Marshal([]wire.ParamSummary{wire.ParamSummary(numeric.Summarize(nil))}); err != nil || string(b) !=
		`[{"mean":null,"sd":null,"q05":null,"q50":null,"q95":null,"ess_bulk":null,"ess_tail":null,"rhat":null}]` {
		t.Errorf("Marshal(all NaN) = %s, %v", b, err)
	}
}

func TestSeriesJSON(t *testing.T) {
	b, err := json.Marshal(wire.Series{{Step: 3, Value: 1.5}, {Step: 4, Value: math.NaN()}, {Step: 5, Value: math.Inf(-1)}})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "[[3,1.5],[4,null],[5,null]]" {
		t.Fatalf("got %s", b)
	}
}
