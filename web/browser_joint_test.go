package web_test

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserJointVIvsMCMC plays "VI vs MCMC" and checks its point: every
// panel draws the joint (b0, b) view over the exact posterior's contours
// and the exact predictive band on its predictive plot; the VI panels draw
// a 2σ ellipse and a table against the exact values, mean-field's sds about
// √(1 − ρ²) ≈ 0.5 of the exact ones and GIP's tilted; HMC draws its draws.
func TestBrowserJointVIvsMCMC(t *testing.T) {
	b := startBrowserTest(t)
	b.openScenario("vi-vs-mcmc", "hmc", 3, "")
	b.wait(`playground.panels.every(p => p.status === "paused")`, 20*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	// HMC's warm-up replays in its joint view: the chains' paths from their
	// starts, five transitions a second at first (static/app/joint_data.js),
	// while the run itself has long finished them.
	cv := `document.querySelector("#panel-hmc [data-role=joint-canvas]")`
	b.wait(cv+`.dataset.replayed !== undefined`, 20*time.Second)
	r1 := b.evalInt(`+` + cv + `.dataset.replayed`)
	start := time.Now()
	time.Sleep(time.Second)
	r2 := b.evalInt(`+` + cv + `.dataset.replayed`)
	el := time.Since(start).Seconds()
	b.elementShot("joint-0-hmc-warmup-replay", `#panel-hmc [data-plot=joint]`)
	t.Logf("warm-up replay at transition %d, %.1f s later %d; HMC at step %d", r1, el, r2, b.evalInt(`playground.panels.find(p => p.method === "hmc").step`))
	// Five transitions a second, drawn on animation frames that a busy
	// main thread may delay: at most 5·elapsed + 3 further, and some.
	if !(r1 < 20 && r2 > r1 && float64(r2-r1) <= 5*el+3) {
		t.Errorf("warm-up replay went from transition %d to %d in %.1f s; want a slow replay (5 a second)", r1, r2, el)
	}
	// Mean-field needs a few thousand steps for its sds; HMC a few hundred draws.
	b.wait(`playground.panels.every(p => p.step > 4000 && p.views.get("joint")?.j)`, 60*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all="pause"]`)))
	b.wait(`playground.panels.every(p => p.status === "paused")`, 10*time.Second)
	time.Sleep(500 * time.Millisecond) // the paused run's last frame and draw (nothing signals it)
	b.shot("joint-1-vi-vs-mcmc")
	for _, m := range []string{"mfvi", "gip", "hmc"} {
		sel := `#panel-` + m + ` [data-role=joint-canvas]`
		if n := b.ink(sel); n < 300 {
			t.Errorf("%s: joint view has %d coloured pixels; it looks blank", m, n)
		}
		if e := b.eval(`document.querySelector("` + sel + `").dataset.exact`); e != "drawn" {
			t.Errorf("%s: exact contours not drawn (%q)", m, e)
		}
		if e := b.eval(`document.querySelector("#panel-` + m + `").dataset.exactBand ?? ""`); e != "drawn" {
			t.Errorf("%s: exact predictive band not drawn (%q)", m, e)
		}
		b.elementShot("joint-2-"+m, `#panel-`+m+` [data-plot=joint]`)
		b.elementShot("joint-3-predictive-"+m, `#panel-`+m+` [data-plot=predictive]`)
		t.Logf("%s: %s", m, b.eval(`document.querySelector("#panel-`+m+` [data-role=joint-table]").textContent`))
	}
	for _, m := range []string{"mfvi", "gip"} {
		if e := b.eval(`document.querySelector("#panel-` + m + ` [data-role=joint-canvas]").dataset.ellipse`); e != "drawn" {
			t.Errorf("%s: no 2σ ellipse (%q)", m, e)
		}
		if n := b.evalInt(`document.querySelectorAll("#panel-` + m + ` [data-role=joint-table] tbody tr").length`); n != 3 {
			t.Errorf("%s: joint table has %d rows, want b0, b and σ", m, n)
		}
	}
	// The warm-up replay (10 s) ends with HMC's latest draws.
	if !b.settle(`+document.querySelector("#panel-hmc [data-role=joint-canvas]").dataset.draws >= 100`, 20*time.Second) {
		t.Errorf("hmc: %s draws in the joint view, 20 s after pausing", b.eval(`document.querySelector("#panel-hmc [data-role=joint-canvas]").dataset.draws`))
	}
	// Mean-field's sd / exact sd is √(1 − ρ²) ≈ 0.48 here once trained
	// (sim/mfvi's TestLinearFixedNoiseJoint holds it to 3%); in the page,
	// after a few thousand steps at lr 0.01 Adam still fluctuates: accept
	// 0.35–0.65, which no exact-width fit (1) can pass.
	ratio := b.eval(`(() => { const j = playground.panels.find(p => p.method === "mfvi").views.get("joint").j;
		return String(Math.sqrt(j.gaussian.cov[1][1] / j.exact.cov[1][1])); })()`)
	gipCorr := b.eval(`(() => { const j = playground.panels.find(p => p.method === "gip").views.get("joint").j;
		const g = j.gaussian; return String(g.cov[0][1] / Math.sqrt(g.cov[0][0] * g.cov[1][1])); })()`)
	t.Logf("mean-field slope sd / exact: %s; GIP's correlation %s", ratio, gipCorr)
	if r := parseF(ratio); !(r > 0.35 && r < 0.65) {
		t.Errorf("mean-field's slope sd is %v of the exact one; want about √(1−ρ²) ≈ 0.48", r)
	}
	if r := parseF(gipCorr); !(r < -0.6) {
		t.Errorf("GIP's ellipse correlation %v; want tilted like the exact posterior (≈ −0.87)", r)
	}
}

func parseF(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return v
}
