package web_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserDataEdit edits the headline scenario's data with the mouse, as
// a person would, at 1280×720: a click adds a point, a drag moves one,
// Alt-click and right-click remove one each, a Shift-drag carves a gap.
// After each edit every panel's run has the page's points (the server's
// own copy, GET /api/runs/{id}), each edit is a change mark, the runs
// carried on from their step (mfvi and gip take new data live), and the
// link holds the edit. The band at the carved region responds: GIP's band
// there grows wider than beside it once it trains on the carved data. A dragged GIP inducing
// marker moves that input in the running optimiser. Reset data restores
// the data set; the edited link reopens with the edited points.
func TestBrowserDataEdit(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.EmulateViewport(1280, 720))
	b.open("/play?scenario=mfvi-vs-gip-gap", 2)
	base := b.evalInt(`playground.config.points.x.length`)

	b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	b.wait(`playground.panels.every(p => p.step >= 300 && p.band)`, 60*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all="pause"]`)))
	b.wait(`playground.panels.every(p => p.status === "paused")`, 10*time.Second)
	b.viewShot("dataedit-before-1280")

	// Add: a click in the gap, on empty plot.
	steps := b.steps()
	b.click("gip", 0.5, 5)
	b.edited(base+1, 1)
	if now := b.steps(); now["gip"] < steps["gip"] || now["mfvi"] < steps["mfvi"] {
		t.Errorf("steps went from %v to %v: the runs restarted instead of taking the new data", steps, now)
	}
	if !strings.Contains(b.eval(`location.search`), "edit=") {
		t.Errorf("the link has no edit: %s", b.eval(`location.search`))
	}
	// The claim is about the scenario's data: not checked on edited data.
	b.wait(`document.querySelector("#claim-status").dataset.holds === "edited"`, 5*time.Second)

	// Move: drag the data set's point 0 to (−1, −10).
	x0, y0 := b.point(0)
	b.drag("mfvi", x0, y0, -1, -10, 0)
	b.edited(base+1, 2)
	if n := b.evalInt(`playground.config.points.x.filter((x, i) => Math.abs(x + 1) < 0.05 && Math.abs(playground.config.points.y[i] + 10) < 1).length`); n != 1 {
		t.Errorf("no point at (−1, −10) after the drag")
	}

	// Remove: Alt-click one point, right-click another.
	x1, y1 := b.point(3)
	b.click("gip", x1, y1, chromedp.ButtonModifiers(chromedp.ModifierAlt))
	b.edited(base, 3)
	x2, y2 := b.point(5)
	b.click("mfvi", x2, y2, chromedp.ButtonRight)
	b.edited(base-1, 4)

	// Carve a gap: Shift-drag over x ∈ [2.5, 3.5] in the right cluster.
	carved := b.evalInt(`playground.config.points.x.filter(x => x >= 2.5 && x <= 3.5).length`)
	if carved < 5 {
		t.Fatalf("only %d points in [2.5, 3.5] to carve", carved)
	}
	ratioBefore := b.gapRatio()
	b.drag("gip", 2.5, 0, 3.5, 0, chromedp.ModifierShift)
	b.edited(base-1-carved, 5)
	if n := b.evalInt(`playground.config.points.x.filter(x => x >= 2.52 && x <= 3.48).length`); n != 0 {
		t.Errorf("%d points left in the carved range", n)
	}
	b.viewShot("dataedit-carved-1280")

	// The band responds: GIP trains on, and its band at the carved
	// region's centre (x = 3) grows wider than at the data left either
	// side of it (x = 2.25 and 3.75), where before the carving it was about
	// as narrow.
	b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	// Bands are drawn from 20 sampled functions, so one band's width is
	// uncertain by about 1/√(2·19) ≈ 16%: the ratio must hold on five
	// successive bands, not once.
	ok := b.settle(`(() => { const p = playground.panels.find(p => p.method === "gip"); const s = (window.gapSeen ??= {band: null, run: 0});
		if (p.band === s.band) return false; s.band = p.band;
		const w = (x) => { const i = p.band.x.reduce((b, v, k) => Math.abs(v - x) < Math.abs(p.band.x[b] - x) ? k : b, 0); return p.band.hi[i] - p.band.lo[i]; };
		s.run = w(3) > 1.3 * Math.max(w(2.25), w(3.75)) ? s.run + 1 : 0; return s.run >= 5; })()`, 40*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all="pause"]`)))
	b.wait(`playground.panels.every(p => p.status === "paused")`, 10*time.Second)
	ratioAfter := b.gapRatio()
	t.Logf("GIP's band width at x = 3 over its width at the data either side: %.3g before carving, %.3g after training on the carved data (step %d)", ratioBefore, ratioAfter, b.steps()["gip"])
	if !ok {
		t.Errorf("GIP's band at the carved region x = 3 did not grow to 1.3 times its width at the data beside it on five successive bands within 40 s: ratio %.3g → %.3g", ratioBefore, ratioAfter)
	}
	b.viewShot("dataedit-responds-1280")

	// Drag a GIP inducing marker (the topmost at the first one's place:
	// they overlap) to x = 0.
	b.wait(`playground.panels.find(p => p.method === "gip").views.get("inducing")?.x.length > 0`, 10*time.Second)
	i := b.dragMarker(0)
	b.wait(`playground.panels.find(p => p.method === "gip").serverMarks.some(m => m.name === "inducing input")`, 10*time.Second)
	if !b.settle(fmt.Sprintf(`Math.abs(playground.panels.find(p => p.method === "gip").views.get("inducing").x[%d]) < 0.15`, i), 10*time.Second) {
		t.Errorf("inducing input %d at %s after the drag to 0; marks %s", i, b.eval(fmt.Sprintf(`playground.panels.find(p => p.method === "gip").views.get("inducing").x[%d]`, i)), b.eval(`JSON.stringify(playground.panels.find(p => p.method === "gip").serverMarks)`))
	}
	b.viewShot("dataedit-inducing-1280")

	// The edited link reopens with the edited points on every run.
	link := b.eval(`location.href`)
	n := b.evalInt(`playground.config.points.x.length`)
	b.do(chromedp.Navigate(link))
	b.wait(fmt.Sprintf(`window.playground && playground.panels.every(p => p.frames > 0) && playground.config.points.x.length === %d`, n), 30*time.Second)
	b.serverPoints(n)
	b.wait(`document.querySelector("#claim-status").dataset.holds === "edited"`, 5*time.Second)

	// Reset data restores the data set in the page, the runs and the link.
	b.do(chromedp.Click(chromedp.CSS(`#reset-data`)))
	b.wait(fmt.Sprintf(`playground.config.points.x.length === %d && !location.search.includes("edit=")`, base), 10*time.Second)
	b.serverPoints(base)
	b.wait(`document.querySelector("#claim-status").dataset.holds !== "edited"`, 5*time.Second)
}

// steps is each panel's step.
func (b *browser) steps() map[string]int {
	b.t.Helper()
	var m map[string]int
	if err := json.Unmarshal([]byte(b.eval(`JSON.stringify(Object.fromEntries(playground.panels.map(p => [p.method, p.step])))`)), &m); err != nil {
		b.t.Fatal(err)
	}
	return m
}

func (b *browser) evalFloat(js string) float64 {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// px is where (x, y) of a panel's predictive plot is on the page.
func (b *browser) px(method string, x, y float64) (float64, float64) {
	b.t.Helper()
	v := b.floats(fmt.Sprintf(`(() => { const u = playground.panels.find(p => p.method === %q).predictive.u; const r = u.over.getBoundingClientRect();
		return [r.left + u.valToPos(%g, "x"), r.top + u.valToPos(%g, "y")]; })()`, method, x, y))
	return v[0], v[1]
}

func (b *browser) floats(js string) []float64 {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]float64](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// point is the page's point i.
func (b *browser) point(i int) (float64, float64) {
	v := b.floats(fmt.Sprintf(`[playground.config.points.x[%d], playground.config.points.y[%d]]`, i, i))
	return v[0], v[1]
}

func (b *browser) click(method string, x, y float64, opts ...chromedp.MouseOption) {
	b.t.Helper()
	px, py := b.px(method, x, y)
	b.do(chromedp.MouseClickXY(px, py, opts...))
}

// drag presses at (x0, y0) of a panel's plot, moves in steps to (x1, y1)
// and releases, with modifiers held.
func (b *browser) drag(method string, x0, y0, x1, y1 float64, mods chromedp.Modifier) {
	b.t.Helper()
	ax, ay := b.px(method, x0, y0)
	bx, by := b.px(method, x1, y1)
	b.dragPx(ax, ay, bx, by, mods)
}

func (b *browser) dragPx(ax, ay, bx, by float64, mods chromedp.Modifier) {
	b.t.Helper()
	m := chromedp.ButtonModifiers(mods)
	b.do(chromedp.MouseEvent(chromedp.MousePressed, ax, ay, chromedp.ButtonLeft, chromedp.ClickCount(1), m))
	for k := 1; k <= 8; k++ {
		f := float64(k) / 8
		b.do(chromedp.MouseEvent(chromedp.MouseMoved, ax+f*(bx-ax), ay+f*(by-ay), chromedp.ButtonLeft, m))
	}
	b.do(chromedp.MouseEvent(chromedp.MouseReleased, bx, by, chromedp.ButtonLeft, chromedp.ClickCount(1), m))
}

// dragMarker drags the GIP inducing marker on top at marker 0's place to
// x = to and returns its index.
func (b *browser) dragMarker(to float64) int {
	b.t.Helper()
	v := b.floats(`(() => { const r = document.querySelector('#panel-gip .inducing-marker[data-i="0"]').getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height * 0.7;
		return [x, y, Number(document.elementFromPoint(x, y).dataset.i)]; })()`)
	tx, _ := b.px("gip", to, 0)
	b.dragPx(v[0], v[1], tx, v[1], 0)
	return int(v[2])
}

// edited waits until the page shows n points, every panel's run has them
// (the server's copy) and has recorded `marks` data change marks.
func (b *browser) edited(n, marks int) {
	b.t.Helper()
	b.wait(fmt.Sprintf(`playground.config.points.x.length === %d && playground.panels.every(p => p.serverMarks.filter(m => m.name === "data").length === %d)`, n, marks), 15*time.Second)
	b.serverPoints(n)
}

// serverPoints checks every run's own data (GET /api/runs/{id}) against
// the page's points.
func (b *browser) serverPoints(n int) {
	b.t.Helper()
	js := `Promise.all(playground.panels.map(p => fetch("/api/runs/" + p.runId).then(r => r.json()))).then(rs => JSON.stringify(rs.map(r => ({x: r.data.x, y: r.data.y}))))`
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatal(err)
	}
	var runs []struct{ X, Y []float64 }
	if err := json.Unmarshal([]byte(got), &runs); err != nil {
		b.t.Fatal(err)
	}
	page := b.floats(`[...playground.config.points.x, ...playground.config.points.y]`)
	for i, r := range runs {
		if len(r.X) != n {
			b.t.Errorf("run %d has %d points, the page %d", i, len(r.X), n)
			continue
		}
		for k := range r.X {
			if math.Abs(r.X[k]-page[k]) > 1e-9*(1+math.Abs(page[k])) || math.Abs(r.Y[k]-page[n+k]) > 1e-9*(1+math.Abs(page[n+k])) {
				b.t.Errorf("run %d point %d is (%g, %g), the page's (%g, %g)", i, k, r.X[k], r.Y[k], page[k], page[n+k])
				break
			}
		}
	}
}

// gapRatio is GIP's band width at x = 3 over the larger of its widths at
// x = 2.25 and 3.75.
func (b *browser) gapRatio() float64 {
	return b.bandWidth("gip", 3) / max(b.bandWidth("gip", 2.25), b.bandWidth("gip", 3.75))
}

// bandWidth is a panel's band width (hi − lo) at the grid point nearest x.
func (b *browser) bandWidth(method string, x float64) float64 {
	b.t.Helper()
	return b.evalFloat(fmt.Sprintf(`(() => { const p = playground.panels.find(p => p.method === %q); const i = p.band.x.reduce((b, x, k) => Math.abs(x - %g) < Math.abs(p.band.x[b] - %g) ? k : b, 0); return p.band.hi[i] - p.band.lo[i]; })()`, method, x, x))
}
