package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
)

// RunControls returns the controls s's page starts method's run with: the
// values s sets for it ("method.control"), typed and checked against the
// method's spec as the page shows it (for the data set's default model when
// the method supports it, fitted to s's data on s's seed), and the spec's
// defaults for the rest. Errors are *sim.FieldErrors naming
// "method.control". The play page resolves s's link to the same controls
// (handlers' TestScenarioRunControlsMatchThePage).
func (s Scenario) RunControls(method string) (sim.Controls, error) {
	if !slices.Contains(s.Methods, method) {
		return nil, &sim.FieldError{Field: "method", Message: fmt.Sprintf("%q is not among the scenario's methods (allowed: %s)", method, strings.Join(s.Methods, ", "))}
	}
	spec, err := pageSpec(method, s.Data, s.Seed)
	if err != nil {
		return nil, err
	}
	prefix := method + "."
	given := sim.Controls{}
	for key, raw := range s.Controls {
		name, ok := strings.CutPrefix(key, prefix)
		if !ok {
			continue
		}
		c, ok := spec.Control(name)
		if !ok {
			return nil, &sim.FieldError{Field: key, Message: fmt.Sprintf("unknown control of %s (allowed: %s)", method, strings.Join(spec.ControlNames(), ", "))}
		}
		if c.Textual() {
			given[name] = sim.Choice(raw)
			continue
		}
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return nil, &sim.FieldError{Field: key, Message: fmt.Sprintf("%q is not a number (allowed: [%g, %g])", raw, c.Min, c.Max)}
		}
		given[name] = sim.Num(v)
	}
	controls, err := spec.Resolve(given)
	if fe, ok := errors.AsType[*sim.FieldError](err); ok {
		return nil, &sim.FieldError{Field: prefix + fe.Field, Message: fe.Message}
	}
	return controls, err
}

// pageSpec is method's spec for the data set's default model when method
// supports it (else its own default), fitted to the data set on seed.
func pageSpec(method, data string, seed uint64) (sim.MethodSpec, error) {
	m, err := catalog.NewMethod(method, "")
	if err != nil {
		return sim.MethodSpec{}, err
	}
	for _, in := range datasets.Infos() {
		if in.Name == data && slices.Contains(m.Spec().Models, in.DefaultModel) {
			if m2, err := catalog.NewMethod(method, in.DefaultModel); err == nil {
				m = m2
			}
		}
	}
	d, err := datasets.Load(data, seed)
	if err != nil {
		return sim.MethodSpec{}, err
	}
	return sim.SpecFor(m, d), nil
}
