package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserRace presses "Play all at equal budget" on the gallery (the
// funnel, NUTS beside mean-field) and on the 1-D page (mean-field beside
// HMC): the runs join one pacing group and play, the race chart gets a
// line per panel, and once paused the panels' spent budgets are within a
// step of each other (a NUTS transition of 4 chains costs at most 4 ×
// 2¹⁰ gradient evaluations; an HMC one on linreg far less).
func TestBrowserRace(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.Navigate(b.url + "/gallery?target=funnel&methods=nuts,mfvi"))
	b.wait(`window.galleryPage?.panels.length === 2 && galleryPage.panels.every(p => p.run && p.frames > 0)`, 30*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-role=race]`)))
	b.wait(`galleryPage.race.paced === "grads" && galleryPage.race.samples.size === 2 && galleryPage.race.chart.points() > 4 &&
		[...galleryPage.race.samples.values()].every(s => s.pts.at(-1).evals > 20000)`, 90*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-role=pause]`)))
	b.wait(`galleryPage.panels.every(p => p.status.textContent.startsWith("paused"))`, 10*time.Second)
	time.Sleep(300 * time.Millisecond) // the paused frames reach the chart's samples
	if gap := b.evalInt(`(() => { const e = [...galleryPage.race.samples.values()].map(s => s.pts.at(-1).evals); return Math.abs(e[0] - e[1]); })()`); gap > 4<<10 {
		t.Errorf("gallery: the paced panels' budgets differ by %d evaluations, more than a step", gap)
	}
	b.shot("race-gallery")

	// The linear model with σ held: its posterior is known, and the chart
	// can show each method's error against it.
	b.do(chromedp.Navigate(b.url + "/play?data=linreg&methods=mfvi,hmc&seed=1&mfvi.fixed_noise=0.5&hmc.fixed_noise=0.5&hmc.warmup=100"))
	b.wait(`window.playground?.race && playground.panels.every(p => p.runId && p.frames > 0)`, 30*time.Second)
	b.eval(`document.querySelector("[data-role=race-unit]").value = "cpu"`)
	b.do(chromedp.Click(chromedp.CSS(`[data-role=race]`)))
	b.wait(`playground.race.paced === "cpu" && playground.race.samples.size === 2 && playground.race.chart.points() > 4`, 60*time.Second)
	b.wait(`[...playground.race.samples.values()].every(s => s.pts.some(p => p.values.mean_error > 0))`, 60*time.Second)
	b.eval(`(() => { const m = document.querySelector("[data-role=race-measure]"); m.value = "mean_error"; m.dispatchEvent(new Event("change")); return ""; })()`)
	if n := b.evalInt(`playground.race.chart.points()`); n < 2 {
		t.Errorf("the chart of the error against the exact posterior has %d points", n)
	}
	b.shot("race-play")
}
