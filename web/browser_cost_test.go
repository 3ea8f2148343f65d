package web_test

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
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

// mainThreadCost is the page's main thread's CPU time over a trace: each
// task that ran an animation frame, with the marks it made (the page's
// performance.mark of a name: the costly work done in some frames only,
// on a schedule of its own), and the rest, in ms.
type mainThreadCost struct {
	frameCPU, frameMarks []float64
	restCPU              float64
	wall                 float64 // s
	// inFrames is the thread time of each kind of event inside the frames'
	// tasks (nested events count in each of theirs)
	inFrames map[string]float64
}

// at is the main thread's CPU time for one frame at fps frames a second:
// a frame's own work, the marked work's share (it comes so many times a
// second, however many frames it falls in: a frame rate the load keeps
// low packs more of it in each) and the share of the other tasks (the
// stream's frames read, timers). The marked work is told from a frame's
// own by fitting cpu = own + each·marks over the frames by least squares.
func (c mainThreadCost) at(fps float64) float64 {
	n := float64(len(c.frameCPU))
	if n == 0 {
		return c.restCPU / c.wall / fps
	}
	var sc, sm, smm, scm float64
	for i, v := range c.frameCPU {
		m := c.frameMarks[i]
		sc += v
		sm += m
		smm += m * m
		scm += v * m
	}
	own, each := sc/n, 0.0
	if vm := smm/n - (sm/n)*(sm/n); vm > 1e-9 {
		each = max(0, (scm/n-(sc/n)*(sm/n))/vm)
		own = max(0, sc/n-each*sm/n)
	}
	return own + (each*sm+c.restCPU)/c.wall/fps
}

// frames is how many frames the trace held.
func (c mainThreadCost) frames() int { return len(c.frameCPU) }

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
// into the tasks that fired an animation frame, with the page's marks
// named mark in each, and the rest.
func (b *browser) traceMainThread(tb testing.TB, d time.Duration, mark string) mainThreadCost {
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
			TraceConfig:  &tracing.TraceConfig{IncludedCategories: []string{"toplevel", "devtools.timeline", "blink.user_timing"}},
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
	return mainThreadCostOf(tb, raw, mark)
}

// mainThreadCostOf reads a trace's events: the renderer's main thread
// (CrRendererMain; of several, the one that fired the most animation
// frames), its outermost top-level tasks, whether each held a fired
// animation frame, and how many marks named mark.
func mainThreadCostOf(tb testing.TB, raw []jsonv2.Value, mark string) mainThreadCost {
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
	var tasks, frames, inner []traceEvent
	var marks []float64
	for _, e := range evs {
		if (thread{e.Pid, e.Tid}) != th {
			continue
		}
		if e.Name == mark {
			marks = append(marks, e.Ts)
		}
		if e.Ph != "X" {
			continue
		}
		switch {
		case strings.Contains(e.Cat, "toplevel"):
			tasks = append(tasks, e)
		case e.Name == "FireAnimationFrame":
			frames = append(frames, e)
			inner = append(inner, e)
		default:
			inner = append(inner, e)
		}
	}
	slices.SortFunc(inner, func(a, c traceEvent) int { return cmp.Compare(a.Ts, c.Ts) })
	slices.SortFunc(tasks, func(a, c traceEvent) int { return cmp.Compare(a.Ts, c.Ts) })
	slices.SortFunc(frames, func(a, c traceEvent) int { return cmp.Compare(a.Ts, c.Ts) })
	slices.Sort(marks)
	c := mainThreadCost{inFrames: map[string]float64{}}
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
			lo, _ := slices.BinarySearch(marks, t.Ts)
			hi, _ := slices.BinarySearch(marks, end)
			c.frameCPU = append(c.frameCPU, t.Tdur/1000)
			c.frameMarks = append(c.frameMarks, float64(hi-lo))
			i, _ := slices.BinarySearchFunc(inner, t.Ts, func(e traceEvent, ts float64) int { return cmp.Compare(e.Ts, ts) })
			for ; i < len(inner) && inner[i].Ts < end; i++ {
				c.inFrames[inner[i].Name] += inner[i].Tdur / 1000
			}
		} else {
			c.restCPU += t.Tdur / 1000
		}
	}
	c.wall = (end - tasks[0].Ts) / 1e6
	return c
}

// logInFrames logs what the frames' tasks spent their thread time on, the
// costliest kinds of event first: an experiment's tool, not a measure.
func logInFrames(tb testing.TB, c mainThreadCost) {
	names := slices.Collect(maps.Keys(c.inFrames))
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(c.inFrames[b], c.inFrames[a]) })
	for _, n := range names[:min(15, len(names))] {
		tb.Logf("%8.1f ms a frame  %s", c.inFrames[n]/float64(max(c.frames(), 1)), n)
	}
}
