package sim_test

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// momentsErrorCase is one case of testdata/moments_error.json, the cases
// the page's copy of MomentsError (static/app/race_page.js) is tested on
// too, so the two compute the same numbers; nil errors stand for NaN.
type momentsErrorCase struct {
	Why       string
	Mean, SD  []float64
	ExactMean []float64 `json:"exact_mean"`
	ExactSD   []float64 `json:"exact_sd"`
	MeanError *float64  `json:"mean_error"`
	SDError   *float64  `json:"sd_error"`
}

// TestMomentsError: the two maxima in closed form (each case says why),
// unchanged by an affine change of units, and NaN where there is nothing
// to compare.
func TestMomentsError(t *testing.T) {
	b, err := os.ReadFile("testdata/moments_error.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []momentsErrorCase }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) == 0 {
		t.Fatal("no cases")
	}
	near := func(got float64, want *float64) bool {
		if want == nil {
			return math.IsNaN(got)
		}
		return math.Abs(got-*want) <= 1e-12
	}
	for _, c := range f.Cases {
		me, se := sim.MomentsError(c.Mean, c.SD, c.ExactMean, c.ExactSD)
		if !near(me, c.MeanError) || !near(se, c.SDError) {
			t.Errorf("%s: MomentsError = %g, %g, want %v, %v", c.Why, me, se, show(c.MeanError), show(c.SDError))
		}
	}
}

func show(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}
