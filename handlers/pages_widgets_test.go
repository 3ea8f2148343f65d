package handlers

import (
	"io"
	"log/slog"
	"regexp"
	"testing"
)

// TestPlayWidgets checks the controls a play page renders: an on/off
// setting is a checkbox (checked when on) with no slider, a choice a
// select whose help shows no numeric range, and a number box at most three
// significant digits long.
func TestPlayWidgets(t *testing.T) {
	p := NewPages(slog.New(slog.NewTextHandler(io.Discard, nil)), nil) // the catalog's methods
	_, body := serve(t, p, "/play?data=linreg&methods=gp-exact&seed=1&gp-exact.learn_noise=1&gp-exact.noise=0.1353352")
	control := func(name string) string {
		m := regexp.MustCompile(`(?s)<div class="control[^"]*" data-name="` + name + `".*?<p class="error control-error"`).FindString(body)
		if m == "" {
			t.Fatalf("no control %s in the page", name)
		}
		return m
	}
	for name, on := range map[string]bool{"learn_noise": true, "learn_kernel": false} {
		c := control(name)
		box := regexp.MustCompile(`<input type="checkbox"[^>]*>`).FindString(c)
		if box == "" {
			t.Errorf("%s: no checkbox", name)
			continue
		}
		if got := regexp.MustCompile(`\bchecked\b`).MatchString(box); got != on {
			t.Errorf("%s: checked %v, want %v: %s", name, got, on, box)
		}
		if regexp.MustCompile(`type="range"`).MatchString(c) {
			t.Errorf("%s: an on/off setting has a slider", name)
		}
	}
	if k := control("kernel"); !regexp.MustCompile(`<select`).MatchString(k) || regexp.MustCompile(`class="range"`).MatchString(k) {
		t.Errorf("kernel: want a select without a range in its help:\n%s", k)
	}
	if v := regexp.MustCompile(`class="num"[^>]*value="([^"]*)"`).FindStringSubmatch(control("noise")); v == nil || v[1] != "0.135" {
		t.Errorf("noise box value %v, want 0.135", v)
	}
}
