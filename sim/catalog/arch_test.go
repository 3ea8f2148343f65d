package catalog

import (
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/simtest"
)

// Every method with a network keeps the contract on a network other than
// the default: three hidden layers, one of width one, tanh. Same data and
// steps as its plan in TestCatalogConforms.
func TestNonDefaultArchConforms(t *testing.T) {
	ps := plans()
	arch := sim.Controls{"arch": sim.Choice("3,1,7"), "activation": sim.Choice("tanh")}
	n := 0
	for _, name := range MethodNames() {
		m, err := NewMethod(name, "bnn")
		if err != nil || !slices.Contains(m.Spec().Models, "bnn") {
			continue // no network (the GP methods)
		}
		if _, ok := m.Spec().Control("arch"); !ok {
			t.Errorf("%s runs a network but has no arch control", name)
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			p := ps[name]
			d, err := datasets.Load(p.data["bnn"], 1)
			if err != nil {
				t.Fatal(err)
			}
			ctl := maps.Clone(p.ctl)
			if ctl == nil {
				ctl = sim.Controls{}
			}
			maps.Copy(ctl, arch)
			simtest.TestMethod(t, func() (sim.Method, error) { return NewMethod(name, "bnn") }, d,
				simtest.Options{Steps: p.steps, Controls: ctl})
		})
	}
	if n < 10 {
		t.Errorf("%d methods with a network, want the 10 (mfvi, gip, livi, fbnn, map, ensemble and four samplers)", n)
	}
}

// A bad network is a field error naming the control, for every method.
func TestBadArchIsFieldError(t *testing.T) {
	d, err := datasets.Load("periodic", 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range MethodNames() {
		m, err := NewMethod(name, "bnn")
		if err != nil || !slices.Contains(m.Spec().Models, "bnn") {
			continue
		}
		for field, v := range map[string]string{"arch": "300", "activation": "sigmoid"} {
			_, err := sim.Resolve(m, d, sim.Controls{field: sim.Choice(v)})
			if fe, ok := errors.AsType[*sim.FieldError](err); !ok || fe.Field != field {
				t.Errorf("%s with %s=%q: %v, want a field error naming %s", name, field, v, err, field)
			}
		}
	}
}
