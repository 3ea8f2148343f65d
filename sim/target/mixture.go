package target

import (
	"fmt"
	"math"

	"github.com/posterior-playground/playground/sim"
)

// MixtureConfig sets the two-mode mixture. The zero value is separation 4,
// weight 0.5.
type MixtureConfig struct {
	Separation float64 // d, the distance between the modes, in [0.5, 10]; 0 means 4
	Weight     float64 // w, the left mode's weight, in [0.05, 0.95]; 0 means 0.5
}

func mixtureControls() []sim.ControlSpec {
	return []sim.ControlSpec{
		control("separation", "separation d", "the distance between the two modes", 0.5, 10, 4),
		control("weight", "weight w", "the left mode's share of the mass", 0.05, 0.95, 0.5),
	}
}

// Mixture is w N((−d/2, 0), I) + (1 − w) N((d/2, 0), I), unnormalised by
// 2π: E x = (1 − 2w)d/2, Var x = 1 + w(1 − w)d², Var y = 1, log Z = log 2π.
type Mixture struct {
	d, w         float64
	logW, log1mW float64
}

// NewMixture returns the mixture c describes, or a *sim.FieldError.
func NewMixture(c MixtureConfig) (*Mixture, error) {
	ctl := mixtureControls()
	d, err := resolve(ctl[0], c.Separation)
	if err != nil {
		return nil, err
	}
	w, err := resolve(ctl[1], c.Weight)
	if err != nil {
		return nil, err
	}
	return &Mixture{d: d, w: w, logW: math.Log(w), log1mW: math.Log1p(-w)}, nil
}

func (m *Mixture) Name() string      { return "mixture" }
func (m *Mixture) Params() [2]string { return [2]string{"x", "y"} }
func (m *Mixture) Box() Box {
	return Box{-m.d/2 - boxSDs, m.d/2 + boxSDs, -boxSDs, boxSDs}
}

// parts returns the log of each weighted component's x factor.
func (m *Mixture) parts(x float64) (a, b float64) {
	l, r := x+m.d/2, x-m.d/2
	return m.logW - 0.5*l*l, m.log1mW - 0.5*r*r
}

func (m *Mixture) LogDensity(p Point) float64 {
	a, b := m.parts(p[0])
	return logAddExp(a, b) - 0.5*p[1]*p[1]
}

func (m *Mixture) LogDensityGrad(p Point) (float64, Point) {
	x, y := p[0], p[1]
	a, b := m.parts(x)
	lse := logAddExp(a, b)
	ra := math.Exp(a - lse) // the left mode's responsibility
	gx := -ra*(x+m.d/2) - (1-ra)*(x-m.d/2)
	return lse - 0.5*y*y, Point{gx, -y}
}

func (m *Mixture) Source() string {
	return fmt.Sprintf("target += log_sum_exp(log(%g) + normal_lpdf(x | %g, 1),\n                      log(1 - %g) + normal_lpdf(x | %g, 1));\ny ~ normal(0, 1);",
		m.w, -m.d/2, m.w, m.d/2)
}

// logAddExp is log(eᵃ + eᵇ) without overflow.
func logAddExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(a, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}
