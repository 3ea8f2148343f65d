//go:build unix

package web

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// lockedBuffer collects a child process's output.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// buildBinary builds the playground command into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go") // go test puts its own GOROOT/bin first on PATH
	if err != nil {
		t.Fatalf("no go command on PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "playground")
	cmd := exec.Command(goBin, "build", "-o", bin, ".")
	cmd.Dir = ".." // the module root, where main.go is
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// freeAddr returns a loopback address with a port that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestBinarySIGTERMClosesStreams builds the real binary, serves, opens a run
// with three websocket viewers and sends SIGTERM: every viewer must get a
// close frame ("going away", 1001) and the process must exit with status 0,
// all within 5 seconds. On the way it checks the --allow-origin flag: a
// cross-site page is refused before the upgrade, an allow-listed one
// accepted.
func TestBinarySIGTERMClosesStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped with -short")
	}
	bin := buildBinary(t)
	addr := freeAddr(t)
	var logs lockedBuffer
	cmd := exec.Command(bin, "serve", "--addr", addr, "--allow-origin", "https://lab.example")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	}()

	base := "http://" + addr
	client, _ := newSession(t)
	client.Jar = http.DefaultClient.Jar // the session of the default dialer, which commands the run
	defer client.CloseIdleConnections()
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := client.Get(base + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not come up: %v", err)
		}
		select {
		case err := <-exited:
			t.Fatalf("the server exited early: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
	id, err := loadCreate(client, base, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := loadOp(client, base, id, `{"op":"play"}`); err != nil {
		t.Fatal(err)
	}
	client.CloseIdleConnections()

	ws := "ws://" + addr + "/api/runs/" + id + "/stream"
	if _, res, err := websocket.DefaultDialer.Dial(ws, http.Header{"Origin": {"https://evil.example"}}); !errors.Is(err, websocket.ErrBadHandshake) || res.StatusCode != http.StatusForbidden {
		t.Fatalf("a cross-site origin: %v %v", err, res)
	}
	origins := []string{"", base, "https://lab.example"} // a script, the page itself, the allow-listed origin
	type result struct {
		frames int
		err    error
		at     time.Time
	}
	results := make([]result, len(origins))
	var wg sync.WaitGroup
	framed := make(chan struct{}, len(origins))
	for i, o := range origins {
		h := http.Header{}
		if o != "" {
			h.Set("Origin", o)
		}
		c, _, err := websocket.DefaultDialer.Dial(ws, h)
		if err != nil {
			t.Fatalf("viewer with origin %q: %v", o, err)
		}
		defer c.Close()
		wg.Go(func() {
			for {
				c.SetReadDeadline(time.Now().Add(15 * time.Second))
				_, msg, err := c.ReadMessage()
				if err != nil {
					results[i].err, results[i].at = err, time.Now()
					return
				}
				if bytes.HasPrefix(msg, []byte(`{"type":"frame"`)) {
					if results[i].frames++; results[i].frames == 2 {
						framed <- struct{}{}
					}
				}
			}
		})
	}
	for range origins {
		select {
		case <-framed:
		case <-time.After(15 * time.Second):
			t.Fatal("a viewer got no frames")
		}
	}

	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v, want status 0", err)
		}
		t.Logf("the process exited %v after SIGTERM", time.Since(sent).Round(time.Millisecond))
	case <-time.After(5 * time.Second):
		t.Fatal("the process did not exit within 5 s of SIGTERM")
	}
	wg.Wait()
	for i, r := range results {
		if !websocket.IsCloseError(r.err, websocket.CloseGoingAway) {
			t.Errorf("viewer %d (origin %q): %v, want a going-away close frame", i, origins[i], r.err)
		} else if d := r.at.Sub(sent); d > 5*time.Second {
			t.Errorf("viewer %d got its close frame %v after SIGTERM", i, d)
		}
	}
	if !strings.Contains(logs.String(), "shutting down") {
		t.Errorf("the log does not say it shut down:\n%s", logs.String())
	}
}

// smallBuffers accepts connections with a 1 KiB send buffer, so a viewer
// that stops reading blocks the server's writer within a few frames.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(1024)
	}
	return c, err
}

// TestShutdownWithStalledViewer: a viewer that stopped reading (its
// connection's buffers full, the server's writer blocked in a write) must
// not hold shutdown past 5 seconds, although the write deadline (10 s by
// default) has not run out; a viewer that reads still gets its close frame.
func TestShutdownWithStalledViewer(t *testing.T) {
	s := newServer(t, Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ctx, smallBuffers{ln}) }()
	id := createRun(t, "http://"+ln.Addr().String())
	http.DefaultClient.CloseIdleConnections()
	ws := "ws://" + ln.Addr().String() + "/api/runs/" + id + "/stream"
	d := websocket.Dialer{Jar: websocket.DefaultDialer.Jar, NetDial: func(network, addr string) (net.Conn, error) {
		c, err := net.Dial(network, addr)
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetReadBuffer(1024)
		}
		return c, err
	}}
	stalled, _, err := d.Dial(ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	reader, _, err := websocket.DefaultDialer.Dial(ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	reader.WriteMessage(websocket.TextMessage, []byte(`{"op":"play"}`))
	var f struct{ Step int64 }
	for f.Step < 100_000 { // frames carry many points by now: the stalled buffers are full
		if err := reader.ReadJSON(&f); err != nil {
			t.Fatal(err)
		}
	}
	// Let the server's writer to the stalled viewer run into its full
	// buffers and block: nothing signals a write that blocks.
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	cancel()
	closed := make(chan error, 1)
	go func() {
		for {
			reader.SetReadDeadline(time.Now().Add(10 * time.Second))
			if _, _, err := reader.ReadMessage(); err != nil {
				closed <- err
				return
			}
		}
	}()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Serve did not return")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("shutdown took %v with a stalled viewer, want ≤ 5 s", took.Round(10*time.Millisecond))
	} else {
		t.Logf("shutdown took %v with a stalled viewer", took.Round(time.Millisecond))
	}
	if err := <-closed; !websocket.IsCloseError(err, websocket.CloseGoingAway) {
		t.Errorf("the reading viewer: %v, want a going-away close frame", err)
	}
}
