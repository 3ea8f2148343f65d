package web_test

import (
	"github.com/chromedp/chromedp"

	"testing"
	"time"
)

// TestBrowserHardenPreparing opens a page whose runs are created
// preparing (their Init runs after the create returned): every panel gets
// frames, reaches paused with a band, and plays.
func TestBrowserHardenPreparing(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.Navigate(b.url + "/play?data=gap&methods=gp-exact,mfvi&seed=1"))
	b.wait(`window.playground && playground.panels.length === 2 && playground.panels.every(p => p.frames > 0 && p.status === "paused" && p.band)`, 20*time.Second)
	b.shot("harden-preparing-paused")
	b.eval(`playground.panels.forEach(p => p.send({op: "play"})), 0`)
	b.wait(`playground.panels.find(p => p.method === "mfvi").step > 10`, 20*time.Second)
}
