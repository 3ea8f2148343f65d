package handlers

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
)

// pace= (a link made while the panels raced at equal budget) survives a
// round trip through either page's link: read into the config the page
// starts from, written back in the 1-D page's canonical link, read again
// the same; no pace= is none. A bad value is a field error naming pace
// and the allowed units.
func TestPaceLink(t *testing.T) {
	for _, unit := range []engine.Unit{"", engine.UnitEvals, engine.UnitCPU} {
		query := "methods=gip"
		if unit != "" {
			query += "&pace=" + string(unit)
		}
		q, _ := url.ParseQuery(query)
		c, err := parsePlay(q, fakeSource())
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		if c.Pace != unit {
			t.Errorf("%s: Pace = %q, want %q", query, c.Pace, unit)
		}
		if got := strings.Contains(c.URL(), "pace="); got != (unit != "") {
			t.Errorf("%s: canonical link %s", query, c.URL())
		}
		u, _ := url.Parse(c.URL())
		if c2, err := parsePlay(u.Query(), fakeSource()); err != nil || c2.Pace != unit {
			t.Errorf("%s: reparsing %s gave pace %q, %v", query, c.URL(), c2.Pace, err)
		}

		g, err := parseGallery(url.Values{"pace": {string(unit)}})
		if unit == "" {
			g, err = parseGallery(url.Values{})
		}
		if err != nil {
			t.Fatalf("gallery, pace %q: %v", unit, err)
		}
		b, _ := json.Marshal(g)
		if got := strings.Contains(string(b), `"pace":"`+string(unit)+`"`); got != (unit != "") {
			t.Errorf("gallery, pace %q: config %.200s…", unit, b)
		}
	}

	for _, bad := range []string{"fast", "", "off", "GRADS"} {
		q := url.Values{"methods": {"gip"}, "pace": {bad}}
		_, err := parsePlay(q, fakeSource())
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != "pace" || !strings.Contains(fe.Message, "grads") || !strings.Contains(fe.Message, "cpu") {
			t.Errorf("play, pace=%q: %v, want a field error naming pace and its units", bad, err)
		}
		_, err = parseGallery(url.Values{"pace": {bad}})
		if !errors.As(err, &fe) || fe.Field != "pace" {
			t.Errorf("gallery, pace=%q: %v, want a field error naming pace", bad, err)
		}
	}
	p := NewPages(quietLog, nil)
	for _, target := range []string{"/play?methods=gip&pace=fast", "/gallery?pace=fast"} {
		if res, body := serve(t, p, target); res.StatusCode != http.StatusBadRequest || !strings.Contains(body, "pace") {
			t.Errorf("%s: %d, want a 400 naming pace", target, res.StatusCode)
		}
	}
	if res, body := serve(t, p, "/play?methods=gip&pace=cpu"); res.StatusCode != http.StatusOK || !strings.Contains(body, `"pace":"cpu"`) {
		t.Errorf("/play?…&pace=cpu: %d, the page's config lacks the pace", res.StatusCode)
	}
}
