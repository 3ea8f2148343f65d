package handlers

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/posterior-playground/playground/sim/engine"
)

// A run watched by more than CrowdViewers sends each viewer at most
// CrowdFrameRate frames a second; with fewer viewers it sends at the run's
// frame rate (100 here). Counts over one second, with slack for the frame
// in flight at each end.
func TestStreamPacesCrowdedRuns(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{api: APIConfig{Stream: StreamConfig{CrowdViewers: 2, CrowdFrameRate: 5}},
		registry: engine.RegistryConfig{MaxSteps: 1 << 50}}) // the fake steps millions a second: no budget to spend
	id := e.create()
	if code, _ := e.do("POST", "/api/runs/"+id+"/ops", "application/json", `{"op":"play"}`, nil); code/100 != 2 {
		t.Fatalf("play: %d", code)
	}
	count := func(n int) []int64 {
		counts := make([]atomic.Int64, n)
		conns := make([]*websocket.Conn, n)
		for i := range conns {
			conns[i] = dial(t, e, id, nil)
			next(t, conns[i])
		}
		// Frames sent while the crowd was still gathering (the first
		// viewers, alone, at the run's rate) wait in the sockets: read them
		// for a moment before counting.
		var wg sync.WaitGroup
		from := time.Now().Add(300 * time.Millisecond)
		stop := from.Add(time.Second)
		for i, c := range conns {
			wg.Go(func() {
				c.SetReadDeadline(stop)
				for {
					if _, _, err := c.ReadMessage(); err != nil {
						return
					}
					if time.Now().After(from) {
						counts[i].Add(1)
					}
				}
			})
		}
		wg.Wait()
		for _, c := range conns {
			c.Close()
		}
		out := make([]int64, n)
		for i := range counts {
			out[i] = counts[i].Load()
		}
		return out
	}
	alone := count(1)
	if alone[0] < 20 {
		t.Fatalf("one viewer got %d frames in a second; want the run's rate (100, at least 20)", alone[0])
	}
	for i, n := range count(4) {
		if n < 2 || n > 5+2 {
			t.Errorf("viewer %d of a crowd of 4 got %d frames in a second; want about 5 (2 to 7)", i, n)
		}
	}
}
