package handlers

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
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

// The gallery lists the scenarios set on a target, whatever their other
// fields, keyed in snake case; the play page's scenarios are not listed.
func TestGalleryScenarios(t *testing.T) {
	type claim struct {
		Text string `json:"text"`
		Step int64  `json:"step"`
	}
	type sc struct {
		Slug, Name, Target string
		TargetControls     map[string]string
		Methods            []string
		Claim              *claim
	}
	got := targetScenarios([]sc{
		{Slug: "gap", Name: "On data", Methods: []string{"gip"}},
		{Slug: "neck", Name: "The funnel's neck", Target: "funnel", TargetControls: map[string]string{"centred": "1"}, Methods: []string{"hmc", "nuts"}, Claim: &claim{"HMC diverges", 500}},
	})
	b, _ := json.Marshal(got)
	want := `[{"claim":{"step":500,"text":"HMC diverges"},"methods":["hmc","nuts"],"name":"The funnel's neck","slug":"neck","target":"funnel","target_controls":{"centred":"1"}}]`
	if string(b) != want {
		t.Errorf("got %s\nwant %s", b, want)
	}
	for _, s := range galleryScenarios() {
		if s["target"] == "" || s["slug"] == "" {
			t.Errorf("a gallery scenario without a target or slug: %v", s)
		}
	}
}
