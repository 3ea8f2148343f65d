package handlers

import (
	"net/http"
	"regexp"
	"testing"
)

// goTypeRE matches what leaks from encoding/json's messages: Go type names.
var goTypeRE = regexp.MustCompile(`\b(wire|sim|handlers|engine)\.[A-Z]|\b(u?int(8|16|32|64)?|float(32|64)|map\[|struct \{|\[\]|json\.)`)

// null, "", booleans, arrays and objects are not numbers: each is a 400
// naming the control, in words, and nothing is created or changed.
// Duplicate keys are refused by name.
func TestStrictInput(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	for _, c := range []struct{ body, field string }{
		{`{"data":"d","method":"fake","controls":{"prior_scale":null}}`, "prior_scale"},
		{`{"data":"d","method":"fake","controls":{"prior_scale":""}}`, "prior_scale"},
		{`{"data":"d","method":"fake","controls":{"prior_scale":true}}`, "prior_scale"},
		{`{"data":"d","method":"fake","controls":{"prior_scale":[2]}}`, "prior_scale"},
		{`{"data":"d","method":"fake","controls":{"prior_scale":{"v":2}}}`, "prior_scale"},
		{`{"data":"d","method":"fake","controls":{"width":""}}`, "width"},
		{`{"data":"d","method":"fake","controls":[1]}`, "controls"},
		{`{"data":"d","method":"fake","controls":"lr=1"}`, "controls"},
		{`{"data":"d","method":"fake","seed":1.5}`, "seed"},
		{`{"data":"d","method":"fake","seed":"one"}`, "seed"},
		{`{"data":"d","method":"fake","seed":-1}`, "seed"},
		{`{"data":"d","method":true}`, "method"},
		{`[1,2]`, "body"},
		{`"run"`, "body"},
		{`{"data":"d","method":"fake","method":"fake"}`, "method"},
		{`{"data":"d","method":"fake","Seed":1,"seed":2}`, "seed"},
		{`{"data":"d","method":"fake","controls":{"prior_scale":1,"prior_scale":2}}`, "prior_scale"},
		{`{"data":"d","method":"fake","controls":{"width":5},"controls":{"width":6}}`, "controls"},
	} {
		got := e.wantError("POST", "/api/runs", c.body, http.StatusBadRequest, c.field)
		if goTypeRE.MatchString(got.Message) {
			t.Errorf("%s: message %q names a Go type", c.body, got.Message)
		}
	}
	if n := e.reg.Len(); n != 0 {
		t.Fatalf("%d runs after refused creates", n)
	}

	id := e.create()
	ops := "/api/runs/" + id + "/ops"
	for _, c := range []struct{ body, field string }{
		{`{"op":"set","name":"prior_scale","value":""}`, "prior_scale"},
		{`{"op":"set","name":"prior_scale","value":null}`, "prior_scale"},
		{`{"op":"set","name":"prior_scale","value":false}`, "prior_scale"},
		{`{"op":"set","name":"prior_scale","value":[3]}`, "prior_scale"},
		{`{"op":"set","value":{},"name":"prior_scale"}`, "prior_scale"}, // the name after the value
		{`{"op":"set","name":"prior_scale"}`, "value"},
		{`{"op":"speed","value":""}`, "value"},
		{`{"op":"speed","value":null}`, "value"},
		{`{"op":"step","n":true}`, "n"},
		{`{"op":"set","name":"prior_scale","value":2,"value":3}`, "value"},
		{`{"op":"set","name":"prior_scale","NAME":"width","value":3}`, "NAME"},
	} {
		got := e.wantError("POST", ops, c.body, http.StatusBadRequest, c.field)
		if goTypeRE.MatchString(got.Message) {
			t.Errorf("%s: message %q names a Go type", c.body, got.Message)
		}
	}
	run, _ := e.reg.Get(id)
	if f := run.Latest(); f.Controls["prior_scale"].Num != 1 || f.Speed != 0 || f.Step != 0 {
		t.Fatalf("refused commands changed the run: prior_scale %v, speed %v, step %d", f.Controls["prior_scale"], f.Speed, f.Step)
	}

	// The stream refuses the same way, on the open socket.
	c, _, err := e.dialer().Dial(e.wsURL(id), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, m := range []struct{ msg, field string }{
		{`{"op":"set","name":"prior_scale","value":""}`, "prior_scale"},
		{`{"op":"play","op":"pause"}`, "op"},
	} {
		send(t, c, m.msg)
		f := until(t, c, func(f inFrame) bool { return f.Type == "error" })
		if f.Field != m.field || f.Message == "" {
			t.Fatalf("%s: error %+v, want field %q", m.msg, f, m.field)
		}
	}
}

// A number beyond float64 is named as such, not as a wrong kind.
func TestStrictInputOverflow(t *testing.T) {
	e := newEnv(t, envOptions{})
	got := e.wantError("POST", "/api/runs", `{"data":"d","method":"fake","controls":{"prior_scale":1e400}}`, http.StatusBadRequest, "prior_scale")
	if got.Message != "1e400 is beyond the range of a double-precision number" {
		t.Fatalf("message %q", got.Message)
	}
}
