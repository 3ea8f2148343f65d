package handlers

import (
	"errors"
	"fmt"
	"html"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/scenario"
)

// fakeMethod has a spec and nothing else: the pages only read specs.
type fakeMethod struct{ spec sim.MethodSpec }

func (f fakeMethod) Spec() sim.MethodSpec                              { return f.spec }
func (f fakeMethod) Init(*sim.Dataset, sim.Controls, *rand.Rand) error { return nil }
func (f fakeMethod) Step() sim.StepStats                               { return sim.StepStats{} }
func (f fakeMethod) Set(string, sim.Value) error                       { return nil }
func (f fakeMethod) Predict([]float64, int) sim.Predictive             { return sim.Predictive{} }
func (f fakeMethod) Trace() []float64                                  { return nil }

func fakeSpec(name string) sim.MethodSpec {
	return sim.MethodSpec{
		Name: name, Label: strings.ToUpper(name), Family: sim.FamilyVI, Models: []string{"bnn", "linear"},
		Controls: []sim.ControlSpec{
			{Name: "prior_scale", Label: "Prior scale", Help: "s", Min: 0.1, Max: 10, Step: 0.01, Default: sim.Num(2), Log: true, Live: true},
			{Name: "inducing", Label: "Inducing points", Help: "M", Min: 1, Max: 100, Step: 1, Default: sim.Num(100), Integer: true, Live: true},
			{Name: "kernel", Label: "Kernel", Help: "k", Default: sim.Choice("rbf"), Options: []string{"rbf", "periodic"}},
		},
		Traces: []string{"noise_std"},
	}
}

// fakeSource offers mfvi, gip and a third method, all with fakeSpec.
func fakeSource() methodSource {
	names := []string{"gip", "mfvi", "other", "x4", "x5"}
	return methodSource{
		names: func() []string { return names },
		new: func(name, model string) (sim.Method, error) {
			if !slices.Contains(names, name) {
				return nil, &sim.FieldError{Field: "method", Message: "unknown"}
			}
			if model != "" && model != "bnn" && model != "linear" {
				return nil, &sim.FieldError{Field: "model", Message: "no such model " + model}
			}
			return fakeMethod{fakeSpec(name)}, nil
		},
	}
}

func testPages() *Pages {
	return &Pages{log: slog.New(slog.NewTextHandler(io.Discard, nil)), methods: fakeSource()}
}

func TestParsePlayResolvesAndRoundTrips(t *testing.T) {
	q, _ := url.ParseQuery("data=gap&methods=mfvi,gip&seed=7&gip.prior_scale=0.5&mfvi.kernel=periodic&hide=inducing&focus=gip.prior_scale")
	c, err := parsePlay(q, fakeSource())
	if err != nil {
		t.Fatal(err)
	}
	if c.Data != "gap" || c.Seed != 7 || len(c.Panels) != 2 || c.Panels[0].Method != "mfvi" || c.Panels[1].Method != "gip" {
		t.Fatalf("parsed %+v", c)
	}
	if got := c.Panels[1].Controls["prior_scale"]; got != sim.Num(0.5) {
		t.Errorf("gip prior_scale = %v, want 0.5", got)
	}
	if got := c.Panels[0].Controls["prior_scale"]; got != sim.Num(2) {
		t.Errorf("mfvi prior_scale = %v, want the default 2", got)
	}
	if got := c.Panels[0].Controls["kernel"]; got != sim.Choice("periodic") {
		t.Errorf("mfvi kernel = %v, want periodic", got)
	}
	want := "/play?data=gap&methods=mfvi,gip&seed=7&mfvi.kernel=periodic&gip.prior_scale=0.5&hide=inducing&focus=gip.prior_scale"
	if got := c.URL(); got != want {
		t.Errorf("URL() = %s\nwant    %s", got, want)
	}
	u, _ := url.Parse(c.URL())
	c2, err := parsePlay(u.Query(), fakeSource())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, c2) {
		t.Errorf("reparsing the canonical URL changed the config:\n%+v\n%+v", c, c2)
	}
}

// TestParsePlayPresent checks present=: 1 is presentation mode and stays in
// the canonical link, 0 and no parameter are not and leave it out.
func TestParsePlayPresent(t *testing.T) {
	for _, tc := range []struct {
		query string
		on    bool
	}{{"methods=gip&present=1", true}, {"methods=gip&present=0", false}, {"methods=gip", false}, {"methods=gip&present=0&present=1", true}} {
		q, _ := url.ParseQuery(tc.query)
		c, err := parsePlay(q, fakeSource())
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		if c.Present != tc.on {
			t.Errorf("%s: Present = %v, want %v", tc.query, c.Present, tc.on)
		}
		if got := strings.Contains(c.URL(), "present=1"); got != tc.on {
			t.Errorf("%s: canonical link %s, want present=1 there: %v", tc.query, c.URL(), tc.on)
		}
		u, _ := url.Parse(c.URL())
		if c2, err := parsePlay(u.Query(), fakeSource()); err != nil || c2.Present != tc.on {
			t.Errorf("%s: reparsing %s gave Present %v, %v", tc.query, c.URL(), c2.Present, err)
		}
	}
}

func TestParsePlayDefaults(t *testing.T) {
	c, err := parsePlay(url.Values{}, fakeSource())
	if err != nil {
		t.Fatal(err)
	}
	if c.Data != "gap" || c.Seed != defaultSeed || len(c.Panels) != 2 || c.Panels[0].Method != "mfvi" {
		t.Errorf("defaults: %+v", c)
	}
	// Repeated methods= as a form sends them, and an upload's name.
	q, _ := url.ParseQuery("data=upload:abc123&methods=gip&methods=mfvi")
	c, err = parsePlay(q, fakeSource())
	if err != nil {
		t.Fatal(err)
	}
	if c.Data != "upload:abc123" || len(c.Panels) != 2 || c.Panels[0].Method != "gip" {
		t.Errorf("repeated methods: %+v", c)
	}
}

// A link naming only a scenario opens that scenario's panels, data, seed
// and controls, every scenario alike; a link that names data or methods
// keeps them.
func TestParsePlayScenarioAlone(t *testing.T) {
	for _, s := range scenario.All() {
		c, err := parsePlay(url.Values{"scenario": {s.Slug}}, catalogSource())
		if err != nil {
			t.Fatalf("%s: %v", s.Slug, err)
		}
		u, _ := url.Parse(s.URL())
		want, err := parsePlay(u.Query(), catalogSource())
		if err != nil {
			t.Fatalf("%s: %v", s.URL(), err)
		}
		if c.URL() != want.URL() {
			t.Errorf("scenario=%s alone opens %s, want %s", s.Slug, c.URL(), want.URL())
		}
	}
	c, err := parsePlay(url.Values{"scenario": {"vi-vs-mcmc"}, "methods": {"mfvi"}}, catalogSource())
	if err != nil || len(c.Panels) != 1 || c.Data != "gap" {
		t.Errorf("scenario with methods=mfvi: %+v, %v; want one mfvi panel on the default data", c, err)
	}
}

func TestParsePlayErrorsNameTheField(t *testing.T) {
	cases := []struct{ query, field, says string }{
		{"data=nope", "data", "unknown data set"},
		{"data=upload:../x", "data", "unknown data set"},
		{"methods=", "methods", "choose 1 to 4"},
		{"methods=mfvi,gip,other,x4,x5", "methods", "choose 1 to 4"},
		{"methods=mfvi,mfvi", "methods", "twice"},
		{"methods=hmc", "methods", `unknown method "hmc"`},
		{"seed=-1", "seed", "whole number"},
		{"seed=abc", "seed", "whole number"},
		{"methods=gip&gip.prior_scale=100", "gip.prior_scale", "[0.1, 10]"},
		{"methods=gip&gip.prior_scale=big", "gip.prior_scale", "not a number"},
		{"methods=gip&gip.inducing=2.5", "gip.inducing", "whole number"},
		{"methods=gip&gip.kernel=matern", "gip.kernel", "not one of"},
		{"methods=gip&gip.nope=1", "gip.nope", "unknown control"},
		{"methods=gip&gip.model=cnn", "gip.model", "no such model"},
		{"methods=gip&mfvi.prior_scale=1", "mfvi.prior_scale", "not among methods"},
		{"methods=gip&colour=red", "colour", "unknown parameter"},
		{"methods=gip&hide=lr", "hide", "names no control"},
		{"methods=gip&focus=mfvi.prior_scale", "focus", "names no control"},
		{"scenario=nope", "scenario", "unknown scenario"},
		{"methods=gip&present=yes", "present", "not 0 or 1"},
		{"methods=gip&present=", "present", "not 0 or 1"},
		{"methods=gip&present=2", "present", "not 0 or 1"},
	}
	for _, tc := range cases {
		q, err := url.ParseQuery(tc.query)
		if err != nil {
			t.Fatal(err)
		}
		_, err = parsePlay(q, fakeSource())
		var fe *sim.FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%s: err = %v, want a *sim.FieldError", tc.query, err)
			continue
		}
		if fe.Field != tc.field || !strings.Contains(fe.Message, tc.says) {
			t.Errorf("%s: got %q: %q, want field %q saying %q", tc.query, fe.Field, fe.Message, tc.field, tc.says)
		}
	}
}

func serve(t *testing.T, p *Pages, target string) (*http.Response, string) {
	t.Helper()
	r := chi.NewRouter()
	p.Routes(r)
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

func TestHomeListsScenarios(t *testing.T) {
	res, body := serve(t, testPages(), "/")
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET / = %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	for _, s := range scenario.All() {
		if !strings.Contains(body, s.Name) && !strings.Contains(body, strings.ReplaceAll(s.Name, "'", "&#39;")) {
			t.Errorf("home page lacks scenario %q", s.Name)
		}
		if !allIn(s.Methods, fakeSource().names()) {
			continue // not offered by the fake catalog: no link (TestScenariosOpenWithTheRealCatalog has them)
		}
		if !strings.Contains(body, strings.ReplaceAll(s.URL(), "&", "&amp;")) {
			t.Errorf("home page lacks the link %s", s.URL())
		}
	}
}

func TestPlayPageRendersPanelsAndConfig(t *testing.T) {
	res, body := serve(t, testPages(), "/play?scenario=mfvi-vs-gip-gap&data=gap&methods=mfvi,gip&seed=3&gip.prior_scale=0.5&hide=mfvi.inducing&focus=prior_scale")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	for _, want := range []string{
		`id="panel-mfvi"`, `id="panel-gip"`, `<script id="config" type="application/json">`,
		`"url":"/play?scenario=mfvi-vs-gip-gap\u0026data=gap\u0026methods=mfvi,gip\u0026seed=3\u0026gip.prior_scale=0.5`,
		`<math display="block">`, "Mean-field vs GIP on the gap", `"gap_centre":`, `"points":{"x":[`,
		`id="ctl-gip-prior_scale"`, `data-log`, `1 control is hidden by this link.`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("play page lacks %q", want)
		}
	}
	// mfvi's inducing is hidden, so only gip's card explains inducing.
	if n := strings.Count(body, `<dt>Inducing points</dt>`); n != 1 {
		t.Errorf("inducing is explained %d times, want once (gip's card only)", n)
	}
	// gip's prior scale is 0.5: its log slider sits at log10(0.5).
	if !strings.Contains(body, `id="ctl-gip-prior_scale" data-name="prior_scale" data-log min="-1" max="1" step="any" value="-0.30103"`) {
		t.Errorf("gip's prior scale slider is not at log10(0.5):\n%s", excerpt(body, `id="ctl-gip-prior_scale"`))
	}
}

func TestPlayPageRejectsBadLinks(t *testing.T) {
	res, body := serve(t, testPages(), "/play?data=gap&methods=gip&gip.prior_scale=100")
	if res.StatusCode != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", res.StatusCode)
	}
	if !strings.Contains(body, "<code>gip.prior_scale</code>") || !strings.Contains(body, "outside the allowed range [0.1, 10]") {
		t.Errorf("the error page does not name the field and range:\n%s", excerpt(body, "role=\"alert\""))
	}
}

// TestScenariosMatchTheCatalog opens every scenario's link with the real
// methods, so a renamed control breaks a test rather than a gallery card.
func TestScenariosMatchTheCatalog(t *testing.T) {
	src := methodSource{names: catalog.MethodNames, new: catalog.NewMethod}
	known := catalog.MethodNames()
	slugs := map[string]bool{}
	for _, s := range scenario.All() {
		if slugs[s.Slug] {
			t.Errorf("slug %q used twice", s.Slug)
		}
		slugs[s.Slug] = true
		if !allIn(s.Methods, known) {
			t.Logf("%s: methods %v not all registered (have %v); skipped", s.Slug, s.Methods, known)
			continue
		}
		u, _ := url.Parse(s.URL())
		c, err := parsePlay(u.Query(), src)
		if err != nil {
			t.Errorf("%s: %v", s.Slug, err)
			continue
		}
		if c.Scenario != s.Slug || c.Data != s.Data || len(c.Panels) != len(s.Methods) {
			t.Errorf("%s: parsed %+v", s.Slug, c)
		}
	}
}

func allIn(xs, set []string) bool {
	for _, x := range xs {
		if !slices.Contains(set, x) {
			return false
		}
	}
	return true
}

func excerpt(body, near string) string {
	i := strings.Index(body, near)
	if i < 0 {
		return "(not found)"
	}
	return body[max(0, i-200):min(len(body), i+400)]
}

// The play page shows a scenario's claim beside its description, with the
// step it holds from, and hands the checks to the script.
func TestPlayPageShowsTheClaim(t *testing.T) {
	s, _ := scenario.BySlug("mfvi-vs-gip-gap")
	res, body := serve(t, testPages(), s.URL())
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	for _, want := range []string{
		`<p class="claim" id="claim">`, html.EscapeString(s.Claim.Text), fmt.Sprintf("holds from step %d.", s.Claim.Step),
		`"claim":{"text":`, `"checks":[{"method":"gip","measure":"inbetween_ratio","op":"\u003e=","value":3}`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the play page lacks %q:\n%s", want, excerpt(body, `id="claim"`))
		}
	}
	// A link without a scenario has no claim.
	if _, body := serve(t, testPages(), "/play?data=gap&methods=mfvi,gip"); strings.Contains(body, `id="claim"`) || strings.Contains(body, `"claim":`) {
		t.Error("a plain link shows a claim")
	}
}
