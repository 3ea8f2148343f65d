package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserHeld plays a race at equal budget on the gallery (the banana,
// random-walk Metropolis beside a full-rank Gaussian) and on the 1-D page
// (mean-field beside HMC), one of the two capped in speed, so the other
// waits for it for most of the time, and its status line says so instead of "running" (the frame's held), with
// equal budget in its title.
func TestBrowserHeld(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.Navigate(b.url + "/gallery?target=banana&methods=metropolis,fullrank"))
	b.wait(`window.galleryPage?.panels.length === 2 && galleryPage.panels.every(p => p.run && p.frames > 0)`, 30*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-role=race]`)))
	// Which run waits must not depend on the machine: how much CPU a
	// Metropolis step costs against a full-rank step differs between an
	// idle machine and a loaded one (idle, neither waited most of the
	// time). Capped at 5 steps a second, Metropolis spends 20 evaluations
	// a second, and full-rank, 32 a step, waits for it.
	capSpeed(b, `galleryPage.panels[0].run`)
	// The text and its title read at once: they are written together.
	title := b.waitString(`galleryPage.panels.find(p => p.status.textContent.startsWith("❚❚ waiting for the slowest"))?.status.title ?? false`, 60*time.Second)
	b.shot("held-gallery")
	if !strings.Contains(title, "equal budget") {
		t.Errorf("gallery: the held panel's title %q does not say equal budget", title)
	}
	b.do(chromedp.Click(chromedp.CSS(`[data-role=pause]`)))
	b.wait(`galleryPage.panels.every(p => p.status.textContent.startsWith("paused"))`, 10*time.Second)

	b.do(chromedp.Navigate(b.url + "/play?data=linreg&methods=mfvi,hmc&seed=1"))
	b.wait(`window.playground?.race && playground.panels.every(p => p.runId && p.frames > 0)`, 30*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-role=race]`)))
	capSpeed(b, `playground.panels[1].runId`) // HMC: mean-field waits for it
	title = b.waitString(`[...document.querySelectorAll("[data-role=status]")].find(e => e.textContent === "❚❚ waiting for the slowest")?.title ?? false`, 60*time.Second)
	b.shot("held-play")
	if !strings.Contains(title, "equal budget") {
		t.Errorf("1-D page: the held panel's title %q does not say equal budget", title)
	}
}

// capSpeed caps the run whose id the expression idJS gives at 5 steps a
// second, through the run's ops endpoint, as another client could.
func capSpeed(b *browser, idJS string) {
	b.t.Helper()
	status, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`fetch("/api/runs/" + `+idJS+` + "/ops", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({op: "speed", value: 5})}).then(r => r.status)`, chromedp.EvalAwaitPromise))
	if err != nil || status/100 != 2 {
		b.t.Fatalf("capping the speed of %s: status %d, %v", idJS, status, err)
	}
}
