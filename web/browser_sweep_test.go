package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/posterior-playground/playground/sim/scenario"
)

// TestBrowserSweep opens the Inducing points scenario, runs a tiny sweep
// from its card and checks that the points, the table and the progress bar
// fill in and the plot drew; then starts a longer one, sees its first
// points arrive, and cancels it. Screenshots go to $SCREENSHOT_DIR.
func TestBrowserSweep(t *testing.T) {
	b := startBrowserTest(t)
	s, ok := scenario.BySlug("inducing-points")
	if !ok {
		t.Fatal("no inducing-points scenario")
	}
	b.do(chromedp.Navigate(b.url + s.URL()))
	b.do(chromedp.WaitVisible(chromedp.CSS("#sweep")))
	b.wait(`window.playgroundSweep && window.playground && playground.panels.every(p => p.frames > 0)`, 20*time.Second)

	// A tiny sweep: three values, 20 steps, 2 × 10 importance samples.
	setSweepForm(b, "2,5,10", 20, 2, 10)
	b.do(chromedp.Click(chromedp.CSS(`#sweep [data-role=sweep-run]`)))
	start := time.Now()
	b.wait(`playgroundSweep.status === "done" && playgroundSweep.points.length === 3`, 60*time.Second)
	t.Logf("the tiny sweep finished in %v", time.Since(start).Round(time.Millisecond))
	if v := b.eval(`(() => { const p = document.querySelector("#sweep [data-role=sweep-progress]"); return p.value === p.max && p.max === 3; })()`); v != "true" {
		t.Errorf("the progress bar is not full: %s", b.eval(`document.querySelector("#sweep [data-role=sweep-count]").textContent`))
	}
	if txt := b.eval(`document.querySelector("#sweep [data-role=sweep-count]").textContent`); !strings.Contains(txt, "100%") {
		t.Errorf("the progress text reads %q", txt)
	}
	if n := b.evalInt(`document.querySelectorAll("#sweep [data-role=sweep-table] tbody tr").length`); n != 3 {
		t.Errorf("the table has %d rows, want 3", n)
	}
	if n := b.ink("#sweep [data-plot=sweep] canvas"); n < 300 {
		t.Errorf("the sweep plot has %d coloured pixels; it looks blank", n)
	}
	b.shot("sweep-1-done")
	b.elementShot("sweep-1-done-card", "#sweep")

	// A longer sweep: wait for its first two points, then cancel.
	setSweepForm(b, "1,2,5,10,20,30,40,50", 400, 2, 10)
	b.do(chromedp.Click(chromedp.CSS(`#sweep [data-role=sweep-run]`)))
	b.wait(`playgroundSweep.status === "running" && playgroundSweep.points.length >= 2`, 90*time.Second)
	b.elementShot("sweep-2-partial-card", "#sweep")
	b.do(chromedp.Click(chromedp.CSS(`#sweep [data-role=sweep-cancel]`)))
	b.wait(`playgroundSweep.status === "cancelled"`, 10*time.Second)
	n := b.evalInt(`playgroundSweep.points.length`)
	// Watch for a second: a point arriving after the cancel is an event
	// that should not happen, and an absence gives nothing to wait on.
	time.Sleep(time.Second)
	if m := b.evalInt(`playgroundSweep.points.length`); m != n || n >= 8 {
		t.Errorf("after the cancel the points went from %d to %d (of 8)", n, m)
	}
	if v := b.eval(`document.querySelector("#sweep [data-role=sweep-run]").disabled`); v != "false" {
		t.Error("the Run sweep button stays disabled after the cancel")
	}
	b.elementShot("sweep-3-cancelled-card", "#sweep")

	// The Prior scale page plots its values on a log axis.
	s, _ = scenario.BySlug("prior-scale")
	b.do(chromedp.Navigate(b.url + s.URL()))
	b.wait(`window.playgroundSweep && window.playground && playground.panels.every(p => p.frames > 0)`, 20*time.Second)
	setSweepForm(b, "logspace:0.316:3.16:5", 20, 2, 10)
	b.do(chromedp.Click(chromedp.CSS(`#sweep [data-role=sweep-run]`)))
	b.wait(`playgroundSweep.status === "done" && playgroundSweep.points.length === 5`, 60*time.Second)
	if v := b.eval(`playgroundSweep.plot.logX && playgroundSweep.plot.u.scales.x.distr === 3`); v != "true" {
		t.Error("the prior scale sweep is not on a log axis")
	}
	if n := b.ink("#sweep [data-plot=sweep] canvas"); n < 300 {
		t.Errorf("the prior scale sweep plot has %d coloured pixels; it looks blank", n)
	}
	b.elementShot("sweep-4-prior-scale-card", "#sweep")
}

// setSweepForm fills the sweep card's form.
func setSweepForm(b *browser, values string, steps, evalReps, iwbo int) {
	b.t.Helper()
	b.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const f = document.querySelector("#sweep [data-role=sweep-form]");
		f.querySelector('[name="values"]').value = %q;
		f.querySelector('[name="steps"]').value = "%d";
		f.querySelector('[name="eval_reps"]').value = "%d";
		f.querySelector('[name="iwbo_samples"]').value = "%d";
	})()`, values, steps, evalReps, iwbo)))
}
