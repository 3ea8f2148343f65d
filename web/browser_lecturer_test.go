package web_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/posterior-playground/playground/sim/scenario"
)

// headBox is a panel's header and its plot's top, as headsJS measures them.
type headBox struct {
	Panel    string    `json:"panel"`
	Status   string    `json:"status"`
	HeadH    float64   `json:"headH"`    // the header's height
	ItemTops []float64 `json:"itemTops"` // each shown child's top
	ItemBots []float64 `json:"itemBots"` // and bottom
	PlotTop  float64   `json:"plotTop"`  // the predictive canvas's top
	NameCut  bool      `json:"nameCut"`  // the name is cut short (an ellipsis)
	Name     string    `json:"name"`
	NameBot  float64   `json:"nameBot"`   // the name's bottom
	IsName   []bool    `json:"isName"`    // which shown child is the name
	CutChip  bool      `json:"statusCut"` // the status chip is cut short
}

// headsJS measures every panel's header and predictive plot.
const headsJS = `[...document.querySelectorAll("section.panels > .panel")].map(p => {
	const h = p.querySelector(".panel-head");
	const shown = [...h.children].filter(c => c.getClientRects().length > 0), items = shown.map(c => c.getBoundingClientRect());
	const st = p.querySelector("[data-role=status]");
	return {
		isName: shown.map(c => c.tagName === "H2"),
		nameBot: h.querySelector("h2").getBoundingClientRect().bottom,
		statusCut: st.getClientRects().length > 0 && st.scrollWidth > st.clientWidth + 1,
		panel: p.id,
		status: p.querySelector("[data-role=status]").textContent,
		headH: h.getBoundingClientRect().height,
		itemTops: items.map(r => r.top),
		itemBots: items.map(r => r.bottom),
		plotTop: p.querySelector('[data-plot="predictive"] canvas').getBoundingClientRect().top,
		nameCut: h.querySelector("h2").scrollWidth > h.querySelector("h2").clientWidth + 1,
		name: h.querySelector("h2").textContent,
	};
})`

// checkHeads fails the test when a panel's header takes more than one row
// (two of its shown children do not overlap vertically) but for the name
// on a row of its own above the rest (three or four panels side by side,
// app.css), when it cuts the method's name or its status short, or when
// the plots of side-by-side panels start more than 2 px apart.
func checkHeads(t *testing.T, b *browser, what string) []headBox {
	t.Helper()
	var heads []headBox
	if err := json.Unmarshal([]byte(b.eval(`JSON.stringify(`+headsJS+`)`)), &heads); err != nil {
		t.Fatal(err)
	}
	for _, h := range heads {
		// One row: every child overlaps every other vertically (the lowest
		// top above the highest bottom); or two, the name alone in the first.
		maxTop, minBot := math.Inf(-1), math.Inf(1)
		nameRow := true // every child but the name lies below the name
		for i := range h.ItemTops {
			if i < len(h.IsName) && h.IsName[i] {
				continue
			}
			maxTop, minBot = max(maxTop, h.ItemTops[i]), min(minBot, h.ItemBots[i])
			nameRow = nameRow && h.ItemTops[i] >= h.NameBot-0.5
		}
		if maxTop >= minBot {
			t.Errorf("%s: %s's header wraps its buttons and status into more rows (%.0f px high, status %q)", what, h.Panel, h.HeadH, h.Status)
		}
		oneRow := true
		for i := range h.ItemTops {
			if i < len(h.IsName) && h.IsName[i] {
				oneRow = h.ItemTops[i] < minBot && h.ItemBots[i] > maxTop
			}
		}
		if !oneRow && !nameRow {
			t.Errorf("%s: %s's header wraps into a second row that is not the name's alone (%.0f px high, status %q)", what, h.Panel, h.HeadH, h.Status)
		}
		if h.CutChip {
			t.Errorf("%s: %s's header cuts its status %q short", what, h.Panel, h.Status)
		}
		if h.NameCut {
			t.Errorf("%s: %s's header cuts its name %q short (status %q)", what, h.Panel, h.Name, h.Status)
		}
	}
	for i := 1; i < len(heads); i++ {
		if d := heads[i].PlotTop - heads[0].PlotTop; d > 2 || d < -2 {
			t.Errorf("%s: %s's plot starts at %.0f px, %s's at %.0f px (%.0f px apart; status %q and %q)", what,
				heads[i].Panel, heads[i].PlotTop, heads[0].Panel, heads[0].PlotTop, d, heads[i].Status, heads[0].Status)
		}
	}
	return heads
}

// replayLink is a scenario's link trained to its claim step.
func replayLink(s scenario.Scenario) string {
	link := s.URL()
	for _, m := range s.Methods {
		link += fmt.Sprintf("&%s.replay=%d", m, s.Claim.Step)
	}
	return link
}

// TestBrowserLecturerHeads opens every scenario at 1280×720: plain, in
// presentation mode and from a link replaying to its claim step. It checks
// that no panel header wraps into a second row or cuts the method's name,
// and that side-by-side plots start at the same height, also while the
// link replays (the status then reads "replaying N / M"); and that the
// method cards ("How … works") name controls and traces by their labels,
// never by their keys.
func TestBrowserLecturerHeads(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.EmulateViewport(1280, 720))
	for _, s := range scenario.All() {
		b.open(s.URL(), len(s.Methods))
		checkHeads(t, b, s.Slug)
		checkCards(t, b, s.Slug)
		b.open(s.URL()+"&present=1", len(s.Methods))
		checkHeads(t, b, s.Slug+" presenting")

		if s.Claim == nil {
			continue
		}
		b.do(chromedp.Navigate(b.url + replayLink(s)))
		b.wait(fmt.Sprintf(`window.playground && playground.panels.length === %d && playground.panels.every(p => p.frames > 0)`, len(s.Methods)), 30*time.Second)
		b.settled()
		heads := checkHeads(t, b, s.Slug+" replaying")
		replaying := 0
		for _, h := range heads {
			if strings.HasPrefix(h.Status, "replaying") {
				replaying++
			}
		}
		t.Logf("%s replaying: %d of %d panels still replaying when measured; statuses %v", s.Slug, replaying, len(heads), statuses(heads))
		// And once every panel has arrived.
		if b.settle(`playground.panels.every(p => p.replayTo == null)`, 60*time.Second) {
			b.settled()
			checkHeads(t, b, s.Slug+" replayed")
		} else {
			t.Logf("%s: the replay to step %d did not end within 60 s", s.Slug, s.Claim.Step)
		}
	}
}

func statuses(hs []headBox) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.Status
	}
	return out
}

// checkCards fails the test when a method card's text contains a key of
// one of the page's controls or traces that a person would not write
// (one with an underscore, such as prior_scale).
func checkCards(t *testing.T, b *browser, what string) {
	t.Helper()
	var keys []string
	if err := json.Unmarshal([]byte(b.eval(`JSON.stringify(playground.config.panels.flatMap(pc => [...pc.spec.controls.map(c => c.name), ...(pc.spec.traces ?? [])]))`)), &keys); err != nil {
		t.Fatal(err)
	}
	text := b.eval(`[...document.querySelectorAll("details.explain")].map(d => d.textContent).join("\n")`)
	if len(text) < 100 {
		t.Fatalf("%s: the method cards hold %d characters", what, len(text))
	}
	checked := 0
	for _, k := range keys {
		if !strings.Contains(k, "_") {
			continue
		}
		checked++
		if m := regexp.MustCompile(`.{0,30}\b` + regexp.QuoteMeta(k) + `\b.{0,30}`).FindString(text); m != "" {
			t.Errorf("%s: a method card names %s by its key: %q", what, k, m)
		}
	}
	t.Logf("%s: %d keys with an underscore checked against the cards", what, checked)
}

// TestBrowserLecturerRates plays the headline scenario and checks what a
// lecturer needs to compare its two panels fairly: each panel's steps/s in
// its status line to three significant digits (also in presentation
// mode), the compare view's note that the bands are at different steps,
// and GIP's inducing-input markers named in its legend.
func TestBrowserLecturerRates(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.EmulateViewport(1280, 720))
	s, _ := scenario.BySlug("mfvi-vs-gip-gap")
	b.open(s.URL(), 2)
	b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	// Mean-field runs several times faster than GIP here: wait until
	// their steps are apart, as a lecturer would see after a few seconds.
	b.wait(`playground.panels.every(p => p.stepsPerSec > 0 && p.step > 0) && Math.max(...playground.panels.map(p => p.step)) > 1.5 * Math.min(...playground.panels.map(p => p.step))`, 30*time.Second)
	// The draw loop writes the rates after the frame that brought them.
	b.wait(`[...document.querySelectorAll('[data-role="sps"]')].every(e => /[1-9]/.test(e.textContent))`, 10*time.Second)
	for _, present := range []bool{false, true} {
		if present {
			b.do(chromedp.Evaluate[chromedp.Void](`document.querySelector("#present").click()`))
			b.settled()
		}
		for _, m := range s.Methods {
			sel := fmt.Sprintf(`#panel-%s [data-role="sps"]`, m)
			text := b.eval(fmt.Sprintf(`document.querySelector(%q).textContent`, sel))
			visible := b.eval(fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight; })()`, sel))
			if visible != "true" {
				t.Errorf("present=%v: %s's steps/s (%q) is not visible on the screen", present, m, text)
			}
			if n := sigDigits(text); n < 1 || n > 3 {
				t.Errorf("present=%v: %s's steps/s reads %q: %d significant digits, want 1 to 3", present, m, text, n)
			}
			t.Logf("present=%v: %s at %s steps/s", present, m, text)
		}
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.querySelector("#present").click()`))

	// The compare view says the bands are at different steps.
	note := b.waitString(`document.querySelector('#compare [data-role="steps-note"]:not([hidden])')?.textContent ?? ""`, 5*time.Second)
	for _, want := range []string{"different steps", "Mean-field VI at step", "Global inducing points at step", "steps/s"} {
		if !strings.Contains(note, want) {
			t.Errorf("the compare view's note %q does not say %q", note, want)
		}
	}
	t.Logf("compare note: %s", note)

	// GIP's inducing inputs are named in its legend, mean-field's has none.
	b.wait(`document.querySelectorAll("#panel-gip .inducing-marker:not([hidden])").length > 0`, 10*time.Second)
	b.settled()
	if got := b.eval(`document.querySelector('#panel-gip .plot-legend li[data-key="inducing"]')?.textContent ?? ""`); got != "inducing inputs" {
		t.Errorf("GIP's legend entry for its inducing-input markers reads %q, want \"inducing inputs\"", got)
	}
	if n := b.evalInt(`document.querySelectorAll('#panel-mfvi .plot-legend li[data-key="inducing"]').length`); n != 0 {
		t.Errorf("mean-field's legend names inducing inputs it does not have")
	}
	// Clear is offered only while there is a snapshot to clear.
	clearShown := `document.querySelector('#panel-gip [data-op="clear-snapshot"]').getClientRects().length > 0`
	if b.eval(clearShown) != "false" {
		t.Error("Clear is shown with no snapshot")
	}
	b.do(chromedp.Click(chromedp.CSS(`#panel-gip [data-op="snapshot"]`)))
	b.wait(clearShown, 5*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`#panel-gip [data-op="clear-snapshot"]`)))
	b.wait("!("+clearShown+") && playground.panels[1].predictive.snapshot == null", 5*time.Second)
	b.viewShot("lecturer-rates")
}

// drawnJS holds when every panel shows the step of its latest frame (the
// page draws at most DRAW_HZ times a second, the status line at once).
const drawnJS = `playground.panels.every(p => p.el.querySelector('[data-role="step"]').textContent === p.step.toLocaleString("en-US"))`

// TestBrowserLecturerShots saves screenshots of every scenario at 1280×720
// and 390×844: after loading, after playing about 8 s, and from a link
// replaying to the claim step; into $LECTURER_SHOTS (skipped without it).
// It asserts nothing beyond the pages opening: the screenshots are for a
// person to look at.
func TestBrowserLecturerShots(t *testing.T) {
	dir := os.Getenv("LECTURER_SHOTS")
	if dir == "" {
		t.Skip("set LECTURER_SHOTS to a directory to take the screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	only := os.Getenv("LECTURER_ONLY") // a slug, to retake one scenario
	b := startBrowserTest(t)
	b.shots = dir
	for _, s := range scenario.All() {
		if only != "" && s.Slug != only {
			continue
		}
		for _, w := range []int{1280, 390} {
			if w == 1280 {
				b.do(chromedp.EmulateViewport(1280, 720))
			} else {
				b.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
			}
			name := func(state string) string { return fmt.Sprintf("%s-%d-%s", s.Slug, w, state) }
			b.open(s.URL(), len(s.Methods))
			b.viewShot(name("load"))
			b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
			time.Sleep(8 * time.Second)
			b.settle(drawnJS, 5*time.Second)
			b.settled()
			b.viewShot(name("played"))
			t.Logf("%s at %d: after 8 s %s", s.Slug, w, b.eval(`playground.panels.map(p => p.method + " step " + p.step + " " + p.status).join("; ")`))
			if s.Claim != nil {
				b.do(chromedp.Navigate(b.url + replayLink(s)))
				b.wait(fmt.Sprintf(`window.playground && playground.panels.length === %d && playground.panels.every(p => p.frames > 0)`, len(s.Methods)), 30*time.Second)
				if !b.settle(`playground.panels.every(p => p.replayTo == null)`, 90*time.Second) {
					t.Logf("%s at %d: replay not done in 90 s", s.Slug, w)
				}
				b.settle(`document.querySelector("#claim-status")?.dataset.holds !== undefined`, 5*time.Second)
				b.settle(drawnJS, 5*time.Second)
				// The claim line is rewritten four times a second (claim.js).
				b.settle(`document.querySelector("#claim-verdict").textContent.includes("step " + Math.min(...playground.panels.map(p => p.step)).toLocaleString("en-US"))`, 5*time.Second)
				b.settled()
				b.viewShot(name("claim"))
				t.Logf("%s at %d: claim %s", s.Slug, w, b.eval(`document.querySelector("#claim-status")?.textContent ?? ""`))
			}
		}
	}
	t.Logf("screenshots in %s", filepath.Clean(dir))
}
