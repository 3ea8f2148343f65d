package handlers

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/gorilla/websocket"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
)

// wireFrame is a frame as a viewer receives it. objective and trace hold
// the points kept since the frame this viewer last got; when the epoch
// changes (a reset) they start again from step 1. predictive is sent when
// it changed, data with a viewer's first frame.
type wireFrame struct {
	Type        string                     `json:"type"`
	Full        bool                       `json:"full"` // the points replace what the viewer had
	Epoch       uint64                     `json:"epoch"`
	Step        int64                      `json:"step"`
	Status      engine.Status              `json:"status"`
	Message     string                     `json:"message,omitempty"`
	Controls    sim.Controls               `json:"controls"`
	Speed       float64                    `json:"speed"`
	Objective   []numeric.Point            `json:"objective"`
	Trace       map[string][]numeric.Point `json:"trace"`
	Marks       []engine.Mark              `json:"marks"`
	Diagnostics map[string]float64         `json:"diagnostics"`
	StepsPerSec float64                    `json:"steps_per_sec"`
	Data        *engine.DataPoints         `json:"data,omitempty"`

	// Encoded once by the run and shared by every viewer. encoding/json
	// would re-scan a Marshaler's output for every viewer (it validates and
	// compacts it: ~0.3 ms for a 200-point band, most of a frame's cost), so
	// appendJSON splices their bytes in after the rest.
	Predictive *engine.Band      `json:"-"` // "predictive", when it changed
	Draws      *engine.DrawSet   `json:"-"` // "draws", samplers: when a new set is out
	Weights    *engine.WeightSet `json:"-"` // "weights", weight-space VI: when a new marginal is out
}

// frameWriter is a writer goroutine's state between frames: what it last
// sent of the shared parts, and buffers reused from frame to frame.
type frameWriter struct {
	band  *engine.Band
	draws *engine.DrawSet
	wts   *engine.WeightSet
	trace map[string][]numeric.Point
	buf   bytes.Buffer
	enc   *json.Encoder // writes to buf
}

// frame builds the viewer's frame from the run's frame f and the points
// read into cur; the shared parts go in when this viewer has not had them.
func (o *frameWriter) frame(f *engine.Frame, cur *engine.Cursor, traceNames []string, data *engine.DataPoints) wireFrame {
	if o.trace == nil {
		o.trace = make(map[string][]numeric.Point, len(traceNames))
	}
	w := wireFrame{Type: "frame", Full: cur.Full, Epoch: f.Epoch, Step: f.Step, Status: f.Status, Message: f.Message,
		Controls: f.Controls, Speed: f.Speed, Objective: cur.Objective, Trace: o.trace,
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
	if cur.Full {
		w.Data = data
	}
	if f.Draws != nil && (cur.Full || f.Draws != o.draws) {
		w.Draws, o.draws = f.Draws, f.Draws
	}
	if f.Weights != nil && (cur.Full || f.Weights != o.wts) {
		w.Weights, o.wts = f.Weights, f.Weights
	}
	return w
}

// appendJSON encodes w into o.buf: the per-viewer fields through
// encoding/json, then the shared parts' bytes as they are.
func (o *frameWriter) appendJSON(w *wireFrame) error {
	o.buf.Reset()
	if o.enc == nil {
		o.enc = json.NewEncoder(&o.buf)
	}
	if err := o.enc.Encode(w); err != nil {
		return err
	}
	o.buf.Truncate(o.buf.Len() - len("}\n")) // Encode ends an object with "}\n"
	if w.Predictive != nil {
		if err := o.splice(`,"predictive":`, w.Predictive); err != nil {
			return err
		}
	}
	if w.Draws != nil {
		if err := o.splice(`,"draws":`, w.Draws); err != nil {
			return err
		}
	}
	if w.Weights != nil {
		if err := o.splice(`,"weights":`, w.Weights); err != nil {
			return err
		}
	}
	o.buf.WriteByte('}')
	return nil
}

// splice appends a key and the run's encoding of a shared part, as it is.
func (o *frameWriter) splice(key string, m json.Marshaler) error {
	raw, err := m.MarshalJSON() // the bytes the run made, not a copy
	if err != nil {
		return err
	}
	o.buf.WriteString(key)
	o.buf.Write(raw)
	return nil
}

// writeFrame sends the viewer's next frame under a write deadline.
func (c *wsConn) writeFrame(f *engine.Frame, cur *engine.Cursor) error {
	w := c.out.frame(f, cur, c.run.TraceNames(), c.run.Data())
	if err := c.out.appendJSON(&w); err != nil {
		c.api.log.Error("encoding a stream frame", "run", c.run.ID(), "err", err)
		return err
	}
	c.conn.SetWriteDeadline(time.Now().Add(c.api.stream.WriteWait))
	return c.conn.WriteMessage(websocket.TextMessage, c.out.buf.Bytes())
}
