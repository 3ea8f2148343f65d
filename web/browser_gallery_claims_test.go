package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/posterior-playground/playground/sim/scenario"
)

// claimChecks is claim.js's HOLD_CHECKS: the checks in a row, each at a
// new step, before the verdict says a claim held.
const claimChecks = 5

// TestBrowserGalleryClaims opens each gallery scenario by its link at a
// projector's 1280×720, steps its panels (Step commands, not time) to one
// step before the claim step, where the verdict must still be waiting,
// then one step at a time until the verdict has seen claimChecks new
// steps from the claim step: it must read held, and must never have read
// held while the panels were before the claim step. The claim and the
// planes its checks read are then in view without scrolling; at a
// phone's 390×844 the claim is on the first screen. Subtests are the
// scenarios' slugs; screenshots (viewport only) go to $SCREENSHOT_DIR.
func TestBrowserGalleryClaims(t *testing.T) {
	for _, s := range scenario.OnTargets() {
		t.Run(s.Slug, func(t *testing.T) {
			b := startBrowserTest(t)
			b.do(chromedp.EmulateViewport(1280, 720))
			b.galleryClaim(s)
		})
	}
}

// galleryClaim plays s's claim on the gallery page; see
// TestBrowserGalleryClaims.
func (b *browser) galleryClaim(s scenario.Scenario) {
	b.t.Helper()
	step := s.Claim.Step
	b.do(chromedp.Navigate(b.url + s.URL()))
	b.wait(fmt.Sprintf(`window.galleryPage?.panels.length === %d && galleryPage.panels.every(p => p.exact && p.frames > 0 && p.status.textContent.startsWith("paused"))`, len(s.Panels)), 60*time.Second)
	for i, p := range s.Panels {
		if got := b.eval(fmt.Sprintf(`galleryPage.panels[%d].name + " " + galleryPage.panels[%d].method.value`, i, i)); got != p.Name+" "+p.Method {
			b.t.Fatalf("panel %d is %q, want %s %s", i, got, p.Name, p.Method)
		}
		// Two panels of one method are told apart in their headings, and
		// each runs on its own target controls over the page's.
		if p.Name != p.Method {
			if got := b.eval(fmt.Sprintf(`galleryPage.panels[%d].el.querySelector("[data-role=panel-name]")?.textContent ?? ""`, i)); got != p.Name {
				b.t.Errorf("panel %d is headed %q, want %q", i, got, p.Name)
			}
		}
		for k, v := range p.TargetControls {
			if got := b.eval(fmt.Sprintf(`String(galleryPage.panels[%d].targetControls()[%q])`, i, k)); got != v {
				b.t.Errorf("panel %s runs on %s = %s, want %s", p.Name, k, got, v)
			}
		}
	}
	// Any moment the verdict reads held while a panel is before the claim
	// step is recorded: the verdict's attribute is watched, not sampled.
	b.eval(fmt.Sprintf(`(() => { const v = document.querySelector("#plane-gallery .claim-verdict"); window.heldEarly = [];
		new MutationObserver(() => { const at = Math.min(...galleryPage.panels.map(p => p.step));
			if (v.dataset.holds === "true" && at < %d) heldEarly.push(at); }).observe(v, {attributes: true, childList: true, characterData: true, subtree: true}); return 0; })()`, step))
	b.stepPanels(step - 1)
	if h := b.eval(`document.querySelector("#plane-gallery .claim-verdict").dataset.holds`); h != "waiting" {
		b.t.Errorf("at step %d, before the claim step %d, the verdict is %q: %q", step-1, step, h, b.eval(`document.querySelector("#plane-gallery .claim-verdict").textContent`))
	}
	held := false
	// A failing check restarts the count; a few more steps than k leave
	// room for one, and the claim held at the claim step on seeds 1–5
	// (sim/scenario's TestTargetScenarioClaims).
	for n := step; n < step+3*claimChecks && !held; n++ {
		b.stepPanels(n)
		// the verdict's tick (every 250 ms) has seen step n
		b.wait(fmt.Sprintf(`(() => { const v = document.querySelector("#plane-gallery .claim-verdict"), t = v.textContent;
			return v.dataset.holds === "true" || t.endsWith("step %[1]s") || t.endsWith("now %[1]s"); })()`, commas(n)), 10*time.Second)
		held = b.eval(`document.querySelector("#plane-gallery .claim-verdict").dataset.holds`) == "true"
	}
	status := b.eval(`document.querySelector("#plane-gallery [data-role=claim-status]").textContent`)
	b.t.Logf("%s: %s %s", s.Slug, b.eval(`document.querySelector("#plane-gallery .claim-verdict").textContent`), status)
	if !held {
		b.t.Errorf("the claim did not hold by step %d: %s", step+3*claimChecks, status)
	}
	if early := b.eval(`heldEarly.join(",")`); early != "" {
		b.t.Errorf("the verdict read held at steps %s, before the claim step %d", early, step)
	}
	b.viewShot("gallery-claim-" + s.Slug + "-1280x720")
	// The claim and every plane its checks read, whole in view at the top
	// of the page.
	b.eval(`scrollTo(0, 0), 0`)
	inView := `((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; })`
	if !b.settle(inView+`(document.querySelector("#plane-gallery .claim"))`, 5*time.Second) {
		b.t.Errorf("1280×720: the claim is not whole in view: %s", b.eval(`JSON.stringify(document.querySelector("#plane-gallery .claim").getBoundingClientRect())`))
	}
	for i := range s.Panels {
		if !b.settle(fmt.Sprintf(`%s(galleryPage.panels[%d].view.canvas)`, inView, i), 5*time.Second) {
			b.t.Errorf("1280×720: panel %s's plane is not whole in view: %s", s.Panels[i].Name, b.eval(fmt.Sprintf(`JSON.stringify(galleryPage.panels[%d].view.canvas.getBoundingClientRect())`, i)))
		}
	}
	b.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	b.eval(`scrollTo(0, 0), 0`)
	if !b.settle(inView+`(document.querySelector("#plane-gallery .claim"))`, 5*time.Second) {
		b.t.Errorf("390×844: the claim is not on the first screen: %s", b.eval(`JSON.stringify(document.querySelector("#plane-gallery .claim").getBoundingClientRect())`))
	}
	if w := b.evalInt(`document.documentElement.scrollWidth`); w > 390 {
		b.t.Errorf("390×844: the page is %d px wide: %s", w, b.eval(`[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > 390.5).slice(0, 8).map(e => e.tagName + "." + e.className + "[" + (e.dataset.role ?? "") + "]").join(" ")`))
	}
	b.viewShot("gallery-claim-" + s.Slug + "-390x844")
}

// stepPanels steps every panel to step n with Step commands and waits
// until each is paused there.
func (b *browser) stepPanels(n int64) {
	b.t.Helper()
	b.eval(fmt.Sprintf(`galleryPage.panels.forEach(p => p.step < %d && p.send({op: "step", n: %d - p.step})), 0`, n, n))
	b.wait(fmt.Sprintf(`galleryPage.panels.every(p => p.step === %d && p.status.textContent.startsWith("paused"))`, n), 180*time.Second)
}

// commas writes n as the page does, thousands grouped.
func commas(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
