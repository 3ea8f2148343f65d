package web_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/posterior-playground/playground/sim/scenario"
)

// box is an element's place in the viewport (getBoundingClientRect).
type box struct {
	What   string  `json:"what"`
	Panel  string  `json:"panel"`
	Top    float64 `json:"top"`
	Bottom float64 `json:"bottom"`
	Left   float64 `json:"left"`
	Right  float64 `json:"right"`
}

// screen is what layoutJS reports: the viewport, how far the page is
// scrolled, and each panel's predictive canvas and controls in focus.
type screen struct {
	W, H      float64
	ScrollX   float64 `json:"scrollX"`
	ScrollY   float64 `json:"scrollY"`
	Plots     []box   `json:"plots"`
	Focus     []box   `json:"focus"`
	WantFocus int     `json:"wantFocus"` // focus controls the page's config asks for (not hidden)
	Panels    []box   `json:"panels"`
}

// layoutJS measures the page for screen. The controls in focus it expects
// come from the config the server sent (config.focus over each panel's
// spec), not from the markup it checks.
const layoutJS = `(() => {
	const r = (e, what, panel) => { const b = e.getBoundingClientRect(); return {what, panel, top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
	const cfg = playground.config;
	const out = {W: document.documentElement.clientWidth, H: document.documentElement.clientHeight, scrollX, scrollY, plots: [], focus: [], panels: [], wantFocus: 0};
	for (const pc of cfg.panels) {
		for (const c of pc.spec.controls) {
			const listed = (l) => l.includes(c.name) || l.includes(pc.method + "." + c.name);
			if (listed(cfg.focus) && !listed(cfg.hide)) out.wantFocus++;
		}
	}
	for (const p of document.querySelectorAll("section.panels > .panel")) {
		out.panels.push(r(p, p.id, p.id));
		const c = p.querySelector('[data-plot="predictive"] canvas');
		if (c) out.plots.push(r(c, p.id + " predictive plot", p.id));
		for (const f of p.querySelectorAll(".control.focus")) if (!f.hidden) out.focus.push(r(f, p.id + " control " + f.dataset.name, p.id));
	}
	return out;
})()`

// TestBrowserLayoutOneScreen opens every scenario at 1280×720 and checks
// that each panel's predictive plot, axes included, and each control the
// scenario puts in focus are inside the viewport without scrolling, each
// control right under its panel's plot; then at 390×844 (a phone) that the
// panels stack, nothing overflows sideways even with every fold open, and no
// text outside the scenario's own description says "left" or "right".
// Screenshots of each go to $SCREENSHOT_DIR.
func TestBrowserLayoutOneScreen(t *testing.T) {
	b := startBrowserTest(t)
	for _, s := range scenario.All() {
		b.do(chromedp.EmulateViewport(1280, 720))
		b.open(s.URL(), len(s.Methods))
		b.viewShot("layout-1280-" + s.Slug)
		sc := b.screen()
		if sc.W != 1280 || sc.H != 720 {
			t.Fatalf("%s: the viewport is %v×%v, want 1280×720", s.Slug, sc.W, sc.H)
		}
		if sc.ScrollX != 0 || sc.ScrollY != 0 {
			t.Errorf("%s: the page opened scrolled to (%v, %v)", s.Slug, sc.ScrollX, sc.ScrollY)
		}
		if len(sc.Plots) != len(s.Methods) {
			t.Errorf("%s: %d predictive plots for %d panels", s.Slug, len(sc.Plots), len(s.Methods))
		}
		if len(s.Focus) > 0 && sc.WantFocus == 0 {
			t.Errorf("%s: the page's config puts none of %v in focus", s.Slug, s.Focus)
		}
		if len(sc.Focus) != sc.WantFocus {
			t.Errorf("%s: %d controls in focus on the page, the config asks for %d", s.Slug, len(sc.Focus), sc.WantFocus)
		}
		for _, x := range append(append([]box(nil), sc.Plots...), sc.Focus...) {
			if x.Top < 0 || x.Left < 0 || x.Bottom > sc.H || x.Right > sc.W || x.Bottom-x.Top < 1 {
				t.Errorf("%s: %s is at [%.0f, %.0f]×[%.0f, %.0f], not inside the %v×%v viewport", s.Slug, x.What, x.Left, x.Right, x.Top, x.Bottom, sc.W, sc.H)
			}
		}
		// The plots are plots, not slivers that fit by giving up; above a
		// joint plane that proves the claim (VI vs MCMC), where the bands
		// are alike in every panel, 110 px (layout.js).
		least := 170.0
		if b.eval(`document.querySelector("[data-role=joint-canvas]") !== null`) == "true" {
			least = 110
		}
		for _, p := range sc.Plots {
			if h := p.Bottom - p.Top; h < least {
				t.Errorf("%s: %s is %.0f px high, want at least %.0f", s.Slug, p.What, h, least)
			}
		}
		// Each control in focus sits in its panel's column, under its plot,
		// the first within 90 px of the plot's bottom (its buttons between).
		first := map[string]bool{}
		for _, f := range sc.Focus {
			plot, panel := find(sc.Plots, f.Panel), find(sc.Panels, f.Panel)
			if f.Left < panel.Left || f.Right > panel.Right || f.Top < plot.Bottom {
				t.Errorf("%s: %s ([%.0f, %.0f]×[%.0f, %.0f]) is not under its plot ([%.0f, %.0f]×[%.0f, %.0f])", s.Slug, f.What,
					f.Left, f.Right, f.Top, f.Bottom, plot.Left, plot.Right, plot.Top, plot.Bottom)
			}
			if !first[f.Panel] {
				first[f.Panel] = true
				if gap := f.Top - plot.Bottom; gap > 90 {
					t.Errorf("%s: %s starts %.0f px under its plot, want at most 90", s.Slug, f.What, gap)
				}
			}
		}

		// The toolbar's words as read: templ once trimmed the space before
		// "all", and the buttons read "Playall".
		if got := b.eval(toolbarWordsJS); got != "▶ Play all|❚❚ Pause all|Step all|↺ Reset all" {
			t.Errorf("%s at 1280 px: the toolbar's buttons read %q", s.Slug, got)
		}

		t.Logf("%s at 1280×720: plots %.0f px high, page %d px tall with the folds closed", s.Slug,
			sc.Plots[0].Bottom-sc.Plots[0].Top, b.evalInt(`document.documentElement.scrollHeight`))

		// A phone.
		b.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
		b.open(s.URL(), len(s.Methods))
		b.viewShot("layout-390-" + s.Slug)
		sc = b.screen()
		// Stacked, the panel that proves the claim first (app.css): in the
		// order they stand, none overlaps the one above.
		stack := append([]box(nil), sc.Panels...)
		sort.Slice(stack, func(i, j int) bool { return stack[i].Top < stack[j].Top })
		for i := 1; i < len(stack); i++ {
			if stack[i].Top < stack[i-1].Bottom {
				t.Errorf("%s at 390 px: %s is not stacked under %s", s.Slug, stack[i].What, stack[i-1].What)
			}
		}
		if w := b.evalInt(`document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("%s at 390 px: the page is %d px wide (overflows sideways): %s", s.Slug, w, b.eval(overflowJS))
		}
		if got := b.eval(toolbarWordsJS); got != "▶ Play|❚❚ Pause|Step|↺ Reset" {
			t.Errorf("%s at 390 px: the toolbar's buttons read %q (a phone drops \"all\")", s.Slug, got)
		}
		// Every fold open (the toolbar's menu too), the plots in them resized.
		b.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("details").forEach(d => d.open = true)`))
		b.settled()
		if w := b.evalInt(`document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("%s at 390 px, folds open: the page is %d px wide (overflows sideways): %s", s.Slug, w, b.eval(overflowJS))
		}
		b.shot("layout-390-open-" + s.Slug)
		if words := b.eval(sideWordsJS); words != "" {
			t.Errorf("%s: text on the page says left or right: %s", s.Slug, words)
		}
		if words := b.eval(scenarioSideWordsJS); words != "" {
			t.Logf("%s: the scenario's own text (sim/scenario/gallery.go) says left or right: %s", s.Slug, words)
		}
		// Opening the folds was remembered (layout.js): forget it, so the
		// next page opens as a newcomer's would.
		b.do(chromedp.Evaluate[chromedp.Void](`localStorage.clear()`))
	}
}

// toolbarWordsJS reads the run-all buttons' text as shown (innerText skips
// what CSS hides), joined by "|".
const toolbarWordsJS = `[...document.querySelectorAll("button[data-all]")].map(b => b.innerText.trim()).join("|")`

// TestBrowserLayoutPresent checks presentation mode: present=1 hides the
// prose and the site's header and draws a larger plot than the same link
// without it; the key P turns it on and off and the link (the address and
// the link to the state) follows.
func TestBrowserLayoutPresent(t *testing.T) {
	b := startBrowserTest(t)
	s, _ := scenario.BySlug("mfvi-vs-gip-gap")
	b.do(chromedp.EmulateViewport(1280, 720))

	b.open(s.URL(), 2)
	normal := b.screen()
	b.open(s.URL()+"&present=1", 2)
	b.viewShot("layout-present-" + s.Slug)
	present := b.screen()
	for _, sel := range []string{".play-head .description", "header.site", "footer.site", "#panel-mfvi details.explain", "#copy-link"} {
		if v := b.eval(fmt.Sprintf(`document.querySelector(%q).getClientRects().length`, sel)); v != "0" {
			t.Errorf("presentation mode shows %s", sel)
		}
	}
	for i := range present.Plots {
		p, n := present.Plots[i], normal.Plots[i]
		if p.Bottom-p.Top <= n.Bottom-n.Top || (p.Right-p.Left)*(p.Bottom-p.Top) <= (n.Right-n.Left)*(n.Bottom-n.Top) {
			t.Errorf("%s is %.0f×%.0f px in presentation mode, %.0f×%.0f px without: not larger", p.What,
				p.Right-p.Left, p.Bottom-p.Top, n.Right-n.Left, n.Bottom-n.Top)
		}
		if p.Top < 0 || p.Bottom > present.H {
			t.Errorf("presentation mode: %s is at [%.0f, %.0f], outside the viewport's height %v", p.What, p.Top, p.Bottom, present.H)
		}
	}
	t.Logf("predictive plot %.0f px high in presentation mode, %.0f px without", present.Plots[0].Bottom-present.Plots[0].Top, normal.Plots[0].Bottom-normal.Plots[0].Top)

	// The key, from the plain link: on, the link says so; off, it does not.
	b.open(s.URL(), 2)
	b.do(chromedp.KeyEvent("p"))
	b.wait(`document.documentElement.classList.contains("present") && new URLSearchParams(location.search).get("present") === "1"`, 5*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`document.querySelector("#copy-state-link").click()`)) // hidden in presentation mode
	if link := b.waitString(`document.querySelector("#toolbar-status").dataset.link ?? ""`, 5*time.Second); !strings.Contains(link, "present=1") {
		t.Errorf("the link to this state does not keep presentation mode: %s", link)
	}
	b.do(chromedp.KeyEvent("p"))
	b.wait(`!document.documentElement.classList.contains("present") && !location.search.includes("present")`, 5*time.Second)
	// The description's "more" unfolds it, the plots give it room.
	b.do(chromedp.Click(chromedp.CSS(".play-head .more")))
	b.wait(`!document.querySelector(".play-head").classList.contains("folded") && document.querySelector(".play-head .dataset").getClientRects().length > 0`, 5*time.Second)
	b.settled()
	if open := b.screen(); open.Plots[0].Bottom > open.H {
		t.Errorf("with the description unfolded the plot ends at %.0f px, below the viewport", open.Plots[0].Bottom)
	}
	// Typing a p in a number field is not the key.
	b.do(chromedp.Evaluate[chromedp.Void](`document.querySelector("#panel-mfvi .control input.num").focus()`))
	b.do(chromedp.KeyEvent("p"))
	if b.eval(`document.documentElement.classList.contains("present")`) != "false" {
		t.Error("a p typed into a control's number field turned presentation mode on")
	}
}

// open loads a play page link and waits for its n panels' first frames
// and for the layout to settle (two animation frames after the last fit).
func (b *browser) open(link string, n int) {
	b.t.Helper()
	b.do(chromedp.Navigate(b.url + link))
	b.wait(fmt.Sprintf(`window.playground && playground.panels.length === %d && playground.panels.every(p => p.frames > 0)`, n), 30*time.Second)
	b.settled()
}

// settled waits for the fonts and three animation frames: the layout's
// fit runs on one, the plots' resize observers after it.
func (b *browser) settled() {
	b.t.Helper()
	js := `document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))))`
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) screen() screen {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[screen](layoutJS))
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

// viewShot saves what the viewport shows (shot saves the whole page).
func (b *browser) viewShot(name string) {
	buf, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(b.shots, name+".png"), buf, 0o644); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
	}
}

func find(bs []box, panel string) box {
	for _, x := range bs {
		if x.Panel == panel {
			return x
		}
	}
	return box{}
}

// overflowJS names the elements that reach past the viewport's width.
const overflowJS = `(() => {
	const w = document.documentElement.clientWidth, out = [];
	for (const e of document.querySelectorAll("body *")) {
		const r = e.getBoundingClientRect();
		if (r.width > 0 && r.right > w + 0.5) out.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\s+/).join(".") : "") + " " + Math.round(r.right));
	}
	return out.slice(0, 8).join(", ");
})()`

// sideWordsJS lists the text on the page, folded or not, that says left or
// right, except the scenario's own description and note (sim/scenario/gallery.go's,
// reported by scenarioSideWordsJS).
const sideWordsJS = `(() => {
	const skip = (n) => n.parentElement.closest("script, style, .play-head .description, .play-head .note");
	const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	const out = [];
	for (let n = w.nextNode(); n; n = w.nextNode()) {
		if (skip(n)) continue;
		const m = n.textContent.match(/.{0,30}\b(left|right)\b.{0,30}/i);
		if (m) out.push(JSON.stringify(m[0]));
	}
	return out.join("; ");
})()`

const scenarioSideWordsJS = `[...document.querySelectorAll(".play-head .description, .play-head .note")]
	.flatMap(e => [...e.textContent.matchAll(/.{0,25}\b(left|right)\b.{0,25}/gi)].map(m => JSON.stringify(m[0]))).join("; ")`
