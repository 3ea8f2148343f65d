package handlers

import (
	"errors"
	"net/http"
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

func TestAPIMethodsAndDatasets(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	var specs []sim.MethodSpec
	if code, _ := e.do("GET", "/api/methods", "", "", &specs); code != 200 || len(specs) != 1 {
		t.Fatalf("methods: %d %+v", code, specs)
	}
	c := specs[0].Controls[0]
	if specs[0].Name != "fake" || c.Name != "prior_scale" || c.Min != 0.1 || c.Max != 10 || c.Default != sim.Num(1) || !c.Live {
		t.Fatalf("spec %+v", specs[0])
	}
	var infos []datasets.Info
	if code, _ := e.do("GET", "/api/datasets", "", "", &infos); code != 200 || len(infos) != len(datasets.Names()) || infos[0].Name != "gap" {
		t.Fatalf("datasets: %d %+v", code, infos)
	}
	e.wantError("GET", "/api/nothing", "", http.StatusNotFound, "path")
	e.wantError("PUT", "/api/methods", "", http.StatusMethodNotAllowed, "method")
}

// A method list that cannot be built (a constructor failed) is a server
// error, not a shorter list.
func TestAPIMethodsBrokenCatalog(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{api: APIConfig{Specs: func() ([]sim.MethodSpec, error) {
		return nil, errors.New("catalog: method x: broken")
	}}})
	got := e.wantError("GET", "/api/methods", "", http.StatusInternalServerError, "")
	if strings.Contains(got.Message, "broken") {
		t.Fatalf("the 500 shows internals: %q", got.Message)
	}
}

func TestAPIRunLifecycle(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	var created wire.RunCreated
	code, h := e.do("POST", "/api/runs", "application/json", `{"data":"d","method":"fake","seed":3,"controls":{"prior_scale":2}}`, &created)
	if code != http.StatusCreated || h.Get("Location") != "/api/runs/"+created.ID || created.Stream != "/api/runs/"+created.ID+"/stream" {
		t.Fatalf("create: %d %v %+v", code, h, created)
	}
	if created.Seed != 3 || created.Controls["prior_scale"] != sim.Num(2) || created.Controls["width"] != sim.Num(10) {
		t.Fatalf("created %+v", created)
	}
	var info struct {
		ID     string
		Status string
		Step   int64
		Data   struct {
			Name string
			X    []float64
		}
		Config  engine.RunConfig
		Summary struct {
			Objective   *float64
			Diagnostics map[string]float64
		}
	}
	if code, _ := e.do("GET", "/api/runs/"+created.ID, "", "", &info); code != 200 || info.Status != "paused" || info.Step != 0 ||
		info.Data.Name != "d" || len(info.Data.X) != 2 || info.Summary.Objective != nil || info.Config.Seed != 3 {
		t.Fatalf("get: %d %+v", code, info)
	}
	if code, _ := e.do("POST", "/api/runs/"+created.ID+"/ops", "application/json", `{"op":"step","n":5}`, nil); code != http.StatusNoContent {
		t.Fatalf("step: %d", code)
	}
	run, err := e.reg.Get(created.ID)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.WaitFrame(t, run, 5*time.Second, func(f *engine.Frame) bool { return f.Step == 5 })
	e.do("GET", "/api/runs/"+created.ID, "", "", &info)
	// Five steps from x = 0 towards k = 2 at rate 0.1: x = 2(1 − 0.9⁵).
	x := 2 * (1 - 0.59049)
	if want := -(x-2)*(x-2) - 0.6931471805599453; info.Step != 5 || info.Summary.Objective == nil || abs(*info.Summary.Objective-want) > 1e-12 {
		t.Fatalf("after 5 steps: %+v, objective want %v", info, want)
	}
	e.wantError("POST", "/api/runs/"+created.ID+"/ops", `{"op":"fly"}`, 400, "op")
	e.wantError("POST", "/api/runs/"+created.ID+"/ops", `{"op":"set","name":"prior_scale","value":11}`, 400, "prior_scale")
	if code, _ := e.do("DELETE", "/api/runs/"+created.ID, "", "", nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}
	e.wantError("GET", "/api/runs/"+created.ID, "", 404, "id")
	e.wantError("DELETE", "/api/runs/"+created.ID, "", 404, "id")
	e.wantError("POST", "/api/runs/nope/ops", `{"op":"play"}`, 404, "id")
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestAPICreateRejectsBadInput(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	for _, c := range []struct{ body, field string }{
		{`{"data":"d","method":"fake"`, "body"},
		{`not json`, "body"},
		{``, "body"},
		{`{"data":"d","method":"fake"} {}`, "body"},
		{`{"data":"d","method":"fake","colour":"red"}`, "colour"},
		{`{"data":"d","method":"nope"}`, "method"},
		{`{"data":"nope","method":"fake"}`, "data"},
		{`{"data":"d","method":"fake","seed":-1}`, "seed"},
		{`{"data":"d","method":"fake","seed":"one"}`, "seed"},
		{`{"data":"d","method":"fake","controls":{"depth":3}}`, "depth"},
		{`{"data":"d","method":"fake","controls":{"prior_scale":100}}`, "prior_scale"},
		{`{"data":"d","method":"fake","controls":{"width":2.5}}`, "width"},
		{`{"data":"d","method":"fake","controls":{"prior_scale":{}}}`, "prior_scale"}, // issue 19: the control, not "controls"
		{`[1,2]`, "body"},
	} {
		e.wantError("POST", "/api/runs", c.body, 400, c.field)
	}
	if e.reg.Len() != 0 {
		t.Fatalf("%d runs after bad requests", e.reg.Len())
	}
}

func TestAPIRunCaps(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{registry: engine.RegistryConfig{MaxRuns: 3, MaxRunsPerClient: 2}})
	e.create()
	e.create()
	got := e.wantError("POST", "/api/runs", `{"data":"d","method":"fake"}`, http.StatusTooManyRequests, "runs")
	if !strings.Contains(got.Message, "2") {
		t.Fatalf("message %q does not state the cap", got.Message)
	}
}

func TestAPIRealFactoryAndUploads(t *testing.T) {
	if !contains(catalog.MethodNames(), "mfvi") {
		t.Skip("mfvi is not in the catalog")
	}
	checkLeaks(t)
	e := newEnv(t, envOptions{factory: NewFactory, api: APIConfig{Specs: catalog.Specs}})
	var created wire.RunCreated
	if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"gap","method":"mfvi","seed":1}`, &created); code != 201 {
		t.Fatalf("mfvi on gap: %d", code)
	}
	e.wantError("POST", "/api/runs", `{"data":"gap","method":"nope"}`, 400, "method")
	e.wantError("POST", "/api/runs", `{"data":"nope","method":"mfvi"}`, 400, "data")
	e.wantError("POST", "/api/runs", `{"method":"mfvi"}`, 400, "data")
	e.wantError("POST", "/api/runs", `{"data":"gap","method":"mfvi","model":"tree"}`, 400, "model")
	e.wantError("POST", "/api/runs", `{"data":"gap","method":"mfvi","controls":{"nope":1}}`, 400, "nope")
	e.wantError("POST", "/api/runs", `{"data":"upload:0123","method":"mfvi"}`, 400, "data")

	var up wire.Upload
	if code, _ := e.do("POST", "/api/data", "text/csv", "x,y\n1,2\n2,3\n3,5\n", &up); code != 201 || !strings.HasPrefix(up.Data, "upload:") || up.N != 3 {
		t.Fatalf("upload: %d %+v", code, up)
	}
	var info struct {
		Data struct{ X, Y []float64 }
	}
	if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"`+up.Data+`","method":"mfvi"}`, &created); code != 201 {
		t.Fatalf("mfvi on an upload: %d", code)
	}
	e.do("GET", "/api/runs/"+created.ID, "", "", &info)
	if len(info.Data.X) != 3 || abs(info.Data.X[2]-3) > 1e-12 || abs(info.Data.Y[2]-5) > 1e-12 {
		t.Fatalf("uploaded points in the file's units: %+v", info.Data)
	}
	e.wantError("POST", "/api/data", "a,b\n1,2\n", 400, "data-file")
	e.wantError("POST", "/api/data", "x,y\n"+strings.Repeat("1,2\n", datasets.MaxCSVBytes/4+1), 400, "data-file")
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// A session's own least recently used upload makes room for its next one;
// another session's uploads never evict mine: a full store refuses a new
// file instead. Files unused for UploadIdle are dropped.
func TestUploadsPerSession(t *testing.T) {
	u := NewUploads(UploadsPerSession + 2)
	now := time.Unix(1e9, 0)
	u.now = func() time.Time { return now }
	mine, err := u.Add("me", &sim.Dataset{Name: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	var theirs []string
	for i := range UploadsPerSession + 3 { // past their quota: their own oldest go
		n, err := u.Add("them", &sim.Dataset{})
		if err != nil {
			t.Fatalf("their upload %d: %v", i, err)
		}
		theirs = append(theirs, n)
	}
	if _, ok := u.Get(mine); !ok {
		t.Fatal("another session's uploads evicted mine")
	}
	for i, n := range theirs {
		if _, ok := u.Get(n); ok != (i >= 3) {
			t.Errorf("their upload %d present = %v; want only their last %d", i, ok, UploadsPerSession)
		}
	}
	// The store now holds 1 + 4 of its 6: a third session gets one slot,
	// then a refusal, not someone else's file.
	if _, err := u.Add("third", &sim.Dataset{}); err != nil {
		t.Fatal(err)
	}
	if _, err := u.Add("fourth", &sim.Dataset{}); !errors.Is(err, ErrUploadsFull) {
		t.Fatalf("a full store: %v; want ErrUploadsFull", err)
	}
	if _, ok := u.Get(mine); !ok {
		t.Fatal("a full store evicted my upload")
	}
	now = now.Add(UploadIdle + time.Second) // everyone leaves
	if _, err := u.Add("fourth", &sim.Dataset{}); err != nil {
		t.Fatalf("after every file went unused for %v: %v", UploadIdle, err)
	}
	if _, ok := u.Get(mine); ok {
		t.Error("an upload unused for longer than UploadIdle is kept")
	}
}
