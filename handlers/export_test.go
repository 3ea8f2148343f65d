package handlers

import (
	"encoding/csv"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/wire"
)

// smallBuffers is a listener whose connections have a 4 KiB send buffer,
// so that a reader that stops reading stalls the writer within kilobytes.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4 << 10)
	}
	return c, err
}

// exportEnv is an env of real runs whose server has small socket buffers
// and reports each closed connection on closed.
func exportEnv(t *testing.T, ex ExportConfig, cl ClientLimits) (*env, chan net.Conn) {
	t.Helper()
	closed := make(chan net.Conn, 64)
	e := newEnv(t, envOptions{factory: NewFactory, api: APIConfig{Specs: catalog.Specs, Exports: ex, Clients: cl}})
	e.srv.Close()
	r := chi.NewRouter()
	r.Route("/api", e.api.Routes)
	srv := httptest.NewUnstartedServer(r)
	srv.Listener = smallBuffers{srv.Listener}
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			select {
			case closed <- c:
			default:
			}
		}
	}
	srv.Start()
	e.srv = srv
	return e, closed
}

// hmcDraws makes an 8-chain HMC run on linreg with n kept draws a chain
// and returns the path of its draws file.
func hmcDraws(t *testing.T, e *env, n int) string {
	t.Helper()
	var created wire.RunCreated
	if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"linreg","method":"hmc","controls":{"chains":8,"warmup":0}}`, &created); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if code, _ := e.do("POST", "/api/runs/"+created.ID+"/ops", "application/json", `{"op":"step","n":`+strconv.Itoa(n)+`}`, nil); code != http.StatusNoContent {
		t.Fatalf("step: %d", code)
	}
	run, _ := e.reg.Get(created.ID)
	enginetest.WaitFrame(t, run, 60*time.Second, func(f *engine.Frame) bool { return f.Step == int64(n) })
	return "/api/runs/" + created.ID + "/draws.csv"
}

// tinyRecv dials with a 4 KiB receive buffer.
func tinyRecv() *http.Client {
	d := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4<<10) })
	}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
}

// A draws file comes whole, with its Content-Length, or not at all: a
// reader that stalls past the deadline has its connection closed short of
// the length, so its client reports an error, never a 200 cut mid-row. A
// reader that keeps up gets every byte and every row.
func TestDrawsExportWholeOrFailed(t *testing.T) {
	checkLeaks(t)
	// MinRate this high makes the deadline Grace after the start: the
	// stalled reader below meets it for certain, whatever the machine's speed.
	e, closed := exportEnv(t, ExportConfig{Grace: 500 * time.Millisecond, MinRate: 1 << 40}, ClientLimits{})
	path := hmcDraws(t, e, 1000) // 8,000 rows, about 0.4 MB: far beyond the 8 KiB of socket buffers
	res, err := tinyRecv().Get(e.srv.URL + path)
	if err != nil { // cut before the status line: no 200 either (a machine too loaded to send 64 KiB in the Grace)
		t.Logf("the stalled download failed before its headers: %v", err)
	} else {
		defer res.Body.Close()
		stalled(t, res, closed)
	}

	// The same file to a reader that keeps up: whole, every row complete.
	e2, _ := exportEnv(t, ExportConfig{}, ClientLimits{})
	path = hmcDraws(t, e2, 1000)
	res, err = tinyRecv().Get(e2.srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK || int64(len(b)) != res.ContentLength {
		t.Fatalf("a full download: %d, %d of %d bytes, %v", res.StatusCode, len(b), res.ContentLength, err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil || len(rows) != 1+8*1000 {
		t.Fatalf("%d rows (%v), want a header and 8 × 1000", len(rows), err)
	}
}

// Exports in flight are capped per address: a second download while one
// is being written is a 429 naming exports with Retry-After, and the slot
// is free once the first ends.
func TestDrawsExportsCappedPerAddress(t *testing.T) {
	checkLeaks(t)
	e, closed := exportEnv(t, ExportConfig{Grace: 500 * time.Millisecond, MinRate: 1 << 40}, ClientLimits{Exports: 1})
	path := hmcDraws(t, e, 1000)
	first, err := tinyRecv().Get(e.srv.URL + path) // not read: it holds its slot until the deadline
	if err != nil {
		t.Fatal(err)
	}
	defer first.Body.Close()
	var ae wire.APIError
	code, h := e.do("GET", path, "", "", &ae)
	if code != http.StatusTooManyRequests || ae.Field != "exports" || h.Get("Retry-After") == "" {
		t.Fatalf("a second download: %d %+v", code, ae)
	}
	<-closed                                     // the first is given up
	deadline := time.Now().Add(10 * time.Second) // a hang guard
	for {
		code, _, b := e.roundTrip("GET", path, "", nil)
		if code == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the slot was not freed: %d %s", code, b)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A draws file asked for during a long step is a 503 with Retry-After once
// StepWait has passed, not a 500 after the request timeout.
func TestDrawsDuringLongStep(t *testing.T) {
	checkLeaks(t)
	g := &gatedFake{initGate: make(chan struct{}), stepGate: make(chan struct{}), stepEntered: make(chan struct{}, 1)}
	close(g.initGate)
	e := gatedEnv(t, g)
	e.api.exportCfg.StepWait = 20 * time.Millisecond
	id := e.create()
	run, _ := e.reg.Get(id)
	enginetest.WaitFrame(t, run, 10*time.Second, func(f *engine.Frame) bool { return f.Status == engine.StatusPaused })
	if code, _ := e.do("POST", "/api/runs/"+id+"/ops", "application/json", `{"op":"step"}`, nil); code != http.StatusNoContent {
		t.Fatalf("step: %d", code)
	}
	<-g.stepEntered
	var ae wire.APIError
	code, h := e.do("GET", "/api/runs/"+id+"/draws.csv", "", "", &ae)
	close(g.stepGate)
	if code != http.StatusServiceUnavailable || h.Get("Retry-After") == "" || !strings.Contains(ae.Message, "step") {
		t.Fatalf("draws during a long step: %d %+v Retry-After %q", code, ae, h.Get("Retry-After"))
	}
}

// stalled reads nothing of res until the server has closed the connection,
// then reads it: a short body ending in an error.
func stalled(t *testing.T, res *http.Response, closed chan net.Conn) {
	t.Helper()
	if res.StatusCode != http.StatusOK || res.ContentLength <= 0 {
		t.Fatalf("draws: %d, Content-Length %d", res.StatusCode, res.ContentLength)
	}
	select { // read nothing until the server has given up and closed
	case <-closed:
	case <-time.After(30 * time.Second): // a hang guard
		t.Fatal("the server kept a stalled download open")
	}
	b, err := io.ReadAll(res.Body)
	if err == nil || int64(len(b)) >= res.ContentLength || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("a stalled download read %d of %d bytes with %v: want a short read ending in an error", len(b), res.ContentLength, err)
	}
}

// Shutdown does not wait for a slow download: when the API's streams close
// the download is cut short of its Content-Length, an error to its client.
func TestDrawsDownloadCutAtShutdown(t *testing.T) {
	checkLeaks(t)
	e, closed := exportEnv(t, ExportConfig{}, ClientLimits{}) // deadlines far off: only shutdown ends it
	path := hmcDraws(t, e, 1000)
	res, err := tinyRecv().Get(e.srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	e.api.CloseStreams()
	stalled(t, res, closed)
}
