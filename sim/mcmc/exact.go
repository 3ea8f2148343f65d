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
	g, S, ok := linearFit(x, y)
	if !ok {
		return nil, false
	}
	n := float64(len(x))
	a, bb := (n-3)/2, S/2
	lg1, _ := math.Lgamma(a - 0.5)
	lg2, _ := math.Lgamma(a)
	es := math.Sqrt(bb) * math.Exp(lg1-lg2)
	es2 := bb / (a - 1)
	return map[string]sim.Moments{
		"b0":    {Mean: g.Mean[0], SD: math.Sqrt(g.Cov[0][0])},
		"b":     {Mean: g.Mean[1], SD: math.Sqrt(g.Cov[1][1])},
		"sigma": {Mean: es, SD: math.Sqrt(max(0, es2-es*es))}, // max: rounding when S ≈ 0
	}, true
}

// ExactPosterior is sim.Extras.ExactPosterior: the linear model's
// posterior on d, in model units as Draws reports it: with a fixed noise σ
// (model.FixedNoise in c) the Gaussian of b0 and b (model.LinearPosterior,
// prior std from c's prior_scale, default 2), else ExactLinear's; none for
// the BNN.
func (m *Method) ExactPosterior(d *sim.Dataset, c sim.Controls) (map[string]sim.Moments, bool) {
	if d == nil || d.Task == sim.Classification || model.Resolve(m.model, d) != model.Linear {
		return nil, false
	}
	if fn := c[model.FixedNoise].Num; fn > 0 {
		s := 2.0
		if v, ok := c["prior_scale"]; ok {
			s = v.Num
		}
		g, ok := model.LinearPosterior(d.X, d.Y, fn, linearPriorStd(s))
		if !ok {
			return nil, false
		}
		sd := g.SD()
		return map[string]sim.Moments{"b0": {Mean: g.Mean[0], SD: sd[0]}, "b": {Mean: g.Mean[1], SD: sd[1]}}, true
	}
	return ExactLinear(d.X, d.Y)
}

// linearPriorStd is the prior std of b0 and b at prior scale s: the linear
// layer's, s/√2, as the VI methods use it.
func linearPriorStd(s float64) float64 { return model.Arch{Widths: []int{1, 1}}.PriorStd(0, s) }

// exactLinearCov is the flat-prior posterior of (b0, b) as ExactLinear
// derives it: a Student-t with centre β̂ and covariance S/(N−5)·(XᵀX)⁻¹,
// returned as that centre and covariance (its contours are the ellipses
// of this Gaussian). ok as ExactLinear's.
func exactLinearCov(x, y []float64) (g model.Gauss2, ok bool) {
	g, _, ok = linearFit(x, y)
	return g, ok
}

// linearFit is the least-squares fit β̂ of y on [1, x], as the centre of g
// with g's covariance S/(N−5)·(XᵀX)⁻¹, and S its residual sum of squares.
// ok is false with fewer than 6 points or inputs all equal.
func linearFit(x, y []float64) (g model.Gauss2, S float64, ok bool) {
	if len(x) < 6 || len(y) != len(x) {
		return g, 0, false
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
		return g, 0, false
	}
	// (XᵀX)⁻¹ = [sxx −sx; −sx n]/det
	b := (n*sxy - sx*sy) / det
	b0 := (sy - b*sx) / n
	for i, xi := range x {
		r := y[i] - b0 - b*xi
		S += r * r
	}
	c := S / (n - 5) / det
	return model.Gauss2{Mean: [2]float64{b0, b}, Cov: [2][2]float64{{c * sxx, -c * sx}, {-c * sx, c * n}}}, S, true
}
