package numeric_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
)

func TestParamSummaryJSON(t *testing.T) {
	s := numeric.ParamSummary{Mean: 1.5, SD: 0.25, Q05: -1, Q50: 1.5, Q95: 4, ESSBulk: 812.5, ESSTail: math.Inf(1), RHat: math.NaN()}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"mean":1.5,"sd":0.25,"q05":-1,"q50":1.5,"q95":4,"ess_bulk":812.5,"ess_tail":null,"rhat":null}`
	if string(b) != want {
		t.Errorf("Marshal = %s, want %s", b, want)
	}
	var back numeric.ParamSummary
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Mean != 1.5 || back.ESSBulk != 812.5 || !math.IsNaN(back.ESSTail) || !math.IsNaN(back.RHat) {
		t.Errorf("round trip = %+v", back)
	}
	// Also inside a slice or a struct, by value.
	if b, err := json.Marshal([]numeric.ParamSummary{numeric.Summarize(nil)}); err != nil || string(b) !=
		`[{"mean":null,"sd":null,"q05":null,"q50":null,"q95":null,"ess_bulk":null,"ess_tail":null,"rhat":null}]` {
		t.Errorf("Marshal(all NaN) = %s, %v", b, err)
	}
}

// 4 chains × 10000 draws, the dashboard's typical load.
func benchChains() [][]float64 {
	return ar1Chains(numeric.NewRand(1), 4, 10000, 0.5)
}

func BenchmarkRHatESSBulkESSTail(b *testing.B) {
	ch := benchChains()
	b.ReportAllocs()
	for b.Loop() {
		numeric.RHat(ch)
		numeric.ESSBulk(ch)
		numeric.ESSTail(ch)
	}
}

func BenchmarkSummarize(b *testing.B) {
	ch := benchChains()
	b.ReportAllocs()
	for b.Loop() {
		numeric.Summarize(ch)
	}
}

func BenchmarkAutocorrelation(b *testing.B) {
	x := benchChains()[0]
	b.ReportAllocs()
	for b.Loop() {
		numeric.Autocorrelation(x, 100)
	}
}
