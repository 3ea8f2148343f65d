// Package catalog names what the playground offers: it maps method names to
// constructors, so the command line and the
// server share one list.
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
// method has it, sorted by name.
func SpecsFor(d *sim.Dataset) []sim.MethodSpec {
	var specs []sim.MethodSpec
	for _, n := range MethodNames() {
		m, err := methods[n]("")
		if err != nil {
			continue
		}
		if dm := d.DefaultModel; dm != "" && slices.Contains(m.Spec().Models, dm) {
			if m2, err := methods[n](dm); err == nil {
				m = m2
			}
		}
		specs = append(specs, sim.SpecFor(m, d))
	}
	return specs
}

// Specs returns every method's spec, sorted by name.
func Specs() []sim.MethodSpec {
	var specs []sim.MethodSpec
	for _, n := range MethodNames() {
		m, err := methods[n]("")
		if err != nil {
			continue
		}
		specs = append(specs, m.Spec())
	}
	return specs
}
