package handlers

import (
	"time"

	"github.com/gorilla/websocket"

	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

// frameWriter is a writer goroutine's state between frames: what it last
// sent of the shared parts, and buffers reused from frame to frame.
type frameWriter struct {
	band   *wire.Band
	data   *wire.DataPoints       // the training points last sent: an edit sends them again
	sent   map[string]*wire.Extra // the extra last sent under each key
	extras []*wire.Extra
	trace  map[string]wire.Series
	enc    wire.FrameEncoder
}

// frame builds the viewer's frame from the run's frame f and the points
// read into cur; the shared parts go in when this viewer has not had them.
func (o *frameWriter) frame(f *engine.Frame, cur *engine.Cursor, traceNames []string, data *wire.DataPoints) wire.Frame {
	if o.trace == nil {
		o.trace = make(map[string]wire.Series, len(traceNames))
		o.sent = make(map[string]*wire.Extra)
	}
	w := wire.Frame{Type: "frame", Full: cur.Full, Epoch: f.Epoch, Step: f.Step, Status: string(f.Status), Message: f.Message,
		Budget: f.Budget, Controls: f.Controls, Speed: f.Speed, Objective: cur.Objective, Trace: o.trace,
		Marks: f.Marks, Diagnostics: f.Diagnostics, StepsPerSec: f.StepsPerSec}
	for i, name := range traceNames {
		w.Trace[name] = cur.Traces[i] // overwrites last frame's: the names are fixed
	}
	if n := len(cur.Objective); n > 0 && cur.Objective[n-1].Step > w.Step {
		w.Step = cur.Objective[n-1].Step // points recorded since the frame was published
	}
	if cur.Full || f.Predictive != o.band {
		w.Predictive, o.band = f.Predictive, f.Predictive
	}
	if f.Data != nil {
		data = f.Data
	}
	if cur.Full || data != o.data {
		w.Data, o.data = data, data
	}
	o.extras = o.extras[:0]
	for _, x := range f.Extras {
		if cur.Full || o.sent[x.Key] != x {
			o.extras = append(o.extras, x)
			o.sent[x.Key] = x
		}
	}
	w.Extras = o.extras
	return w
}

// writeFrame sends the viewer's next frame under a write deadline.
func (c *wsConn) writeFrame(f *engine.Frame, cur *engine.Cursor) error {
	w := c.out.frame(f, cur, c.run.TraceNames(), c.run.Data())
	b, err := c.out.enc.Encode(&w)
	if err != nil {
		c.api.log.Error("encoding a stream frame", "run", c.run.ID(), "err", err)
		return err
	}
	c.conn.SetWriteDeadline(time.Now().Add(c.api.stream.WriteWait))
	if err := c.conn.WriteMessage(websocket.TextMessage, b); err != nil {
		return err
	}
	c.api.observer.FrameSent(len(b))
	return nil
}
