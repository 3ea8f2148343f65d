package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// inkJS counts the non-white pixels of the canvas of the gallery's panel
// i.
const inkJS = `((i) => {
	const c = galleryPage.panels[i].view.canvas;
	const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
	let n = 0;
	for (let k = 0; k < d.length; k += 4) if (d[k] < 250 || d[k + 1] < 250 || d[k + 2] < 250) n++;
	return n;
})(%d)`

// TestBrowserGallery opens the gallery from the home page's link with the
// funnel, NUTS beside mean-field VI, plays, and checks at a projector's
// and a phone's viewport that each panel's canvas is inked (the exact
// density at least), that NUTS's trees were received and drawn, that
// each panel's history against the truth has points and that the fit
// reports its measures; it saves screenshots to look at.
func TestBrowserGallery(t *testing.T) {
	b := startBrowserTest(t)
	for _, s := range planeSizes {
		if s.w < 500 {
			b.do(chromedp.EmulateViewport(int64(s.w), int64(s.h), chromedp.EmulateScale(s.dpr), chromedp.EmulateMobile))
		} else {
			b.do(chromedp.EmulateViewport(int64(s.w), int64(s.h), chromedp.EmulateScale(s.dpr)))
		}
		b.do(chromedp.Navigate(b.url + "/"))
		b.do(chromedp.WaitVisible(chromedp.CSS(`a[href="/gallery"]`)))
		b.do(chromedp.Click(chromedp.CSS(`a[href="/gallery"]`)))
		b.do(chromedp.WaitVisible(chromedp.CSS(`.plane-panel canvas`)))
		b.wait(`window.galleryPage?.panels.length === 2 && galleryPage.panels.every(p => p.exact && p.frames > 0)`, 30*time.Second)
		if got := b.eval(`galleryPage.target.value + " " + galleryPage.panels.map(p => p.method.value).join(",")`); got != "funnel nuts,mfvi" {
			t.Fatalf("%s: the gallery opened %q, want the funnel with nuts and mfvi", s.name, got)
		}
		if u := b.eval(`location.pathname + location.search`); u != "/gallery?target=funnel&methods=nuts,mfvi" {
			t.Errorf("%s: the page's link is %q, want it to hold the target and methods", s.name, u)
		}
		b.do(chromedp.Click(chromedp.CSS(`[data-role=play]`)))
		// NUTS's warm-up discards its first 1,000 transitions' draws, but
		// every transition's tree is sent.
		b.wait(`galleryPage.panels[0].trees > 3 && galleryPage.panels[0].draws.count > 0 && galleryPage.panels[1].q && galleryPage.panels.every(p => p.historyPoints > 1)`, 60*time.Second)
		b.do(chromedp.Click(chromedp.CSS(`[data-role=pause]`)))
		b.wait(`galleryPage.panels.every(p => p.status.textContent.startsWith("paused"))`, 10*time.Second)
		for i := range 2 {
			// A blank plot has no ink (its white ground and the axes
			// are a few percent); the funnel's shaded 99% region, its
			// marginals and the axes cover about a tenth of the canvas.
			area := b.evalInt(fmt.Sprintf(`galleryPage.panels[%d].view.canvas.width * galleryPage.panels[%d].view.canvas.height`, i, i))
			if ink := b.evalInt(fmt.Sprintf(inkJS, i)); area == 0 || ink < area/20 {
				t.Errorf("%s panel %d: %d of %d pixels inked; the plane looks blank", s.name, i, ink, area)
			}
		}
		if key := b.eval(`galleryPage.panels[0].key.textContent`); !strings.Contains(key, "nuts: its tree of") {
			t.Errorf("%s: NUTS's key %q does not describe a tree", s.name, key)
		}
		if m := b.eval(`galleryPage.panels[1].measure.textContent`); !strings.Contains(m, "ELBO") {
			t.Errorf("%s: mean-field's measures %q do not give the ELBO", s.name, m)
		}
		if w := b.evalInt(`document.documentElement.scrollWidth`); w > s.w {
			t.Errorf("%s: the page is %d px wide: it overflows the viewport", s.name, w)
		}
		b.shot("gallery-" + s.name)
	}
	// Slow motion and Step: one more transition each, NUTS's tree
	// revealed point by point (a reveal in progress).
	b.do(chromedp.Click(chromedp.CSS(`[data-role=slow]`)))
	before := b.evalInt(`galleryPage.panels[0].trees`)
	b.do(chromedp.Click(chromedp.CSS(`[data-role=step]`)))
	b.wait(fmt.Sprintf(`galleryPage.panels[0].trees > %d && galleryPage.panels[0].view.revealed < Infinity`, before), 10*time.Second)
	b.shot("gallery-step-slow")
	// A density typed in Stan's notation: a mistake is named with its
	// line and column, and the text, mended, is the panels' target.
	b.do(chromedp.SetValue(chromedp.CSS(`[data-role=target]`), "typed"))
	b.do(chromedp.Evaluate[chromedp.Void](`galleryPage.target.dispatchEvent(new Event("change"))`))
	b.do(chromedp.SetValue(chromedp.CSS(`[data-role=typed]`), "a ~ normal(0, 1);\nb ~ wibble(3);"))
	b.do(chromedp.Click(chromedp.CSS(`[data-role=typed-run]`)))
	b.wait(`galleryPage.error.textContent.startsWith("target: 2:5:")`, 10*time.Second)
	b.do(chromedp.SetValue(chromedp.CSS(`[data-role=typed]`), "a ~ normal(0, 1);\nb ~ normal(a * a, 0.5);"))
	b.do(chromedp.Click(chromedp.CSS(`[data-role=typed-run]`)))
	b.wait(`galleryPage.panels.every(p => p.exact?.params.join(",") === "a,b" && p.frames > 0)`, 30*time.Second)
	if w := b.evalInt(`document.documentElement.scrollWidth`); w > planeSizes[len(planeSizes)-1].w {
		t.Errorf("the typed density's form makes the page %d px wide: it overflows the phone's viewport", w)
	}
	b.shot("gallery-typed")
}
