package handlers

import (
	"strings"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

// pageConfig is the JSON the play page's script reads (<script id="config">).
// Points and truth are in the user's units, as the frames' predictive is.
type pageConfig struct {
	URL       string      `json:"url"` // canonical link of the experiment
	Scenario  string      `json:"scenario,omitempty"`
	Data      string      `json:"data"`
	DataLabel string      `json:"data_label"`
	Task      sim.Task    `json:"task,omitempty"`
	Seed      uint64      `json:"seed"`
	Points    *xy         `json:"points"`     // training data; null for an upload (the browser has the file)
	Truth     *xy         `json:"truth"`      // noiseless truth on the grid; null when unknown
	GapCentre *float64    `json:"gap_centre"` // null without a gap
	Panels    []panelJSON `json:"panels"`
	Hide      []string    `json:"hide"`
	Focus     []string    `json:"focus"`
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
}

// pageConfig loads the data set for its points and builds the script's
// config.
func (p *Pages) pageConfig(c PlayConfig) (pageConfig, error) {
	cfg := pageConfig{URL: c.URL(), Scenario: c.Scenario, Data: c.Data, DataLabel: dataLabel(c.Data), Seed: c.Seed,
		Hide: nonNil(c.Hide), Focus: nonNil(c.Focus)}
	for _, pc := range c.Panels {
		cfg.Panels = append(cfg.Panels, panelJSON{Method: pc.Method, Model: pc.Model, Controls: pc.Controls, Spec: pc.Spec})
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
