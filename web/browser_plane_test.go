package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

// planeSizes are the viewports the plane view must read at: a projector's
// and a phone's.
var planeSizes = []planeSize{{"1280x720", 1280, 720, 1}, {"390x844", 390, 844, 1}}

// planeSize is a viewport in CSS pixels and its device pixel ratio.
type planeSize struct {
	name string
	w, h int
	dpr  float64
}

// openPlane opens the plane view's harness (static/app/plane_bench.html)
// at a viewport with a query, and waits for its first paint.
func (b *browser) openPlane(s planeSize, query string) {
	b.t.Helper()
	if s.w < 500 {
		b.do(chromedp.EmulateViewport(int64(s.w), int64(s.h), chromedp.EmulateScale(s.dpr), chromedp.EmulateMobile))
	} else {
		b.do(chromedp.EmulateViewport(int64(s.w), int64(s.h), chromedp.EmulateScale(s.dpr)))
	}
	b.do(chromedp.Navigate(b.url + "/static/app/plane_bench.html?" + query))
	b.wait(`window.planeBench?.ready && planeBench.paints > 0`, 20*time.Second)
}

// TestBrowserPlaneView draws the synthetic banana with 20,000 draws and a
// NUTS tree (whole, half revealed under a Gaussian q's contours, in
// presentation type), a rejected Metropolis proposal and a divergent HMC
// path at both viewports, checks that the canvas is inked and the key
// names what is drawn, that a slow-motion reveal advances and restarts,
// and saves screenshots to look at.
func TestBrowserPlaneView(t *testing.T) {
	b := startBrowserTest(t)
	for _, s := range planeSizes {
		for _, q := range []struct{ name, query, says string }{
			{"tree", "freeze=all", "nuts: its tree of 32 leapfrog points"},
			{"half-revealed", "freeze=14&q=1", "purple lines: q's regions"},
			{"present", "freeze=all&present=1", "nuts: its tree of 32 leapfrog points"},
			{"metropolis-rejected", "freeze=all&kind=metropolis", "red, dashed: rejected"},
			{"hmc-divergent", "freeze=all&kind=hmc", "red cross: where the energy error blew up"},
			{"svgd", "freeze=all&svgd=1", "purple dots: 100 SVGD particles"},
		} {
			b.openPlane(s, q.query)
			// A blank plot has no ink; the shaded density alone covers
			// well over a tenth of the canvas.
			area := b.evalInt(`planeBench.view.canvas.width * planeBench.view.canvas.height`)
			if ink := b.evalInt(`planeBench.ink()`); ink < area/10 {
				t.Errorf("%s %s: %d of %d pixels inked; the plane looks blank", s.name, q.name, ink, area)
			}
			if got := b.eval(`document.getElementById("plane").dataset.revealed`); q.name == "half-revealed" && got != "14" {
				t.Errorf("%s: %s points revealed, want 14", q.name, got)
			}
			key := b.eval(`document.getElementById("key").textContent`)
			wants := []string{"20000 draws in 4 chain colours", q.says, "2 divergences so far"}
			if q.name == "svgd" {
				wants = wants[1:]
			}
			for _, want := range wants {
				if !strings.Contains(key, want) {
					t.Errorf("%s: the key %q does not say %q", q.name, key, want)
				}
			}
			b.shot(fmt.Sprintf("plane-%s-%s", s.name, q.name))
		}
	}
	// Slow motion: the tree's points come one by one, and the reveal
	// starts over once it has shown all 32.
	b.openPlane(planeSizes[0], "rate=60")
	b.wait(`Number(document.getElementById("plane").dataset.revealed) >= 20`, 10*time.Second)
	b.wait(`Number(document.getElementById("plane").dataset.revealed) < 10`, 10*time.Second)
	b.shot("plane-1280x720-animating")
}

// BenchmarkBrowserPlane animates the harness's NUTS tree point by point
// over the banana with 20,000 draws for 5 s at each viewport, in three
// modes: "tree", where the base (contours, draws, histograms, axes) is
// kept as an image and each animation frame repaints the tree over it;
// "stream25", where new frames come 25 times a second, the engine's
// default rate, and the base with its 20,000 draws is drawn again for
// each; and "everyframe", a new frame on every animation frame. It
// reports the frames per second the page got (its requestAnimationFrame
// ticks), the main thread's busy share (the growth of Chromium's
// TaskDuration over the wall time, as in
// BenchmarkBrowserMainThreadVIvsMCMC), the main thread's CPU time a frame
// takes at 50 frames/s (busy-ms/frame, traced as in
// BenchmarkBrowserGallery: on a loaded machine the wall time of a paint
// counts the other processes' turns too, this does not), all the
// browser's processes' CPU time in percent of a core, and the wall time
// of one paint. Run alone with -benchtime 1x.
func BenchmarkBrowserPlane(b *testing.B) {
	br := startBrowserTest(b)
	// and a phone's screen at its device pixel ratio of 3 (the view draws
	// at 2: four times the pixels)
	for _, s := range append(planeSizes, planeSize{"390x844@3", 390, 844, 3}) {
		for _, mode := range []struct{ name, query string }{{"tree", "rate=24"}, {"stream25", "rate=24&stream=25"}, {"everyframe", "rate=24&stream=raf"}} {
			b.Run(s.name+"-"+mode.name, func(b *testing.B) {
				br.openPlane(s, mode.query)
				if _, err := chromedp.Run(br.ctx, func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error) {
					return cdp.Call(ctx, t, performance.Enable, performance.EnableParams{})
				}); err != nil {
					b.Fatal(err)
				}
				br.eval(markBases(`[planeBench.view]`))
				time.Sleep(time.Second) // past the first paint's contour tracing
				var fps, busy, cpu, all, paint float64
				for range b.N {
					ms0, n0 := br.evalFloat(`planeBench.paintMs`), br.evalFloat(`planeBench.paints`)
					bases0 := br.evalFloat(`planeBench.bases()`)
					c0 := br.readClocks(b, `planeBench.ticks`)
					time.Sleep(5 * time.Second)
					c1 := br.readClocks(b, `planeBench.ticks`)
					wall, ticks := c1.at.Sub(c0.at).Seconds(), max(c1.ticks-c0.ticks, 1)
					ms, n := br.evalFloat(`planeBench.paintMs`)-ms0, br.evalFloat(`planeBench.paints`)-n0
					bases := br.evalFloat(`planeBench.bases()`) - bases0
					tr := br.traceMainThread(b, 5*time.Second, "bench-base") // after: tracing costs frames
					fps += ticks / wall
					busy += 100 * (c1.task - c0.task) / wall
					cpu += tr.at(50)
					all += 100 * (c1.all - c0.all) / wall
					paint += ms / max(n, 1)
					b.Logf("%s %s: %.1f frames/s, main thread busy %.0f%%, its CPU %.1f ms a frame at 50/s (%.1f a tick as measured), all the browser's CPU %.0f%% of a core, %.1f ms (wall) a paint; %.0f paints, %.0f bases drawn",
						s.name, mode.name, ticks/wall, 100*(c1.task-c0.task)/wall, tr.at(50), 1000*(c1.thread-c0.thread)/ticks, 100*(c1.all-c0.all)/wall, ms/max(n, 1), n, bases)
				}
				k := float64(b.N)
				b.ReportMetric(fps/k, "frames/s")
				b.ReportMetric(busy/k, "busy-%")
				b.ReportMetric(cpu/k, "busy-ms/frame")
				b.ReportMetric(all/k, "browser-cpu-%")
				b.ReportMetric(paint/k, "ms/paint")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

func planeMetric(b testing.TB, br *browser, name string) float64 {
	v, err := chromedp.Run(br.ctx, func(ctx context.Context, t *chromedp.Target) (float64, error) {
		res, err := cdp.Call(ctx, t, performance.GetMetrics, cdp.Empty{})
		if err != nil {
			return 0, err
		}
		for _, m := range res.Metrics {
			if m.Name == name {
				return m.Value, nil
			}
		}
		return 0, fmt.Errorf("no metric %s", name)
	})
	if err != nil {
		b.Fatal(err)
	}
	return v
}
