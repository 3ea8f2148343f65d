package sim

import "testing"

// A list control's value is stored as ParseList reads it; other controls'
// values, and values that do not parse, are left as they are.
func TestCanonicalList(t *testing.T) {
	arch := ControlSpec{Name: "arch", List: 4, Min: 1, Max: 256, Integer: true}
	for in, want := range map[string]string{" 50 , 50 ": "50,50", "+50": "50", "0": "0", "": "0", "1,2,3,4": "1,2,3,4", "50,,50": "50,,50"} {
		if got := arch.Canonical(Choice(in)); got != Choice(want) {
			t.Errorf("Canonical(%q) = %q, want %q", in, got.Choice, want)
		}
	}
	lr := ControlSpec{Name: "lr", Min: 0, Max: 1}
	if got := lr.Canonical(Num(0.5)); got != Num(0.5) {
		t.Errorf("a number control's value changed: %v", got)
	}
	spec := MethodSpec{Name: "m", Controls: []ControlSpec{arch}}
	c, err := spec.Resolve(Controls{"arch": Choice(" 7 ,+10")})
	if err != nil || c["arch"] != Choice("7,10") {
		t.Errorf("Resolve: %v %v", c, err)
	}
}
