package simtest

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// checkExtras checks that a method's sim.Extras are set by its type and
// construction, not its state: the same fields are set before Init, after
// it and after a step, so the engine may ask once.
func checkExtras(nm NewFunc, d *sim.Dataset, o Options) error {
	m, err := nm()
	if err != nil {
		return fmt.Errorf("constructor: %w", err)
	}
	defer closeMethod(m)
	before := extrasSet(m)
	if _, err := sim.Init(m, d, o.Controls, numeric.NewStream(o.Seed, sim.StreamRun)); err != nil {
		return fmt.Errorf("initialising: %w", err)
	}
	initialised := extrasSet(m)
	m.Step()
	stepped := extrasSet(m)
	if !slices.Equal(before, initialised) || !slices.Equal(before, stepped) {
		return fmt.Errorf("sim.Extras sets %v before Init, %v after it and %v after a step: they must not depend on the method's state", before, initialised, stepped)
	}
	return nil
}

// extrasSet names the fields of m's Extras that are set.
func extrasSet(m sim.Method) []string {
	x := reflect.ValueOf(sim.ExtrasOf(m))
	var set []string
	for i := range x.NumField() {
		if !x.Field(i).IsNil() {
			set = append(set, x.Type().Field(i).Name)
		}
	}
	return set
}
