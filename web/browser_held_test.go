package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserHeld plays a race at equal budget on the gallery (the banana,
// random-walk Metropolis beside a full-rank Gaussian) and on the 1-D page
// (mean-field beside HMC): the two methods' evaluations cost different
// times, so the faster one waits for the slower for most of the time, and
// its status line says so instead of "running" (the frame's held), with
// equal budget in its title.
func TestBrowserHeld(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.Navigate(b.url + "/gallery?target=banana&methods=metropolis,fullrank"))
	b.wait(`window.galleryPage?.panels.length === 2 && galleryPage.panels.every(p => p.run && p.frames > 0)`, 30*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-role=race]`)))
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
	title = b.waitString(`[...document.querySelectorAll("[data-role=status]")].find(e => e.textContent === "❚❚ waiting for the slowest")?.title ?? false`, 60*time.Second)
	b.shot("held-play")
	if !strings.Contains(title, "equal budget") {
		t.Errorf("1-D page: the held panel's title %q does not say equal budget", title)
	}
}
