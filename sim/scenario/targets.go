package scenario

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/target"
)

// Panel is one panel of a scenario on a 2-D target (the gallery page): a
// method with its controls, on the scenario's target with the scenario's
// target controls and the panel's own over them (the funnel's centred
// and non-centred forms side by side).
type Panel struct {
	// Name is what the claim's checks call the panel: the method's name,
	// unless two panels share a method (reverse and forward KL).
	Name           string            `json:"name"`
	Method         string            `json:"method"`
	Controls       map[string]string `json:"controls,omitempty"`        // the method's: control → value
	TargetControls map[string]string `json:"target_controls,omitempty"` // over the scenario's: control → value
	Chains         int               `json:"chains,omitempty"`          // a sampler's; 0: the default
}

// OnTarget reports whether s is a gallery scenario, on a 2-D target.
func (s Scenario) OnTarget() bool { return s.Target != "" }

// ByTargetSlug returns the scenario on a 2-D target with the given slug.
func ByTargetSlug(slug string) (Scenario, bool) {
	for _, s := range OnTargets() {
		if s.Slug == slug {
			return s, true
		}
	}
	return Scenario{}, false
}

// PanelByName returns s's panel named name.
func (s Scenario) PanelByName(name string) (Panel, bool) {
	i := slices.IndexFunc(s.Panels, func(p Panel) bool { return p.Name == name })
	if i < 0 {
		return Panel{}, false
	}
	return s.Panels[i], true
}

// PanelTarget returns the target controls panel name's run starts with:
// s's over the target's defaults, and the panel's over those, typed and
// checked against the target's spec. Errors are *sim.FieldErrors naming
// "target.control" or "panel.target.control".
func (s Scenario) PanelTarget(name string) (sim.Controls, error) {
	p, ok := s.PanelByName(name)
	if !ok {
		return nil, &sim.FieldError{Field: "panel", Message: fmt.Sprintf("%q is not among the scenario's panels", name)}
	}
	spec, ok := target.Lookup(s.Target)
	if !ok {
		return nil, &sim.FieldError{Field: "target", Message: fmt.Sprintf("no built-in target is called %q", s.Target)}
	}
	out := sim.Controls{}
	for _, c := range spec.Controls {
		out[c.Name] = c.Default
	}
	for _, set := range []struct {
		prefix string
		values map[string]string
	}{{"target.", s.TargetControls}, {p.Name + ".target.", p.TargetControls}} {
		given, err := typed(spec.Controls, set.prefix, set.values)
		if err != nil {
			return nil, err
		}
		maps.Copy(out, given)
	}
	return out, nil
}

// PanelControls returns the controls panel name's method starts with: the
// panel's over the method's defaults, typed and checked against its spec.
// Errors are *sim.FieldErrors naming "panel.control".
func (s Scenario) PanelControls(name string) (sim.Controls, error) {
	p, ok := s.PanelByName(name)
	if !ok {
		return nil, &sim.FieldError{Field: "panel", Message: fmt.Sprintf("%q is not among the scenario's panels", name)}
	}
	spec, ok := gallery.LookupMethod(p.Method)
	if !ok {
		return nil, &sim.FieldError{Field: p.Name + ".method", Message: fmt.Sprintf("no gallery method is called %q", p.Method)}
	}
	given, err := typed(spec.Controls, p.Name+".", p.Controls)
	if err != nil {
		return nil, err
	}
	ms := sim.MethodSpec{Name: spec.Name, Controls: spec.Controls}
	out, err := ms.Resolve(given)
	if fe, ok := err.(*sim.FieldError); ok {
		return nil, &sim.FieldError{Field: p.Name + "." + fe.Field, Message: fe.Message}
	}
	return out, err
}

// typed reads values against specs: a choice as given, a number parsed
// and checked against its range. Errors name prefix + the control.
func typed(specs []sim.ControlSpec, prefix string, values map[string]string) (sim.Controls, error) {
	out := sim.Controls{}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		raw := values[k]
		i := slices.IndexFunc(specs, func(c sim.ControlSpec) bool { return c.Name == k })
		if i < 0 {
			names := make([]string, len(specs))
			for j, c := range specs {
				names[j] = c.Name
			}
			return nil, &sim.FieldError{Field: prefix + k, Message: fmt.Sprintf("unknown control (allowed: %s)", strings.Join(names, ", "))}
		}
		c := specs[i]
		v := sim.Choice(raw)
		if !c.Textual() {
			x, err := strconv.ParseFloat(raw, 64)
			if err != nil {
				return nil, &sim.FieldError{Field: prefix + k, Message: fmt.Sprintf("%q is not a number (allowed: [%g, %g])", raw, c.Min, c.Max)}
			}
			v = sim.Num(x)
		}
		if err := c.Validate(v); err != nil {
			msg := err.Error()
			if fe, ok := err.(*sim.FieldError); ok {
				msg = fe.Message
			}
			return nil, &sim.FieldError{Field: prefix + k, Message: msg}
		}
		out[k] = v
	}
	return out, nil
}

// galleryURL is the gallery page's link for a scenario on a target: the
// target, its controls, the panels' methods and the scenario's slug.
func (s Scenario) galleryURL() string {
	q := []string{"target=" + queryEscape(s.Target)}
	for _, k := range slices.Sorted(maps.Keys(s.TargetControls)) {
		q = append(q, queryEscape(k)+"="+queryEscape(s.TargetControls[k]))
	}
	q = append(q, "methods="+queryEscape(strings.Join(s.Methods, ",")), "seed="+strconv.FormatUint(s.Seed, 10), "scenario="+queryEscape(s.Slug))
	return "/gallery?" + strings.Join(q, "&")
}
