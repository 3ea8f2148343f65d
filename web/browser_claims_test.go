package web_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
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

// TestBrowserClaimsEveryScenario opens every scenario with a claim replayed
// to its claim step (each panel's METHOD.replay) at 1280×720 and waits for
// the page's own evaluation of the claim (static/app/claim.js) to say its
// first check holds: the claims TestScenarioClaims checks on the engine's
// frames, seen in a real browser. There and at 390×844 the claim's line,
// whole and uncut, and the plot that proves it (the predictive plot of the
// panel the claim is first about; VI vs MCMC's joint plane) are on the first
// screen without scrolling. Then it plays on for a while: every verdict the
// page showed from its first frame, recorded with the panels' steps, says
// nothing holds before the claim step.
func TestBrowserClaimsEveryScenario(t *testing.T) {
	b := startBrowserTest(t)
	b.recordVerdicts()
	for _, s := range scenario.All() {
		if s.Claim == nil {
			continue
		}
		b.do(chromedp.EmulateViewport(1280, 720))
		link := s.URL()
		for _, m := range s.Methods {
			link += fmt.Sprintf("&%s.replay=%d", m, s.Claim.Step)
		}
		b.do(chromedp.Navigate(b.url + link))
		// fBNN replays 4,000 steps at about 17 a second with the machine
		// busy: the budget allows four minutes.
		b.wait(fmt.Sprintf(`window.playground && playground.panels.length === %d && playground.panels.every(p =>
			p.replayTo == null && p.band && (p.status === "paused" || p.status === "settled"))`, len(s.Methods)), 6*time.Minute)
		if !b.settle(`document.querySelector("#claim-verdict")?.textContent.startsWith("checking: 1 of ")`, 15*time.Second) {
			t.Errorf("%s: replayed to step %d, the page says %q", s.Slug, s.Claim.Step, b.eval(`document.querySelector("#claim-status")?.textContent`))
			continue
		}
		t.Logf("%s: %s", s.Slug, b.eval(`document.querySelector("#claim-status").textContent`))
		b.verdictInView(s.Slug)
		b.settled()
		b.proofInView(s.Slug + " at 1280×720")
		b.viewShot("claim-" + s.Slug + "-1280")
		b.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
		b.settled()
		b.verdictInView(s.Slug + " at 390×844")
		b.proofInView(s.Slug + " at 390×844")
		// Nothing reaches past the phone's width (GIP's inducing inputs
		// once stayed where the wider plot had put them).
		if w := b.evalInt(`document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("%s at 390×844: the page is %d px wide: %s", s.Slug, w, b.eval(overflowJS))
		}
		b.viewShot("claim-" + s.Slug + "-390")
		b.do(chromedp.EmulateViewport(1280, 720))

		// Played on (a few seconds, or until the verdict holds): no verdict
		// the page showed said the claim holds before its step.
		b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
		held := b.settle(`document.querySelector("#claim-verdict").textContent.startsWith("✓")`, 20*time.Second)
		b.do(chromedp.Click(chromedp.CSS(`[data-all="pause"]`)))
		t.Logf("%s played on: %s (held: %v)", s.Slug, b.eval(`document.querySelector("#claim-verdict").textContent`), held)
		b.verdictsNotEarly(s)
	}
}

// recordVerdicts has every page the browser opens record each verdict it
// shows, with the steps of the panels it is checked on, in window.__verdicts.
// It polls every 50 ms from the page's start, so the verdicts a replay
// shows on its way to its step are recorded too; a step read after the
// verdict changed is larger, never smaller (steps only grow without a
// reset), so a recorded step never makes a verdict look early.
func (b *browser) recordVerdicts() {
	b.t.Helper()
	js := `window.__verdicts = []; setInterval(() => {
		const v = document.querySelector("#claim-verdict"), pg = window.playground;
		if (!v || !pg?.config?.claim) return;
		const bound = new Set(pg.config.claim.checks.map((c) => c.method));
		const step = Math.min(...pg.panels.filter((p) => bound.has(p.method)).map((p) => p.step ?? 0));
		const t = v.textContent, last = window.__verdicts.at(-1);
		if (!last || last.text !== t) window.__verdicts.push({ text: t, step });
	}, 50);`
	if _, err := chromedp.Run(b.ctx, func(ctx context.Context, t *chromedp.Target) (page.AddScriptToEvaluateOnNewDocumentResult, error) {
		return cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: js})
	}); err != nil {
		b.t.Fatal(err)
	}
}

// verdict is one verdict a page showed and the least step of the panels
// its claim is checked on when it showed it.
type verdict struct {
	Text string  `json:"text"`
	Step float64 `json:"step"`
}

// verdictsNotEarly checks the verdicts the page recorded: before the claim
// step each one waits ("checked from step N"), and "held since step N" names
// a step no earlier than the claim step, which the panels had reached.
func (b *browser) verdictsNotEarly(s scenario.Scenario) {
	b.t.Helper()
	vs, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]verdict](`window.__verdicts`))
	if err != nil {
		b.t.Fatal(err)
	}
	if len(vs) == 0 {
		b.t.Errorf("%s: no verdict recorded", s.Slug)
	}
	from := float64(s.Claim.Step)
	early, seen := 0, []string{}
	for _, v := range vs {
		seen = append(seen, fmt.Sprintf("%s @%g", v.Text, v.Step))
		if v.Step < from && !strings.HasPrefix(v.Text, "checked from step ") {
			early++
			b.t.Errorf("%s: at step %g, before the claim step %g, the verdict read %q", s.Slug, v.Step, from, v.Text)
		}
		if m := heldSince.FindStringSubmatch(v.Text); m != nil {
			n, _ := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
			if n < from || n > v.Step {
				b.t.Errorf("%s: %q at step %g: want a step from %g to the panels' %g", s.Slug, v.Text, v.Step, from, v.Step)
			}
		}
	}
	b.t.Logf("%s: %d verdicts recorded (%d early): %s", s.Slug, len(vs), early, strings.Join(seen[max(0, len(seen)-6):], "; "))
}

var heldSince = regexp.MustCompile(`^✓ held since step ([\d,]+)$`)

// proofView is where the claim and the plot that proves it sit on the
// first screen.
type proofView struct {
	Plot    string    `json:"plot"`    // which plot proves the claim
	PlotBox []float64 `json:"plotBox"` // top, bottom, height
	Claim   []float64 `json:"claim"`   // top, bottom
	VH      float64   `json:"vh"`
	Cut     []string  `json:"cut"` // parts of the claim's line cut or off screen
}

// proofInView checks, scrolled to the top, that the claim's line is whole
// on screen (no part of it cut by an ellipsis or past the viewport) and
// that the plot proving it (the predictive plot of the panel its first
// check is about, or that panel's joint plane) is wholly in view.
func (b *browser) proofInView(what string) {
	b.t.Helper()
	js := `(() => {
		scrollTo(0, 0);
		const panel = document.querySelector(".panel.proof");
		const joint = panel?.querySelector('[data-role="joint-canvas"]');
		const plot = joint ?? panel?.querySelector('[data-plot="predictive"] canvas');
		const claim = document.querySelector("#claim");
		const cut = [];
		if (claim.scrollWidth > claim.clientWidth + 1 || claim.scrollHeight > claim.clientHeight + 1) cut.push("#claim overflows");
		for (const e of [claim, document.querySelector("#claim-verdict"), document.querySelector("#claim-status")]) {
			if (getComputedStyle(e).textOverflow === "ellipsis") cut.push(e.id + " has an ellipsis");
			for (const r of e.getClientRects()) if (r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5 || r.top < 0) cut.push(e.id + " off screen");
		}
		const r = plot?.getBoundingClientRect(), c = claim.getBoundingClientRect();
		return { plot: plot ? (joint ? "joint plane of " : "predictive plot of ") + panel.id : "none",
			plotBox: r ? [r.top, r.bottom, r.height] : [], claim: [c.top, c.bottom], vh: innerHeight, cut };
	})()`
	var v proofView
	ok := b.settle(`(() => { const p = document.querySelector(".panel.proof"); const c = (p?.querySelector('[data-role="joint-canvas"]') ?? p?.querySelector('[data-plot="predictive"] canvas'))?.getBoundingClientRect();
		return scrollY === 0 && c && c.height >= 100 && c.top >= 0 && c.bottom <= innerHeight + 0.5; })()`, 5*time.Second)
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[proofView](js))
	if err != nil {
		b.t.Fatal(err)
	}
	if !ok || len(v.PlotBox) != 3 {
		b.t.Errorf("%s: the %s is at %v, want it whole in the first screen (height %g, at least 100 px tall)", what, v.Plot, v.PlotBox, v.VH)
	}
	if len(v.Cut) > 0 || v.Claim[1] > v.VH {
		b.t.Errorf("%s: the claim's line at %v is not whole on the first screen: %v", what, v.Claim, v.Cut)
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
