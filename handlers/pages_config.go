package handlers

import (
	"strings"

	"github.com/posterior-playground/playground/sim/model"
	"github.com/posterior-playground/playground/sim/wire"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/scenario"
)

// pageConfig is the JSON the play page's script reads (<script id="config">).
// Points and truth are in the user's units, as the frames' predictive is.
type pageConfig struct {
	URL string `json:"url"` // canonical link of the experiment
	// ArchPresets are the named networks (model.Presets) a panel with an
	// arch control offers as one choice.
	ArchPresets []archPreset `json:"arch_presets"`
	Scenario    string       `json:"scenario,omitempty"`
	Data        string       `json:"data"`
	DataLabel   string       `json:"data_label"`
	Task        sim.Task     `json:"task,omitempty"`
	Seed        uint64       `json:"seed"`
	Points      *xy          `json:"points"`     // training data; null for an upload (the browser has the file)
	Truth       *xy          `json:"truth"`      // noiseless truth on the grid; null when unknown
	GapCentre   *float64     `json:"gap_centre"` // null without a gap
	Panels      []panelJSON  `json:"panels"`
	Hide        []string     `json:"hide"`
	Focus       []string     `json:"focus"`
	Present     bool         `json:"present"`        // presentation mode (present=1)
	Pace        engine.Unit  `json:"pace,omitempty"` // the race's unit (pace=): Play races the panels by it
	Limits      pageLimits   `json:"limits"`
	// Edit is the link's edit of the points (edit=, dataedit.go), applied
	// by the page to every panel's run; XRange and YRange are where points
	// may go (datasets.Edit's bounds, user units); null for an upload.
	Edit   string          `json:"edit,omitempty"`
	XRange *[2]float64     `json:"x_range"`
	YRange *[2]float64     `json:"y_range"`
	Claim  *scenario.Claim `json:"claim,omitempty"` // the scenario's (sim/scenario), checked live by the page
}

// pageLimits are the server's limits the page's controls keep to, sent so
// that the script holds no copies of them.
type pageLimits struct {
	MaxStepCommand int `json:"max_step_command"` // largest n of a step command
	MaxSpeed       int `json:"max_speed"`        // largest steps-per-second cap
	MaxUploadBytes int `json:"max_upload_bytes"` // largest CSV upload
	// A link to a run's state replays at most this many steps and changes.
	MaxReplaySteps   int `json:"max_replay_steps"`
	MaxReplayChanges int `json:"max_replay_changes"`
	// Edited data: fewest and most points, most added points in a link.
	MinEditPoints int `json:"min_edit_points"`
	MaxEditPoints int `json:"max_edit_points"`
	MaxEditAdded  int `json:"max_edit_added"`
}

// serverLimits are the engine's and the CSV loader's.
func serverLimits() pageLimits {
	return pageLimits{MaxStepCommand: engine.MaxStepCommand, MaxSpeed: engine.MaxSpeed, MaxUploadBytes: datasets.MaxCSVBytes,
		MaxReplaySteps: engine.MaxReplaySteps, MaxReplayChanges: engine.MaxReplayChanges,
		MinEditPoints: datasets.MinEditPoints, MaxEditPoints: datasets.MaxEditPoints, MaxEditAdded: MaxEditAdded}
}

type xy struct {
	X []float64 `json:"x"`
	Y []float64 `json:"y"`
}

type panelJSON struct {
	Method   string         `json:"method"`
	Model    string         `json:"model,omitempty"`
	Controls sim.Controls   `json:"controls"` // resolved values, sent with POST /api/runs
	Spec     sim.MethodSpec `json:"spec"`
	// Exact is the posterior in closed form of the parameters the
	// method's draws report (sim.Extras's ExactPosterior), for the data set the page
	// opens with; absent when not known.
	Exact map[string]sim.Moments `json:"exact,omitempty"`
	// Replay is the state a shared link asks the panel's run to train to.
	Replay *wire.Replay `json:"replay,omitempty"`
	// Watch is a live run the panel watches instead of starting its own.
	Watch string `json:"watch,omitempty"`
}

// pageConfig loads the data set for its points and builds the script's
// config.
func (p *Pages) pageConfig(c PlayConfig) (pageConfig, error) {
	cfg := pageConfig{URL: c.URL(), Scenario: c.Scenario, Data: c.Data, DataLabel: dataLabel(c.Data), Seed: c.Seed,
		Hide: nonNil(c.Hide), Focus: nonNil(c.Focus), Present: c.Present, Pace: c.Pace, Limits: serverLimits(), Edit: c.Edit, ArchPresets: archPresets()}
	if s, ok := scenario.BySlug(c.Scenario); ok {
		cfg.Claim = s.Claim
	}
	for _, pc := range c.Panels {
		cfg.Panels = append(cfg.Panels, panelJSON{Method: pc.Method, Model: pc.Model, Controls: pc.Controls, Spec: pc.Spec, Replay: pc.Replay, Watch: pc.Watch})
	}
	if strings.HasPrefix(c.Data, "upload:") {
		cfg.Task = sim.Regression
		return cfg, nil
	}
	d, err := datasets.Load(c.Data, c.Seed)
	if err != nil {
		return cfg, err
	}
	cfg.Task = d.Task
	lo, hi := d.XScale.ToUser(d.Grid[0]), d.XScale.ToUser(d.Grid[len(d.Grid)-1])
	cfg.XRange = &[2]float64{min(lo, hi), max(lo, hi)}
	if d.Task != sim.Classification {
		lo, hi = d.YScale.ToUser(-datasets.MaxEditY), d.YScale.ToUser(datasets.MaxEditY)
		cfg.YRange = &[2]float64{min(lo, hi), max(lo, hi)}
	}
	for i, pc := range c.Panels {
		cfg.Panels[i].Exact = p.exactPosterior(pc, d)
	}
	cfg.Points = &xy{X: mapAll(d.X, d.XScale), Y: mapAll(d.Y, d.YScale)}
	if d.Truth != nil {
		t := &xy{X: mapAll(d.Grid, d.XScale), Y: make([]float64, len(d.Grid))}
		for i, x := range d.Grid {
			t.Y[i] = d.YScale.ToUser(d.Truth(x))
		}
		cfg.Truth = t
	}
	if d.HasGap {
		g := d.XScale.ToUser(d.GapCentre)
		cfg.GapCentre = &g
	}
	return cfg, nil
}

// exactPosterior is the panel's method's closed-form posterior on d, or nil.
func (p *Pages) exactPosterior(pc PanelConfig, d *sim.Dataset) map[string]sim.Moments {
	m, err := p.methods.new(pc.Method, pc.Model)
	if err != nil {
		return nil
	}
	if exact := sim.ExtrasOf(m).ExactPosterior; exact != nil {
		if moments, ok := exact(d, pc.Controls); ok {
			return moments
		}
	}
	return nil
}

func mapAll(v []float64, a sim.Affine) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = a.ToUser(x)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

type archPreset struct {
	Name       string `json:"name"`
	Arch       string `json:"arch"`
	Activation string `json:"activation"`
}

func archPresets() []archPreset {
	var out []archPreset
	for _, p := range model.Presets() {
		out = append(out, archPreset{Name: p.Name, Arch: p.Hidden, Activation: p.Act.String()})
	}
	return out
}
