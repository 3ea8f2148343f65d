package sim

import (
	"maps"
	"math"
)

// Unit says which data units a control's value is in.
type Unit string

const (
	UnitX  Unit = "x"  // the inputs' units (a lengthscale, a period)
	UnitY  Unit = "y"  // the targets' units (a noise std)
	UnitY2 Unit = "y²" // squared target units (a kernel variance)
)

// factor is how many report units one model unit of u is for d.
func (u Unit) factor(d *Dataset) float64 {
	if d == nil {
		return 1
	}
	xs, ys := d.ReportScales()
	switch u {
	case UnitX:
		return xs.Std
	case UnitY:
		return ys.Std
	case UnitY2:
		return ys.Std * ys.Std
	}
	return 1
}

// PlotFactor is how many plot units (the user's, as the predictive plot
// shows them: Dataset.XScale and YScale mapped back) one model unit of u is.
func (u Unit) PlotFactor(d *Dataset) float64 {
	if d == nil {
		return 1
	}
	sd := func(a Affine) float64 {
		if a.Std == 0 { // no scale given: the identity
			return 1
		}
		return math.Abs(a.Std)
	}
	switch u {
	case UnitX:
		return sd(d.XScale)
	case UnitY:
		return sd(d.YScale)
	case UnitY2:
		return sd(d.YScale) * sd(d.YScale)
	}
	return 1
}

// InUnits returns s with the ranges and defaults of its data-unit controls
// in d's report units (Dataset.ReportScales): for a user's file, the file's
// units; for a built-in data set, s unchanged.
func (s MethodSpec) InUnits(d *Dataset) MethodSpec {
	out := s
	out.Controls = make([]ControlSpec, len(s.Controls))
	for i, c := range s.Controls {
		if f := c.Unit.factor(d); f != 1 {
			c.Min, c.Max, c.Step = c.Min*f, c.Max*f, c.Step*f
			c.Default = Num(c.Default.Num * f)
		}
		out.Controls[i] = c
	}
	return out
}

// ToModelUnits returns a copy of c, given in d's report units, with its
// data-unit values mapped to model units and kept within s's ranges (the
// map can round just past a range's end). Values not in c are left out.
func (s MethodSpec) ToModelUnits(d *Dataset, c Controls) Controls {
	out := maps.Clone(c)
	for name, v := range c {
		spec, ok := s.Control(name)
		if !ok || v.Choice != "" {
			continue
		}
		if f := spec.Unit.factor(d); f != 1 {
			out[name] = Num(min(max(v.Num/f, spec.Min), spec.Max))
		}
	}
	return out
}
