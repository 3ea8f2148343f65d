package target

import (
	"fmt"
	"slices"

	"github.com/posterior-playground/playground/sim"
)

// Displayed is implemented by a target sampled in coordinates other than
// those it is shown in: the non-centred funnel samples (v, z) and shows
// (v, x), x = z·e^{v/2}. A page draws ToShown of each draw over the exact
// answer of Shown.
type Displayed interface {
	// Shown is the same distribution in the shown coordinates.
	Shown() Target
	// ToShown maps a sampled point to the shown coordinates.
	ToShown(p Point) Point
}

// Quadrature is implemented by a target whose mass is better integrated in
// other coordinates u: θ = FromBase(u) with u drawn from Base has this
// target's distribution, and Base's log density carries the Jacobian, so
// the two share log Z. NewGrid integrates Base where the target has one.
type Quadrature interface {
	Base() Target
	FromBase(u Point) Point
}

// Sourced is implemented by every built-in target: its model in Stan
// notation with its controls' values written in.
type Sourced interface {
	Source() string
}

// Spec describes a built-in target for a command line's --help and a
// page's menu: its name, a label and its controls (each with its range and
// default, as a method's controls are described).
type Spec struct {
	Name     string            `json:"name"`
	Label    string            `json:"label"`
	Help     string            `json:"help"`
	Controls []sim.ControlSpec `json:"controls"`
}

// Specs lists the built-in targets in the gallery's order. The slice is
// new on every call.
func Specs() []Spec {
	return []Spec{
		{Name: "gaussian", Label: "Correlated Gaussian", Help: "a bivariate normal with correlation rho and the second sd scale_ratio times the first", Controls: gaussianControls()},
		{Name: "banana", Label: "Banana", Help: "Haario's twisted Gaussian: y bends around x² with the curvature", Controls: bananaControls()},
		{Name: "funnel", Label: "Neal's funnel", Help: "v ~ N(0, 3²), x | v ~ N(0, eᵛ); centred, or sampled as (v, z) with x = z·e^{v/2}", Controls: funnelControls()},
		{Name: "mixture", Label: "Two modes", Help: "two unit Gaussians separation apart, the left one with the weight", Controls: mixtureControls()},
		{Name: "ring", Label: "Ring", Help: "mass around a circle of the radius, the width across it", Controls: ringControls()},
		{Name: "squiggle", Label: "Squiggle", Help: "x ~ N(0, 2²), y | x ~ N(1.5 sin 2x, 0.3²)"},
		{Name: "logistic", Label: "Logistic regression", Help: "intercept and slope of O-ring damage against launch temperature (23 flights), priors N(0, 2.5²)"},
	}
}

// Lookup returns the spec of the named target.
func Lookup(name string) (Spec, bool) {
	specs := Specs()
	i := slices.IndexFunc(specs, func(s Spec) bool { return s.Name == name })
	if i < 0 {
		return Spec{}, false
	}
	return specs[i], true
}

// New builds the named target from controls; a control not given takes its
// default. An unknown target is a *sim.FieldError on "target", an unknown
// or out-of-range control one naming the control.
func New(name string, controls sim.Controls) (Target, error) {
	spec, ok := Lookup(name)
	if !ok {
		names := make([]string, 0, 8)
		for _, s := range Specs() {
			names = append(names, s.Name)
		}
		return nil, &sim.FieldError{Field: "target", Message: fmt.Sprintf("%q is not one of %v", name, names)}
	}
	v := make(map[string]float64, len(spec.Controls))
	for _, c := range spec.Controls {
		v[c.Name] = c.Default.Num
	}
	for k, x := range controls {
		i := slices.IndexFunc(spec.Controls, func(c sim.ControlSpec) bool { return c.Name == k })
		if i < 0 {
			return nil, &sim.FieldError{Field: k, Message: fmt.Sprintf("%s has no control %q", name, k)}
		}
		if err := spec.Controls[i].Validate(x); err != nil {
			return nil, err
		}
		v[k] = x.Num
	}
	switch name {
	case "gaussian":
		return NewGaussian(GaussianConfig{Rho: v["rho"], ScaleRatio: v["scale_ratio"]})
	case "banana":
		return NewBanana(BananaConfig{Curvature: v["curvature"]})
	case "funnel":
		return NewFunnel(FunnelConfig{NonCentred: v["centred"] == 0}), nil
	case "mixture":
		return NewMixture(MixtureConfig{Separation: v["separation"], Weight: v["weight"]})
	case "ring":
		return NewRing(RingConfig{Radius: v["radius"], Width: v["width"]})
	case "squiggle":
		return NewSquiggle(), nil
	default:
		return NewLogistic(), nil
	}
}

// control is a live numeric control of a target.
func control(name, label, help string, lo, hi, def float64) sim.ControlSpec {
	return sim.ControlSpec{Name: name, Label: label, Help: help, Min: lo, Max: hi,
		Step: (hi - lo) / 100, Default: sim.Num(def), Live: true}
}

// resolve returns x, or def when x is the zero value, after checking the
// result against c's range.
func resolve(c sim.ControlSpec, x float64) (float64, error) {
	if x == 0 {
		x = c.Default.Num
	}
	return x, c.Validate(sim.Num(x))
}
