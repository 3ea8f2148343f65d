package datasets

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// Edit keeps the data set's units: its own points given back in user
// units come out as they were (to rounding), the scales, grid and truth
// are the data set's, and the gap follows the points.
func TestEditKeepsUnitsAndFindsGap(t *testing.T) {
	d, err := Load("gap", 1)
	if err != nil {
		t.Fatal(err)
	}
	xu, yu := make([]float64, d.N()), make([]float64, d.N())
	for i := range d.N() {
		xu[i], yu[i] = d.XScale.ToUser(d.X[i]), d.YScale.ToUser(d.Y[i])
	}
	e, err := Edit(d, xu, yu)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.N() {
		// ToModel(ToUser(v)) is v to a few ulps of the user value.
		if math.Abs(e.X[i]-d.X[i]) > 1e-12 || math.Abs(e.Y[i]-d.Y[i]) > 1e-12 {
			t.Fatalf("point %d: (%g, %g), the data set's (%g, %g)", i, e.X[i], e.Y[i], d.X[i], d.Y[i])
		}
	}
	if e.XScale != d.XScale || e.YScale != d.YScale || &e.Grid[0] != &d.Grid[0] || !e.HasGap || e.GapCentre != d.GapCentre {
		t.Fatalf("edit of the same points: scales %v %v, gap %v at %g; want the data set's (gap at %g)", e.XScale, e.YScale, e.HasGap, e.GapCentre, d.GapCentre)
	}
	// Fill the gap with points every 0.1 in model units: no gap left.
	for x := -2.0; x <= 2; x += 0.1 {
		xu, yu = append(xu, d.XScale.ToUser(x)), append(yu, 0)
	}
	if f, err := Edit(d, xu, yu); err != nil || f.HasGap {
		t.Fatalf("gap filled: %v, HasGap %v", err, f != nil && f.HasGap)
	}
}

// Edit refuses what an upload refuses, naming data.
func TestEditRefuses(t *testing.T) {
	d, err := Load("gap", 1)
	if err != nil {
		t.Fatal(err)
	}
	hi := d.XScale.ToUser(d.Grid[len(d.Grid)-1])
	for _, tc := range []struct {
		name   string
		x, y   []float64
		saying string
	}{
		{"one point", []float64{0}, []float64{0}, "at least 2"},
		{"ragged", []float64{0, 1}, []float64{0}, "as many"},
		{"NaN", []float64{0, math.NaN()}, []float64{0, 0}, "not finite"},
		{"Inf", []float64{0, 1}, []float64{math.Inf(1), 0}, "not finite"},
		{"off the plot", []float64{0, hi + 1}, []float64{0, 0}, "outside the plot's x-range"},
		{"y far off", []float64{0, 1}, []float64{0, d.YScale.ToUser(MaxEditY + 1)}, "standard deviations"},
		{"x constant", []float64{1, 1}, []float64{0, 1}, "must vary"},
		{"too many", make([]float64, MaxEditPoints+1), make([]float64, MaxEditPoints+1), "at most"},
	} {
		_, err := Edit(d, tc.x, tc.y)
		fe, ok := errors.AsType[*sim.FieldError](err)
		if !ok || fe.Field != "data" || !strings.Contains(fe.Message, tc.saying) {
			t.Errorf("%s: %v, want a field error on data saying %q", tc.name, err, tc.saying)
		}
	}
}
