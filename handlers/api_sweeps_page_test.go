package handlers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim/scenario"
)

// TestSweepScenariosShowTheCard: the Prior scale and Inducing points pages
// carry the sweep card with the GIP issue's values; other pages do not.
func TestSweepScenariosShowTheCard(t *testing.T) {
	p := NewPages(quietLog, nil)
	for slug, want := range map[string][]string{
		"prior-scale":     {`data-param="prior_scale"`, `data-log-x`, `value="logspace:0.316:3.16:11"`, `name="steps" class="small" min="1" max="20000" step="1" value="2000"`},
		"inducing-points": {`data-param="inducing"`, `value="1,2,5,10,20,30,40,50,60,70,80,90,100"`, `/static/app/sweep.js`},
	} {
		s, ok := scenario.BySlug(slug)
		if !ok || s.Sweep == nil {
			t.Fatalf("scenario %s has no sweep", slug)
		}
		res, body := serve(t, p, s.URL())
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", slug, res.StatusCode)
		}
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the page lacks %s:\n%s", slug, w, excerpt(body, `id="sweep"`))
			}
		}
		if slug == "inducing-points" && strings.Contains(body, "data-log-x") {
			t.Errorf("inducing points are plotted on a log axis")
		}
	}
	s, _ := scenario.BySlug("mfvi-vs-gip-gap")
	if _, body := serve(t, p, s.URL()); strings.Contains(body, `id="sweep"`) {
		t.Error("a scenario without a sweep shows the sweep card")
	}
	// A scenario link whose methods no longer include gip has no card.
	if _, body := serve(t, p, "/play?scenario=prior-scale&data=gap&methods=mfvi"); strings.Contains(body, `id="sweep"`) {
		t.Error("the sweep card shows without a gip panel")
	}
}
