package scenario

import (
	"errors"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// RunControls sets the scenario's values for the method, fills the rest
// with the spec's defaults, and refuses a method the scenario lacks or a
// value its spec does not allow, naming the field.
func TestRunControls(t *testing.T) {
	s, ok := BySlug("mfvi-vs-gip-gap")
	if !ok {
		t.Fatal("no scenario mfvi-vs-gip-gap")
	}
	c, err := s.RunControls("gip")
	if err != nil {
		t.Fatal(err)
	}
	if got := c["prior_scale"].String(); got != s.Controls["gip.prior_scale"] {
		t.Errorf("gip's prior_scale = %s, want the scenario's %s", got, s.Controls["gip.prior_scale"])
	}
	spec, err := pageSpec("gip", s.Data, s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, ctl := range spec.Controls {
		if _, set := s.Controls["gip."+ctl.Name]; !set && c[ctl.Name].String() != ctl.Default.String() {
			t.Errorf("gip's %s = %v, want the default %v", ctl.Name, c[ctl.Name], ctl.Default)
		}
	}
	for _, tc := range []struct {
		s      Scenario
		method string
		field  string
	}{
		{s, "nuts", "method"},
		{Scenario{Data: "gap", Methods: []string{"gip"}, Seed: 1, Controls: map[string]string{"gip.prior_scale": "abc"}}, "gip", "gip.prior_scale"},
		{Scenario{Data: "gap", Methods: []string{"gip"}, Seed: 1, Controls: map[string]string{"gip.prior_scale": "1e9"}}, "gip", "gip.prior_scale"},
		{Scenario{Data: "gap", Methods: []string{"gip"}, Seed: 1, Controls: map[string]string{"gip.bogus": "1"}}, "gip", "gip.bogus"},
	} {
		_, err := tc.s.RunControls(tc.method)
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s %v: error %v, want a field error naming %s", tc.method, tc.s.Controls, err, tc.field)
		}
	}
}
