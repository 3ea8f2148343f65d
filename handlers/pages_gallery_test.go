package handlers

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim/scenario"
)

// GET /gallery shows the target picker with the chosen target and one
// panel per method, defaulting to the funnel with NUTS beside mean-field
// VI; a target or method it does not know, or too many panels, is a 400
// page naming the parameter.
func TestGalleryPage(t *testing.T) {
	p := NewPages(quietLog, nil)
	for url, want := range map[string][]string{
		"/gallery": {`<option value="funnel" selected>`, `data-panel="0"`, `data-panel="1"`, `<option value="nuts" selected>`, `<option value="mfvi" selected>`, `/static/app/gallery.js`},
		"/gallery?target=banana&methods=hmc,svgd,flow": {`<option value="banana" selected>`, `data-panel="2"`, `<option value="svgd" selected>`, `<option value="flow" selected>`},
	} {
		res, body := serve(t, p, url)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", url, res.StatusCode)
		}
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the page lacks %s", url, w)
			}
		}
	}
	for url, field := range map[string]string{
		"/gallery?target=wobble":                          "target",
		"/gallery?methods=nuts,gibbs":                     "methods",
		"/gallery?methods=nuts,nuts,nuts,nuts,nuts":       "methods",
		"/gallery?target=funnel&centred=2":                "centred",
		"/gallery?target=funnel&rho=0.5":                  "rho",
		"/gallery?methods=nuts,mfvi&p3.lr=0.1":            "p3.lr",
		"/gallery?methods=nuts,mfvi&p2.lr=7":              "p2.lr",
		"/gallery?methods=nuts,mfvi&p2.wobble=1":          "p2.wobble",
		"/gallery?methods=nuts,mfvi&p2.replay=x":          "p2.replay",
		"/gallery?methods=nuts,mfvi&p2.replay=5,9:lr:0.1": "p2.replay",
		"/gallery?seed=-1":                                "seed",
		"/gallery?scenario=nowhere":                       "scenario",
		"/gallery?present=yes":                            "present",
		"/gallery?p1.watch=x":                             "p1.watch",
		"/gallery?p1.watch=0123456789abcdef&p1.replay=5":  "p1.watch",
	} {
		res, body := serve(t, p, url)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, field) {
			t.Errorf("%s: %d, want a 400 naming %s", url, res.StatusCode, field)
		}
	}
}

// A gallery link's state reaches the page's config as the server read it:
// the target's controls, each panel's controls and replay, a watched run,
// presentation mode and the seed; a typed density is the target's text.
func TestGalleryLinkState(t *testing.T) {
	c, err := parseGallery(map[string][]string{
		"target": {"funnel"}, "centred": {"0"}, "methods": {"nuts,mfvi"}, "seed": {"4"}, "present": {"1"},
		"p1.step": {"0.25"}, "p1.watch": {"0123456789abcdef"}, "p2.divergence": {"renyi"}, "p2.replay": {"30,10:lr:0.01"},
	})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(c)
	for _, want := range []string{`"target":"funnel"`, `"target_controls":{"centred":0}`, `"seed":4`, `"present":true`,
		`{"method":"nuts","controls":{"step":0.25},"watch":"0123456789abcdef"}`,
		`{"method":"mfvi","controls":{"divergence":"renyi"},"replay":{"step":30,"changes":[{"step":10,"name":"lr","value":0.01}]}}`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("config lacks %s: %s", want, b)
		}
	}
	c, err = parseGallery(map[string][]string{"target": {"a ~ normal(0, 1); b ~ normal(a, 1);"}})
	if err != nil || !c.Typed || c.Target != "a ~ normal(0, 1); b ~ normal(a, 1);" {
		t.Errorf("a typed density: %+v, %v", c, err)
	}
}

// The gallery lists the scenarios set on a target, each with its panels,
// claim and link; the play page's scenarios are not listed.
func TestGalleryScenarios(t *testing.T) {
	got := galleryScenarios()
	if len(got) != len(scenario.OnTargets()) {
		t.Fatalf("%d gallery scenarios, want the %d on targets", len(got), len(scenario.OnTargets()))
	}
	for _, s := range got {
		if s.Target == "" || len(s.Panels) == 0 || s.Claim == nil || !strings.HasPrefix(s.URL, "/gallery?") {
			t.Errorf("%s: target %q, %d panels, claim %v, link %q", s.Slug, s.Target, len(s.Panels), s.Claim, s.URL)
		}
	}
}

// A scenario's link opens its panels: each one's name, its method's
// controls and its own target controls over the page's (the funnel's
// centred and non-centred panels); the link's pI.target.NAME and pI.NAME
// override them, and a link whose methods are not the scenario's keeps
// its own panels.
func TestGalleryScenarioPanels(t *testing.T) {
	neck, _ := scenario.ByTargetSlug("funnel-neck")
	q, _ := url.ParseQuery(strings.TrimPrefix(neck.URL(), "/gallery?"))
	c, err := parseGallery(q)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(c.Panels)
	for i, want := range []string{`"name":"centred","method":"hmc"`, `"target_controls":{"centred":1}`, `"name":"non-centred","method":"hmc"`, `"target_controls":{"centred":0}`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%d: the funnel-neck's panels lack %s: %s", i, want, b)
		}
	}
	q.Set("p1.target.centred", "0")
	if c, err = parseGallery(q); err != nil || c.Panels[0].TargetControls["centred"].Num != 0 {
		t.Errorf("p1.target.centred=0: %+v, %v", c.Panels[0], err)
	}
	lang, _ := scenario.ByTargetSlug("langevin-bias")
	q, _ = url.ParseQuery(strings.TrimPrefix(lang.URL(), "/gallery?"))
	if c, err = parseGallery(q); err != nil || c.Panels[1].Name != "mala" || c.Panels[1].Controls["step"].Num != 1.2 {
		t.Errorf("langevin-bias: %+v, %v", c.Panels, err)
	}
	q.Set("methods", "langevin,nuts")
	if c, err = parseGallery(q); err != nil || c.Panels[1].Name != "" || c.Panels[0].Controls["step"].Num == 1.2 {
		t.Errorf("langevin-bias with other methods: %+v, %v", c.Panels, err)
	}
	for _, bad := range []string{"p1.target.centred=2", "p1.target.rho=0.5"} {
		k, v, _ := strings.Cut(bad, "=")
		q, _ := url.ParseQuery(strings.TrimPrefix(neck.URL(), "/gallery?"))
		q.Set(k, v)
		if _, err := parseGallery(q); err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s: %v, want an error naming %s", bad, err, k)
		}
	}
}
