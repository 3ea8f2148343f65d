package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
)

// smallSendBuffers gives accepted connections a 4 KiB send buffer.
type smallSendBuffers struct{ net.Listener }

func (l smallSendBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4 << 10)
	}
	return c, err
}

// A draws download outlives the server's WriteTimeout when its reader
// keeps up with the export's own deadline: through the whole middleware
// stack each write moves the deadline (http.ResponseController), so a
// reader that pauses longer than WriteTimeout still gets the whole file,
// its length the Content-Length.
func TestDrawsDownloadOutlivesWriteTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the server's WriteTimeout (about 6 s)")
	}
	cfg := DefaultConfig()
	cfg.RequestTimeout = 100 * time.Millisecond // WriteTimeout: RequestTimeout + 5 s
	s, err := New(cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, smallSendBuffers{ln}) }()
	defer func() { cancel(); <-done }()
	base := "http://" + ln.Addr().String()

	client, _ := newSession(t)
	res, err := client.Post(base+"/api/runs", "application/json", strings.NewReader(`{"data":"linreg","method":"hmc","controls":{"chains":8,"warmup":0}}`))
	if err != nil {
		t.Fatal(err)
	}
	var id string
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if i := strings.Index(string(b), `"id":"`); i >= 0 {
		id = strings.SplitN(string(b)[i+6:], `"`, 2)[0]
	}
	if res.StatusCode != http.StatusCreated || id == "" {
		t.Fatalf("create: %d %s", res.StatusCode, b)
	}
	res, err = client.Post(base+"/api/runs/"+id+"/ops", "application/json", strings.NewReader(`{"op":"step","n":1000}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	run, _ := s.Registry().Get(id)
	enginetest.WaitFrame(t, run, 60*time.Second, func(f *engine.Frame) bool { return f.Step == 1000 })

	d := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4<<10) })
	}}
	slow := &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
	res, err = slow.Get(base + "/api/runs/" + id + "/draws.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	time.Sleep(cfg.RequestTimeout + 6*time.Second) // past WriteTimeout, the server's writes blocked on the unread socket
	b, err = io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK || int64(len(b)) != res.ContentLength {
		t.Fatalf("draws: %d, %d of %d bytes, %v", res.StatusCode, len(b), res.ContentLength, err)
	}
	if n := strings.Count(string(b), "\n"); n != 1+8*1000 {
		t.Fatalf("%d lines, want a header and %d rows", n, 8*1000)
	}
	if res.Header.Get("Content-Length") != strconv.Itoa(len(b)) {
		t.Fatalf("Content-Length %q for %d bytes", res.Header.Get("Content-Length"), len(b))
	}
}
