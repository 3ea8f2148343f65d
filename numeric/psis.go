package numeric

import (
	"math"
	"slices"
)

// ParetoKhat is the Pareto k̂ diagnostic of importance sampling with the
// given log-ratios log p̃(θₛ) − log q(θₛ), θₛ ~ q independent (Vehtari,
// Simpson, Gelman, Yao and Gabry, "Pareto smoothed importance sampling",
// JMLR 2024). It fits a generalised Pareto distribution to the M =
// ⌈min(S/5, 3√S)⌉ largest importance ratios above the next one, by Zhang
// and Stephens' (2009) empirical Bayes estimate, regularised toward 0.5
// as if by ten more draws, k̂ ← (M·k̂ + 10·0.5)/(M + 10); this is R's
// loo::psis with r_eff = 1 (loo 2.5.1's gpdfit with its defaults). k̂ is
// the estimated shape of the ratios' right tail: the ratios have 1/k̂
// finite moments, and an estimate from S draws is reliable when k̂ ≤
// ParetoKThreshold(S), at most 0.7.
//
// Draws outside p's support (log-ratio −Inf) count with weight zero. k̂ is
// +Inf where loo reports Inf: with fewer than 5 tail draws (S < 25), with
// a tail whose largest and smallest log-ratios differ by less than 2⁻⁵²/100,
// with a +Inf log-ratio or all −Inf, or where the fit fails (NaN). It is NaN if a
// log-ratio is NaN. ParetoKhat sorts a copy of logRatios.
func ParetoKhat(logRatios []float64) float64 {
	s := len(logRatios)
	m := int(math.Ceil(math.Min(0.2*float64(s), 3*math.Sqrt(float64(s)))))
	if m < 5 || m >= s {
		return math.Inf(1)
	}
	lw := slices.Clone(logRatios)
	for _, r := range lw {
		switch {
		case math.IsNaN(r):
			return math.NaN()
		case math.IsInf(r, 1):
			return math.Inf(1)
		}
	}
	slices.Sort(lw)
	top := lw[s-1]
	if math.IsInf(top, -1) {
		return math.Inf(1) // every draw is outside p's support
	}
	tail, cutoff := lw[s-m:], lw[s-m-1]-top
	if tail[m-1]-tail[0] < 0x1p-52/100 {
		return math.Inf(1)
	}
	// The exceedances of the ratios (scaled by the largest) over the cutoff.
	ec := math.Exp(cutoff)
	for i, t := range tail {
		tail[i] = math.Exp(t-top) - ec
	}
	k := gpdShape(tail)
	if math.IsNaN(k) {
		return math.Inf(1)
	}
	return k
}

// gpdShape is Zhang and Stephens' (2009) estimate of the shape k of a
// generalised Pareto distribution from the sorted exceedances x, with
// loo's prior (3) on the grid of θ = −k/σ, its grid of 30 + ⌊√N⌋ points,
// and its weakly informative regularisation of k toward 0.5.
func gpdShape(x []float64) float64 {
	n := len(x)
	const prior = 3
	grid := 30 + int(math.Floor(math.Sqrt(float64(n))))
	xstar := x[int(math.Floor(float64(n)/4+0.5))-1] // R's x[floor(N/4 + 0.5)], 1-based
	theta := make([]float64, grid)
	logLik := make([]float64, grid)
	for j := range grid {
		theta[j] = 1/x[n-1] + (1-math.Sqrt(float64(grid)/(float64(j+1)-0.5)))/prior/xstar
		// The profile log-likelihood of θ, N·(log(−θ/k) − k − 1) with
		// k = mean log(1 − θx).
		k := meanLog1p(-theta[j], x)
		logLik[j] = float64(n) * (math.Log(-theta[j]/k) - k - 1)
	}
	lse := logSumExpSlice(logLik)
	thetaHat := 0.0
	for j := range grid {
		thetaHat += theta[j] * math.Exp(logLik[j]-lse)
	}
	k := meanLog1p(-thetaHat, x)
	const a = 10 // prior draws at k = 0.5
	return k*float64(n)/float64(n+a) + a*0.5/float64(n+a)
}

// meanLog1p is the mean of log(1 + a·xᵢ).
func meanLog1p(a float64, x []float64) float64 {
	s := 0.0
	for _, xi := range x {
		s += math.Log1p(a * xi)
	}
	return s / float64(len(x))
}

// logSumExpSlice is log Σ e^{vᵢ}, shifted by the largest finite value; NaN
// entries propagate.
func logSumExpSlice(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		if x > m {
			m = x
		}
	}
	if math.IsInf(m, 0) {
		return m
	}
	s := 0.0
	for _, x := range v {
		s += math.Exp(x - m)
	}
	return m + math.Log(s)
}

// ParetoKThreshold is the largest k̂ at which S draws estimate an
// importance-weighted expectation reliably, min(1 − 1/log₁₀ S, 0.7)
// (Vehtari et al. 2024, section 3.2.4): 0.7 from S = 2,155 draws up.
func ParetoKThreshold(s int) float64 {
	return math.Min(1-1/math.Log10(float64(s)), 0.7)
}
