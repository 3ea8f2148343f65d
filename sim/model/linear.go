package model

import (
	"math"

	"github.com/posterior-playground/playground/sim"
)

// FixedNoise is the linear model's control that puts every method on one
// posterior: above 0, σ is held at its value and b0, b carry the prior
// N(0, PriorStd(0, s)²) = N(0, s²/2) in every method, samplers included;
// at 0 (the default) σ is learned by the VI methods and sampled by the
// samplers under flat priors, as before.
const FixedNoise = "fixed_noise"

// FixedNoiseControl is the spec of FixedNoise, the same in every method
// on the linear model. It is set at the start of a run only: on a sampler
// it changes the dimension of the target.
func FixedNoiseControl() sim.ControlSpec {
	return sim.ControlSpec{
		Name: FixedNoise, Label: "Fixed noise σ",
		Help: "0: σ is inferred (VI: a point estimate; samplers: sampled, flat priors); above 0: σ held there and b0, b ~ N(0, s²/2) in every method, so all fit one posterior",
		Min:  0, Max: 5, Step: 0.01, Default: sim.Num(0), Unit: sim.UnitY,
	}
}

// linearNames are the human names of the linear model's weights, b0 first.
var linearNames = [2]string{"intercept b0", "slope b"}

// LinearWeightName names a weight of the linear model by its flat index in
// Layout's order (W = [b; b0]: index 0 is the slope, 1 the intercept).
func LinearWeightName(index int) string {
	switch index {
	case 0:
		return linearNames[1]
	case 1:
		return linearNames[0]
	}
	return ""
}

// Gauss2 is a bivariate normal over (b0, b): its mean and covariance.
type Gauss2 struct {
	Mean [2]float64    `json:"mean"`
	Cov  [2][2]float64 `json:"cov"`
}

// SD returns the marginal standard deviations of b0 and b.
func (g Gauss2) SD() [2]float64 {
	return [2]float64{math.Sqrt(g.Cov[0][0]), math.Sqrt(g.Cov[1][1])}
}

// Corr returns the correlation of b0 and b.
func (g Gauss2) Corr() float64 {
	return g.Cov[0][1] / math.Sqrt(g.Cov[0][0]*g.Cov[1][1])
}

// LinearPosterior returns the exact posterior of (b0, b) of the linear model
// y = b0 + b·x + σε with σ = noiseStd held and the prior b0, b ~ N(0, τ²),
// τ = priorStd: with X = [1, x],
//
//	P = XᵀX/σ² + I/τ²,   Σ = P⁻¹,   m = Σ Xᵀy/σ².
//
// ok is false unless σ and τ are positive and finite and the data have
// matching lengths.
func LinearPosterior(x, y []float64, noiseStd, priorStd float64) (g Gauss2, ok bool) {
	if len(x) != len(y) || !(noiseStd > 0) || !(priorStd > 0) || math.IsInf(noiseStd, 0) || math.IsInf(priorStd, 0) {
		return Gauss2{}, false
	}
	var sx, sxx, sy, sxy float64
	for i, xi := range x {
		sx += xi
		sxx += xi * xi
		sy += y[i]
		sxy += xi * y[i]
	}
	iv, ip := 1/(noiseStd*noiseStd), 1/(priorStd*priorStd)
	p00, p01, p11 := float64(len(x))*iv+ip, sx*iv, sxx*iv+ip
	det := p00*p11 - p01*p01 // > 0: P ≥ I/τ²
	g.Cov = [2][2]float64{{p11 / det, -p01 / det}, {-p01 / det, p00 / det}}
	r0, r1 := sy*iv, sxy*iv
	g.Mean = [2]float64{g.Cov[0][0]*r0 + g.Cov[0][1]*r1, g.Cov[1][0]*r0 + g.Cov[1][1]*r1}
	return g, true
}

// MeanFieldOf returns the optimum of mean-field VI, q(b0)q(b) Gaussian, for
// the Gaussian target g: the exact means and the variances 1/P_ii, the
// inverse diagonal of the precision, so each sd is the exact one times
// √(1 − ρ²) (ρ the correlation). Bishop (2006) §10.1.2.
func MeanFieldOf(g Gauss2) Gauss2 {
	r := g.Corr()
	s := 1 - r*r
	return Gauss2{Mean: g.Mean, Cov: [2][2]float64{{g.Cov[0][0] * s, 0}, {0, g.Cov[1][1] * s}}}
}

// Joint is the "joint" frame extra of a method on the linear model: its
// posterior of (b0, b), as a Gaussian (VI) or as recent draws (samplers),
// beside the exact posterior when one is known, for the joint view
// (static/app/joint.js).
type Joint struct {
	Names [2]string `json:"names"` // "intercept b0", "slope b"
	// Gaussian is the method's q(b0, b) (VI); nil for samplers.
	Gaussian *Gauss2 `json:"gaussian,omitempty"`
	// B0 and B are recent draws of b0 and b (samplers), pooled over chains;
	// Chains is every chain's current (b0, b), Warmup whether the chains
	// are still in warm-up (their states are not draws yet).
	B0     []float64    `json:"b0,omitempty"`
	B      []float64    `json:"b,omitempty"`
	Chains [][2]float64 `json:"chains,omitempty"`
	// Paths is each chain's (b0, b) from its start over its first
	// transitions (PathDone once complete), for a replay of warm-up.
	Paths    [][][2]float64 `json:"paths,omitempty"`
	PathDone bool           `json:"path_done,omitempty"`
	// Moments are the mean and sd of b0 and b over all retained draws
	// (samplers), steadier than the few shown.
	Moments []sim.Moments `json:"moments,omitempty"`
	Warmup  bool          `json:"warmup,omitempty"`
	// Sigma is the method's estimate of σ when it infers it; nil when held.
	Sigma *sim.Moments `json:"sigma,omitempty"`
	// FixedNoise is σ when held (0 when inferred).
	FixedNoise float64 `json:"fixed_noise"`
	// Exact is the exact posterior of (b0, b) the method targets, nil when
	// not known in closed form (VI with σ inferred: a point estimate of σ
	// has no exact counterpart); ExactCorr is its correlation.
	Exact     *Gauss2 `json:"exact,omitempty"`
	ExactCorr float64 `json:"exact_corr,omitempty"`
}

// NewJoint returns a Joint with the linear model's names and, when σ is
// held (fixedNoise > 0), the exact posterior on x, y at prior std τ.
func NewJoint(x, y []float64, fixedNoise, priorStd float64) *Joint {
	j := &Joint{Names: linearNames, FixedNoise: fixedNoise}
	if fixedNoise > 0 {
		if g, ok := LinearPosterior(x, y, fixedNoise, priorStd); ok {
			j.Exact, j.ExactCorr = &g, g.Corr()
		}
	}
	return j
}
