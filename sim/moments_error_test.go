package sim_test

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// TestMomentsError: the two maxima in closed form, their invariance under
// an affine change of units (the page's user units against the test's
// model units), and NaN where there is nothing to compare.
func TestMomentsError(t *testing.T) {
	// Point 0: the mean 0.5 exact sds off, the sd 20% wide; point 1: the
	// mean 1.5 exact sds off (3 − 0 over 2), the sd 25% narrow.
	mean, sd := []float64{1.5, 3}, []float64{1.2, 1.5}
	em, es := []float64{1, 0}, []float64{1, 2}
	me, se := sim.MomentsError(mean, sd, em, es)
	if math.Abs(me-1.5) > 1e-15 || math.Abs(se-0.25) > 1e-15 {
		t.Errorf("MomentsError = %g, %g, want 1.5, 0.25", me, se)
	}
	// y ↦ a + b·y moves means and scales sds by |b|: the errors stay.
	a, b := 3.0, -2.5
	user := func(m, s []float64) ([]float64, []float64) {
		um, us := make([]float64, len(m)), make([]float64, len(s))
		for i := range m {
			um[i], us[i] = a+b*m[i], math.Abs(b)*s[i]
		}
		return um, us
	}
	um, us := user(mean, sd)
	uem, ues := user(em, es)
	if me2, se2 := sim.MomentsError(um, us, uem, ues); math.Abs(me2-me) > 1e-14 || math.Abs(se2-se) > 1e-14 {
		t.Errorf("in other units MomentsError = %g, %g, want %g, %g", me2, se2, me, se)
	}
	if me, se := sim.MomentsError(em, es, em, es); me != 0 || se != 0 {
		t.Errorf("the exact against itself: %g, %g, want 0, 0", me, se)
	}
	for _, c := range []struct {
		name         string
		m, s, eM, eS []float64
	}{
		{"no inputs", nil, nil, nil, nil},
		{"ragged", mean[:1], sd, em, es},
		{"a zero exact sd", mean, sd, em, []float64{1, 0}},
		{"a NaN exact sd", mean, sd, em, []float64{math.NaN(), 1}},
	} {
		if me, se := sim.MomentsError(c.m, c.s, c.eM, c.eS); !math.IsNaN(me) || !math.IsNaN(se) {
			t.Errorf("%s: %g, %g, want NaN, NaN", c.name, me, se)
		}
	}
}
