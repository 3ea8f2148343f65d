package catalog

import (
	"slices"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// TestHumanLabels checks that a person never reads a machine name: every
// control and every trace of every method, for every model, has a label
// that is not its key and has no underscore; an on/off setting is a
// toggle; a trace's condition names a real control (or the data's task)
// and values it can take.
func TestHumanLabels(t *testing.T) {
	human := func(key, label string) bool {
		return label != "" && label != key && !strings.Contains(label, "_")
	}
	for _, name := range MethodNames() {
		m, err := NewMethod(name, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, model := range append([]string{""}, m.Spec().Models...) {
			m, err := NewMethod(name, model)
			if err != nil {
				t.Fatal(err)
			}
			s := m.Spec()
			where := name + "/" + model
			if !human(s.Name, s.Label) {
				t.Errorf("%s: method label %q", where, s.Label)
			}
			for _, c := range s.Controls {
				if !human(c.Name, c.Label) {
					t.Errorf("%s: control %s has label %q", where, c.Name, c.Label)
				}
				onOff := len(c.Options) == 0 && c.Integer && c.Min == 0 && c.Max == 1
				if onOff != c.Toggle {
					t.Errorf("%s: control %s: an integer in [0, 1] is an on/off toggle and only it (toggle %v)", where, c.Name, c.Toggle)
				}
			}
			for _, tr := range s.Traces {
				info, ok := s.TraceInfo[tr]
				if !ok {
					t.Errorf("%s: trace %s has no TraceInfo", where, tr)
					continue
				}
				if !human(tr, info.Label) {
					t.Errorf("%s: trace %s has label %q", where, tr, info.Label)
				}
				for key, vals := range info.Only {
					if key == sim.TaskKey {
						for _, v := range vals {
							if v != string(sim.Regression) && v != string(sim.Classification) {
								t.Errorf("%s: trace %s shown for task %q", where, tr, v)
							}
						}
						continue
					}
					c, ok := s.Control(key)
					if !ok {
						t.Errorf("%s: trace %s depends on %q, not a control", where, tr, key)
						continue
					}
					for _, v := range vals {
						if !slices.Contains(c.Options, v) {
							t.Errorf("%s: trace %s shown for %s = %q, not one of %v", where, tr, key, v, c.Options)
						}
					}
				}
			}
		}
	}
}
