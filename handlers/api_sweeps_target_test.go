package handlers

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim/sweeps"
	"github.com/posterior-playground/playground/sim/wire"
)

// TestTargetSweepRejectsBadInput: a target sweep's bad field is a 400
// naming it and its allowed range, and nothing starts.
func TestTargetSweepRejectsBadInput(t *testing.T) {
	checkLeaks(t)
	e := newSweepEnv(t, sweeps.Config{}, 0)
	for _, c := range []struct{ body, field, say string }{
		{`{"target":"gaussian","param":"rho","values":"linspace:0:0.99:51","methods":[{"method":"mfvi"}]}`, "values", "at most 50"},
		{`{"target":"gaussian","param":"rho","values":"linspace:0:0.99:10","methods":[{"method":"mfvi"},{"method":"nuts"}],"seeds":3}`, "values", "60 runs"},
		{`{"target":"gaussian","param":"rho","values":"0,0.5","methods":[{"method":"mfvi"}],"budget":5000000}`, "budget", "[1, 1000000]"},
		{`{"target":"gaussian","param":"rho","values":"0,1.2","methods":[{"method":"mfvi"}]}`, "values", "[-0.99, 0.99]"},
		{`{"target":"gaussian","param":"wiggle","values":"0,0.5","methods":[{"method":"mfvi"}]}`, "param", "rho, scale_ratio"},
		{`{"target":"gaussian","param":"rho","values":"0,0.5","methods":[{"method":"nuts","controls":{"max_depth":40}}]}`, "methods[0].controls.max_depth", ""},
		{`{"target":"gaussian","param":"rho","values":"0,0.5","methods":[{"method":"mfvi"}],"steps":100}`, "steps", "budget"},
		{`{"data":"gap","method":"mfvi","param":"prior_scale","values":"1,2","methods":[{"method":"mfvi"}]}`, "methods", "target"},
		{`{"target":"gaussian","param":"rho","values":"0,0.5","methods":[{"method":"mfvi","colour":1}]}`, "colour", ""}, // named by its own key: the strict decoder does not say where it sits
	} {
		var got wire.APIError
		code, _ := e.doAs("a", "POST", "/api/sweeps", c.body, &got)
		if code != http.StatusBadRequest || !strings.HasPrefix(got.Field, c.field) || !strings.Contains(got.Message, c.say) {
			t.Errorf("%s: %d %+v, want 400 naming %q saying %q", c.body, code, got, c.field, c.say)
		}
	}
}

// TestTargetSweepThroughAPI runs a small ρ sweep through the endpoint and
// follows it to the end: one point per value, each with its methods' sd
// ratios in the target's coordinates.
func TestTargetSweepThroughAPI(t *testing.T) {
	checkLeaks(t)
	e := newSweepEnv(t, sweeps.Config{}, 0)
	id := e.post("a", `{"target":"gaussian","param":"rho","values":"0,0.9","budget":4000,
		"methods":[{"method":"mfvi"},{"method":"fullrank","controls":{"lr":0.05}}]}`)
	in := e.waitInfo(id, 60*time.Second, func(in sweeps.Info) bool { return in.Status != sweeps.Running })
	if in.Status != sweeps.Done || in.Total != 4 || len(in.Points) != 2 || in.Request.Target != "gaussian" || in.Request.Budget != 4000 {
		t.Fatalf("sweep ended %+v", in)
	}
	for _, p := range in.Points {
		if len(p.Arms) != 2 || p.Arms[0].Method != "mfvi" || p.Arms[1].Controls["lr"].Num != 0.05 || len(p.Arms[0].Params) != 2 {
			t.Fatalf("point %+v", p)
		}
		if p.Arms[0].Evals < 4000 {
			t.Errorf("ρ = %g: mfvi spent %d evaluations, below the budget", p.Value, p.Arms[0].Evals)
		}
	}
	// The stream's points carry the methods.
	res := e.stream(id, "")
	defer res.Body.Close()
	n := 0
	for _, ev := range readEvents(t, res.Body) {
		var got struct {
			Point *struct {
				Methods []json.RawMessage `json:"methods"`
			} `json:"point"`
		}
		if err := json.Unmarshal(ev.data, &got); err != nil {
			t.Fatal(err)
		}
		if got.Point != nil && len(got.Point.Methods) == 2 {
			n++
		}
	}
	if n != 2 {
		t.Errorf("the stream sent %d points with both methods, want 2", n)
	}
}
