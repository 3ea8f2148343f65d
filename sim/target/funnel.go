package target

import (
	"math"

	"github.com/posterior-playground/playground/sim"
)

// FunnelConfig sets the funnel. The zero value is the centred funnel.
type FunnelConfig struct {
	NonCentred bool // sample (v, z), z ~ N(0, 1), and show x = z·e^{v/2}
}

func funnelControls() []sim.ControlSpec {
	c := control("centred", "centred", "1: sample (v, x), whose neck makes fixed-step HMC diverge; 0: sample (v, z) with x = z·e^{v/2}", 0, 1, 1)
	c.Step, c.Integer, c.Toggle = 1, true, true
	return []sim.ControlSpec{c}
}

// funnelVSD is v's standard deviation.
const funnelVSD = 3

// NewFunnel returns the centred or the non-centred funnel.
func NewFunnel(c FunnelConfig) Target {
	if c.NonCentred {
		return NonCentredFunnel{}
	}
	return Funnel{}
}

// Funnel is Neal's funnel in its centred form: v ~ N(0, 3²),
// x | v ~ N(0, eᵛ), log p̃ = −v²/18 − x²e^{−v}/2 − v/2. sd v = 3, E x = 0,
// sd x = e^{9/4}, log Z = log 6π.
type Funnel struct{}

func (Funnel) Name() string      { return "funnel" }
func (Funnel) Params() [2]string { return [2]string{"v", "x"} }

// Box holds v's mass and is cut in x for drawing (see the package doc).
func (Funnel) Box() Box { return Box{-15, 15, -20, 20} }

func (Funnel) LogDensity(p Point) float64 {
	v, x := p[0], p[1]
	return -v*v/(2*funnelVSD*funnelVSD) - 0.5*x*x*math.Exp(-v) - 0.5*v
}

func (Funnel) LogDensityGrad(p Point) (float64, Point) {
	v, x := p[0], p[1]
	e := math.Exp(-v)
	q := 0.5 * x * x * e
	return -v*v/(2*funnelVSD*funnelVSD) - q - 0.5*v, Point{-v/(funnelVSD*funnelVSD) + q - 0.5, -x * e}
}

// Base is the non-centred funnel, whose box holds the mass.
func (Funnel) Base() Target { return NonCentredFunnel{} }

// FromBase maps (v, z) to (v, z·e^{v/2}).
func (Funnel) FromBase(u Point) Point { return noncentre(u) }

func (Funnel) Source() string { return "v ~ normal(0, 3);\nx ~ normal(0, exp(v / 2));" }

func noncentre(u Point) Point { return Point{u[0], u[1] * math.Exp(0.5*u[0])} }

// NonCentredFunnel is the funnel in (v, z), z = x·e^{−v/2}: a Gaussian,
// log p̃ = −v²/18 − z²/2, with the centred funnel's log Z (the Jacobian
// e^{v/2} of x = z·e^{v/2} cancels its −v/2).
type NonCentredFunnel struct{}

func (NonCentredFunnel) Name() string      { return "funnel" }
func (NonCentredFunnel) Params() [2]string { return [2]string{"v", "z"} }

// Box holds 5 sd of v and z, and reaches v = 24 on the right: x² = z²eᵛ,
// so E x² = E eᵛ = e^{9/2}, whose integrand eᵛ·N(v; 0, 9) is N(9, 9) up
// to a constant, and v = 24 is 5 sd past its peak. The centred funnel's
// sd of x is computed here.
func (NonCentredFunnel) Box() Box {
	return Box{-boxSDs * funnelVSD, 9 + boxSDs*funnelVSD, -boxSDs, boxSDs}
}

func (NonCentredFunnel) LogDensity(p Point) float64 {
	v, z := p[0], p[1]
	return -v*v/(2*funnelVSD*funnelVSD) - 0.5*z*z
}

func (NonCentredFunnel) LogDensityGrad(p Point) (float64, Point) {
	v, z := p[0], p[1]
	return -v*v/(2*funnelVSD*funnelVSD) - 0.5*z*z, Point{-v / (funnelVSD * funnelVSD), -z}
}

// Shown is the centred funnel: the same distribution in (v, x).
func (NonCentredFunnel) Shown() Target { return Funnel{} }

// ToShown maps (v, z) to (v, z·e^{v/2}).
func (NonCentredFunnel) ToShown(p Point) Point { return noncentre(p) }

func (NonCentredFunnel) Source() string {
	return "v ~ normal(0, 3);\nz ~ normal(0, 1);\n// shown: x = z * exp(v / 2)"
}
