package target

import (
	"fmt"
	"math"

	"github.com/posterior-playground/playground/sim"
)

// boxSDs is how many standard deviations a box reaches past a Gaussian's
// mean: P(|Z| > 5) = 5.7e-7.
const boxSDs = 5

// GaussianConfig sets the correlated Gaussian. The zero value is the
// standard normal (ρ = 0, s = 1).
type GaussianConfig struct {
	Rho        float64 // correlation ρ, in [−0.99, 0.99]
	ScaleRatio float64 // s, the second sd over the first, in [0.1, 10]; 0 means 1
}

func gaussianControls() []sim.ControlSpec {
	return []sim.ControlSpec{
		control("rho", "correlation ρ", "the correlation of the two parameters", -0.99, 0.99, 0),
		control("scale_ratio", "scale ratio", "the second parameter's sd over the first's", 0.1, 10, 1),
	}
}

// Gaussian is N(0, Σ), Σ = [[1, ρs], [ρs, s²]].
type Gaussian struct {
	rho, s        float64
	pxx, pxy, pyy float64 // the precision Σ⁻¹
}

// NewGaussian returns the Gaussian c describes, or a *sim.FieldError.
func NewGaussian(c GaussianConfig) (*Gaussian, error) {
	ctl := gaussianControls()
	rho, err := resolve(ctl[0], c.Rho)
	if err != nil {
		return nil, err
	}
	s, err := resolve(ctl[1], c.ScaleRatio)
	if err != nil {
		return nil, err
	}
	d := 1 - rho*rho
	return &Gaussian{rho: rho, s: s, pxx: 1 / d, pxy: -rho / (s * d), pyy: 1 / (s * s * d)}, nil
}

func (g *Gaussian) Name() string      { return "gaussian" }
func (g *Gaussian) Params() [2]string { return [2]string{"x", "y"} }

func (g *Gaussian) Box() Box {
	return Box{-boxSDs, boxSDs, -boxSDs * g.s, boxSDs * g.s}
}

func (g *Gaussian) LogDensity(p Point) float64 {
	x, y := p[0], p[1]
	// As LogDensityGrad forms it, so the two agree to the bit.
	return -0.5 * ((g.pxx*x+g.pxy*y)*x + (g.pxy*x+g.pyy*y)*y)
}

func (g *Gaussian) LogDensityGrad(p Point) (float64, Point) {
	x, y := p[0], p[1]
	gx := g.pxx*x + g.pxy*y
	gy := g.pxy*x + g.pyy*y
	return -0.5 * (gx*x + gy*y), Point{-gx, -gy}
}

// Cov is the covariance Σ.
func (g *Gaussian) Cov() [2][2]float64 {
	return [2][2]float64{{1, g.rho * g.s}, {g.rho * g.s, g.s * g.s}}
}

// LogZ is log ∫ p̃ = log(2π s √(1 − ρ²)).
func (g *Gaussian) LogZ() float64 { return math.Log(2 * math.Pi * g.s * math.Sqrt(1-g.rho*g.rho)) }

func (g *Gaussian) Source() string {
	return fmt.Sprintf("x ~ normal(0, 1);\ny ~ normal(%g * %g * x, %g * sqrt(1 - %g^2));", g.rho, g.s, g.s, g.rho)
}
