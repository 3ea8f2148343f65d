package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

// maxWeightIndex bounds a weight command's index before the run checks it
// against its method's number of weights.
const maxWeightIndex = 1 << 24

// opNames lists the commands a viewer may send.
const opNames = "play, pause, step, reset, continue, set, speed, weight, data, inducing"

// parseOp decodes and checks a command's shape; the run checks the values
// against the method's spec.
func parseOp(b []byte) (wire.Op, error) {
	var m wire.Op
	if err := checkDuplicateKeys(b); err != nil {
		return m, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		err = jsonFieldError(err, "op, n, name, value, x, y, edit")
		if fe, ok := errors.AsType[*sim.FieldError](err); ok && fe.Field == "value" {
			if p := probeOp(b); p.Op == engine.OpSet && p.Name != "" {
				fe.Field = p.Name // a set's value neither a number nor a string: name the control
			}
		}
		return m, err
	}
	if dec.More() {
		return m, &sim.FieldError{Field: "body", Message: "want a single JSON object"}
	}
	unused := func(used ...string) error {
		present := map[string]bool{"n": m.N != nil, "name": m.Name != nil, "value": m.Value != nil, "x": m.X != nil, "y": m.Y != nil, "edit": m.Edit != nil}
		for _, u := range used {
			delete(present, u)
		}
		for _, f := range []string{"n", "name", "value", "x", "y", "edit"} {
			if present[f] {
				return &sim.FieldError{Field: f, Message: fmt.Sprintf("not used by op %q", m.Op)}
			}
		}
		return nil
	}
	switch m.Op {
	case engine.OpPlay, engine.OpPause, engine.OpReset, engine.OpContinue:
		return m, unused()
	case engine.OpStep:
		if m.N != nil && (*m.N != float64(int64(*m.N)) || *m.N < 1 || *m.N > engine.MaxStepCommand) {
			return m, &sim.FieldError{Field: "n", Message: fmt.Sprintf("want a whole number in [1, %d]", engine.MaxStepCommand)}
		}
		return m, unused("n")
	case engine.OpSet:
		if m.Name == nil || *m.Name == "" {
			return m, &sim.FieldError{Field: "name", Message: "required: the control to set"}
		}
		if m.Value == nil {
			if probeOp(b).Value != nil { // null
				return m, &sim.FieldError{Field: *m.Name, Message: "want a number, or one of a choice control's options as a string, got null"}
			}
			return m, &sim.FieldError{Field: "value", Message: "required: a number, or one of a choice control's options"}
		}
		return m, unused("name", "value")
	case engine.OpSpeed:
		if m.Value == nil || m.Value.IsChoice() {
			return m, &sim.FieldError{Field: "value", Message: fmt.Sprintf("want steps per second, a number in [0, %d] (0: as fast as possible)", engine.MaxSpeed)}
		}
		return m, unused("value")
	case engine.OpWeight: // the run checks n against its number of weights
		if m.N == nil || *m.N != float64(int64(*m.N)) || *m.N < 0 || *m.N > maxWeightIndex {
			return m, &sim.FieldError{Field: "n", Message: fmt.Sprintf("want a weight index, a whole number in [0, %d]", maxWeightIndex)}
		}
		return m, unused("n")
	case engine.OpData: // the points are checked against the run's data set (dataedit.go)
		return m, checkDataOp(m, unused)
	case engine.OpInducing: // the run checks n against its number of inducing inputs
		if m.N == nil || *m.N != float64(int64(*m.N)) || *m.N < 0 || *m.N > maxWeightIndex {
			return m, &sim.FieldError{Field: "n", Message: fmt.Sprintf("want an inducing input's index, a whole number in [0, %d]", maxWeightIndex)}
		}
		if m.Value == nil || m.Value.IsChoice() {
			return m, &sim.FieldError{Field: "value", Message: "want the inducing input's new x, a number in the plot's x-range"}
		}
		return m, unused("n", "value")
	case "":
		return m, &sim.FieldError{Field: "op", Message: "required: one of " + opNames}
	}
	return m, &sim.FieldError{Field: "op", Message: fmt.Sprintf("unknown op %q (allowed: %s)", m.Op, opNames)}
}

// opProbe is what parseOp reads again of a message it refused, to name the
// control in the error.
type opProbe struct {
	Op    string          `json:"op"`
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"` // "null" when null, nil when absent
}

// probeOp decodes what it can of b, leniently.
func probeOp(b []byte) opProbe {
	var p opProbe
	json.Unmarshal(b, &p) // errors leave what decoded so far
	return p
}

// runOp sends the command m to run and waits at most wait for the run's
// answer. It returns nil when the run applied it, a *engine.Queued when the
// run took it but is inside a long step or preparing (it is applied or
// refused later, never both), and otherwise the error that refused it: it
// was not applied and never will be (engine.ErrRunBusy among them).
func runOp(parent context.Context, m wire.Op, run *engine.Run, wait time.Duration) error {
	ctx, cancel := context.WithTimeout(parent, wait)
	defer cancel()
	return applyOp(ctx, m, run)
}

// queuedBody is the acknowledgement of a queued command.
func queuedBody(q *engine.Queued) wire.Queued {
	return wire.Queued{Type: "queued", Op: q.Op, Field: q.Field, Step: q.Step, Status: string(q.Status), Message: q.Error()}
}

// applyOp sends the command m to run and returns its answer.
func applyOp(ctx context.Context, m wire.Op, run *engine.Run) error {
	switch m.Op {
	case engine.OpPlay:
		return run.Play(ctx)
	case engine.OpPause:
		return run.Pause(ctx)
	case engine.OpReset:
		return run.Reset(ctx)
	case engine.OpContinue:
		return run.Continue(ctx)
	case engine.OpStep:
		n := int64(1)
		if m.N != nil {
			n = int64(*m.N)
		}
		return run.Step(ctx, n)
	case engine.OpSet:
		return run.Set(ctx, *m.Name, *m.Value)
	case engine.OpSpeed:
		return run.SetSpeed(ctx, m.Value.Num)
	case engine.OpWeight:
		return run.SetWeight(ctx, int64(*m.N))
	case engine.OpData:
		d, err := editedData(m, run.BaseData()) // dataedit.go
		if err != nil {
			return err
		}
		return run.SetData(ctx, d)
	case engine.OpInducing:
		return run.SetInducing(ctx, int(*m.N), m.Value.Num)
	}
	return &sim.FieldError{Field: "op", Message: "unknown op"}
}

// queued tells the viewer that q was taken during a long step, and later
// sends the run's refusal if it refuses it then; an applied command shows
// in the frames. The wait ends with the connection.
func (c *wsConn) queued(q *engine.Queued) {
	c.send(queuedBody(q))
	go func() {
		if err := q.Wait(c.ctx); err != nil && c.ctx.Err() == nil {
			c.sendError(errorFrame(q.Op, err))
		}
	}()
}
