package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/posterior-playground/playground/sim/scenario"
)

// TestBrowserNoiseBandAndMarks checks what the predictive plot adds to f's
// band: the band of y (f plus the method's noise) behind a toggle in the
// legend, off where the scenario's text does not speak of noise (in-between)
// and on where it does (prior scale), drawing more of the plot when on;
// and a control change marked on the predictive plot and on the in-between
// chart, as on the objective.
func TestBrowserNoiseBandAndMarks(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.EmulateViewport(1280, 720))
	ps, _ := scenario.BySlug("prior-scale")
	b.do(chromedp.Navigate(b.url + ps.URL() + "&gip.replay=300"))
	b.wait(`window.playground && playground.panels[0].replayTo == null && playground.panels[0].band && playground.panels[0].status === "paused"`, 2*time.Minute)
	if got := b.eval(`(() => { const t = document.querySelector("#panel-gip .yband-toggle"); return !t.hidden && t.querySelector("input").checked; })()`); got != "true" {
		t.Errorf("prior scale: the band of y's toggle is not shown checked (the scenario's text speaks of noise)")
	}

	ib, _ := scenario.BySlug("in-between")
	b.do(chromedp.Navigate(b.url + ib.URL() + "&gip.replay=300"))
	b.wait(`window.playground && playground.panels[0].replayTo == null && playground.panels[0].band && playground.panels[0].status === "paused"
		&& !document.querySelector("#panel-gip .yband-toggle").hidden`, 2*time.Minute)
	if got := b.eval(`document.querySelector("#panel-gip .yband-toggle input").checked`); got != "false" {
		t.Errorf("in-between: the band of y is on, though the scenario's text does not speak of noise")
	}
	// A pixel halfway between the top of f's band and the top of y's, at
	// the grid's middle: white (or a grid line) without the band of y, its
	// blue fill with it.
	pixel := `(() => { const p = playground.panels[0], u = p.predictive.u, b = p.band, i = b.x.length >> 1;
		const sf = (b.hi[i] - b.lo[i]) / 4, sy = Math.sqrt(sf * sf + p.noiseBand.sigma ** 2);
		const y = b.mean[i] + sf + sy; // halfway between mean + 2 sf and mean + 2 sy
		return [...u.ctx.getImageData(Math.round(u.valToPos(b.x[i], "x", true)), Math.round(u.valToPos(y, "y", true)), 1, 1).data]; })()`
	b.settled()
	off := evalAs[[]int](b, pixel)
	b.do(chromedp.Click(chromedp.CSS(`#panel-gip .yband-toggle input`)))
	b.settled()
	on := evalAs[[]int](b, pixel)
	t.Logf("a pixel between f's band and y's: %v without the band of y, %v with it (σ = %s)", off, on, b.eval(`playground.panels[0].noiseBand.sigma`))
	if len(on) != 4 || len(off) != 4 || on[2] <= on[0] || (on[0] == off[0] && on[1] == off[1] && on[2] == off[2]) {
		t.Errorf("the band of y drew no blue fill between f's band and its edge: %v without, %v with", off, on)
	}

	// A prior scale change: marked on the predictive plot (its text is
	// drawn on the canvas) and on the in-between chart.
	b.do(chromedp.Evaluate[chromedp.Void](`window.__texts = [];
		const fill = CanvasRenderingContext2D.prototype.fillText;
		CanvasRenderingContext2D.prototype.fillText = function (t, ...rest) { window.__texts.push(String(t)); return fill.call(this, t, ...rest); };
		(() => { const n = document.querySelector('#panel-gip .control[data-name="prior_scale"] input.num');
			n.value = "2"; n.dispatchEvent(new Event("change", {bubbles: true})); })();`))
	b.wait(`playground.panels[0].marks.some(m => m.name === "prior_scale" && m.value === 2)`, 10*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all="step"]`)))
	b.wait(`playground.compare.ratio?._markBoxes?.length > 0`, 10*time.Second)
	texts := b.waitString(`window.__texts.some(t => t.startsWith("Prior scale = 2 at step ")) && window.__texts.join("\n")`, 10*time.Second)
	if !strings.Contains(texts, "Prior scale = 2") {
		t.Errorf("the change is not marked: %q", texts)
	}
	b.viewShot("yband-and-marks")
}
