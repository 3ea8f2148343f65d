package gallery

import (
	"strings"
	"testing"
)

// TestOptionLabels checks that a choice a person picks from reads as words:
// every option of every method's controls has a label, one per option, and
// no label is a machine name.
func TestOptionLabels(t *testing.T) {
	for _, m := range Methods() {
		for _, c := range m.Controls {
			if len(c.Options) == 0 {
				continue
			}
			if len(c.OptionLabels) != len(c.Options) {
				t.Errorf("%s: control %s has %d options and %d labels", m.Name, c.Name, len(c.Options), len(c.OptionLabels))
				continue
			}
			for i, l := range c.OptionLabels {
				if l == "" || strings.Contains(l, "_") {
					t.Errorf("%s: control %s: option %s is labelled %q", m.Name, c.Name, c.Options[i], l)
				}
			}
		}
	}
}
