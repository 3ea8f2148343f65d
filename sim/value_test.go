package sim

import (
	"encoding/json"
	"errors"
	"testing"
)

// Only a number or a string is a Value; null is not 0, and encoding/json
// names the path of whatever else was given.
func TestValueUnmarshalStrict(t *testing.T) {
	for in, want := range map[string]Value{`1.5`: Num(1.5), `-2e-3`: Num(-2e-3), ` 0 `: Num(0), `"periodic"`: Choice("periodic"), `""`: Choice("")} {
		var v Value
		if err := json.Unmarshal([]byte(in), &v); err != nil || v != want {
			t.Errorf("%s: %+v %v, want %+v", in, v, err, want)
		}
	}
	var empty Value
	if json.Unmarshal([]byte(`""`), &empty); !empty.IsChoice() || Num(0).IsChoice() {
		t.Fatal(`"" must be a choice and 0 a number`)
	}
	for in, got := range map[string]string{`null`: "null", `true`: "bool", `false`: "bool", `[1]`: "array", `{"a":1}`: "object", `1e400`: "number 1e400"} {
		var c struct {
			Controls Controls `json:"controls"`
		}
		err := json.Unmarshal([]byte(`{"controls":{"kl_weight":`+in+`}}`), &c)
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || te.Field != "controls.kl_weight" || te.Value != got {
			t.Errorf("%s: %v (%+v), want a type error at controls.kl_weight, value %q", in, err, te, got)
		}
	}
	if b, _ := json.Marshal(Controls{"a": Choice(""), "b": Num(0)}); string(b) != `{"a":"","b":0}` {
		t.Errorf("marshalled %s", b)
	}
}

// Choice("") is neither a number nor any option: it fails both kinds of
// control, naming the control.
func TestValidateEmptyChoice(t *testing.T) {
	num := ControlSpec{Name: "kl_weight", Min: 0, Max: 1}
	opt := ControlSpec{Name: "kernel", Options: []string{"rbf", "periodic"}}
	for _, c := range []struct {
		spec ControlSpec
		v    Value
		ok   bool
	}{
		{num, Num(0), true}, {num, Choice(""), false}, {num, Choice("0"), false},
		{opt, Choice("rbf"), true}, {opt, Choice(""), false}, {opt, Num(0), false}, {opt, Choice("RBF"), false},
	} {
		err := c.spec.Validate(c.v)
		var fe *FieldError
		if c.ok != (err == nil) || (err != nil && (!errors.As(err, &fe) || fe.Field != c.spec.Name)) {
			t.Errorf("%s = %+v: %v", c.spec.Name, c.v, err)
		}
	}
}

func TestControlsUnmarshal(t *testing.T) {
	var c Controls
	if err := json.Unmarshal([]byte(`{"lr":0.1,"kernel":"rbf"}`), &c); err != nil || c["lr"] != Num(0.1) || c["kernel"] != Choice("rbf") || len(c) != 2 {
		t.Fatalf("%v %+v", err, c)
	}
	if err := json.Unmarshal([]byte(`null`), &c); err != nil || c != nil {
		t.Fatalf("null: %v %+v", err, c)
	}
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal([]byte(`[1]`), &c); !errors.As(err, &te) || te.Value != "array" {
		t.Fatalf("array: %v", err)
	}
}
