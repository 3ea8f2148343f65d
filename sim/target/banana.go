package target

import (
	"fmt"

	"github.com/posterior-playground/playground/sim"
)

// BananaConfig sets the banana. The zero value is curvature 1.
type BananaConfig struct {
	Curvature float64 // b, in [0.1, 3]; 0 means 1
}

func bananaControls() []sim.ControlSpec {
	return []sim.ControlSpec{control("curvature", "curvature b", "how far y bends with x²", 0.1, 3, 1)}
}

// Banana is Haario's twisted Gaussian with a = 1: x ~ N(0, 1),
// y | x ~ N(b(x² − 1), 1). E θ = 0, Var x = 1, Var y = 1 + 2b², Cov = 0
// (uncorrelated yet dependent), log Z = log 2π.
type Banana struct{ b float64 }

// NewBanana returns the banana c describes, or a *sim.FieldError.
func NewBanana(c BananaConfig) (*Banana, error) {
	b, err := resolve(bananaControls()[0], c.Curvature)
	if err != nil {
		return nil, err
	}
	return &Banana{b}, nil
}

func (t *Banana) Name() string      { return "banana" }
func (t *Banana) Params() [2]string { return [2]string{"x", "y"} }

// Box reaches 5 sd in x and 5 sd past y's conditional mean at both
// extremes of x.
func (t *Banana) Box() Box {
	return Box{-boxSDs, boxSDs, -t.b - boxSDs, t.b*(boxSDs*boxSDs-1) + boxSDs}
}

func (t *Banana) LogDensity(p Point) float64 {
	x := p[0]
	r := p[1] - t.b*(x*x-1)
	return -0.5 * (x*x + r*r)
}

func (t *Banana) LogDensityGrad(p Point) (float64, Point) {
	x := p[0]
	r := p[1] - t.b*(x*x-1)
	return -0.5 * (x*x + r*r), Point{-x + 2*t.b*x*r, -r}
}

func (t *Banana) Source() string {
	return fmt.Sprintf("x ~ normal(0, 1);\ny ~ normal(%g * (x^2 - 1), 1);", t.b)
}
