package handlers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/engine"
)

// budgetEnv is the API with the real catalog and a budget of 12 MiB a run
// and 32 MiB in all.
func budgetEnv(t *testing.T) *env {
	return newEnv(t, envOptions{
		factory:  NewFactory,
		registry: engine.RegistryConfig{Budget: engine.Budget{RunBytes: 12 << 20, TotalBytes: 32 << 20}},
		api: APIConfig{Specs: catalog.Specs, ClientKey: func(r *http.Request) string {
			return r.Header.Get("X-Client")
		}},
	})
}

// TestAdmissionByCost: a run dearer than a run may be is a 422 naming
// what to lower, before anything is built; so is a command that would
// make a run that dear; a run that fits its own bound but not what the
// other runs leave is a 429 with Retry-After.
func TestAdmissionByCost(t *testing.T) {
	checkLeaks(t)
	e := budgetEnv(t)
	code, ae, raw := call(e, "A", "POST", "/api/runs", "application/json",
		`{"data":"gap","method":"nuts","controls":{"arch":"256,256,256,256","chains":8}}`)
	if code != http.StatusUnprocessableEntity || ae.Field != "chains" ||
		!strings.Contains(ae.Message, "nuts with chains 8 and arch 256,256,256,256 on 100 points needs ~") ||
		!strings.Contains(ae.Message, "the server allows 12 MB per run: lower chains, arch or data points") {
		t.Fatalf("NUTS 256×4 with 8 chains: %d %s", code, raw)
	}
	if e.reg.Len() != 0 {
		t.Fatalf("a refused run was built: %d runs", e.reg.Len())
	}

	_, _, b := call(e, "A", "POST", "/api/runs", "application/json", `{"data":"gap","method":"mfvi"}`)
	id := createdID(t, b)
	code, ae, raw = call(e, "A", "POST", "/api/runs/"+id+"/ops", "application/json", `{"op":"set","name":"arch","value":"256,256,256,256"}`)
	if code != http.StatusUnprocessableEntity || ae.Field != "arch" || !strings.Contains(ae.Message, "per run: lower arch") {
		t.Errorf("set arch 256×4: %d %s", code, raw)
	}

	// mfvi with arch 256,256,256 on gap is about 10 MiB (its slab of 8
	// weight vectors and the run's records): with the first run's 2 MiB,
	// two fit in 32 MiB, not three.
	big := `{"data":"gap","method":"mfvi","controls":{"arch":"256,256,256"}}`
	for range 2 {
		if code, _, raw := call(e, "B", "POST", "/api/runs", "application/json", big); code != http.StatusCreated {
			t.Fatalf("run within the budget: %d %s", code, raw)
		}
	}
	code, h, raw := e.roundTrip("POST", "/api/runs", big, map[string]string{"X-Client": "C", "Content-Type": "application/json"})
	if code != http.StatusTooManyRequests || h.Get("Retry-After") == "" || !strings.Contains(string(raw), "they may hold together") {
		t.Errorf("past the budget of all runs: %d %s (Retry-After %q)", code, raw, h.Get("Retry-After"))
	}
}

// TestAdmissionByCostOnATarget: a run on a target density is admitted by
// cost as a run on data is: SVGD's squared distances between 2,000
// particles are 16 MB, past the 12 MiB a run may hold here.
func TestAdmissionByCostOnATarget(t *testing.T) {
	checkLeaks(t)
	e := budgetEnv(t)
	code, ae, raw := call(e, "A", "POST", "/api/runs", "application/json", `{"target":"banana","method":"svgd","controls":{"particles":2000}}`)
	if code != http.StatusUnprocessableEntity || ae.Field != "particles" || !strings.Contains(ae.Message, "svgd with particles 2000 needs ~") {
		t.Fatalf("SVGD with 2,000 particles: %d %s", code, raw)
	}
	if code, _, raw := call(e, "A", "POST", "/api/runs", "application/json", `{"target":"banana","method":"svgd","controls":{"particles":100}}`); code != http.StatusCreated {
		t.Fatalf("SVGD with 100 particles: %d %s", code, raw)
	}
}
