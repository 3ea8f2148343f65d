// Package catalog names what the playground offers: it maps method names to
// constructors, so the command line and the server share one list. Its
// test runs the conformance suite (sim/simtest) over every entry.
package catalog

import (
	"fmt"
	"slices"
	"sort"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/fbnn"
	"github.com/posterior-playground/playground/sim/gip"
	"github.com/posterior-playground/playground/sim/gp"
	"github.com/posterior-playground/playground/sim/livi"
	"github.com/posterior-playground/playground/sim/mcmc"
	"github.com/posterior-playground/playground/sim/mfvi"
)

// constructor builds an uninitialised method for a model ("" means the
// method's default model for the data set).
type constructor func(model string) (sim.Method, error)

// methods is read-only after package initialisation.
var methods = map[string]constructor{
	"fbnn":       fbnn.New,
	"gp-exact":   gp.NewExact,
	"gpvi":       gp.NewVI,
	"gip":        gip.New,
	"livi":       livi.New,
	"map":        livi.NewMAP,
	"ensemble":   livi.NewEnsemble,
	"mfvi":       mfvi.New,
	"metropolis": mcmc.NewMetropolis,
	"sgld":       mcmc.NewSGLD,
	"hmc":        mcmc.NewHMC,
	"nuts":       mcmc.NewNUTS,
}

// MethodNames lists the method names, sorted.
func MethodNames() []string {
	names := make([]string, 0, len(methods))
	for n := range methods {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewMethod returns an uninitialised method by name for the given model.
func NewMethod(name, model string) (sim.Method, error) {
	c, ok := methods[name]
	if !ok {
		return nil, &sim.FieldError{Field: "method", Message: fmt.Sprintf("unknown method %q (allowed: %v)", name, MethodNames())}
	}
	return c(model)
}

// SpecsFor returns every method's spec fitted to d (sim.SpecFor: gip's
// inducing points at most d's points), each for d's default model where the
// method has it, sorted by name. A constructor that fails is an error.
func SpecsFor(d *sim.Dataset) ([]sim.MethodSpec, error) {
	var specs []sim.MethodSpec
	for _, n := range MethodNames() {
		m, err := methods[n]("")
		if err != nil {
			return nil, fmt.Errorf("catalog: method %s: %w", n, err)
		}
		if dm := d.DefaultModel; dm != "" && slices.Contains(m.Spec().Models, dm) {
			if m, err = methods[n](dm); err != nil {
				return nil, fmt.Errorf("catalog: method %s, model %s: %w", n, dm, err)
			}
		}
		specs = append(specs, sim.SpecFor(m, d))
	}
	return specs, nil
}

// Specs returns every method's spec for its default model, sorted by
// name. A constructor that fails is an error naming the method, not a
// method left out of the list.
func Specs() ([]sim.MethodSpec, error) {
	names := MethodNames()
	specs := make([]sim.MethodSpec, 0, len(names))
	for _, n := range names {
		m, err := methods[n]("")
		if err != nil {
			return nil, fmt.Errorf("catalog: method %s: %w", n, err)
		}
		specs = append(specs, m.Spec())
	}
	return specs, nil
}
