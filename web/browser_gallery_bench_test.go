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
// projector's viewport and a phone's, it reports the frames per second
// the page got (its requestAnimationFrame ticks), the main thread's busy
// share (Chromium's TaskDuration growth over the wall time) and its CPU
// time per frame (ThreadTime's growth over the ticks), over 5 s. Run
// alone with -benchtime 1x; the page shares the machine with the server
// stepping both runs.
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
			if _, err := chromedp.Run(br.ctx, func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error) {
				return cdp.Call(ctx, t, performance.Enable, performance.EnableParams{})
			}); err != nil {
				b.Fatal(err)
			}
			time.Sleep(time.Second)
			if os.Getenv("GALLERY_PROFILE") != "" { // where the main thread's time goes
				profileGallery(b, br, 5*time.Second)
			}
			const window = 5 * time.Second
			var fps, busy, cpu float64
			for range b.N {
				task0, thread0, ticks0 := planeMetric(b, br, "TaskDuration"), planeMetric(b, br, "ThreadTime"), br.evalFloat(`benchTicks`)
				reveals0 := br.evalFloat(`galleryPage.panels[0].view.draws`)
				start := time.Now()
				time.Sleep(window)
				wall := time.Since(start).Seconds()
				task, thread := planeMetric(b, br, "TaskDuration")-task0, planeMetric(b, br, "ThreadTime")-thread0
				ticks := br.evalFloat(`benchTicks`) - ticks0
				paints := br.evalFloat(`galleryPage.panels[0].view.draws`) - reveals0
				fps += ticks / wall
				busy += 100 * task / wall
				cpu += 1000 * thread / max(ticks, 1)
				b.Logf("%s: %.1f frames/s, main thread busy %.0f%%, its CPU %.1f ms a frame; NUTS's plane painted %.0f times, %d draws held",
					s.name, ticks/wall, 100*task/wall, 1000*thread/max(ticks, 1), paints, br.evalInt(`galleryPage.panels[0].draws.count`))
			}
			br.do(chromedp.Click(chromedp.CSS(`[data-role=pause]`)))
			k := float64(b.N)
			b.ReportMetric(fps/k, "frames/s")
			b.ReportMetric(busy/k, "busy-%")
			b.ReportMetric(cpu/k, "cpu-ms/frame")
			b.ReportMetric(0, "ns/op")
		})
	}
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
