package web_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserCompare plays the headline scenario and checks the compare
// view against the panels it draws from: the overlay holds one band per
// panel equal, point for point, to that panel's latest band; its legend
// names both methods; the in-between chart has each method's ratios, the
// newest being the one the panel shows; and every predictive plot has a
// legend listing what it draws. Screenshots at 1280×720 and 390 px wide go
// to $SCREENSHOT_DIR.
func TestBrowserCompare(t *testing.T) {
	b := startBrowserTest(t)
	b.openScenario("mfvi-vs-gip-gap", "gip", 2, "")
	if v := b.eval(`document.querySelector("#compare").hidden`); v != "false" {
		t.Fatal("the compare view is hidden on a page with two panels")
	}

	b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	b.wait(`playground.panels.every(p => p.step >= 300 && p.band) && playground.compare.inspect().ratio.every(r => r.values.length >= 5)`, 60*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all="pause"]`)))
	b.wait(`playground.panels.every(p => p.status === "paused")`, 10*time.Second)

	// One synchronous look at the overlay and the panels, taken once the
	// overlay shows every panel's latest band (it redraws at most every
	// 66 ms, and a paused run may still send a frame).
	type bandCheck struct {
		Method, Label       string
		Points, Mismatched  int
		SeriesLabels        []string
		LastRatio, PanelNow float64
		RatioPoints         int
		RatioPositive       bool
	}
	var got struct {
		Checks []bandCheck
		Series int
		Fills  int
		Legend []string
	}
	raw := b.waitString(`(() => {
		const c = playground.compare.inspect();
		if (!c.current.every(Boolean)) return false;
		const checks = playground.panels.map((p, i) => {
			const d = c.bands[i];
			let bad = 0;
			p.band.x.forEach((x, k) => {
				const j = d.x.indexOf(x);
				if (j < 0 || d.lo[j] !== p.band.lo[k] || d.hi[j] !== p.band.hi[k] || d.mean[j] !== p.band.mean[k]) bad++;
			});
			const r = c.ratio.find((r) => r.method === p.method);
			return {Method: p.method, Label: p.spec.label, Points: p.band.x.length, Mismatched: bad, SeriesLabels: c.bandSeries[i],
				LastRatio: r.values.at(-1), PanelNow: p.diagnostics.inbetween_ratio, RatioPoints: r.values.length,
				RatioPositive: r.values.every((v) => Number.isFinite(v) && v > 0)};
		});
		return JSON.stringify({Checks: checks, Series: c.bandSeries.length, Fills: playground.compare.overlay.bands.length, Legend: c.legend});
	})()`, 5*time.Second)
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	if got.Series != 2 || got.Fills != 2 || len(got.Checks) != 2 {
		t.Errorf("the overlay has %d band series and %d fills for %d panels, want 2 each", got.Series, got.Fills, len(got.Checks))
	}
	for _, c := range got.Checks {
		if c.Points < 20 || c.Mismatched != 0 {
			t.Errorf("%s: %d of the band's %d points differ from the overlay's", c.Method, c.Mismatched, c.Points)
		}
		for _, l := range c.SeriesLabels {
			if !strings.HasPrefix(l, c.Label) {
				t.Errorf("%s: overlay series %q is not named after %q", c.Method, l, c.Label)
			}
		}
		if !slices.Contains(got.Legend, c.Label) {
			t.Errorf("the compare legends %q do not name %q", got.Legend, c.Label)
		}
		if c.RatioPoints < 5 || !c.RatioPositive {
			t.Errorf("%s: the in-between chart has %d points (all finite and > 0: %v)", c.Method, c.RatioPoints, c.RatioPositive)
		}
		if c.LastRatio != c.PanelNow {
			t.Errorf("%s: the in-between chart ends at %g, the panel shows %g", c.Method, c.LastRatio, c.PanelNow)
		}
	}
	t.Logf("in-between ratios now: %s", b.eval(`playground.panels.map(p => p.method + " " + p.diagnostics.inbetween_ratio.toFixed(2) + " at step " + p.step).join("; ")`))
	for _, sel := range []string{"#compare [data-plot=compare] canvas", "#compare [data-plot=inbetween] canvas"} {
		if n := b.ink(sel); n < 500 {
			t.Errorf("%s has %d coloured pixels; the plot looks blank", sel, n)
		}
	}

	// Each predictive plot's legend lists what it draws (the band of y's
	// toggle aside, tested in browser_yband_test.go); a snapshot adds its
	// entry to that panel's legend only.
	keys := func(method string) string {
		return b.eval(`[...document.querySelectorAll("#panel-` + method + ` [data-plot=predictive] .plot-legend li:not(.yband-toggle)")].map(li => li.dataset.key).join(",")`)
	}
	for m, want := range map[string]string{"mfvi": "data,truth,mean,band,samples", "gip": "data,truth,mean,band,samples,inducing"} {
		if k := keys(m); k != want {
			t.Errorf("%s's predictive legend lists %q, want %s", m, k, want)
		}
	}
	b.do(chromedp.Click(chromedp.CSS(`#panel-mfvi [data-op=snapshot]`)))
	if k := keys("mfvi"); k != "data,truth,mean,band,samples,snapshot" {
		t.Errorf("after a snapshot mean-field's legend lists %q", k)
	}
	if k := keys("gip"); strings.Contains(k, "snapshot") {
		t.Errorf("GIP's legend lists a snapshot it does not draw: %q", k)
	}

	// Look at it on a projector and on a phone; nothing of the view may
	// stick out sideways on the phone.
	for _, size := range []struct {
		name string
		w, h int64
	}{{"1280", 1280, 720}, {"390", 390, 844}} {
		b.do(chromedp.EmulateViewport(size.w, size.h))
		b.do(chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
		b.viewShot("compare-top-" + size.name)
		b.settle(`playground.compare.overlay.width <= document.querySelector("#compare").clientWidth`, 2*time.Second)
		b.do(chromedp.Evaluate[chromedp.Void](`document.querySelector("#compare").scrollIntoView()`))
		b.viewShot("compare-view-" + size.name)
		b.elementShot("compare-"+size.name, "#compare")
		b.elementShot("compare-predictive-mfvi-"+size.name, "#panel-mfvi [data-plot=predictive]")
		over := b.eval(`[...document.querySelectorAll("#compare, #compare .plot-legend, .panel [data-plot=predictive] .plot-legend")].filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth + 1).map(e => e.id || e.closest("[data-plot]").dataset.plot).join(", ")`)
		if over != "" {
			t.Errorf("at %d px wide these overflow: %s", size.w, over)
		}
	}

	// One panel on data with a gap: the in-between chart alone. Three
	// panels on data without one: the overlay alone, a band per panel.
	b.do(chromedp.EmulateViewport(1280, 720))
	b.openScenario("in-between", "gip", 1, "")
	if v := b.eval(`[!document.querySelector("#compare").hidden, !!document.querySelector("#compare [data-plot=compare]"), !document.querySelector("#compare [data-plot=inbetween]")?.hidden].join()`); v != "true,false,true" {
		t.Errorf("one panel on the gap: compare view shown, overlay, in-between chart shown = %s, want true,false,true", v)
	}
	b.openScenario("vi-vs-mcmc", "hmc", 3, "")
	b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	b.wait(`playground.panels.every(p => p.step >= 100 && p.band) && playground.compare.inspect().current.every(Boolean)`, 60*time.Second)
	if v := b.eval(`[playground.compare.overlay.bands.length, playground.compare.inspect().bands.filter(d => d.mean.some(v => v != null)).length, !!document.querySelector("#compare [data-plot=inbetween]")].join()`); v != "3,3,false" {
		t.Errorf("three panels without a gap: fills, drawn bands, in-between chart = %s, want 3,3,false", v)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.querySelector("#compare").scrollIntoView()`))
	b.viewShot("compare-vi-vs-mcmc-1280")
}
