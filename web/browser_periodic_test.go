package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Functional VI runs live in the dashboard: the periodic-extrapolation
// scenario plays fbnn beside mfvi and both bands draw.
func TestBrowserPeriodicExtrapolation(t *testing.T) {
	b := startBrowserTest(t)

	b.openScenario("periodic-extrapolation", "fbnn", 2, "")
	b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	b.wait(`playground.panels.every(p => p.status === "running" && p.step >= 300 && p.band)`, 60*time.Second)
	b.shot("periodic-playing")
	for _, sel := range []string{"#panel-fbnn [data-plot=predictive] canvas", "#panel-mfvi [data-plot=predictive] canvas",
		"#panel-fbnn [data-plot=objective] canvas"} {
		if n := b.ink(sel); n < 500 {
			t.Errorf("%s has %d coloured pixels; the plot looks blank", sel, n)
		}
	}
}
