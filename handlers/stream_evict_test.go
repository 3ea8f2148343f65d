package handlers

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
)

// The promise web's package doc makes: a viewer that stops reading is dropped within
// PongWait (10 s by default) of stopping.
func TestStreamEvictionDefaults(t *testing.T) {
	c := StreamConfig{}.withDefaults()
	if c.PongWait != 10*time.Second || c.WriteWait != 10*time.Second || c.PingPeriod != 5*time.Second {
		t.Fatalf("defaults %+v: web's package doc states 10 s", c)
	}
}

// evictionSlack is what a loaded two-core machine may add to a deadline
// before the handler has run and closed the socket: scheduling, not the
// rule under test (whose bound is PongWait itself).
const evictionSlack = 1500 * time.Millisecond

// A viewer that never answers a ping is dropped PongWait after it last
// could have; one that reads (gorilla answers pings while reading) stays.
// The run is paused, so no write ever blocks: only the pong rule acts.
func TestStreamDropsSilentViewer(t *testing.T) {
	checkLeaks(t)
	const pongWait = 400 * time.Millisecond
	e := newEnv(t, envOptions{api: APIConfig{Stream: StreamConfig{PongWait: pongWait, PingPeriod: 100 * time.Millisecond}}})
	id := e.create()
	run, _ := e.reg.Get(id)

	live, _, err := e.dialer().Dial(e.wsURL(id), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	liveDone := make(chan error, 1)
	go func() {
		for {
			if _, _, err := live.ReadMessage(); err != nil {
				liveDone <- err
				return
			}
		}
	}()

	silent, _, err := e.dialer().Dial(e.wsURL(id), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	start := time.Now()
	// Read the raw bytes: gorilla's ping handler never sees the pings, so
	// no pong goes back. The read ends when the server closes the socket.
	raw := silent.NetConn()
	raw.SetReadDeadline(start.Add(pongWait + evictionSlack))
	_, err = io.Copy(io.Discard, raw)
	held := time.Since(start)
	if err != nil {
		t.Fatalf("the silent viewer was still connected after %v: %v", held, err)
	}
	if held < pongWait*3/4 {
		t.Fatalf("the silent viewer was dropped after %v, before PongWait %v", held, pongWait)
	}
	t.Logf("silent viewer dropped after %v (PongWait %v)", held, pongWait)

	// The reading viewer has seen a pong round every 100 ms meanwhile; give
	// it two more PongWaits of wall time to prove it is kept.
	select {
	case err := <-liveDone:
		t.Fatalf("the reading viewer was dropped: %v", err)
	case <-time.After(2 * pongWait):
	}
	if n := run.Viewers(); n != 1 {
		t.Fatalf("%d viewers, want the reading one", n)
	}
}

// A viewer that stops reading while frames flow leaves its writer blocked
// on full socket buffers. With a WriteWait far longer than PongWait it is
// still dropped within PongWait: the reader's deadline closes the
// connection under the blocked write.
func TestStreamDropsStalledViewerWithinPongWait(t *testing.T) {
	checkLeaks(t)
	const pongWait = 400 * time.Millisecond
	e := newEnv(t, envOptions{
		api: APIConfig{Stream: StreamConfig{WriteWait: time.Minute, PongWait: pongWait, PingPeriod: 100 * time.Millisecond}},
		connState: func(c net.Conn, s http.ConnState) {
			if tc, ok := c.(*net.TCPConn); ok && s == http.StateNew {
				tc.SetWriteBuffer(1024)
			}
		},
	})
	id := e.create()
	run, _ := e.reg.Get(id)
	d := smallBufferDialer()
	d.Jar = e.client.Jar // in the session that made the run: it may command it
	c, _, err := d.Dial(e.wsURL(id), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	next(t, c)
	send(t, c, `{"op":"play"}`) // then never read again
	start := time.Now()
	enginetest.Poll(t, pongWait+evictionSlack, "the stalled viewer was not dropped within PongWait", func() bool { return run.Viewers() == 0 })
	t.Logf("stalled viewer dropped after %v (PongWait %v, WriteWait 1m)", time.Since(start), pongWait)
	if f := run.Latest(); f.Status != engine.StatusRunning || f.Step == 0 {
		t.Fatalf("the run: %s at step %d", f.Status, f.Step)
	}
}
