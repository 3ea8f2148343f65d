package catalog

import (
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// The contract stays small: every optional interface of sim is implemented
// by more than one method of the catalog (sim's package doc lists them and
// why each is an interface); a capability only one method has is a field of
// sim.Extras. Every method on data returns Extras.
func TestOptionalInterfacesHaveSeveralMethods(t *testing.T) {
	is := map[string]func(sim.Method) bool{
		"Extender":   func(m sim.Method) bool { _, ok := m.(sim.Extender); return ok },
		"EnvSetter":  func(m sim.Method) bool { _, ok := m.(sim.EnvSetter); return ok },
		"EvalSeeder": func(m sim.Method) bool { _, ok := m.(sim.EvalSeeder); return ok },
		"DataSetter": func(m sim.Method) bool { _, ok := m.(sim.DataSetter); return ok },
		"Weights":    func(m sim.Method) bool { _, ok := m.(sim.Weights); return ok },
		"Chains":     func(m sim.Method) bool { _, ok := m.(sim.Chains); return ok },
		"DataSpec":   func(m sim.Method) bool { _, ok := m.(sim.DataSpec); return ok },
	}
	names := MethodNames()
	for iface, implements := range is {
		var by []string
		for _, name := range names {
			m, err := NewMethod(name, "")
			if err != nil {
				t.Fatal(err)
			}
			if implements(m) {
				by = append(by, name)
			}
		}
		if len(by) < 2 {
			t.Errorf("sim.%s is implemented by %v: fold it into sim.Extras", iface, by)
		}
		if iface == "Extender" && len(by) != len(names) {
			t.Errorf("sim.Extender is implemented by %v, not by every method on data %v", by, names)
		}
		t.Logf("sim.%s: %v", iface, by)
	}
}
