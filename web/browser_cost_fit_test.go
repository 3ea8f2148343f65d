package web_test

import (
	"fmt"
	"math"
	"testing"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
)

// A synthetic trace of 2 s on the renderer's main thread: 40 frames, each
// a task of 2 ms of thread time plus 5 ms for each base it drew (none, one
// or two in turn), and 10 other tasks of 3 ms; a task nested in a frame's
// and another thread's tasks are not counted. At 50 frames/s a frame
// costs its own 2 ms, the bases' 5 ms × (bases / 2 s) / 50 and
// the other tasks' 30 ms / 2 s / 50 = 0.3 ms: 4.25 ms with the trace's 39
// bases, exactly, as the fit is exact on data that follows the model.
func TestMainThreadCost(t *testing.T) {
	var raw []jsonv2.Value
	add := func(format string, args ...any) { raw = append(raw, jsonv2.Value(fmt.Sprintf(format, args...))) }
	add(`{"name":"thread_name","ph":"M","pid":1,"tid":7,"args":{"name":"CrRendererMain"}}`)
	add(`{"name":"thread_name","ph":"M","pid":1,"tid":8,"args":{"name":"Compositor"}}`)
	bases := 0
	for k := range 40 {
		ts := float64(k) * 50000 // µs
		n := k % 3
		bases += n
		cpu := 2000 + 5000*float64(n)
		add(`{"name":"RunTask","cat":"toplevel","ph":"X","pid":1,"tid":7,"ts":%g,"dur":%g,"tdur":%g}`, ts, cpu+100, cpu)
		add(`{"name":"RunTask","cat":"toplevel","ph":"X","pid":1,"tid":7,"ts":%g,"dur":10,"tdur":10}`, ts+1) // nested
		add(`{"name":"FireAnimationFrame","cat":"devtools.timeline","ph":"X","pid":1,"tid":7,"ts":%g,"dur":50,"tdur":50}`, ts+2)
		for m := range n {
			add(`{"name":"bench-base","cat":"blink.user_timing","ph":"R","pid":1,"tid":7,"ts":%g}`, ts+float64(100+m))
		}
		add(`{"name":"RunTask","cat":"toplevel","ph":"X","pid":1,"tid":8,"ts":%g,"dur":900,"tdur":900}`, ts) // the compositor's
		if k%4 == 0 {
			add(`{"name":"RunTask","cat":"toplevel","ph":"X","pid":1,"tid":7,"ts":%g,"dur":3000,"tdur":3000}`, ts+30000)
		}
	}
	// the trace's last task ends 2 s after its first began
	add(`{"name":"RunTask","cat":"toplevel","ph":"X","pid":1,"tid":7,"ts":%g,"dur":0,"tdur":0}`, 2e6)
	c := mainThreadCostOf(t, raw, "bench-base")
	if c.frames() != 40 {
		t.Fatalf("%d frames, want 40", c.frames())
	}
	if got, want := c.at(50), 2+5*float64(bases)/2/50+30.0/2/50; math.Abs(got-want) > 1e-9 {
		t.Errorf("at(50) = %g ms, want %g", got, want)
	}
	// every frame alike: the fit cannot tell bases from frames, and the
	// frames' mean is their cost
	same := mainThreadCost{frameCPU: []float64{4, 4}, frameMarks: []float64{1, 1}, wall: 1}
	if got := same.at(50); got != 4 {
		t.Errorf("frames alike: at(50) = %g, want 4", got)
	}
}
