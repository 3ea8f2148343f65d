package handlers

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/mcmc"
)

// pageConfigOf reads the play page's <script id="config">.
func pageConfigOf(t *testing.T, body string) pageConfig {
	t.Helper()
	const open = `<script id="config" type="application/json">`
	_, rest, ok := strings.Cut(body, open)
	raw, _, ok2 := strings.Cut(rest, "</script>")
	if !ok || !ok2 {
		t.Fatalf("no config script in the page")
	}
	var cfg pageConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		t.Fatalf("config: %v\n%s", err, raw)
	}
	return cfg
}

// TestPlayPageSendsLimitsFlagsAndExactPosterior: the page's config carries
// the engine's and the loader's limits, each panel's capabilities and, for
// a sampler of the linear model, the exact posterior mcmc.ExactLinear gives
// on the page's data; the toolbar's step box has the engine's limit. The
// script reads these instead of keeping copies.
func TestPlayPageSendsLimitsFlagsAndExactPosterior(t *testing.T) {
	p := NewPages(slog.New(slog.NewTextHandler(io.Discard, nil)), NewUploads(0)) // the real catalog
	res, body := serve(t, p, "/play?data=linreg&methods=nuts,metropolis&seed=2")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	cfg := pageConfigOf(t, body)
	want := pageLimits{MaxStepCommand: engine.MaxStepCommand, MaxSpeed: engine.MaxSpeed, MaxUploadBytes: datasets.MaxCSVBytes,
		MaxReplaySteps: engine.MaxReplaySteps, MaxReplayChanges: engine.MaxReplayChanges,
		MinEditPoints: datasets.MinEditPoints, MaxEditPoints: datasets.MaxEditPoints, MaxEditAdded: MaxEditAdded}
	if cfg.Limits != want {
		t.Errorf("limits %+v, want %+v", cfg.Limits, want)
	}
	if step := `id="step-n" min="1" max="` + strconv.Itoa(engine.MaxStepCommand) + `"`; !strings.Contains(body, step) {
		t.Errorf("the step box lacks the engine's limit:\n%s", excerpt(body, `id="step-n"`))
	}

	d, err := datasets.Load("linreg", 2)
	if err != nil {
		t.Fatal(err)
	}
	exact, ok := mcmc.ExactLinear(d.X, d.Y)
	if !ok {
		t.Fatal("linreg has no exact posterior")
	}
	if len(cfg.Panels) != 2 {
		t.Fatalf("%d panels", len(cfg.Panels))
	}
	for _, pc := range cfg.Panels {
		adapts := slices.Contains(pc.Spec.Capabilities, sim.AdaptsStepSize)
		if adapts != (pc.Method == mcmc.NameNUTS) {
			t.Errorf("%s: adapts_step %v", pc.Method, adapts)
		}
		if !reflect.DeepEqual(pc.Exact, exact) { // both samplers run the linear model on linreg
			t.Errorf("%s: exact posterior %+v, want %+v", pc.Method, pc.Exact, exact)
		}
	}

	// No closed form for a variational method, nor for a sampler of the BNN.
	_, body = serve(t, p, "/play?data=linreg&methods=mfvi,hmc&hmc.model=bnn")
	for _, pc := range pageConfigOf(t, body).Panels {
		if pc.Exact != nil {
			t.Errorf("%s (model %q): exact posterior %+v, want none", pc.Method, pc.Model, pc.Exact)
		}
	}
}

// TestAPIMethodsCarryCapabilities: GET /api/methods gives each catalog
// method's capabilities as its spec declares them: HMC and NUTS adapt
// their step size, no other method does.
func TestAPIMethodsCarryCapabilities(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{api: APIConfig{Specs: catalog.Specs}})
	var specs []struct {
		Name         string
		Capabilities []sim.Capability
	}
	if code, _ := e.do("GET", "/api/methods", "", "", &specs); code != 200 {
		t.Fatalf("methods: %d", code)
	}
	var adapting []string
	for _, s := range specs {
		if slices.Contains(s.Capabilities, sim.AdaptsStepSize) {
			adapting = append(adapting, s.Name)
		}
	}
	slices.Sort(adapting)
	if want := []string{mcmc.NameHMC, mcmc.NameNUTS}; !slices.Equal(adapting, want) {
		t.Errorf("methods adapting their step: %v, want %v", adapting, want)
	}
}
