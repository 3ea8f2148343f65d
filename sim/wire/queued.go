package wire

// Queued acknowledges a command the run has taken but not yet applied,
// because it is inside a long step or still preparing: the body of a 202
// from POST /api/runs/{id}/ops, and a stream message of type "queued". The
// command is applied when the run is next between steps, or refused then
// (an "error" message on the stream); it is never both refused and applied.
type Queued struct {
	Type    string `json:"type"` // "queued"
	Op      string `json:"op"`
	Field   string `json:"field,omitempty"` // the control, for a set
	Step    int64  `json:"step"`            // the run's step when queued: the command applies after the step in progress
	Status  string `json:"status"`          // the run's status then
	Message string `json:"message"`
}
