package catalog

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

// Every method states the most training points it accepts, no more than
// any data set can have; a data set one point larger is refused by
// sim.Resolve (the one validation path before Init) with a *FieldError
// naming data and the bound, and one at the bound is accepted.
func TestEveryMethodBoundsItsData(t *testing.T) {
	if sim.MaxDataPoints != datasets.MaxCSVRows {
		t.Fatalf("sim.MaxDataPoints %d, the upload limit datasets.MaxCSVRows %d: they must agree", sim.MaxDataPoints, datasets.MaxCSVRows)
	}
	for _, name := range MethodNames() {
		m, err := NewMethod(name, "")
		if err != nil {
			t.Fatal(err)
		}
		spec := m.Spec()
		if spec.MaxPoints < 1 || spec.MaxPoints > sim.MaxDataPoints || spec.MaxPointsWhy == "" {
			t.Errorf("%s: MaxPoints %d (want in [1, %d]) with reason %q", name, spec.MaxPoints, sim.MaxDataPoints, spec.MaxPointsWhy)
			continue
		}
		at := pointsData(spec.MaxPoints)
		if _, err := sim.Resolve(m, at, nil); err != nil {
			t.Errorf("%s at its bound of %d points: %v", name, spec.MaxPoints, err)
		}
		_, err = sim.Resolve(m, pointsData(spec.MaxPoints+1), nil)
		fe, ok := errors.AsType[*sim.FieldError](err)
		if !ok || fe.Field != "data" || !strings.Contains(fe.Message, "at most "+strconv.Itoa(spec.MaxPoints)) {
			t.Errorf("%s at %d points: got %v, want a data error quoting the bound", name, spec.MaxPoints+1, err)
		}
	}
}

// pointsData is n regression points; only their number matters here.
func pointsData(n int) *sim.Dataset {
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = float64(i) / float64(n)
		y[i] = x[i] * x[i]
	}
	return &sim.Dataset{Name: "n", Task: sim.Regression, X: x, Y: y, Grid: []float64{0, 0.5, 1}, XScale: sim.Identity, YScale: sim.Identity, DefaultModel: "linear"}
}
