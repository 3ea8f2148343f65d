package model

import (
	"fmt"
	"math"

	"github.com/posterior-playground/playground/sim"
)

// CheckData validates a non-nil data set for a method on a network or the
// linear model: a positive number of inputs, one target each, all finite,
// and 0/1 targets for classification. Errors start with "method: ".
func CheckData(method string, d *sim.Dataset) error {
	if d.N() == 0 || len(d.Y) != d.N() {
		return fmt.Errorf("%s: data set %q has %d inputs and %d targets; want the same positive number", method, d.Name, len(d.X), len(d.Y))
	}
	for i := range d.X {
		x, y := d.X[i], d.Y[i]
		if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
			return fmt.Errorf("%s: data point %d (%g, %g) is not finite", method, i, x, y)
		}
		if d.Task == sim.Classification && y != 0 && y != 1 {
			return fmt.Errorf("%s: classification target %d is %g; want 0 or 1", method, i, y)
		}
	}
	return nil
}
