package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

// FuzzParseOp feeds arbitrary bytes to the decoder of a viewer's websocket
// messages (also the body of POST /api/runs/{id}/ops). It must not panic;
// every error is a *sim.FieldError naming a field; a command it accepts has
// the shape its op needs, and decodes again to itself from its JSON.
func FuzzParseOp(f *testing.F) {
	for _, s := range []string{
		`{"op":"play"}`, `{"op":"pause"}`, `{"op":"reset"}`, `{"op":"step"}`, `{"op":"step","n":10000}`,
		`{"op":"step","n":1.5}`, `{"op":"step","n":1e400}`, `{"op":"step","n":-0}`, `{"op":"step","n":"3"}`,
		`{"op":"set","name":"prior_scale","value":2}`, `{"op":"set","name":"kernel","value":"periodic"}`,
		`{"op":"set","name":"","value":1}`, `{"op":"set","name":"x","value":{}}`, `{"op":"set","name":"x","value":[1]}`,
		`{"op":"set","name":"x","value":null}`, `{"op":"speed","value":0}`, `{"op":"speed","value":"fast"}`,
		`{"op":"speed","value":1e309}`, `{"op":"play","n":3}`, `{"op":"play","colour":1}`, `{"":1}`, `{"op":"pl\u0061y"}`,
		`{"op":"play"} {"op":"pause"}`, `{"op":"play"`, `[]`, `null`, `"play"`, `{}`, ``, "\xff\xfe", `{"op":5}`,
		`{"OP":"play"}`, `{"op":"play","op":"jump"}`, `{"a\"b":1}`,
		// Duplicate keys, also differing in case only, and inside a value.
		`{"op":"set","name":"a","name":"b","value":1}`, `{"op":"play","OP":"pause"}`, `{"op":"set","name":"x","value":{"a":1,"a":2}}`,
		`{"op":"set","name":"x","value":""}`, `{"op":"speed","value":""}`, `{"op":"set","name":"x","value":true}`,
		// Data edits and inducing inputs (dataedit.go).
		`{"op":"data"}`, `{"op":"data","x":[0,1],"y":[1,2]}`, `{"op":"data","x":[0]}`, `{"op":"data","edit":"AQMAAA"}`,
		`{"op":"data","edit":"!!"}`, `{"op":"data","edit":"AQMAAA","x":[1],"y":[1]}`, `{"op":"inducing","n":2,"value":0.5}`,
		`{"op":"inducing","n":-1,"value":0.5}`, `{"op":"inducing","n":2}`, `{"op":"inducing","n":2,"value":"a"}`,
	} {
		f.Add([]byte(s))
	}
	allowed := []string{"op", "n", "name", "value", "body", "x", "y", "edit", "data"}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseOp(b)
		if err != nil {
			var fe *sim.FieldError
			if !errors.As(err, &fe) || fe.Field == "" || fe.Message == "" {
				t.Fatalf("%q: error %#v does not name a field", b, err)
			}
			// The field is one of the message's, a key it holds, or the
			// control a set names.
			if !slices.Contains(allowed, fe.Field) && !hasKey(b, fe.Field) && !namesControl(b, fe.Field) &&
				!(strings.Contains(fe.Message, "twice") && hasString(b, fe.Field)) {
				t.Fatalf("%q: error names %q, which is neither a message field nor in the input", b, fe.Field)
			}
			return
		}
		switch m.Op {
		case engine.OpPlay, engine.OpPause, engine.OpReset:
			if m.N != nil || m.Name != nil || m.Value != nil {
				t.Fatalf("%q: accepted %+v with arguments", b, m)
			}
		case engine.OpStep:
			if m.Name != nil || m.Value != nil || m.N != nil && (*m.N < 1 || *m.N > engine.MaxStepCommand || *m.N != float64(int64(*m.N))) {
				t.Fatalf("%q: accepted step %+v", b, m)
			}
		case engine.OpSet:
			if m.N != nil || m.Name == nil || *m.Name == "" || m.Value == nil {
				t.Fatalf("%q: accepted set %+v", b, m)
			}
		case engine.OpSpeed:
			if m.N != nil || m.Name != nil || m.Value == nil || m.Value.IsChoice() {
				t.Fatalf("%q: accepted speed %+v", b, m)
			}
		case engine.OpWeight:
			if m.Name != nil || m.Value != nil || m.N == nil || *m.N < 0 || *m.N != float64(int64(*m.N)) {
				t.Fatalf("%q: accepted weight %+v", b, m)
			}
		case engine.OpData:
			if m.N != nil || m.Name != nil || m.Value != nil || (m.X == nil) != (m.Y == nil) || len(m.X) != len(m.Y) || m.Edit != nil && m.X != nil {
				t.Fatalf("%q: accepted data %+v", b, m)
			}
			if m.Edit != nil {
				if _, err := decodeEdit("data", *m.Edit); err != nil {
					t.Fatalf("%q: accepted an edit that does not decode: %v", b, err)
				}
			}
		case engine.OpInducing:
			if m.Name != nil || m.X != nil || m.Y != nil || m.Edit != nil || m.N == nil || *m.N < 0 || *m.N != float64(int64(*m.N)) || m.Value == nil || m.Value.IsChoice() {
				t.Fatalf("%q: accepted inducing %+v", b, m)
			}
		default:
			t.Fatalf("%q: accepted op %q", b, m.Op)
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("%q: accepted %+v, which does not encode: %v", b, m, err)
		}
		m2, err := parseOp(again)
		if err != nil || !reflect.DeepEqual(m, m2) {
			t.Fatalf("%q → %+v → %s → %+v, %v", b, m, again, m2, err)
		}
	})
}

// hasKey reports whether the JSON object b starts with has the key k.
func hasKey(b []byte, k string) bool {
	var obj map[string]json.RawMessage
	json.NewDecoder(bytes.NewReader(b)).Decode(&obj)
	_, ok := obj[k]
	return ok
}

// namesControl reports whether the JSON object b has a key "name" (in any
// case, as encoding/json matches it) whose value is the string control.
func namesControl(b []byte, control string) bool {
	var obj map[string]json.RawMessage
	json.NewDecoder(bytes.NewReader(b)).Decode(&obj)
	for k, v := range obj {
		var s string
		if strings.EqualFold(k, "name") && json.Unmarshal(v, &s) == nil && s == control {
			return true
		}
	}
	return false
}

// hasString reports whether s is one of the strings (keys or values) in
// the JSON text b.
func hasString(b []byte, s string) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		if t == s {
			return true
		}
	}
}

// catalogSource is the play page's view of the real catalog.
func catalogSource() methodSource {
	return methodSource{names: catalog.MethodNames, new: catalog.NewMethod}
}

// FuzzParsePlay feeds arbitrary query strings, parsed as the play page's
// handler parses them (r.URL.Query ignores malformed pairs), to the
// URL-configuration parser with the real catalog. It must not panic; every
// error is a *sim.FieldError naming a parameter of the link (or one the page
// defaults); a configuration it accepts round-trips through its canonical
// URL unchanged.
func FuzzParsePlay(f *testing.F) {
	for _, s := range []string{
		"", "data=gap", "data=gap&methods=mfvi,gip&seed=7",
		"scenario=mfvi-vs-gip-gap&data=gap&methods=mfvi,gip&seed=1&gip.inducing=20&mfvi.prior_scale=3",
		"data=sinusoid-gap&methods=gp-exact&gp-exact.kernel=periodic&gp-exact.lengthscale=0.5",
		"methods=hmc,nuts&hmc.chains=4&nuts.max_depth=6&hide=chains&focus=nuts.step",
		"methods=mfvi&mfvi.mc_samples=33", "methods=gip&gip.inducing=1e9", "methods=mfvi&mfvi.model=linear",
		"methods=mfvi,mfvi", "methods=a,b,c,d,e", "methods=", "seed=-1", "seed=18446744073709551616",
		"data=upload:abcDEF_-0123", "data=upload:../../etc", "mfvi.prior_scale=NaN", "mfvi.prior_scale=0x1p1",
		"mfvi.prior_scale=+Inf", "mfvi.prior_scale=2&mfvi.prior_scale=3", "hide=nope", "focus=mfvi.", "colour=red",
		"gip.inducing=5&methods=mfvi", "%zz=1&data=gap", "data=gap;seed=2", "methods=%20mfvi%20,%20gip",
		"mfvi.=1", ".=1", "hide=,,,", "methods=gp-exact&gp-exact.kernel=%20periodic%20",
	} {
		f.Add(s)
	}
	src := catalogSource()
	fixed := []string{"data", "methods", "seed", "scenario", "hide", "focus", "query"}
	f.Fuzz(func(t *testing.T, raw string) {
		q, _ := url.ParseQuery(raw)
		c, err := parsePlay(q, src)
		if err != nil {
			var fe *sim.FieldError
			if !errors.As(err, &fe) || fe.Field == "" || fe.Message == "" {
				t.Fatalf("%q: error %#v does not name a field", raw, err)
			}
			if _, given := q[fe.Field]; !given && !slices.Contains(fixed, fe.Field) {
				t.Fatalf("%q: error names %q, which is not a parameter of the link", raw, fe.Field)
			}
			return
		}
		link := c.URL()
		u, err := url.Parse(link)
		if err != nil {
			t.Fatalf("%q: canonical URL %q does not parse: %v", raw, link, err)
		}
		c2, err := parsePlay(u.Query(), src)
		if err != nil {
			t.Fatalf("%q: canonical URL %q is rejected: %v", raw, link, err)
		}
		if !reflect.DeepEqual(c, c2) {
			t.Fatalf("%q: reparsing %q changed the configuration:\n%+v\n%+v", raw, link, c, c2)
		}
		if link2 := c2.URL(); link2 != link {
			t.Fatalf("%q: canonical URL not stable: %q then %q", raw, link, link2)
		}
	})
}

// FuzzCreateRunBody feeds arbitrary bodies to POST /api/runs (the fake
// method and data set "d"). The server never answers 5xx to them; every
// refusal is a JSON error naming a field; every acceptance is a run that
// exists (and is deleted again, so the caps never bite).
func FuzzCreateRunBody(f *testing.F) {
	for _, s := range []string{
		`{"data":"d","method":"fake"}`, `{"data":"d","method":"fake","seed":3,"controls":{"prior_scale":2,"width":5}}`,
		`{"data":"d","method":"fake","controls":{"prior_scale":1e400}}`, `{"data":"d","method":"fake","controls":{"width":2.5}}`,
		`{"data":"d","method":"fake","controls":{"prior_scale":"big"}}`, `{"data":"d","method":"fake","controls":{"":1}}`,
		`{"data":"d","method":"fake","controls":null}`, `{"data":"d","method":"fake","seed":-1}`,
		`{"data":"d","method":"fake","seed":18446744073709551616}`, `{"data":"d","method":"fake","model":"x"}`,
		`{"data":"upload:zz","method":"fake"}`, `{"data":"d"}`, `{}`, `[]`, `null`, ``, `{"data":"d","method":"fake"} x`,
		`{"data":"d","method":"fake","controls":{"prior_scale":[1]}}`, "{\"data\":\"d\xff\",\"method\":\"fake\"}",
		`{"data":"d","method":"fake","method":"fake"}`, `{"data":"d","method":"fake","Seed":1,"seed":2}`,
		`{"data":"d","method":"fake","controls":{"prior_scale":1,"prior_scale":2}}`, `{"data":"d","method":"fake","controls":{"prior_scale":null}}`,
		`{"data":"d","method":"fake","controls":{"prior_scale":""}}`, `{"data":"d","method":"fake","controls":{"width":true}}`,
	} {
		f.Add([]byte(s))
	}
	reg := engine.NewRegistry(engine.RegistryConfig{MaxRuns: 4, MaxRunsPerClient: 4}, streamFakeFactory, quietLog)
	f.Cleanup(reg.Close)
	// Every fuzzed request comes cookieless from httptest's one address:
	// the sessions it starts are not capped here (the caps per address
	// have tests of their own), so that each input reaches the body's
	// checks.
	api, err := NewAPI(APIConfig{Registry: reg, Log: quietLog, Clients: ClientLimits{SessionBurst: 1 << 30}})
	if err != nil {
		f.Fatal(err)
	}
	router := chi.NewRouter()
	router.Route("/api", api.Routes)
	f.Fuzz(func(t *testing.T, body []byte) {
		w := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/api/runs", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		router.ServeHTTP(w, req)
		switch {
		case w.Code == http.StatusCreated:
			var out struct{ ID string }
			if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
				t.Fatalf("%q: 201 with %q", body, w.Body.Bytes())
			}
			if err := reg.Delete(out.ID); err != nil {
				t.Fatalf("%q: created run %q: %v", body, out.ID, err)
			}
		case w.Code == http.StatusBadRequest:
			var ae wire.APIError
			if err := json.Unmarshal(w.Body.Bytes(), &ae); err != nil || ae.Field == "" || ae.Message == "" {
				t.Fatalf("%q: 400 with %q, want an error naming a field", body, w.Body.Bytes())
			}
		default:
			t.Fatalf("%q: status %d %q", body, w.Code, w.Body.Bytes())
		}
	})
}
