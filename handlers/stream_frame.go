package handlers

import (
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

// frameWriter is a hub's state between ticks (stream_hub.go): what it last
// sent of the shared parts, and buffers reused from tick to tick.
type frameWriter struct {
	band   *wire.Band
	data   *wire.DataPoints       // the training points last sent: an edit sends them again
	sent   map[string]*wire.Extra // the extra last sent under each key
	extras []*wire.Extra
	trace  map[string]wire.Series
	enc    wire.FrameEncoder
}

// frame builds the next tick's frame from the run's frame f and the points
// read into cur; the shared parts go in when the last tick did not have them.
func (o *frameWriter) frame(f *engine.Frame, cur *engine.Cursor, traceNames []string, data *wire.DataPoints) wire.Frame {
	if o.trace == nil {
		o.trace = make(map[string]wire.Series, len(traceNames))
		o.sent = make(map[string]*wire.Extra)
	}
	w := stateFrame(f, cur.Full, f.Step)
	w.Objective, w.Trace = cur.Objective, o.trace
	chains, perChain := chainCount(f.Controls)
	for i, name := range traceNames {
		if k, ok := chainSlot(name); perChain && ok && k > chains {
			delete(w.Trace, name) // a chain slot this run does not have (traces.go)
			continue
		}
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

// stateFrame is the wire frame of f's state at step, without its points,
// band, data or extras: what every frame to a viewer carries whole.
func stateFrame(f *engine.Frame, full bool, step int64) wire.Frame {
	return wire.Frame{Type: "frame", Full: full, Epoch: f.Epoch, Step: step, Status: string(f.Status), Message: f.Message,
		Budget: f.Budget, Controls: f.Controls, Speed: f.Speed, Marks: f.Marks, Diagnostics: f.Diagnostics, StepsPerSec: f.StepsPerSec,
		Evals: f.Evals, CPUSeconds: f.CPU.Seconds(), Held: f.Held}
}
