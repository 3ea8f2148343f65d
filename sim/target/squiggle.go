package target

import "math"

// Squiggle is x ~ N(0, 2²), y | x ~ N(1.5 sin 2x, 0.3²): E x = 0,
// Var x = 4, E y = 0, log Z = log(2π·2·0.3).
type Squiggle struct{}

const (
	squiggleXSD = 2
	squiggleAmp = 1.5
	squiggleYSD = 0.3
)

// NewSquiggle returns the squiggle, which has no controls.
func NewSquiggle() Squiggle { return Squiggle{} }

func (Squiggle) Name() string      { return "squiggle" }
func (Squiggle) Params() [2]string { return [2]string{"x", "y"} }
func (Squiggle) Box() Box {
	e := squiggleAmp + boxSDs*squiggleYSD
	return Box{-boxSDs * squiggleXSD, boxSDs * squiggleXSD, -e, e}
}

func (Squiggle) LogDensity(p Point) float64 {
	x := p[0]
	r := p[1] - squiggleAmp*math.Sin(2*x)
	return -x*x/(2*squiggleXSD*squiggleXSD) - r*r/(2*squiggleYSD*squiggleYSD)
}

func (Squiggle) LogDensityGrad(p Point) (float64, Point) {
	x := p[0]
	s, c := math.Sin(2*x), math.Cos(2*x) // Sin as LogDensity takes it, to the bit
	r := p[1] - squiggleAmp*s
	k := r / (squiggleYSD * squiggleYSD)
	return -x*x/(2*squiggleXSD*squiggleXSD) - r*r/(2*squiggleYSD*squiggleYSD),
		Point{-x/(squiggleXSD*squiggleXSD) + k*2*squiggleAmp*c, -k}
}

func (Squiggle) Source() string {
	return "x ~ normal(0, 2);\ny ~ normal(1.5 * sin(2 * x), 0.3);"
}
