package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/wire"
)

// limitsEnv is the API with the real catalog and small registry caps. The
// header X-Client stands for the client's IP, so one test can be several
// clients.
func limitsEnv(t *testing.T) *env {
	return newEnv(t, envOptions{
		factory:  NewFactory,
		registry: engine.RegistryConfig{MaxRuns: 3, MaxRunsPerClient: 2, MaxSteps: 50},
		api: APIConfig{Specs: catalog.Specs, ClientKey: func(r *http.Request) string {
			return r.Header.Get("X-Client")
		}},
	})
}

// call sends body as client and returns the status and the decoded error.
func call(e *env, client, method, path, contentType, body string) (int, wire.APIError, []byte) {
	e.t.Helper()
	return e.errorOf(method, path, body, map[string]string{"X-Client": client, "Content-Type": contentType})
}

func createdID(t *testing.T, b []byte) string {
	t.Helper()
	var out struct{ ID string }
	if err := json.Unmarshal(b, &out); err != nil || out.ID == "" {
		t.Fatalf("no run id in %q", b)
	}
	return out.ID
}

// TestLimitsAnsweredWithFieldErrors hits every cap through the API and
// checks the status, the field named and that the message states the limit.
// Rows run in order: the run caps count the runs made by earlier rows.
func TestLimitsAnsweredWithFieldErrors(t *testing.T) {
	if !contains(catalog.MethodNames(), "mfvi") || !contains(catalog.MethodNames(), "gip") || !contains(catalog.MethodNames(), "hmc") {
		t.Skip("needs mfvi, gip and hmc in the catalog")
	}
	checkLeaks(t)
	e := limitsEnv(t)
	mfvi := `{"data":"gap","method":"mfvi"}`
	var a1, b1 string // runs of clients A and B
	var made []string
	big := strings.Repeat("1,2\n", datasets.MaxCSVBytes/4+1)
	var rows strings.Builder
	for i := range datasets.MaxCSVRows + 1 {
		fmt.Fprintf(&rows, "%d,%d\n", i, i%7)
	}
	var uploads []string

	type row struct {
		name         string
		setup        func()
		client       string
		method, path string
		ctype, body  string
		status       int
		field        string
		says         string                  // in the message: the limit
		path0        func() (string, string) // path and body known only after setup
	}
	cases := []row{
		{name: "runs per client", client: "A", setup: func() {
			for range 2 {
				_, _, b := call(e, "A", "POST", "/api/runs", "application/json", mfvi)
				a1 = createdID(t, b)
				made = append(made, a1)
			}
		}, method: "POST", path: "/api/runs", body: mfvi, status: 429, field: "runs", says: "2 runs open, the most one browser may have"},
		{name: "runs in total", client: "B", setup: func() {
			_, _, b := call(e, "B", "POST", "/api/runs", "application/json", mfvi)
			b1 = createdID(t, b)
			made = append(made, b1)
		}, method: "POST", path: "/api/runs", body: mfvi, status: 429, field: "runs", says: "maximum of 3 runs"},
		{name: "steps per command", client: "A", path0: func() (string, string) { return "/api/runs/" + a1 + "/ops", `{"op":"step","n":10001}` },
			method: "POST", status: 400, field: "n", says: "[1, 10000]"},
		{name: "speed", client: "A", path0: func() (string, string) { return "/api/runs/" + a1 + "/ops", `{"op":"speed","value":2e6}` },
			method: "POST", status: 400, field: "speed", says: "[0, 1000000]"},
		{name: "steps per run", client: "A", setup: func() {
			call(e, "A", "POST", "/api/runs/"+a1+"/ops", "application/json", `{"op":"step","n":100}`)
			run, _ := e.reg.Get(a1)
			// The run did not stop at its budget, if this times out.
			if s := enginetest.WaitFrame(t, run, 10*time.Second, func(f *engine.Frame) bool { return f.Status == engine.StatusDone }).Step; s != 50 {
				t.Fatalf("stopped at step %d, budget 50", s)
			}
		}, path0: func() (string, string) { return "/api/runs/" + a1 + "/ops", `{"op":"play"}` },
			method: "POST", status: 400, field: "op", says: "step budget of 50 steps"},
		{name: "samples (live set)", client: "B", path0: func() (string, string) {
			return "/api/runs/" + b1 + "/ops", `{"op":"set","name":"mc_samples","value":33}`
		}, method: "POST", status: 400, field: "mc_samples", says: "[1, 32]"},
		{name: "message size (POST ops)", client: "B", path0: func() (string, string) {
			return "/api/runs/" + b1 + "/ops", `{"op":"play","pad":"` + strings.Repeat("x", 4<<10) + `"}`
		}, method: "POST", status: 400, field: "body", says: "4096 bytes"},
		{name: "samples at creation", client: "C", setup: func() {
			for _, id := range made { // room again: validation comes after the run caps
				call(e, "A", "DELETE", "/api/runs/"+id, "", "")
			}
		}, method: "POST", path: "/api/runs",
			body: `{"data":"gap","method":"mfvi","controls":{"mc_samples":33}}`, status: 400, field: "mc_samples", says: "[1, 32]"},
		{name: "inducing points (spec)", client: "C", method: "POST", path: "/api/runs",
			body: `{"data":"gap","method":"gip","controls":{"inducing":1001}}`, status: 400, field: "inducing", says: "[1, 100]"}, // the range for gap's 100 points (sim.SpecFor)
		{name: "inducing points (data)", client: "C", method: "POST", path: "/api/runs",
			body: `{"data":"gap","method":"gip","controls":{"inducing":500}}`, status: 400, field: "inducing", says: "number of training points"},
		{name: "chains", client: "C", method: "POST", path: "/api/runs",
			body: `{"data":"gap","method":"hmc","controls":{"chains":9}}`, status: 400, field: "chains", says: "[1, 8]"},
		{name: "JSON body size", client: "C", method: "POST", path: "/api/runs",
			body: `{"data":"gap","method":"mfvi","model":"` + strings.Repeat("x", maxJSONBody) + `"}`, status: 400, field: "body", says: "limit of 65536 bytes"},
		{name: "data-file size", client: "C", method: "POST", path: "/api/data", ctype: "text/csv",
			body: "x,y\n" + big, status: 400, field: "data-file", says: "limit of 1048576 bytes"},
		{name: "data-file rows", client: "C", method: "POST", path: "/api/data", ctype: "text/csv",
			body: "x,y\n" + rows.String(), status: 400, field: "data-file", says: "more than 10000 data rows"},
		{name: "uploads kept", client: "C", setup: func() {
			for i := range 5 { // the env keeps 4
				_, _, b := call(e, "C", "POST", "/api/data", "text/csv", fmt.Sprintf("x,y\n0,%d\n1,2\n2,3\n", i))
				var up wire.Upload
				json.Unmarshal(b, &up)
				uploads = append(uploads, up.Data)
			}
		}, path0: func() (string, string) { return "/api/runs", `{"data":"` + uploads[0] + `","method":"mfvi"}` },
			method: "POST", status: 400, field: "data", says: "upload the file again"},
	}
	for _, c := range cases {
		if c.setup != nil {
			c.setup()
		}
		path, body := c.path, c.body
		if c.path0 != nil {
			path, body = c.path0()
		}
		ctype := c.ctype
		if ctype == "" {
			ctype = "application/json"
		}
		code, ae, raw := call(e, c.client, c.method, path, ctype, body)
		if code != c.status || ae.Field != c.field || !strings.Contains(ae.Message, c.says) {
			t.Errorf("%s: %d %q, want %d naming %q and saying %q", c.name, code, raw, c.status, c.field, c.says)
		}
	}
	// The newest uploads are kept.
	if code, ae, _ := call(e, "D", "POST", "/api/runs", "application/json", `{"data":"`+uploads[4]+`","method":"mfvi"}`); code != http.StatusCreated {
		t.Errorf("the newest upload: %d %+v", code, ae)
	}
}

// TestLimitsEveryControlRange: every numeric control of every method in the
// catalog (MC samples, inducing points, chains, particles, leapfrog steps,
// tree depth, warm-up, members, …) rejects a value above its maximum with
// 400, naming the control and stating the range, and creates no run.
func TestLimitsEveryControlRange(t *testing.T) {
	checkLeaks(t)
	e := limitsEnv(t)
	n := 0
	gap, err := datasets.Load("gap", 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range catalog.MethodNames() {
		m, err := catalog.NewMethod(name, "")
		if err != nil {
			t.Fatal(err)
		}
		spec := sim.SpecFor(m, gap) // the ranges on gap's data
		for _, c := range spec.Controls {
			if len(c.Options) > 0 {
				continue
			}
			over := c.Max + max(1, c.Max)
			body := fmt.Sprintf(`{"data":"gap","method":%q,"controls":{%q:%s}}`, spec.Name, c.Name, strconv.FormatFloat(over, 'g', -1, 64))
			code, ae, raw := call(e, "E", "POST", "/api/runs", "application/json", body)
			if code != http.StatusBadRequest || ae.Field != c.Name || !strings.Contains(ae.Message, fmt.Sprintf("%g]", c.Max)) {
				t.Errorf("%s.%s = %g: %d %s", spec.Name, c.Name, over, code, raw)
			}
			n++
		}
	}
	if n < 20 || e.reg.Len() != 0 {
		t.Fatalf("%d controls checked, %d runs left", n, e.reg.Len())
	}
}

// TestLimitsPlayPagePanels: a link may ask for at most MaxPanels methods.
func TestLimitsPlayPagePanels(t *testing.T) {
	names := catalog.MethodNames()
	if len(names) <= MaxPanels {
		t.Skip("the catalog has too few methods")
	}
	q := url.Values{"methods": {strings.Join(names[:MaxPanels+1], ",")}}
	_, err := parsePlay(q, catalogSource())
	fe, ok := errors.AsType[*sim.FieldError](err)
	if !ok || fe.Field != "methods" || !strings.Contains(fe.Message, fmt.Sprintf("1 to %d methods", MaxPanels)) {
		t.Fatalf("%d methods: %v", MaxPanels+1, err)
	}
	if _, err := parsePlay(url.Values{"methods": {strings.Join(names[:MaxPanels], ",")}}, catalogSource()); err != nil {
		t.Fatalf("%d methods: %v", MaxPanels, err)
	}
}
