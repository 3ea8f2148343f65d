package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/posterior-playground/playground/sim/scenario"
)

// unglossedJS lists the abbreviations in the page's labels (glossary.js's
// LABELS, found as glossary.js's abbreviations finds them) that have no
// hover gloss: neither inside an <abbr title> nor under an element with a
// title of its own.
const unglossedJS = `(async () => {
	const g = await import("/static/app/glossary.js");
	const out = new Set();
	for (const label of document.querySelectorAll("main " + g.LABELS.split(", ").join(", main "))) {
		const w = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
		for (let n = w.nextNode(); n; n = w.nextNode()) {
			const p = n.parentElement;
			if (p.closest("abbr[title], [data-no-gloss], option, math, script") || p.closest("[title]")?.title) continue;
			for (const a of g.abbreviations(n.data)) out.add(a + " in " + JSON.stringify(label.textContent.trim().slice(0, 60)));
		}
	}
	return [...out];
})()`

// TestBrowserGlossary opens every scenario, and a page of every method,
// and checks that each abbreviation in a label (ELBO, KL, ESS, R̂, GIP,
// NUTS, k̂, …) has a one-line gloss on hover, from the glossary in
// static/app/glossary.js.
func TestBrowserGlossary(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.EmulateViewport(1280, 720))
	links := []string{}
	for _, s := range scenario.All() {
		links = append(links, s.URL())
	}
	// Every method, its folds open so their tables and traces are labels too.
	links = append(links, "/play?data=gap&methods=mfvi,gip,ensemble,map&seed=1", "/play?data=gap&methods=hmc,nuts,sgld,metropolis&seed=1&hmc.warmup=20&nuts.warmup=20&sgld.warmup=20&metropolis.warmup=20",
		"/play?data=periodic&methods=fbnn,livi&seed=1", "/play?data=gp-cauchy&methods=gp-exact,gpvi&seed=1")
	for _, link := range links {
		b.do(chromedp.Navigate(b.url + link))
		b.wait(`window.playground && playground.panels.length > 0 && playground.panels.every(p => p.frames > 0)`, 60*time.Second)
		b.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("details").forEach(d => { d.open = true; })`))
		b.do(chromedp.Click(chromedp.CSS(`[data-all="step"]`)))
		b.wait(`playground.panels.every(p => p.step >= 1)`, 60*time.Second)
		b.settled()
		if missing := evalAwait[[]string](b, unglossedJS); len(missing) > 0 {
			t.Errorf("%s: abbreviations with no gloss: %v", link, missing)
		}
	}
	// A gloss is on hover: the title of an <abbr> around the term.
	if got := b.eval(`document.querySelector("main abbr[title]")?.title.length > 10`); got != "true" {
		t.Errorf("no <abbr title> on the page")
	}
}

// TestBrowserPresentNothingClipped opens three and four panels in
// presentation mode at 1280×720 (and three outside it) and checks that no
// panel's name, status chip or legend entry is cut: each is as wide as its
// text and inside its panel.
func TestBrowserPresentNothingClipped(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.EmulateViewport(1280, 720))
	nn, _ := scenario.BySlug("nn-vi-vs-mcmc")
	for i, link := range []string{nn.URL(), nn.URL() + "&present=1", "/play?data=gap&methods=mfvi,gip,hmc,nuts&seed=1&present=1"} {
		b.do(chromedp.Navigate(b.url + link))
		b.wait(`window.playground && playground.panels.every(p => p.frames > 0)`, 60*time.Second)
		b.settled()
		cut := evalAs[[]string](b, `(() => {
			const out = [];
			for (const p of document.querySelectorAll(".panel")) {
				const box = p.getBoundingClientRect();
				for (const e of p.querySelectorAll(".panel-head h2, .panel-head .status, .plot-legend li")) {
					const r = e.getBoundingClientRect();
					if (r.width === 0) continue; // not shown
					if (e.scrollWidth > e.clientWidth + 1 || r.left < box.left - 0.5 || r.right > box.right + 0.5)
						out.push(p.id + ": " + JSON.stringify(e.textContent.trim()) + " " + e.scrollWidth + " of " + e.clientWidth + " px");
				}
			}
			const h1 = document.querySelector(".play-head h1");
			if (h1.scrollWidth > h1.clientWidth + 1) out.push("title " + JSON.stringify(h1.textContent));
			return out;
		})()`)
		if len(cut) > 0 {
			t.Errorf("%s: cut: %v", link, cut)
		}
		b.viewShot(fmt.Sprintf("clipped-%d", i))
	}
}

// evalAwait evaluates a JavaScript expression that returns a promise and
// decodes what it resolves to.
func evalAwait[T any](b *browser, js string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return v
}
