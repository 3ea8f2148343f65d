package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/gorilla/websocket"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

// StreamConfig tunes the run stream. Zero values take the defaults.
//
// A viewer that stops reading is dropped at most PongWait after the last
// pong it sent, so within PongWait of stopping: a pong can only answer a
// ping read after every frame before it, and whatever else the viewer
// does, the read deadline then ends the connection, a blocked write
// included. A write that waits longer than WriteWait drops it sooner.
type StreamConfig struct {
	WriteWait  time.Duration // deadline of each write; a viewer slower than this is dropped. Default 10s
	PongWait   time.Duration // a viewer silent this long (no pong) is dropped. Default 10s
	PingPeriod time.Duration // default PongWait/2, so a pong has half of PongWait to arrive
	ReadLimit  int64         // largest message from a viewer, default 4 KiB
	// CommandWait is how long a command waits for the run's answer before
	// it is acknowledged as queued (a run inside a long step), default 1s.
	CommandWait time.Duration
	// A run watched by more than CrowdViewers (default 24: a lecture) sends
	// each viewer at most CrowdFrameRate frames a second (default 12), the
	// rest merged into the next (frames are latest-wins, the histories
	// accumulate): every viewer write costs CPU the runs would train with.
	CrowdViewers   int
	CrowdFrameRate float64
}

func (c StreamConfig) withDefaults() StreamConfig {
	if c.WriteWait <= 0 {
		c.WriteWait = 10 * time.Second
	}
	if c.PongWait <= 0 {
		c.PongWait = 10 * time.Second
	}
	if c.PingPeriod <= 0 || c.PingPeriod >= c.PongWait {
		c.PingPeriod = c.PongWait / 2
	}
	if c.ReadLimit <= 0 {
		c.ReadLimit = 4 << 10
	}
	if c.CommandWait <= 0 {
		c.CommandWait = time.Second
	}
	if c.CrowdViewers <= 0 {
		c.CrowdViewers = 24
	}
	if c.CrowdFrameRate <= 0 {
		c.CrowdFrameRate = 12
	}
	return c
}

// wsConn is one viewer: the handler goroutine reads, one writer goroutine
// writes (gorilla allows one of each).
type wsConn struct {
	api        *API
	conn       *websocket.Conn
	run        *engine.Run
	errs       chan any // reader → writer: wire.Error and wire.Queued; dropped when full
	readerDone chan struct{}
	readOnly   bool            // a viewer of another session's run: commands are refused
	ctx        context.Context // ends with the read loop
}

// serveStream upgrades GET /api/runs/{id}/stream to a websocket.
func (a *API) serveStream(w http.ResponseWriter, r *http.Request) {
	if !a.checkOrigin(r) {
		writeError(w, a.log, http.StatusForbidden, "origin", "this origin may not open a stream (allowed: the page's own origin and --allow-origin)")
		return
	}
	leave, ok := a.enterStream(w, r) // clients_held.go
	if !ok {
		return
	}
	defer leave()
	run, release, err := a.reg.Watch(chi.URLParam(r, "id"))
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	defer release()
	if !a.enter() {
		writeError(w, a.log, http.StatusServiceUnavailable, "", "the server is shutting down")
		return
	}
	defer a.wg.Done()
	conn, err := a.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered with the error
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := &wsConn{api: a, conn: conn, run: run, errs: make(chan any, 8), readerDone: make(chan struct{}), ctx: ctx,
		readOnly: a.owns(r, run.ID()) != nil}
	a.track(c, true)
	defer a.track(c, false)
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		c.writeLoop()
		conn.Close() // a failed write must also end the read
	}()
	c.readLoop()
	cancel() // queued commands' waiters stop; the commands stay queued
	close(c.readerDone)
	// The viewer closed, broke or fell silent: a writer blocked on it must
	// not hold the connection for another WriteWait.
	conn.Close()
	<-writerDone
}

// enter counts a stream handler in unless the API is closing.
func (a *API) enter() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return false
	}
	a.wg.Add(1)
	return true
}

func (a *API) track(c *wsConn, on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if on {
		a.conns[c] = struct{}{}
	} else {
		delete(a.conns, c)
	}
}

// CloseStreams tells every stream to send a close frame ("going away") and
// end, and refuses new ones. For http.Server.RegisterOnShutdown: Shutdown
// does not close hijacked connections.
func (a *API) CloseStreams() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.closed {
		a.closed = true
		close(a.closing)
		// A writer blocked on a viewer that stopped reading would hold
		// shutdown for the whole WriteWait: cut its pending write short.
		for c := range a.conns {
			c.conn.NetConn().SetWriteDeadline(time.Now().Add(closeWriteWait))
		}
	}
}

// closeWriteWait bounds the write of a close frame, and any write pending
// when the server shuts down.
const closeWriteWait = 2 * time.Second

// WaitStreams waits until every stream handler has returned, or ctx ends.
func (a *API) WaitStreams(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		a.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		a.mu.Lock()
		for c := range a.conns {
			c.conn.Close() // unblocks their reads and writes
		}
		a.mu.Unlock()
		<-done
		return ctx.Err()
	}
}

// readLoop reads commands until the connection fails or closes.
func (c *wsConn) readLoop() {
	cfg := c.api.stream
	c.conn.SetReadLimit(cfg.ReadLimit)
	c.conn.SetReadDeadline(time.Now().Add(cfg.PongWait))
	c.conn.SetPongHandler(func(string) error { return c.conn.SetReadDeadline(time.Now().Add(cfg.PongWait)) })
	for {
		kind, msg, err := c.conn.ReadMessage()
		if err != nil {
			if websocket.IsUnexpectedCloseError(err, websocket.CloseGoingAway, websocket.CloseNormalClosure, websocket.CloseNoStatusReceived) {
				c.api.log.Debug("stream read ended", "run", c.run.ID(), "err", err)
			}
			return
		}
		if kind != websocket.TextMessage {
			c.sendError(wire.Error{Field: "body", Message: "want a JSON text message"})
			continue
		}
		op, err := parseOp(msg)
		if err == nil && c.readOnly {
			err = ErrNotYours
		}
		if err == nil {
			err = runOp(c.ctx, op, c.run, cfg.CommandWait)
		}
		q, queued := errors.AsType[*engine.Queued](err)
		c.api.observer.Command(err == nil || queued)
		switch {
		case queued:
			c.queued(q)
		case err != nil:
			c.sendError(errorFrame(op.Op, err))
		}
	}
}

func errorFrame(op string, err error) wire.Error {
	var fe *sim.FieldError
	switch {
	case errors.As(err, &fe):
		return wire.Error{Op: op, Field: fe.Field, Message: fe.Message}
	case errors.Is(err, engine.ErrRunClosed):
		return wire.Error{Op: op, Message: "the run has ended"}
	case errors.Is(err, ErrNotYours):
		return wire.Error{Op: op, Field: "session", Message: err.Error()}
	case errors.Is(err, engine.ErrRunBusy):
		return wire.Error{Op: op, Field: "op", Message: err.Error()}
	}
	return wire.Error{Op: op, Message: err.Error()}
}

// sendError hands an error to the writer; a viewer flooding bad commands
// loses some answers rather than blocking.
func (c *wsConn) sendError(e wire.Error) {
	e.Type = "error"
	c.send(e)
}

// send hands a message to the writer, dropped when its queue is full.
func (c *wsConn) send(m any) {
	select {
	case c.errs <- m:
	default:
	}
}

// writeLoop is the connection's only writer: frames at the run's hub's
// ticks (stream_hub.go), errors, pings, and the close frame.
func (c *wsConn) writeLoop() {
	cfg := c.api.stream
	ping := time.NewTicker(cfg.PingPeriod)
	defer ping.Stop()
	h := c.api.joinHub(c.run)
	defer c.api.leaveHub(h)
	w := frameConn{c}
	var last *tick // the tick this viewer last sent
	t, changed := h.next()
	for {
		if t != nil && t != last {
			sent, err := h.send(&w, last, t)
			if err != nil {
				return
			}
			if sent {
				last = t
			}
		}
		t = nil
		select {
		case <-changed:
			t, changed = h.next()
		case e := <-c.errs:
			if err := c.write(e); err != nil {
				return
			}
		case <-ping.C:
			c.conn.SetWriteDeadline(time.Now().Add(cfg.WriteWait))
			if err := c.conn.WriteMessage(websocket.PingMessage, nil); err != nil {
				return
			}
		case <-c.api.closing:
			c.close(websocket.CloseGoingAway, "server shutting down")
			return
		case <-c.run.Done():
			c.close(websocket.CloseNormalClosure, "run deleted")
			return
		case <-c.readerDone:
			return
		}
	}
}

// write sends one JSON message under a write deadline (errors; frames go
// through writeFrame).
func (c *wsConn) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		c.api.log.Error("encoding a stream message", "run", c.run.ID(), "err", err)
		return err
	}
	c.conn.SetWriteDeadline(time.Now().Add(c.api.stream.WriteWait))
	return c.conn.WriteMessage(websocket.TextMessage, b)
}

// close sends a close frame and waits briefly for the viewer's answer, so
// the closing handshake completes.
func (c *wsConn) close(code int, reason string) {
	c.conn.SetWriteDeadline(time.Now().Add(min(c.api.stream.WriteWait, closeWriteWait)))
	if c.conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason)) != nil {
		return
	}
	select {
	case <-c.readerDone:
	case <-time.After(time.Second):
		c.conn.Close()
	}
}
