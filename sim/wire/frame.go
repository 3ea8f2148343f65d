package wire

import (
	"bytes"
	"encoding/json"

	"github.com/posterior-playground/playground/sim"
)

// Frame is a run's state as one viewer receives it over the websocket.
// Objective and Trace hold the points kept since the frame this viewer last
// got; when the epoch changes (a reset) they start again from step 1.
// Predictive and each Extra are sent when they changed since this viewer's
// last frame, Data with its first.
type Frame struct {
	Type        string             `json:"type"` // "frame"
	Full        bool               `json:"full"` // the points replace what the viewer had
	Epoch       uint64             `json:"epoch"`
	Step        int64              `json:"step"`
	Status      string             `json:"status"`
	Message     string             `json:"message,omitempty"`
	Budget      int64              `json:"budget,omitempty"` // the step at which the run is done; absent: no budget
	Controls    sim.Controls       `json:"controls"`
	Speed       float64            `json:"speed"`
	Objective   Series             `json:"objective"`
	Trace       map[string]Series  `json:"trace"`
	Marks       []Mark             `json:"marks"`
	Diagnostics map[string]float64 `json:"diagnostics"`
	StepsPerSec float64            `json:"steps_per_sec"`
	// Evals and CPUSeconds are the budget the run has spent since it was
	// last initialised: the evaluations its steps reported (gradient
	// evaluations; density evaluations for a gradient-free sampler) and
	// their CPU seconds. Charts may take either as their x-axis.
	Evals      int64   `json:"evals"`
	CPUSeconds float64 `json:"cpu_seconds"`
	// Held: the run races in a group at equal budget and waited for the
	// slowest member for most of the time since the last frame; absent
	// when it did not.
	Held bool        `json:"held,omitempty"`
	Data *DataPoints `json:"data,omitempty"`

	// Sealed by the run and shared by every viewer. encoding/json would
	// re-scan a Marshaler's output for every viewer (it validates and
	// compacts it: ~0.3 ms for a 200-point band, most of a frame's cost), so
	// FrameEncoder splices their bytes in after the rest.
	Predictive *Band    `json:"-"` // "predictive", when it changed
	Extras     []*Extra `json:"-"` // each under its Key, when it changed
}

// Error is the stream's message for a refused command or a stopped run:
// the command's op, the field at fault and what is wrong or allowed.
type Error struct {
	Type    string `json:"type"` // "error"
	Op      string `json:"op,omitempty"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

// FrameEncoder encodes one viewer's frames into a buffer it reuses. It is
// not safe for concurrent use.
type FrameEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder // writes to buf
}

// Encode returns f's JSON: the per-viewer fields through encoding/json,
// then the shared parts' sealed bytes as they are. The bytes are valid
// until the next Encode.
func (e *FrameEncoder) Encode(f *Frame) ([]byte, error) {
	e.buf.Reset()
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.buf)
	}
	if err := e.enc.Encode(f); err != nil {
		return nil, err
	}
	e.buf.Truncate(e.buf.Len() - len("}\n")) // Encode ends an object with "}\n"
	if f.Predictive != nil {
		if err := e.splice("predictive", f.Predictive); err != nil {
			return nil, err
		}
	}
	for _, x := range f.Extras {
		if err := e.splice(x.Key, x); err != nil {
			return nil, err
		}
	}
	e.buf.WriteByte('}')
	return e.buf.Bytes(), nil
}

// splice appends ,"key": and a shared part's sealed bytes, as they are.
func (e *FrameEncoder) splice(key string, m json.Marshaler) error {
	raw, err := m.MarshalJSON() // the bytes the run made, not a copy
	if err != nil {
		return err
	}
	e.buf.WriteString(`,"`)
	e.buf.WriteString(key) // keys are checked by NewExtra: plain names
	e.buf.WriteString(`":`)
	e.buf.Write(raw)
	return nil
}
