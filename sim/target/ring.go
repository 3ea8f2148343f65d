package target

import (
	"fmt"
	"math"

	"github.com/posterior-playground/playground/sim"
)

// RingConfig sets the ring. The zero value is radius 2, width 0.3.
type RingConfig struct {
	Radius float64 // r, in [0.5, 5]; 0 means 2
	Width  float64 // σ, in [0.05, 1]; 0 means 0.3
}

func ringControls() []sim.ControlSpec {
	return []sim.ControlSpec{
		control("radius", "radius r", "the radius of the circle the mass lies around", 0.5, 5, 2),
		control("width", "width σ", "the sd of the mass across the circle", 0.05, 1, 0.3),
	}
}

// Ring is log p̃ = −(‖θ‖ − r)²/(2σ²): E θ = 0 by symmetry, the radius's
// density ∝ ρ·exp(−(ρ − r)²/(2σ²)).
type Ring struct{ r, s float64 }

// NewRing returns the ring c describes, or a *sim.FieldError.
func NewRing(c RingConfig) (*Ring, error) {
	ctl := ringControls()
	r, err := resolve(ctl[0], c.Radius)
	if err != nil {
		return nil, err
	}
	s, err := resolve(ctl[1], c.Width)
	if err != nil {
		return nil, err
	}
	return &Ring{r, s}, nil
}

func (t *Ring) Name() string      { return "ring" }
func (t *Ring) Params() [2]string { return [2]string{"x", "y"} }
func (t *Ring) Box() Box {
	e := t.r + boxSDs*t.s
	return Box{-e, e, -e, e}
}

func (t *Ring) LogDensity(p Point) float64 {
	d := math.Hypot(p[0], p[1]) - t.r
	return -d * d / (2 * t.s * t.s)
}

// LogDensityGrad's gradient at the origin, where ‖θ‖ has none, is 0, the
// average of its limits.
func (t *Ring) LogDensityGrad(p Point) (float64, Point) {
	n := math.Hypot(p[0], p[1])
	d := n - t.r
	lp := -d * d / (2 * t.s * t.s)
	if n == 0 {
		return lp, Point{}
	}
	c := -d / (t.s * t.s * n)
	return lp, Point{c * p[0], c * p[1]}
}

func (t *Ring) Source() string {
	return fmt.Sprintf("target += -square(sqrt(x^2 + y^2) - %g) / (2 * %g^2);", t.r, t.s)
}
