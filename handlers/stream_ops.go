package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

// parseOp decodes a command strictly and checks its shape against the
// engine's command table (engine.CheckOp) and an edit's encoding; the run
// checks the values against its spec and data (engine.Run.Do).
func parseOp(b []byte) (wire.Op, error) {
	var m wire.Op
	if err := checkDuplicateKeys(b); err != nil {
		return m, err
	}
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) { // encoding/json would read it as {}
		return m, &sim.FieldError{Field: "body", Message: "want a JSON object, got null"}
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
	if m.Op == engine.OpSet && m.Name != nil && *m.Name != "" && m.Value == nil && probeOp(b).Value != nil { // null, not absent
		return m, &sim.FieldError{Field: *m.Name, Message: "want a number, or one of a choice control's options as a string, got null"}
	}
	if err := engine.CheckOp(m); err != nil {
		return m, err
	}
	if m.Op == engine.OpData && m.Edit != nil {
		if _, err := decodeEdit("data", *m.Edit); err != nil {
			return m, err
		}
	}
	return m, nil
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
	return run.Do(ctx, m, applyEdit) // dataedit.go
}

// queuedBody is the acknowledgement of a queued command.
func queuedBody(q *engine.Queued) wire.Queued {
	return wire.Queued{Type: "queued", Op: q.Op, Field: q.Field, Step: q.Step, Status: string(q.Status), Message: q.Error()}
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
