//go:build unix

package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/posterior-playground/playground/sim/engine/enginetest"
)

// haproxyRuns is how many runs the balancer test creates through HAProxy.
const haproxyRuns = 30

// TestHAProxyRoutesRunsByInstance starts three instances and HAProxy with
// web/deploy/haproxy.cfg on loopback, creates 30 runs through the balancer
// and streams every one of them through it. Then it stops one instance as
// an orchestrator would (SIGTERM: Serve's context ends). That instance's
// viewers must get the close frame "going away", a new request for one of
// its runs a 410 naming the instance, and every other viewer must keep
// receiving frames.
func TestHAProxyRoutesRunsByInstance(t *testing.T) {
	if testing.Short() {
		t.Skip("balancer test: skipped with -short")
	}
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		t.Skip("haproxy is not installed (apt-get install haproxy; .ci/run installs it): the balancer test is skipped")
	}

	type instance struct {
		name   string
		addr   string
		cancel context.CancelFunc
		done   chan error
	}
	names := []string{"i1", "i2", "i3"}
	insts := make(map[string]*instance)
	for _, name := range names {
		cfg := DefaultConfig()
		cfg.Instance, cfg.TrustedProxies = name, []string{"127.0.0.1/32"}
		cfg.MaxRuns, cfg.MaxRunsPerClient = haproxyRuns, haproxyRuns // every client is 127.0.0.1 here
		cfg.ShutdownTimeout = 5 * time.Second
		s, err := New(cfg, quiet)
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		in := &instance{name: name, addr: ln.Addr().String(), cancel: cancel, done: make(chan error, 1)}
		go func() { in.done <- s.Serve(ctx, ln) }()
		insts[name] = in
		t.Cleanup(func() {
			cancel()
			<-in.done
		})
	}

	bind := freeLoopbackAddr(t)
	var haLog bytes.Buffer
	cmd := exec.Command(bin, "-db", "-f", "deploy/haproxy.cfg")
	cmd.Env = append(os.Environ(), "PG_BIND="+bind,
		"PG_I1="+insts["i1"].addr, "PG_I2="+insts["i2"].addr, "PG_I3="+insts["i3"].addr)
	cmd.Stdout, cmd.Stderr = &lockedWriter{w: &haLog}, &lockedWriter{w: &haLog}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("haproxy's output:\n%s", haLog.String())
		}
	})
	base := "http://" + bind
	client := &http.Client{Timeout: 10 * time.Second} // no cookie jar: a checker, not a browser
	defer client.CloseIdleConnections()
	enginetest.Poll(t, 15*time.Second, "HAProxy answers and sees every instance ready", func() bool {
		res, err := client.Get(base + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})

	// 30 runs through the balancer, each playing at a modest speed so the
	// three instances' 30 runs do not fight over the test machine's cores.
	// Each run is a student's: a browser session of its own, new to the
	// balancer (no affinity cookie yet), so new runs are dealt round-robin.
	ids := make([]string, haproxyRuns)
	students := make([]*http.Client, haproxyRuns)
	for i := range ids {
		student, _ := newSession(t)
		defer student.CloseIdleConnections()
		students[i] = student
		body := fmt.Sprintf(`{"data":"gap","method":"mfvi","seed":%d}`, i+1)
		res, err := student.Post(base+"/api/runs", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var out struct{ ID, Message string }
		err = json.NewDecoder(res.Body).Decode(&out)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusCreated {
			t.Fatalf("create %d through HAProxy: %d %q %v", i, res.StatusCode, out.Message, err)
		}
		ids[i] = out.ID
	}
	per := make(map[string]int)
	for _, id := range ids {
		name, _, _ := strings.Cut(id, "-")
		per[name]++
	}
	t.Logf("runs per instance: %v", per)
	for _, name := range names {
		if per[name] == 0 {
			t.Fatalf("no run landed on %s (%v): the balancer does not spread new runs", name, per)
		}
	}
	for i, id := range ids {
		for _, op := range []string{`{"op":"speed","value":50}`, `{"op":"play"}`} {
			res, err := students[i].Post(base+"/api/runs/"+id+"/ops", "application/json", strings.NewReader(op))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode/100 != 2 {
				t.Fatalf("%s on %s through HAProxy: %d; the request did not reach the instance that holds the run", op, id, res.StatusCode)
			}
		}
	}

	type viewer struct {
		id     string
		frames atomic.Int64
		closed chan *websocket.CloseError // the close frame, or nil for any other end
	}
	viewers := make([]*viewer, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		c, _, err := websocket.DefaultDialer.Dial("ws://"+bind+"/api/runs/"+id+"/stream", nil)
		if err != nil {
			t.Fatalf("stream %s through HAProxy: %v", id, err)
		}
		v := &viewer{id: id, closed: make(chan *websocket.CloseError, 1)}
		viewers[i] = v
		t.Cleanup(func() { c.Close() })
		wg.Go(func() {
			for {
				_, msg, err := c.ReadMessage()
				if err != nil {
					ce, _ := err.(*websocket.CloseError)
					v.closed <- ce
					return
				}
				if bytes.HasPrefix(msg, []byte(`{"type":"frame"`)) {
					v.frames.Add(1)
				}
			}
		})
	}
	enginetest.Poll(t, 30*time.Second, "every viewer has frames through HAProxy", func() bool {
		for _, v := range viewers {
			if v.frames.Load() < 2 {
				return false
			}
		}
		return true
	})

	// Stop i2 as an orchestrator would.
	gone := insts["i2"]
	gone.cancel()
	select {
	case err := <-gone.done:
		if err != nil {
			t.Errorf("i2's Serve: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("i2 did not shut down")
	}
	gone.done <- nil // for the cleanup
	for _, v := range viewers {
		if !strings.HasPrefix(v.id, "i2-") {
			continue
		}
		select {
		case ce := <-v.closed:
			if ce == nil || ce.Code != websocket.CloseGoingAway || ce.Text == "" {
				t.Errorf("viewer of %s on the stopped instance ended with %v; want the close frame 1001 with a reason", v.id, ce)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("viewer of %s on the stopped instance got no close", v.id)
		}
	}
	// The others keep streaming.
	before := make([]int64, len(viewers))
	for i, v := range viewers {
		before[i] = v.frames.Load()
	}
	enginetest.Poll(t, 20*time.Second, "every viewer of i1 and i3 gets new frames after i2 stopped", func() bool {
		for i, v := range viewers {
			if !strings.HasPrefix(v.id, "i2-") && v.frames.Load() < before[i]+3 {
				return false
			}
		}
		return true
	})
	for _, v := range viewers {
		if strings.HasPrefix(v.id, "i2-") {
			continue
		}
		select {
		case ce := <-v.closed:
			t.Errorf("viewer of %s on a running instance ended: %v", v.id, ce)
		default:
		}
	}
	// Once HAProxy has seen i2 fail its checks, a request for one of its
	// runs gets a 410 that names the instance, not another instance's 404.
	var lastStatus int
	var lastBody string
	enginetest.Poll(t, 15*time.Second, "a request for a run of the stopped instance is a 410 naming it", func() bool {
		for _, id := range ids {
			if !strings.HasPrefix(id, "i2-") {
				continue
			}
			res, err := client.Get(base + "/api/runs/" + id)
			if err != nil {
				return false
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			lastStatus, lastBody = res.StatusCode, string(b)
			return res.StatusCode == http.StatusGone && strings.Contains(lastBody, "(i2) is gone")
		}
		return false
	})
	t.Logf("after i2 stopped, GET one of its runs: %d %s", lastStatus, strings.TrimSpace(lastBody))
	for _, v := range viewers {
		if !strings.HasPrefix(v.id, "i2-") {
			continue
		}
		_, res, err := websocket.DefaultDialer.Dial("ws://"+bind+"/api/runs/"+v.id+"/stream", nil)
		if err == nil || res == nil || res.StatusCode != http.StatusGone {
			t.Errorf("reconnecting to %s's stream: %v (response %v); want a 410", v.id, err, res)
		}
		break
	}
}

// freeLoopbackAddr returns a loopback address with a port free a moment ago.
func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// lockedWriter lets a process's stdout and stderr share one buffer.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
