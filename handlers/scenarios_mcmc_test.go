package handlers

import (
	"encoding/json"
	"html"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/scenario"
)

// TestScenariosOpenWithTheRealCatalog opens the gallery and every
// scenario's play page with the real methods: each link is on the home
// page, answers 200, and its config holds the scenario's panels and control
// values (the samplers' and GPs' scenarios included).
func TestScenariosOpenWithTheRealCatalog(t *testing.T) {
	p := NewPages(slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	_, home := serve(t, p, "/")
	for _, want := range []string{"vi-vs-mcmc", "robust-gp", "gp-classification"} {
		if _, ok := scenario.BySlug(want); !ok {
			t.Errorf("no scenario %q", want)
		}
	}
	cfgRe := regexp.MustCompile(`(?s)<script id="config" type="application/json">(.*?)</script>`)
	for _, s := range scenario.All() {
		if !strings.Contains(home, strings.ReplaceAll(s.URL(), "&", "&amp;")) {
			t.Errorf("home page lacks the link %s", s.URL())
		}
		res, body := serve(t, p, s.URL())
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d", s.Slug, res.StatusCode)
			continue
		}
		m := cfgRe.FindStringSubmatch(body)
		if m == nil {
			t.Errorf("%s: no config script", s.Slug)
			continue
		}
		var cfg struct {
			Data   string `json:"data"`
			Task   string `json:"task"`
			Panels []struct {
				Method   string       `json:"method"`
				Controls sim.Controls `json:"controls"`
			} `json:"panels"`
		}
		if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &cfg); err != nil {
			t.Errorf("%s: config: %v", s.Slug, err)
			continue
		}
		if cfg.Data != s.Data || len(cfg.Panels) != len(s.Methods) {
			t.Errorf("%s: config data %s with %d panels", s.Slug, cfg.Data, len(cfg.Panels))
			continue
		}
		for i, pc := range cfg.Panels {
			if pc.Method != s.Methods[i] {
				t.Errorf("%s: panel %d is %s, want %s", s.Slug, i, pc.Method, s.Methods[i])
			}
			for k, v := range s.Controls {
				method, name, _ := strings.Cut(k, ".")
				if method == pc.Method && pc.Controls[name].String() != v {
					t.Errorf("%s: %s = %v, want %s", s.Slug, k, pc.Controls[name], v)
				}
			}
		}
		if s.Slug == "gp-classification" && cfg.Task != string(sim.Classification) {
			t.Errorf("gp-classification's task is %q", cfg.Task)
		}
		if strings.Contains(body, "have not landed") {
			t.Errorf("%s: the page still says the samplers have not landed", s.Slug)
		}
	}
}

// TestScenarioRunControlsMatchThePage: the controls a scenario's claim is
// checked with (scenario.Scenario.RunControls) are those its play page
// starts each panel's run with, its link parsed as the page parses it
// against the real catalog's spec fitted to the data.
func TestScenarioRunControlsMatchThePage(t *testing.T) {
	src := methodSource{names: catalog.MethodNames, new: catalog.NewMethod,
		data: func(name string, seed uint64) *sim.Dataset { d, _ := datasets.Load(name, seed); return d }}
	for _, s := range scenario.All() {
		u, err := url.Parse(s.URL())
		if err != nil {
			t.Fatal(err)
		}
		c, err := parsePlay(u.Query(), src)
		if err != nil {
			t.Fatalf("%s: %v", s.Slug, err)
		}
		for _, p := range c.Panels {
			want, err := s.RunControls(p.Method)
			if err != nil {
				t.Errorf("%s: %s: %v", s.Slug, p.Method, err)
				continue
			}
			if !maps.EqualFunc(p.Controls, want, func(a, b sim.Value) bool { return a.String() == b.String() }) {
				t.Errorf("%s: %s: the page starts the run with %v, the claim is checked with %v", s.Slug, p.Method, p.Controls, want)
			}
		}
	}
}
