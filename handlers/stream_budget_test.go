package handlers

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
)

// A run that spends its step budget says so in its frame (status done, the
// budget, a message naming it); a live change is refused, naming the
// control and the way on, and leaves no mark; continue, over the websocket
// or POST /api/runs/{id}/ops, grants another budget and runs on.
func TestStreamBudgetDoneAndContinue(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{registry: engine.RegistryConfig{MaxSteps: 60}})
	id := e.create()
	c := dial(t, e, id, nil)
	next(t, c)
	send(t, c, `{"op":"continue"}`)
	if f := until(t, c, func(f inFrame) bool { return f.Type == "error" }); f.Field != "op" || !strings.Contains(f.Message, "nothing to continue") {
		t.Fatalf("continue on a fresh run: %+v", f)
	}
	send(t, c, `{"op":"play"}`)
	f := until(t, c, func(f inFrame) bool { return f.Status == "done" })
	if f.Step != 60 || f.Budget != 60 || !strings.Contains(f.Message, "step budget of 60 steps spent") {
		t.Fatalf("done frame: step %d budget %d %q", f.Step, f.Budget, f.Message)
	}
	send(t, c, `{"op":"set","name":"prior_scale","value":5}`)
	f = until(t, c, func(f inFrame) bool { return f.Type == "error" })
	if f.Field != "prior_scale" || !strings.Contains(f.Message, "continue") || !strings.Contains(f.Message, "reset") {
		t.Fatalf("live set on a done run: %+v", f)
	}
	run, err := e.reg.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if g := run.Latest(); len(g.Marks) != 0 || g.Controls["prior_scale"].Num != 1 {
		t.Fatalf("a refused change left marks %v, controls %v", g.Marks, g.Controls)
	}

	send(t, c, `{"op":"continue"}`)
	f = until(t, c, func(f inFrame) bool { return f.Status == "done" && f.Step == 120 })
	if f.Budget != 120 {
		t.Fatalf("continued over the websocket: budget %d", f.Budget)
	}

	if code, _ := e.do("POST", "/api/runs/"+id+"/ops", "application/json", `{"op":"continue"}`, nil); code != http.StatusNoContent {
		t.Fatalf("POST continue: %d", code)
	}
	if g := enginetest.WaitFrame(t, run, 10*time.Second, func(f *engine.Frame) bool { return f.Status == engine.StatusDone && f.Step == 180 }); g.Budget != 180 {
		t.Fatalf("continued over POST: budget %d", g.Budget)
	}
	got := e.wantError("POST", "/api/runs/"+id+"/ops", `{"op":"continue","n":2}`, http.StatusBadRequest, "n")
	if !strings.Contains(got.Message, "continue") {
		t.Fatalf("continue with n: %+v", got)
	}
}
