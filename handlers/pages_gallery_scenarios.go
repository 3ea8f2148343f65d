package handlers

import (
	"slices"
	"strings"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/scenario"
)

// galleryScenarios lists the gallery page's scenarios, those set on a
// 2-D target (scenario.OnTargets), each as GET /api/scenarios?on=target
// gives it: its fields and its link.
func galleryScenarios() []scenarioBody {
	list := scenario.OnTargets()
	out := make([]scenarioBody, len(list))
	for i, s := range list {
		out[i] = scenarioBody{Scenario: s, URL: s.URL()}
	}
	return out
}

// applyScenario gives c's panels those of the open scenario s, when the
// link's methods are the scenario's (a link whose methods were changed
// is the page's own): each panel's name (what the claim's checks call
// it), its method's controls, its own target controls over the page's
// (the funnel's centred and non-centred forms side by side) and its
// chains. The link's pI.NAME and pI.target.NAME, read after, override
// them.
func applyScenario(c *galleryConfig, s scenario.Scenario) error {
	if !slices.Equal(s.Methods, panelMethods(c.Panels)) {
		return nil
	}
	for i, sp := range s.Panels {
		pc := &c.Panels[i]
		mc, err := s.PanelControls(sp.Name)
		if err != nil {
			return err
		}
		pc.Name, pc.Controls, pc.Chains = sp.Name, mc, sp.Chains
		for k, v := range sp.TargetControls {
			if err := panelTargetControl(c, pc, sp.Name+".target."+k, k, v); err != nil {
				return err
			}
		}
	}
	return nil
}

func panelMethods(ps []galleryPanel) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Method
	}
	return out
}

// targetSpecs are the controls of c's built-in target; none for a typed
// density.
func targetSpecs(c *galleryConfig) []sim.ControlSpec {
	for _, t := range c.Targets {
		if t.Name == c.Target {
			return t.Controls
		}
	}
	return nil
}

// panelTargetControl reads a link's pI.target.NAME (name, with or without
// "target.") into panel pc: its own value of the page's target control,
// errors naming key.
func panelTargetControl(c *galleryConfig, pc *galleryPanel, key, name, val string) error {
	name = strings.TrimPrefix(name, "target.")
	v, err := readControl(key, targetSpecs(c), name, val)
	if err != nil {
		return err
	}
	if pc.TargetControls == nil {
		pc.TargetControls = sim.Controls{}
	}
	pc.TargetControls[name] = v
	return nil
}
