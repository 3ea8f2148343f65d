package model

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

func TestParseArch(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
	}{
		{"50,50", []int{1, 50, 50, 1}},
		{"", []int{1, 1}},
		{"0", []int{1, 1}},
		{" 7, 10 ", []int{1, 7, 10, 1}},
		{"1,256,3,4", []int{1, 1, 256, 3, 4, 1}},
	} {
		a, err := ParseArch(tc.in, ELU)
		if err != nil || !slices.Equal(a.Widths, tc.want) || a.Act != ELU {
			t.Errorf("ParseArch(%q) = %v, %v; want %v", tc.in, a, err, tc.want)
		}
	}
	for _, bad := range []string{"257", "0,5", "1,2,3,4,5", "a", "5,", "-1", "2.5"} {
		_, err := ParseArch(bad, ReLU)
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != ControlArch {
			t.Errorf("ParseArch(%q): error %v, want a field error naming %s", bad, err, ControlArch)
		}
	}
	if _, err := ParseActivation("sigmoid"); err == nil {
		t.Error("ParseActivation(sigmoid) succeeded")
	}
	for _, p := range Presets() {
		if _, err := ParseArch(p.Hidden, p.Act); err != nil {
			t.Errorf("preset %s: %v", p.Name, err)
		}
	}
	if got := DefaultArch().Hidden(); got != "50,50" {
		t.Errorf("DefaultArch().Hidden() = %q", got)
	}
	// The controls validate through sim's one path.
	spec := sim.MethodSpec{Name: "x", Controls: ArchControls()}
	if _, err := spec.Resolve(sim.Controls{ControlArch: sim.Choice("9,999")}); err == nil {
		t.Error("arch 9,999 resolved")
	}
	c, err := spec.Resolve(sim.Controls{ControlArch: sim.Choice("20"), ControlActivation: sim.Choice("tanh")})
	if err != nil {
		t.Fatal(err)
	}
	a, err := ArchFromControls(c)
	if err != nil || !slices.Equal(a.Widths, []int{1, 20, 1}) || a.Act != Tanh {
		t.Errorf("ArchFromControls = %v, %v", a, err)
	}
}

func TestPresetNamed(t *testing.T) {
	for _, p := range Presets() {
		for _, s := range []string{p.Slug, p.Name, strings.ToUpper(p.Slug)} {
			if got, err := PresetNamed(s); err != nil || got != p {
				t.Errorf("PresetNamed(%q) = %v, %v; want %v", s, got, err, p)
			}
		}
	}
	var fe *sim.FieldError
	if _, err := PresetNamed("huge"); !errors.As(err, &fe) || fe.Field != "preset" {
		t.Errorf("PresetNamed(huge): error %v, want a field error naming preset", err)
	}
}
