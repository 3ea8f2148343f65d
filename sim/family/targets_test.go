package family

import (
	"math"

	"github.com/posterior-playground/playground/sim/target"
)

// Test targets, written here from GALLERY.md's formulas so this package's
// tests stand alone.

// gauss2 is N(0, Σ), Σ = [[s₁², ρs₁s₂], [ρs₁s₂, s₂²]], on the box ±box·sᵢ.
type gauss2 struct {
	s1, s2, rho float64
}

func (g gauss2) Name() string      { return "gaussian" }
func (g gauss2) Params() [2]string { return [2]string{"x", "y"} }
func (g gauss2) Box() target.Box {
	return target.Box{XMin: -5 * g.s1, XMax: 5 * g.s1, YMin: -5 * g.s2, YMax: 5 * g.s2}
}
func (g gauss2) LogDensity(p target.Point) float64 { v, _ := g.LogDensityGrad(p); return v }
func (g gauss2) LogDensityGrad(p target.Point) (float64, target.Point) {
	x, y := p[0]/g.s1, p[1]/g.s2
	d := 1 - g.rho*g.rho
	// Σ⁻¹ in the scaled coordinates is [[1, −ρ], [−ρ, 1]]/(1−ρ²).
	gx, gy := -(x-g.rho*y)/d, -(y-g.rho*x)/d
	return (x*gx + y*gy) / 2, target.Point{gx / g.s1, gy / g.s2}
}

// mixture2 is w N((−d/2, 0), I) + (1−w) N((d/2, 0), I).
type mixture2 struct{ d, w float64 }

func (m mixture2) Name() string      { return "mixture" }
func (m mixture2) Params() [2]string { return [2]string{"x", "y"} }
func (m mixture2) Box() target.Box {
	return target.Box{XMin: -m.d/2 - 5, XMax: m.d/2 + 5, YMin: -5, YMax: 5}
}
func (m mixture2) LogDensity(p target.Point) float64 { v, _ := m.LogDensityGrad(p); return v }
func (m mixture2) LogDensityGrad(p target.Point) (float64, target.Point) {
	a, b := p[0]+m.d/2, p[0]-m.d/2
	la := math.Log(m.w) - a*a/2
	lb := math.Log(1-m.w) - b*b/2
	mx := math.Max(la, lb)
	ea, eb := math.Exp(la-mx), math.Exp(lb-mx)
	ra := ea / (ea + eb)
	lse := mx + math.Log(ea+eb)
	return lse - p[1]*p[1]/2, target.Point{-ra*a - (1-ra)*b, -p[1]}
}

// banana is Haario's twisted Gaussian with a = 1: θ₁ ~ N(0, 1),
// θ₂ | θ₁ ~ N(b(θ₁² − 1), 1).
type banana struct{ b float64 }

func (n banana) Name() string      { return "banana" }
func (n banana) Params() [2]string { return [2]string{"x", "y"} }
func (n banana) Box() target.Box {
	return target.Box{XMin: -4.5, XMax: 4.5, YMin: -4 - n.b, YMax: 4 + 16*n.b}
}
func (n banana) LogDensity(p target.Point) float64 { v, _ := n.LogDensityGrad(p); return v }
func (n banana) LogDensityGrad(p target.Point) (float64, target.Point) {
	r := p[1] - n.b*(p[0]*p[0]-1)
	return -p[0]*p[0]/2 - r*r/2, target.Point{-p[0] + r*2*n.b*p[0], -r}
}
