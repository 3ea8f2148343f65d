package handlers

import (
	"encoding/csv"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/wire"
)

// GET /api/runs/{id}/draws.csv writes a sampler's kept draws: every chain,
// every kept draw, at full precision, in the draws file's layout. The test
// reads the method's own draws on the run goroutine and asks for each
// value bit for bit, the indices counting from 1 (.draw across chains).
// A method without draws is a 400 naming the method; an unknown run 404.
func TestAPIDrawsCSV(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{factory: NewFactory, api: APIConfig{Specs: catalog.Specs}})
	var created wire.RunCreated
	body := `{"data":"linreg","method":"hmc","seed":2,"controls":{"chains":3,"warmup":50}}`
	if code, _ := e.do("POST", "/api/runs", "application/json", body, &created); code != http.StatusCreated {
		t.Fatalf("create hmc: %d", code)
	}
	path := "/api/runs/" + created.ID + "/draws.csv"
	if code, _ := e.do("POST", "/api/runs/"+created.ID+"/ops", "application/json", `{"op":"step","n":170}`, nil); code != http.StatusNoContent {
		t.Fatalf("step: %d", code)
	}
	run, err := e.reg.Get(created.ID)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.WaitFrame(t, run, 10*time.Second, func(f *engine.Frame) bool { return f.Step == 170 })

	code, h, b := e.roundTrip("GET", path, "", nil)
	if code != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "text/csv") || !strings.Contains(h.Get("Content-Disposition"), "attachment") {
		t.Fatalf("GET draws: %d %v", code, h)
	}
	rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var want map[string][][]float64
	if err := run.Inspect(t.Context(), func(m sim.Stepper, d *sim.Dataset) {
		c := m.(sim.Chains)
		names = c.Params()
		want = make(map[string][][]float64)
		for _, n := range names {
			want[n] = c.Draws(n)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0], ","); got != ".chain,.iteration,.draw,"+strings.Join(names, ",") {
		t.Fatalf("header %q, params %v", got, names)
	}
	chains, kept := len(want[names[0]]), len(want[names[0]][0])
	// 170 steps, 50 of warm-up: 120 kept draws a chain (hmc keeps every one).
	if chains != 3 || kept != 120 || len(rows)-1 != chains*kept {
		t.Fatalf("%d rows for %d chains × %d kept draws", len(rows)-1, chains, kept)
	}
	for r, row := range rows[1:] {
		c, i := r/kept, r%kept
		if row[0] != strconv.Itoa(c+1) || row[1] != strconv.Itoa(i+1) || row[2] != strconv.Itoa(r+1) {
			t.Fatalf("row %d indexed %v, want chain %d iteration %d draw %d", r+1, row[:3], c+1, i+1, r+1)
		}
		for j, n := range names {
			v, err := strconv.ParseFloat(row[3+j], 64)
			// linreg is built in: its report units are the model's, so the
			// file holds the method's numbers unchanged.
			if w := want[n][c][i]; err != nil || (v != w && !(math.IsNaN(v) && math.IsNaN(w))) {
				t.Fatalf("row %d %s = %q, want %v", r+1, n, row[3+j], w)
			}
		}
	}

	if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"linreg","method":"mfvi","seed":1}`, &created); code != http.StatusCreated {
		t.Fatalf("create mfvi: %d", code)
	}
	if ae := e.wantError("GET", "/api/runs/"+created.ID+"/draws.csv", "", 400, "method"); !strings.Contains(ae.Message, "mfvi") {
		t.Errorf("the error %q does not name the method", ae.Message)
	}
	e.wantError("GET", "/api/runs/nope/draws.csv", "", 404, "id")
}
