package web_test

import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// pageClocks is one reading of a page's clocks: the wall time, the main
// thread's CPU and task time (Chromium's ThreadTime and TaskDuration; the
// Performance domain must be on) and all the browser's processes' CPU
// time (browserCPU), in seconds, and the page's animation frames so far.
type pageClocks struct {
	at                time.Time
	thread, task, all float64
	ticks             float64
}

// readClocks reads the page's clocks; ticksJS is the page's count of its
// animation frames.
func (b *browser) readClocks(tb testing.TB, ticksJS string) pageClocks {
	return pageClocks{
		at:     time.Now(),
		thread: planeMetric(tb, b, "ThreadTime"),
		task:   planeMetric(tb, b, "TaskDuration"),
		all:    browserCPU(tb, b),
		ticks:  b.evalFloat(ticksJS),
	}
}

// browserCPU returns the CPU time, in seconds, of the browser's process
// and all its descendants (the renderers, the GPU and display process),
// from /proc.
func browserCPU(tb testing.TB, br *browser) float64 {
	proc := chromedp.FromContext(br.ctx).Browser.Process()
	if proc == nil {
		tb.Fatal("no browser process")
	}
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		tb.Fatal(err)
	}
	parent := map[int]int{}
	ticks := map[int]float64{}
	for _, f := range stats {
		text, err := os.ReadFile(f)
		if err != nil {
			continue // ended since the listing
		}
		// pid (comm) state ppid … utime stime: comm may hold spaces, so
		// the fields are counted from its closing parenthesis
		s := string(text)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(s[:open]))
		fields := strings.Fields(s[end+1:])
		if len(fields) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		utime, _ := strconv.ParseFloat(fields[11], 64)
		stime, _ := strconv.ParseFloat(fields[12], 64)
		parent[pid] = ppid
		ticks[pid] = utime + stime
	}
	var sum float64
	for pid, t := range ticks {
		for p := pid; p > 1; p = parent[p] {
			if p == proc.Pid {
				sum += t
				break
			}
		}
	}
	return sum / clockTicks
}

// clockTicks is the kernel's USER_HZ, the unit of /proc's CPU times: 100
// on every Linux architecture Go runs on.
const clockTicks = 100

// mainThreadCost is the page's main thread's CPU time over a trace, split
// into the tasks that ran an animation frame and the rest, in ms.
type mainThreadCost struct {
	frames            int
	frameCPU, restCPU float64
	wall              float64
}

// at is the main thread's CPU time for one frame at fps frames a second:
// a frame's own tasks, and the share of the rest (the stream's messages,
// timers) that falls in it.
func (c mainThreadCost) at(fps float64) float64 {
	return c.frameCPU/float64(max(c.frames, 1)) + c.restCPU/c.wall/fps
}

// traceEvent is the part of a Chromium trace event read here.
type traceEvent struct {
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`
	Dur  float64         `json:"dur"`
	Tdur float64         `json:"tdur"`
	Pid  int64           `json:"pid"`
	Tid  int64           `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// traceMainThread traces the browser for d and returns the renderer's
// main thread's CPU time (each top-level task's thread duration), split
// into the tasks that fired an animation frame and the rest.
func (b *browser) traceMainThread(tb testing.TB, d time.Duration) mainThreadCost {
	var mu sync.Mutex
	var raw []jsonv2.Value
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	var once sync.Once
	if err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			raw = append(raw, ev.Value...)
			mu.Unlock()
		case *tracing.EventTracingComplete:
			once.Do(func() { close(done) })
		}
	}); err != nil {
		tb.Fatal(err)
	}
	call := func(f func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error)) {
		if _, err := chromedp.Run(b.ctx, f); err != nil {
			tb.Fatal(err)
		}
	}
	call(func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(ctx, t, tracing.Start, tracing.StartParams{
			TransferMode: tracing.StartTransferModeReportEvents,
			TraceConfig:  &tracing.TraceConfig{IncludedCategories: []string{"toplevel", "devtools.timeline"}},
		})
	})
	time.Sleep(d)
	call(func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(ctx, t, tracing.End, cdp.Empty{})
	})
	select {
	case <-done:
	case <-time.After(time.Minute):
		tb.Fatal("the trace did not complete")
	}
	mu.Lock()
	defer mu.Unlock()
	return mainThreadCostOf(tb, raw)
}

// mainThreadCostOf reads a trace's events: the renderer's main thread
// (CrRendererMain; of several, the one that fired the most animation
// frames), its outermost top-level tasks, and whether each held a fired
// animation frame.
func mainThreadCostOf(tb testing.TB, raw []jsonv2.Value) mainThreadCost {
	type thread struct{ pid, tid int64 }
	main := map[thread]bool{}
	var evs []traceEvent
	for _, r := range raw {
		var e traceEvent
		if err := json.Unmarshal(r, &e); err != nil {
			tb.Fatal(err)
		}
		if e.Ph == "M" && e.Name == "thread_name" && strings.Contains(string(e.Args), `"CrRendererMain"`) {
			main[thread{e.Pid, e.Tid}] = true
		}
		evs = append(evs, e)
	}
	fired := map[thread]int{}
	for _, e := range evs {
		if e.Name == "FireAnimationFrame" && main[thread{e.Pid, e.Tid}] {
			fired[thread{e.Pid, e.Tid}]++
		}
	}
	var th thread
	for t, n := range fired {
		if n > fired[th] {
			th = t
		}
	}
	var tasks, frames []traceEvent
	for _, e := range evs {
		if (thread{e.Pid, e.Tid}) != th || e.Ph != "X" {
			continue
		}
		if strings.Contains(e.Cat, "toplevel") {
			tasks = append(tasks, e)
		} else if e.Name == "FireAnimationFrame" {
			frames = append(frames, e)
		}
	}
	slices.SortFunc(tasks, func(a, c traceEvent) int { return cmp.Compare(a.Ts, c.Ts) })
	slices.SortFunc(frames, func(a, c traceEvent) int { return cmp.Compare(a.Ts, c.Ts) })
	var c mainThreadCost
	if len(tasks) == 0 {
		tb.Fatal("no top-level tasks on the renderer's main thread in the trace")
	}
	end := math.Inf(-1)
	f := 0
	for _, t := range tasks {
		if t.Ts < end {
			continue // inside a task counted already
		}
		end = t.Ts + t.Dur
		for f < len(frames) && frames[f].Ts < t.Ts {
			f++
		}
		if f < len(frames) && frames[f].Ts < end {
			c.frames++
			c.frameCPU += t.Tdur / 1000
		} else {
			c.restCPU += t.Tdur / 1000
		}
	}
	c.wall = (end - tasks[0].Ts) / 1e6
	return c
}
