package handlers

import (
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
		"/gallery?target=wobble":                    "target",
		"/gallery?methods=nuts,gibbs":               "methods",
		"/gallery?methods=nuts,nuts,nuts,nuts,nuts": "methods",
	} {
		res, body := serve(t, p, url)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, field) {
			t.Errorf("%s: %d, want a 400 naming %s", url, res.StatusCode, field)
		}
	}
}
