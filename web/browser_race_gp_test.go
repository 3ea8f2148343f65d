package web_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// raceLine is one line of the race chart: its label and points.
type raceLine struct {
	Label string       `json:"label"`
	Pts   [][2]float64 `json:"pts"`
}

// raceLines reads the chart's lines of the shown measure, by key.
func (b *browser) raceLines(page string) map[string]raceLine {
	b.t.Helper()
	var lines map[string]raceLine
	js := `JSON.stringify(Object.fromEntries([...` + page + `.race.chart.lines].map(([k, l]) => [k, {label: l.label, pts: l.pts}])))`
	if err := json.Unmarshal([]byte(b.eval(js)), &lines); err != nil {
		b.t.Fatal(err)
	}
	return lines
}

// TestBrowserRaceGP plays the variational GP against the exact GP on the
// gap data (kernel and noise held, as the headless race sim/experiment's
// TestRaceGP runs) at equal gradient evaluations: the chart shows, by
// default, the variational GP's mean error against the exact GP's
// posterior (sim.MomentsError on the bands' closed-form moments), log-log,
// a line for the panel that spends budget (the exact GP, a closed form,
// spends none: it is what the line is measured against). Its values are
// finite and positive, fall (the last below a tenth of the first), and
// from 1,000 evaluations on are within the headless race's bound of 0.01
// exact sds (the same deterministic optimiser: measured 0.002 there;
// here it falls from about 50 at the first band to about 1e-12 by 3,000);
// its sd error is charted too. The link then says pace=grads, and the state link made
// while racing reopens armed: Play races the panels again by gradients.
// The gallery opened with pace=cpu races by CPU seconds when played.
func TestBrowserRaceGP(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.EmulateViewport(1280, 720))
	page := "/play?data=gap&methods=gp-exact,gpvi&seed=1&gp-exact.learn_noise=0&gpvi.learn_noise=0"
	b.do(chromedp.Navigate(b.url + page))
	b.wait(`window.playground?.race && playground.panels.every(p => p.runId && p.frames > 0 && p.band?.f_mean)`, 30*time.Second)
	if m := b.eval(`document.querySelector("[data-role=race-measure]").value`); m != "mean_error" {
		t.Errorf("beside the exact GP the race charts %q first, want mean_error", m)
	}
	b.do(chromedp.Click(chromedp.CSS(`[data-role=race]`)))
	b.wait(`playground.race.paced === "grads" && playground.race.chart.lines.get("gpvi")?.pts.some(p => p[0] >= 3000)`, 90*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all=pause]`)))

	lines := b.raceLines("playground")
	if len(lines) != 1 {
		t.Fatalf("the chart has %d lines, want one, the variational GP's: %v", len(lines), lines)
	}
	pts := lines["gpvi"].Pts
	if len(pts) < 5 {
		t.Fatalf("the variational GP's line has %d points", len(pts))
	}
	for i, p := range pts {
		if !(p[0] > 0) || !(p[1] > 0) || math.IsInf(p[1], 0) {
			t.Fatalf("point %d of the line is (%g, %g): not a finite positive error at a positive budget", i, p[0], p[1])
		}
		if i > 0 && p[0] <= pts[i-1][0] {
			t.Fatalf("point %d's budget %g is not past the one before (%g)", i, p[0], pts[i-1][0])
		}
		if p[0] >= 1000 && p[1] > 0.01 {
			t.Errorf("at %g evaluations the mean error is %.3g exact sds, over the race's 0.01", p[0], p[1])
		}
	}
	if first, last := pts[0][1], pts[len(pts)-1][1]; !(last < first/10) {
		t.Errorf("the mean error went from %.3g to %.3g: not falling", first, last)
	}
	t.Logf("mean error: %.3g at %g evaluations, %.3g at %g", pts[0][1], pts[0][0], pts[len(pts)-1][1], pts[len(pts)-1][0])
	if n := b.evalInt(`playground.race.chart.note.length`); n == 0 {
		t.Error("the chart does not say what the error is against")
	}
	b.shot("race-gp-1280")
	b.elementShot("race-gp-chart-1280", "section.race")
	b.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	b.eval(`playground.race.redraw(), ""`)
	b.shot("race-gp-390")
	b.elementShot("race-gp-chart-390", "section.race")
	b.eval(`(() => { const m = document.querySelector("[data-role=race-measure]"); m.value = "sd_error"; m.dispatchEvent(new Event("change")); return ""; })()`)
	if sd := b.raceLines("playground")["gpvi"].Pts; len(sd) < 5 || !(sd[len(sd)-1][1] < sd[0][1]) {
		t.Errorf("the sd error's line: %v", sd)
	}
	b.do(chromedp.EmulateViewport(1280, 720))

	// The links made while racing carry the pace; the state link reopens
	// armed, and Play races.
	if href := b.eval(`location.href`); !strings.Contains(href, "pace=grads") {
		t.Errorf("the racing page's link %s has no pace=grads", href)
	}
	b.do(chromedp.Click(chromedp.CSS(`#copy-state-link`)))
	link := b.waitString(`document.getElementById("toolbar-status").dataset.link ?? ""`, 10*time.Second)
	if !strings.Contains(link, "pace=grads") || !strings.Contains(link, "gpvi.replay=") {
		t.Fatalf("the state link %s lacks pace=grads or the replay", link)
	}
	b.do(chromedp.Navigate(link))
	b.wait(`window.playground?.race && playground.panels.every(p => p.runId && p.frames > 0)`, 30*time.Second)
	if armed := b.eval(`playground.race.armed + " " + document.querySelector("[data-role=race-unit]").value`); armed != "grads grads" {
		t.Errorf("the state link reopened with race armed and unit %q, want grads", armed)
	}
	b.do(chromedp.Click(chromedp.CSS(`[data-all=play]`)))
	b.wait(`playground.race.paced === "grads" && !playground.race.armed && playground.race.chart.points() > 2`, 60*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all=pause]`)))

	b.do(chromedp.Navigate(b.url + "/gallery?target=funnel&methods=nuts,mfvi&pace=cpu"))
	b.wait(`window.galleryPage?.panels.length === 2 && galleryPage.panels.every(p => p.run && p.frames > 0)`, 30*time.Second)
	if armed := b.eval(`galleryPage.race.armed`); armed != "cpu" {
		t.Errorf("the gallery opened with pace=cpu has its race armed by %q", armed)
	}
	b.do(chromedp.Click(chromedp.CSS(`[data-role=play]`)))
	b.wait(`galleryPage.race.paced === "cpu" && location.search.includes("pace=cpu") && galleryPage.race.samples.size === 2`, 60*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-role=pause]`)))
}
