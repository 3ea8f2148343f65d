package handlers

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/wire"
)

// Commands are checked against the run's one spec, refitted when its data
// change: after a data command from 100 to 200 points the run's spec (what
// the page offers) allows GIP 200 inducing points, and a set of 150
// through the ops endpoint is applied.
func TestOpsCheckTheRefittedSpec(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{factory: NewFactory, api: APIConfig{Specs: catalog.Specs}})
	var created wire.RunCreated
	body := `{"data":"gap","method":"gip","seed":1,"controls":{"arch":"8"}}`
	if code, _ := e.do("POST", "/api/runs", "application/json", body, &created); code != http.StatusCreated {
		t.Fatalf("create gip: %d", code)
	}
	run, err := e.reg.Get(created.ID)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.WaitFrame(t, run, 10*time.Second, func(f *engine.Frame) bool { return f.Status == engine.StatusPaused })
	pts := run.Data()
	n := len(pts.X)
	ed := dataEdit{baseN: n, removed: make([]bool, n)}
	for i := range n { // every point again, a little to the right
		ed.x, ed.y = append(ed.x, float32(pts.X[i]+0.01)), append(ed.y, float32(pts.Y[i]))
	}
	ops := "/api/runs/" + created.ID + "/ops"
	if code, _ := e.do("POST", ops, "application/json", fmt.Sprintf(`{"op":"data","edit":%q}`, ed.encode()), nil); code != http.StatusNoContent {
		t.Fatalf("data edit to %d points: %d", 2*n, code)
	}
	var info wire.RunInfo
	if code, _ := e.do("GET", "/api/runs/"+created.ID, "", "", &info); code != http.StatusOK {
		t.Fatalf("get: %d", code)
	}
	if cs, _ := info.Spec.Control("inducing"); len(info.Data.X) != 2*n || cs.Max != float64(2*n) {
		t.Errorf("after the edit: %d points, inducing up to %g; want %d and %d", len(info.Data.X), cs.Max, 2*n, 2*n)
	}
	if code, _ := e.do("POST", ops, "application/json", `{"op":"set","name":"inducing","value":150}`, nil); code != http.StatusNoContent {
		t.Fatalf("set inducing 150 on %d points: %d", 2*n, code)
	}
	enginetest.WaitFrame(t, run, 10*time.Second, func(f *engine.Frame) bool { return f.Controls["inducing"] == sim.Num(150) })
}
