package fbnn

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// The GP prior's hyperparameters and the injected noise are in data units:
// for a user's file the spec quotes them in the file's units (variance in
// y², lengthscale and period in x, the noise in y), so the page and the
// command line label and read them there; the other controls have none.
func TestSpecUnits(t *testing.T) {
	want := map[string]sim.Unit{"variance": sim.UnitY2, "lengthscale": sim.UnitX, "period": sim.UnitX, "injected_noise": sim.UnitY}
	m, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	spec := m.Spec()
	for _, c := range spec.Controls {
		if c.Unit != want[c.Name] {
			t.Errorf("%s: unit %q, want %q", c.Name, c.Unit, want[c.Name])
		}
	}
	d := &sim.Dataset{FromFile: true, XScale: sim.Affine{Mean: 5, Std: 2}, YScale: sim.Affine{Mean: -1, Std: 3}}
	factor := map[sim.Unit]float64{sim.UnitX: 2, sim.UnitY: 3, sim.UnitY2: 9, "": 1}
	in := spec.InUnits(d)
	for i, c := range in.Controls {
		base := spec.Controls[i]
		f := factor[base.Unit]
		if math.Abs(c.Min-f*base.Min) > 1e-12*c.Min || math.Abs(c.Max-f*base.Max) > 1e-12*c.Max {
			t.Errorf("%s in the file's units: [%g, %g], want [%g, %g]", c.Name, c.Min, c.Max, f*base.Min, f*base.Max)
		}
	}
	// A lengthscale of 4 file units is 2 model units when x was divided by 2.
	if got := spec.ToModelUnits(d, sim.Controls{"lengthscale": sim.Num(4)})["lengthscale"].Num; got != 2 {
		t.Errorf("lengthscale 4 (x units) is %g model units, want 2", got)
	}
}
