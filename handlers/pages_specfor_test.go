package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
)

// inducingMax is gip's inducing-points range in specs, or −1.
func inducingMax(specs []sim.MethodSpec) float64 {
	for _, s := range specs {
		if c, ok := s.Control("inducing"); ok && s.Name == "gip" {
			return c.Max
		}
	}
	return -1
}

// The play page's controls take the server's range for the link's data:
// gip on gap (100 points) offers at most 100 inducing points in the page
// config, the slider and the number box, and a link asking for more names
// the field; on an upload, at most its points.
func TestPlayPageSpecsFitTheData(t *testing.T) {
	d, err := datasets.Load("gap", 1)
	if err != nil {
		t.Fatal(err)
	}
	if d.N() != 100 {
		t.Fatalf("gap has %d points; this test reads 100", d.N())
	}
	uploads := NewUploads(2)
	up := &sim.Dataset{Task: sim.Regression, X: []float64{0, 1, 2, 3, 4, 5, 6}, Y: make([]float64, 7), Grid: []float64{0, 6},
		XScale: sim.Identity, YScale: sim.Identity}
	upName, err := uploads.Add("s", up)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPages(quietLog, uploads)
	for _, tc := range []struct {
		data string
		max  float64
	}{{"gap", 100}, {upName, 7}} {
		c, err := parsePlay(url.Values{"data": {tc.data}, "methods": {"gip"}}, p.methods)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := p.pageConfig(c)
		if err != nil {
			t.Fatal(err)
		}
		if got := inducingMax([]sim.MethodSpec{cfg.Panels[0].Spec}); got != tc.max {
			t.Errorf("%s: page config's inducing max %g, want %g", tc.data, got, tc.max)
		}
		if got := cfg.Panels[0].Controls["inducing"].Num; got > tc.max {
			t.Errorf("%s: inducing starts at %g, above the max %g", tc.data, got, tc.max)
		}
		res, body := serve(t, p, "/play?data="+url.QueryEscape(tc.data)+"&methods=gip")
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", tc.data, res.StatusCode)
		}
		slider := regexp.MustCompile(`<input type="range" id="ctl-gip-inducing"[^>]*max="([^"]*)"`).FindStringSubmatch(body)
		box := regexp.MustCompile(`<input type="number" class="num" data-name="inducing"[^>]*max="([^"]*)"`).FindStringSubmatch(body)
		want := fmt.Sprint(tc.max)
		if slider == nil || box == nil || slider[1] != want || box[1] != want {
			t.Errorf("%s: slider %q, number box %q, want max %s", tc.data, slider, box, want)
		}
	}
	_, err = parsePlay(url.Values{"data": {"gap"}, "methods": {"gip"}, "gip.inducing": {"500"}}, p.methods)
	if fe, ok := err.(*sim.FieldError); !ok || fe.Field != "gip.inducing" || !strings.Contains(fe.Message, "100") {
		t.Errorf("gip.inducing=500 on gap: %v, want a FieldError naming gip.inducing and 100", err)
	}
}

// GET /api/methods?data=gap gives gip's inducing max as the data allow,
// without data the method's own; a bad data name or seed names its field.
func TestAPIMethodsFitTheData(t *testing.T) {
	e := newEnv(t, envOptions{api: APIConfig{Specs: catalog.Specs}})
	var plain, fitted, seeded []sim.MethodSpec
	if code, _ := e.do("GET", "/api/methods", "", "", &plain); code != http.StatusOK || inducingMax(plain) <= 100 {
		t.Fatalf("GET /api/methods: %d, inducing max %g", code, inducingMax(plain))
	}
	if code, _ := e.do("GET", "/api/methods?data=gap", "", "", &fitted); code != http.StatusOK || inducingMax(fitted) != 100 {
		t.Fatalf("GET /api/methods?data=gap: %d, inducing max %g, want 100", code, inducingMax(fitted))
	}
	if code, _ := e.do("GET", "/api/methods?data=gap&seed=3", "", "", &seeded); code != http.StatusOK || inducingMax(seeded) != 100 {
		t.Fatalf("GET /api/methods?data=gap&seed=3: %d, inducing max %g, want 100", code, inducingMax(seeded))
	}
	if len(fitted) != len(plain) {
		t.Errorf("%d fitted specs, %d plain", len(fitted), len(plain))
	}
	b, _ := json.Marshal(fitted)
	if !strings.Contains(string(b), `"bound":"the number of training points"`) {
		t.Error("the fitted inducing control does not say what bounds it")
	}
	e.wantError("GET", "/api/methods?data=nope", "", http.StatusBadRequest, "data")
	e.wantError("GET", "/api/methods?data=gap&seed=x", "", http.StatusBadRequest, "seed")
	e.wantError("GET", "/api/methods?seed=2", "", http.StatusBadRequest, "seed")
	e.wantError("GET", "/api/methods?dta=gap", "", http.StatusBadRequest, "dta")
	e.wantError("GET", "/api/methods?data=upload:abc", "", http.StatusBadRequest, "data")
}
