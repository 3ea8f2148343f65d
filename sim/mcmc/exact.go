package mcmc

import (
	"math"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// ExactLinear returns the exact posterior mean and sd of b0, b and sigma
// for the linear model y = b0 + b·x + σε under flat priors on b0, b and
// σ > 0 (package documentation): with X = [1, x], β̂ the least-squares fit
// and S its residual sum of squares, β | y is Student-t with ν = N−3
// degrees of freedom, centre β̂ and scale S/ν·(XᵀX)⁻¹, so its covariance is
// S/(N−5)·(XᵀX)⁻¹; σ² | y ~ Inv-Gamma(a = (N−3)/2, b = S/2), so
// E σ = √b Γ(a−½)/Γ(a) and E σ² = b/(a−1). ok is false with fewer than 6
// points (the sds need ν > 2) or inputs that are all equal.
func ExactLinear(x, y []float64) (moments map[string]sim.Moments, ok bool) {
	if len(x) < 6 || len(y) != len(x) {
		return nil, false
	}
	n := float64(len(x))
	var sx, sxx, sy, sxy float64
	for i, xi := range x {
		sx += xi
		sxx += xi * xi
		sy += y[i]
		sxy += xi * y[i]
	}
	det := n*sxx - sx*sx
	if !(det > 0) {
		return nil, false
	}
	// (XᵀX)⁻¹ = [sxx −sx; −sx n]/det
	b := (n*sxy - sx*sy) / det
	b0 := (sy - b*sx) / n
	var S float64
	for i, xi := range x {
		r := y[i] - b0 - b*xi
		S += r * r
	}
	c := S / (n - 5)
	a, bb := (n-3)/2, S/2
	lg1, _ := math.Lgamma(a - 0.5)
	lg2, _ := math.Lgamma(a)
	es := math.Sqrt(bb) * math.Exp(lg1-lg2)
	es2 := bb / (a - 1)
	return map[string]sim.Moments{
		"b0":    {Mean: b0, SD: math.Sqrt(c * sxx / det)},
		"b":     {Mean: b, SD: math.Sqrt(c * n / det)},
		"sigma": {Mean: es, SD: math.Sqrt(max(0, es2-es*es))}, // max: rounding when S ≈ 0
	}, true
}

// ExactPosterior implements sim.ExactPosterior: the linear model's
// posterior on d, in model units as Draws reports it; none for the BNN.
func (m *Method) ExactPosterior(d *sim.Dataset) (map[string]sim.Moments, bool) {
	if d == nil || d.Task == sim.Classification || model.Resolve(m.model, d) != model.Linear {
		return nil, false
	}
	return ExactLinear(d.X, d.Y)
}
