package handlers

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/experiment"
)

// getDraws handles GET /api/runs/{id}/draws.csv: a sampler's kept draws,
// every chain, at full precision, in the format of `playground run --draws`
// (sim/experiment: .chain, .iteration, .draw, then the parameters, in the
// data's report units). The draws are copied on the run's goroutine
// between two steps, so the file is one consistent state; the copy is the
// run's kept draws and no more (a chain keeps at most 100,000 of them), and
// it is written out after the run has gone back to stepping. A method that
// is not a sampler keeps no draws: 400 naming the method.
//
// The file finishes or fails loudly. Its length is counted first (writing
// it to nowhere), so the answer has a Content-Length, and it is then
// written under a deadline that grows with what has been sent (ExportConfig:
// a Grace, then MinRate): a reader too slow for it has its connection
// closed short of the length, which every client reports as an error,
// never a file cut mid-row with 200. A run inside a long step answers 503
// with Retry-After after StepWait. The route stays outside the request
// timeout (the deadlines above bound it), and exports in flight are capped
// per client address and in all.
func (a *API) getDraws(w http.ResponseWriter, r *http.Request) {
	run, err := a.reg.Get(chi.URLParam(r, "id"))
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	addr := clientAddr(r)
	if held, ok := a.exports.acquire(addr, a.limits.Exports, a.exportCfg.MaxInFlight); !ok {
		msg := fmt.Sprintf("the server is writing its maximum of %d draws files at once; one frees as soon as its download ends", a.exportCfg.MaxInFlight)
		if held >= a.limits.Exports {
			msg = fmt.Sprintf("your network address (%s) is downloading %d draws files, the most one address may at once; the next can start when one of them ends", addr, held)
		}
		writeErr(w, r, a.log, &capError{field: "exports", message: msg, retry: 2 * time.Second})
		return
	}
	defer a.exports.release(addr)

	var t *experiment.ChainTable
	ctx, cancel := context.WithTimeout(r.Context(), a.exportCfg.StepWait)
	defer cancel()
	err = run.Inspect(ctx, func(m sim.Stepper, d *sim.Dataset) {
		if c, ok := m.(sim.Chains); ok {
			t = experiment.SamplerDraws(c, d)
		}
	})
	if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
		wait := 5 * time.Second // a step of unknown length: ask again soon
		if sps := run.Latest().StepsPerSec; sps > 0 {
			wait = min(time.Minute, max(time.Second, time.Duration(float64(time.Second)/sps)))
		}
		w.Header().Set("Retry-After", retryAfter(wait))
		writeError(w, a.log, http.StatusServiceUnavailable, "id", fmt.Sprintf(
			"the run is inside a step that has lasted over %v; its draws are copied between steps: try again in %s", a.exportCfg.StepWait, retryAfter(wait)+" s"))
		return
	}
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	if t == nil {
		c := run.Config()
		writeError(w, a.log, http.StatusBadRequest, "method",
			fmt.Sprintf("%s keeps no draws: only the samplers (metropolis, sgld, hmc, nuts) do; `playground run --draws` writes sampled functions for the others", c.Method))
		return
	}
	var n countWriter
	if err := t.WriteCSV(&n); err != nil {
		a.log.Error("counting draws", "run", run.ID(), "err", err)
		writeError(w, a.log, http.StatusInternalServerError, "", "internal error")
		return
	}
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, run.ID())
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="draws-`+name+`.csv"`)
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.FormatInt(int64(n), 10))
	if r.Method == http.MethodHead {
		return
	}
	dw := &deadlineWriter{w: w, rc: http.NewResponseController(w), start: time.Now(), grace: a.exportCfg.Grace, rate: float64(a.exportCfg.MinRate)}
	// Shutdown does not wait for a slow download: it is cut (short of its
	// Content-Length) when the API's streams close.
	quit, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-a.closing:
			dw.abort()
		case <-quit:
		}
	}()
	defer func() { close(quit); <-stopped }()
	bw := bufio.NewWriterSize(dw, 64<<10)
	err = t.WriteCSV(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil && r.Context().Err() == nil {
		a.log.Warn("draws download cut short: the connection closes before its Content-Length", "run", run.ID(), "sent", dw.sent, "of", int64(n), "err", err)
	}
}

// countWriter counts what is written to it and keeps nothing.
type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

// deadlineWriter writes to a response under a write deadline moved before
// every write: start + grace + (bytes sent and about to be) ÷ rate. A
// reader keeping up rate never meets it; a slower one does, and the write
// fails.
type deadlineWriter struct {
	w       io.Writer
	rc      *http.ResponseController
	start   time.Time
	grace   time.Duration
	rate    float64 // bytes a second
	sent    int64
	aborted atomic.Bool
}

// errShuttingDown ends a download when the server shuts down.
var errShuttingDown = errors.New("the server is shutting down")

// abort makes the write in progress, and every later one, fail at once.
// It may be called from another goroutine while the handler runs.
func (d *deadlineWriter) abort() {
	d.aborted.Store(true)
	d.rc.SetWriteDeadline(time.Now())
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	secs := float64(d.sent+int64(len(p))) / d.rate
	at := d.start.Add(d.grace + time.Duration(min(secs, math.MaxInt64/float64(time.Second))*float64(time.Second)))
	if err := d.rc.SetWriteDeadline(at); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return 0, err
	}
	if d.aborted.Load() { // after moving the deadline: an abort since has set it to the past, or is seen here
		return 0, errShuttingDown
	}
	n, err := d.w.Write(p)
	d.sent += int64(n)
	return n, err
}
