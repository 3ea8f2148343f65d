package wire

import "github.com/posterior-playground/playground/sim"

// The JSON API's bodies (handlers serves them). Optional numbers are
// pointers, so a missing field is told apart from a zero.

// RunConfig names what to run: a data set, a method and model, a seed and
// overrides of the method's default controls.
type RunConfig struct {
	Data     string       `json:"data"`
	Target   string       `json:"target,omitempty"` // a target density's name (a run on a target has no data)
	Method   string       `json:"method"`
	Model    string       `json:"model,omitempty"` // "" for the data set's default
	Seed     uint64       `json:"seed"`
	Controls sim.Controls `json:"controls,omitempty"`
	Replay   *Replay      `json:"replay,omitempty"` // train to a shared link's state
}

// Replay is a shared link's state: train Step steps from the seed and the
// run's controls, applying each live change at the step it was made (the
// run's marks since its last reset).
type Replay struct {
	Step    int64  `json:"step"`
	Changes []Mark `json:"changes,omitempty"`
}

// CreateRun is the body of POST /api/runs.
type CreateRun struct {
	Data     string       `json:"data"`
	Method   string       `json:"method"`
	Model    string       `json:"model"`
	Seed     *uint64      `json:"seed"` // default 1, as on the command line
	Controls sim.Controls `json:"controls"`
	Replay   *Replay      `json:"replay"`
	// Target, instead of Data, is a target density in the plane: a
	// built-in target's name, with TargetControls, or a density's text
	// in Stan's notation; Method is then a gallery method, with Chains
	// chains for a sampler (0: the default).
	Target         string       `json:"target"`
	TargetControls sim.Controls `json:"target_controls"`
	Chains         int          `json:"chains"`
}

// RunCreated is POST /api/runs's answer.
type RunCreated struct {
	ID       string       `json:"id"`
	Stream   string       `json:"stream"`
	Data     string       `json:"data"`
	Method   string       `json:"method"`
	Model    string       `json:"model,omitempty"`
	Seed     uint64       `json:"seed"`
	Controls sim.Controls `json:"controls"`
	Traces   []string     `json:"traces"`
}

// RunInfo is GET /api/runs/{id}'s answer.
type RunInfo struct {
	ID       string         `json:"id"`
	Config   RunConfig      `json:"config"`
	Method   string         `json:"method"`
	Data     RunData        `json:"data"`
	Status   string         `json:"status"`
	Message  string         `json:"message,omitempty"`
	Step     int64          `json:"step"`
	Epoch    uint64         `json:"epoch"`
	Controls sim.Controls   `json:"controls"`
	Start    sim.Controls   `json:"start_controls"` // at the last (re)init: a replay's base
	Speed    float64        `json:"speed"`
	Viewers  int            `json:"viewers"`
	Yours    bool           `json:"yours"` // made by the asking session: it may command the run
	Traces   []string       `json:"traces"`
	Summary  RunSummary     `json:"summary"`
	Spec     sim.MethodSpec `json:"spec"`
}

// RunBrief is one line of GET /api/runs, the session's own runs.
type RunBrief struct {
	ID      string `json:"id"`
	Method  string `json:"method"`
	Data    string `json:"data"`
	Seed    uint64 `json:"seed"`
	Status  string `json:"status"`
	Step    int64  `json:"step"`
	Viewers int    `json:"viewers"`
}

// RunData is the data set by name with its points in the user's units.
type RunData struct {
	Name string `json:"name"`
	*DataPoints
}

type RunSummary struct {
	Objective   *float64           `json:"objective"` // null before the first step
	StepsPerSec float64            `json:"steps_per_sec"`
	Diagnostics map[string]float64 `json:"diagnostics"`
}

// Op is a command from a viewer: {"op":"play"|"pause"|"reset"},
// {"op":"step","n":k}, {"op":"set","name":…,"value":…} or
// {"op":"speed","value":steps_per_sec} or {"op":"weight","n":index} (the
// weight whose marginal the frames carry), {"op":"data","edit":…} or
// {"op":"data","x":[…],"y":[…]} (edited training data, the user's units;
// neither restores the data set) and {"op":"inducing","n":i,"value":x}
// (move an inducing input).
type Op struct {
	Op    string     `json:"op"`
	N     *float64   `json:"n"`
	Name  *string    `json:"name"`
	Value *sim.Value `json:"value"`
	X     []float64  `json:"x"`
	Y     []float64  `json:"y"`
	Edit  *string    `json:"edit"` // the link's encoding (handlers: data edits)
}

// Upload is POST /api/data's answer.
type Upload struct {
	Data string `json:"data"`
	N    int    `json:"n"`
}

// CreateSweep is the body of POST /api/sweeps; numbers left out take the
// defaults (sweeps.DefaultSteps and friends, seed 1). With target set it
// sweeps a gallery target's control (param) instead of a method's: each
// of methods runs to budget evaluations at each value, controls holding
// the target's other controls; data, model, steps, eval_reps and
// iwbo_samples are then not given.
type CreateSweep struct {
	Target      string       `json:"target"`
	Methods     []SweepArm   `json:"methods"`
	Budget      *int64       `json:"budget"`
	Data        string       `json:"data"`
	Method      string       `json:"method"`
	Model       string       `json:"model"`
	Param       string       `json:"param"`
	Values      string       `json:"values"`
	Steps       *int         `json:"steps"`
	Seeds       *int         `json:"seeds"`
	EvalReps    *int         `json:"eval_reps"`
	IWBOSamples *int         `json:"iwbo_samples"`
	Seed        *uint64      `json:"seed"`
	Controls    sim.Controls `json:"controls"`
}

// SweepArm is one method of a target sweep, with its controls.
type SweepArm struct {
	Method   string       `json:"method"`
	Controls sim.Controls `json:"controls"`
}

// SweepCreated is POST /api/sweeps's answer.
type SweepCreated struct {
	ID      string    `json:"id"`
	Stream  string    `json:"stream"`
	Total   int       `json:"total"`
	Param   string    `json:"param"`
	Values  []float64 `json:"values"`
	LogX    bool      `json:"log_x"`
	Workers int       `json:"workers"`
}

// APIError is the body of every JSON error: the field at fault (empty when
// none) and what is wrong or allowed.
type APIError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}
