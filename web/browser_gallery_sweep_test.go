package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// canvasInkJS counts the non-white pixels of the canvas under a selector.
const canvasInkJS = `((sel) => {
	const c = document.querySelector(sel);
	if (!c) return 0;
	const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
	let n = 0;
	for (let k = 0; k < d.length; k += 4) if (d[k + 3] > 0 && (d[k] < 250 || d[k + 1] < 250 || d[k + 2] < 250)) n++;
	return n;
})(%q)`

// submitSweepJS presses Run sweep: as a click would, but where the card
// is while the Sweep button's smooth scroll moves it (a click at the
// button's place in the middle of the scroll lands elsewhere).
const submitSweepJS = `gallerySweep.role("sweep-run").click()`

// TestBrowserGallerySweep opens the gallery on the correlated Gaussian with
// mean-field and full-rank, opens the sweep from the target's Sweep ρ
// button, runs a small sweep of ρ and checks, at a projector's and a
// phone's viewport, that the progress fills, that the plot holds every
// method's point at every value with mean-field's closed form beside
// them, and that the plot is drawn; then that a sweep past the bound is
// refused naming the field. Screenshots go to $SCREENSHOT_DIR.
func TestBrowserGallerySweep(t *testing.T) {
	b := startBrowserTest(t)
	for _, s := range planeSizes {
		if s.w < 500 {
			b.do(chromedp.EmulateViewport(int64(s.w), int64(s.h), chromedp.EmulateScale(s.dpr), chromedp.EmulateMobile))
		} else {
			b.do(chromedp.EmulateViewport(int64(s.w), int64(s.h), chromedp.EmulateScale(s.dpr)))
		}
		b.do(chromedp.Navigate(b.url + "/gallery?target=gaussian&methods=mfvi,fullrank"))
		b.wait(`window.gallerySweep && galleryPage.panels.length === 2 && galleryPage.panels.every(p => p.exact && p.frames > 0)`, 30*time.Second)
		if got := b.eval(`document.querySelector("[data-role=sweep-open]").textContent`); got != "Sweep ρ" {
			t.Errorf("%s: the target's sweep button reads %q, want %q", s.name, got, "Sweep ρ")
		}
		b.do(chromedp.Click(chromedp.CSS(`[data-role=sweep-open]`)))
		b.wait(`!document.getElementById("gallery-sweep").hidden`, 10*time.Second)
		if got := b.eval(`gallerySweep.param.value + " " + gallerySweep.input("values").value + " " + document.querySelectorAll("#gallery-sweep [data-role=sweep-methods] input:checked").length`); got != "rho linspace:0:0.99:12 2" {
			t.Errorf("%s: the sweep opened with %q, want ρ over linspace:0:0.99:12 and both panels' methods", s.name, got)
		}
		// A small sweep: three values, 4,000 evaluations per run.
		b.do(chromedp.Evaluate[chromedp.Void](`(() => {
			gallerySweep.input("values").value = "0,0.6,0.9";
			gallerySweep.input("budget").value = "4000";
		})()`))
		b.do(chromedp.Evaluate[chromedp.Void](submitSweepJS))
		b.wait(`gallerySweep.status === "done" && gallerySweep.points.length === 3`, 60*time.Second)
		if v := b.eval(`(() => { const p = gallerySweep.role("sweep-progress"); return p.value === p.max && p.max === 6; })()`); v != "true" {
			t.Errorf("%s: the progress bar is not full: %s", s.name, b.eval(`gallerySweep.role("sweep-count").textContent`))
		}
		// The plot's data: x, mean-field, full-rank, the closed form, 1.
		// Each method has a point at each of the three values.
		cols := b.evalInt(`gallerySweep.plot.u.data.length`)
		pts := b.eval(`[1, 2].map(i => gallerySweep.plot.u.data[i].filter(v => v !== null).length).join(",")`)
		if cols != 5 || pts != "3,3" {
			t.Errorf("%s: the plot has %d columns and %s points per method, want 5 columns and 3,3", s.name, cols, pts)
		}
		// Mean-field's points sit near its closed form, full-rank's near 1
		// (the numbers are tested in sim/sweeps; here: drawn where they are).
		if v := b.eval(`(() => {
			const ps = gallerySweep.points, ok = [];
			for (const p of ps) ok.push(Math.abs(p.methods[0].params[0].sd_ratio - Math.sqrt(1 - p.value * p.value)) < 0.1, Math.abs(p.methods[1].params[0].sd_ratio - 1) < 0.1);
			return ok.every(Boolean);
		})()`); v != "true" {
			t.Errorf("%s: the points are not near their optima: %s", s.name, b.eval(`JSON.stringify(gallerySweep.points.map(p => [p.value, p.methods.map(m => m.params[0].sd_ratio)]))`))
		}
		area := b.evalInt(`(() => { const c = document.querySelector("#gallery-sweep .plot-host canvas"); return c ? c.width * c.height : 0; })()`)
		if ink := b.evalInt(fmt.Sprintf(canvasInkJS, "#gallery-sweep .plot-host canvas")); area == 0 || ink < area/100 {
			t.Errorf("%s: the sweep plot has %d of %d pixels inked; it looks blank", s.name, ink, area)
		}
		if w, vw := b.evalInt(`document.querySelector("#gallery-sweep").scrollWidth`), b.evalInt(`document.documentElement.clientWidth`); w > vw {
			t.Errorf("%s: the sweep card is %d px wide in a %d px page", s.name, w, vw)
		}
		if n := b.evalInt(`document.querySelectorAll("#gallery-sweep figcaption button.png").length`); n != 1 {
			t.Errorf("%s: the sweep plot has %d PNG buttons, want 1", s.name, n)
		}
		b.shot("gallery-sweep-" + s.name)
		b.elementShot("gallery-sweep-card-"+s.name, "#gallery-sweep")
	}
	// The mixture's separation under reverse and forward KL: the sweep's
	// methods carry their panels' divergences, and the mean plots against
	// the exact mean (looked at in the screenshot: reverse KL's mean leaves
	// the exact one for the heavier mode as the modes part).
	b.do(chromedp.Navigate(b.url + "/gallery?target=mixture&weight=0.3&methods=mfvi,mfvi&p2.divergence=forward_kl"))
	b.wait(`window.gallerySweep && galleryPage.panels.length === 2 && galleryPage.panels.every(p => p.exact && p.frames > 0)`, 30*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-role=sweep-open]`)))
	b.wait(`!document.getElementById("gallery-sweep").hidden`, 10*time.Second)
	if got := b.eval(`document.querySelector("[data-role=sweep-open]").textContent + " " + gallerySweep.param.value + " " + [...document.querySelectorAll("#gallery-sweep [data-role=sweep-methods] label")].map(l => l.textContent.trim()).join("; ")`); got != "Sweep d separation Mean-field Gaussian; Mean-field Gaussian (forward kl)" {
		t.Errorf("the mixture's sweep opened with %q", got)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`(() => {
		gallerySweep.input("values").value = "1,3,5,7";
		gallerySweep.input("budget").value = "20000";
		gallerySweep.measure.value = "mean:0";
	})()`))
	b.do(chromedp.Evaluate[chromedp.Void](submitSweepJS))
	b.wait(`gallerySweep.status === "done" && gallerySweep.points.length === 4`, 60*time.Second)
	if got := b.eval(`JSON.stringify(gallerySweep.request.methods)`); got != `[{"method":"mfvi","controls":{"divergence":"reverse_kl","alpha":0.5,"samples":0,"lr":0}},{"method":"mfvi","controls":{"divergence":"forward_kl","alpha":0.5,"samples":0,"lr":0}}]` {
		t.Errorf("the mixture sweep's methods: %s", got)
	}
	if pts := b.eval(`[1, 2, 3].map(i => gallerySweep.plot.u.data[i].filter(v => v !== null).length).join(",")`); pts != "4,4,4" {
		t.Errorf("the mean plot has %s points per series, want 4 for each method and the exact mean", pts)
	}
	b.elementShot("gallery-sweep-card-mixture", "#gallery-sweep")

	// Too many points: a 400 naming values, shown by the form.
	b.do(chromedp.Evaluate[chromedp.Void](`gallerySweep.input("values").value = "linspace:1:9:40"`))
	b.do(chromedp.Evaluate[chromedp.Void](submitSweepJS))
	b.wait(`!gallerySweep.role("sweep-error").hidden`, 10*time.Second)
	if got := b.eval(`gallerySweep.role("sweep-error").textContent + " " + gallerySweep.input("values").getAttribute("aria-invalid")`); !strings.Contains(got, "values:") || !strings.Contains(got, "at most 50") || !strings.HasSuffix(got, " true") {
		t.Errorf("a sweep of 80 runs: the form says %q", got)
	}
}
