package web_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// BenchmarkBrowserGallery measures the gallery page itself, as a lecturer
// has it: NUTS beside mean-field VI on the banana, playing, NUTS's panel
// holding its 20,000 draws, slow motion on so that each tree is revealed
// point by point while new frames (25 a second) redraw the draws. At a
// projector's viewport and a phone's, over 5 s (and 5 s more traced), it
// reports:
//
//   - frames/s: the page's requestAnimationFrame ticks over the wall time;
//   - busy-ms/frame: the main thread's CPU time a frame takes at 50
//     frames/s, from a trace of its tasks (each task's thread time): an
//     animation frame's own work, and a fiftieth of a second's work that
//     comes with the stream rather than with the frames (the planes'
//     bases redrawn, told apart by a fit over the traced frames, and the
//     other tasks: the stream's frames read, timers); see
//     mainThreadCost.at. This is the honest figure on a loaded machine,
//     where the page waits for a core and its frame rate says more about
//     the other processes than about the page: below 20 ms, 50 frames/s
//     are within one idle core's reach;
//   - browser-cpu-%: all of Chromium's processes' CPU time (the
//     compositor's and the display's too, from /proc) over the wall time,
//     in percent of one core;
//   - busy-%: the main thread's task time (TaskDuration, wall) over the
//     wall time.
//
// It logs the main thread's CPU time per tick as measured too (ThreadTime
// over the ticks: the per-second work falls on fewer ticks when the load
// slows the page, so it is above the figure at 50 frames/s), and the
// wall time the panels' own drawing and message handling took per tick,
// timed inside the page (counting the other processes' turns).
//
// Run alone with -benchtime 1x; the page shares the machine with the
// server stepping both runs.
func BenchmarkBrowserGallery(b *testing.B) {
	br := startBrowserTest(b)
	for _, s := range planeSizes {
		b.Run(s.name, func(b *testing.B) {
			br.do(chromedp.EmulateViewport(int64(s.w), int64(s.h), chromedp.EmulateScale(s.dpr)))
			br.do(chromedp.Navigate(br.url + "/gallery?target=banana&methods=nuts,mfvi"))
			br.wait(`window.galleryPage?.panels.every(p => p.exact && p.frames > 0)`, 60*time.Second)
			br.do(chromedp.Click(chromedp.CSS(`[data-role=play]`)))
			br.wait(`galleryPage.panels[0].draws.count >= 20000`, 300*time.Second)
			br.do(chromedp.Click(chromedp.CSS(`[data-role=slow]`)))
			br.eval(`window.benchTicks = 0; (function tick() { benchTicks++; requestAnimationFrame(tick); })(), true`)
			br.eval(timeGalleryDrawing())
			if _, err := chromedp.Run(br.ctx, func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error) {
				return cdp.Call(ctx, t, performance.Enable, performance.EnableParams{})
			}); err != nil {
				b.Fatal(err)
			}
			time.Sleep(time.Second)
			if os.Getenv("GALLERY_PROFILE") != "" { // where the main thread's time goes
				profileGallery(b, br, 5*time.Second)
			}
			var fps, busy, main, all float64
			for range b.N {
				// first untraced (tracing costs the browser CPU time and
				// frames), then traced for the frames' CPU time
				reveals0, draw0 := br.evalFloat(`galleryPage.panels[0].view.draws`), br.evalFloat(`benchDrawMs`)
				c0 := br.readClocks(b, `benchTicks`)
				time.Sleep(5 * time.Second)
				c1 := br.readClocks(b, `benchTicks`)
				paints := br.evalFloat(`galleryPage.panels[0].view.draws`) - reveals0
				drawMs := br.evalFloat(`benchDrawMs`) - draw0
				tr := br.traceMainThread(b, 5*time.Second, "bench-base")
				wall, ticks := c1.at.Sub(c0.at).Seconds(), max(c1.ticks-c0.ticks, 1)
				fps += ticks / wall
				main += tr.at(50)
				all += 100 * (c1.all - c0.all) / wall
				busy += 100 * (c1.task - c0.task) / wall
				b.Logf("%s: %.1f frames/s; main thread's CPU %.1f ms a frame at 50/s (%d frames traced, %.0f ms a second besides), %.1f ms a tick as measured (%.0f ms a second); all the browser's CPU %.0f%% of a core; the panels' drawing %.1f ms (wall) a tick; NUTS's plane painted %.0f times, %d draws held",
					s.name, ticks/wall, tr.at(50), tr.frames(), tr.restCPU/tr.wall,
					1000*(c1.thread-c0.thread)/ticks, 1000*(c1.thread-c0.thread)/wall, 100*(c1.all-c0.all)/wall, drawMs/ticks, paints, br.evalInt(`galleryPage.panels[0].draws.count`))
				if os.Getenv("GALLERY_PROFILE") != "" {
					logInFrames(b, tr)
				}
			}
			br.do(chromedp.Click(chromedp.CSS(`[data-role=pause]`)))
			k := float64(b.N)
			b.ReportMetric(fps/k, "frames/s")
			b.ReportMetric(main/k, "busy-ms/frame")
			b.ReportMetric(all/k, "browser-cpu-%")
			b.ReportMetric(busy/k, "busy-%")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// timeGalleryDrawing wraps each panel's plane paint and socket handler
// (the frame's JSON parsed and read) in a clock, summed in benchDrawMs,
// and marks each base drawn (markBases).
func timeGalleryDrawing() string {
	return `window.benchDrawMs = 0;
for (const p of galleryPage.panels) {
	const timed = (f) => function (...args) {
		const t0 = performance.now();
		try { return f.apply(this, args); } finally { benchDrawMs += performance.now() - t0; }
	};
	p.view.paint = timed(p.view.paint);
	if (p.ws) p.ws.onmessage = timed(p.ws.onmessage);
}
` + markBases(`galleryPage.panels.map((p) => p.view)`)
}

// markBases is JavaScript that marks, as the user timing mark
// "bench-base", each paint of the plane views (an expression for an
// array of them) that drew its base afresh: the work that comes with the
// stream's frames, not with the animation frames, for traceMainThread.
func markBases(views string) string {
	return `for (const v of ` + views + `) {
	const paint = v.paint;
	v.paint = function (...args) {
		const n = v.baseDraws;
		try { return paint.apply(this, args); } finally { if (v.baseDraws !== n) performance.mark("bench-base"); }
	};
}
true`
}

// profileGallery samples the page's JavaScript for d and logs the
// functions with the most self time: an experiment's tool
// (GALLERY_PROFILE=1), not a measure.
func profileGallery(b *testing.B, br *browser, d time.Duration) {
	prof, err := chromedp.Run(br.ctx, func(ctx context.Context, t *chromedp.Target) (*profiler.Profile, error) {
		if _, err := cdp.Call(ctx, t, profiler.Enable, cdp.Empty{}); err != nil {
			return nil, err
		}
		if _, err := cdp.Call(ctx, t, profiler.Start, cdp.Empty{}); err != nil {
			return nil, err
		}
		time.Sleep(d)
		res, err := cdp.Call(ctx, t, profiler.Stop, cdp.Empty{})
		return res.Profile, err
	})
	if err != nil {
		b.Fatal(err)
	}
	byID := map[int64]*profiler.ProfileNode{}
	for _, n := range prof.Nodes {
		byID[n.ID] = n
	}
	self := map[string]float64{}
	var total float64
	for i, id := range prof.Samples {
		if i >= len(prof.TimeDeltas) {
			break
		}
		n := byID[id]
		ms := float64(prof.TimeDeltas[i]) / 1000
		total += ms
		key := fmt.Sprintf("%s %s:%d", n.CallFrame.FunctionName, n.CallFrame.URL, n.CallFrame.LineNumber+1)
		self[key] += ms
	}
	keys := make([]string, 0, len(self))
	for k := range self {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, c string) int { return int(self[c]*1000 - self[a]*1000) })
	for _, k := range keys[:min(25, len(keys))] {
		b.Logf("%6.0f ms %4.1f%% %s", self[k], 100*self[k]/total, k)
	}
}
