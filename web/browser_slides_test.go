package web_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/posterior-playground/playground/sim/scenario"
)

// TestBrowserSlideExports exports the headline scenario's GIP plot and the
// compare view's "Export all panels" as a lecturer would for slides, and
// reads what each PNG says (every text drawn on its canvas is recorded)
// and shows (its pixels): the scenario's title, the claim and its verdict,
// the legend with the inducing inputs, the inducing inputs drawn in their
// green, and the controls and data set under the labels the page gives them,
// no raw key.
func TestBrowserSlideExports(t *testing.T) {
	s, ok := scenario.BySlug("mfvi-vs-gip-gap")
	if !ok || s.Claim == nil {
		t.Fatal("no headline scenario with a claim")
	}
	b := startBrowserTest(t)
	b.do(chromedp.EmulateViewport(1280, 720))
	link := s.URL()
	for _, m := range s.Methods {
		link += fmt.Sprintf("&%s.replay=300", m)
	}
	b.do(chromedp.Navigate(b.url + link))
	b.wait(`window.playground && playground.panels.length === 2 && playground.panels.every(p => p.replayTo == null && p.band && p.status === "paused")
		&& playground.panels[1].predictive.inducing`, 2*time.Minute)
	b.do(chromedp.Evaluate[chromedp.Void](`window.__downloads = []; window.__texts = [];
		HTMLAnchorElement.prototype.click = function () { window.__downloads.push({name: this.download, href: this.href}); };
		const fill = CanvasRenderingContext2D.prototype.fillText;
		CanvasRenderingContext2D.prototype.fillText = function (t, ...rest) { window.__texts.push(String(t)); return fill.call(this, t, ...rest); };`))

	title := b.eval(`document.querySelector(".play-head h1").textContent`)
	dataLabel := b.eval(`playground.config.data_label`)
	check := func(name string, want []string) {
		t.Helper()
		texts := evalAs[[]string](b, `window.__texts.splice(0)`)
		all := strings.Join(texts, "\n")
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: the PNG's text lacks %q; it reads:\n%s", name, w, all)
			}
		}
		for _, raw := range []string{"prior_scale", "mc_samples", "data gap", "lr ="} {
			if strings.Contains(all, raw) {
				t.Errorf("%s: the PNG's text has the raw key %q", name, raw)
			}
		}
		if !strings.Contains(all, title) {
			t.Errorf("%s: the PNG lacks the scenario's title %q", name, title)
		}
	}
	save := func(i int, name string) int {
		t.Helper()
		href := b.waitString(fmt.Sprintf(`window.__downloads.length > %d && window.__downloads[%d].href`, i, i), 5*time.Second)
		raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(href, "data:image/png;base64,"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s does not decode: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(b.shots, name+".png"), raw, 0o644); err != nil {
			t.Error(err)
		}
		// The inducing inputs' green (#059669), as drawn, anti-aliased edges
		// aside: the legend's swatch and the markers on the x-axis.
		green := 0
		r := img.Bounds()
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				cr, cg, cb, _ := img.At(x, y).RGBA()
				if near(cr>>8, 5) && near(cg>>8, 150) && near(cb>>8, 105) {
					green++
				}
			}
		}
		return green
	}

	b.openExports("gip")
	b.do(chromedp.Click(chromedp.CSS(`#panel-gip [data-plot=predictive] button.png`)))
	inducing := b.evalInt(`playground.panels[1].views.get("inducing").x.filter(x => x >= playground.panels[1].predictive.u.scales.x.min && x <= playground.panels[1].predictive.u.scales.x.max).length`)
	greenOne := save(0, "slide-gip")
	check("GIP's PNG", []string{"Claim: " + s.Claim.Text[:30], "checked from step 2,500", "in-between ratio: GIP ", "inducing inputs", "Prior scale = 4", "data: " + dataLabel})
	// A marker is a triangle 10 CSS px wide and 9 tall, 45 CSS px², drawn
	// at 2 × devicePixelRatio device pixels per CSS px; the legend's swatch
	// is one, the markers (overlapping where the inputs crowd) at least
	// one more: two triangles' worth, with their anti-aliased edges left
	// out, at least half their area.
	dpr := evalAs[float64](b, `devicePixelRatio`)
	if floor := int(2 * 45 * 4 * dpr * dpr / 2); inducing > 0 && greenOne < floor {
		t.Errorf("GIP's PNG has %d pixels of the inducing inputs' green; with %d inputs in view want at least %d", greenOne, inducing, floor)
	}

	b.do(chromedp.Click(chromedp.CSS(`#compare button.png-all`)))
	greenAll := save(1, "slide-all-panels")
	check("all panels' PNG", []string{"Claim: ", "Mean-field VI", "Global inducing points", "inducing inputs"})
	if greenAll < greenOne/2 {
		t.Errorf("the all-panels PNG has %d pixels of the inducing inputs' green, GIP's own %d", greenAll, greenOne)
	}
	t.Logf("GIP's PNG: %d green pixels for %d inducing inputs in view; all panels: %d", greenOne, inducing, greenAll)
}

// near reports whether a colour channel is within 12 of want.
func near(v uint32, want int) bool {
	d := int(v) - want
	return d >= -12 && d <= 12
}
