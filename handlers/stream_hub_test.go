package handlers

import (
	"math"
	"net"
	"net/http"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/wire"
)

// seen is what a browser keeps of a stream (static/app/panel.js onFrame):
// a full frame, a new epoch or a step going back replaces the points,
// others extend them; the latest band, controls and status win; marks
// accumulate.
type seen struct {
	mu        sync.Mutex
	frames    int
	fulls     int
	epoch     uint64
	step      int64
	status    string
	controls  map[string]float64
	objective [][2]float64
	trace     map[string][][2]float64
	band      *wire.Band
	data      *wire.DataPoints
	marks     map[wire.Mark]bool
	err       error
}

func (s *seen) add(f inFrame) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.frames == 0 || f.Full || f.Epoch != s.epoch || f.Step < s.step {
		s.objective, s.trace = nil, map[string][][2]float64{}
	}
	s.frames++
	if f.Full {
		s.fulls++
	}
	s.epoch, s.step, s.status, s.controls = f.Epoch, f.Step, f.Status, f.Controls
	s.objective = append(s.objective, f.Objective...)
	for k, pts := range f.Trace {
		s.trace[k] = append(s.trace[k], pts...)
	}
	if f.Predictive != nil {
		s.band = f.Predictive
	}
	if f.Data != nil {
		s.data = f.Data
	}
	if s.marks == nil {
		s.marks = map[wire.Mark]bool{}
	}
	for _, m := range f.Marks {
		s.marks[m] = true
	}
}

// read accumulates c's frames into s until the connection ends, waiting
// while hold is set without reading, so the server's writes to it block.
func (s *seen) read(c *websocket.Conn, hold *atomic.Bool) {
	for {
		for hold.Load() {
			time.Sleep(5 * time.Millisecond)
		}
		var f inFrame
		if err := c.ReadJSON(&f); err != nil {
			s.mu.Lock()
			s.err = err
			s.mu.Unlock()
			return
		}
		if f.Type == "frame" {
			s.add(f)
		}
	}
}

// A viewer whose writes block while the run goes on misses the hub's
// shared ticks; when it reads again it gets a catch-up frame, and ends with
// the same points, band, controls and marks as a viewer that missed
// nothing, and as the run's history holds: across a control change, and
// across a reset (the catch-up is then the new epoch in full). The
// history's capacity is above the steps taken, so no point is thinned out
// and the three must agree exactly. Small socket buffers on both ends of
// the lagging viewer make its writes block within a few frames.
func TestStreamLaggingViewerCatchesUp(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{
		registry: engine.RegistryConfig{MaxSteps: 1 << 50, Run: engine.RunOptions{HistoryCap: 1 << 16}},
		connState: func(c net.Conn, s http.ConnState) {
			if tc, ok := c.(*net.TCPConn); ok && s == http.StateNew {
				tc.SetWriteBuffer(1024)
			}
		},
	})
	id := e.create()
	run, err := e.reg.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	ctl := dial(t, e, id, nil) // the owner's commands; its frames are read and dropped
	go func() {
		for {
			if _, _, err := ctl.ReadMessage(); err != nil {
				return
			}
		}
	}()
	steady, lagging := &seen{}, &seen{}
	var hold, never atomic.Bool
	var wg sync.WaitGroup
	// The lagging viewer's receive buffer is fixed (the kernel would grow
	// it after a burst of reading, and the next stall fill nothing): 64 KiB,
	// a quarter of a second of frames here, large enough not to slow a
	// reading viewer.
	d := websocket.Dialer{NetDial: func(network, addr string) (net.Conn, error) {
		c, err := net.Dial(network, addr)
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetReadBuffer(64 << 10)
		}
		return c, err
	}}
	c1 := dial(t, e, id, nil)
	c2, _, err := d.Dial(e.wsURL(id), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		hold.Store(false)
		c1.Close()
		c2.Close()
		wg.Wait()
	}()
	wg.Go(func() { steady.read(c1, &never) })
	wg.Go(func() { lagging.read(c2, &hold) })

	send(t, ctl, `{"op":"speed","value":3000}`) // 3,000 points a second: far from the capacity
	send(t, ctl, `{"op":"play"}`)
	enginetest.WaitFrame(t, run, 5*time.Second, func(f *engine.Frame) bool { return f.Step > 300 })
	h := e.api.hubOf(run)
	stall := func(during func()) {
		t.Helper()
		before := h.caught.Load()
		hold.Store(true)
		time.Sleep(400 * time.Millisecond) // the buffers fill; no event says so
		during()
		time.Sleep(800 * time.Millisecond) // ticks go by while the writer is blocked
		hold.Store(false)
		enginetest.Poll(t, 5*time.Second, "the lagging viewer caught up", func() bool { return h.caught.Load() > before })
	}
	// compare pauses the run, waits until both viewers have its last
	// point, and compares what they kept with the run's history.
	compare := func(when string) {
		t.Helper()
		time.Sleep(200 * time.Millisecond) // a few shared ticks after the catch-up
		send(t, ctl, `{"op":"pause"}`)
		final := enginetest.WaitFrame(t, run, 5*time.Second, func(f *engine.Frame) bool { return f.Status == engine.StatusPaused })
		var cur engine.Cursor
		run.Read(&cur) // the run's whole history now
		if len(cur.Objective) == 0 {
			t.Fatal("the run has no history")
		}
		want := cur.Objective[len(cur.Objective)-1].Step
		caughtUp := func(s *seen) bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			n := len(s.objective)
			return s.status == "paused" && s.epoch == final.Epoch && n > 0 && int64(s.objective[n-1][0]) == want
		}
		deadline := time.Now().Add(5 * time.Second)
		for !caughtUp(steady) || !caughtUp(lagging) {
			if time.Now().After(deadline) {
				for name, s := range map[string]*seen{"steady": steady, "lagging": lagging} {
					s.mu.Lock()
					n := len(s.objective)
					last := [2]float64{}
					if n > 0 {
						last = s.objective[n-1]
					}
					t.Errorf("%s: %s viewer: status %q epoch %d step %d, %d points, last %v, error %v", when, name, s.status, s.epoch, s.step, n, last, s.err)
					s.mu.Unlock()
				}
				t.Fatalf("%s: the viewers did not reach the paused run's last point, step %d of epoch %d", when, want, final.Epoch)
			}
			time.Sleep(10 * time.Millisecond)
		}
		history := make([][2]float64, len(cur.Objective))
		for i, p := range cur.Objective {
			history[i] = [2]float64{float64(p.Step), p.Value}
		}
		traces := make([][2]float64, len(cur.Traces[0]))
		for i, p := range cur.Traces[0] {
			traces[i] = [2]float64{float64(p.Step), p.Value}
		}
		steady.mu.Lock()
		lagging.mu.Lock()
		defer steady.mu.Unlock()
		defer lagging.mu.Unlock()
		t.Logf("%s: steady viewer: %d frames (%d full); lagging: %d frames (%d full), %d catch-ups; %d points",
			when, steady.frames, steady.fulls, lagging.frames, lagging.fulls, h.caught.Load(), len(history))
		if lagging.frames >= steady.frames {
			t.Errorf("%s: the lagging viewer got %d frames, the steady one %d: it did not lag", when, lagging.frames, steady.frames)
		}
		for name, s := range map[string]*seen{"steady": steady, "lagging": lagging} {
			if !reflect.DeepEqual(s.objective, history) {
				t.Errorf("%s: %s viewer: %d objective points, the run's history %d; first differing (index, steps): %v", when, name, len(s.objective), len(history), firstDiff(s.objective, history))
			}
			if !reflect.DeepEqual(s.trace["x"], traces) {
				t.Errorf("%s: %s viewer: trace x has %d points, the run's history %d; first differing (index, steps): %v", when, name, len(s.trace["x"]), len(traces), firstDiff(s.trace["x"], traces))
			}
			if s.controls["prior_scale"] != 3 {
				t.Errorf("%s: %s viewer: prior_scale %v, want 3", when, name, s.controls["prior_scale"])
			}
			if s.data == nil || s.band == nil {
				t.Errorf("%s: %s viewer: data %v, band %v", when, name, s.data != nil, s.band != nil)
			}
		}
		if !reflect.DeepEqual(lagging.band, steady.band) || !reflect.DeepEqual(lagging.marks, steady.marks) || lagging.step != steady.step {
			t.Errorf("%s: the viewers differ: band %v vs %v, marks %v vs %v, step %d vs %d", when, lagging.band, steady.band, lagging.marks, steady.marks, lagging.step, steady.step)
		}
	}
	stall(func() { send(t, ctl, `{"op":"set","name":"prior_scale","value":3}`) })
	compare("after a stall across a control change")
	send(t, ctl, `{"op":"play"}`)
	stall(func() {
		send(t, ctl, `{"op":"reset"}`)
		send(t, ctl, `{"op":"play"}`)
	})
	compare("after a stall across a reset")
}

// hubOf returns run's hub, nil when nobody watches it.
func (a *API) hubOf(run *engine.Run) *hub {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.hubs[run]
}

// firstDiff returns the first index at which a and b differ and their
// points there (NaN past an end).
func firstDiff(a, b [][2]float64) [3]float64 {
	nan := [2]float64{math.NaN(), math.NaN()}
	for i := range max(len(a), len(b)) {
		x, y := nan, nan
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return [3]float64{float64(i), x[0], y[0]}
		}
	}
	return [3]float64{-1, 0, 0}
}
