package web_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/posterior-playground/playground/sim/scenario"
)

// TestBrowserClaimHeadline opens the headline scenario's link replayed to
// a step before its claim step, then to the claim step (each panel's
// METHOD.replay trains its run there step by step, deterministic for the
// seed), and checks what the page shows: before the claim step the verdict
// waits, whatever the numbers; at it GIP's in-between ratio ≥ 3 and
// mean-field's ≤ 1, read from the panels' frames, and the verdict counts
// the first of its k checks; played on, it says since when the claim held.
func TestBrowserClaimHeadline(t *testing.T) {
	s, ok := scenario.BySlug("mfvi-vs-gip-gap")
	if !ok || s.Claim == nil {
		t.Fatal("no headline scenario with a claim")
	}
	step := s.Claim.Step
	b := startBrowserTest(t)
	replay := func(to int64) {
		link := s.URL()
		for _, m := range s.Methods {
			link += fmt.Sprintf("&%s.replay=%d", m, to)
		}
		b.do(chromedp.Navigate(b.url + link))
		// Replaying 2,500 steps of two panels takes seconds; the budget
		// allows a loaded machine.
		b.wait(fmt.Sprintf(`window.playground && playground.panels.length === 2 && playground.panels.every(p =>
			p.step === %d && p.status === "paused" && p.replayTo == null && p.band && typeof p.diagnostics.inbetween_ratio === "number")`, to), 120*time.Second)
	}
	// Before the claim step: the verdict waits for it (the page once said
	// "holds at step 1,417" of a claim made from step 2,500).
	early := step * 4 / 7
	replay(early)
	b.wait(fmt.Sprintf(`document.querySelector("#claim-verdict").textContent === %q`,
		"checked from step "+thousands(step)+", now "+thousands(early)), 5*time.Second)
	replay(step)
	ratio := func(method string) float64 {
		v, err := strconv.ParseFloat(b.eval(fmt.Sprintf(`playground.panels.find(p => p.method === %q).diagnostics.inbetween_ratio`, method)), 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	gip, mfvi := ratio("gip"), ratio("mfvi")
	t.Logf("at step %d: GIP's in-between ratio %.3g, mean-field's %.3g", step, gip, mfvi)
	if gip < 3 || mfvi > 1 {
		t.Errorf("at the claim step %d GIP's in-between ratio is %.3g (want ≥ 3) and mean-field's %.3g (want ≤ 1)", step, gip, mfvi)
	}
	if got := b.eval(`document.querySelector("#claim").textContent`); !strings.Contains(got, s.Claim.Text) {
		t.Errorf("the page's claim line %q lacks the claim %q", got, s.Claim.Text)
	}
	// The status line says the numbers the claim bounds; the verdict, that
	// this is the first of its checks.
	b.wait(fmt.Sprintf(`(() => { const e = document.querySelector("#claim-status"), v = document.querySelector("#claim-verdict");
		return v.textContent.startsWith(%q) && e.textContent.startsWith("in-between ratio: GIP ") && !e.textContent.includes("✗"); })()`, "checking: 1 of "), 5*time.Second)
	b.shot("claim-headline")
	// Played on, the claim holds at k checks in a row: since the first.
	b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	since := b.waitString(`(() => { const m = document.querySelector("#claim-verdict").textContent.match(/^✓ held since step ([\d,]+)$/); return m ? m[1] : ""; })()`, 60*time.Second)
	if n, err := strconv.ParseInt(strings.ReplaceAll(since, ",", ""), 10, 64); err != nil || n < step {
		t.Errorf("the verdict says held since step %q, want a step ≥ %d", since, step)
	}
	b.do(chromedp.Click(chromedp.CSS(`[data-all="pause"]`)))
	b.shot("claim-headline-held")
}

// thousands writes n with commas, as the page's toLocaleString("en-US").
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestBrowserClaimsEveryScenario opens every other scenario with a claim
// the same way, replayed to its claim step, and waits for the page's own
// evaluation of the claim on what it shows (static/app/claim.js) to say its
// first check holds: the claims TestScenarioClaims checks on the engine's
// frames, seen in a real browser.
func TestBrowserClaimsEveryScenario(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.EmulateViewport(1280, 720))
	for _, s := range scenario.All() {
		if s.Claim == nil || s.Slug == "mfvi-vs-gip-gap" { // the headline has its own test
			continue
		}
		link := s.URL()
		for _, m := range s.Methods {
			link += fmt.Sprintf("&%s.replay=%d", m, s.Claim.Step)
		}
		b.do(chromedp.Navigate(b.url + link))
		b.wait(fmt.Sprintf(`window.playground && playground.panels.length === %d && playground.panels.every(p =>
			p.replayTo == null && p.band && (p.status === "paused" || p.status === "settled"))`, len(s.Methods)), 120*time.Second)
		if !b.settle(`document.querySelector("#claim-verdict")?.textContent.startsWith("checking: 1 of ")`, 15*time.Second) {
			t.Errorf("%s: replayed to step %d, the page says %q", s.Slug, s.Claim.Step, b.eval(`document.querySelector("#claim-status")?.textContent`))
			continue
		}
		t.Logf("%s: %s", s.Slug, b.eval(`document.querySelector("#claim-status").textContent`))
		b.shot("claim-" + s.Slug)
		b.verdictInView(s.Slug)
		if s.Slug == "vi-vs-mcmc" { // the longest claim: on a phone too
			b.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
			b.verdictInView(s.Slug + " at 390 px")
			b.do(chromedp.EmulateViewport(1280, 720))
		}
	}
}

// verdictInView checks that the claim's verdict counts its first check and is whole
// on screen, however long the claim's text (a projector shows the claim on
// one line, a phone on at most four).
func (b *browser) verdictInView(what string) {
	b.t.Helper()
	want := "checking: 1 of "
	js := fmt.Sprintf(`(() => { const v = document.querySelector("#claim-verdict"), c = v.closest(".claim").getBoundingClientRect(), r = v.getBoundingClientRect();
		return v.textContent.startsWith(%q) && r.width > 0 && r.right <= c.right + 0.5 && r.bottom <= c.bottom + 0.5 && r.bottom <= innerHeight; })()`, want)
	if !b.settle(js, 5*time.Second) {
		b.t.Errorf("%s: the claim's verdict is %q at %s, want %q whole in view", what,
			b.eval(`document.querySelector("#claim-verdict").textContent`), b.eval(`JSON.stringify(document.querySelector("#claim-verdict").getBoundingClientRect())`), want)
	}
}
